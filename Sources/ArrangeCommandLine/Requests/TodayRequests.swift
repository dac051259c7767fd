import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

// Today, the second order of items across lists: `today`, `addToToday`, `removeFromToday`, `moveInToday`.

/// The parameter of the Today requests whose items `#N` counts in Today.
private let todayItems = Parameter<[ItemReference]>("items", required: true, help: "The items: #N (as `today` numbers them), ids, or id prefixes.")

enum TodayRequest: RequestForm {
    static let name = "today"
    static let summary = "Show the items in Today, of every list, in Today's order."
    static let includeCompleted = Parameter<Bool>("includeCompleted", help: "Show completed items too.")
    static let parameters: [any AnyParameter] = [includeCompleted]

    static func readsOnly(_ fields: RequestFields) -> Bool { true }

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) -> ShowToday {
        ShowToday(visibility: fields[includeCompleted] ?? false ? .all : .open)
    }
}

enum AddToTodayRequest: RequestForm {
    static let name = "addToToday"
    static let summary = "Put items in Today, at the bottom or at a placement among Today's items; their places in their lists stay."
    static let items = Parameter<[ItemReference]>("items", required: true, help: "The items: #N (of the list), ids, or id prefixes.")
    static let placement = Parameter<PlacementReference>("placement", help: "Where they go in Today: top, bottom, before or after an item of Today (#N counts Today), or at an offset.")
    static let list = Parameter<ListReference>("list", help: "The list whose open items #N counts for the items; the current list when not given.")
    static let parameters: [any AnyParameter] = [items, placement, list]

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> AddToToday {
        AddToToday(
            try resolve.itemIDs(try fields.value(items), numberedIn: .list(try resolve.list(fields[list]))),
            placement: try resolve.placement(fields[placement] ?? .bottom, numberedIn: .today))
    }
}

enum RemoveFromTodayRequest: RequestForm {
    static let name = "removeFromToday"
    static let summary = "Take items out of Today; their places in their lists stay."
    static let parameters: [any AnyParameter] = [todayItems]

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> RemoveFromToday {
        RemoveFromToday(try resolve.itemIDs(try fields.value(todayItems), numberedIn: .today))
    }
}

enum MoveInTodayRequest: RequestForm {
    static let name = "moveInToday"
    static let summary = "Move items of Today, keeping their order, to another place in Today; their places in their lists stay."
    static let placement = Parameter<PlacementReference>("placement", required: true, help: "Where they go in Today: top, bottom, before or after an item of Today, or at an offset.")
    static let parameters: [any AnyParameter] = [todayItems, placement]

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> MoveInToday {
        MoveInToday(
            try resolve.itemIDs(try fields.value(todayItems), numberedIn: .today),
            to: try resolve.placement(try fields.value(placement), numberedIn: .today))
    }
}

enum MoveInTodayAtOffsetsRequest: RequestForm {
    static let name = "moveInToday"
    static let summary = "Move the open items at some offsets of Today to before the one at another, as SwiftUI's onMove does."
    static let fromOffsets = Parameter<[Int]>("fromOffsets", required: true, help: "The 0-based offsets of the items to move, among Today's open items.")
    static let toOffset = Parameter<Int>("toOffset", required: true, help: "The offset to move them before, counted before the move (the number of open items for the end).")
    static let parameters: [any AnyParameter] = [fromOffsets, toOffset]
    static let selector: String? = "fromOffsets"

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> MoveInTodayAtOffsets {
        MoveInTodayAtOffsets(fromOffsets: try IndexSet(distinctOffsets: try fields.value(fromOffsets)), toOffset: try fields.value(toOffset))
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
    @Flag(name: [.customLong("all"), .customLong("include-completed")], help: ArgumentHelp(Form.includeCompleted))
    var includeCompleted = false

    var fields: RequestFields { RequestFields().with(Form.includeCompleted, includeCompleted) }

    func text(for result: TodayListing, in session: CommandSession) -> String {
        TextFormat.today(result)
    }
}

struct TodayAddCommand: RequestCommand {
    typealias Form = AddToTodayRequest
    static let configuration = CommandConfiguration(commandName: "add", abstract: Form.summary, discussion: "Example: arrange today add '#2' '#5' --top")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.items, valueName: "item")) var items: [ItemReference]
    @OptionGroup(title: "Placement in Today") var placement: PlacementOptions<ItemReference>
    @Option(help: ArgumentHelp(Form.list, valueName: "list")) var list: ListReference?

    var fields: RequestFields { RequestFields().with(Form.items, items).with(Form.placement, placement.reference).with(Form.list, list) }

    func text(for result: PlacementResult, in session: CommandSession) async throws -> String {
        TextFormat.placed("Added", result.items, positions: try await session.positions(of: result.items, inToday: true), inToday: true)
    }
}

struct TodayRemoveCommand: RequestCommand {
    typealias Form = RemoveFromTodayRequest
    static let configuration = CommandConfiguration(commandName: "remove", abstract: Form.summary, discussion: "Example: arrange today remove '#1'")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(todayItems, valueName: "item")) var items: [ItemReference]

    var fields: RequestFields { RequestFields().with(todayItems, items) }

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
    @Argument(help: ArgumentHelp(todayItems, valueName: "item")) var items: [ItemReference] = []
    @OptionGroup(title: "Placement in Today") var placement: PlacementOptions<ItemReference>
    @Option(name: .customLong("from-offsets"), parsing: .upToNextOption, help: ArgumentHelp(MoveInTodayAtOffsetsRequest.fromOffsets, valueName: "offset"))
    var fromOffsets: [Int] = []
    @Option(name: .customLong("to-offset"), help: ArgumentHelp(MoveInTodayAtOffsetsRequest.toOffset, valueName: "offset"))
    var toOffset: Int?

    func validate() throws {
        try validateMove(
            named: !items.isEmpty, placed: placement.reference != nil, fromOffsets: !fromOffsets.isEmpty, toOffset: toOffset != nil,
            what: "items", placements: "--top, --bottom, --before ITEM, --after ITEM or --offset N")
    }

    func run(in session: CommandSession) async throws {
        try await Self.move(items, to: placement.reference, fromOffsets: fromOffsets, toOffset: toOffset, json: shared.json, in: session)
    }

    /// Moves items in Today by reference and placement, or by offsets, and prints what it did.
    ///
    /// `move` comes here too after the REPL's `use Today`, where `#N` counts Today.
    static func move(
        _ items: [ItemReference], to placement: PlacementReference?, fromOffsets: [Int], toOffset: Int?, json: Bool, in session: CommandSession
    ) async throws {
        let result = if let placement {
            try await MoveInTodayRequest.perform(RequestFields().with(todayItems, items).with(MoveInTodayRequest.placement, placement), in: session).result
        } else {
            try await MoveInTodayAtOffsetsRequest.perform(
                RequestFields().with(MoveInTodayAtOffsetsRequest.fromOffsets, fromOffsets).with(MoveInTodayAtOffsetsRequest.toOffset, toOffset),
                in: session).result
        }
        if json {
            try session.printJSON(result)
        } else if result.rowsWritten == 0 {
            session.console.print("Nothing to move: \(TextFormat.titles(result.items)) already there.")
        } else {
            session.console.print(TextFormat.placed("Moved", result.items, positions: try await session.positions(of: result.items, inToday: true), inToday: true))
        }
    }
}
