import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore

// The items: `list`, `show`, `add`, `rename`, `complete`, `cancel`, `reopen`, `delete`.

struct ListItemsRequest: Request {
    static let name = "list"
    static let summary = "Show the items of a list in their order, numbered #1, #2, … for use in other commands."
    var list: ListReference?
    var includeCompleted: Bool?
    var tags: [TagReference]?

    static let fields: [RequestField<Self>] = [
        .init("list", \.list, help: "The list to show; the current list when not given."),
        .init("includeCompleted", \.includeCompleted, help: "Show completed items too (they get no #N)."),
        .init("tags", \.tags, help: Help.tagFilter),
    ]

    var readsOnly: Bool { true }

    func intent(_ resolve: ReferenceResolver) throws -> ListItems {
        ListItems(list: try resolve.list(list).id, visibility: includeCompleted ?? false ? .openAndCompleted : .open, tags: try resolve.tags(tags ?? []))
    }
}

struct ListCommand: RequestCommand {
    typealias Form = ListItemsRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Examples: arrange list; arrange list --list Groceries --all")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var name: ListReference?
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?
    @Flag(name: [.customLong("all"), .customLong("include-completed")], help: ArgumentHelp(Form.help(\.includeCompleted)))
    var includeCompleted = false
    @OptionGroup var tagFilter: TagFilterOption

    func validate() throws {
        guard name == nil || list == nil else { throw ValidationError("Name the list once: as an argument or with --list.") }
        try request.checkForm()
    }

    var request: ListItemsRequest { ListItemsRequest(list: name ?? list, includeCompleted: includeCompleted, tags: tagFilter.filter) }

    func text(for result: ItemListing, in session: CommandSession) -> String {
        TextFormat.listing(result)
    }

    /// Shows the list; after `use Today`, with no list named, shows Today, whose items `#N` then counts.
    func run(in session: CommandSession) async throws {
        guard session.isUsingToday, name == nil, list == nil else {
            return try await runRequest(in: session)
        }
        let today = try await TodayRequest(includeCompleted: includeCompleted).perform(in: session).result
        if shared.json {
            try session.printJSON(today)
        } else {
            session.console.print(TextFormat.today(today))
        }
    }
}

struct ShowRequest: Request {
    static let name = "show"
    static let summary = "Show one item with all its fields."
    var item: ItemReference = ""
    var list: ListReference?

    static let fields: [RequestField<Self>] = [
        .init("item", \.item, help: "The item to show: #N, an id, or at least 4 characters of one."),
        .init("list", \.list, help: Help.countingList),
    ]

    var readsOnly: Bool { true }

    func intent(_ resolve: ReferenceResolver) throws -> ShowItem {
        ShowItem(item: try resolve.item(item, numberedIn: try resolve.numbering(list)).id)
    }
}

struct ShowCommand: RequestCommand {
    typealias Form = ShowRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange show '#2'")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.item), valueName: "item")) var item: ItemReference
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?

    var request: ShowRequest { ShowRequest(item: item, list: list) }

    func text(for result: ItemResult, in session: CommandSession) -> String {
        TextFormat.details(result.item)
    }
}

struct AddRequest: Request {
    static let name = "add"
    static let summary = "Add an item to a list, at the bottom unless told otherwise."
    var title: String = ""
    var list: ListReference?
    var placement: PlacementReference?
    var notes: String?
    var today: Bool?
    var when: WhenChoice?
    var deadline: DeadlineChoice?
    var day: Day?

