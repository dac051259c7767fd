import ArrangeModel
import ArrangeStore
import Foundation
import Synchronization
import Testing

/// Live observation, checked on each backend: `observeItems(in:visibility:)`, `observeLists()`,
/// `observeToday(visibility:)` and `observe(_:)`.
@Suite("ItemRepository observation")
struct ObservationTests {
    @Test("An observation yields the items at once, then again after each change, sync or async", arguments: Backend.allCases)
    func itemsAfterChanges(backend: Backend) async throws {
        try await OffPool.run {
            let store = try backend.makeStore()
            let repository = store.repository
            let (list, items) = try store.seed("Home", sortIndices: [30, 10, 20], completedAt: [2])
            let ordered = items.sorted { $0.orderKey < $1.orderKey }
            let all = Recorder.start(repository.observeItems(in: list.id, visibility: .all))
            let open = Recorder.start(repository.observeItems(in: list.id, visibility: .open))
            defer { all.cancel(); open.cancel() }
            #expect(await all.next() == ordered)
            #expect(await open.next() == ordered.filter { !$0.isCompleted })

            let added = Sample.item(in: list.id, "Added", sortIndex: 15)
            try await repository.write { try $0.insert(added) }
            #expect(await all.next() == [ordered[0], added, ordered[1], ordered[2]])
            #expect(await open.next() == [ordered[0], added, ordered[2]])

            // A synchronous write wakes the observations too; completing an item changes both views.
            var done = added
            done.completedAt = Sample.date(10)
            try Sync.write(repository) { try $0.update(done) }
            #expect(await all.next() == [ordered[0], done, ordered[1], ordered[2]])
            #expect(await open.next() == [ordered[0], ordered[2]])

            try await repository.write { try $0.deleteList(id: list.id) }
            #expect(await all.next() == [])
            #expect(await open.next() == [])
        }
    }

    @Test("An observation of a list with headings follows its items under no heading, under each heading, and the headings' own changes", arguments: Backend.allCases)
    func itemsWithHeadings(backend: Backend) async throws {
        try await OffPool.run {
            let store = try backend.makeStore()
            let repository = store.repository
            let (list, items) = try store.seed("Trip", sortIndices: [10, 20, 30])
            let packing = Heading(listID: list.id, title: "Packing", createdAt: Sample.date(1), sortIndex: 0)
            let observed = Recorder.start(repository.observeItems(in: list.id, visibility: .all))
            defer { observed.cancel() }
            #expect(await observed.next() == items)
            let read = { try await repository.read { try $0.items(in: list.id, visibility: .all, offset: 0, limit: .max) } }

            try await repository.write { try $0.insert(packing) }
            try await repository.write { try $0.setSortIndices([SortIndexChange(id: items[0].id.entryID, sortIndex: 5)], in: .heading(packing.id), updatedAt: Sample.date(2)) }
            let under = try await read()
            #expect(under.map(\.title) == [items[1].title, items[2].title, items[0].title], "the item under the heading comes after those under none")
            #expect(await observed.values(within: .seconds(10)) { $0.last == under }.last == under)

            // A change to an item under no heading is applied to the held items; one under the heading is read again.
            try await repository.write { try $0.setSortIndices([SortIndexChange(id: items[2].id.entryID, sortIndex: 1)], in: .items(list.id), updatedAt: Sample.date(3)) }
            let moved = try await read()
            #expect(await observed.values(within: .seconds(10)) { $0.last == moved }.last == moved)
            try await repository.write { try $0.deleteHeading(id: packing.id) }
            let gone = try await read()
            #expect(gone.count == 2)
            #expect(await observed.values(within: .seconds(10)) { $0.last == gone }.last == gone)
        }
    }

