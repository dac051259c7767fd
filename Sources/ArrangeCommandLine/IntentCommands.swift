import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering

// One command per intent. Names, summaries and argument help come from the catalogue.

struct ListsCommand: IntentCommand {
    static let configuration = CommandConfiguration.intent(GetLists.self)
    @OptionGroup var shared: SharedOptions

    func intent() -> GetLists { GetLists() }

    func text(for result: ListsResult, in session: CommandSession) -> String {
        TextFormat.lists(result.lists, defaultList: session.settings.defaultList)
    }
}

struct CreateListCommand: IntentCommand {
    static let configuration = CommandConfiguration.intent(CreateList.self, discussion: "Example: arrange create-list Groceries")
    @OptionGroup var shared: SharedOptions
    @Argument(help: .parameter(CreateList.self, "name", valueName: "name")) var name: [String]

    func intent() -> CreateList { CreateList(name: name.joined(separator: " ")) }

    func text(for result: ListResult, in session: CommandSession) -> String {
        "Created the list \(TextFormat.quoted(result.list.name))."
    }
}

struct RenameListCommand: IntentCommand {
    static let configuration = CommandConfiguration.intent(RenameList.self, discussion: "Example: arrange rename-list Groceries Shopping")
    @OptionGroup var shared: SharedOptions
    @Argument(help: .parameter(RenameList.self, "list", valueName: "list")) var list: String
    @Argument(help: .parameter(RenameList.self, "name", valueName: "new-name")) var name: [String]

    func intent() -> RenameList { RenameList(list: ListReference(list), name: name.joined(separator: " ")) }

    func text(for result: ListResult, in session: CommandSession) -> String {
        "Renamed the list to \(TextFormat.quoted(result.list.name))."
    }
}

struct DeleteListCommand: IntentCommand {
    static let configuration = CommandConfiguration.intent(DeleteList.self)
    @OptionGroup var shared: SharedOptions
    @Argument(help: .parameter(DeleteList.self, "list", valueName: "list")) var list: String

    func intent() -> DeleteList { DeleteList(list: ListReference(list)) }

    func text(for result: DeletedListResult, in session: CommandSession) -> String {
        "Deleted the list \(TextFormat.quoted(result.list.name)) and its \(result.deletedItems) item\(result.deletedItems == 1 ? "" : "s")."
    }
}

struct ListCommand: IntentCommand {
    static let configuration = CommandConfiguration.intent(
        ListItems.self, discussion: "Examples: arrange list; arrange list --list Groceries --all")
    @OptionGroup var shared: SharedOptions
    @Argument(help: .parameter(ListItems.self, "list", valueName: "list")) var name: String?
    @Option(help: .parameter(ListItems.self, "list", valueName: "list")) var list: String?
    @Flag(name: [.customLong("all"), .customLong("include-completed")], help: .parameter(ListItems.self, "includeCompleted"))
    var includeCompleted = false

    func validate() throws {
        guard name == nil || list == nil else { throw ValidationError("Name the list once: as an argument or with --list.") }
    }

    func intent() -> ListItems { ListItems(list: (name ?? list).map(ListReference.init(_:)), includeCompleted: includeCompleted) }

    func text(for result: ItemListing, in session: CommandSession) -> String {
        TextFormat.listing(result)
    }
}

struct ShowCommand: IntentCommand {
    static let configuration = CommandConfiguration.intent(ShowItem.self, discussion: "Example: arrange show '#2'")
    @OptionGroup var shared: SharedOptions
    @Argument(help: .parameter(ShowItem.self, "item", valueName: "item")) var item: String
    @Option(help: .parameter(ShowItem.self, "list", valueName: "list")) var list: String?

    func intent() -> ShowItem { ShowItem(item: ItemReference(item), list: list.map(ListReference.init(_:))) }

    func text(for result: ItemResult, in session: CommandSession) -> String {
        TextFormat.details(result.item)
    }
}

