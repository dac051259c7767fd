import ArrangeStore
import Foundation
import GRDB

extension SQLiteItemRepository {
    /// The schema of a database file as it is on disk, next to the one this version of
    /// Arrange writes: which of its migrations the file has, which it lacks, and which the file
    /// has that this version does not know.
    ///
    /// ```swift
    /// let schema = try SQLiteItemRepository.schemaStatus(ofFileAt: path)
    /// schema.version              // "v4"
    /// schema.missing              // ["v5: sync peers", "v6: sync compaction"]: opening the file applies them
    /// SchemaStatus.currentVersion // "v6"
    /// ```
    public struct SchemaStatus: Hashable, Sendable {
        /// This version's migrations that the file has, oldest first.
        public var applied: [String]
        /// This version's migrations that the file lacks, oldest first: ``init(path:busyTimeout:)``
        /// applies them when it opens the file.
        public var missing: [String]
        /// The migrations of Arrange's that the file has and this version does not know, sorted:
        /// a newer version of Arrange wrote it, and this one refuses to open it. The app's own
        /// migrations (``SQLiteItemRepository/init(writer:externalCommits:)``) are not among them.
        public var unknown: [String]

        /// Whether a newer version of Arrange wrote the file: it has migrations this one does not know.
        public var isNewer: Bool { !unknown.isEmpty }

        /// The version of the file's schema, as its latest migration that this Arrange knows
        /// names it (`"v4"`); `nil` for a file that has none, such as an empty file.
        public var version: String? { applied.last.map(Self.version(of:)) }

        /// The version of the schema this version of Arrange writes (`"v6"`).
        public static var currentVersion: String { version(of: Schema.migrator.migrations.last ?? "") }

        /// The version a migration's name starts with: `"v4"` for `"v4: sync"`.
        static func version(of migration: String) -> String {
            String(migration.prefix { $0 != ":" })
        }
    }

    /// Reads the schema of the database file at `path`, without changing the file or creating it.
    ///
    /// It reads through a read-only connection, so that a file this version refuses (a newer
    /// one) stays byte for byte as it was; beside a file in WAL mode, SQLite may leave the `-wal`
    /// and `-shm` files it reads through.
    ///
    /// - Parameter path: The path of an existing database file.
    /// - Returns: Which of this version's migrations the file has and lacks, and which it has
    ///   that this version does not know.
    /// - Throws: `StoreError/unusableDatabase(path:reason:)` when the file does not exist,
    ///   cannot be opened, or is not a SQLite database; `StoreError/database(reason:)` when it
    ///   cannot be read.
    public static func schemaStatus(ofFileAt path: String) throws -> SchemaStatus {
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.unusableDatabase(path: path, reason: "the file does not exist.")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "Arrange schema"
        return try StoreError.mapping(path: path) {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            let migrator = Schema.migrator
            return try queue.read { db in
                let applied = try migrator.appliedMigrations(db)
                return SchemaStatus(
                    applied: applied,
                    missing: migrator.migrations.filter { !applied.contains($0) },
                    unknown: try Schema.unknownMigrations(db))
            }
        }
    }
}
