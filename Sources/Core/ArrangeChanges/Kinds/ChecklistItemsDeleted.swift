public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

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

extension SyncChange {
    /// A change of the kind ``ChecklistItemsDeleted``, of these parts.
    public static func deleteChecklistItems(ids: [ChecklistItem.ID]) -> SyncChange {
        .deleteChecklistItems(ChecklistItemsDeleted(ids: ids))
    }
}
