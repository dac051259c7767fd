import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

// The lists: `lists`, `createList`, `moveList`, `renameList`, `deleteList`.

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
    static let summary = "Create an empty list, at the bottom of the lists unless placed."
    static let listName = Parameter<String>("name", required: true, help: "The new list's name; no two lists may share a name, ignoring case.")
    static let placement = Parameter<ListPlacementReference>("placement", help: "Where it goes among the lists: top, bottom, before or after a list, or at an offset.")
    static let parameters: [any AnyParameter] = [listName, placement]

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> CreateList {
        CreateList(name: try fields.value(listName), placement: try resolve.placement(fields[placement] ?? .bottom))
    }
}

struct CreateListCommand: RequestCommand {
    typealias Form = CreateListRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Examples: arrange create-list Groceries; arrange create-list Errands --after Work")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.listName, valueName: "name")) var name: [String]
    @OptionGroup(title: "Placement") var placement: PlacementOptions<ListReference>

    var fields: RequestFields { RequestFields().with(Form.listName, name.joined(separator: " ")).with(Form.placement, placement.reference) }

    func text(for result: ListResult, in session: CommandSession) -> String {
        "Created the list \(TextFormat.quoted(result.list.name))."
    }
}

enum MoveListRequest: RequestForm {
    static let name = "moveList"
    static let summary = "Move a list to the top, the bottom, next to another list or to an offset among the lists."
    static let list = Parameter<ListReference>("list", required: true, help: "The list to move, by name or id.")
    static let placement = Parameter<ListPlacementReference>("placement", required: true, help: "Where it goes: top, bottom, before or after a list, or at an offset.")
    static let parameters: [any AnyParameter] = [list, placement]

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> MoveList {
        MoveList(try resolve.list(try fields.value(list)).id, to: try resolve.placement(try fields.value(placement)))
    }
}

enum MoveListsAtOffsetsRequest: RequestForm {
    static let name = "moveList"
    static let summary = "Move the lists at some offsets to before the list at another, as SwiftUI's onMove does."
    static let fromOffsets = Parameter<[Int]>("fromOffsets", required: true, help: "The 0-based offsets of the lists to move.")
    static let toOffset = Parameter<Int>("toOffset", required: true, help: "The offset to move them before, counted before the move (the number of lists for the end).")
    static let parameters: [any AnyParameter] = [fromOffsets, toOffset]
    static let selector: String? = "fromOffsets"

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> MoveListsAtOffsets {
        MoveListsAtOffsets(fromOffsets: try IndexSet(distinctOffsets: try fields.value(fromOffsets)), toOffset: try fields.value(toOffset))
    }
}

struct MoveListCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: MoveListRequest.commandName, abstract: MoveListRequest.summary,
        discussion: """
            Examples:
              arrange move-list Groceries --top
              arrange move-list Work --after Home
              arrange move-list --from-offsets 0 --to-offset 3      (SwiftUI's onMove)
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(MoveListRequest.list, valueName: "list")) var list: ListReference?
    @OptionGroup(title: "Placement") var placement: PlacementOptions<ListReference>
    @Option(name: .customLong("from-offsets"), parsing: .upToNextOption, help: ArgumentHelp(MoveListsAtOffsetsRequest.fromOffsets, valueName: "offset"))
    var fromOffsets: [Int] = []
    @Option(name: .customLong("to-offset"), help: ArgumentHelp(MoveListsAtOffsetsRequest.toOffset, valueName: "offset"))
    var toOffset: Int?

    func validate() throws {
        try validateMove(
            named: list != nil, placed: placement.reference != nil, fromOffsets: !fromOffsets.isEmpty, toOffset: toOffset != nil,
            what: "list", placements: "--top, --bottom, --before LIST, --after LIST or --offset N")
    }

    func run(in session: CommandSession) async throws {
        let result = if let list, let reference = placement.reference {
            try await MoveListRequest.perform(RequestFields().with(MoveListRequest.list, list).with(MoveListRequest.placement, reference), in: session).result
        } else {
            try await MoveListsAtOffsetsRequest.perform(
                RequestFields().with(MoveListsAtOffsetsRequest.fromOffsets, fromOffsets).with(MoveListsAtOffsetsRequest.toOffset, toOffset),
                in: session).result
        }
        if shared.json {
            try session.printJSON(result)
        } else {
            let written = result.rowsWritten == 0 ? "Nothing to move; the lists:" : "Moved. The lists:"
            session.console.print(written + "\n" + TextFormat.lists(result.lists, defaultList: try await session.defaultListID()))
        }
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
