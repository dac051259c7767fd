public import ArrangeModel
import ArrangeStore
public import Foundation

/// Lists were moved to the Trash at a moment, each with the items and headings it holds: they keep their keys there,
/// and show only in the Trash. One already in the Trash keeps the moment it went there.
public struct ListsTrashed: ChangeKind {
    package static let name: StaticString = "trashLists"

    /// The lists.
    public var ids: [ItemList.ID]
    /// The moment.
    public var at: Date

    /// The change of these parts.
    public init(ids: [ItemList.ID], at: Date) { (self.ids, self.at) = (ids, at) }

    package var change: SyncChange { .trashLists(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }, .member("at") { $0.at }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"), at: try members.value("at"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { ListsTrashed(ids: $0, at: at) }
    }
}

extension ListsTrashed: TrashingChange {
    package typealias Row = ItemList
    package typealias PutBack = ListsPutBack
}

extension SyncChange {
    /// A change of the kind ``ListsTrashed``, of these parts.
    public static func trashLists(ids: [ItemList.ID], at: Date) -> SyncChange {
        .trashLists(ListsTrashed(ids: ids, at: at))
    }
}
