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

    @Test("Observing the lists yields them at once, then after each change to a list only", arguments: Backend.allCases)
    func lists(backend: Backend) async throws {
        try await OffPool.run {
            let store = try backend.makeStore()
            let repository = store.repository
            let (home, _) = try store.seed("Home", sortIndices: [1])
            let recorder = Recorder.start(repository.observeLists())
            defer { recorder.cancel() }
            #expect(await recorder.next() == [home])

            // An item is no change to the lists.
            try await repository.write { try $0.insert(Sample.item(in: home.id, "Item", sortIndex: 2)) }
            let work = Sample.list("Work", at: 5)
            try await repository.write { try $0.insert(work) }
            #expect(await recorder.next() == [home, work])

            let renamed = ItemList(id: home.id, name: "House", createdAt: home.createdAt)
            try await repository.write { try $0.update(renamed) }
            #expect(await recorder.next() == [renamed, work])
            try await repository.write { try $0.deleteList(id: work.id) }
            #expect(await recorder.next() == [renamed])
            #expect(recorder.values.count == 4)
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
