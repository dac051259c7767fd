import ArgumentParser
import ArrangeIntents
import ArrangeModel

// The lists: `lists`, `createList`, `renameList`, `deleteList`.

enum ListsRequest: RequestForm {
    static let name = "lists"
    static let summary = "Show every list, in its hand-made order, with how many items it has."
    static let parameters: [any AnyParameter] = []

    static func readsOnly(_ fields: RequestFields) -> Bool { true }

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) -> GetLists { GetLists() }
}

struct ListsCommand: RequestCommand {
    typealias Form = ListsRequest
    static let configuration = CommandConfiguration.request(Form.self)
    @OptionGroup var shared: SharedOptions

    var fields: RequestFields { RequestFields() }

    func text(for result: ListsResult, in session: CommandSession) async throws -> String {
        TextFormat.lists(result.lists, defaultList: try await session.defaultListID())
    }
}

enum CreateListRequest: RequestForm {
    static let name = "createList"
    static let summary = "Create an empty list."
    static let listName = Parameter<String>("name", required: true, help: "The new list's name; no two lists may share a name, ignoring case.")
    static let parameters: [any AnyParameter] = [listName]

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> CreateList {
        CreateList(name: try fields.value(listName))
    }
}

struct CreateListCommand: RequestCommand {
    typealias Form = CreateListRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange create-list Groceries")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.listName, valueName: "name")) var name: [String]

    var fields: RequestFields { RequestFields().with(Form.listName, name.joined(separator: " ")) }

    func text(for result: ListResult, in session: CommandSession) -> String {
        "Created the list \(TextFormat.quoted(result.list.name))."
    }
}

enum RenameListRequest: RequestForm {
    static let name = "renameList"
    static let summary = "Give a list a new name."
    static let list = Parameter<ListReference>("list", required: true, help: "The list to rename, by name or id.")
    static let newName = Parameter<String>("name", required: true, help: "The list's new name.")
    static let parameters: [any AnyParameter] = [list, newName]

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> RenameList {
        RenameList(list: try resolve.list(try fields.value(list)).id, name: try fields.value(newName))
    }
}

struct RenameListCommand: RequestCommand {
    typealias Form = RenameListRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange rename-list Groceries Shopping")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.list, valueName: "list")) var list: ListReference
    @Argument(help: ArgumentHelp(Form.newName, valueName: "new-name")) var name: [String]

    var fields: RequestFields { RequestFields().with(Form.list, list).with(Form.newName, name.joined(separator: " ")) }

    func text(for result: ListResult, in session: CommandSession) -> String {
        "Renamed the list to \(TextFormat.quoted(result.list.name))."
    }
}

enum DeleteListRequest: RequestForm {
    static let name = "deleteList"
    static let summary = "Delete a list and all of its items (undo brings them back)."
    static let list = Parameter<ListReference>("list", required: true, help: "The list to delete, by name or id; the default list cannot be deleted.")
    static let parameters: [any AnyParameter] = [list]

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> DeleteList {
        DeleteList(list: try resolve.list(try fields.value(list)).id)
    }
}

struct DeleteListCommand: RequestCommand {
    typealias Form = DeleteListRequest
    static let configuration = CommandConfiguration.request(Form.self)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.list, valueName: "list")) var list: ListReference

    var fields: RequestFields { RequestFields().with(Form.list, list) }

    func text(for result: DeletedListResult, in session: CommandSession) -> String {
        "Deleted the list \(TextFormat.quoted(result.list.name)) and its \(result.deletedItems) item\(result.deletedItems == 1 ? "" : "s")."
    }
}
