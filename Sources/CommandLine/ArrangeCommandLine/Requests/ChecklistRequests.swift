import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import Foundation

// An item's checklist: `checklist show`, `add`, `edit`, `move`, `complete`, `reopen`, `delete`.

/// The help texts of the fields every checklist request shares.
extension Help {
    /// The `item` field: the item whose checklist a request changes.
    static let checklistItem = "The item whose checklist it is: #N, an id, or an id prefix."
    /// The `entries` field.
    static let checklistEntries = "The entries: #N (as the checklist numbers them, ticked off or not) or ids."
}

extension ReferenceResolver {
    /// The item a checklist request names, `#N` counting the open items of `list`.
    func checklistOwner(_ item: ItemReference, list: ListReference?) throws -> Item {
        try self.item(item, numberedIn: try numbering(list))
    }

    /// The ids of the entries `references` name in the checklist of `item`, in the order given.
    func checklistItems(_ references: [ChecklistItemReference], of item: Item) throws -> [ChecklistItem.ID] {
        try references.map { try checklistItem($0, of: item) }
    }
}

struct AddChecklistItemRequest: Request {
    static let name = "addChecklistItem"
    static let summary = "Add an entry to an item's checklist, at its bottom unless told otherwise."
    var item: ItemReference = ""
    var title: String = ""
    var placement: ChecklistPlacementReference?
    var list: ListReference?

    static let fields: [RequestField<Self>] = [
        .init("item", \.item, help: Help.checklistItem),
        .init("title", \.title, help: "The entry's title."),
        .init("placement", \.placement, help: "Where the entry goes: top, bottom (the default), before or after an entry, or at an offset among every entry."),
        .init("list", \.list, help: Help.countingList),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> AddChecklistItem {
        let owner = try resolve.checklistOwner(item, list: list)
        return AddChecklistItem(title: title, to: owner.id, at: try resolve.placement(placement ?? .bottom, in: owner))
    }
}

struct EditChecklistItemRequest: Request {
    static let name = "editChecklistItem"
    static let summary = "Give an entry of an item's checklist a new title."
    var item: ItemReference = ""
    var entry: ChecklistItemReference = ""
    var title: String = ""
    var list: ListReference?

    static let fields: [RequestField<Self>] = [
        .init("item", \.item, help: Help.checklistItem),
        .init("entry", \.entry, help: "The entry: #N (as the checklist numbers them) or its id."),
        .init("title", \.title, help: "The entry's new title."),
        .init("list", \.list, help: Help.countingList),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> EditChecklistItem {
        let owner = try resolve.checklistOwner(item, list: list)
        return EditChecklistItem(try resolve.checklistItem(entry, of: owner), title: title)
    }
}

struct MoveChecklistItemsRequest: Request {
    static let name = "moveChecklistItems"
    static let summary = "Move entries of an item's checklist, keeping their order, to the top, the bottom, next to an entry or to an offset."
    var item: ItemReference = ""
    var entries: [ChecklistItemReference] = []
    var placement: ChecklistPlacementReference = .bottom
    var list: ListReference?

    static let fields: [RequestField<Self>] = [
        .init("item", \.item, help: Help.checklistItem),
        .init("entries", \.entries, help: Help.checklistEntries),
        .init("placement", \.placement, help: "Where they go: top, bottom, before or after an entry, or at an offset among every entry."),
        .init("list", \.list, help: Help.countingList),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> MoveChecklistItems {
        let owner = try resolve.checklistOwner(item, list: list)
        return MoveChecklistItems(try resolve.checklistItems(entries, of: owner), to: try resolve.placement(placement, in: owner))
    }
}

struct MoveChecklistItemsAtOffsetsRequest: Request {
    static let name = "moveChecklistItems"
    static let summary = "Move the entries at some offsets of an item's checklist to before the entry at another, as SwiftUI's onMove does."
    static let selector: String? = "fromOffsets"
    var item: ItemReference = ""
    var fromOffsets: [Int] = []
    var toOffset: Int = 0
    var list: ListReference?

