import CLibEdit
import CLibEditShim
public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads lines for a REPL: with editing, history and Tab completion on a terminal, and as
/// plain lines when standard input is a pipe or a file.
///
/// ```swift
/// let editor = try LineEditor(
///     programName: "arrange", historyFile: historyURL, historySize: 500,
///     completer: { lineBeforeCursor in ["help", "hello"] })
/// while let line = editor.readLine(prompt: "arrange> ") {
///     editor.addToHistory(line)
///     // run the line
/// }
/// try editor.saveHistory()
/// ```
///
/// On a terminal the editor uses libedit in emacs mode (a `~/.editrc` may change that):
/// Up and Down walk the history, Tab completes the word before the cursor, Ctrl-C drops the
/// line being typed, Ctrl-D on an empty line ends the input. The history is read from
/// `historyFile` when the editor starts and written back by ``saveHistory()``, and when the
/// editor is released (an error there is dropped, so call ``saveHistory()`` before exiting to
/// report one). A process ended by a signal saves nothing; Ctrl-C is a signal only while the
/// caller runs a line, not while one is typed.
///
/// When standard input is not a terminal (``isInteractive`` is `false`) the editor reads plain
/// lines with Swift's `readLine()`, shows no prompt, and neither reads nor writes the history
/// file, so scripted sessions leave the user's history alone.
///
/// On a terminal the editor sets the C locale's `LC_CTYPE` from the environment, or to
/// `C.UTF-8` when the environment names none, so that libedit reads UTF-8 characters.
///
/// Use one editor at a time, from one thread.
public final class LineEditor {
    /// Whether standard input is a terminal, so that lines are read with editing and history.
    public let isInteractive: Bool

    private let completer: (_ lineBeforeCursor: String) -> [String]
    private let historyFile: URL?
    /// The history list; `nil` when the editor is not interactive.
    private let history: EditHistory?
    /// libedit's `EditLine *`; `nil` when the editor is not interactive.
    private let editLine: OpaquePointer?
    /// The prompt libedit shows, as a C string this object owns.
    private var promptCString: UnsafeMutablePointer<CChar>?
    private var promptText: String?

    /// Starts an editor on the process's standard input and output.
    ///
    /// - Parameters:
    ///   - programName: The name `~/.editrc` lines may start with to apply only here.
    ///   - historyFile: Where the history is kept between sessions, or `nil` to keep none.
    ///     Its folder is created when the history is first saved.
    ///   - historySize: The most lines the history keeps; older ones are dropped.
    ///   - completer: Given the line's text up to the cursor, returns the words that could
    ///     replace its last word (the text after the last space or tab). Tab puts in a single
    ///     candidate followed by a space; several candidates are listed below the line, and
    ///     their longest common prefix is put in when it is longer than the word typed.
    /// - Throws: ``LineEditorError/historyNotLoaded(path:)`` when the history file exists but
    ///   cannot be read; ``LineEditorError/terminalUnavailable`` or
    ///   ``LineEditorError/historyUnavailable`` when libedit cannot start.
    public init(
        programName: String,
        historyFile: URL?,
        historySize: Int,
        completer: @escaping (_ lineBeforeCursor: String) -> [String]
    ) throws(LineEditorError) {
        self.completer = completer
        self.historyFile = historyFile
        isInteractive = isatty(STDIN_FILENO) != 0
        guard isInteractive else {
            history = nil
            editLine = nil
            return
        }

        Self.useUTF8Characters()
        let history = try EditHistory(size: historySize)
        if let historyFile { try history.load(from: historyFile) }
        guard let editLine = arrange_el_init(programName) else { throw .terminalUnavailable }
        self.history = history
        self.editLine = editLine

        _ = arrange_el_set_client_data(editLine, Unmanaged.passUnretained(self).toOpaque())
        _ = arrange_el_set_editor(editLine, "emacs")
        _ = arrange_el_set_signal_handling(editLine, 1)
        _ = arrange_el_set_history(editLine, history.list)
        _ = arrange_el_set_prompt(editLine) { editLine in
            editLine.flatMap(LineEditor.owner(of:))?.promptCString
        }
        _ = el_source(editLine, nil)
        _ = arrange_el_bind_command(editLine, "arrange-complete", "Complete the word before the cursor", { editLine, _ in
            editLine.flatMap { editLine in LineEditor.owner(of: editLine)?.complete(in: editLine) }
                ?? UInt8(CC_ERROR)
        }, "^I")
        // Ctrl-C drops the line being typed and starts a fresh one, as in a shell.
        _ = arrange_el_set_interrupt_as_key(editLine)
        _ = arrange_el_bind_command(editLine, "arrange-cancel", "Drop the line and start a new one", { editLine, _ in
            editLine.flatMap { editLine in LineEditor.owner(of: editLine)?.cancelLine(in: editLine) } ?? UInt8(CC_ERROR)
        }, "^C")
    }

    deinit {
        try? saveHistory()
        if let editLine { el_end(editLine) }
        free(promptCString)
    }

