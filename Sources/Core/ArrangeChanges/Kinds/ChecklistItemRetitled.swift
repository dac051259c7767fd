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
}

extension ChecklistItemRetitled: RowTextChange {
    package typealias Row = ChecklistItem
    package var text: String { title }
    package init(_ id: ChecklistItem.ID, text: String) { self.init(id: id, title: text) }
    package static var field: WritableKeyPath<Row, String> { \.title }
    package static func row(_ id: ChecklistItem.ID, in store: any ItemReading) throws -> ChecklistItem? { try store.checklistItem(id: id) }
    package static func stored(_ row: ChecklistItem) -> StoreRow { .checklistItem(row) }
    package func conflict(in store: any ItemReading) throws -> ChangeConflict? { try checklistConflict([id], in: store) { $0.title == title } }
}

extension SyncChange {
    /// A change of the kind ``ChecklistItemRetitled``, of these parts.
    public static func editChecklistItem(id: ChecklistItem.ID, title: String) -> SyncChange {
        .editChecklistItem(ChecklistItemRetitled(id: id, title: title))
    }
}