    static let fields: [RequestField<Self>] = [
        .init("item", \.item, help: Help.checklistItem),
        .init("fromOffsets", \.fromOffsets, help: "The 0-based offsets of the entries to move, among every entry of the checklist."),
        .init("toOffset", \.toOffset, help: "The offset to move them before, counted before the move (the number of entries for the end)."),
        .init("list", \.list, help: Help.countingList),
    ]

    /// - Throws: ``ReferenceError/duplicateOffsets(_:)`` for an offset given twice.
    func intent(_ resolve: ReferenceResolver) throws -> MoveChecklistItemsAtOffsets {
        let owner = try resolve.checklistOwner(item, list: list)
        return MoveChecklistItemsAtOffsets(fromOffsets: try IndexSet(distinctOffsets: fromOffsets), toOffset: toOffset, in: owner.id)
    }
}

/// A request that names entries of one item's checklist and does one thing to each:
/// `completeChecklistItems`, `reopenChecklistItems`, `deleteChecklistItems`.
protocol ChecklistEntriesRequest: Request where Result == ChecklistResult {
    var item: ItemReference { get set }
    var entries: [ChecklistItemReference] { get set }
    var list: ListReference? { get set }
    init(item: ItemReference, entries: [ChecklistItemReference], list: ListReference?)
    /// The intent for the entries' ids.
    static func intent(_ entries: [ChecklistItem.ID]) -> Intent
}

extension ChecklistEntriesRequest {
    static var fields: [RequestField<Self>] {
        [
            .init("item", \.item, help: Help.checklistItem), .init("entries", \.entries, help: Help.checklistEntries),
            .init("list", \.list, help: Help.countingList),
        ]
    }

    func intent(_ resolve: ReferenceResolver) throws -> Intent {
        let owner = try resolve.checklistOwner(item, list: list)
        return Self.intent(try resolve.checklistItems(entries, of: owner))
    }
}

struct CompleteChecklistItemsRequest: ChecklistEntriesRequest {
    typealias Intent = CompleteChecklistItems
    static let name = "completeChecklistItems"
    static let summary = "Tick off entries of an item's checklist; they keep their place."
    var item: ItemReference = ""
    var entries: [ChecklistItemReference] = []
    var list: ListReference?

    static func intent(_ entries: [ChecklistItem.ID]) -> CompleteChecklistItems { CompleteChecklistItems(entries) }
}

struct CancelChecklistItemsRequest: ChecklistEntriesRequest {
    typealias Intent = CancelChecklistItems
    static let name = "cancelChecklistItems"
    static let summary = "Cancel open entries of an item's checklist; ticked-off entries stay ticked off."
    var item: ItemReference = ""
    var entries: [ChecklistItemReference] = []
    var list: ListReference?

    static func intent(_ entries: [ChecklistItem.ID]) -> CancelChecklistItems { CancelChecklistItems(entries) }
}

struct ReopenChecklistItemsRequest: ChecklistEntriesRequest {
    typealias Intent = ReopenChecklistItems
    static let name = "reopenChecklistItems"
    static let summary = "Mark ticked-off entries of an item's checklist open again."
    var item: ItemReference = ""
    var entries: [ChecklistItemReference] = []
    var list: ListReference?

    static func intent(_ entries: [ChecklistItem.ID]) -> ReopenChecklistItems { ReopenChecklistItems(entries) }
}

struct DeleteChecklistItemsRequest: ChecklistEntriesRequest {
    typealias Intent = DeleteChecklistItems
    static let name = "deleteChecklistItems"
    static let summary = "Delete entries of an item's checklist."
    var item: ItemReference = ""
    var entries: [ChecklistItemReference] = []
    var list: ListReference?

