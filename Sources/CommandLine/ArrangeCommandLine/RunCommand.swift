import ArgumentParser
import ArrangeIntents

/// `arrange run [FILE|-]`: the JSON Lines protocol.
struct RunCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Answer JSON Lines requests, one answer line per request line, in one session.",
        discussion: """
            Each line is a request: {"intent": NAME, ...parameters}, for example
              {"intent": "add", "title": "Buy milk", "list": "Groceries", "placement": "top"}
            Each answer is one line: {"ok": true, "result": ...} or
              {"ok": false, "error": {"code": ..., "message": ...}}.
            A bad line gets an error answer and the run goes on; blank lines are skipped.
            Undo and redo work across the lines of one run.
            Exit status: 0 once every line is answered, even with error answers; non-zero only
            when the input cannot be read or the database cannot be opened.
            Intents: \(RequestCatalogue.names.joined(separator: ", ")).
            """)
    @OptionGroup var shared: SharedOptions
    static let keepsHistory = true
    @Argument(help: ArgumentHelp("The file of requests; - or nothing reads standard input.", valueName: "file"))
    var file: String?

    func run(in session: CommandSession) async throws {
        let reader = try file.flatMap { $0 == "-" ? nil : try LineReader(path: $0) } ?? LineReader.standardInput()
        let conversation = RunConversation(session: session)
        try await conversation.run(lines: reader.readLine, write: session.console.print)
    }
}
