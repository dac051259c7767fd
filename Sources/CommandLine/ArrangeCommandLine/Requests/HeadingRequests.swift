import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

// The headings of a list: `heading create`, `rename`, `move`, `delete`; `move --heading` puts
// items under one. A heading is named by its title among the headings of a list (`list`; the
// current list without it), or by its id.

/// The section of a list a request moves items into: under a heading, or under none.
enum HeadingChoice: Hashable, Sendable, RequestValue {
    /// Under no heading.
    case noHeading
    /// Under the heading named.
    case heading(HeadingReference)

    static var jsonForm: String { "a heading's title or id (a string), or null for no heading" }
    /// JSON's `null` moves items out of their heading.
    static var null: HeadingChoice? { .noHeading }

    init(from decoder: any Decoder) throws {
        self = .heading(try HeadingReference(from: decoder))
    }

    /// The section it names; a title names a heading of `list`.
    func section(_ resolve: ReferenceResolver, in list: ListReference?) throws -> ItemSection {
        switch self {
        case .noHeading: .noHeading
        case .heading(let heading): .heading(try resolve.heading(heading, in: list).id)
        }
    }
}

struct CreateHeadingRequest: Request {
    static let name = "createHeading"
    static let summary = "Create a heading in a list, at the bottom of its headings unless placed."
    var title: String = ""
    var list: ListReference?
    var placement: HeadingPlacementReference?