    static func intent(_ entries: [ChecklistItem.ID]) -> DeleteChecklistItems { DeleteChecklistItems(entries) }
}

// MARK: Commands

/// `arrange checklist`: shows an item's checklist, and adds, edits, moves, ticks off, reopens
/// and deletes its entries.
struct ChecklistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checklist", abstract: "Show an item's checklist, an order of its own; add, edit, move, tick off and delete its entries.",
        discussion: """
            Entries are named by #N (their number in `arrange checklist show`) or by their id.

            Examples:
              arrange checklist show '#2'
              arrange checklist add '#2' Passport --top
              arrange checklist move '#2' '#3' --after '#1'
              arrange checklist move '#2' --from-offsets 2 --to-offset 0   (SwiftUI's onMove)
              arrange checklist complete '#2' '#1' '#2'
            """,
        subcommands: [
            ChecklistShowCommand.self, ChecklistAddCommand.self, ChecklistEditCommand.self, ChecklistMoveCommand.self,
            ChecklistCompleteCommand.self, ChecklistCancelCommand.self, ChecklistReopenCommand.self, ChecklistDeleteCommand.self,
        ],
        defaultSubcommand: ChecklistShowCommand.self)
}

/// What every checklist command prints: the checklist as it is now, or the result as JSON.
protocol ChecklistCommandText: RequestCommand where Form.Result == ChecklistResult {}

extension ChecklistCommandText {
    func text(for result: ChecklistResult, in session: CommandSession) -> String {
        TextFormat.checklist(result.item)
    }
}

struct ChecklistShowCommand: RequestCommand {
    typealias Form = ShowRequest
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show an item's checklist, numbered #1, #2, … for the other checklist commands.")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Help.checklistItem, valueName: "item")) var item: ItemReference
    @Option(help: ArgumentHelp(Help.countingList, valueName: "list")) var list: ListReference?

    var request: ShowRequest { ShowRequest(item: item, list: list) }

    func text(for result: ItemResult, in session: CommandSession) -> String {
        TextFormat.checklist(result.item)
    }
}

struct ChecklistAddCommand: ChecklistCommandText {
    typealias Form = AddChecklistItemRequest
    static let configuration = CommandConfiguration(commandName: "add", abstract: Form.summary, discussion: "Example: arrange checklist add '#2' Passport --top")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.item), valueName: "item")) var item: ItemReference
    @Argument(help: ArgumentHelp(Form.help(\.title), valueName: "title")) var title: [String]
    @OptionGroup(title: "Placement") var placement: PlacementOptions<ChecklistItemReference>
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?

    var request: AddChecklistItemRequest { AddChecklistItemRequest(item: item, title: title.joined(separator: " "), placement: placement.reference, list: list) }
}

struct ChecklistEditCommand: ChecklistCommandText {
    typealias Form = EditChecklistItemRequest
    static let configuration = CommandConfiguration(commandName: "edit", abstract: Form.summary, discussion: "Example: arrange checklist edit '#2' '#1' Passports")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.item), valueName: "item")) var item: ItemReference
    @Argument(help: ArgumentHelp(Form.help(\.entry), valueName: "entry")) var entry: ChecklistItemReference
    @Argument(help: ArgumentHelp(Form.help(\.title), valueName: "title")) var title: [String]
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?

    var request: EditChecklistItemRequest { EditChecklistItemRequest(item: item, entry: entry, title: title.joined(separator: " "), list: list) }
}

