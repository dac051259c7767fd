import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation

// Links of Things' URL scheme: `url`.

struct LinkRequest: Request {
    static let name = "url"
    static let summary = "Do what a link of Things' URL scheme asks (things:///add?title=Milk), in one step; arrange:/// works the same."
    var url = ""

    static let fields: [RequestField<Self>] = [
        .init("url", \.url, help: "The link: things:/// or arrange:///, then add, add-project, update, update-project, json, show, search or version."),
    ]

    /// Links that show, search or tell the version only read; one that cannot be read fails as it is run.
    var readsOnly: Bool {
        (try? ThingsLink(url)).map { OpenThingsLink($0).isReadOnly } ?? true
    }

    func intent(_ resolve: ReferenceResolver) throws -> OpenThingsLink {
        OpenThingsLink(try ThingsLink(url), clientVersion: Arrange.configuration.version)
    }
}

/// `arrange url`: one link, the links of standard input, or a new link token.
struct LinkCommand: SessionCommand {
    typealias Form = LinkRequest
    static let configuration = CommandConfiguration(
        commandName: "url", abstract: "Do what a link of Things' URL scheme asks: add, add-project, update, update-project, json, show, search, version.",
        discussion: """
            Prints what Things hands the link's x-success callback, as a JSON object (x-things-id, x-things-ids, \
            or the versions), with x-success filled in when the link has one; arrange never opens a URL. \
            show and search print their view as `view` and `result`. A link that fails prints \
            {"errorMessage": …} (with x-error filled in) and exits with status 65; it changes nothing.

            Links that update (update, update-project, json with updates) need auth-token, this database's \
            link token: make it with --new-token.

            Examples:
              arrange url 'things:///add?title=Milk&when=tomorrow&tags=Errand'
              arrange url 'things:///add-project?title=Trip&to-dos=Passport%0ATickets'
              arrange url --new-token
              pbpaste | arrange url -
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp("The link; - reads one link a line from standard input.", valueName: "url"))
    var link: String?
    @Flag(help: ArgumentHelp("Make this database's link token, in place of any it had, and print it this once."))
    var newToken = false

    func validate() throws {
        guard newToken != (link != nil) else {
            throw ValidationError(newToken ? "Give a link or --new-token, not both." : "Give a link, - for standard input, or --new-token.")
        }
    }

    func run(in session: CommandSession) async throws {
        if newToken { return try await makeToken(in: session) }
        guard link == "-" else {
            guard try await open(link ?? "", in: session) else { throw ExitCode.linkRefused }
            return
        }
        var refused = false
        while let line = readLine() {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { continue }
            if try await !open(text, in: session) { refused = true }
        }
        if refused { throw ExitCode.linkRefused }
    }

    /// Opens one link and prints its answer, or its failure as `x-error` would have it.
    ///
    /// - Returns: Whether the link succeeded.
    func open(_ text: String, in session: CommandSession) async throws -> Bool {
        do {
            let answer = try await Form(url: text).perform(in: session).result
            session.console.write(try JSONLine.line(answer))
            return true
        } catch {
            let failure = IntentFailure(error)
            let callback = (try? ThingsLink(text))?.errorURL.map { ThingsCallback.filling($0, with: [("errorMessage", failure.message)]) }
            session.console.write(try JSONLine.line(LinkFailure(errorMessage: failure.message, code: failure.code, xError: callback)))
            session.console.error(failure.message)
            return false
        }
    }

    func makeToken(in session: CommandSession) async throws {
        let token = try await session.environment.perform(MakeLinkToken()).result.token
        if shared.json { return try session.printJSON(["token": token]) }
        session.console.print("""
            Link token: \(token)
            Links that update to-dos and projects carry it as auth-token=\(token). It is shown this once; \
            the database keeps only its digest, and making another replaces it.
            """)
    }
}

/// A link's failure, as `arrange url` prints it: what Things hands its `x-error` callback.
struct LinkFailure: Encodable {
    var errorMessage: String
    var code: String
    var xError: URL?

    enum CodingKeys: String, CodingKey {
        case errorMessage, code
        case xError = "x-error"
    }
}

extension ExitCode {
    /// A link of Things' URL scheme was refused (`EX_DATAERR`). Nothing was changed.
    static let linkRefused = ExitCode(65)
}

extension RequestCatalogue {
    /// The requests of links, in the order help lists them.
    static let linkRequests: [any Request.Type] = [LinkRequest.self]
    /// The subcommands of `arrange` that make these requests, in the order help lists them.
    static let linkCommands: [any ParsableCommand.Type] = [LinkCommand.self]
}
