public import ArrangeModel
import ArrangeStore

/// Creates an empty list.
public struct CreateList: ArrangeIntent {
    public static let title = "Create List"

    /// The new list's name; no two lists may share a name, ignoring case.
    public var name: String

    /// Creates a list named `name`.
    public init(name: String) {
        self.name = name
    }

    public func run(in context: IntentContext) throws -> ListResult {
        let transaction = try context.writing(Self.title)
        let name = try Title.validated(name, as: .listName)
        let list = ItemList(id: ItemList.ID(rawValue: context.environment.newID()), name: name, createdAt: context.now())
        try transaction.insert(list)
        context.record(.listCreated(list.id))
        return ListResult(list: try context.summary(of: list))
    }
}

/// Gives a list a new name.
public struct RenameList: ArrangeIntent {
    public static let title = "Rename List"

    /// The list.
    public var list: ItemList.ID
    /// The new name; no two lists may share a name, ignoring case.
    public var name: String

    /// Renames `list` to `name`.
    public init(list: ItemList.ID, name: String) {
        self.list = list
        self.name = name
    }

    public func run(in context: IntentContext) throws -> ListResult {
        let transaction = try context.writing(Self.title)
        var list = try context.list(self.list)
        let old = list.name
        list.name = try Title.validated(name, as: .listName)
        guard list.name != old else { return ListResult(list: try context.summary(of: list)) }
        try transaction.update(list)
        context.record(.listRenamed(list.id, old))
        return ListResult(list: try context.summary(of: list))
    }
}

/// Deletes a list and its items; undo brings both back. The default list cannot be deleted.
public struct DeleteList: ArrangeIntent {
    public static let title = "Delete List"

    /// The list.
    public var list: ItemList.ID

    /// Deletes `list` and its items.
    public init(list: ItemList.ID) {
        self.list = list
    }

    public func run(in context: IntentContext) throws -> DeletedListResult {
        let transaction = try context.writing(Self.title)
        let list = try context.list(self.list)
        guard try transaction.defaultListID() != list.id else { throw IntentError.defaultListProtected(list.name) }
        let summary = try context.summary(of: list)
        if context.recordsHistory {
            context.record(.listDeleted(list, try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max)))
        }
        try transaction.deleteList(id: list.id)
        return DeletedListResult(list: summary, deletedItems: summary.totalItems)
    }
}

/// Every list, oldest first, with its item counts.
public struct GetLists: ArrangeIntent {
    public static let title = "Show Lists"

    /// Creates the intent; it takes no parameters.
    public init() {}

    public var isReadOnly: Bool { true }

    public func run(in context: IntentContext) throws -> ListsResult {
        ListsResult(lists: try context.transaction.lists().map { try context.summary(of: $0) })
    }
}
