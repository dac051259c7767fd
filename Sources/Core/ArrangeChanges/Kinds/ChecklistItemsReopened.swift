public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// Checklist entries were reopened.
public struct ChecklistItemsReopened: ChangeKind {
    package static let name: StaticString = "reopenChecklistItems"

    /// The entries.
    public var ids: [ChecklistItem.ID]

    /// The change of these parts.
    public init(ids: [ChecklistItem.ID]) { self.ids = ids }

    package var change: SyncChange { .reopenChecklistItems(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { ChecklistItemsReopened(ids: $0) }
    }

    package func apply(in context: ChangeContext) throws {
        for var entry in try context.existingChecklistItems(ids) where entry.completedAt != nil {
            entry.completedAt = nil
            try context.transaction.update(entry)
        }
    }
}

extension ChecklistItemsReopened: ReversibleChange, FieldChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        Self.grouped(try existingChecklistItems(ids, in: store), by: \.completedAt) { ChecklistItemsCompleted(ids: $0, at: $1) }
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try checklistConflict(ids, in: store) { $0.completedAt == nil }
    }

    /// A reopening, also of an entry completed again at another moment.
    package static func changes(from old: ChecklistItem?, to entry: ChecklistItem) -> [Self] {
        guard old?.completedAt != nil, !isSameMoment(old?.completedAt, entry.completedAt) else { return [] }
        return [ChecklistItemsReopened(ids: [entry.id])]
    }
}

extension SyncChange {
    /// A change of the kind ``ChecklistItemsReopened``, of these parts.
    public static func reopenChecklistItems(ids: [ChecklistItem.ID]) -> SyncChange {
        .reopenChecklistItems(ChecklistItemsReopened(ids: ids))
    }
}
