public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

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

    package func apply(in context: ChangeContext) throws {
        guard var list = try context.transaction.list(id: id) else { return }
        list.name = try context.freeName(ChangeContext.storable(title: name), except: id)
        try context.transaction.update(list)
    }
}

extension ListRenamed: ReversibleChange, FieldChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        guard let list = try store.list(id: id), list.name != name else { return [] }
        return [ListRenamed(id: id, name: list.name)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try store.list(id: id) == nil ? .listGone(id) : nil
    }

    package static func changes(from old: ItemList?, to list: ItemList) -> [Self] {
        guard let old, old.name != list.name else { return [] }
        return [ListRenamed(id: list.id, name: list.name)]
    }
}

extension SyncChange {
    /// A change of the kind ``ListRenamed``, of these parts.
    public static func renameList(id: ItemList.ID, name: String) -> SyncChange {
        .renameList(ListRenamed(id: id, name: name))
    }
}
