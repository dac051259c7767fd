/// Why a ``LineEditor`` could not start, or could not keep its history.
public enum LineEditorError: Error, Hashable, Sendable {
    /// libedit could not set up the terminal.
    case terminalUnavailable
    /// libedit could not set up a history list.
    case historyUnavailable
    /// The history file exists but is not one libedit wrote, or cannot be read.
    case historyNotLoaded(path: String)
    /// The history file cannot be written.
    case historyNotSaved(path: String, reason: String)
}

extension LineEditorError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .terminalUnavailable:
            "The line editor cannot use this terminal."
        case .historyUnavailable:
            "The line editor cannot keep a history."
        case .historyNotLoaded(let path):
            "Cannot read the history file \(path); it is unreadable or not a libedit history. Move it away to start afresh."
        case .historyNotSaved(let path, let reason):
            "Cannot save the history file \(path): \(reason)"
        }
    }
}
