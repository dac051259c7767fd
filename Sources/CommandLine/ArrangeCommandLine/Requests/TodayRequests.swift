import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

// Today, the second order of items across lists: `today`, `addToToday`, `removeFromToday`, `moveInToday`.

/// The `items` field of the Today requests whose items `#N` counts in Today.
private let todayItemsHelp = "The items: #N (as `today` numbers them), ids, or id prefixes."

struct TodayRequest: Request {
    static let name = "today"
    static let summary = "Show Today, of every list: the items that arrived by their dates, those placed by hand, then This Evening."
    var includeCompleted: Bool?
    var day: Day?
    var tags: [TagReference]?

    static let fields: [RequestField<Self>] = [
        .init("includeCompleted", \.includeCompleted, help: "Show completed items too, while they keep their place in Today."),
        .init("day", \.day, help: Help.viewDay),
        .init("tags", \.tags, help: Help.tagFilter),
    ]

    var readsOnly: Bool { true }

    func intent(_ resolve: ReferenceResolver) throws -> ShowToday {
        ShowToday(day: day, visibility: includeCompleted ?? false ? .openAndCompleted : .open, tags: try resolve.tags(tags ?? []))
    }
}

struct AddToTodayRequest: Request {
    static let name = "addToToday"
    static let summary = "Put items in Today, at the bottom or at a placement among Today's items; their places in their lists stay."
    var items: [ItemReference] = []
    var placement: PlacementReference?
    var list: ListReference?

    static let fields: [RequestField<Self>] = [
        .init("items", \.items, help: "The items: #N (of the list), ids, or id prefixes."),
        .init("placement", \.placement, help: "Where they go in Today: top, bottom, before or after an item of Today (#N counts Today), or at an offset."),
        .init("list", \.list, help: "The list whose open items #N counts for the items; the current list when not given."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> AddToToday {
        AddToToday(
            try resolve.itemIDs(items, numberedIn: .list(try resolve.list(list))),
            placement: try resolve.placement(placement ?? .bottom, numberedIn: .today))
    }
}

struct RemoveFromTodayRequest: Request {
    static let name = "removeFromToday"
    static let summary = "Take items out of Today; their places in their lists stay."
    var items: [ItemReference] = []

    static let fields: [RequestField<Self>] = [
        .init("items", \.items, help: todayItemsHelp),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> RemoveFromToday {
        RemoveFromToday(try resolve.itemIDs(items, numberedIn: .today))
    }
}

struct MoveInTodayRequest: Request {
    static let name = "moveInToday"
    static let summary = "Move items of Today, keeping their order, to another place in Today; their places in their lists stay."
    var items: [ItemReference] = []
    var placement: PlacementReference = .bottom

    static let fields: [RequestField<Self>] = [
        .init("items", \.items, help: todayItemsHelp),
        .init("placement", \.placement, help: "Where they go in Today: top, bottom, before or after an item of Today, or at an offset."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> MoveInToday {
        MoveInToday(try resolve.itemIDs(items, numberedIn: .today), to: try resolve.placement(placement, numberedIn: .today))
    }
}

struct MoveInTodayAtOffsetsRequest: Request {
    static let name = "moveInToday"
    static let summary = "Move the open items at some offsets of Today to before the one at another, as SwiftUI's onMove does."
    static let selector: String? = "fromOffsets"
    var fromOffsets: [Int] = []
    var toOffset: Int = 0

    static let fields: [RequestField<Self>] = [
        .init("fromOffsets", \.fromOffsets, help: "The 0-based offsets of the items to move, among Today's open items."),
        .init("toOffset", \.toOffset, help: "The offset to move them before, counted before the move (the number of open items for the end)."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> MoveInTodayAtOffsets {
        MoveInTodayAtOffsets(fromOffsets: try IndexSet(distinctOffsets: fromOffsets), toOffset: toOffset)
    }
}

/// `arrange today`: shows Today, and adds, removes and moves its items.
struct TodayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today", abstract: "Show Today, a second order of items across lists; add, remove and move its items.",
        discussion: """
            Examples:
              arrange today
              arrange today add '#2' 3f2a
              arrange today move '#3' --top                       (#N counts Today)
              arrange today remove '#1'
            """,
        subcommands: [TodayShowCommand.self, TodayAddCommand.self, TodayRemoveCommand.self, TodayMoveCommand.self],
        defaultSubcommand: TodayShowCommand.self)
}

struct TodayShowCommand: RequestCommand {
    typealias Form = TodayRequest
    static let configuration = CommandConfiguration(commandName: "show", abstract: Form.summary)
    @OptionGroup var shared: SharedOptions
    @Flag(name: [.customLong("all"), .customLong("include-completed")], help: ArgumentHelp(Form.help(\.includeCompleted)))
    var includeCompleted = false
    @OptionGroup var day: ViewDayOption
    @OptionGroup var tagFilter: TagFilterOption

    var request: TodayRequest { TodayRequest(includeCompleted: includeCompleted, day: day.day, tags: tagFilter.filter) }

    func text(for result: TodayListing, in session: CommandSession) -> String {
        TextFormat.today(result)
    }
}

struct TodayAddCommand: RequestCommand {
    typealias Form = AddToTodayRequest
    static let configuration = CommandConfiguration(commandName: "add", abstract: Form.summary, discussion: "Example: arrange today add '#2' '#5' --top")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.items), valueName: "item")) var items: [ItemReference]
    @OptionGroup(title: "Placement in Today") var placement: PlacementOptions<ItemReference>
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?

    var request: AddToTodayRequest { AddToTodayRequest(items: items, placement: placement.reference, list: list) }

    func text(for result: PlacementResult, in session: CommandSession) async throws -> String {
        TextFormat.placed("Added", result.items, positions: try await session.positions(of: result.items, inToday: true), inToday: true)
    }
}

struct TodayRemoveCommand: RequestCommand {
    typealias Form = RemoveFromTodayRequest
    static let configuration = CommandConfiguration(commandName: "remove", abstract: Form.summary, discussion: "Example: arrange today remove '#1'")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.items), valueName: "item")) var items: [ItemReference]

    var request: RemoveFromTodayRequest { RemoveFromTodayRequest(items: items) }

    func text(for result: ItemsResult, in session: CommandSession) -> String {
        "Took \(TextFormat.titles(result.items)) out of Today."
    }
}

