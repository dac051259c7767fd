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
        // Ticked off and canceled alike.
        for var entry in try context.existingChecklistItems(ids) where entry.completedAt != nil || entry.isCanceled {
            (entry.completedAt, entry.isCanceled) = (nil, false)
            try context.transaction.update(entry)
        }
    }
}

extension ChecklistItemsReopened: ReversibleChange, FieldChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        let entries = try existingChecklistItems(ids, in: store)
        return [false, true].flatMap { canceled in
            Self.grouped(entries.filter { $0.isCanceled == canceled }, by: \.completedAt) { SyncChange.closing($0, at: $1, canceled: canceled) }
        }
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try checklistConflict(ids, in: store) { $0.completedAt == nil }
    }

    /// A reopening, also of an entry closed again at another moment, or the other way.
    package static func changes(from old: ChecklistItem?, to entry: ChecklistItem) -> [Self] {
        guard let old, old.completedAt != nil, !isSameMoment(old.completedAt, entry.completedAt) || old.isCanceled != entry.isCanceled else {
            return []
        }
        return [ChecklistItemsReopened(ids: [entry.id])]
    }
}

extension SyncChange {
    /// A change of the kind ``ChecklistItemsReopened``, of these parts.
    public static func reopenChecklistItems(ids: [ChecklistItem.ID]) -> SyncChange {
        .reopenChecklistItems(ChecklistItemsReopened(ids: ids))
    }
}
