@testable import ArrangeLineEditor
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("The history list and its file")
struct EditHistoryTests {
    /// A file in a fresh temporary folder, removed after `body`.
    func withHistoryFile(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arrange-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder.appendingPathComponent("state/history"))
    }

    @Test("Blank lines and a repeat of the newest line are not added")
    func skipsBlankAndRepeats() throws {
        let history = try EditHistory(size: 10)
        for line in ["list", "list", "  ", "", "show #5", "list"] { history.add(line) }
        #expect(history.count == 3)
    }

    @Test("The oldest lines are dropped past the size")
    func bounded() throws {
        let history = try EditHistory(size: 2)
        for line in ["one", "two", "three"] { history.add(line) }
        #expect(history.count == 2)
    }

    @Test("Saving creates the folder, and loading reads the lines back in order")
    func roundTrip() throws {
        try withHistoryFile { file in
            let history = try EditHistory(size: 2)
            for line in ["one", "two", "three"] { history.add(line) }
            try history.save(to: file)
            #expect(try String(contentsOf: file, encoding: .utf8) == "_HiStOrY_V2_\ntwo\nthree\n")

            let reloaded = try EditHistory(size: 10)
            try reloaded.load(from: file)
            #expect(reloaded.count == 2)
            reloaded.add("three")
            #expect(reloaded.count == 2, "the newest loaded line counts for repeats")
        }
    }

    @Test("A missing file loads as an empty history; a foreign file is refused")
    func loading() throws {
        try withHistoryFile { file in
            let history = try EditHistory(size: 10)
            try history.load(from: file)
            #expect(history.count == 0)

            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("not a history\n".utf8).write(to: file)
            #expect(throws: LineEditorError.historyNotLoaded(path: file.path)) { try history.load(from: file) }
        }
    }
}

@Suite("The line editor when standard input is not a terminal", .serialized)
struct NonInteractiveLineEditorTests {
    @Test("Lines are read plainly, and the history file is left alone")
    func readsPlainLines() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        let savedInput = dup(STDIN_FILENO)
        try #require(savedInput >= 0 && dup2(fds[0], STDIN_FILENO) >= 0)
        defer {
            dup2(savedInput, STDIN_FILENO)
            close(savedInput)
            close(fds[0])
        }
        let input = Array("one\n  two  \n\nlast".utf8)
        #expect(write(fds[1], input, input.count) == input.count)
        close(fds[1])

        let historyFile = FileManager.default.temporaryDirectory.appendingPathComponent("arrange-\(UUID())/history")
        var completions = 0
        let editor = try LineEditor(programName: "arrange-tests", historyFile: historyFile, historySize: 10) { _ in
            completions += 1
            return []
        }
        #expect(!editor.isInteractive)
        var lines: [String] = []
        while let line = editor.readLine(prompt: "> ") {
            lines.append(line)
            editor.addToHistory(line)
        }
        #expect(lines == ["one", "  two  ", "", "last"])
        try editor.saveHistory()
        #expect(!FileManager.default.fileExists(atPath: historyFile.path))
        #expect(completions == 0)
    }
}
