import ArgumentParser
import ArrangeIntents
import ArrangeModel

// The Logbook: `logbook`.

struct LogbookRequest: Request {
    static let name = "logbook"
    static let summary = "Show the completed items of every list, the most recently completed first, a page at a time."
    var offset: Int?
    var limit: Int?
    var day: Day?
    var tags: [TagReference]?

    static let fields: [RequestField<Self>] = [
        .init("offset", \.offset, help: "How many of the most recently completed items to pass over; none when not given."),
        .init("limit", \.limit, help: "The most items to show; \(ShowLogbook.defaultLimit) when not given."),
        .init("day", \.day, help: "A day (YYYY-MM-DD), which every view takes; the Logbook does not depend on it."),
        .init("tags", \.tags, help: Help.tagFilter),
    ]

    var readsOnly: Bool { true }

    func intent(_ resolve: ReferenceResolver) throws -> ShowLogbook {
        ShowLogbook(offset: offset ?? 0, limit: limit ?? ShowLogbook.defaultLimit, tags: try resolve.tags(tags ?? []))
    }
}

struct LogbookCommand: RequestCommand {
    typealias Form = LogbookRequest
    static let configuration = CommandConfiguration.request(Form.self, discussion: "Examples: arrange logbook; arrange logbook --offset 50 --limit 50")
    @OptionGroup var shared: SharedOptions
    @Option(help: ArgumentHelp(Form.help(\.offset), valueName: "n")) var offset: Int?
    @Option(help: ArgumentHelp(Form.help(\.limit), valueName: "n")) var limit: Int?
    @OptionGroup var tagFilter: TagFilterOption

    var request: LogbookRequest { LogbookRequest(offset: offset, limit: limit, day: nil, tags: tagFilter.filter) }

    func text(for result: LogbookPage, in session: CommandSession) -> String {
        TextFormat.logbook(result)
    }
}

extension RequestCatalogue {
    /// The requests of the Logbook, in the order help lists them.
    static let logbookRequests: [any Request.Type] = [LogbookRequest.self]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let logbookCommands: [any ParsableCommand.Type] = [LogbookCommand.self]
}
