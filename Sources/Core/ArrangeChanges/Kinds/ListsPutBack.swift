public import ArrangeModel
import ArrangeStore

/// Lists were put back from the Trash, each with the items and headings that went there with it:
/// each where its keys kept its place.
public struct ListsPutBack: ChangeKind {
    package static let name: StaticString = "restoreLists"

    /// The lists.
    public var ids: [ItemList.ID]

    /// The change of these parts.
    public init(ids: [ItemList.ID]) { self.ids = ids }

    package var change: SyncChange { .restoreLists(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { ListsPutBack(ids: $0) }
    }
}

extension ListsPutBack: PuttingBackChange {
    package typealias Row = ItemList
    package typealias Trashing = ListsTrashed
}

extension SyncChange {
    /// A change of the kind ``ListsPutBack``, of these parts.
    public static func restoreLists(ids: [ItemList.ID]) -> SyncChange {
        .restoreLists(ListsPutBack(ids: ids))
    }
}
