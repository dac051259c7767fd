import ArrangeModel
import Foundation

/// Wakes the observations of one repository each time the repository commits a write, when
/// the write changed a region of the store (``StoreRegions``) that the observation read.
///
/// A repository signals after every successful commit, synchronous or `async`, with the
/// regions the commit changed; an observation reads ``commitCount`` before it reads the store,
/// then waits for a commit past it that meets the regions its read looked at. Both backends
/// build their observations on ``values(of:watching:)``, which is the whole of the loop.
package final class CommitNotifier: Sendable {
    private struct Waiter {
        var regions: StoreRegions
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var commitCount: UInt64 = 0
        /// The regions of the latest commits, the newest last; the commit of the last one is
        /// ``commitCount``.
        var recent: [StoreRegions] = []
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0

        /// Whether a commit after `seen` met `regions`: when `seen` is older than the commits
        /// remembered, one may have.
        func commit(after seen: UInt64, meets regions: StoreRegions) -> Bool {
            let since = commitCount - min(seen, commitCount)
            guard since <= UInt64(recent.count) else { return true }
            return recent.suffix(Int(since)).contains { $0.meets(regions) }
        }
    }

    /// How many commits' regions are remembered for observations that were reading meanwhile.
    private static let remembered = 64

    private let state = Locked(State())

    package init() {}

    /// How many commits have been signalled so far.
    package var commitCount: UInt64 {
        state.withLock { $0.commitCount }
    }

    /// Counts a commit that changed `regions`, and wakes the waiters whose regions it meets.
    /// A commit that changed nothing is not counted.
    package func signal(_ regions: StoreRegions) {
        guard !regions.isEmpty else { return }
        let woken = state.withLock { state in
            state.commitCount += 1
            state.recent.append(regions)
            if state.recent.count > Self.remembered { state.recent.removeFirst(state.recent.count - Self.remembered) }
            let met = state.waiters.filter { $0.value.regions.meets(regions) }
            for id in met.keys { state.waiters[id] = nil }
            return met.values.map(\.continuation)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once a commit after the `seen`th has met `regions` (at once when one has
    /// already), or when the task is cancelled.
    package func waitForCommit(after seen: UInt64, meeting regions: StoreRegions) async {
        let waiter = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    // Cancellation sets the flag before it runs the handler below: a waiter
                    // registered after the handler ran sees it here.
                    guard !state.commit(after: seen, meets: regions), !Task.isCancelled else { return true }
                    state.waiters[waiter] = Waiter(regions: regions, continuation: continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: waiter) }?.continuation.resume()
        }
    }
}

/// A number that changes whenever another connection, of this process or another, commits
/// to a database: the `PRAGMA data_version` of the repository's own writing connection, for one.
package protocol ChangeCounter: Sendable {
    /// The current value; any change means another connection's commit since it was last read.
    func changeCount() async throws -> Int64
}

/// Watches for the commits of other connections to a repository's database, for all of the
/// repository's observations and only while one runs: it reads a ``ChangeCounter`` every
/// ``interval`` when it polls, and shortly after it is told another connection may have
/// committed (``note()``).
///
/// Each commit it sees it signals to the repository's notifier as a change to every region:
/// what another connection changed is not known.
package actor CommitWatcher {
    /// How long the watcher waits between two reads of the counter; `nil` when it reads the
    /// counter only when told to.
    package let interval: Duration?
    private let counter: any ChangeCounter
    private let notifier: CommitNotifier
    private var observations = 0
    /// The counter's value when the first running observation began, once read.
    private var baseline: Task<Int64?, Never>?
    /// The counter's value at the last read, while observations run.
    private var last: Int64?
    private var polling: Task<Void, Never>?
    /// Whether a read of the counter is under way, and whether to read once more after it.
    private var isChecking = false
    private var checksAgain = false
    /// Whether an observation runs, and whether a read of the counter is due after a note:
    /// what ``note()`` looks at without waiting for the actor.
    private let noted = Locked((isWatching: false, isDue: false))

    /// How long after a note the counter is read, once for all the notes of that time: a
    /// burst of commits, each of which writes to the file, costs one read.
    package static let noteDelay: Duration = .milliseconds(15)

    package init(interval: Duration?, counter: any ChangeCounter, notifier: CommitNotifier) {
        self.interval = interval
        self.counter = counter
        self.notifier = notifier
    }

    /// Counts an observation in, and returns once the counter was read after it began: a
    /// commit that lands after that is seen, however soon.
    package func begin() async {
        observations += 1
        noted.withLock { $0.isWatching = true }
        if baseline == nil {
            let counter = counter
            let baseline = Task { try? await counter.changeCount() }
            self.baseline = baseline
            if let interval {
                polling = Task {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: interval)
                        guard !Task.isCancelled else { return }
                        await self.check()
                    }
                }
            }
            let first = await baseline.value
            if self.baseline == baseline, last == nil { last = first }
        }
        _ = await baseline?.value
    }

    /// Reads the counter now, and wakes every observation when another connection committed
    /// since the last read. Calls that come while a read is under way make one more read after
    /// it, not one each. Does nothing while no observation runs.
    private func check() async {
        guard observations > 0 else { return }
        guard !isChecking else {
            checksAgain = true
            return
        }
        isChecking = true
        defer { isChecking = false }
        repeat {
            checksAgain = false
            // A read that fails is tried again at the next interval or note.
            guard let count = try? await counter.changeCount(), observations > 0 else { continue }
            if let last, count != last { notifier.signal(.everything) }
            last = count
        } while checksAgain
    }

    /// Says that another connection may have committed: while an observation runs, the
    /// counter is read ``noteDelay`` later, once for every note until then. Returns at once.
    package nonisolated func note() {
        let schedules = noted.withLock { noted in
            defer { noted.isDue = noted.isWatching }
            return noted.isWatching && !noted.isDue
        }
        guard schedules else { return }
        Task {
            try? await Task.sleep(for: Self.noteDelay)
            // A note from now on schedules a read of its own, so none goes unread.
            noted.withLock { $0.isDue = false }
            await check()
        }
    }

    /// Counts an observation out; the watcher stops with the last.
    package func end() {
        observations -= 1
        guard observations == 0 else { return }
        noted.withLock { $0.isWatching = false }
        polling?.cancel()
        (polling, baseline, last) = (nil, nil, nil)
    }
}

