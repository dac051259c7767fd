import CLibEdit
import CLibEditShim
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A bounded list of past lines in libedit's history, which the editor's Up and Down arrows walk.
final class EditHistory {
    /// libedit's `History *`.
    let list: OpaquePointer

    /// Makes an empty history that keeps at most `size` lines, dropping the oldest first.
    init(size: Int) throws(LineEditorError) {
        guard let list = history_init() else { throw .historyUnavailable }
        self.list = list
        guard arrange_history_set_size(list, Int32(clamping: max(0, size))) == 0,
              arrange_history_set_unique(list, 1) == 0
        else { throw .historyUnavailable }
    }

    deinit { history_end(list) }

    /// The number of lines held.
    var count: Int { max(0, Int(arrange_history_count(list))) }

    /// Adds the lines of a history file. A missing file adds nothing.
    func load(from file: URL) throws(LineEditorError) {
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        guard arrange_history_load(list, file.path) == 0 else { throw .historyNotLoaded(path: file.path) }
    }

    /// Adds `line` as the newest entry, unless it is blank or equal to the newest entry.
    func add(_ line: String) {
        guard line.contains(where: { !$0.isWhitespace }) else { return }
        _ = arrange_history_enter(list, line)
    }

    /// Writes every line held to `file`, creating its folder when missing.
    func save(to file: URL) throws(LineEditorError) {
        do {
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .historyNotSaved(path: file.path, reason: error.localizedDescription)
        }
        guard arrange_history_save(list, file.path) == 0 else {
            throw .historyNotSaved(path: file.path, reason: String(cString: strerror(errno)))
        }
    }
}
