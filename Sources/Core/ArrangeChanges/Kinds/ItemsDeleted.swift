public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

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

extension ItemsDeleted: ReversibleChange {
    /// The items back where they are now, in their lists and in Today, with their checklists.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        [ItemsRestored(try ChangeRecord.placedItems(try existingItems(ids, in: store), in: store))]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        for id in Set(ids).sorted() where try store.item(id: id) != nil { return .itemExistsAgain(id) }
        return nil
    }
}

/// Deleted items put back as they were, each after the item that was before it in its list and
/// in Today, with their checklists: how undo takes a delete back. It refuses when one exists
/// again, or the item before its place is gone.
package struct ItemsRestored: ReversibleChange {
    /// The items, with where they were, in an order in which they can be put back.
    package var placed: [ChangeRecord.PlacedItem]

    package init(_ placed: [ChangeRecord.PlacedItem]) { self.placed = placed }

    var ids: [Item.ID] { placed.map(\.item.id) }

    package func apply(in context: ChangeContext) throws {
        try context.restore(placed)
    }

    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        [ItemsDeleted(ids: ids)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        for id in ids where try store.item(id: id) == nil { return .itemGone(id) }
        return nil
    }

    /// Each item as it is now, told as made: its creation, its fields, its checklist, its place in Today.
    package func told(in store: any ItemReading) throws -> [SyncChange] {
        try SyncChange.changes(
            bringingLists: [:], items: Dictionary(uniqueKeysWithValues: ids.map { ($0, nil) }),
            checklistItems: Dictionary(uniqueKeysWithValues: placed.flatMap(\.checklist).map { ($0.id, nil) }), upToDateIn: store)
    }
}

extension SyncChange {
    /// A change of the kind ``ItemsDeleted``, of these parts.
    public static func deleteItems(ids: [Item.ID]) -> SyncChange {
        .deleteItems(ItemsDeleted(ids: ids))
    }
}
