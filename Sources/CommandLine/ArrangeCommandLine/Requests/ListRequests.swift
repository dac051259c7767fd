public import ArgumentParser
public import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

// The lists: `lists`, `createList`, `moveList`, `renameList`, `deleteList`, `completeList`,
// `cancelList`, `reopenList`.

struct ListsRequest: Request {
    static let name = "lists"
    static let summary = "Show the lists of the sidebar, in their hand-made order, with how many items each has; finished lists are in the Logbook."

    static let fields: [RequestField<Self>] = []

    var readsOnly: Bool { true }

    func intent(_ resolve: ReferenceResolver) -> GetLists { GetLists() }
}

struct ListsCommand: RequestCommand {
    typealias Form = ListsRequest
    static let configuration = CommandConfiguration.request(Form.self)
    @OptionGroup var shared: SharedOptions

    var request: ListsRequest { ListsRequest() }

    func text(for result: ListsResult, in session: CommandSession) async throws -> String {
        try await session.listsText(result.lists)
    }
}

struct CreateListRequest: Request {
    static let name = "createList"
    static let summary = "Create an empty list, at the bottom of the lists in no area, or of an area, unless placed."
    var listName: String = ""
    var placement: ListPlacementReference?
    var area: AreaReference?

    static let fields: [RequestField<Self>] = [
        .init("name", \.listName, help: "The new list's name; no two lists may share a name, ignoring case."),
        .init("placement", \.placement, help: "Where it goes among the lists of its area, or of none: top, bottom, before or after a list, or at an offset."),
        .init("area", \.area, help: "The area it goes in, by name or id; without it (or with null), no area."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> CreateList {
        CreateList(name: listName, placement: try resolve.placement(placement ?? .bottom), in: try resolve.group(area))
    }
}

struct CreateListCommand: RequestCommand {
    typealias Form = CreateListRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Examples: arrange create-list Groceries; arrange create-list Errands --after Work")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.listName), valueName: "name")) var name: [String]
    @OptionGroup(title: "Placement") var placement: PlacementOptions<ListReference>
    @Option(help: ArgumentHelp(Form.help(\.area), valueName: "area")) var area: AreaReference?

    var request: CreateListRequest { CreateListRequest(listName: name.joined(separator: " "), placement: placement.reference, area: area) }

    func text(for result: ListResult, in session: CommandSession) -> String {
        "Created the list \(TextFormat.quoted(result.list.name))."
    }
}

/// The area a request moves a list into: an area, or none.
enum AreaChoice: Hashable, Sendable, RequestValue {
    /// Out of any area.
    case noArea
    /// Into the area named.
    case area(AreaReference)

    static var jsonForm: String { "an area name or id (a string), or null for no area" }
    /// JSON's `null` moves a list out of its area.
    static var null: AreaChoice? { .noArea }

    init(from decoder: any Decoder) throws {
        self = .area(try AreaReference(from: decoder))
    }

    /// The group of lists it names.
    func group(_ resolve: ReferenceResolver) throws -> ListGroup {
        switch self {
        case .noArea: .noArea
        case .area(let area): try resolve.group(area)
        }
    }
}

struct MoveListRequest: Request {
    static let name = "moveList"
    static let summary = "Move a list to the top, the bottom, next to another list or to an offset among the lists of its area; or into an area, or out of one."
    var list: ListReference = ""
    var placement: ListPlacementReference = .bottom
    var area: AreaChoice?

    static let fields: [RequestField<Self>] = [
        .init("list", \.list, help: "The list to move, by name or id."),
        .init("placement", \.placement, help: "Where it goes among the lists of its area (or of the area given): top, bottom, before or after a list, or at an offset."),
        .init("area", \.area, help: "The area it goes into, by name or id; null moves it out of any area. Without it, the list stays in its area."),
    ]


    func intent(_ resolve: ReferenceResolver) throws -> MoveList {
        MoveList(try resolve.list(list).id, to: try resolve.placement(placement), in: try area?.group(resolve))
    }
}

struct MoveListsAtOffsetsRequest: Request {
    static let name = "moveList"
    static let summary = "Move the lists at some offsets to before the list at another, as SwiftUI's onMove does within a section of the sidebar."
    static let selector: String? = "fromOffsets"
    var fromOffsets: [Int] = []
    var toOffset: Int = 0
    var area: AreaReference?

    static let fields: [RequestField<Self>] = [
        .init("fromOffsets", \.fromOffsets, help: "The 0-based offsets of the lists to move."),
        .init("toOffset", \.toOffset, help: "The offset to move them before, counted before the move (the number of lists for the end)."),
        .init("area", \.area, help: "The area whose lists the offsets count, by name or id; the lists in no area without it."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> MoveListsAtOffsets {
        MoveListsAtOffsets(
            fromOffsets: try IndexSet(distinctOffsets: fromOffsets), toOffset: toOffset, in: try resolve.group(area))
    }
}

struct MoveListCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: MoveListRequest.commandName, abstract: MoveListRequest.summary,
        discussion: """
            Examples:
              arrange move-list Groceries --top
              arrange move-list Work --after Home
              arrange move-list Launch --bottom --area Work          (into an area)
              arrange move-list Launch --top --no-area              (out of any area)
              arrange move-list --from-offsets 0 --to-offset 3      (SwiftUI's onMove)
              arrange move-list --from-offsets 1 --to-offset 0 --area Work
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(MoveListRequest.help(\.list), valueName: "list")) var list: ListReference?
    @OptionGroup(title: "Placement") var placement: PlacementOptions<ListReference>
    @Option(name: .customLong("from-offsets"), parsing: .upToNextOption, help: ArgumentHelp(MoveListsAtOffsetsRequest.help(\.fromOffsets), valueName: "offset"))
    var fromOffsets: [Int] = []
    @Option(name: .customLong("to-offset"), help: ArgumentHelp(MoveListsAtOffsetsRequest.help(\.toOffset), valueName: "offset"))
    var toOffset: Int?
    @Option(help: ArgumentHelp("The area it goes into, by name or id; with --from-offsets, the area whose lists the offsets count.", valueName: "area"))
    var area: AreaReference?
    @Flag(name: .customLong("no-area"), help: ArgumentHelp("Move the list out of any area, among the lists in no area."))
    var noArea = false

    func validate() throws {
        try validateMove(
            named: list != nil, placed: placement.reference != nil, fromOffsets: !fromOffsets.isEmpty, toOffset: toOffset != nil,
            what: "list", placements: "--top, --bottom, --before LIST, --after LIST or --offset N")
        if area != nil, noArea { throw ValidationError("Give --area AREA or --no-area, not both.") }
        if noArea, toOffset != nil { throw ValidationError("--no-area moves one named list; offsets count the lists in no area without it.") }
    }

    /// The request the arguments make: a move by name and placement, or by offsets.
    var request: any Request<ListPlacementResult> {
        get throws {
            if let list, let placement = placement.reference {
                return MoveListRequest(list: list, placement: placement, area: noArea ? .noArea : area.map(AreaChoice.area))
            }
            if let toOffset { return MoveListsAtOffsetsRequest(fromOffsets: fromOffsets, toOffset: toOffset, area: area) }
            throw ValidationError("Name the list to move and say where, or give --from-offsets and --to-offset.")
        }
    }

    func run(in session: CommandSession) async throws {
        let result = try await request.perform(in: session).result
        if shared.json {
            try session.printJSON(result)
        } else {
            let written = result.rowsWritten == 0 ? "Nothing to move; the lists:" : "Moved. The lists:"
            session.console.print(written + "\n" + (try await session.listsText(result.lists)))
        }
    }
}

struct RenameListRequest: Request {
    static let name = "renameList"
    static let summary = "Give a list a new name."
    var list: ListReference = ""
    var newName: String = ""

    static let fields: [RequestField<Self>] = [
        .init("list", \.list, help: "The list to rename, by name or id."),
        .init("name", \.newName, help: "The list's new name."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> RenameList {
        RenameList(list: try resolve.list(list).id, name: newName)
    }
}

struct RenameListCommand: RequestCommand {
    typealias Form = RenameListRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange rename-list Groceries Shopping")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference
    @Argument(help: ArgumentHelp(Form.help(\.newName), valueName: "new-name")) var name: [String]

    var request: RenameListRequest { RenameListRequest(list: list, newName: name.joined(separator: " ")) }

    func text(for result: ListResult, in session: CommandSession) -> String {
        "Renamed the list to \(TextFormat.quoted(result.list.name))."
    }
}

struct SetListNotesRequest: Request {
    static let name = "setListNotes"
    static let summary = "Give a list notes, as a Things project has; empty notes take them away."
    var list: ListReference = ""
    var notes: String = ""

    static let fields: [RequestField<Self>] = [
        .init("list", \.list, help: "The list, by name or id."),
        .init("notes", \.notes, help: "The list's notes, in place of any it has; empty to take them away."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> SetListNotes {
        SetListNotes(list: try resolve.list(list).id, notes: notes)
    }
}

struct ListNotesCommand: RequestCommand {
    typealias Form = SetListNotesRequest
    static let configuration = CommandConfiguration(
        commandName: "list-notes", abstract: Form.summary, discussion: "Examples: arrange list-notes Trip 'Passports, then tickets.'; arrange list-notes Trip ''")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference
    @Argument(help: ArgumentHelp(Form.help(\.notes), valueName: "notes")) var notes: String

    var request: SetListNotesRequest { SetListNotesRequest(list: list, notes: notes) }

    func text(for result: ListResult, in session: CommandSession) -> String {
        result.list.notes.isEmpty ? "Took the notes of \(TextFormat.quoted(result.list.name)) away." : "Gave \(TextFormat.quoted(result.list.name)) its notes."
    }
}

struct DeleteListRequest: Request {
    static let name = "deleteList"
    static let summary = "Move a list to the Trash with its items and headings; `restore --list` brings them all back."
    var list: ListReference = ""

    static let fields: [RequestField<Self>] = [
        .init("list", \.list, help: "The list to move to the Trash, by name or id; the default list cannot be."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> DeleteList {
        DeleteList(list: try resolve.list(list).id)
    }
}

struct DeleteListCommand: RequestCommand {
    typealias Form = DeleteListRequest
    static let configuration = CommandConfiguration.request(
        Form.self,
        discussion: "Only its owner deletes a shared list, for everyone. A list someone shared with you, you leave instead: "
            + "what it holds stays here as a list of your own (arrange share leave).")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference

    var request: DeleteListRequest { DeleteListRequest(list: list) }

    /// Moves the list to the Trash; a list someone else shared with the user, which only its
    /// owner deletes, the user leaves instead, as `share leave` does.
    func run(in session: CommandSession) async throws {
        let found = try await session.resolveList(list)
        if let share = try await session.environment.repository.read({ try $0.share(of: found.id) }), !share.isOwned {
            try await ShareLeaveCommand.leave(found, through: try ShareServerOptions.parse([]), json: shared.json, in: session)
        } else {
            try await runRequest(in: session)
        }
    }

    func text(for result: DeletedListResult, in session: CommandSession) -> String {
        "Moved the list \(TextFormat.quoted(result.list.name)) and its \(result.deletedItems) item\(result.deletedItems == 1 ? "" : "s") to the Trash."
    }
}

/// What becomes of a list's open items when it is finished: `complete`, `cancel` or `keep`.
extension OpenItemsOnFinish: ExpressibleByArgument, RequestValue {
    public static var jsonForm: String { #""complete", "cancel" or "keep""# }
}

/// The requests that finish a list: `completeList` and `cancelList`.
protocol FinishListRequest: Request<ListResult> {
    /// The list, as the request names it.
    var list: ListReference { get set }
    /// What becomes of its open items; `nil` for the intent's default.
    var items: OpenItemsOnFinish? { get set }

    init(list: ListReference, items: OpenItemsOnFinish?)

    /// The intent for the resolved list.
    static func intent(for list: ItemList.ID, items: OpenItemsOnFinish?) -> Intent
    /// What the command says once the list is finished: "Completed".
    static var doneVerb: String { get }
}

extension FinishListRequest {
    static var fields: [RequestField<Self>] {
        [
            .init("list", \.list, help: "The list, by name or id; the default list stays open."),
            .init("items", \.items, help: #"What becomes of its open items: "complete", "cancel" or "keep"."#),
        ]
    }

    func intent(_ resolve: ReferenceResolver) throws -> Intent {
        Self.intent(for: try resolve.list(list).id, items: items)
    }
}

/// The arguments of the commands that finish a list.
struct FinishListArguments<Form: FinishListRequest>: ParsableArguments {
    @Argument(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference
    @Option(help: ArgumentHelp(Form.help(\.items), valueName: "complete|cancel|keep")) var items: OpenItemsOnFinish?

    var request: Form { Form(list: list, items: items) }
}

/// What a command that finishes or reopens a list says it did.
private func finishedText(_ verb: String, _ result: ListResult) -> String {
    let list = result.list
    return list.openItems == 0 ? "\(verb) the list \(TextFormat.quoted(list.name))."
        : "\(verb) the list \(TextFormat.quoted(list.name)); \(list.openItems) item\(list.openItems == 1 ? " stays" : "s stay") open."
}

struct CompleteListRequest: FinishListRequest {
    typealias Intent = CompleteList
    static let name = "completeList"
    static let summary = "Complete a list: it goes to the Logbook, and its open items are completed with it unless --items says otherwise."
    static let doneVerb = "Completed"
    var list: ListReference = ""
    var items: OpenItemsOnFinish?

    static func intent(for list: ItemList.ID, items: OpenItemsOnFinish?) -> CompleteList { CompleteList(list: list, items: items ?? .complete) }
}

struct CompleteListCommand: RequestCommand {
    typealias Form = CompleteListRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Examples: arrange complete-list Launch; arrange complete-list Launch --items keep")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: FinishListArguments<Form>

    var request: Form { arguments.request }

    func text(for result: ListResult, in session: CommandSession) -> String { finishedText(Form.doneVerb, result) }
}

struct CancelListRequest: FinishListRequest {
    typealias Intent = CancelList
    static let name = "cancelList"
    static let summary = "Cancel a list: it goes to the Logbook marked canceled, and its open items are canceled with it unless --items says otherwise."
    static let doneVerb = "Canceled"
    var list: ListReference = ""
    var items: OpenItemsOnFinish?

    static func intent(for list: ItemList.ID, items: OpenItemsOnFinish?) -> CancelList { CancelList(list: list, items: items ?? .cancel) }
}

struct CancelListCommand: RequestCommand {
    typealias Form = CancelListRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange cancel-list 'Old plans'")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: FinishListArguments<Form>

    var request: Form { arguments.request }

    func text(for result: ListResult, in session: CommandSession) -> String { finishedText(Form.doneVerb, result) }
}

struct ReopenListRequest: Request {
    static let name = "reopenList"
    static let summary = "Bring a completed or canceled list back to the sidebar, in the place it had; its items stay as they are."
    var list: ListReference = ""

    static let fields: [RequestField<Self>] = [
        .init("list", \.list, help: "The list to reopen, by name or id."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> ReopenList {
        ReopenList(list: try resolve.list(list).id)
    }
}

struct ReopenListCommand: RequestCommand {
    typealias Form = ReopenListRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange reopen-list Launch")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference

    var request: Form { Form(list: list) }

    func text(for result: ListResult, in session: CommandSession) -> String { "Reopened the list \(TextFormat.quoted(result.list.name))." }
}

extension RequestCatalogue {
    /// The requests of lists, in the order help lists them.
    static let listRequests: [any Request.Type] = [
        ListsRequest.self, CreateListRequest.self, MoveListRequest.self, MoveListsAtOffsetsRequest.self, RenameListRequest.self, SetListNotesRequest.self,
        DeleteListRequest.self, CompleteListRequest.self, CancelListRequest.self, ReopenListRequest.self,
    ]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let listCommands: [any ParsableCommand.Type] = [
        ListsCommand.self, CreateListCommand.self, MoveListCommand.self, RenameListCommand.self, ListNotesCommand.self, DeleteListCommand.self, CompleteListCommand.self,
        CancelListCommand.self, ReopenListCommand.self,
    ]
}
