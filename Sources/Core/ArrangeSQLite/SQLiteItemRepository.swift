import ArrangeModel
public import ArrangeStore
import Foundation
public import GRDB

/// An `ItemRepository` that keeps its lists and items in a SQLite database, through GRDB.
///
/// ```swift
/// let repository = try SQLiteItemRepository(path: "/path/to/Arrange.sqlite")
/// try repository.write { store in try store.insert(ItemList(name: "Inbox", createdAt: .now)) }
/// try repository.read { store in try store.lists().map(\.name) }  // ["Inbox"]
/// ```
///
/// A database file is opened in WAL mode, so reads run beside a write and see the last
/// committed state. Writes begin `IMMEDIATE` transactions: a writer takes the write lock
/// before it reads anything, so two processes that share the file wait for each other
/// (up to the busy timeout) instead of failing with "database is locked" when a reader
/// tries to become a writer. Foreign keys are enforced, so a list's items go with it.
///
/// The schema is created and upgraded by named, append-only migrations when the
/// repository opens the database; the article <doc:DatabaseSchema> describes it.
///
/// Three ways to open one:
/// - ``init(path:busyTimeout:)`` opens (or creates) a file and owns its connections, and
///   ``init(path:configuration:externalCommits:)`` does so with the app's configuration of every connection;
/// - ``init(writer:externalCommits:)`` uses a `DatabasePool` or `DatabaseQueue` that an app opened and configured;
/// - ``readOnly(path:configuration:externalCommits:)`` reads a file that another process writes, a widget's view of the app's lists.
///
/// Every failure is reported as a `StoreError`; no type of GRDB or SQLite reaches the
/// caller. Don't call the repository from inside a `read` or `write` body: the body
/// already holds a connection.
public final class SQLiteItemRepository: ItemRepository {
    /// The connection or pool of connections.
    let writer: any DatabaseWriter
    /// The path of the database file, or `:memory:`.
    public let path: String
    /// Whether the repository was opened with ``readOnly(path:configuration:externalCommits:)``: then every write throws.
    public let isReadOnly: Bool
    /// Wakes the observations after each commit of this repository.
    let commits = CommitNotifier()
    /// The replica's state, from one write transaction to the next.
    private let replicaStates = CommitCarry<ReplicaStateCarry.Leftover>()
    /// The lists' shares, from one write transaction to the next: every intent of a store that
    /// syncs reads them.
    private let shares = CommitCarry<[ListShare]>()
    /// Whether the database is a file, which other connections and processes may change too.
    let isFile: Bool
    /// Sees the commits of other connections and processes to the file, for the observations;
    /// `nil` for a database in memory.
    let otherConnections: CommitWatcher?

    /// The busy timeout when none is given: how long a write waits for another connection's lock.
    public static let defaultBusyTimeout: Duration = .seconds(5)

    /// Opens the database file at `path`, creating the file when it does not exist yet, and
    /// brings its schema up to date.
    ///
    /// The folder that holds the file must exist: the repository does not create folders.
    /// A file that is not a SQLite database, or is shorter than its header says (a truncated
    /// copy), is refused before anything is written to it. Damage deeper in a file is
    /// reported by the first query that meets it.
    ///
    /// - Parameters:
    ///   - path: The path of the database file. SQLite keeps two more files beside it while
    ///     the database is open, ending in `-wal` and `-shm`.
    ///   - busyTimeout: How long a write waits while another connection, perhaps of another
    ///     process, holds the write lock, before it fails with `StoreError/database(reason:)`.
    /// - Throws: `StoreError/unusableDatabase(path:reason:)` when the folder does not
    ///   exist, or the file cannot be opened, is not a SQLite database, is damaged, or was
    ///   written by a newer version of Arrange; `StoreError/database(reason:)` when the
    ///   file is read-only (opening a database in WAL mode may write to it) or stays locked.
    public convenience init(path: String, busyTimeout: Duration = defaultBusyTimeout) throws {
        try self.init(path: path, configuration: Self.configuration(busyTimeout: busyTimeout))
    }

