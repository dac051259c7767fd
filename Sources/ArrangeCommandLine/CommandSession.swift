public import ArrangeIntents
import ArrangeModel
import ArrangeSQLite
import ArrangeStore
public import Foundation

/// Writes text to standard output and errors to standard error, one unbuffered write per
/// call, so that each line reaches a pipe at once.
public struct Console: Sendable {
    private let writeOutput: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void

    /// A console that hands its text to two closures, for tests.
    public init(output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
        self.writeOutput = output
        self.writeError = error
    }

    /// The process's standard output and standard error.
    public static let standard = Console(
        output: { FileHandle.standardOutput.write(Data($0.utf8)) },
        error: { FileHandle.standardError.write(Data($0.utf8)) })

    /// Writes `text` and a line break to standard output.
    public func print(_ text: String) {
        writeOutput(text + "\n")
    }

    /// Writes `error: message` as one line to standard error.
    public func error(_ message: String) {
        writeError("error: " + message.replacingOccurrences(of: "\n", with: " ") + "\n")
    }
}

/// JSON as the tool writes it: one line, keys sorted, dates in ISO 8601.
enum JSONLine {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// An open store with its settings: what every command runs against.
///
/// The REPL and `arrange run` keep one session for their whole run, so undo and redo work
/// across their commands; any other command opens one, runs one intent, and ends.
public final class CommandSession: Sendable {
    public let environment: IntentEnvironment
    public let settings: Settings
    public let locations: Locations
    public let console: Console

    public init(environment: IntentEnvironment, settings: Settings, locations: Locations, console: Console) {
        self.environment = environment
        self.settings = settings
        self.locations = locations
        self.console = console
    }

    /// Reads the settings, opens the database (creating it and its folder on first use), and
    /// makes sure the default list exists.
    ///
    /// - Parameters:
    ///   - database: The `--db` path, if given.
    ///   - overrides: The settings given as flags.
    ///   - processEnvironment: The environment variables to read `ARRANGE_*` and the XDG paths from.
    /// - Throws: ``CommandLineError/configuration(_:)`` or ``CommandLineError/database(_:)``.
    public static func open(
        database: String?, overrides: SettingsOverrides, processEnvironment: [String: String] = ProcessInfo.processInfo.environment,
        console: Console = .standard
    ) async throws(CommandLineError) -> CommandSession {
        let locations = Locations(database: database, environment: processEnvironment)
        let settings = try await Settings.load(overrides: overrides, environment: processEnvironment, userFile: locations.userConfiguration)
        let repository = try Store.open(at: locations.database)
        do {
            let environment = try IntentEnvironment(
                repository: repository, configuration: settings.ordering,
                defaultListName: settings.defaultList, historyLimit: settings.historySize)
            try environment.ensureDefaultList()
            return CommandSession(environment: environment, settings: settings, locations: locations, console: console)
        } catch let error as CommandLineError {
            throw error
        } catch {
            throw .database("Cannot prepare the database at \(locations.database.path): \(IntentFailure(error).message)")
        }
    }

    /// Prints a result as JSON on one line.
    func printJSON(_ result: some Encodable) throws {
        console.print(try JSONLine.encode(result))
    }

    /// The `#N` of each open item of the lists `items` are in, for messages like "Added … as #4".
    func positions(of items: [ItemSummary]) async throws -> [Item.ID: Int] {
        var positions: [Item.ID: Int] = [:]
        for list in Set(items.map(\.list)) {
            for item in try await ListItems(list: ListReference(list.text)).perform(in: environment).items {
                positions[item.id] = item.position
            }
        }
        return positions
    }
}

/// Opens the database file.
enum Store {
    /// Opens the SQLite database at `url`, creating its folder and the file when missing.
    static func open(at url: URL) throws(CommandLineError) -> any ItemRepository {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw .database("Cannot create the folder for the database \(url.path): \(error.localizedDescription)")
        }
        do {
            return try SQLiteItemRepository(path: url.path)
        } catch {
            throw .database(IntentFailure(error).message)
        }
    }
}
