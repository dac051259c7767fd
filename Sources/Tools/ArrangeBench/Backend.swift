import ArrangeSQLite
import ArrangeStore
import Foundation
import GRDB

/// Where a timed benchmark keeps its items.
enum Backend: String, CaseIterable, Sendable {
    case inMemory = "in-memory"
    case sqlite

    /// The name in the tables.
    var title: String {
        switch self {
        case .inMemory: "in-memory"
        case .sqlite: "SQLite (file, WAL)"
        }
    }

    /// A new, empty repository; a SQLite one is a new database file in `directory`.
    func makeRepository(in directory: URL, named name: String) throws -> any ItemRepository {
        switch self {
        case .inMemory: InMemoryItemRepository()
        case .sqlite: try SQLiteItemRepository(path: Self.databasePath(in: directory, named: name))
        }
    }

    /// The path of the database file a SQLite repository named `name` keeps in `directory`.
    static func databasePath(in directory: URL, named name: String) -> String {
        directory.appendingPathComponent("\(name).sqlite").path
    }

    /// A pool of the benchmark's own on a new file in `directory`, whose writes wait out a busy
    /// lock for up to 5 s, as an app's would; the sections hand it to `SQLiteItemRepository(writer:)`.
    static func openPool(in directory: URL, named name: String) throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        return try DatabasePool(path: databasePath(in: directory, named: name), configuration: configuration)
    }
}
