import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import Foundation

// `move`: items by reference with a placement, or the offset form of SwiftUI's onMove.

struct MoveRequest: Request {
    static let name = "move"
    static let summary = "Move items, keeping their order, to the top, the bottom, next to an item or to an offset, in their list or into another, under a heading or out of one."
    var items: [ItemReference] = []
    var placement: PlacementReference = .bottom
    var list: ListReference?
    var from: ListReference?
    var heading: HeadingChoice?

    static let fields: [RequestField<Self>] = [
        .init("items", \.items, help: "The items to move: #N, ids, or id prefixes."),
        .init("placement", \.placement, help: "Where they go: top, bottom, before or after an item, or at an offset (among the items of the heading they go under, or of none)."),
        .init("list", \.list, help: "The list to move them into; #N in the placement counts this list's items."),
        .init("from", \.from, help: "The list whose open items #N counts for the moved items; the current list when not given."),
        .init("heading", \.heading, help: "The heading they go under, by title (in the list they go to) or id; null moves them out of any. Without it, they go beside their anchor."),
    ]


    func intent(_ resolve: ReferenceResolver) throws -> MoveItems {
        let source = try resolve.numbering(from)
        let ids = try resolve.itemIDs(items, numberedIn: source)
        let destination = try list.map { try resolve.list($0) }
        let placement = try resolve.placement(placement, numberedIn: destination.map(ItemNumbering.list) ?? source)
        let section = try heading?.section(resolve, in: list ?? from)
        return MoveItems(ids, to: placement, into: destination?.id, section: section)
    }
}

struct MoveAtOffsetsRequest: Request {
    static let name = "move"
    static let summary = "Move the open items at some offsets to before the item at another, as SwiftUI's onMove does: within a section of a list, or into another."
    static let selector: String? = "fromOffsets"
    var fromOffsets: [Int] = []
    var toOffset: Int = 0
    var list: ListReference?
    var heading: HeadingReference?
    var toHeading: HeadingChoice?

    static let fields: [RequestField<Self>] = [
        .init("fromOffsets", \.fromOffsets, help: "The 0-based offsets of the items to move, among the open items of the section: those under the heading, or under none."),
        .init("toOffset", \.toOffset, help: "The offset to move them before, counted before the move (the number of open items for the end), in the section they go to."),
        .init("list", \.list, help: "The list; the current list when not given."),
        .init("heading", \.heading, help: "The heading whose items the offsets count, by title or id; the items under no heading without it."),
        .init("toHeading", \.toHeading, help: "For a drag across sections: the heading they go under, by title or id, or null for no heading; toOffset then counts there."),
    ]


    /// - Throws: ``ReferenceError/duplicateOffsets(_:)`` for an offset given twice.
    func intent(_ resolve: ReferenceResolver) throws -> MoveItemsAtOffsets {
        let section = try heading.map { ItemSection.heading(try resolve.heading($0, in: list).id) } ?? .noHeading
        return MoveItemsAtOffsets(
            fromOffsets: try IndexSet(distinctOffsets: fromOffsets), toOffset: toOffset, in: try resolve.list(list).id, section: section,
            destination: try toHeading?.section(resolve, in: list))
    }
}

