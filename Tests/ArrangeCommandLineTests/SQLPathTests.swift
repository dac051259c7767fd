@testable import ArrangeCommandLine
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import Foundation
import GRDB
import Synchronization
import Testing

@Suite("The SQL of one command")
struct SQLPathTests {
    @Test("move '#3' --top: one write transaction, each row read once, an UPDATE of the changed columns, a count for its place")
    func moveToTop() async throws {
        let log = StatementLog()
        let environment = try IntentEnvironment(repository: try log.repository(), historyLimit: 0)
        let (session, _) = try await makeSession(environment: environment)
        for title in ["A", "B", "C", "D", "E"] {
            _ = try await AddRequest(title: title).perform(in: session)
        }
        _ = log.take()

        let moved = try await MoveRequest(items: ["#3"], placement: .top).perform(in: session).result
        let write = log.take()
        let positions = try await session.positions(of: moved.items)
        let read = log.take()

        #expect(moved.items.map(\.title) == ["C"] && positions.values.first == 1)
        #expect(write.first == "BEGIN IMMEDIATE TRANSACTION" && write.last == "COMMIT TRANSACTION")
        #expect(write.filter { $0.hasPrefix("BEGIN") }.count == 1)
        let updates = write.filter { $0.hasPrefix("UPDATE") }
        #expect(updates.count == 1)
        #expect(updates.allSatisfy { !$0.contains("title") && !$0.contains("list_id") && !$0.contains("created_at") }, "\(updates)")
        #expect(!write.contains { $0.contains("FROM items WHERE id = ") }, "C was read by its place, and is not read again by id")
        #expect(read.filter { $0.contains("FROM items") }.count == 1 && read.contains { $0.contains("count(") || $0.contains("COUNT(") })
    }

    @Test("move PREFIX --top: the item named by 4 characters of its id is read once, by its prefix, and not again by id")
    func moveByPrefix() async throws {
        let log = StatementLog()
        // Ids of distinct first characters, so that 4 of them name one item.
        let counter = Mutex(0)
        let environment = try IntentEnvironment(
            repository: try log.repository(), historyLimit: 0,
            newID: { UUID(uuidString: String(format: "%x%07x-0000-4000-8000-000000000000", counter.withLock { $0 += 1; return $0 }, 0))! })
        let (session, _) = try await makeSession(environment: environment)
        var added: [String] = []
        for title in ["A", "B", "C", "D", "E"] {
            added += try await AddRequest(title: title).perform(in: session).result.items.map(\.id.text)
        }
        _ = log.take()

        let moved = try await MoveRequest(items: [ItemReference(String(added[2].prefix(4)))], placement: .top).perform(in: session).result
        let write = log.take()

        #expect(moved.items.map(\.title) == ["C"])
        let readsOfItems = write.filter { $0.contains("FROM items WHERE id") }
        #expect(readsOfItems.first?.contains("WHERE id >= ? AND id < ?") == true, "read by its prefix first: \(readsOfItems)")
        #expect(readsOfItems.count == 1, "the item's row is read once: \(readsOfItems)")
    }
}

/// The SQL of the statements a database runs, in order, for a test to read.
final class StatementLog: Sendable {
    private let statements = Mutex<[String]>([])

    /// A repository on a database in memory whose every statement the log keeps.
    func repository() throws -> SQLiteItemRepository {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { self.statements.withLock { $0.append(statement.sql) } }
            }
        }
        return try SQLiteItemRepository(writer: try DatabaseQueue(configuration: configuration))
    }

    /// The statements kept since the last call, which the log then forgets.
    func take() -> [String] {
        statements.withLock { statements in
            defer { statements.removeAll() }
            return statements
        }
    }
}
