import ArgumentParser
import ArrangeIntents
import ArrangeLineEditor
import ArrangeModel
import ArrangeShellWords
import Foundation

/// `arrange repl`, also what `arrange` runs without a subcommand.
struct ReplCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Type commands at a prompt, with history, Tab completion and undo (the default).",
        discussion: """
            Each line is a command as on the command line, without `arrange`: add Buy milk, \
            move '#3' --top, list. `use LIST` makes a list current, `help` lists the commands, \
            Ctrl-D or `quit` ends. The history is kept next to the database. When standard \
            input is not a terminal, the lines are read as they come, without a prompt.
            """)
    @OptionGroup var shared: SharedOptions
    static let keepsHistory = true

    func run(in session: CommandSession) async throws {
        try await Repl(session: session).run()
    }
}

/// The read-eval-print loop: one session for all its lines, so undo and redo work across them.
public final class Repl {
    public let session: CommandSession

    /// What the loop does after a line.
    public enum Outcome: Sendable {
        case proceed
        case quit
    }

    public init(session: CommandSession) {
        self.session = session
    }

    private var console: Console { session.console }

    /// Reads and runs lines until Ctrl-D or `quit`, then saves the history.
    ///
    /// - Throws: ``CommandLineError/unavailable(_:)`` when the line editor cannot start.
    public func run() async throws(CommandLineError) {
        let completer = Completer(session: session)
        let editor: LineEditor
        do {
            editor = try LineEditor(
                programName: "arrange", historyFile: session.locations.history, historySize: session.settings.historySize,
                completer: completer.candidates(lineBeforeCursor:))
        } catch {
            throw .unavailable(error.description)
        }
        if editor.isInteractive {
            console.print("Arrange: \(session.locations.database.path). Type help for commands, quit or Ctrl-D to leave.")
        }
        while let line = editor.readLine(prompt: await prompt()) {
            editor.addToHistory(line)
            if await handle(line) == .quit { break }
        }
        do {
            try editor.saveHistory()
        } catch {
            console.error(error.description)
        }
    }

    /// The prompt: `arrange Groceries> `, naming the current list.
    public func prompt() async -> String {
        let name = session.isUsingToday ? " Today" : (try? await session.resolveList().name).map { " " + $0 } ?? ""
        return "arrange\(name)> "
    }

    /// Runs one line and prints what it gives. Errors are printed; the loop goes on.
    public func handle(_ line: String) async -> Outcome {
        let words: [String]
        do {
            words = try ShellWords.split(line)
        } catch {
            console.error(error.description)
            return .proceed
        }
        guard let first = words.first else { return .proceed }
        let rest = Array(words.dropFirst())
        switch first {
        case "quit", "exit":
            return .quit
        case "help":
            console.print(help(for: rest.first))
        case "use":
            await use(rest.joined(separator: " "))
        case _ where !Arrange.configuration.subcommands.contains(where: { $0.configuration.commandName == first }):
            console.error("Unknown command '\(first)'; type help for the list.")
        default:
            await runCommand(words)
        }
        return .proceed
    }

    private func runCommand(_ words: [String]) async {
        let command: any ParsableCommand
        do {
            command = try Arrange.parseAsRoot(words)
        } catch {
            guard Arrange.exitCode(for: error) != .success else {
                console.print(Arrange.fullMessage(for: error))
                return
            }
            console.error(Arrange.usageError(error, arguments: words, program: ""))
            if let subcommand = Arrange.configuration.subcommands.first(where: { $0.configuration.commandName == words[0] }) {
                console.print("Usage: " + Arrange.usageString(for: subcommand))
            }
            return
        }
        guard let command = command as? any SessionCommand, !(command is ReplCommand) else {
            console.error("\(words[0]) cannot run inside the REPL.")
            return
        }
        guard command.shared.db == nil, command.shared.settings.overrides.isEmpty else {
            console.error("--db and the settings apply when arrange starts; start it again with them.")
            return
        }
        if command is RunCommand, (command as? RunCommand)?.file ?? "-" == "-" {
            console.error("run reads a file here: run FILE.")
            return
        }
        if (command as? LinkCommand)?.link == "-" {
            console.error("url reads one link here: url LINK.")
            return
        }
        do {
            try await command.run(in: session)
        } catch is ExitCode {
            // The command printed why it failed (a refused link).
        } catch {
            console.error(IntentFailure(error).message)
        }
    }

    private func use(_ name: String) async {
        guard !name.isEmpty else {
            let current = session.isUsingToday ? "Today" : (try? await session.resolveList()).map(\.name)
            console.print(current.map { "The current list is \($0)." } ?? "No list is current.")
            return
        }
        guard name.caseInsensitiveCompare(Self.today) != .orderedSame else {
            session.useToday()
            console.print("Now using Today: #N counts its open items, list shows it and move moves in it.")
            return
        }
        do {
            let list = try await session.useList(ListReference(name))
            console.print("Now using \(list.name).")
        } catch {
            console.error(IntentFailure(error).message)
        }
    }

    /// The list of commands, or one command's help.
    public func help(for name: String?) -> String {
        if let name {
            guard let command = Self.commands.first(where: { $0.configuration.commandName == name }) else {
                return "No command is named \(name); type help for the list."
            }
            return Arrange.helpMessage(for: command)
        }
        let rows = Self.commands.map { ($0.configuration.commandName ?? "", $0.configuration.abstract) } + [
            ("use LIST", "Make LIST the current list: commands use it when they name none, and #N counts its items."),
            ("use Today", "Make Today current: #N counts its open items, list shows it, move moves in it; new items go to the default list."),
            ("help [COMMAND]", "List the commands, or explain one (COMMAND --help works too)."),
            ("quit", "Leave the REPL (Ctrl-D works too)."),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        return (["Commands:"] + rows.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }
            + ["Items are #N (as list numbers them), an id, or 4+ characters of one. Tab completes commands, lists and items."])
            .joined(separator: "\n")
    }

    /// The name `use` takes for Today rather than a list; a list named so is used by its id.
    static let today = "Today"

    /// The commands a REPL line can run.
    static let commands: [any ParsableCommand.Type] = Arrange.configuration.subcommands.filter { $0 != ReplCommand.self }
}