    @Test("A change to another list, a write that rolls back, or a write that changes nothing yields nothing", arguments: Backend.allCases)
    func unrelatedChanges(backend: Backend) async throws {
        try await OffPool.run {
            let store = try backend.makeStore()
            let repository = store.repository
            let (home, homeItems) = try store.seed("Home", sortIndices: [1, 2])
            let (work, _) = try store.seed("Work", sortIndices: [1])
            let recorder = Recorder.start(repository.observeItems(in: home.id, visibility: .all))
            defer { recorder.cancel() }
            #expect(await recorder.next() == homeItems)

            try await repository.write { try $0.insert(Sample.item(in: work.id, "Elsewhere", sortIndex: 2)) }
            await #expect(throws: Abort()) {
                try await repository.write { store in
                    try store.insert(Sample.item(in: home.id, "Rolled back", sortIndex: 3))
                    throw Abort()
                }
            }
            try await repository.write { try $0.update(homeItems[0]) }
            try await repository.write { _ in }
            // The next value must be this change's: nothing came in between.
            let added = Sample.item(in: home.id, "Added", sortIndex: 3)
            try await repository.write { try $0.insert(added) }
            #expect(await recorder.next() == homeItems + [added])
            try await Task.sleep(for: .milliseconds(300))
            #expect(recorder.values == [homeItems, homeItems + [added]])
        }
    }

    @Test("A burst of 1,000 writes from another task ends in the right final value", arguments: Backend.allCases)
    func burst(backend: Backend) async throws {
        try await OffPool.run {
            let store = try backend.makeStore()
            let repository = store.repository
            let (list, _) = try store.seed("Burst", sortIndices: [])
            let recorder = Recorder.start(repository.observeItems(in: list.id, visibility: .all))
            defer { recorder.cancel() }
            #expect(await recorder.next() == [])

            let items = (0..<1_000).map { Sample.item(in: list.id, "\($0)", sortIndex: Int64($0)) }
            let writer = Task {
                for (index, item) in items.enumerated() {
                    // Every other write is synchronous, from this thread.
                    if index.isMultiple(of: 2) {
                        try await repository.write { try $0.insert(item) }
                    } else {
                        try Sync.write(repository) { try $0.insert(item) }
                    }
                }
            }
            try await writer.value
            let values = await recorder.values(until: { $0.last == items })
            #expect(values.last == items)
            // Each value is a state some commit left: a prefix of the items, each longer than the last.
            #expect(values.allSatisfy { items.starts(with: $0) })
            #expect(zip(values, values.dropFirst()).allSatisfy { $0.count < $1.count })
        }
    }

    @Test("Observing the lists yields them with their counts, then after each change to a list or a count only", arguments: Backend.allCases)
    func lists(backend: Backend) async throws {
        try await OffPool.run {
            let store = try backend.makeStore()
            let repository = store.repository
            let (home, items) = try store.seed("Home", sortIndices: [1, 2])
            let recorder = Recorder.start(repository.observeLists())
            defer { recorder.cancel() }
            #expect(await recorder.next() == [ListSummary(home, openItems: 2, totalItems: 2)])

            // A move within the list, and an edit of a title, change no list and no count.
            let stamp = Sample.date(9)
            try await repository.write { try $0.setSortIndices([SortIndexChange(id: items[0].id.entryID, sortIndex: 3)], in: .items(home.id), updatedAt: stamp) }
            var retitled = items[1]
            retitled.title = "Retitled"
            try await repository.write { [retitled] in try $0.update(retitled) }
            // An item completed, one added: the counts.
            var completed = retitled
            completed.completedAt = stamp
            try await repository.write { [completed] in try $0.update(completed) }
            #expect(await recorder.next() == [ListSummary(home, openItems: 1, totalItems: 2)])
            try await repository.write { try $0.insert(Sample.item(in: home.id, "Item", sortIndex: 4)) }
            #expect(await recorder.next() == [ListSummary(home, openItems: 2, totalItems: 3)])

            let work = Sample.list("Work", at: 5)
            try await repository.write { try $0.insert(work) }
            #expect(await recorder.next() == [ListSummary(home, openItems: 2, totalItems: 3), ListSummary(work, openItems: 0, totalItems: 0)])
            // An item moved to another list.
            try await repository.write { try $0.setSortIndices([SortIndexChange(id: items[0].id.entryID, sortIndex: 1)], in: .items(work.id), updatedAt: stamp) }
            #expect(await recorder.next() == [ListSummary(home, openItems: 1, totalItems: 2), ListSummary(work, openItems: 1, totalItems: 1)])

            let renamed = ItemList(id: home.id, name: "House", createdAt: home.createdAt)
            try await repository.write { try $0.update(renamed) }
            #expect(await recorder.next() == [ListSummary(renamed, openItems: 1, totalItems: 2), ListSummary(work, openItems: 1, totalItems: 1)])
            try await repository.write { try $0.deleteList(id: work.id) }
            #expect(await recorder.next() == [ListSummary(renamed, openItems: 1, totalItems: 2)])
            // The list shared, and no longer.
            let share = ListShare(list: home.id, role: .view, owner: "bob", isOwned: false)
            try await repository.write { try $0.apply(.setListShare(share, of: home.id)) }
            #expect(await recorder.next() == [ListSummary(renamed, openItems: 1, totalItems: 2, share: share)])
            try await repository.write { try $0.apply(.setListShare(nil, of: home.id)) }
            #expect(await recorder.next() == [ListSummary(renamed, openItems: 1, totalItems: 2)])
            #expect(recorder.values.count == 9)
            #expect(await recorder.next(within: .milliseconds(300)) == nil, "the move and the new title yielded nothing")
        }
    }

    @Test("Observing any value, the sidebar's counts, yields it at once, then after each change that alters it only", arguments: Backend.allCases)
    func anyValue(backend: Backend) async throws {
        try await OffPool.run {
            let store = try backend.makeStore()
            let repository = store.repository
            let (home, _) = try store.seed("Home", sortIndices: [1, 2], completedAt: [1])
            let (work, _) = try store.seed("Work", sortIndices: [1])
            // For each list, by name, how many items are open.
            let recorder = Recorder.start(repository.observe { transaction in
                try Dictionary(uniqueKeysWithValues: transaction.lists().map { ($0.name, try transaction.items(in: $0.id, visibility: .open, offset: 0, limit: .max).count) })
            })
            defer { recorder.cancel() }
            #expect(await recorder.next() == ["Home": 1, "Work": 1])

            // A rename of nothing counted, and a write that rolls back, change no count.
            try await repository.write { try $0.update(ItemList(id: work.id, name: "Work", createdAt: work.createdAt, sortIndex: work.sortIndex)) }
            await #expect(throws: Abort()) {
                try await repository.write { store in
                    try store.insert(Sample.item(in: home.id, "Rolled back", sortIndex: 3))
                    throw Abort()
                }
            }
            try await repository.write { try $0.insert(Sample.item(in: work.id, "Added", sortIndex: 2)) }
            #expect(await recorder.next() == ["Home": 1, "Work": 2])
            try await repository.write { try $0.deleteList(id: home.id) }
            #expect(await recorder.next() == ["Work": 2])
            #expect(recorder.values.count == 3)
        }
    }

    @Test("An observation reads again only after a commit that changes what it read: a list's items, Today, the lists", arguments: Backend.allCases)
    func readsAgainOnlyForItsRegions(backend: Backend) async throws {
        try await OffPool.run {
            let store = try backend.makeStore()
            let repository = store.repository
            let (observed, items) = try store.seed("Observed", sortIndices: [1, 2])
            let (other, others) = try store.seed("Other", sortIndices: [1, 2])
            let reads = Mutex(0)
            let recorder = Recorder.start(repository.observe { reader in
                reads.withLock { $0 += 1 }
                return try reader.items(in: observed.id, visibility: .all, offset: 0, limit: .max).map(\.title)
            })
            defer { recorder.cancel() }
            #expect(await recorder.next() == ["Observed 0", "Observed 1"])

            // Twenty commits to the other list, moves and edits; then one to the observed list.
            let stamp = Sample.date(9)
            for round in 0..<10 {
                try await repository.write { try $0.setSortIndices([SortIndexChange(id: others[0].id.entryID, sortIndex: Int64(10 + round))], in: .items(other.id), updatedAt: stamp) }
                var edited = others[1]
                edited.title = "Edited \(round)"
                try await repository.write { [edited] in try $0.update(edited) }
            }
            try await repository.write { try $0.insert(Sample.list("Elsewhere", at: 7)) }
            try await repository.write { try $0.setSortIndices([SortIndexChange(id: others[0].id.entryID, sortIndex: 1)], in: .today, updatedAt: stamp) }
            var retitled = items[1]
            retitled.title = "Retitled"
            try await repository.write { [retitled] in try $0.update(retitled) }
            #expect(await recorder.next() == ["Observed 0", "Retitled"])
            #expect(reads.withLock { $0 } == 2, "one read at the start, one after the commit to the observed list")

            // An item moved in from the other list changes the observed list.
            try await repository.write { try $0.setSortIndices([SortIndexChange(id: others[1].id.entryID, sortIndex: 3)], in: .items(observed.id), updatedAt: stamp) }
            #expect(await recorder.next() == ["Observed 0", "Retitled", "Edited 9"])
            #expect(reads.withLock { $0 } == 3)
        }
    }

    @Test("Today's observation reads again after a change to an item it shows, wherever the change is made", arguments: Backend.allCases)
    func todayFollowsItsItems(backend: Backend) async throws {
        try await OffPool.run {
            let store = try backend.makeStore()
            let repository = store.repository
            let (list, items) = try store.seed("Home", sortIndices: [1, 2])
            let (_, others) = try store.seed("Other", sortIndices: [1])
            let stamp = Sample.date(9)
            try await repository.write { try $0.setSortIndices([SortIndexChange(id: items[0].id.entryID, sortIndex: 1)], in: .today, updatedAt: stamp) }
            let reads = Mutex(0)
            let recorder = Recorder.start(repository.observe { reader in
                reads.withLock { $0 += 1 }
                return try reader.todayItems(visibility: .open, offset: 0, limit: .max)
            })
            defer { recorder.cancel() }
            #expect(await recorder.next()?.map(\.id) == [items[0].id])

            // A change to an item of another list, outside Today: no read.
            var edited = others[0]
            edited.title = "Edited"
            try await repository.write { [edited] in try $0.update(edited) }
            // The item in Today moved in its list: Today shows its new key.
            try await repository.write { try $0.setSortIndices([SortIndexChange(id: items[0].id.entryID, sortIndex: 5)], in: .items(list.id), updatedAt: stamp) }
            #expect(await recorder.next()?.map(\.sortIndex) == [5])
            #expect(reads.withLock { $0 } == 2)
            // Completed: it leaves the open items of Today.
            var completed = try await repository.read { try $0.item(id: items[0].id) }
            completed?.completedAt = stamp
            try await repository.write { [completed] in try $0.update(try #require(completed)) }
            #expect(await recorder.next()?.isEmpty == true)
        }
    }

    @Test("Observing Today yields its items in Today's order, then after each change to Today only", arguments: Backend.allCases)
    func today(backend: Backend) async throws {
        try await OffPool.run {
            let store = try backend.makeStore()
            let repository = store.repository
            let (_, items) = try store.seed("Home", sortIndices: [1, 2, 3])
            let recorder = Recorder.start(repository.observeToday(visibility: .open))
            defer { recorder.cancel() }
            #expect(await recorder.next()?.isEmpty == true)

            let stamp = Sample.date(9)
            try await repository.write { try $0.setSortIndices([SortIndexChange(id: items[2].id.entryID, sortIndex: 5)], in: .today, updatedAt: stamp) }
            #expect(await recorder.next()?.map(\.id) == [items[2].id])
            // A change to an item outside Today is no change to Today.
            try await repository.write { try $0.setSortIndices([SortIndexChange(id: items[1].id.entryID, sortIndex: 7)], in: .items(items[1].listID), updatedAt: stamp) }
            // Another item joins Today, before the first; then one leaves.
            try await repository.write { try $0.setSortIndices([SortIndexChange(id: items[0].id.entryID, sortIndex: 0)], in: .today, updatedAt: stamp) }
            #expect(await recorder.next()?.map(\.id) == [items[0].id, items[2].id])
            try await repository.write { try $0.removeFromToday([items[0].id], updatedAt: stamp) }
            #expect(await recorder.next()?.map(\.id) == [items[2].id])
            #expect(recorder.values.count == 4)
        }
    }

    @Test("Cancelling the consuming task ends the observation", arguments: Backend.allCases)
    func cancellation(backend: Backend) async throws {
        try await OffPool.run {
            let store = try backend.makeStore()
            let repository = store.repository
            let (list, items) = try store.seed("Home", sortIndices: [1])
            let recorder = Recorder.start(repository.observeItems(in: list.id, visibility: .all))
            #expect(await recorder.next() == items)
            recorder.cancel()
            #expect(await recorder.ended() != nil)
            try await repository.write { try $0.insert(Sample.item(in: list.id, "After", sortIndex: 2)) }
            try await Task.sleep(for: .milliseconds(200))
            #expect(recorder.values == [items])
        }
    }
}

/// Runs a test's tasks on threads of their own, off the cooperative pool.
///
/// Swift Testing runs synchronous tests on the cooperative pool, and on a machine with two
/// cores two long ones (the lists of 100,000 items) can hold every thread of it for
/// seconds. An observation started inside ``run(_:)``, and the recorder that consumes it,
/// inherit the executor preference, so what they measure is the repository's delay, not
/// the time they waited for a thread.
enum OffPool {
    /// A task executor on a concurrent dispatch queue.
    final class QueueExecutor: TaskExecutor {
        private let queue = DispatchQueue(label: "ArrangeStoreTests.OffPool", attributes: .concurrent)

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    static let executor = QueueExecutor()

    /// Runs `body`, and the tasks it starts, with ``executor`` as their preferred executor.
    static func run<T>(_ body: () async throws -> T) async throws -> T {
        try await withTaskExecutorPreference(executor) { try await body() }
    }
}

/// What a stream yields, collected by a task of its own, so that a test can wait for values
/// with a deadline instead of hanging on a value that never comes.
final class Recorder<Value: Sendable & Equatable>: Sendable {
    private struct State {
        var values: [Value] = []
        /// How many values ``next(within:)`` has handed out.
        var taken = 0
        /// "finished", or the error the stream finished with; `nil` while it runs.
        var end: String?
    }

    private let state = Mutex(State())
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// Starts consuming `stream`.
    static func start(_ stream: AsyncThrowingStream<Value, any Error>) -> Recorder {
        let recorder = Recorder()
        let task = Task {
            do {
                for try await value in stream { recorder.state.withLock { $0.values.append(value) } }
                recorder.state.withLock { $0.end = "finished" }
            } catch {
                recorder.state.withLock { $0.end = "\(error)" }
            }
        }
        recorder.task.withLock { $0 = task }
        return recorder
    }

    /// Every value so far.
    var values: [Value] { state.withLock { $0.values } }

    /// The value after the last one this returned, or `nil` when none comes within `timeout`.
    func next(within timeout: Duration = .seconds(30)) async -> Value? {
        let values = await values(within: timeout) { [taken = state.withLock { $0.taken }] in $0.count > taken }
        return state.withLock { state in
            guard state.taken < values.count else { return nil }
            state.taken += 1
            return values[state.taken - 1]
        }
    }

    /// The values once `condition` holds for them, or as they are after `timeout`.
    func values(within timeout: Duration = .seconds(30), until condition: ([Value]) -> Bool) async -> [Value] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let values = self.values
            if condition(values) { return values }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return values
    }

    /// How the stream ended, once it has, within `timeout`.
    func ended(within timeout: Duration = .seconds(30)) async -> String? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let end = state.withLock({ $0.end }) { return end }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    /// Cancels the consuming task.
    func cancel() {
        task.withLock { $0?.cancel() }
    }
}

/// The synchronous forms of the repository's methods, for async tests, where a call without
/// `await` would pick the `async` twin.
enum Sync {
    static func write(_ repository: any ItemRepository, _ body: (any ItemWriting) throws -> Void) throws {
        try repository.write(body)
    }
}
