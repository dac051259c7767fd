public import Foundation

/// Where the tool keeps its files, following the XDG base directory rules.
public struct Locations: Hashable, Sendable {
    /// The database.
    public var database: URL
    /// The user's configuration file (it may not exist).
    public var userConfiguration: URL

    /// The REPL's history file: next to the database, named after it (`arrange.sqlite.history`).
    public var history: URL {
        database.deletingLastPathComponent().appendingPathComponent(database.lastPathComponent + ".history")
    }

    public init(database: URL, userConfiguration: URL) {
        self.database = database
        self.userConfiguration = userConfiguration
    }

    /// The locations for a database chosen with `--db` (or none), in an environment.
    ///
    /// - The database is `--db`, else `$ARRANGE_DB`, else `$XDG_DATA_HOME/arrange/arrange.sqlite`,
    ///   else `~/.local/share/arrange/arrange.sqlite`.
    /// - The user's configuration is `$XDG_CONFIG_HOME/arrange/config.json`, else
    ///   `~/.config/arrange/config.json`.
    ///
    /// Relative XDG paths are ignored, as the XDG rules say.
    public init(database: String?, environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        func base(_ variable: String, else fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value, isDirectory: true) }
            return home.appendingPathComponent(fallback, isDirectory: true)
        }
        let chosen = [database, environment["ARRANGE_DB"]].compactMap { $0 }.first { !$0.isEmpty }
        self.database = chosen.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) }
            ?? base("XDG_DATA_HOME", else: ".local/share").appendingPathComponent("arrange/arrange.sqlite")
        self.userConfiguration = base("XDG_CONFIG_HOME", else: ".config").appendingPathComponent("arrange/config.json")
    }
}
