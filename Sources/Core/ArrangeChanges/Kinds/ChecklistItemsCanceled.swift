public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore
public import Foundation

/// Open checklist entries were canceled at a moment, as Things' status 2. A ticked-off entry
/// stays ticked off.
public struct ChecklistItemsCanceled: ChangeKind {
    package static let name: StaticString = "cancelChecklistItems"

    /// The entries.
    public var ids: [ChecklistItem.ID]
    /// The moment.
    public var at: Date

    /// The change of these parts.
    public init(ids: [ChecklistItem.ID], at: Date) { (self.ids, self.at) = (ids, at) }

    package var change: SyncChange { .cancelChecklistItems(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }, .member("at") { $0.at }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"), at: try members.value("at"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { ChecklistItemsCanceled(ids: $0, at: at) }
    }

    package func apply(in context: ChangeContext) throws {
        for var entry in try context.existingChecklistItems(ids) where entry.completedAt == nil {
            (entry.completedAt, entry.isCanceled) = (at, true)
            try context.transaction.update(entry)
        }
    }
}

extension ChecklistItemsCanceled: ReversibleChange, FieldChange {
    /// Reopening the entries it cancels.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        let canceling = try existingChecklistItems(ids, in: store).filter { $0.completedAt == nil }.map(\.id)
        return canceling.isEmpty ? [] : [SyncChange.reopening(canceling)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try checklistConflict(ids, in: store) { $0.isCanceled && Self.isSameMoment($0.completedAt, at) }
    }

    /// A cancelation at a new moment, or of an entry ticked off before; a reopening, before it
    /// in the registry, reopens first.
    package static func changes(from old: ChecklistItem?, to entry: ChecklistItem) -> [Self] {
        guard let done = entry.completedAt, entry.isCanceled, old?.isCanceled != true || !isSameMoment(old?.completedAt, done) else { return [] }
        return [ChecklistItemsCanceled(ids: [entry.id], at: done)]
    }
}

extension SyncChange {
    /// A change of the kind ``ChecklistItemsCanceled``, of these parts.
    public static func cancelChecklistItems(ids: [ChecklistItem.ID], at: Date) -> SyncChange {
        .cancelChecklistItems(ChecklistItemsCanceled(ids: ids, at: at))
    }
}
