public import ArrangeIntents
public import ArrangeModel
import ArgumentParser
import ArrangeSQLite
import ArrangeStore
import ArrangeSync
public import Foundation

/// Writes text to standard output and errors to standard error, one unbuffered write per
/// call, so that each line reaches a pipe at once.
public struct Console: Sendable {
    private let writeOutput: @Sendable (UnsafeRawBufferPointer) -> Void
    private let writeError: @Sendable (String) -> Void

    /// A console that hands its text to two closures, for tests.
    public init(output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
        self.init(outputUTF8: { output(String(decoding: $0, as: UTF8.self)) }, error: error)
    }

    private init(outputUTF8: @escaping @Sendable (UnsafeRawBufferPointer) -> Void, error: @escaping @Sendable (String) -> Void) {
        self.writeOutput = outputUTF8
        self.writeError = error
    }

    /// The process's standard output and standard error.
    ///
    /// Output that cannot be written (a full disk, say) ends the process with one line on
    /// standard error and `ExitCode.outputUnwritable`: what was asked for did not arrive.
    public static let standard = Console(
        outputUTF8: { utf8 in
            do {
                try FileHandle.standardOutput.write(contentsOf: utf8)
            } catch {
                try? write("error: The output cannot be written: \(error.localizedDescription)\n", to: .standardError)
                exit(ExitCode.outputUnwritable.rawValue)
            }
        },
        error: { try? write($0, to: .standardError) })

    /// Writes the UTF-8 of `text` as it is stored, without copying it into `Data` first.
    ///
    /// - Throws: The file handle's error when the text cannot be written whole.
    private static func write(_ text: String, to handle: FileHandle) throws {
        var text = text
        try text.withUTF8 { utf8 in try handle.write(contentsOf: UnsafeRawBufferPointer(utf8)) }
    }

    /// Writes UTF-8 bytes to standard output as they are: a long output written a part at a
    /// time, without making a `String` of it.
    func write(utf8: UnsafeRawBufferPointer) {
        writeOutput(utf8)
    }

    /// Writes `text` and a line break to standard output.
    public func print(_ text: String) {
        write(text + "\n")
    }

