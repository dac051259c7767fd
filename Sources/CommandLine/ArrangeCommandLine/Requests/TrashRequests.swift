import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation

// The Trash: `trash`, `restore`, `emptyTrash`.

struct TrashRequest: Request {
    static let name = "trash"
    static let summary = "Show what is in the Trash: the items, lists and headings deleted, the most recently deleted first."

    static let fields: [RequestField<Self>] = []

    var readsOnly: Bool { true }

    func intent(_ resolve: ReferenceResolver) -> GetTrash { GetTrash() }
}

struct RestoreRequest: Request {
    static let name = "restore"
    static let summary = "Put items, lists and headings back from the Trash, each where it was; a list or heading with what went there with it."
    var items: [ItemReference]?
    var lists: [ListReference]?
    var headings: [HeadingReference]?

    static let fields: [RequestField<Self>] = [
        .init("items", \.items, help: "The items to put back, by id or id prefix (as `trash` shows them)."),
        .init("lists", \.lists, help: "The lists to put back, by name or id."),
        .init("headings", \.headings, help: "The headings to put back, by id, or by title among the headings of the current list."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> RestoreFromTrash {
        RestoreFromTrash(
            items: try resolve.itemIDs(items ?? [], numberedIn: try resolve.numbering(nil)),
            lists: try (lists ?? []).map { try resolve.list($0).id }, headings: try (headings ?? []).map { try resolve.heading($0, in: nil).id })
    }
}

struct EmptyTrashRequest: Request {
    static let name = "emptyTrash"
    static let summary = "Delete for good what is in the Trash, on every device, or only some of its items."
    var items: [ItemReference]?

    static let fields: [RequestField<Self>] = [
        .init("items", \.items, help: "Only these items, by id or id prefix; everything in the Trash when not given."),
    ]

    func intent(_ resolve: ReferenceResolver) throws -> EmptyTrash {
        EmptyTrash(items: try items.map { try resolve.itemIDs($0, numberedIn: try resolve.numbering(nil)) })
    }
}

struct TrashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trash", abstract: "Show the Trash, or empty it; `delete`, `delete-list` and `heading delete` put things there.",
        discussion: """
            What is deleted goes to the Trash, and keeps its place until it is put back (`arrange restore`) or the Trash is emptied.

            Examples:
              arrange trash
              arrange trash empty 3f2a91c0      (that item only, for good)
              arrange trash empty               (everything, for good)
            """,
        subcommands: [TrashShowCommand.self, TrashEmptyCommand.self], defaultSubcommand: TrashShowCommand.self)
}

struct TrashShowCommand: RequestCommand {
    typealias Form = TrashRequest
    static let configuration = CommandConfiguration(commandName: "show", abstract: Form.summary)
    @OptionGroup var shared: SharedOptions

    var request: TrashRequest { TrashRequest() }

    func text(for result: TrashResult, in session: CommandSession) -> String {
        TextFormat.trash(result)
    }
}

struct TrashEmptyCommand: RequestCommand {
    typealias Form = EmptyTrashRequest
    static let configuration = CommandConfiguration(commandName: "empty", abstract: Form.summary, discussion: "Example: arrange trash empty 3f2a91c0")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.items), valueName: "item")) var items: [ItemReference] = []

    var request: EmptyTrashRequest { EmptyTrashRequest(items: items.isEmpty ? nil : items) }

    func text(for result: EmptiedTrashResult, in session: CommandSession) -> String {
        result.deleted == 0 ? "The Trash is empty." : "Deleted \(result.deleted) thing\(result.deleted == 1 ? "" : "s") for good."
    }
}

struct RestoreCommand: RequestCommand {
    typealias Form = RestoreRequest
    static let configuration = CommandConfiguration.request(
        Form.self, discussion: "Examples: arrange restore 3f2a91c0; arrange restore --list Trip; arrange restore --heading Packing")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.items), valueName: "item")) var items: [ItemReference] = []
    @Option(name: .customLong("list"), help: ArgumentHelp(Form.help(\.lists), valueName: "list")) var lists: [ListReference] = []
    @Option(name: .customLong("heading"), help: ArgumentHelp(Form.help(\.headings), valueName: "heading")) var headings: [HeadingReference] = []

    var request: RestoreRequest {
        RestoreRequest(items: items.isEmpty ? nil : items, lists: lists.isEmpty ? nil : lists, headings: headings.isEmpty ? nil : headings)
    }

    func text(for result: TrashResult, in session: CommandSession) -> String {
        let names = result.lists.map(\.name) + result.headings.map(\.title)
        return "Put back " + (names.map(TextFormat.quoted) + (result.items.isEmpty ? [] : [TextFormat.titles(result.items)])).joined(separator: ", ") + "."
    }
}

extension TextFormat {
    /// The Trash, one thing a line, each with the day it was deleted: the lists, the headings,
    /// then the items with their short ids, which `restore` and `trash empty` take.
    static func trash(_ trash: TrashResult) -> String {
        guard !(trash.items.isEmpty && trash.lists.isEmpty && trash.headings.isEmpty) else { return "The Trash is empty." }
        let day = Date.ISO8601FormatStyle(timeZone: .current).year().month().day()
        let deleted = { (moment: Date?) in moment.map { $0.formatted(day) } ?? "" }
        let count = { (n: Int) in "\(n) item\(n == 1 ? "" : "s")" }
        let lists = trash.lists.map { "  \(deleted($0.trashedAt))  list \(quoted($0.name))  (\(count($0.totalItems)))" }
        let headings = trash.headings.map { "  \(deleted($0.trashedAt))  heading \(quoted($0.title))  (\(count($0.totalItems)))" }
        let items = trash.items.map { "  \(deleted($0.trashedAt))  \(short($0.id))  \(mark($0))\($0.title)  (\($0.listName))" }
        return (["Trash, the most recently deleted first:"] + lists + headings + items).joined(separator: "\n")
    }
}

extension RequestCatalogue {
    /// The requests of the Trash, in the order help lists them.
    static let trashRequests: [any Request.Type] = [TrashRequest.self, RestoreRequest.self, EmptyTrashRequest.self]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let trashCommands: [any ParsableCommand.Type] = [TrashCommand.self, RestoreCommand.self]
}
