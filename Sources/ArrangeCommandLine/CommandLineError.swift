/// Why the tool could not start or go on, apart from an intent's own refusal.
public enum CommandLineError: Error, Hashable, Sendable {
    /// A setting is invalid: a bad value, an unknown key, a file that is not JSON.
    case configuration(String)
    /// The database cannot be opened or created.
    case database(String)
    /// The input of `arrange run` cannot be read.
    case input(String)
    /// A command cannot be used where it was given (`repl` inside the REPL, say).
    case unavailable(String)

    /// The process's exit status for this error (from BSD's `sysexits.h`).
    public var exitStatus: Int32 {
        switch self {
        case .configuration: 78  // EX_CONFIG
        case .database: 74  // EX_IOERR
        case .input: 66  // EX_NOINPUT
        case .unavailable: 64  // EX_USAGE
        }
    }
}

extension CommandLineError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .configuration(let message): "invalid configuration: \(message)"
        case .database(let message): message
        case .input(let message): message
        case .unavailable(let message): message
        }
    }
}

/// The exit statuses of `arrange`, as the README documents them.
public enum ExitStatus {
    /// Done; for `arrange run`, every line was answered, even with error answers.
    public static let success: Int32 = 0
    /// An intent refused the request: a bad reference, an unknown list, an empty title…
    /// Nothing was changed.
    public static let refused: Int32 = 1
}
