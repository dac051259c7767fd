public import ArrangeModel
import ArrangeStore

/// Items were put back from the Trash:
/// each where its keys kept its place.
public struct ItemsPutBack: ChangeKind {
    package static let name: StaticString = "restoreItems"

    /// The items.
    public var ids: [Item.ID]

    /// The change of these parts.
    public init(ids: [Item.ID]) { self.ids = ids }

    package var change: SyncChange { .restoreItems(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { ItemsPutBack(ids: $0) }
    }
}

extension ItemsPutBack: PuttingBackChange {
    package typealias Row = Item
    package typealias Trashing = ItemsTrashed
}

extension SyncChange {
    /// A change of the kind ``ItemsPutBack``, of these parts.
    public static func restoreItems(ids: [Item.ID]) -> SyncChange {
        .restoreItems(ItemsPutBack(ids: ids))
    }
}
