public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// A checklist entry got a new title.
public struct ChecklistItemRetitled: ChangeKind {
    package static let name: StaticString = "editChecklistItem"

    /// The entry.
    public var id: ChecklistItem.ID
    /// Its new title.
    public var title: String

    /// The change of these parts.
    public init(id: ChecklistItem.ID, title: String) { (self.id, self.title) = (id, title) }

    package var change: SyncChange { .editChecklistItem(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }, .member("title") { $0.title }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), title: try members.value("title"))
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: title, as: .title)
    }

    package func apply(in context: ChangeContext) throws {
        guard var entry = try context.transaction.checklistItem(id: id) else { return }
        entry.title = ChangeContext.storable(title: title)
        try context.transaction.update(entry)
    }
}

extension ChecklistItemRetitled: ReversibleChange, FieldChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        guard let entry = try store.checklistItem(id: id), entry.title != title else { return [] }
        return [ChecklistItemRetitled(id: id, title: entry.title)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try checklistConflict([id], in: store) { $0.title == title }
    }

    package static func changes(from old: ChecklistItem?, to entry: ChecklistItem) -> [Self] {
        guard let old, old.title != entry.title else { return [] }
        return [ChecklistItemRetitled(id: entry.id, title: entry.title)]
    }
}

extension SyncChange {
    /// A change of the kind ``ChecklistItemRetitled``, of these parts.
    public static func editChecklistItem(id: ChecklistItem.ID, title: String) -> SyncChange {
        .editChecklistItem(ChecklistItemRetitled(id: id, title: title))
    }
}
