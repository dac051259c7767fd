public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// Checklist entries were deleted.
public struct ChecklistItemsDeleted: ChangeKind {
    package static let name: StaticString = "deleteChecklistItems"

    /// The entries.
    public var ids: [ChecklistItem.ID]

    /// The change of these parts.
    public init(ids: [ChecklistItem.ID]) { self.ids = ids }

    package var change: SyncChange { .deleteChecklistItems(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { ChecklistItemsDeleted(ids: $0) }
    }

    package func apply(in context: ChangeContext) throws {
        for entry in try context.existingChecklistItems(ids) {
            try context.bury(entry.entry, in: .checklist(entry.itemID))
            try context.transaction.deleteChecklistItem(id: entry.id)
        }
    }
}

extension ChecklistItemsDeleted: ReversibleChange {
    /// The entries back where they are now.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        [ChecklistItemsRestored(try ChangeRecord.placedChecklistItems(try existingChecklistItems(ids, in: store), in: store))]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        for id in Set(ids).sorted() where try store.checklistItem(id: id) != nil { return .checklistItemExistsAgain(id) }
        return nil
    }
}

/// Deleted checklist entries put back as they were, each after the entry that was before it:
/// how undo takes a delete back. It refuses when one exists again, or the entry before its
/// place (or its item) is gone.
package struct ChecklistItemsRestored: ReversibleChange {
    /// The entries, with where they were, in an order in which they can be put back.
    package var placed: [ChangeRecord.PlacedChecklistItem]

    package init(_ placed: [ChangeRecord.PlacedChecklistItem]) { self.placed = placed }

    var ids: [ChecklistItem.ID] { placed.map(\.entry.id) }

    package func apply(in context: ChangeContext) throws {
        for placed in placed where try context.transaction.checklistItem(id: placed.entry.id) != nil {
            throw ChangeConflict.checklistItemExistsAgain(placed.entry.id)
        }
        for placed in placed {
            try context.ordering.add(
                placed.entry, at: try context.placement(after: placed.place).map { ChecklistItem.ID(entry: $0) }, in: context.transaction)
        }
    }

    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        [ChecklistItemsDeleted(ids: ids)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        for id in ids where try store.checklistItem(id: id) == nil { return .checklistItemGone(id) }
        return nil
    }

    /// Each entry as it is now, told as made.
    package func told(in store: any ItemReading) throws -> [SyncChange] {
        try SyncChange.changes(
            bringingLists: [:], items: [:], checklistItems: Dictionary(uniqueKeysWithValues: ids.map { ($0, nil) }), upToDateIn: store)
    }
}

extension SyncChange {
    /// A change of the kind ``ChecklistItemsDeleted``, of these parts.
    public static func deleteChecklistItems(ids: [ChecklistItem.ID]) -> SyncChange {
        .deleteChecklistItems(ChecklistItemsDeleted(ids: ids))
    }
}