    static let fields: [RequestField<Self>] = [
        .init("title", \.title, help: "The heading's title."),
        .init("list", \.list, help: "The list, by name or id; the current list when not given."),
        .init("placement", \.placement, help: "Where it goes among the list's headings: top, bottom, before or after a heading, or at an offset."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> CreateHeading {
        CreateHeading(title: title, in: try resolve.list(list).id, placement: try resolve.placement(placement ?? .bottom, in: list))
    }
}

struct RenameHeadingRequest: Request {
    static let name = "renameHeading"
    static let summary = "Give a heading a new title."
    var heading: HeadingReference = ""
    var list: ListReference?
    var title: String = ""

    static let fields: [RequestField<Self>] = [
        .init("heading", \.heading, help: "The heading, by title or id."),
        .init("list", \.list, help: "The list whose heading a title names; the current list when not given."),
        .init("title", \.title, help: "The heading's new title."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> RenameHeading {
        RenameHeading(heading: try resolve.heading(heading, in: list).id, title: title)
    }
}

struct MoveHeadingRequest: Request {
    static let name = "moveHeading"
    static let summary = "Move a heading, with its items, to the top, the bottom, next to another heading or to an offset among its list's headings; or into another list."
    var heading: HeadingReference = ""
    var placement: HeadingPlacementReference = .bottom
    var list: ListReference?
    var into: ListReference?

    static let fields: [RequestField<Self>] = [
        .init("heading", \.heading, help: "The heading to move, by title or id."),
        .init("placement", \.placement, help: "Where it goes among the headings of its list (or of the list it goes into)."),
        .init("list", \.list, help: "The list whose heading a title names; the current list when not given."),
        .init("into", \.into, help: "The list it goes into, with its items, by name or id; its own list without it."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> MoveHeading {
        // The anchor is a heading of the list it goes to.
        MoveHeading(try resolve.heading(heading, in: list).id, to: try resolve.placement(placement, in: into ?? list), in: try into.map { try resolve.list($0).id })
    }
}

struct MoveHeadingsAtOffsetsRequest: Request {
    static let name = "moveHeading"
    static let summary = "Move the headings of a list at some offsets to before the heading at another, as SwiftUI's onMove does."
    static let selector: String? = "fromOffsets"
    var fromOffsets: [Int] = []
    var toOffset: Int = 0
    var list: ListReference?

    static let fields: [RequestField<Self>] = [
        .init("fromOffsets", \.fromOffsets, help: "The 0-based offsets of the headings to move."),
        .init("toOffset", \.toOffset, help: "The offset to move them before, counted before the move (the number of headings for the end)."),
        .init("list", \.list, help: "The list whose headings the offsets count; the current list when not given."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> MoveHeadingsAtOffsets {
        MoveHeadingsAtOffsets(fromOffsets: try IndexSet(distinctOffsets: fromOffsets), toOffset: toOffset, in: try resolve.list(list).id)
    }
}

struct DeleteHeadingRequest: Request {
    static let name = "deleteHeading"
    static let summary = "Move a heading to the Trash with the items under it; `restore` brings them all back."
    var heading: HeadingReference = ""
    var list: ListReference?

    static let fields: [RequestField<Self>] = [
        .init("heading", \.heading, help: "The heading to move to the Trash, by title or id; its items go with it."),
        .init("list", \.list, help: "The list whose heading a title names; the current list when not given."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> DeleteHeading {
        DeleteHeading(heading: try resolve.heading(heading, in: list).id)
    }
}

struct HeadingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heading", abstract: "Create, rename, move and delete the headings of a list; `arrange list` shows them with their items.",
        discussion: """
            A heading is named by its title, among the headings of the list --list names (the current list without it), or by its id. \
            Items go under a heading with `arrange move ITEM --heading HEADING`, and out of one with `--no-heading`.

            Examples:
              arrange heading create Packing --list Trip
              arrange heading move Packing --top --list Trip
              arrange heading move Packing --bottom --list Trip --into Holidays   (with its items)
              arrange heading move --from-offsets 1 --to-offset 0 --list Trip     (SwiftUI's onMove)
              arrange heading delete Packing --list Trip                          (with its items)
            """,
        subcommands: [HeadingCreateCommand.self, HeadingRenameCommand.self, HeadingMoveCommand.self, HeadingDeleteCommand.self])
}

struct HeadingCreateCommand: RequestCommand {
    typealias Form = CreateHeadingRequest
    static let configuration = CommandConfiguration(commandName: "create", abstract: Form.summary, discussion: "Example: arrange heading create Before the trip --list Trip --top")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.title), valueName: "title")) var title: [String]
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?
    @OptionGroup(title: "Placement") var placement: PlacementOptions<HeadingReference>

    var request: CreateHeadingRequest { CreateHeadingRequest(title: title.joined(separator: " "), list: list, placement: placement.reference) }

    func text(for result: HeadingResult, in session: CommandSession) -> String {
        "Created the heading \(TextFormat.quoted(result.heading.title))."
    }
}

struct HeadingRenameCommand: RequestCommand {
    typealias Form = RenameHeadingRequest
    static let configuration = CommandConfiguration(commandName: "rename", abstract: Form.summary, discussion: "Example: arrange heading rename Packing Gear --list Trip")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.heading), valueName: "heading")) var heading: HeadingReference
    @Argument(help: ArgumentHelp(Form.help(\.title), valueName: "new-title")) var title: [String]
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?

    var request: RenameHeadingRequest { RenameHeadingRequest(heading: heading, list: list, title: title.joined(separator: " ")) }

    func text(for result: HeadingResult, in session: CommandSession) -> String {
        "Renamed the heading to \(TextFormat.quoted(result.heading.title))."
    }
}

struct HeadingMoveCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: MoveHeadingRequest.summary,
        discussion: """
            Examples:
              arrange heading move Packing --after Papers --list Trip
              arrange heading move Packing --top --list Trip --into Holidays
              arrange heading move --from-offsets 0 --to-offset 2 --list Trip      (SwiftUI's onMove)
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(MoveHeadingRequest.help(\.heading), valueName: "heading")) var heading: HeadingReference?
    @OptionGroup(title: "Placement") var placement: PlacementOptions<HeadingReference>
    @Option(help: ArgumentHelp("The list whose headings a title and the offsets name; the current list when not given.", valueName: "list"))
    var list: ListReference?
    @Option(help: ArgumentHelp(MoveHeadingRequest.help(\.into), valueName: "list")) var into: ListReference?
    @Option(name: .customLong("from-offsets"), parsing: .upToNextOption, help: ArgumentHelp(MoveHeadingsAtOffsetsRequest.help(\.fromOffsets), valueName: "offset"))
    var fromOffsets: [Int] = []
    @Option(name: .customLong("to-offset"), help: ArgumentHelp(MoveHeadingsAtOffsetsRequest.help(\.toOffset), valueName: "offset"))
    var toOffset: Int?

    func validate() throws {
        try validateMove(
            named: heading != nil, placed: placement.reference != nil, fromOffsets: !fromOffsets.isEmpty, toOffset: toOffset != nil,
            what: "heading", placements: "--top, --bottom, --before HEADING, --after HEADING or --offset N")
        if into != nil, toOffset != nil { throw ValidationError("--into moves one named heading; offsets count the headings of --list.") }
    }

    /// The request the arguments make: a move by title and placement, or by offsets.
    var request: any Request<HeadingPlacementResult> {
        get throws {
            if let heading, let placement = placement.reference { return MoveHeadingRequest(heading: heading, placement: placement, list: list, into: into) }
            if let toOffset { return MoveHeadingsAtOffsetsRequest(fromOffsets: fromOffsets, toOffset: toOffset, list: list) }
            throw ValidationError("Name the heading to move and say where, or give --from-offsets and --to-offset.")
        }
    }

    func run(in session: CommandSession) async throws {
        let result = try await request.perform(in: session).result
        if shared.json {
            try session.printJSON(result)
        } else {
            let written = result.rowsWritten == 0 ? "Nothing to move; the headings:" : "Moved. The headings:"
            session.console.print(written + "\n" + TextFormat.headings(result.headings))
        }
    }
}

struct HeadingDeleteCommand: RequestCommand {
    typealias Form = DeleteHeadingRequest
    static let configuration = CommandConfiguration(commandName: "delete", abstract: Form.summary, discussion: "Example: arrange heading delete Packing --list Trip")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.heading), valueName: "heading")) var heading: HeadingReference
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?

    var request: DeleteHeadingRequest { DeleteHeadingRequest(heading: heading, list: list) }

    func text(for result: DeletedHeadingResult, in session: CommandSession) -> String {
        let items = result.deletedItems
        return "Moved the heading \(TextFormat.quoted(result.heading.title))" + (items == 0 ? "" : " and its \(items) item\(items == 1 ? "" : "s")") + " to the Trash."
    }
}

extension RequestCatalogue {
    /// The requests of headings, in the order help lists them.
    static let headingRequests: [any Request.Type] = [
        CreateHeadingRequest.self, RenameHeadingRequest.self, MoveHeadingRequest.self, MoveHeadingsAtOffsetsRequest.self,
        DeleteHeadingRequest.self,
    ]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let headingCommands: [any ParsableCommand.Type] = [HeadingCommand.self]
}
