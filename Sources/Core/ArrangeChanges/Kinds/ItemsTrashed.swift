public import ArrangeModel
import ArrangeStore
public import Foundation

/// Items were moved to the Trash at a moment: they keep their keys there,
/// and show only in the Trash. One already in the Trash keeps the moment it went there.
public struct ItemsTrashed: ChangeKind {
    package static let name: StaticString = "trashItems"

    /// The items.
    public var ids: [Item.ID]
    /// The moment.
    public var at: Date

    /// The change of these parts.
    public init(ids: [Item.ID], at: Date) { (self.ids, self.at) = (ids, at) }

    package var change: SyncChange { .trashItems(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }, .member("at") { $0.at }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"), at: try members.value("at"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { ItemsTrashed(ids: $0, at: at) }
    }
}

extension ItemsTrashed: TrashingChange {
    package typealias Row = Item
    package typealias PutBack = ItemsPutBack
}

extension SyncChange {
    /// A change of the kind ``ItemsTrashed``, of these parts.
    public static func trashItems(ids: [Item.ID], at: Date) -> SyncChange {
        .trashItems(ItemsTrashed(ids: ids, at: at))
    }
}
