public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore
public import Foundation

/// Checklist entries were completed at a moment.
public struct ChecklistItemsCompleted: ChangeKind {
    package static let name: StaticString = "completeChecklistItems"

    /// The entries.
    public var ids: [ChecklistItem.ID]
    /// The moment.
    public var at: Date

    /// The change of these parts.
    public init(ids: [ChecklistItem.ID], at: Date) { (self.ids, self.at) = (ids, at) }

    package var change: SyncChange { .completeChecklistItems(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }, .member("at") { $0.at }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"), at: try members.value("at"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { ChecklistItemsCompleted(ids: $0, at: at) }
    }

    package func apply(in context: ChangeContext) throws {
        for var entry in try context.existingChecklistItems(ids) where entry.completedAt == nil {
            (entry.completedAt, entry.isCanceled) = (at, false)
            try context.transaction.update(entry)
        }
    }
}

extension ChecklistItemsCompleted: ReversibleChange, FieldChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        let completing = try existingChecklistItems(ids, in: store).filter { $0.completedAt == nil }.map(\.id)
        return completing.isEmpty ? [] : [SyncChange.reopening(completing)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try checklistConflict(ids, in: store) { !$0.isCanceled && Self.isSameMoment($0.completedAt, at) }
    }

    /// A completion at a new moment, or of an entry canceled before; a reopening, before it in
    /// the registry, reopens first.
    package static func changes(from old: ChecklistItem?, to entry: ChecklistItem) -> [Self] {
        guard let done = entry.completedAt, !entry.isCanceled, old?.isCanceled == true || !isSameMoment(old?.completedAt, done) else { return [] }
        return [ChecklistItemsCompleted(ids: [entry.id], at: done)]
    }
}

extension SyncChange {
    /// A change of the kind ``ChecklistItemsCompleted``, of these parts.
    public static func completeChecklistItems(ids: [ChecklistItem.ID], at: Date) -> SyncChange {
        .completeChecklistItems(ChecklistItemsCompleted(ids: ids, at: at))
    }
}
