public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// A list was deleted with its items and headings.
public struct ListDeleted: ChangeKind {
    package static let name: StaticString = "deleteList"

    /// The list.
    public var id: ItemList.ID

    /// The change of these parts.
    public init(id: ItemList.ID) { self.id = id }

    package var change: SyncChange { .deleteList(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"))
    }

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
