import ArrangeModel
import ArrangeStore

/// Creates an empty list.
public struct CreateList: ArrangeIntent {
    public static let title = "Create List"
    public static let description = IntentDescription(
        name: "createList", title: title, summary: "Create an empty list.",
        parameters: [IntentParameter("name", .text, required: true, help: "The new list's name; no two lists may share a name, ignoring case.")])

    public var name: String

    public init(name: String) {
        self.name = name
    }

    public func perform(in environment: IntentEnvironment) async throws -> ListResult {
        try environment.write(Self.title) { transaction, resolve in
            let name = try Title.validated(name, as: .listName)
            let list = ItemList(id: ItemList.ID(rawValue: environment.newID()), name: name, createdAt: environment.clock())
            try transaction.insert(list)
            return (ListResult(list: try resolve.summary(of: list)), .listCreated(list.id))
        }
    }
}

/// Gives a list a new name.
public struct RenameList: ArrangeIntent {
    public static let title = "Rename List"
    public static let description = IntentDescription(
        name: "renameList", title: title, summary: "Give a list a new name.",
        parameters: [
            IntentParameter("list", .list, required: true, help: "The list to rename, by name or id."),
            IntentParameter("name", .text, required: true, help: "The list's new name."),
        ])

    public var list: ListReference
    public var name: String

    public init(list: ListReference, name: String) {
        self.list = list
        self.name = name
    }

    public func perform(in environment: IntentEnvironment) async throws -> ListResult {
        try environment.write(Self.title) { transaction, resolve in
            var list = try resolve.list(self.list)
            let old = list.name
            list.name = try Title.validated(name, as: .listName)
            guard list.name != old else { return (ListResult(list: try resolve.summary(of: list)), nil) }
            try transaction.update(list)
            return (ListResult(list: try resolve.summary(of: list)), .listRenamed(list.id, old))
        }
    }
}

/// Deletes a list and its items.
public struct DeleteList: ArrangeIntent {
    public static let title = "Delete List"
    public static let description = IntentDescription(
        name: "deleteList", title: title, summary: "Delete a list and all of its items (undo brings them back).",
        parameters: [IntentParameter("list", .list, required: true, help: "The list to delete, by name or id; the default list cannot be deleted.")])

    public var list: ListReference

    public init(list: ListReference) {
        self.list = list
    }

    public func perform(in environment: IntentEnvironment) async throws -> DeletedListResult {
        try environment.write(Self.title) { transaction, resolve in
            let list = try resolve.list(self.list)
            guard ItemList.nameKey(list.name) != ItemList.nameKey(environment.defaultListName) else {
                throw IntentError.defaultListProtected(list.name)
            }
            let summary = try resolve.summary(of: list)
            let items = try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max)
            try transaction.deleteList(id: list.id)
            return (DeletedListResult(list: summary, deletedItems: items.count), .listDeleted(list, items))
        }
    }
}

/// Lists every list, oldest first.
public struct GetLists: ArrangeIntent {
    public static let title = "Show Lists"
    public static let description = IntentDescription(
        name: "lists", title: title, summary: "Show every list, oldest first, with how many items it has.")

    public init() {}

    public func perform(in environment: IntentEnvironment) async throws -> ListsResult {
        try environment.read { resolve in
            ListsResult(lists: try resolve.transaction.lists().map { try resolve.summary(of: $0) })
        }
    }
}
