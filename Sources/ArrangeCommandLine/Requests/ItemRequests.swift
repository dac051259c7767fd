import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore

// The items: `list`, `show`, `add`, `rename`, `complete`, `reopen`, `delete`.

/// The `list` parameter of the requests that name items by `#N`.
private let countingList = Parameter<ListReference>("list", help: "The list whose open items #N counts; the current list when not given.")

enum ListItemsRequest: RequestForm {
    static let name = "list"
    static let summary = "Show the items of a list in their order, numbered #1, #2, … for use in other commands."
    static let list = Parameter<ListReference>("list", help: "The list to show; the current list when not given.")
    static let includeCompleted = Parameter<Bool>("includeCompleted", help: "Show completed items too (they get no #N).")
    static let parameters: [any AnyParameter] = [list, includeCompleted]

    static func readsOnly(_ fields: RequestFields) -> Bool { true }

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> ListItems {
        ListItems(list: try resolve.list(fields[list]).id, visibility: fields[includeCompleted] ?? false ? .all : .open)
    }
}

struct ListCommand: RequestCommand {
    typealias Form = ListItemsRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Examples: arrange list; arrange list --list Groceries --all")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.list, valueName: "list")) var name: ListReference?
    @Option(help: ArgumentHelp(Form.list, valueName: "list")) var list: ListReference?
    @Flag(name: [.customLong("all"), .customLong("include-completed")], help: ArgumentHelp(Form.includeCompleted))
    var includeCompleted = false

    func validate() throws {
        guard name == nil || list == nil else { throw ValidationError("Name the list once: as an argument or with --list.") }
    }

    var fields: RequestFields { RequestFields().with(Form.list, name ?? list).with(Form.includeCompleted, includeCompleted) }

    func text(for result: ItemListing, in session: CommandSession) -> String {
        TextFormat.listing(result)
    }

    /// Shows the list; after `use Today`, with no list named, shows Today, whose items `#N` then counts.
    func run(in session: CommandSession) async throws {
        guard session.isUsingToday, name == nil, list == nil else {
            return try await runRequest(in: session)
        }
        let today = try await TodayRequest.perform(RequestFields().with(TodayRequest.includeCompleted, includeCompleted), in: session).result
        if shared.json {
            try session.printJSON(today)
        } else {
            session.console.print(TextFormat.today(today))
        }
    }
}

enum ShowRequest: RequestForm {
    static let name = "show"
    static let summary = "Show one item with all its fields."
    static let item = Parameter<ItemReference>("item", required: true, help: "The item to show: #N, an id, or at least 4 characters of one.")
    static let parameters: [any AnyParameter] = [item, countingList]

    static func readsOnly(_ fields: RequestFields) -> Bool { true }

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> ShowItem {
        ShowItem(item: try resolve.item(try fields.value(item), numberedIn: try resolve.numbering(fields[countingList])).id)
    }
}

struct ShowCommand: RequestCommand {
    typealias Form = ShowRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange show '#2'")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.item, valueName: "item")) var item: ItemReference
    @Option(help: ArgumentHelp(countingList, valueName: "list")) var list: ListReference?

    var fields: RequestFields { RequestFields().with(Form.item, item).with(countingList, list) }

    func text(for result: ItemResult, in session: CommandSession) -> String {
        TextFormat.details(result.item)
    }
}

enum AddRequest: RequestForm {
    static let name = "add"
    static let summary = "Add an item to a list, at the bottom unless told otherwise."
    static let title = Parameter<String>("title", required: true, help: "The item's title.")
    static let list = Parameter<ListReference>("list", help: "The list to add to; the current list when not given.")
    static let placement = Parameter<PlacementReference>(
        "placement", help: "Where the item goes: top, bottom (the default), before or after an item, or at an offset.")
    static let notes = Parameter<String>("notes", help: "Notes to keep with the item.")
    static let today = Parameter<Bool>("today", help: "Whether the item joins Today too, at its bottom, in the same step.")
    static let parameters: [any AnyParameter] = [title, list, placement, notes, today]

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> AddItem {
        let list = try resolve.list(fields[list])
        return AddItem(
            title: try fields.value(title), list: list.id,
            placement: try resolve.placement(fields[placement] ?? .bottom, numberedIn: .list(list)), notes: fields[notes] ?? "",
            today: fields[today] == true ? .bottom : nil)
    }
}