extension CommitNotifier {
    /// How long an observation waits before it reads again after a failed read, one delay per
    /// retry; when the read fails once more, the observation ends with the error.
    package static let retryDelays: [Duration] = [.milliseconds(50), .milliseconds(250), .seconds(1)]

    /// A value read from the store now, and again after every commit that meets the regions
    /// the last read looked at, yielded whenever it differs from the last one yielded.
    ///
    /// The loop reads ``commitCount`` before it calls `fetch`, so a commit that lands during the
    /// read is never missed; it is at worst read twice, and yields once. A consumer slower than
    /// the commits gets the newest value, not every one in between. A failed read is tried
    /// again after each of ``retryDelays``. Cancelling the consuming task, or dropping the
    /// stream, ends the loop.
    ///
    /// - Parameters:
    ///   - fetch: Reads the value and the regions it looked at, off the cooperative pool (the
    ///     repository's `async` read).
    ///   - watcher: For a database that other connections write, what sees their commits;
    ///     `nil` when only this repository commits.
    /// - Returns: A stream that finishes with the error of a read that failed after every
    ///   retry, and never otherwise.
    package func values<Value: Equatable & Sendable>(
        of fetch: @escaping @Sendable () async throws -> (value: Value, regions: StoreRegions),
        watching watcher: CommitWatcher? = nil
    ) -> AsyncThrowingStream<Value, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            await watcher?.begin()
            var failure: (any Error)?
            do {
                var last: Value?
                while true {
                    let seen = commitCount
                    let (value, regions) = try await Self.retrying(fetch)
                    if value != last {
                        continuation.yield(value)
                        last = value
                    }
                    await waitForCommit(after: seen, meeting: regions)
                    try Task.checkCancellation()
                }
            } catch {
                // A read cut short by the cancellation fails in its own way; the consumer is gone anyway.
                failure = Task.isCancelled ? nil : error
            }
            await watcher?.end()
            continuation.finish(throwing: failure)
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Runs `fetch`, and again after each of ``retryDelays`` while it fails.
    private static func retrying<Result>(_ fetch: () async throws -> Result) async throws -> Result {
        var delays = retryDelays[...]
        while true {
            do {
                return try await fetch()
            } catch {
                guard let delay = delays.popFirst(), !Task.isCancelled else { throw error }
                try await Task.sleep(for: delay)
            }
        }
    }
}
