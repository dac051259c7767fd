public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// Items were deleted, from their lists and from Today, with their checklists.
public struct ItemsDeleted: ChangeKind {
    package static let name: StaticString = "deleteItems"

    /// The items.
    public var ids: [Item.ID]

    /// The change of these parts.
    public init(ids: [Item.ID]) { self.ids = ids }

    package var change: SyncChange { .deleteItems(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { ItemsDeleted(ids: $0) }
    }

    package func apply(in context: ChangeContext) throws {
        for item in try context.existingItems(ids) {
            try context.bury(item)
            try context.transaction.deleteItem(id: item.id)
        }
    }
}

extension SyncChange {
    /// A change of the kind ``ItemsDeleted``, of these parts.
    public static func deleteItems(ids: [Item.ID]) -> SyncChange {
        .deleteItems(ItemsDeleted(ids: ids))
    }
}
