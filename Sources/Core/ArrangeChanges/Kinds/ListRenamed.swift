public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// A list was renamed.
public struct ListRenamed: ChangeKind {
    package static let name: StaticString = "renameList"

    /// The list.
    public var id: ItemList.ID
    /// Its new name; a number is added where another list has it.
    public var name: String

    /// The change of these parts.
    public init(id: ItemList.ID, name: String) { (self.id, self.name) = (id, name) }

    package var change: SyncChange { .renameList(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }, .member("name") { $0.name }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), name: try members.value("name"))
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: name, as: .listName)
    }
}

extension ListRenamed: RowTextChange, ListFieldChange {
    package var text: String { name }
    package init(_ id: ItemList.ID, text: String) { self.init(id: id, name: text) }
    package static var field: WritableKeyPath<Row, String> { \.name }
    package func storable(in context: ChangeContext) throws -> String { try context.freeName(ChangeContext.storable(title: name), except: id) }
}

extension SyncChange {
    /// A change of the kind ``ListRenamed``, of these parts.
    public static func renameList(id: ItemList.ID, name: String) -> SyncChange {
        .renameList(ListRenamed(id: id, name: name))
    }
}