    /// GRDB's default configuration, with writes that wait `busyTimeout` for another connection's lock.
    private static func configuration(busyTimeout: Duration) -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(busyTimeout.seconds)
        return configuration
    }

    /// Opens the database at `path` with the app's configuration of every connection,
    /// creating and migrating it when needed.
    ///
    /// ```swift
    /// var configuration = Configuration()
    /// configuration.busyMode = .timeout(5)
    /// configuration.observesSuspensionNotifications = true  // a file in an App Group container
    /// let repository = try SQLiteItemRepository(path: sharedPath, configuration: configuration)
    /// ```
    ///
    /// The repository keeps the app's settings, and turns on what it needs: WAL mode and foreign
    /// keys. It behaves as ``init(path:busyTimeout:)`` does otherwise.
    ///
    /// - Parameters:
    ///   - path: The path of the database file.
    ///   - configuration: What every connection the repository opens is set up with.
    ///   - externalCommits: How the observations learn of other processes' commits to the file.
    /// - Throws: As ``init(path:busyTimeout:)``.
    public convenience init(path: String, configuration: Configuration, externalCommits: ExternalCommitDetection = .default) throws {
        try Self.ensureFolderExists(for: path)
        try Self.ensureFileIsWritable(at: path)
        var configuration = Self.arranged(configuration)
        configuration.journalMode = .wal
        let pool = try StoreError.mapping(path: path) {
            try DatabasePool(path: path, configuration: configuration)
        }
        try self.init(writer: pool, path: path, externalCommits: externalCommits)
    }

    /// Opens the database at `path` on one connection, which reads and writes (GRDB's
    /// `DatabaseQueue`), creating and migrating it when needed.
    ///
    /// ```swift
    /// let repository = try SQLiteItemRepository.singleConnection(path: path)
    /// ```
    ///
    /// It opens in less time than ``init(path:busyTimeout:)``: one connection reads the schema,
    /// not a writer and then a reader, and a file already in WAL mode and up to date is not
    /// written to. That suits a process that does one thing and ends, such as a command-line
    /// tool's command. Reads wait for writes, and writes for reads, so an app whose views read
    /// while it writes keeps the pool.
    ///
    /// - Parameters:
    ///   - path: The path of the database file.
    ///   - busyTimeout: How long a write waits while another connection holds the write lock.
    /// - Throws: As ``init(path:busyTimeout:)``.
    public static func singleConnection(path: String, busyTimeout: Duration = defaultBusyTimeout) throws -> SQLiteItemRepository {
        try singleConnection(path: path, configuration: configuration(busyTimeout: busyTimeout))
    }

    /// Opens the database at `path` on one connection set up with the app's configuration;
    /// it behaves as ``singleConnection(path:busyTimeout:)`` does otherwise.
    ///
    /// - Parameters:
    ///   - path: The path of the database file.
    ///   - configuration: What the connection is set up with; the repository turns on WAL
    ///     mode and foreign keys.
    /// - Throws: As ``init(path:busyTimeout:)``.
    public static func singleConnection(path: String, configuration: Configuration) throws -> SQLiteItemRepository {
        try ensureFolderExists(for: path)
        try ensureFileIsWritable(at: path)
        var configuration = arranged(configuration)
        // WAL mode, as the pool has it, set here rather than by GRDB, which writes to a file whose
        // `-wal` file is empty for the sake of a pool's readers: this connection has none.
        configuration.journalMode = .default
        configuration.prepareDatabase { db in
            guard try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") == "wal" else {
                throw StoreError.database(reason: "SQLite could not put \(path) in WAL mode.")
            }
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let queue = try StoreError.mapping(path: path) { try DatabaseQueue(path: path, configuration: configuration) }
        return try SQLiteItemRepository(writer: queue, path: path)
    }

    /// Creates an empty database in memory, gone when the repository is.
    ///
    /// Each call creates a database of its own. It behaves as a file database does,
    /// schema and constraints included.
    ///
    /// - Throws: `StoreError` when SQLite cannot create the database.
    public static func inMemory() throws -> SQLiteItemRepository {
        let path = ":memory:"
        let queue = try StoreError.mapping(path: path) { try DatabaseQueue(configuration: configuration) }
        return try SQLiteItemRepository(writer: queue, path: path)
    }

    /// Uses a database connection that the app opened, configured and owns, and brings the
    /// database's schema up to date.
    ///
    /// ```swift
    /// var configuration = Configuration()
    /// configuration.busyMode = .timeout(5)
    /// let pool = try DatabasePool(path: path, configuration: configuration)
    /// let repository = try SQLiteItemRepository(writer: pool)
    /// ```
    ///
    /// The repository adds its tables beside any of the app's own, and runs each write in an
    /// `IMMEDIATE` transaction of its own. The app migrates its tables with a `DatabaseMigrator`
    /// of its own, before or after the repository opens the file: GRDB records both migrators'
    /// migrations in one table, and the repository tells its own by their form, `"v12: …"`.
    /// Name the app's migrations otherwise, and ask the app's migrator about its own
    /// (`hasCompletedMigrations`), not about what it does not know (`hasBeenSuperseded`):
    ///
    /// ```swift
    /// var migrator = DatabaseMigrator()
    /// migrator.registerMigration("app v1: tags") { db in
    ///     try db.create(table: "tags") { table in
    ///         table.primaryKey("name", .text)
    ///     }
    /// }
    /// try migrator.migrate(pool)
    /// let repository = try SQLiteItemRepository(writer: pool)
    /// ```
    ///
    /// The configuration of `writer` is the app's to choose, within what the repository relies on:
    /// - Foreign keys must be enforced (`Configuration.foreignKeysEnabled`, GRDB's default):
    ///   deleting a list deletes its items and clears the default list through them. A writer
    ///   without them is refused.
    /// - A `DatabasePool` (WAL mode) lets reads run beside a write; a `DatabaseQueue` serializes them.
    /// - When other processes share the file (a widget, an extension), give the writer a busy
    ///   timeout (`Configuration.busyMode`), or their writes fail at once on each other's lock.
    /// - Don't call the repository from inside an access of the app's own to `writer`.
    /// - The repository registers the SQL function `arrange_search_text` on the writer's
    ///   connection: the triggers of Quick Find's index call it when a row of `items` or
    ///   `checklist_items` changes. Write those tables through the repository, or register the
    ///   function on any other connection that writes them.
    ///
    /// - Parameters:
    ///   - writer: The connection or pool; its `path` becomes the repository's ``path``.
    ///   - externalCommits: How the observations learn of other processes' commits to the file.
    /// - Throws: `StoreError/unusableDatabase(path:reason:)` when foreign keys are off, or the
    ///   database is damaged or was written by a newer version of Arrange;
    ///   `StoreError/database(reason:)` when the migration cannot write.
    public convenience init(writer: some DatabaseWriter, externalCommits: ExternalCommitDetection = .default) throws {
        let path = writer.path
        guard writer.configuration.foreignKeysEnabled else {
            throw StoreError.unusableDatabase(
                path: path, reason: "its connection does not enforce foreign keys; keep Configuration.foreignKeysEnabled on, as GRDB does by default.")
        }
        try self.init(writer: writer, path: path, access: .readWrite, externalCommits: externalCommits)
    }

    /// Opens, for reading only, a database file that another process writes: what a widget
    /// or an extension needs to show the app's lists.
    ///
    /// ```swift
    /// let repository = try SQLiteItemRepository.readOnly(path: sharedPath)
    /// let lists = try await repository.read { try $0.lists() }
    /// ```
    ///
    /// Nothing is ever written to the file: the schema is not migrated, and every `write`,
    /// synchronous or `async`, throws `StoreError/readOnly(path:)` before it reaches the
    /// database. Each read sees the last change the other process committed (the file is in
    /// WAL mode), and the observations (``observeItems(in:visibility:)``) see its changes too.
    ///
    /// - Parameters:
    ///   - path: The path of a database file that a writing ``SQLiteItemRepository``
    ///     has opened at least once, so its schema is complete.
    ///   - configuration: What every connection the repository opens is set up with: a widget
    ///     sets `observesSuspensionNotifications` for a file in an App Group container. The
    ///     repository makes it read-only and turns foreign keys on.
    ///   - externalCommits: How the observations learn of the writing process's commits.
    /// - Returns: A repository whose ``isReadOnly`` is `true`.
    /// - Throws: `StoreError/unusableDatabase(path:reason:)` when the file does not exist,
    ///   cannot be opened, is not a SQLite database, or its schema is older or newer than
    ///   this version of Arrange reads.
    public static func readOnly(
        path: String, configuration: Configuration = Configuration(), externalCommits: ExternalCommitDetection = .default
    ) throws -> SQLiteItemRepository {
        try ensureFolderExists(for: path)
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.unusableDatabase(path: path, reason: "the file does not exist; the app that writes it creates it when it first opens it.")
        }
        var configuration = Self.arranged(configuration)
        configuration.readonly = true
        let pool = try StoreError.mapping(path: path) { try DatabasePool(path: path, configuration: configuration) }
        return try SQLiteItemRepository(writer: pool, path: path, access: .readOnly, externalCommits: externalCommits)
    }

    /// Whether a repository may change the database, and so bring its schema up to date.
    private enum Access {
        case readWrite
        case readOnly
    }

    private init(writer: any DatabaseWriter, path: String, access: Access = .readWrite, externalCommits: ExternalCommitDetection = .default) throws {
        self.writer = writer
        self.path = path
        self.isReadOnly = access == .readOnly
        self.isFile = path != ":memory:" && FileManager.default.fileExists(atPath: path)
        self.otherConnections = isFile
            ? CommitWatcher(
                interval: externalCommits.pollingInterval, events: externalCommits == .fileEvents ? WriteAheadLogEvents(databasePath: path) : nil,
                counter: DataVersionCounter(writer: writer, path: path), notifier: commits)
            : nil
        let migrator = Schema.migrator
        try StoreError.mapping(path: path) {
            let (unknown, isComplete) = try writer.read { db in
                (try Schema.unknownMigrations(db), try migrator.hasCompletedMigrations(db))
            }
            if !unknown.isEmpty {
                throw StoreError.unusableDatabase(
                    path: path, reason: "it was written by a newer version of Arrange; update the app.")
            }
            switch access {
            case .readWrite:
                // The triggers of Quick Find's index call it, on the one connection that writes.
                writer.writeWithoutTransaction { $0.add(function: SearchIndex.function) }
                // A file already up to date is left alone: the migrator would take the write lock to find that out.
                if !isComplete { try migrator.migrate(writer) }
            case .readOnly:
                guard isComplete else {
                    throw StoreError.unusableDatabase(
                        path: path,
                        reason: "its schema is older than this version of Arrange reads, and a read-only repository does not upgrade it; open it once in the app that writes it.")
                }
            }
        }
    }

    /// What every connection shares: foreign keys on.
    private static var configuration: Configuration { arranged(Configuration()) }

    /// The app's configuration with what the repository needs: foreign keys on, and a label
    /// when the app gave none.
    private static func arranged(_ configuration: Configuration) -> Configuration {
        var configuration = configuration
        configuration.foreignKeysEnabled = true
        if configuration.label == nil { configuration.label = "Arrange" }
        return configuration
    }

    /// Throws unless the folder that is to hold `path` exists.
    private static func ensureFolderExists(for path: String) throws(StoreError) {
        guard !path.isEmpty, path != ":memory:" else {
            throw .unusableDatabase(
                path: path, reason: "this is not a file path; use SQLiteItemRepository.inMemory() for a database in memory.")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw .unusableDatabase(path: path, reason: "the folder \(folder) does not exist; create it first.")
        }
    }

    /// Throws when the file exists but its permissions allow nobody to write it.
    ///
    /// SQLite refuses such a file for most users by itself, but not for root, which the
    /// permission bits do not bind; checking them here makes "read-only" mean the same for all.
    ///
    /// It reads the permission bits with `stat`: `FileManager`'s attributes look up the names of
    /// the file's owner and group too, which cost a command that writes one row a tenth of its
    /// instructions.
    private static func ensureFileIsWritable(at path: String) throws(StoreError) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & 0o222 == 0 else { return }
        throw .database(reason: "\(path) is read-only, so nothing can be saved (its permissions allow no writing; chmod u+w to allow it).")
    }

    /// Runs `body` on a snapshot of the file, on a reading connection of the pool (the
    /// writer's own connection for a queue).
    public func read<Result>(_ body: (any ItemReading) throws -> Result) throws -> Result {
        try mappingDatabaseErrors {
            try writer.unsafeRead { db in try readTransaction(on: db, body) }
        }
    }

    /// Runs `body` in one `IMMEDIATE` transaction, which waits up to the busy timeout for
    /// another connection's write lock.
    public func write<Result>(_ body: (any ItemWriting) throws -> Result) throws -> Result {
        try ensureWritable()
        return try mappingDatabaseErrors {
            try writer.writeWithoutTransaction { db in try transaction(on: db, body) }
        }
    }

    /// The `async` twin of ``read(_:)-4ilkm``, through GRDB's async access: it suspends
    /// rather than blocks while it waits for a connection.
    public func read<R: Sendable>(_ body: @Sendable (any ItemReading) throws -> R) async throws -> R {
        do {
            return try await writer.unsafeRead { db in try self.readTransaction(on: db, body) }
        } catch {
            throw storeError(for: error)
        }
    }

    /// The `async` twin of ``write(_:)-8lepx``, through GRDB's async access: it suspends
    /// rather than blocks while it waits for the write lock.
    public func write<R: Sendable>(_ body: @Sendable (any ItemWriting) throws -> R) async throws -> R {
        try ensureWritable()
        do {
            return try await writer.writeWithoutTransaction { db in try self.transaction(on: db, body) }
        } catch {
            throw storeError(for: error)
        }
    }

    /// Throws ``StoreError/readOnly(path:)`` when the repository was opened with ``readOnly(path:configuration:externalCommits:)``.
    private func ensureWritable() throws(StoreError) {
        guard !isReadOnly else { throw .readOnly(path: path) }
    }

    /// Runs `body` in a `DEFERRED` transaction on `db`: it reads one snapshot of the file, from
    /// its first read until it returns. GRDB's `read` does the same, but prepares its `BEGIN`
    /// and `COMMIT` anew each time, and checks its cache of the schema, which these reads do
    /// not use; both forms of `read` run their bodies through this.
    private func readTransaction<Result>(on db: Database, _ body: (any ItemReading) throws -> Result) throws -> Result {
        try db.cachedStatement(sql: "BEGIN DEFERRED TRANSACTION").execute()
        do {
            let result = try body(SQLiteTransaction(db: db, path: path))
            try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            return result
        } catch {
            try db.rollback()
            throw error
        }
    }

    /// Runs `body` in an `IMMEDIATE` transaction on `db`: it commits when `body` returns and
    /// rolls back when it throws. After a commit it wakes the observations. Both forms of
    /// `write` run their bodies through it.
    private func transaction<Result>(on db: Database, _ body: (any ItemWriting) throws -> Result) throws -> Result {
        // GRDB's beginTransaction and commit prepare their statement anew each time, which
        // cost a tenth of a move; the same statements, cached, run as GRDB runs any other.
        try db.cachedStatement(sql: "BEGIN IMMEDIATE TRANSACTION").execute()
        do {
            let rowsChangedBefore = db.totalChangesCount
            let transaction = SQLiteTransaction(db: db, path: path, carried: replicaStates.take(on: db), carriedShares: shares.take(on: db))
            let result = try body(transaction)
            try transaction.ensureChangesAreLogged()
            try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            replicaStates.keep(transaction.leftoverReplicaState, on: db)
            shares.keep(transaction.sharesCache, on: db)
            var changes = transaction.changes
            if db.totalChangesCount != rowsChangedBefore { changes.noteOtherRowsChanged() }
            commits.signal(changes)
            return result
        } catch {
            // SQLite may have rolled back already (after a full disk, say); then this does nothing.
            try db.rollback()
            throw error
        }
    }

    /// Runs SQLite's `PRAGMA integrity_check` over the whole file.
    ///
    /// - Returns: The problems SQLite reports, one line each; empty when the file is sound.
    /// - Complexity: O(size of the file): maintenance, not for every operation.
    public func integrityProblems() throws -> [String] {
        try mappingDatabaseErrors {
            let lines = try writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            return lines == ["ok"] ? [] : lines
        }
    }

    /// Copies every committed change into the database file, then closes the database.
    /// Later reads and writes throw `StoreError/database(reason:)`.
    ///
    /// After `close()` the database file alone holds the data, and the `-wal` file beside it
    /// is empty: the file can be copied or backed up. Releasing the repository closes it
    /// too, but may leave the last changes in the `-wal` file (SQLite reads them back when
    /// the database is opened again), and reports no failure.
    ///
    /// A repository opened with ``readOnly(path:configuration:externalCommits:)`` only closes its connections: copying the
    /// changes is the writer's work. One made with ``init(writer:externalCommits:)`` closes the app's writer
    /// too; an app that goes on using its writer releases the repository instead.
    public func close() throws {
        try mappingDatabaseErrors {
            if !isReadOnly {
                try writer.barrierWriteWithoutTransaction { db in
                    _ = try db.checkpoint(.truncate)
                }
            }
            try writer.close()
        }
    }

    /// Runs `work`, turning errors of SQLite into store errors and passing every other error on
    /// as it is, so that what a body throws reaches the caller unchanged.
    private func mappingDatabaseErrors<Result>(_ work: () throws -> Result) throws -> Result {
        do {
            return try work()
        } catch {
            throw storeError(for: error)
        }
    }

    /// The store error for an error of SQLite; any other error as it is.
    private func storeError(for error: any Error) -> any Error {
        guard let error = error as? DatabaseError else { return error }
        return StoreError(error, path: path)
    }
}

extension Duration {
    /// The duration in seconds, fractions included.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