extension IndexSet {
    /// The offsets of a move, each given once.
    ///
    /// - Throws: ``ReferenceError/duplicateOffsets(_:)`` for an offset given twice, which an
    ///   `IndexSet` would quietly merge; ``ReferenceError/offsetTooLarge(_:)`` for `Int.max`,
    ///   which no `IndexSet` can hold (its ranges end one past their last index).
    init(distinctOffsets offsets: [Int]) throws {
        let repeated = Dictionary(grouping: offsets, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        guard repeated.isEmpty else { throw ReferenceError.duplicateOffsets(repeated) }
        if let tooLarge = offsets.first(where: { $0 == .max }) { throw ReferenceError.offsetTooLarge(tooLarge) }
        self.init(offsets)
    }
}

/// Checks the arguments of a command that moves by reference and placement, or by offsets.
///
/// - Parameters:
///   - named: Whether what to move is named.
///   - placed: Whether a placement is given.
///   - what: What is moved, for the messages: "items".
///   - placements: The placement options, for the messages.
func validateMove(named: Bool, placed: Bool, fromOffsets: Bool, toOffset: Bool, what: String, placements: String) throws {
    if fromOffsets {
        guard !named, !placed else { throw ValidationError("--from-offsets takes no \(what) and no placement; use --to-offset.") }
        guard toOffset else { throw ValidationError("Give --to-offset with --from-offsets.") }
    } else {
        guard named else { throw ValidationError("Name the \(what) to move, or give --from-offsets and --to-offset.") }
        guard placed else { throw ValidationError("Say where: \(placements).") }
        guard !toOffset else { throw ValidationError("--to-offset goes with --from-offsets.") }
    }
}

struct MoveCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: MoveRequest.commandName, abstract: MoveRequest.summary,
        discussion: """
            Examples:
              arrange move '#5' --top
              arrange move 3f2a '#4' --after '#1'
              arrange move '#2' --into Groceries                  (to its bottom)
              arrange move '#3' --top --heading Packing          (under a heading of its list)
              arrange move '#3' --bottom --no-heading            (out of its heading)
              arrange move --from-offsets 0 2 --to-offset 5      (SwiftUI's onMove)
              arrange move --from-offsets 1 --to-offset 0 --heading Packing
              arrange move --from-offsets 0 --to-offset 2 --to-heading Packing   (across sections)
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(MoveRequest.help(\.items), valueName: "item")) var items: [ItemReference] = []
    @OptionGroup(title: "Placement") var placement: PlacementOptions<ItemReference>
    @Option(name: [.customLong("into"), .customLong("list")], help: ArgumentHelp(
        "The list to move the items into (with --from-offsets: the list they are in).", valueName: "list"))
    var list: ListReference?
    @Option(help: ArgumentHelp(MoveRequest.help(\.from), valueName: "list")) var from: ListReference?
    @Option(name: .customLong("from-offsets"), parsing: .upToNextOption, help: ArgumentHelp(MoveAtOffsetsRequest.help(\.fromOffsets), valueName: "offset"))
    var fromOffsets: [Int] = []
    @Option(name: .customLong("to-offset"), help: ArgumentHelp(MoveAtOffsetsRequest.help(\.toOffset), valueName: "offset"))
    var toOffset: Int?
    @Option(help: ArgumentHelp(
        "The heading the items go under, by title or id (with --from-offsets: the heading whose items the offsets count).", valueName: "heading"))
    var heading: HeadingReference?
    @Flag(name: .customLong("no-heading"), help: ArgumentHelp("Move the items out of their heading, among the items under none."))
    var noHeading = false
    @Option(name: .customLong("to-heading"), help: ArgumentHelp("With --from-offsets: the heading they go under, a drag across sections.", valueName: "heading"))
    var toHeading: HeadingReference?

    func validate() throws {
        try validateMove(
            named: !items.isEmpty || (from != nil && !fromOffsets.isEmpty),
            placed: placement.reference != nil || ((list != nil || heading != nil || noHeading) && fromOffsets.isEmpty),
            fromOffsets: !fromOffsets.isEmpty, toOffset: toOffset != nil,
            what: "items", placements: "--top, --bottom, --before ITEM, --after ITEM, --offset N, or --into LIST or --heading HEADING for its bottom")
        if heading != nil, noHeading, fromOffsets.isEmpty { throw ValidationError("Give --heading HEADING or --no-heading, not both.") }
        if toHeading != nil, fromOffsets.isEmpty { throw ValidationError("--to-heading goes with --from-offsets; name the heading with --heading.") }
        if toHeading != nil, noHeading { throw ValidationError("Give --to-heading HEADING or --no-heading, not both.") }
        // A move in Today names the same items and anchor.
        try request(inToday: false).checkForm()
    }

    /// The request the arguments make: by offsets, or by reference and placement (`--into LIST`
    /// or `--heading HEADING` alone places at its bottom), in Today or in a list.
    func request(inToday: Bool) -> any Request<PlacementResult> {
        if inToday { return moveInTodayRequest(items, to: placement.reference, fromOffsets: fromOffsets, toOffset: toOffset) }
        if let toOffset {
            let destination = noHeading ? HeadingChoice.noHeading : toHeading.map(HeadingChoice.heading)
            return MoveAtOffsetsRequest(fromOffsets: fromOffsets, toOffset: toOffset, list: list, heading: heading, toHeading: destination)
        }
        let section = noHeading ? HeadingChoice.noHeading : heading.map(HeadingChoice.heading)
        return MoveRequest(items: items, placement: placement.reference ?? .bottom, list: list, from: from, heading: section)
    }

    func run(in session: CommandSession) async throws {
        // After `use Today`, with no list named, #N counts Today: the move is one in Today.
        let inToday = session.isUsingToday && list == nil && from == nil && heading == nil && !noHeading && toHeading == nil
        let result = try await request(inToday: inToday).perform(in: session).result
        try await printMoved(result, inToday: inToday, json: shared.json, in: session)
    }
}

/// Prints what a move did: as JSON, or as a sentence with the items' new positions, in Today
/// or in their list.
func printMoved(_ result: PlacementResult, inToday: Bool, json: Bool, in session: CommandSession) async throws {
    if json {
        try session.printJSON(result)
    } else if result.rowsWritten == 0 {
        session.console.print("Nothing to move: \(TextFormat.titles(result.items)) already there.")
    } else {
        session.console.print(
            TextFormat.placed("Moved", result.items, positions: try await session.positions(of: result.items, inToday: inToday), inToday: inToday))
    }
}

extension RequestCatalogue {
    /// The requests of moves of items, in the order help lists them.
    static let moveRequests: [any Request.Type] = [MoveRequest.self, MoveAtOffsetsRequest.self]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let moveCommands: [any ParsableCommand.Type] = [MoveCommand.self]
}