struct AddCommand: RequestCommand {
    typealias Form = AddRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: """
        Examples:
          arrange add Buy milk
          arrange add "Buy milk" --list Groceries --after 3f2a
          arrange add Call mum --top
        """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.title, valueName: "title")) var title: [String]
    @Option(help: ArgumentHelp(Form.list, valueName: "list")) var list: ListReference?
    @OptionGroup(title: "Placement") var placement: PlacementOptions<ItemReference>
    @Option(help: ArgumentHelp(Form.notes, valueName: "text")) var notes: String?
    @Flag(help: ArgumentHelp(Form.today)) var today = false

    var fields: RequestFields {
        RequestFields().with(Form.title, title.joined(separator: " ")).with(Form.list, list).with(Form.placement, placement.reference)
            .with(Form.notes, notes).with(Form.today, today ? true : nil)
    }

    func text(for result: PlacementResult, in session: CommandSession) async throws -> String {
        TextFormat.placed("Added", result.items, positions: try await session.positions(of: result.items))
    }
}

enum RenameRequest: RequestForm {
    static let name = "rename"
    static let summary = "Give an item a new title."
    static let item = Parameter<ItemReference>("item", required: true, help: "The item to rename: #N, an id, or at least 4 characters of one.")
    static let title = Parameter<String>("title", required: true, help: "The item's new title.")
    static let parameters: [any AnyParameter] = [item, title, countingList]

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> RenameItem {
        let item = try resolve.item(try fields.value(item), numberedIn: try resolve.numbering(fields[countingList]))
        return RenameItem(item: item.id, title: try fields.value(title))
    }
}

struct RenameCommand: RequestCommand {
    typealias Form = RenameRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange rename '#2' Buy oat milk")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.item, valueName: "item")) var item: ItemReference
    @Argument(help: ArgumentHelp(Form.title, valueName: "title")) var title: [String]
    @Option(help: ArgumentHelp(countingList, valueName: "list")) var list: ListReference?

    var fields: RequestFields {
        RequestFields().with(Form.item, item).with(Form.title, title.joined(separator: " ")).with(countingList, list)
    }

    func text(for result: ItemResult, in session: CommandSession) -> String {
        "Renamed \(TextFormat.short(result.item.id)) to \(TextFormat.quoted(result.item.title))."
    }
}

enum EditRequest: RequestForm {
    static let name = "edit"
    static let summary = "Change an item's title, its notes, or both."
    static let item = Parameter<ItemReference>("item", required: true, help: "The item to edit: #N, an id, or at least 4 characters of one.")
    static let title = Parameter<String>("title", help: "The item's new title; left out, the title stays.")
    static let notes = Parameter<String>("notes", help: "The item's new notes; \"\" clears them, and left out, they stay.")
    static let parameters: [any AnyParameter] = [item, title, notes, countingList]

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> EditItem {
        guard fields[title] != nil || fields[notes] != nil else { throw ValidationError("Say what to change: a new title, new notes, or both.") }
        let item = try resolve.item(try fields.value(item), numberedIn: try resolve.numbering(fields[countingList]))
        return EditItem(item.id, title: fields[title], notes: fields[notes])
    }
}

