public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// A list was deleted with its items and headings.
public struct ListDeleted: ChangeKind {
    package static let name: StaticString = "deleteList"

    /// The list.
    public var id: ItemList.ID

    /// The change of these parts.
    public init(id: ItemList.ID) {
        self.id = id
    }

    package var change: SyncChange { .deleteList(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var id: ItemList.ID?
        try json.members(["id"]) { json, _ throws(OperationJSONReader.GiveUp) in id = try json.identifier() }
        self.init(id: try json.required(id))
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("id") { $0.id(id) }
    }

    package var sizeBound: Int { ChangeSize.id }

    package func apply(in context: ChangeContext) throws {
        guard let list = try context.transaction.list(id: id) else { return }
        try context.bury(list.entry, in: list.scope)
        for item in try context.transaction.items(in: id, visibility: .all, offset: 0, limit: .max) { try context.bury(item) }
        try context.transaction.deleteList(id: id)
    }
}

extension SyncChange {
    /// A change of the kind ``ListDeleted``, of these parts.
    public static func deleteList(id: ItemList.ID) -> SyncChange {
        .deleteList(ListDeleted(id: id))
    }
}
