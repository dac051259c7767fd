import ArrangeSQLite
import ArrangeStore
import Foundation

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
}