    static let fields: [RequestField<Self>] = [
        .init("title", \.title, help: "The item's title."),
        .init("list", \.list, help: "The list to add to; the current list when not given."),
        .init("placement", \.placement, help: "Where the item goes: top, bottom (the default), before or after an item, or at an offset."),
        .init("notes", \.notes, help: "Notes to keep with the item."),
        .init("today", \.today, help: "Whether the item joins Today too, at its bottom, in the same step."),
        .init("when", \.when, help: Help.whenWords + " Anytime when not given."),
        .init("deadline", \.deadline, help: Help.deadlineWords + "; none when not given."),
        .init("day", \.day, help: Help.phraseDay),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> AddItem {
        let day = day ?? resolve.today
        let (when, reminder) = try when?.when(evening: false, on: day) ?? (nil, nil)
        if today == true, let when, when.startDate != day {
            throw ValidationError("An item added to Today starts today: give today or tonight as its when, or leave one of the two out.")
        }
        let deadline = try deadline?.deadline(on: day)
        let list = try resolve.list(list)
        return AddItem(
            title: title, list: list.id, placement: try resolve.placement(placement ?? .bottom, numberedIn: .list(list)), notes: notes ?? "",
            today: today == true ? .bottom : nil, when: when, deadline: deadline, reminder: reminder)
    }
}

struct AddCommand: RequestCommand {
    typealias Form = AddRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: """
        Examples:
          arrange add Buy milk
          arrange add "Buy milk" --list Groceries --after 3f2a
          arrange add Call mum --top
          arrange add Pay rent --when "next friday" --deadline "dec 1"
        """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.title), valueName: "title")) var title: [String]
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?
    @OptionGroup(title: "Placement") var placement: PlacementOptions<ItemReference>
    @Option(help: ArgumentHelp(Form.help(\.notes), valueName: "text")) var notes: String?
    @Flag(help: ArgumentHelp(Form.help(\.today))) var today = false
    @Option(help: ArgumentHelp(Form.help(\.when), valueName: "when")) var when: String?
    @Option(help: ArgumentHelp(Form.help(\.deadline), valueName: "day")) var deadline: String?
    @OptionGroup var options: PhraseDayOption

    var request: AddRequest {
        AddRequest(
            title: title.joined(separator: " "), list: list, placement: placement.reference, notes: notes, today: today ? true : nil,
            when: when.map { WhenChoice($0) }, deadline: deadline.map { DeadlineChoice($0) }, day: options.day)
    }

    func text(for result: PlacementResult, in session: CommandSession) async throws -> String {
        TextFormat.placed("Added", result.items, positions: try await session.positions(of: result.items))
    }
}

struct RenameRequest: Request {
    static let name = "rename"
    static let summary = "Give an item a new title."
    var item: ItemReference = ""
    var title: String = ""
    var list: ListReference?

    static let fields: [RequestField<Self>] = [
        .init("item", \.item, help: "The item to rename: #N, an id, or at least 4 characters of one."),
        .init("title", \.title, help: "The item's new title."),
        .init("list", \.list, help: Help.countingList),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> RenameItem {
        RenameItem(item: try resolve.item(item, numberedIn: try resolve.numbering(list)).id, title: title)
    }
}

struct RenameCommand: RequestCommand {
    typealias Form = RenameRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange rename '#2' Buy oat milk")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.item), valueName: "item")) var item: ItemReference
    @Argument(help: ArgumentHelp(Form.help(\.title), valueName: "title")) var title: [String]
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?

    var request: RenameRequest { RenameRequest(item: item, title: title.joined(separator: " "), list: list) }

    func text(for result: ItemResult, in session: CommandSession) -> String {
        "Renamed \(TextFormat.short(result.item.id)) to \(TextFormat.quoted(result.item.title))."
    }
}

struct EditRequest: Request {
    static let name = "edit"
    static let summary = "Change an item's title, its notes, or both."
    var item: ItemReference = ""
    var title: String?
    var notes: String?
    var list: ListReference?

