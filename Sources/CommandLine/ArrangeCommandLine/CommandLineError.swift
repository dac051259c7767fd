public import ArgumentParser

/// Why the tool could not start or go on, apart from an intent's own refusal.
public enum CommandLineError: Error, Hashable, Sendable {
    /// A setting is invalid: a bad value, an unknown key, a file that is not JSON.
    case configuration(String)
    /// The database cannot be opened or created.
    case database(String)
    /// An input file (of `arrange run` or `arrange import`) cannot be read.
    case input(String)
    /// An output file (of `arrange export`) cannot be written.
    case output(String)
    /// A command cannot be used where it was given (`repl` inside the REPL, say).
    case unavailable(String)

    /// The process's exit status for this error (from BSD's `sysexits.h`).
    public var exitCode: ExitCode {
        switch self {
        case .configuration: .configurationInvalid
        case .database: .databaseUnavailable
        case .input: .inputUnreadable
        case .output: .outputUnwritable
        case .unavailable: .validationFailure
        }
    }
}

extension CommandLineError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .configuration(let message): "invalid configuration: \(message)"
        case .database(let message): message
        case .input(let message): message
        case .output(let message): message
        case .unavailable(let message): message
        }
    }
}

extension ExitCode {
    /// An intent refused the request: a bad reference, an unknown list, an empty title…
    /// Nothing was changed.
    public static let refused = ExitCode(1)
    /// The input of `arrange run` cannot be read (`EX_NOINPUT`).
    public static let inputUnreadable = ExitCode(66)
    /// An output file cannot be created or written (`EX_CANTCREAT`).
    public static let outputUnwritable = ExitCode(73)
    /// The database cannot be opened or created (`EX_IOERR`).
    public static let databaseUnavailable = ExitCode(74)
    /// A setting is invalid (`EX_CONFIG`).
    public static let configurationInvalid = ExitCode(78)
}