struct AddCommand: IntentCommand {
    static let configuration = CommandConfiguration.intent(AddItem.self, discussion: """
        Examples:
          arrange add Buy milk
          arrange add "Buy milk" --list Groceries --after 3f2a
          arrange add Call mum --top
        """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: .parameter(AddItem.self, "title", valueName: "title")) var title: [String]
    @Option(help: .parameter(AddItem.self, "list", valueName: "list")) var list: String?
    @OptionGroup(title: "Placement") var placement: PlacementOptions
    @Option(help: .parameter(AddItem.self, "notes", valueName: "text")) var notes = ""

    func intent() -> AddItem {
        AddItem(title: title.joined(separator: " "), list: list.map(ListReference.init(_:)), placement: placement.reference ?? .bottom, notes: notes)
    }

    func text(for result: PlacementResult, in session: CommandSession) async throws -> String {
        TextFormat.placed("Added", result.items, positions: try await session.positions(of: result.items))
    }
}

struct RenameCommand: IntentCommand {
    static let configuration = CommandConfiguration.intent(RenameItem.self, discussion: "Example: arrange rename '#2' Buy oat milk")
    @OptionGroup var shared: SharedOptions
    @Argument(help: .parameter(RenameItem.self, "item", valueName: "item")) var item: String
    @Argument(help: .parameter(RenameItem.self, "title", valueName: "title")) var title: [String]
    @Option(help: .parameter(RenameItem.self, "list", valueName: "list")) var list: String?

    func intent() -> RenameItem {
        RenameItem(item: ItemReference(item), title: title.joined(separator: " "), list: list.map(ListReference.init(_:)))
    }

    func text(for result: ItemResult, in session: CommandSession) -> String {
        "Renamed \(TextFormat.short(result.item.id)) to \(TextFormat.quoted(result.item.title))."
    }
}

/// The arguments of the commands that act on several items by reference.
struct ItemsArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The items: #N (as `list` numbers them), ids, or at least 4 characters of an id.", valueName: "item"))
    var items: [String]

    @Option(help: ArgumentHelp("The list whose open items #N counts; the current list when not given.", valueName: "list"))
    var list: String?

    var references: [ItemReference] { items.map(ItemReference.init(_:)) }
    var listReference: ListReference? { list.map(ListReference.init(_:)) }
}

struct CompleteCommand: IntentCommand {
    static let configuration = CommandConfiguration.intent(CompleteItems.self, discussion: "Example: arrange complete '#1' '#3'")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ItemsArguments

    func intent() -> CompleteItems { CompleteItems(items: arguments.references, list: arguments.listReference) }

    func text(for result: ItemsResult, in session: CommandSession) -> String {
        result.changed == 0 ? "Already done: \(TextFormat.titles(result.items))." : "Completed \(TextFormat.titles(result.items))."
    }
}

struct ReopenCommand: IntentCommand {
    static let configuration = CommandConfiguration.intent(ReopenItems.self, discussion: "Completed items have no #N; name them by id (see `list --all`).")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ItemsArguments

    func intent() -> ReopenItems { ReopenItems(items: arguments.references, list: arguments.listReference) }

    func text(for result: ItemsResult, in session: CommandSession) -> String {
        result.changed == 0 ? "Already open: \(TextFormat.titles(result.items))." : "Reopened \(TextFormat.titles(result.items))."
    }
}

struct DeleteCommand: IntentCommand {
    static let configuration = CommandConfiguration.intent(DeleteItems.self)
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ItemsArguments

    func intent() -> DeleteItems { DeleteItems(items: arguments.references, list: arguments.listReference) }

    func text(for result: ItemsResult, in session: CommandSession) -> String {
        "Deleted \(TextFormat.titles(result.items))."
    }
}

