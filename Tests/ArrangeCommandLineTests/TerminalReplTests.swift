import Foundation
import Testing
#if canImport(Glibc)
import Glibc

// The spawning below uses Glibc's posix_spawn and /proc; the project's machines run Linux.

/// posix_spawn failed with this error number.
private struct SpawnError: Error {
    var code: Int32
}

/// `tmux`, when installed.
private let tmux: URL? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"]
    .map(URL.init(fileURLWithPath:))
    .first { FileManager.default.isExecutableFile(atPath: $0.path) }

/// The last line of a screen that has text.
private func lastLine(_ screen: String) -> String {
    screen.split(separator: "\n").last { !$0.allSatisfy(\.isWhitespace) }.map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
}

/// The REPL on a real terminal: tmux runs it, `send-keys` types, `capture-pane` reads the screen.
@Suite(
    "The REPL under tmux",
    .enabled(if: Executable.url != nil, "arrange is built by swift build --build-tests"),
    .enabled(if: tmux != nil, "tmux is not installed; install it (apt-get install tmux) to test the REPL on a terminal"))
struct TerminalReplTests {
    /// A tmux server of the test's own, so that no user session is touched.
    final class Terminal {
        let socket = "arrange-test-\(UUID().uuidString.prefix(8))"
        let executable: Executable

        init(_ executable: Executable) {
            self.executable = executable
        }

        deinit {
            _ = try? tmuxCommand(["kill-server"])
        }

        /// Runs a tmux client and returns what it printed.
        ///
        /// It is spawned directly rather than with `Process`: on Linux, `Process` learns that a
        /// child ended when a descriptor it hands the child closes, and the tmux server that
        /// `new-session` starts would keep that descriptor open for as long as it runs. The
        /// client gets only standard input, output and error, so the server inherits nothing
        /// of the test process either.
        @discardableResult
        func tmuxCommand(_ arguments: [String]) throws -> String {
            guard let tmux else { return "" }
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID()).out")
            defer { try? FileManager.default.removeItem(at: output) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            // Close everything else (glibc ignores a close of a descriptor closed meanwhile).
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
                posix_spawn_file_actions_addclose(&actions, descriptor)
            }
            let argv = ([tmux.path, "-L", socket, "-f", "/dev/null"] + arguments).map { strdup($0) } + [nil]
            let environment = executable.environment(["TERM": "xterm-256color"]).map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { (argv + environment).forEach { free($0) } }
            var pid: pid_t = 0
            let spawned = posix_spawn(&pid, tmux.path, &actions, nil, argv, environment)
            guard spawned == 0 else { throw SpawnError(code: spawned) }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        }

        /// Starts `arrange` in a new 100×30 window.
        func start(_ database: URL) throws {
            let command = [Executable.url!.path, "--db", database.path].map { "'\($0)'" }.joined(separator: " ")
            try tmuxCommand(["new-session", "-d", "-x", "100", "-y", "30", "-s", "repl", command])
        }

        /// Types keys; plain text is sent literally, and `Enter`, `Tab`, `Up` as keys.
        func type(_ keys: String...) throws {
            for key in keys {
                if ["Enter", "Tab", "Up", "C-c", "C-d", "C-u"].contains(key) {
                    try tmuxCommand(["send-keys", "-t", "repl", key])
                } else {
                    try tmuxCommand(["send-keys", "-t", "repl", "-l", key])
                }
            }
        }

        /// The screen's text.
        func screen() throws -> String {
            try tmuxCommand(["capture-pane", "-p", "-t", "repl"])
        }

        /// Waits until the screen (trailing spaces trimmed by tmux) satisfies `condition`, at most 10 seconds.
        @discardableResult
        func waitFor(_ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ condition: (String) -> Bool) throws -> String {
            let deadline = Date().addingTimeInterval(10)
            var text = ""
            while Date() < deadline {
                text = try screen()
                if condition(text) { return text }
                usleep(50_000)
            }
            Issue.record("timed out waiting for \(what); the screen shows:\n\(text)", sourceLocation: sourceLocation)
            return text
        }

        /// Whether the session is gone (arrange exited).
        func hasExited() throws -> Bool {
            !(try tmuxCommand(["list-sessions"]).contains("repl:"))
        }

        /// Waits until arrange has exited, at most 10 seconds.
        func waitForExit(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if try hasExited() { return }
                usleep(50_000)
            }
            Issue.record("arrange did not exit", sourceLocation: sourceLocation)
        }
    }

    @Test("Type a command, drop a line with Ctrl-C, complete with Tab, recall with Up, quit, restart and find the history")
    func session() async throws {
        try await withTemporaryFolder { home in
            let terminal = Terminal(Executable(home: home))
            let database = home.appendingPathComponent("lists/arrange.sqlite")
            try terminal.start(database)
            try terminal.waitFor("the prompt") { lastLine($0) == "arrange Inbox>" }

            try terminal.type("add Buy milk", "Enter")
            try terminal.waitFor("the add") { $0.contains("now #1 of Inbox.") }

            // Ctrl-C drops the line being typed and leaves the REPL running.
            try terminal.type("add Never", "C-c")
            try terminal.waitFor("the dropped line") { $0.contains("arrange Inbox> add Never^C\n") && lastLine($0) == "arrange Inbox>" }

            // Tab completes a command name as far as its candidates agree (complete, complete-list),
            // and #N references.
            try terminal.type("comp", "Tab")
            try terminal.waitFor("completed command") { $0.contains("complete-list") && lastLine($0) == "arrange Inbox> complete" }
            try terminal.type(" #", "Tab")
            try terminal.waitFor("completed reference") { lastLine($0) == "arrange Inbox> complete #1" }
            try terminal.type("Enter")
            try terminal.waitFor("the completion") { $0.contains("Completed \"Buy milk\".") }

            // Up brings back the previous line.
            try terminal.type("Up")
            try terminal.waitFor("the recalled line") { lastLine($0) == "arrange Inbox> complete #1" }
            try terminal.type("C-u", "quit", "Enter")
            try terminal.waitForExit()

            let history = database.deletingLastPathComponent().appendingPathComponent("arrange.sqlite.history")
            // libedit writes spaces as \040.
            let saved = try String(contentsOf: history, encoding: .utf8).replacingOccurrences(of: "\\040", with: " ")
            #expect(saved.contains("add Buy milk"))
            #expect(saved.contains("complete #1"))
            #expect(!saved.contains("Never"))

            // A new session finds the history: Up shows the last line, then the one before.
            try terminal.start(database)
            try terminal.waitFor("the prompt again") { lastLine($0) == "arrange Inbox>" }
            try terminal.type("Up")
            try terminal.waitFor("the last line") { lastLine($0) == "arrange Inbox> quit" }
            try terminal.type("Up")
            try terminal.waitFor("the line before") { lastLine($0) == "arrange Inbox> complete #1" }
            // Ctrl-D on an empty line ends the REPL.
            try terminal.type("C-u", "C-d")
            try terminal.waitForExit()
        }
    }
}
#endif
