import ArrangeIntents
import ArrangeModel
import ArrangeStore
@testable import ArrangeSync
import Foundation
import Testing

/// Quick Find answers the same items, in the same order, on both backends.
@Suite("Quick Find on both backends")
struct SearchAcrossBackendsTests {
    @Test("Stores that hold the same, made by random intents, answer every query with the same items in the same order", arguments: 0..<3)
    func sameAnswers(seed: UInt64) async throws {
        var random = SeededRandomNumberGenerator(seed: seed)
        let made = try IntentReplica(kind: .inMemory)
        for _ in 0..<200 { try await made.act(&random) }
        let sqlite = SyncEngine(repository: try StoreKind.sqlite.makeRepository())
        try await sqlite.merge(try made.operations())
        let sqliteEnvironment = try IntentEnvironment(repository: sqlite.repository)
        let day = try Day(parsing: "2026-12-01")
        var answered = 0
        for query in ["t", "r", "t1", "r2", "gro", "wor", "home", "err", "t4 gro", "1", "o", "ror"] {
            for includeCompleted in [false, true] {
                let search = Search(query: query, limit: 1_000, includeCompleted: includeCompleted, day: day)
                let inMemory = try await search.perform(in: made.environment)
                let onSQLite = try await search.perform(in: sqliteEnvironment)
                #expect(inMemory.items.map(\.item.id) == onSQLite.items.map(\.item.id), "\(query)")
                #expect(inMemory.items.map(\.matched) == onSQLite.items.map(\.matched))
                #expect(inMemory.total == onSQLite.total && inMemory.lists.map(\.id) == onSQLite.lists.map(\.id))
                answered += inMemory.total
            }
        }
        #expect(answered > 10, "the queries find items")
    }
}
