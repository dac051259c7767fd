// What an app observes, through the public API only: no `@testable` import here.
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import ArrangeStore
import Foundation
import GRDB
import Synchronization
import Testing

@Suite("An app observes the store")
struct ObservationAdoptionTests {
    @Test("The sidebar observes its lists with their counts; a custom observation reads only after changes to what it read")
    func sidebarAndCustomObservation() async throws {
        try await withDatabasePool { pool, _ in
            let repository = try SQLiteItemRepository(writer: pool)
            let environment = try IntentEnvironment(repository: repository)
            let groceries = try await CreateList(name: "Groceries").perform(in: environment).list.id
            let milk = try await AddItem(title: "Milk", list: groceries).perform(in: environment).items[0].id
            _ = try await AddItem(title: "Eggs", list: groceries).perform(in: environment)
            let work = try await CreateList(name: "Work").perform(in: environment).list.id

            var sidebar = repository.observeLists().makeAsyncIterator()
            func counts(_ summaries: [ListSummary]?) -> [String: [Int]] {
                Dictionary(uniqueKeysWithValues: (summaries ?? []).map { ($0.name, [$0.totalItems, $0.openItems]) })
            }
            #expect(counts(try await sidebar.next())["Groceries"] == [2, 2])

            // The app's own read: the open items of Groceries, with how often it ran.
            let reads = Mutex(0)
            var openGroceries = repository.observe { store in
                reads.withLock { $0 += 1 }
                return try store.itemCount(in: groceries, visibility: .open)
            }.makeAsyncIterator()
            #expect(try await openGroceries.next() == 2)

            for title in ["Report", "Slides", "Mail"] {
                _ = try await AddItem(title: title, list: work).perform(in: environment)
                #expect(counts(try await sidebar.next())["Work"]?.first ?? 0 > 0)
            }
            _ = try await MoveItems([milk], to: .bottom).perform(in: environment)
            _ = try await CompleteItems([milk]).perform(in: environment)
            #expect(counts(try await sidebar.next()) == ["Groceries": [2, 1], "Work": [3, 3]])
            #expect(try await openGroceries.next() == 1)
            #expect(reads.withLock { $0 } == 2, "Work's items, and the move within Groceries, changed nothing it read")
        }
    }

    @Test("A read that fails once is tried again, and the observation goes on; one that keeps failing ends it with its error")
    func failedReads() async throws {
        struct Flaky: Error, Equatable {}
        try await withDatabasePool { pool, _ in
            let repository = try SQLiteItemRepository(writer: pool)
            let environment = try IntentEnvironment(repository: repository)
            let groceries = try await CreateList(name: "Groceries").perform(in: environment).list.id
            // The reads fail when told to: the first, and the first after the next commit.
            let failuresLeft = Mutex(1)
            var titles = repository.observe { store in
                if failuresLeft.withLock({ left in defer { left = max(0, left - 1) }; return left > 0 }) { throw Flaky() }
                return try store.items(in: groceries, visibility: .open, offset: 0, limit: .max).map(\.title)
            }.makeAsyncIterator()
            #expect(try await titles.next() == [])
            failuresLeft.withLock { $0 = 1 }
            _ = try await AddItem(title: "Milk", list: groceries).perform(in: environment)
            #expect(try await titles.next() == ["Milk"])

            // Failing at every try: the stream ends with the error, after its retries.
            var broken = repository.observe { _ -> Int in throw Flaky() }.makeAsyncIterator()
            await #expect(throws: Flaky()) { _ = try await broken.next() }
        }
    }
}