/// `move`: items by reference with a placement, or the offset form.
struct MoveCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: MoveItems.description.summary,
        discussion: """
            Examples:
              arrange move '#5' --top
              arrange move 3f2a '#4' --after '#1'
              arrange move '#2' --bottom --into Groceries
              arrange move --from-offsets 0 2 --to-offset 5      (SwiftUI's onMove)
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: .parameter(MoveItems.self, "items", valueName: "item")) var items: [String] = []
    @OptionGroup(title: "Placement") var placement: PlacementOptions
    @Option(name: [.customLong("into"), .customLong("list")], help: ArgumentHelp(
        "The list to move the items into (with --from-offsets: the list they are in).", valueName: "list"))
    var list: String?
    @Option(help: .parameter(MoveItems.self, "from", valueName: "list")) var from: String?
    @Option(name: .customLong("from-offsets"), parsing: .upToNextOption, help: .parameter(MoveItemsAtOffsets.self, "fromOffsets", valueName: "offset"))
    var fromOffsets: [Int] = []
    @Option(name: .customLong("to-offset"), help: .parameter(MoveItemsAtOffsets.self, "toOffset", valueName: "offset"))
    var toOffset: Int?

    func validate() throws {
        if fromOffsets.isEmpty {
            guard !items.isEmpty else { throw ValidationError("Name the items to move, or give --from-offsets and --to-offset.") }
            guard placement.reference != nil else { throw ValidationError("Say where: --top, --bottom, --before ITEM, --after ITEM or --offset N.") }
            guard toOffset == nil else { throw ValidationError("--to-offset goes with --from-offsets.") }
        } else {
            guard items.isEmpty, placement.reference == nil, from == nil else {
                throw ValidationError("--from-offsets takes no items and no placement; use --to-offset.")
            }
            guard toOffset != nil else { throw ValidationError("Give --to-offset with --from-offsets.") }
        }
    }

    func run(in session: CommandSession) async throws {
        let list = list.map(ListReference.init(_:))
        let result = if let toOffset, !fromOffsets.isEmpty {
            try await MoveItemsAtOffsets(fromOffsets: fromOffsets, toOffset: toOffset, list: list).perform(in: session.environment)
        } else {
            try await MoveItems(
                items: items.map(ItemReference.init(_:)), placement: placement.reference ?? .bottom, list: list,
                from: from.map(ListReference.init(_:))
            ).perform(in: session.environment)
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

struct ValidateCommand: IntentCommand {
    static let configuration = CommandConfiguration.intent(ValidateList.self)
    @OptionGroup var shared: SharedOptions
    @Option(help: .parameter(ValidateList.self, "list", valueName: "list")) var list: String?
    @Flag(help: .parameter(ValidateList.self, "repair")) var repair = false

    func intent() -> ValidateList { ValidateList(list: list.map(ListReference.init(_:)), repair: repair) }

    func text(for result: ValidationResult, in session: CommandSession) -> String {
        let report = result.report
        let name = result.list.name
        guard !result.healthy else { return "\(name): \(report.itemCount) items, keys in good order." }
        let found = "\(name): \(report.tiedGroups) group(s) of tied keys (\(report.tiedItems) items), \(report.crampedGaps) cramped gap(s)"
        return report.repaired ? "\(found); repaired, \(report.rowsWritten) rows written." : "\(found). Run `validate --repair` to fix them."
    }
}

struct NormalizeCommand: IntentCommand {
    static let configuration = CommandConfiguration.intent(NormalizeList.self)
    @OptionGroup var shared: SharedOptions
    @Option(help: .parameter(NormalizeList.self, "list", valueName: "list")) var list: String?

    func intent() -> NormalizeList { NormalizeList(list: list.map(ListReference.init(_:))) }

    func text(for result: NormalizeResult, in session: CommandSession) -> String {
        "Renumbered \(result.list.name): \(result.rowsWritten) of \(result.list.totalItems) rows written."
    }
}

/// What undo and redo say about where their history lives.
private let historyDiscussion = "The history lives as long as the session: use it in the REPL or in `arrange run`."

struct UndoCommand: IntentCommand {
    static let configuration = CommandConfiguration.intent(
        Undo.self, discussion: historyDiscussion)
    @OptionGroup var shared: SharedOptions

    func intent() -> Undo { Undo() }

    func text(for result: HistoryResult, in session: CommandSession) -> String {
        "Undid \(TextFormat.quoted(result.action))."
    }
}

struct RedoCommand: IntentCommand {
    static let configuration = CommandConfiguration.intent(
        Redo.self, discussion: historyDiscussion)
    @OptionGroup var shared: SharedOptions

    func intent() -> Redo { Redo() }

    func text(for result: HistoryResult, in session: CommandSession) -> String {
        "Redid \(TextFormat.quoted(result.action))."
    }
}
