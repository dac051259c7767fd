@testable import ArrangeCommandLine
import ArrangeIntents
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
        let log = Mutex<[String]>([])
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { log.withLock { $0.append(statement.sql) } }
            }
        }
        let repository = try SQLiteItemRepository(writer: try DatabaseQueue(configuration: configuration))
        let environment = try IntentEnvironment(repository: repository, historyLimit: 0)
        let (session, _) = try await makeSession(environment: environment)
        for title in ["A", "B", "C", "D", "E"] {
            _ = try await AddRequest(title: title).perform(in: session)
        }
        log.withLock { $0.removeAll() }

        let moved = try await MoveRequest(items: ["#3"], placement: .top).perform(in: session).result
        let write = log.withLock { statements in defer { statements.removeAll() }; return statements }
        let positions = try await session.positions(of: moved.items)
        let read = log.withLock { $0 }

        #expect(moved.items.map(\.title) == ["C"] && positions.values.first == 1)
        #expect(write.first == "BEGIN IMMEDIATE TRANSACTION" && write.last == "COMMIT TRANSACTION")
        #expect(write.filter { $0.hasPrefix("BEGIN") }.count == 1)
        let updates = write.filter { $0.hasPrefix("UPDATE") }
        #expect(updates.count == 1)
        #expect(updates.allSatisfy { !$0.contains("title") && !$0.contains("list_id") && !$0.contains("created_at") }, "\(updates)")
        #expect(!write.contains { $0.contains("FROM items WHERE id = ") }, "C was read by its place, and is not read again by id")
        #expect(read.filter { $0.contains("FROM items") }.count == 1 && read.contains { $0.contains("count(") || $0.contains("COUNT(") })
    }
}
