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

    @Test("Polling, idle observations read nothing, and look for other processes' commits with one query per interval for all of them, none once they end")
    func idleObservations() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ArrangeAppTests-\(UUID())", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The app counts the statements its connections run, through its own configuration.
        let polls = Mutex(0)
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.trace { event in
                if case .statement(let statement) = event, statement.sql.contains("data_version") { polls.withLock { $0 += 1 } }
            }
        }
        let repository = try SQLiteItemRepository(
            path: folder.appendingPathComponent("App.sqlite").path, configuration: configuration,
            externalCommits: .polling(every: SQLiteItemRepository.externalChangePollingInterval))
        let environment = try IntentEnvironment(repository: repository)
        let groceries = try await CreateList(name: "Groceries").perform(in: environment).list.id
        _ = try await AddItem(title: "Milk", list: groceries).perform(in: environment)

        let reads = Mutex(0)
        var iterators: [AsyncThrowingStream<[String], any Error>.AsyncIterator] = []
        for _ in 0..<3 {
            var iterator = repository.observe { store in
                reads.withLock { $0 += 1 }
                return try store.items(in: groceries, visibility: .all, offset: 0, limit: .max).map(\.title)
            }.makeAsyncIterator()
            #expect(try await iterator.next() == ["Milk"])
            iterators.append(iterator)
        }
        let (readsBefore, pollsBefore) = (reads.withLock { $0 }, polls.withLock { $0 })
        let idle = Duration.seconds(1)
        try await Task.sleep(for: idle)
        let interval = SQLiteItemRepository.externalChangePollingInterval
        #expect(reads.withLock { $0 } == readsBefore, "an idle observation reads nothing")
        let polled = polls.withLock { $0 } - pollsBefore
        #expect(polled >= 1 && polled <= Int(idle / interval) + 1, "one poll an interval for the three: \(polled)")

        iterators.removeAll()
        try await Task.sleep(for: interval * 2)
        let pollsAfter = polls.withLock { $0 }
        try await Task.sleep(for: interval * 3)
        #expect(polls.withLock { $0 } == pollsAfter, "no observation, no poll")
    }

    @Test("By default, idle observations run no statement at all: the repository watches its -wal file, and another process's commit reaches them")
    func fileEventObservations() async throws {
        try await withDatabasePool { pool, path in
            let polls = Mutex(0)
            try await pool.writeWithoutTransaction { db in
                db.trace { event in
                    if case .statement(let statement) = event, statement.sql.contains("data_version") { polls.withLock { $0 += 1 } }
                }
            }
            let repository = try SQLiteItemRepository(writer: pool)
            let environment = try IntentEnvironment(repository: repository)
            let groceries = try await CreateList(name: "Groceries").perform(in: environment).list.id
            _ = try await AddItem(title: "Milk", list: groceries).perform(in: environment)

            let watchers = await Self.watchers(of: groceries, in: repository, first: ["Milk"])
            defer { for watcher in watchers { watcher.cancel() } }
            let pollsBefore = polls.withLock { $0 }
            try await Task.sleep(for: SQLiteItemRepository.externalChangePollingInterval * 4)
            #expect(polls.withLock { $0 } == pollsBefore, "idle, no query: the repository does not poll")

            try AppAdoptionTests.runArrange(["add", "Bread", "--list", "Groceries"], on: path)
            for watcher in watchers {
                #expect(try await withTimeout(.seconds(5)) { try await watcher.valueCancelledWithWaiter } == ["Milk", "Bread"])
            }
            #expect(polls.withLock { $0 } > pollsBefore, "the write to the -wal file was followed by a look at data_version")

            // The watch goes on: each later commit of another process reaches an observation too.
            let titles = repository.observe { try $0.items(in: groceries, visibility: .all, offset: 0, limit: .max).map(\.title) }
            let seen = Task {
                var seen: [[String]] = []
                for try await value in titles {
                    seen.append(value)
                    if value.count == 4 { break }
                }
                return seen
            }
            try await Task.sleep(for: .milliseconds(100))
            for title in ["Tea", "Rice"] {
                try AppAdoptionTests.runArrange(["add", title, "--list", "Groceries"], on: path)
                try await Task.sleep(for: .milliseconds(200))
            }
            #expect(try await withTimeout(.seconds(5)) { try await seen.valueCancelledWithWaiter }?.last == ["Milk", "Bread", "Tea", "Rice"])
        }
    }

    @Test("Told of other processes' commits by the app, idle observations run no statement at all, and a note brings another connection's commit")
    func notifiedObservations() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ArrangeAppTests-\(UUID())", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("App.sqlite").path
        let polls = Mutex(0)
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.trace { event in
                if case .statement(let statement) = event, statement.sql.contains("data_version") { polls.withLock { $0 += 1 } }
            }
        }
        let repository = try SQLiteItemRepository(path: path, configuration: configuration, externalCommits: .notified)
        let environment = try IntentEnvironment(repository: repository)
        let groceries = try await CreateList(name: "Groceries").perform(in: environment).list.id
        _ = try await AddItem(title: "Milk", list: groceries).perform(in: environment)

        let watchers = await Self.watchers(of: groceries, in: repository, first: ["Milk"])
        defer { for watcher in watchers { watcher.cancel() } }
        let pollsBefore = polls.withLock { $0 }
        try await Task.sleep(for: SQLiteItemRepository.externalChangePollingInterval * 4)
        #expect(polls.withLock { $0 } == pollsBefore, "no note, no query")

        // The widget, on a connection of its own, adds an item; the app hears of it and says so.
        let widget = try SQLiteItemRepository(path: path)
        _ = try await AddItem(title: "Bread", list: groceries).perform(in: IntentEnvironment(repository: widget))
        repository.noteExternalCommit()
        for watcher in watchers {
            #expect(try await withTimeout(.seconds(5)) { try await watcher.valueCancelledWithWaiter } == ["Milk", "Bread"])
        }
        #expect(polls.withLock { $0 } > pollsBefore)
    }

    /// Three observations of the titles of `list`, each consumed by a task that returns the
    /// value after the first; returns once each has yielded `first`.
    static func watchers(of list: ItemList.ID, in repository: SQLiteItemRepository, first: [String]) async -> [Task<[String], any Error>] {
        let (started, start) = AsyncStream<[String]>.makeStream()
        let watchers = (0..<3).map { _ in
            Task {
                var isFirst = true
                for try await titles in repository.observe({ try $0.items(in: list, visibility: .all, offset: 0, limit: .max).map(\.title) }) {
                    guard !isFirst else { isFirst = false; start.yield(titles); continue }
                    return titles
                }
                return []
            }
        }
        var firstValues = started.makeAsyncIterator()
        for _ in watchers { #expect(await firstValues.next() == first) }
        return watchers
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
