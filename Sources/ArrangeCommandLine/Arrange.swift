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
        subcommands: [
            ListsCommand.self, CreateListCommand.self, RenameListCommand.self, DeleteListCommand.self,
            ListCommand.self, ShowCommand.self, AddCommand.self, RenameCommand.self,
            CompleteCommand.self, ReopenCommand.self, DeleteCommand.self, MoveCommand.self,
            ValidateCommand.self, NormalizeCommand.self, UndoCommand.self, RedoCommand.self,
            RunCommand.self, ReplCommand.self,
        ],
        defaultSubcommand: ReplCommand.self)

    public init() {}
}

/// A command that runs against a ``CommandSession``: one it opens itself when run from the
/// command line, or the REPL's.
protocol SessionCommand: AsyncParsableCommand {
    var shared: SharedOptions { get }

    /// Runs the command in an open session.
    func run(in session: CommandSession) async throws
}

extension SessionCommand {
    /// Opens a session and runs the command; errors become one line on standard error and
    /// an exit status (see ``ExitStatus`` and ``CommandLineError/exitStatus``).
    func run() async throws {
        let console = Console.standard
        do {
            let session = try await CommandSession.open(database: shared.db, overrides: shared.settings.overrides, console: console)
            try await run(in: session)
        } catch let error as CommandLineError {
            console.error(error.description)
            throw ExitCode(error.exitStatus)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            console.error(IntentFailure(error).message)
            throw ExitCode(ExitStatus.refused)
        }
    }
}

/// A command that runs one intent and prints its result.
protocol IntentCommand: SessionCommand {
    associatedtype Intent: ArrangeIntent

    /// The intent the command's arguments describe.
    func intent() throws -> Intent

    /// The result as text for a person.
    func text(for result: Intent.Result, in session: CommandSession) async throws -> String
}

extension IntentCommand {
    func run(in session: CommandSession) async throws {
        let result = try await intent().perform(in: session.environment)
        if shared.json {
            try session.printJSON(result)
        } else {
            session.console.print(try await text(for: result, in: session))
        }
    }
}
