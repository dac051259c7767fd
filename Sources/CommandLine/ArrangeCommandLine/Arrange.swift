public import ArgumentParser
import ArrangeIntents
import Foundation

/// The `arrange` command: its configuration only; the work is in the subcommands.
public struct Arrange: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "arrange",
        abstract: "Keep to-do lists in your own order.",
        discussion: """
            Items are named by #N (their number in `arrange list`), by their id, or by at \
            least 4 characters of it. Without a subcommand, arrange opens the REPL.
            """,
        version: "0.1.0",
        subcommands: RequestCatalogue.commands + [ExportCommand.self, ImportCommand.self, SyncCommand.self, ShareCommand.self, RunCommand.self, ReplCommand.self],
        defaultSubcommand: ReplCommand.self)

    public init() {}

    /// Parses the process's arguments and runs the command they name.
    ///
    /// A plain command line of the commands scripts run most is read without ArgumentParser
    /// (``PlainCommandLine``); ArgumentParser reads every other.
    ///
    /// Help and version go to standard output. A command line that cannot be parsed gets one
    /// line on standard error (`error: …`, with where to find help) and the usage status; the
    /// commands report their own errors the same way.
    public static func runFromCommandLine(_ arguments: [String] = Array(CommandLine.arguments.dropFirst())) async {
        do {
            if var command = try PlainCommandLine.command(from: arguments) {
                return try await command.run()
            }
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let exit as ExitCode {
            Self.exit(withError: exit)
        } catch {
            guard exitCode(for: error) != .success else { Self.exit(withError: error) }
            Console.standard.error(usageError(error, arguments: arguments))
            Self.exit(withError: ExitCode(exitCode(for: error).rawValue))
        }
    }

    /// A parse error as one line, naming an unknown command as such; a usage error names the
    /// command's help, and a refusal (a malformed reference, exit status 1) is its message alone.
    ///
    /// - Parameter program: What the commands are typed after: `arrange ` in a shell, nothing in the REPL.
    static func usageError(_ error: any Error, arguments: [String], program: String = "arrange ") -> String {
        guard exitCode(for: error) != .refused else { return message(for: error) }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        if let first = arguments.first, !first.hasPrefix("-"), !names.contains(first) {
            return "Unknown command '\(first)'; run 'arrange --help' for the list."
        }
        var command = arguments.first.flatMap { names.contains($0) ? program + $0 : nil } ?? "arrange"
        // A command of a group (`today move`, `checklist add`) names its own help.
        if let group = configuration.subcommands.first(where: { $0.configuration.commandName == arguments.first }), arguments.count > 1,
           group.configuration.subcommands.contains(where: { $0.configuration.commandName == arguments[1] }) {
            command += " " + arguments[1]
        }
        let message = message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "The command line cannot be read."
        return "\(message) (see '\(command) --help')"
    }
}

/// A command that runs against a ``CommandSession``: one it opens itself when run from the
/// command line, or the REPL's.
protocol SessionCommand: AsyncParsableCommand {
    var shared: SharedOptions { get }

    /// Whether the command's session keeps an undo history; only those that run several
    /// commands in one session (the REPL, `arrange run`) do. The default is `false`.
    static var keepsHistory: Bool { get }

    /// Runs the command in an open session.
    func run(in session: CommandSession) async throws
}

extension SessionCommand {
    static var keepsHistory: Bool { false }

    /// Opens a session, runs the command, and ends the process; errors become one line on
    /// standard error and an exit status (see ``CommandLineError/exitCode`` and `ExitCode.refused`).
    func run() async throws {
        let console = Console.standard
        do {
            let session = try await CommandSession.open(
                database: shared.db, overrides: shared.settings.overrides, keepsHistory: Self.keepsHistory, console: console)
            try await run(in: session)
            session.endProcess()
        } catch let error as CommandLineError {
            console.error(error.description)
            throw error.exitCode
        } catch let exit as ExitCode {
            throw exit
        } catch {
            console.error(IntentFailure(error).message)
            throw ExitCode.refused
        }
    }
}

/// A command that runs one kind of request and prints its result.
protocol RequestCommand: SessionCommand {
    /// The kind of request the command makes.
    associatedtype Form: Request

    /// The request the command's arguments make.
    ///
    /// - Throws: `ValidationError` for arguments that make no request. The default `validate()`
    ///   reads the request, so that ArgumentParser reports what it throws; a command with a
    ///   `validate()` of its own calls ``Request/checkForm()`` there.
    var request: Form { get throws }

    /// The result as text for a person.
    func text(for result: Form.Result, in session: CommandSession) async throws -> String
}

extension RequestCommand {
    /// Checks the form of every reference of the request, as ArgumentParser parses the command
    /// line: a malformed one is refused before a database is opened. `ReferenceError` is no
    /// `ValidationError`, so ArgumentParser reports it with its own message and exit status 1,
    /// as the store's refusals are.
    func validate() throws {
        try request.checkForm()
    }

    func run(in session: CommandSession) async throws {
        try await runRequest(in: session)
    }

    /// Runs the command's request and prints its result, as JSON or as text.
    func runRequest(in session: CommandSession) async throws {
        let result = try await request.perform(in: session).result
        if shared.json {
            try session.printJSON(result)
        } else {
            session.console.print(try await text(for: result, in: session))
        }
    }
}
