import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import Foundation

// `move`: items by reference with a placement, or the offset form of SwiftUI's onMove.

enum MoveRequest: RequestForm {
    static let name = "move"
    static let summary = "Move items, keeping their order, to the top, the bottom, next to an item or to an offset, in their list or into another."
    static let items = Parameter<[ItemReference]>("items", required: true, help: "The items to move: #N, ids, or id prefixes.")
    static let placement = Parameter<PlacementReference>("placement", required: true, help: "Where they go: top, bottom, before or after an item, or at an offset.")
    static let list = Parameter<ListReference>("list", help: "The list to move them into; #N in the placement counts this list's items.")
    static let from = Parameter<ListReference>("from", help: "The list whose open items #N counts for the moved items; the current list when not given.")
    static let parameters: [any AnyParameter] = [items, placement, list, from]

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> MoveItems {
        let source = try resolve.numbering(fields[from])
        let ids = try resolve.itemIDs(try fields.value(items), numberedIn: source)
        let destination = try fields[list].map { try resolve.list($0) }
        let placement = try resolve.placement(try fields.value(placement), numberedIn: destination.map(ItemNumbering.list) ?? source)
        return MoveItems(ids, to: placement, into: destination?.id)
    }
}

enum MoveAtOffsetsRequest: RequestForm {
    static let name = "move"
    static let summary = "Move the open items at some offsets to before the item at another, as SwiftUI's onMove does."
    static let fromOffsets = Parameter<[Int]>("fromOffsets", required: true, help: "The 0-based offsets of the items to move, among the list's open items.")
    static let toOffset = Parameter<Int>("toOffset", required: true, help: "The offset to move them before, counted before the move (the number of open items for the end).")
    static let list = Parameter<ListReference>("list", help: "The list; the current list when not given.")
    static let parameters: [any AnyParameter] = [fromOffsets, toOffset, list]
    static let selector: String? = "fromOffsets"

    /// - Throws: ``ReferenceError/duplicateOffsets(_:)`` for an offset given twice.
    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> MoveItemsAtOffsets {
        MoveItemsAtOffsets(
            fromOffsets: try IndexSet(distinctOffsets: try fields.value(fromOffsets)), toOffset: try fields.value(toOffset),
            in: try resolve.list(fields[list]).id)
    }
}

extension IndexSet {
    /// The offsets of a move, each given once.
    ///
    /// - Throws: ``ReferenceError/duplicateOffsets(_:)`` for an offset given twice, which an
    ///   `IndexSet` would quietly merge.
    init(distinctOffsets offsets: [Int]) throws {
        let repeated = Dictionary(grouping: offsets, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        guard repeated.isEmpty else { throw ReferenceError.duplicateOffsets(repeated) }
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
              arrange move --from-offsets 0 2 --to-offset 5      (SwiftUI's onMove)
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(MoveRequest.items, valueName: "item")) var items: [ItemReference] = []
    @OptionGroup(title: "Placement") var placement: PlacementOptions<ItemReference>
    @Option(name: [.customLong("into"), .customLong("list")], help: ArgumentHelp(
        "The list to move the items into (with --from-offsets: the list they are in).", valueName: "list"))
    var list: ListReference?
    @Option(help: ArgumentHelp(MoveRequest.from, valueName: "list")) var from: ListReference?
    @Option(name: .customLong("from-offsets"), parsing: .upToNextOption, help: ArgumentHelp(MoveAtOffsetsRequest.fromOffsets, valueName: "offset"))
    var fromOffsets: [Int] = []
    @Option(name: .customLong("to-offset"), help: ArgumentHelp(MoveAtOffsetsRequest.toOffset, valueName: "offset"))
    var toOffset: Int?

    func validate() throws {
        try validateMove(
            named: !items.isEmpty || (from != nil && !fromOffsets.isEmpty), placed: placement.reference != nil || (list != nil && fromOffsets.isEmpty),
            fromOffsets: !fromOffsets.isEmpty, toOffset: toOffset != nil,
            what: "items", placements: "--top, --bottom, --before ITEM, --after ITEM, --offset N, or --into LIST for its bottom")
    }

    func run(in session: CommandSession) async throws {
        if session.isUsingToday, list == nil, from == nil {
            // After `use Today`, #N counts Today: the move is one in Today.
            return try await TodayMoveCommand.move(
                items, to: placement.reference, fromOffsets: fromOffsets, toOffset: toOffset, json: shared.json, in: session)
        }
        let result = if fromOffsets.isEmpty {
            try await MoveRequest.perform(
                RequestFields().with(MoveRequest.items, items).with(MoveRequest.placement, placement.reference ?? .bottom)
                    .with(MoveRequest.list, list).with(MoveRequest.from, from),
                in: session).result
        } else {
            try await MoveAtOffsetsRequest.perform(
                RequestFields().with(MoveAtOffsetsRequest.fromOffsets, fromOffsets).with(MoveAtOffsetsRequest.toOffset, toOffset)
                    .with(MoveAtOffsetsRequest.list, list),
                in: session).result
        }
        if shared.json {
            try session.printJSON(result)
        } else if result.rowsWritten == 0 {
            session.console.print("Nothing to move: \(TextFormat.titles(result.items)) already there.")
        } else {
            session.console.print(TextFormat.placed("Moved", result.items, positions: try await session.positions(of: result.items)))
        }
    }
}