    static let fields: [RequestField<Self>] = [
        .init("item", \.item, help: "The item to edit: #N, an id, or at least 4 characters of one."),
        .init("title", \.title, help: "The item's new title; left out, the title stays."),
        .init("notes", \.notes, help: "The item's new notes; \"\" clears them, and left out, they stay."),
        .init("list", \.list, help: Help.countingList),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> EditItem {
        guard title != nil || notes != nil else { throw ValidationError("Say what to change: a new title, new notes, or both.") }
        return EditItem(try resolve.item(item, numberedIn: try resolve.numbering(list)).id, title: title, notes: notes)
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
    @Argument(help: ArgumentHelp(Form.help(\.item), valueName: "item")) var item: ItemReference
    @Option(help: ArgumentHelp(Form.help(\.title), valueName: "title")) var title: String?
    @Option(help: ArgumentHelp(Form.help(\.notes), valueName: "text")) var notes: String?
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?

    var request: EditRequest { EditRequest(item: item, title: title, notes: notes, list: list) }

    func text(for result: ItemResult, in session: CommandSession) -> String {
        "Edited \(TextFormat.short(result.item.id)): \(TextFormat.quoted(result.item.title))."
    }
}

/// The requests that act on several items by reference: `complete`, `cancel`, `reopen`, `delete`.
protocol ItemsRequest: Request {
    /// The items, as the request names them.
    var items: [ItemReference] { get set }
    /// The list whose open items `#N` counts.
    var list: ListReference? { get set }

    init(items: [ItemReference], list: ListReference?)

    /// What the items field means for this request.
    static var itemsHelp: String { get }

    /// The intent for the resolved items.
    static func intent(for items: [Item.ID]) -> Intent
}

extension ItemsRequest {
    static var itemsHelp: String { Help.items }

    static var fields: [RequestField<Self>] {
        [.init("items", \.items, help: itemsHelp), .init("list", \.list, help: Help.countingList)]
    }

    func intent(_ resolve: ReferenceResolver) throws -> Intent {
        Self.intent(for: try resolve.itemIDs(items, numberedIn: try resolve.numbering(list)))
    }
}

/// The arguments of the commands that act on several items by reference.
struct ItemsArguments<Form: ItemsRequest>: ParsableArguments {
    @Argument(help: ArgumentHelp(Form.help(\.items), valueName: "item")) var items: [ItemReference]
    @Option(help: ArgumentHelp(Form.help(\.list), valueName: "list")) var list: ListReference?

    var request: Form { Form(items: items, list: list) }
}

/// A request that marks items done on a day, from which a repeating to-do after completion
/// counts its next: `complete`, `cancel`.
protocol DoneItemsRequest: ItemsRequest {
    /// The day they are done; `nil` for today.
    var day: Day? { get set }

    /// The intent for the resolved items, done on `day`.
    static func intent(for items: [Item.ID], day: Day?) -> Intent
}

extension DoneItemsRequest {
    static var fields: [RequestField<Self>] {
        [.init("items", \.items, help: itemsHelp), .init("list", \.list, help: Help.countingList), .init("day", \.day, help: Help.doneDay)]
    }

    init(items: [ItemReference], list: ListReference?) {
        self.init()
        (self.items, self.list) = (items, list)
    }

    static func intent(for items: [Item.ID]) -> Intent { intent(for: items, day: nil) }

    func intent(_ resolve: ReferenceResolver) throws -> Intent {
        Self.intent(for: try resolve.itemIDs(items, numberedIn: try resolve.numbering(list)), day: day)
    }
}

extension Help {
    /// The `day` field of `complete` and `cancel`.
    static let doneDay = "The day the items are done (YYYY-MM-DD), which a repeating to-do after completion counts its next from; today where this machine is when not given."
}

/// The `--day` option of `complete` and `cancel`.
struct DoneDayOption: ParsableArguments {
    @Option(help: ArgumentHelp(Help.doneDay, valueName: "YYYY-MM-DD"), transform: Day.init(option:))
    var day: Day?
}

extension DoneDayOption {
    /// The option set to `day`, as a command read without ArgumentParser sets it.
    init(day: Day?) {
        self.init()
        self.day = day
    }
}

struct CompleteRequest: DoneItemsRequest {
    typealias Intent = CompleteItems
    static let name = "complete"
    static let summary = "Mark items done; they keep their place but `list` hides them. A repeating to-do after completion makes its next."
    var items: [ItemReference] = []
    var list: ListReference?
    var day: Day?

    static func intent(for items: [Item.ID], day: Day?) -> CompleteItems { CompleteItems(items, day: day) }
}

struct CompleteCommand: RequestCommand {
    typealias Form = CompleteRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange complete '#1' '#3'")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ItemsArguments<Form>
    @OptionGroup var done: DoneDayOption

    var request: Form {
        var request = arguments.request
        request.day = done.day
        return request
    }

    func text(for result: ItemsResult, in session: CommandSession) -> String {
        result.changed == 0 ? "Already done: \(TextFormat.titles(result.items))." : "Completed \(TextFormat.titles(result.items))."
    }
}

struct CancelRequest: DoneItemsRequest {
    typealias Intent = CancelItems
    static let name = "cancel"
    static let summary = "Mark open items canceled: done, and in the Logbook marked canceled (`reopen` opens them again)."
    var items: [ItemReference] = []
    var list: ListReference?
    var day: Day?

    static func intent(for items: [Item.ID], day: Day?) -> CancelItems { CancelItems(items, day: day) }
}

struct CancelCommand: RequestCommand {
    typealias Form = CancelRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Example: arrange cancel '#2'")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ItemsArguments<Form>
    @OptionGroup var done: DoneDayOption

    var request: Form {
        var request = arguments.request
        request.day = done.day
        return request
    }

    func text(for result: ItemsResult, in session: CommandSession) -> String {
        result.changed == 0 ? "Already done: \(TextFormat.titles(result.items))." : "Canceled \(TextFormat.titles(result.items))."
    }
}

struct ReopenRequest: ItemsRequest {
    typealias Intent = ReopenItems
    static let name = "reopen"
    static let summary = "Mark completed or canceled items open again, in the place they had."
    static let itemsHelp = "The items to reopen: ids or id prefixes (#N counts open items only)."
    var items: [ItemReference] = []
    var list: ListReference?

    static func intent(for items: [Item.ID]) -> ReopenItems { ReopenItems(items) }
}

struct ReopenCommand: RequestCommand {
    typealias Form = ReopenRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Completed items have no #N; name them by id (see `list --all`).")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ItemsArguments<Form>

    var request: Form { arguments.request }

    func text(for result: ItemsResult, in session: CommandSession) -> String {
        result.changed == 0 ? "Already open: \(TextFormat.titles(result.items))." : "Reopened \(TextFormat.titles(result.items))."
    }
}

struct DeleteRequest: ItemsRequest {
    typealias Intent = DeleteItems
    static let name = "delete"
    static let summary = "Move items to the Trash, where they keep their places; `restore` puts them back, `trash empty` deletes them for good."
    var items: [ItemReference] = []
    var list: ListReference?

    static func intent(for items: [Item.ID]) -> DeleteItems { DeleteItems(items) }
}

struct DeleteCommand: RequestCommand {
    typealias Form = DeleteRequest
    static let configuration = CommandConfiguration.request(Form.self)
    @OptionGroup var shared: SharedOptions
    @OptionGroup var arguments: ItemsArguments<Form>

    var request: Form { arguments.request }

    func text(for result: ItemsResult, in session: CommandSession) -> String {
        "Moved \(TextFormat.titles(result.items)) to the Trash."
    }
}

extension RequestCatalogue {
    /// The requests of items, in the order help lists them.
    static let itemRequests: [any Request.Type] = [
        ListItemsRequest.self, ShowRequest.self, AddRequest.self, RenameRequest.self, EditRequest.self, CompleteRequest.self,
        CancelRequest.self, ReopenRequest.self, DeleteRequest.self,
    ]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let itemCommands: [any ParsableCommand.Type] = [ListCommand.self, ShowCommand.self, AddCommand.self, RenameCommand.self, EditCommand.self, CompleteCommand.self, CancelCommand.self, ReopenCommand.self, DeleteCommand.self]
}