struct EditCommand: RequestCommand {
    typealias Form = EditRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: """
        Examples:
          arrange edit '#2' --notes 'Oat, not soy'
          arrange edit '#2' --title 'Buy oat milk' --notes ''
        """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.item, valueName: "item")) var item: ItemReference
    @Option(help: ArgumentHelp(Form.title, valueName: "title")) var title: String?
    @Option(help: ArgumentHelp(Form.notes, valueName: "text")) var notes: String?
    @Option(help: ArgumentHelp(countingList, valueName: "list")) var list: ListReference?

    var fields: RequestFields {
        RequestFields().with(Form.item, item).with(Form.title, title).with(Form.notes, notes).with(countingList, list)
    }

    func text(for result: ItemResult, in session: CommandSession) -> String {
        "Edited \(TextFormat.short(result.item.id)): \(TextFormat.quoted(result.item.title))."
    }
}

/// The form of the requests that act on several items by reference: `complete`, `reopen`, `delete`.
protocol ItemsRequest: RequestForm {
    /// What the items parameter means for this request.
    static var itemsHelp: String { get }

    /// The intent for the resolved items.
    static func intent(for items: [Item.ID]) -> Intent
}

extension ItemsRequest {
    static var items: Parameter<[ItemReference]> { Parameter("items", required: true, help: itemsHelp) }
    static var itemsHelp: String { "The items: #N (as `list` numbers them), ids, or at least 4 characters of an id." }
    static var parameters: [any AnyParameter] { [items, countingList] }

    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> Intent {
        intent(for: try resolve.itemIDs(try fields.value(items), numberedIn: try resolve.numbering(fields[countingList])))
    }
}

/// The arguments of the commands that act on several items by reference.
struct ItemsArguments<Form: ItemsRequest>: ParsableArguments {
    @Argument(help: ArgumentHelp(Form.items, valueName: "item")) var items: [ItemReference]
    @Option(help: ArgumentHelp(countingList, valueName: "list")) var list: ListReference?

    var fields: RequestFields { RequestFields().with(Form.items, items).with(countingList, list) }
}

enum CompleteRequest: ItemsRequest {
    typealias Intent = CompleteItems
    static let name = "complete"
    static let summary = "Mark items done; they keep their place but `list` hides them."
    static func intent(for items: [Item.ID]) -> CompleteItems { CompleteItems(items) }
}

struct CompleteCommand: RequestCommand {
    typealias Form = CompleteRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange complete '#1' '#3'")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ItemsArguments<Form>

    var fields: RequestFields { arguments.fields }

    func text(for result: ItemsResult, in session: CommandSession) -> String {
        result.changed == 0 ? "Already done: \(TextFormat.titles(result.items))." : "Completed \(TextFormat.titles(result.items))."
    }
}

enum ReopenRequest: ItemsRequest {
    typealias Intent = ReopenItems
    static let name = "reopen"
    static let summary = "Mark completed items open again, in the place they had."
    static var itemsHelp: String { "The items to reopen: ids or id prefixes (#N counts open items only)." }
    static func intent(for items: [Item.ID]) -> ReopenItems { ReopenItems(items) }
}

struct ReopenCommand: RequestCommand {
    typealias Form = ReopenRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Completed items have no #N; name them by id (see `list --all`).")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ItemsArguments<Form>

    var fields: RequestFields { arguments.fields }

    func text(for result: ItemsResult, in session: CommandSession) -> String {
        result.changed == 0 ? "Already open: \(TextFormat.titles(result.items))." : "Reopened \(TextFormat.titles(result.items))."
    }
}

enum DeleteRequest: ItemsRequest {
    typealias Intent = DeleteItems
    static let name = "delete"
    static let summary = "Delete items (undo puts them back where they were)."
    static func intent(for items: [Item.ID]) -> DeleteItems { DeleteItems(items) }
}

struct DeleteCommand: RequestCommand {
    typealias Form = DeleteRequest
    static let configuration = CommandConfiguration.request(Form.self)
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ItemsArguments<Form>

    var fields: RequestFields { arguments.fields }

    func text(for result: ItemsResult, in session: CommandSession) -> String {
        "Deleted \(TextFormat.titles(result.items))."
    }
}
