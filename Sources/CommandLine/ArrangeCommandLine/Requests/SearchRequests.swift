import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation

// Quick Find: `search`.

struct SearchRequest: Request {
    static let name = "search"
    static let summary = "Find the items, lists, areas and headings whose words match a query, ignoring case and accents, the best first."
    var query: String = ""
    var limit: Int?
    var includeCompleted: Bool?
    var day: Day?
    var tags: [TagReference]?

    static let fields: [RequestField<Self>] = [
        .init("query", \.query, help: "What to look for: words, each found at a word's beginning, or anywhere in a word from three characters."),
        .init("limit", \.limit, help: "The most items to show; \(Search.defaultLimit) when not given."),
        .init("includeCompleted", \.includeCompleted, help: "Whether completed and canceled items, and finished lists, are found too; false when not given."),
        .init("day", \.day, help: "The day whose Today ranks first (YYYY-MM-DD); today where this machine is when not given."),
        .init("tags", \.tags, help: Help.tagFilter),
    ]

    var readsOnly: Bool { true }

    func intent(_ resolve: ReferenceResolver) throws -> Search {
        Search(query: query, limit: limit ?? Search.defaultLimit, includeCompleted: includeCompleted ?? false, day: day, tags: try resolve.tags(tags ?? []))
    }
}

struct SearchCommand: RequestCommand {
    typealias Form = SearchRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Examples: arrange search mil; arrange search cafe --completed; arrange search 牛奶 --json")
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp(Form.help(\.query), valueName: "word")) var words: [String]
    @Flag(help: ArgumentHelp("Find completed and canceled items, and finished lists, too.")) var completed = false
    @Option(help: ArgumentHelp(Form.help(\.limit), valueName: "n")) var limit: Int?
    @OptionGroup var options: ViewDayOption
    @OptionGroup var tagFilter: TagFilterOption

    var request: Form { Form(query: words.joined(separator: " "), limit: limit, includeCompleted: completed, day: options.day, tags: tagFilter.filter) }

    func text(for result: SearchResult, in session: CommandSession) -> String {
        TextFormat.search(result)
    }
}

extension TextFormat {
    /// What Quick Find found: the items, the best first, each with its list and where it
    /// matched; then the lists, areas, tags and headings whose names match.
    static func search(_ result: SearchResult) -> String {
        var lines = [
            result.total == 0 ? "Nothing found."
                : "Found \(result.total) item\(result.total == 1 ? "" : "s")" + (result.items.count < result.total ? ", the first \(result.items.count) shown:" : ":")
        ]
        lines += result.items.map { match in
            "  \(short(match.item.id))  \(mark(match.item))\(match.item.title)  (\(match.item.listName); \(match.matched.map(\.rawValue).joined(separator: ", ")))"
        }
        if !result.lists.isEmpty { lines.append("Lists: " + result.lists.map { quoted($0.name) }.joined(separator: ", ")) }
        if !result.areas.isEmpty { lines.append("Areas: " + result.areas.map { quoted($0.name) }.joined(separator: ", ")) }
        if !result.tags.isEmpty { lines.append("Tags: " + result.tags.map { quoted($0.name) }.joined(separator: ", ")) }
        if !result.headings.isEmpty { lines.append("Headings: " + result.headings.map { quoted($0.title) }.joined(separator: ", ")) }
        return lines.joined(separator: "\n")
    }
}

extension RequestCatalogue {
    /// The requests of Quick Find, in the order help lists them.
    static let searchRequests: [any Request.Type] = [SearchRequest.self]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let searchCommands: [any ParsableCommand.Type] = [SearchCommand.self]
}