struct ChecklistMoveCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: MoveChecklistItemsRequest.summary,
        discussion: """
            Examples:
              arrange checklist move '#2' '#3' --top
              arrange checklist move '#2' --from-offsets 0 --to-offset 3      (SwiftUI's onMove)
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Help.checklistItem, valueName: "item")) var item: ItemReference
    @Argument(help: ArgumentHelp(Help.checklistEntries, valueName: "entry")) var entries: [ChecklistItemReference] = []
    @OptionGroup(title: "Placement") var placement: PlacementOptions<ChecklistItemReference>
    @Option(name: .customLong("from-offsets"), parsing: .upToNextOption, help: ArgumentHelp(
        MoveChecklistItemsAtOffsetsRequest.help(\.fromOffsets), valueName: "offset"))
    var fromOffsets: [Int] = []
    @Option(name: .customLong("to-offset"), help: ArgumentHelp(MoveChecklistItemsAtOffsetsRequest.help(\.toOffset), valueName: "offset"))
    var toOffset: Int?
    @Option(help: ArgumentHelp(Help.countingList, valueName: "list")) var list: ListReference?

    func validate() throws {
        try validateMove(
            named: !entries.isEmpty, placed: placement.reference != nil, fromOffsets: !fromOffsets.isEmpty, toOffset: toOffset != nil,
            what: "entries", placements: "--top, --bottom, --before ENTRY, --after ENTRY or --offset N")
        try request.checkForm()
    }

    /// The request the arguments make: by offsets, or by reference and placement.
    var request: any Request<ChecklistResult> {
        if let toOffset { return MoveChecklistItemsAtOffsetsRequest(item: item, fromOffsets: fromOffsets, toOffset: toOffset, list: list) }
        return MoveChecklistItemsRequest(item: item, entries: entries, placement: placement.reference ?? .bottom, list: list)
    }

    func run(in session: CommandSession) async throws {
        let result = try await request.perform(in: session).result
        if shared.json {
            try session.printJSON(result)
        } else {
            session.console.print(result.rowsWritten == 0 ? "Nothing to move: the entries are already there." : TextFormat.checklist(result.item))
        }
    }
}

/// The arguments of the commands that act on several entries of a checklist: the item, the entries.
struct ChecklistEntriesArguments<Form: ChecklistEntriesRequest>: ParsableArguments {
    @Argument(help: ArgumentHelp(Form.help(\.item), valueName: "item")) var item: ItemReference
    @Argument(help: ArgumentHelp(Form.help(\.entries), valueName: "entry")) var entries: [ChecklistItemReference]
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?

    var request: Form { Form(item: item, entries: entries, list: list) }
}

struct ChecklistCompleteCommand: ChecklistCommandText {
    typealias Form = CompleteChecklistItemsRequest
    static let configuration = CommandConfiguration(commandName: "complete", abstract: Form.summary, discussion: "Example: arrange checklist complete '#2' '#1' '#3'")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ChecklistEntriesArguments<Form>

    var request: Form { arguments.request }
}

struct ChecklistCancelCommand: ChecklistCommandText {
    typealias Form = CancelChecklistItemsRequest
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: Form.summary, discussion: "Example: arrange checklist cancel '#2' '#3'")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ChecklistEntriesArguments<Form>

    var request: Form { arguments.request }
}

struct ChecklistReopenCommand: ChecklistCommandText {
    typealias Form = ReopenChecklistItemsRequest
    static let configuration = CommandConfiguration(commandName: "reopen", abstract: Form.summary, discussion: "Example: arrange checklist reopen '#2' '#1'")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ChecklistEntriesArguments<Form>

    var request: Form { arguments.request }
}

struct ChecklistDeleteCommand: ChecklistCommandText {
    typealias Form = DeleteChecklistItemsRequest
    static let configuration = CommandConfiguration(commandName: "delete", abstract: Form.summary, discussion: "Example: arrange checklist delete '#2' '#3'")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ChecklistEntriesArguments<Form>

    var request: Form { arguments.request }
}

extension RequestCatalogue {
    /// The requests of checklists, in the order help lists them.
    static let checklistRequests: [any Request.Type] = [
        AddChecklistItemRequest.self, EditChecklistItemRequest.self, MoveChecklistItemsRequest.self,
        MoveChecklistItemsAtOffsetsRequest.self, CompleteChecklistItemsRequest.self, CancelChecklistItemsRequest.self, ReopenChecklistItemsRequest.self,
        DeleteChecklistItemsRequest.self,
    ]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let checklistCommands: [any ParsableCommand.Type] = [ChecklistCommand.self]
}