    /// Reads the next line, without its line break.
    ///
    /// - Parameter prompt: What to show before the line; not shown when ``isInteractive`` is `false`.
    /// - Returns: The line, or `nil` at the end of the input (Ctrl-D on an empty line).
    public func readLine(prompt: String) -> String? {
        guard let editLine else { return Swift.readLine(strippingNewline: true) }
        setPrompt(prompt)
        var count: Int32 = 0
        guard let line = el_gets(editLine, &count), count > 0 else {
            // Leave the shell's next prompt on a line of its own.
            FileHandle.standardOutput.write(Data("\n".utf8))
            return nil
        }
        var text = String(cString: line)
        if text.last == "\n" { text.removeLast() }
        return text
    }

    /// Adds `line` to the history as its newest entry, unless it is blank or equal to the
    /// newest entry. Does nothing when ``isInteractive`` is `false`.
    public func addToHistory(_ line: String) {
        history?.add(line)
    }

    /// Writes the history to the history file, creating its folder when missing. Does nothing
    /// when there is no history file or ``isInteractive`` is `false`.
    ///
    /// - Throws: ``LineEditorError/historyNotSaved(path:reason:)``.
    public func saveHistory() throws(LineEditorError) {
        guard let history, let historyFile else { return }
        try history.save(to: historyFile)
    }

    // MARK: - libedit callbacks

    /// The editor that owns `editLine`, found through libedit's client data.
    private static func owner(of editLine: OpaquePointer) -> LineEditor? {
        arrange_el_client_data(editLine).map { Unmanaged<LineEditor>.fromOpaque($0).takeUnretainedValue() }
    }

    private func setPrompt(_ prompt: String) {
        guard prompt != promptText else { return }
        free(promptCString)
        promptCString = strdup(prompt)
        promptText = prompt
    }

    /// Handles Tab: asks the completer, edits the line, and lists the candidates when there
    /// are several. Returns a libedit `CC_*` code.
    private func complete(in editLine: OpaquePointer) -> UInt8 {
        guard let line = el_line(editLine)?.pointee, let buffer = line.buffer, let cursor = line.cursor else {
            return UInt8(CC_ERROR)
        }
        let lineBeforeCursor = String(
            decoding: UnsafeRawBufferPointer(start: buffer, count: cursor - buffer), as: UTF8.self)
        let completion = Completion(lineBeforeCursor: lineBeforeCursor, candidates: completer(lineBeforeCursor))
        if let replacement = completion.replacement {
            // libedit counts characters as wchar_t, which holds one Unicode scalar.
            el_deletestr(editLine, Int32(completion.word.unicodeScalars.count))
            guard el_insertstr(editLine, replacement) == 0 else { return UInt8(CC_ERROR) }
        }
        guard !completion.listing.isEmpty else {
            return UInt8(completion.replacement == nil ? CC_REFRESH_BEEP : CC_REFRESH)
        }
        let columns = Int(arrange_el_terminal_columns(editLine))
        let rows = Completion.columns(completion.listing, width: columns > 0 ? columns : 80)
        FileHandle.standardOutput.write(Data(("\n" + rows.joined(separator: "\n") + "\n").utf8))
        return UInt8(CC_REDISPLAY)
    }

    /// Handles Ctrl-C: leaves the line on the screen marked `^C`, empties the buffer and
    /// shows the prompt again on the next line. Returns a libedit `CC_*` code.
    private func cancelLine(in editLine: OpaquePointer) -> UInt8 {
        guard let line = el_line(editLine)?.pointee, let buffer = line.buffer, let cursor = line.cursor, let end = line.lastchar else {
            return UInt8(CC_ERROR)
        }
        // libedit counts characters as wchar_t: move to the end, then delete everything before it.
        let typed = String(decoding: UnsafeRawBufferPointer(start: buffer, count: end - buffer), as: UTF8.self)
        let afterCursor = String(decoding: UnsafeRawBufferPointer(start: cursor, count: end - cursor), as: UTF8.self)
        _ = el_cursor(editLine, Int32(afterCursor.unicodeScalars.count))
        el_deletestr(editLine, Int32(typed.unicodeScalars.count))
        FileHandle.standardOutput.write(Data((afterCursor + "^C\n").utf8))
        return UInt8(CC_REDISPLAY)
    }

    /// Makes libedit read UTF-8: it decodes typed bytes with the C locale's `LC_CTYPE`, which
    /// is "C" until a program sets it.
    private static func useUTF8Characters() {
        let plain: Set<String> = ["C", "POSIX"]
        guard let current = setlocale(LC_CTYPE, nil), plain.contains(String(cString: current)) else { return }
        if let chosen = setlocale(LC_CTYPE, ""), !plain.contains(String(cString: chosen)) { return }
        _ = setlocale(LC_CTYPE, "C.UTF-8")
    }
}

@available(*, unavailable, message: "A LineEditor drives the terminal from one thread.")
extension LineEditor: Sendable {}
