public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// A list got new notes: empty ones take its notes away.
public struct ListNotesSet: ChangeKind {
    package static let name: StaticString = "setListNotes"

    /// The list.
    public var id: ItemList.ID
    /// Its notes.
    public var notes: String

    /// The change of these parts.
    public init(id: ItemList.ID, notes: String) { (self.id, self.notes) = (id, notes) }

    package var change: SyncChange { .setListNotes(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }, .member("notes") { $0.notes }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), notes: try members.value("notes"))
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.notes(notes)
    }
}

extension ListNotesSet: ListFieldChange {
    package var value: String { notes }
    package init(_ id: ItemList.ID, value: String) { self.init(id: id, notes: value) }
    package static var field: WritableKeyPath<Row, String> { \.notes }
    package static var valueOnCreation: String? { "" }

    /// The notes as an item keeps them: cut to fit `Item.maximumNotesSize`, as from another program.
    package func storable(in context: ChangeContext) throws -> String { ChangeContext.storable(notes) }
}

extension SyncChange {
    /// A change of the kind ``ListNotesSet``, of these parts.
    public static func setListNotes(id: ItemList.ID, notes: String) -> SyncChange {
        .setListNotes(ListNotesSet(id: id, notes: notes))
    }
}