struct TodayMoveCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: MoveInTodayRequest.summary,
        discussion: """
            Examples:
              arrange today move '#3' --top
              arrange today move --from-offsets 0 --to-offset 3      (SwiftUI's onMove)
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(MoveInTodayRequest.help(\.items), valueName: "item")) var items: [ItemReference] = []
    @OptionGroup(title: "Placement in Today") var placement: PlacementOptions<ItemReference>
    @Option(name: .customLong("from-offsets"), parsing: .upToNextOption, help: ArgumentHelp(MoveInTodayAtOffsetsRequest.help(\.fromOffsets), valueName: "offset"))
    var fromOffsets: [Int] = []
    @Option(name: .customLong("to-offset"), help: ArgumentHelp(MoveInTodayAtOffsetsRequest.help(\.toOffset), valueName: "offset"))
    var toOffset: Int?

    func validate() throws {
        try validateMove(
            named: !items.isEmpty, placed: placement.reference != nil, fromOffsets: !fromOffsets.isEmpty, toOffset: toOffset != nil,
            what: "items", placements: "--top, --bottom, --before ITEM, --after ITEM or --offset N")
        try request.checkForm()
    }

    /// The move in Today the arguments ask for.
    var request: any Request<PlacementResult> {
        moveInTodayRequest(items, to: placement.reference, fromOffsets: fromOffsets, toOffset: toOffset)
    }

    func run(in session: CommandSession) async throws {
        try await printMoved(try await request.perform(in: session).result, inToday: true, json: shared.json, in: session)
    }
}

/// The move in Today that a command's arguments ask for: by offsets when `toOffset` is given,
/// else the items to `placement` (its bottom when none is given).
func moveInTodayRequest(_ items: [ItemReference], to placement: PlacementReference?, fromOffsets: [Int], toOffset: Int?) -> any Request<PlacementResult> {
    if let toOffset {
        MoveInTodayAtOffsetsRequest(fromOffsets: fromOffsets, toOffset: toOffset)
    } else {
        MoveInTodayRequest(items: items, placement: placement ?? .bottom)
    }
}

extension RequestCatalogue {
    /// The requests of Today, in the order help lists them.
    static let todayRequests: [any Request.Type] = [
        TodayRequest.self, AddToTodayRequest.self, RemoveFromTodayRequest.self, MoveInTodayRequest.self, MoveInTodayAtOffsetsRequest.self,
    ]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let todayCommands: [any ParsableCommand.Type] = [TodayCommand.self]
}