    /// Writes `text` to standard output as it is.
    public func write(_ text: String) {
        var text = text
        text.withUTF8 { writeOutput(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `text` and a line break to standard error: a note beside output that goes to
    /// standard output, such as a summary when standard output carries a file.
    public func note(_ text: String) {
        writeError(text + "\n")
    }

    /// Writes `error: message` as one line to standard error.
    public func error(_ message: String) {
        writeError("error: " + message.replacingOccurrences(of: "\n", with: " ") + "\n")
    }
}

/// JSON as the tool writes it: one line, keys sorted, dates in ISO 8601.
enum JSONLine {
    /// The JSON of `value`, without a line break: for a result inside another line.
    static func encode(_ value: some Encodable) throws -> String {
        try encode(value, lineBreak: false)
    }

    /// The JSON and a line break, made as one string: the line printed whole, with no copy
    /// of a long listing to add its line break.
    static func line(_ value: some Encodable) throws -> String {
        try encode(value, lineBreak: true)
    }

    private static func encode(_ value: some Encodable, lineBreak: Bool) throws -> String {
        // The listing of a list, the one result that runs to thousands of values, by hand.
        if let listing = value as? ItemListing { return ListingJSON.encode(listing, lineBreak: lineBreak) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var json = try encoder.encode(value)
        if lineBreak { json.append(UInt8(ascii: "\n")) }
        return String(decoding: json, as: UTF8.self)
    }
}

/// An open store with its settings: what every command runs against.
///
/// The REPL and `arrange run` keep one session for their whole run, so undo and redo work
/// across their commands, and the REPL's `use LIST` holds; any other command opens one, runs
/// one intent, and ends.
public final class CommandSession: Sendable {
    /// What the session's intents run against.
    public let environment: IntentEnvironment
    /// The settings the session was opened with.
    public let settings: Settings
    /// Where the database, the history and the user's settings are.
    public let locations: Locations
    /// Where output and errors go.
    public let console: Console
    /// The list chosen with ``useList(_:)``, or Today chosen with ``useToday()``.
    private let chosenView: Locked<ChosenView>

    /// What `use` chose: a list, Today, or neither (the default list).
    private enum ChosenView {
        case defaultList
        case list(ItemList.ID)
        case today
    }

    /// A session over an environment already made; ``open(database:overrides:keepsHistory:processEnvironment:console:)`` makes one from the settings.
    public init(environment: IntentEnvironment, settings: Settings, locations: Locations, console: Console) {
        self.chosenView = Locked(.defaultList)
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
    ///   - keepsHistory: Whether the session keeps an undo history (`historySize` steps); a
    ///     command run on its own does not, since nothing could undo it.
    ///   - processEnvironment: The environment variables to read `ARRANGE_*` and the XDG paths from.
    /// - Throws: ``CommandLineError/configuration(_:)`` or ``CommandLineError/database(_:)``.
    public static func open(
        database: String?, overrides: SettingsOverrides, keepsHistory: Bool = true,
        processEnvironment: [String: String] = ProcessInfo.processInfo.environment, console: Console = .standard
    ) async throws(CommandLineError) -> CommandSession {
        let locations = Locations(database: database, environment: processEnvironment)
        let settings = try Settings.load(overrides: overrides, environment: processEnvironment, userFile: locations.userConfiguration)
        let repository = try Store.open(at: locations.database)
        do {
            let environment = try IntentEnvironment(
                repository: repository, configuration: settings.ordering,
                defaultListName: settings.defaultList, historyLimit: keepsHistory ? settings.historySize : 0,
                sync: SyncedStoreChangeLog(SyncEngine(repository: repository)))
            try await environment.prepareDefaultList(named: settings.defaultListIsChosen ? settings.defaultList : nil)
            return CommandSession(environment: environment, settings: settings, locations: locations, console: console)
        } catch let error as CommandLineError {
            throw error
        } catch {
            throw .database("Cannot prepare the database at \(locations.database.path): \(IntentFailure(error).message)")
        }
    }

    /// Ends the process when its command is done: the database closed, and nothing else taken
    /// apart.
    ///
    /// Closing checkpoints the file and removes its `-wal`, as releasing the session would, or
    /// leaves the last changes in the `-wal` when another connection holds it open (SQLite reads
    /// them back). The rest is the process's end's work: freeing what the command made, value
    /// by value, and GRDB's connection taking leave of `NotificationCenter`, whose casts scan
    /// every conformance of the binary (0.8 M instructions, 6 % of `arrange add`).
    func endProcess() -> Never {
        try? (environment.repository as? SQLiteItemRepository)?.close()
        exit(EXIT_SUCCESS)
    }

    /// Prints a result as JSON on one line.
    ///
    /// A listing, which runs to thousands of items, is written a part at a time as it is made.
    func printJSON(_ result: some Encodable) throws {
        if let listing = result as? ItemListing {
            ListingJSON.writeLine(listing, to: console.write(utf8:))
        } else {
            console.write(try JSONLine.line(result))
        }
    }

    // MARK: The current list

    /// The list chosen with ``useList(_:)``: requests that name no list use it, and `#N` counts
    /// its items. `nil`, or a list that no longer exists, means the default list.
    public var currentList: ItemList.ID? {
        chosenView.withLock { view in
            guard case .list(let id) = view else { return nil }
            return id
        }
    }

    /// Whether Today is current (``useToday()``): `#N` counts Today's open items when a request
    /// names no list, `list` shows Today, and requests that need a list use the default list.
    public var isUsingToday: Bool {
        chosenView.withLock { view in
            guard case .today = view else { return false }
            return true
        }
    }

    /// Makes Today current: `#N` counts its open items.
    public func useToday() {
        chosenView.withLock { $0 = .today }
    }

    /// Makes the list `reference` names the current list; `nil` goes back to the default list.
    ///
    /// - Returns: The list now current.
    /// - Throws: ``ReferenceError/unknownList(_:known:)``.
    @discardableResult
    public func useList(_ reference: ListReference?) async throws -> ItemList {
        let list = try await resolveList(reference, currentList: nil)
        chosenView.withLock { $0 = reference == nil ? .defaultList : .list(list.id) }
        return list
    }

    /// The list `reference` names, as it is now in the store; without one, the current list.
    public func resolveList(_ reference: ListReference? = nil) async throws -> ItemList {
        try await resolveList(reference, currentList: currentList)
    }

    private func resolveList(_ reference: ListReference?, currentList: ItemList.ID?) async throws -> ItemList {
        try await environment.repository.read { try ReferenceResolver($0, currentList: currentList).list(reference) }
    }

    /// The id of the store's default list.
    func defaultListID() async throws -> ItemList.ID? {
        try await environment.repository.read { try $0.defaultListID() }
    }

    /// Every list, one per line, in the sidebar's order under the names of their areas, with
    /// the default list marked: how the commands that change the lists show them.
    func listsText(_ lists: [ListSummary]) async throws -> String {
        let areas = lists.contains { $0.area != nil } ? try await environment.repository.read { try $0.areas() } : []
        return TextFormat.lists(lists, defaultList: try await defaultListID(), areas: areas)
    }

    /// The `#N` of each open item among `items`, for messages like "now #4 of Groceries":
    /// one count of the items before it, not a read of the whole list.
    ///
    /// - Parameter inToday: Count in Today instead, for the open items that are there.
    func positions(of items: [ItemSummary], inToday: Bool = false) async throws -> [Item.ID: Int] {
        let open = items.filter { $0.status == .open }.compactMap { item -> (ItemSummary, OrderKey)? in
            (inToday ? item.todayIndex : item.sortIndex).map { (item, OrderKey(sortIndex: $0, id: item.id.entryID)) }
        }
        return try await environment.repository.read { transaction in
            var positions: [Item.ID: Int] = [:]
            for (item, key) in open {
                positions[item.id] = try inToday
                    ? transaction.entryCount(in: .today, visibility: .open, before: key) + 1
                    : transaction.itemCount(in: item.list, section: item.heading.map(OrderScope.heading) ?? .items(item.list), visibility: .open, before: key) + 1
            }
            return positions
        }
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
            // One connection: a command reads and writes in turn, and opens faster without a pool.
            return try SQLiteItemRepository.singleConnection(path: url.path)
        } catch {
            throw .database(IntentFailure(error).message)
        }
    }
}
