import ArrangeModel
import Foundation

/// Wakes the observations of one repository each time the repository commits a write, when
/// the write changed a region of the store (``StoreRegions``) that the observation read; or
/// hands the commit's changes to an observation that applies them to the value it holds.
///
/// A repository signals after every successful commit, synchronous or `async`, with what the
/// commit changed (``StoreChanges``), one commit at a time, in the order of the commits; an
/// observation reads ``commitCount`` before it reads the store, then waits for a commit past
/// it that meets the regions its read looked at. Both backends build their observations on
/// ``values(of:applying:watching:)``, which is the whole of the loop.
package final class CommitNotifier: Sendable {
    /// What an observation that applies commits' changes to its value hands the notifier.
    package struct Follower: Sendable {
        /// Applies a commit's changes to the value; answers `false`, the value untouched, when
        /// it cannot, and the value must be read again.
        var apply: @Sendable (StoreChanges) -> Bool
        /// Called once the commits made while the value was read are applied to it.
        var settle: @Sendable () -> Void
    }

    private struct Waiter {
        var regions: StoreRegions
        var continuation: CheckedContinuation<Void, Never>
        var follower: Follower?
    }

    private struct State {
        var commitCount: UInt64 = 0
        /// The changes of the latest commits, the newest last; the commit of the last one is
        /// ``commitCount``.
        var recent: [StoreChanges] = []
        var waiters: [UInt64: Waiter] = [:]
        var nextWaiter: UInt64 = 0

        /// Applies the commits after `seen` that meet `regions` with `follower`, and answers
        /// whether the value must be read again: a commit that `follower` cannot apply, or,
        /// without one, any. When `seen` is older than the commits remembered, it must.
        func applyCommits(after seen: UInt64, meeting regions: StoreRegions, with follower: Follower?) -> Bool {
            let since = commitCount - min(seen, commitCount)
            guard since <= UInt64(recent.count) else { return true }
            return recent.suffix(Int(since)).contains { changes in
                changes.regions.meets(regions) && !(follower?.apply(changes) ?? false)
            }
        }
    }

    /// How many commits' changes are remembered for observations that were reading meanwhile.
    private static let remembered = 64

    private let state = Locked(State())

    package init() {}

    /// How many commits have been signalled so far.
    package var commitCount: UInt64 {
        state.withLock { $0.commitCount }
    }

    /// Counts a commit that made `changes`: hands them to the waiters that apply changes, and
    /// wakes the others whose regions they meet, and those that cannot apply them. A commit
    /// that changed nothing is not counted.
    ///
    /// The changes are applied before this returns, on the caller's thread: a repository
    /// signals one commit at a time, in the order of the commits.
    package func signal(_ changes: StoreChanges) {
        guard !changes.regions.isEmpty else { return }
        let woken = state.withLock { state in
            state.commitCount += 1
            state.recent.append(changes)
            if state.recent.count > Self.remembered { state.recent.removeFirst(state.recent.count - Self.remembered) }
            var woken: [CheckedContinuation<Void, Never>] = []
            for (id, waiter) in state.waiters where waiter.regions.meets(changes.regions) {
                if let follower = waiter.follower, follower.apply(changes) { continue }
                state.waiters[id] = nil
                woken.append(waiter.continuation)
            }
            return woken
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once a commit after the `seen`th has met `regions` (at once when one has
    /// already), or when the task is cancelled.
    ///
    /// With a `follower`, the commits' changes go to it instead, and this returns only once it
    /// cannot apply one. The commits already made go to it at once, then it settles, before
    /// any later commit: a value read while they landed is brought up to date before it is
    /// yielded, and never yields a state in between.
    package func waitForCommit(after seen: UInt64, meeting regions: StoreRegions, following follower: Follower? = nil) async {
        let waiter = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    // Cancellation sets the flag before it runs the handler below: a waiter
                    // registered after the handler ran sees it here.
                    guard !state.applyCommits(after: seen, meeting: regions, with: follower), !Task.isCancelled else { return true }
                    follower?.settle()
                    state.waiters[waiter] = Waiter(regions: regions, continuation: continuation, follower: follower)
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

/// Tells of writes to a database's files as they happen, from whatever the platform has: a
/// ``CommitWatcher`` told by it reads its counter after each, and never while nothing happens.
package protocol CommitEvents: Sendable {
    /// Starts calling `handler` after each write, on a thread of its own.
    ///
    /// - Returns: Whether it could start; when it cannot, the watcher polls instead.
    func start(_ handler: @escaping @Sendable () -> Void) -> Bool
    /// Stops calling the handler, and lets it go.
    func stop()
}

/// Watches for the commits of other connections to a repository's database, for all of the
/// repository's observations and only while one runs: it reads a ``ChangeCounter`` shortly
/// after it is told another connection may have committed (``note()``), by its
/// ``CommitEvents`` or by the app, and every ``interval`` when it polls, as it does when it has
/// no events or they cannot start.
///
/// Each commit it sees it signals to the repository's notifier as a change to every region:
/// what another connection changed is not known.
package actor CommitWatcher {
    /// How long the watcher waits between two reads of the counter; `nil` when it reads the
    /// counter only when told to.
    package let interval: Duration?
    /// What tells of writes to the database's files, if anything does.
    private let events: (any CommitEvents)?
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

    /// A watcher that reads `counter` after the `events` it is told of, and polls every
    /// `interval` when it has none or they cannot start; `nil` reads only after ``note()``.
    package init(interval: Duration?, events: (any CommitEvents)? = nil, counter: any ChangeCounter, notifier: CommitNotifier) {
        self.interval = interval
        self.events = events
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
            let isTold = events?.start { [weak self] in self?.note() } ?? false
            if !isTold, let interval {
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
            if let last, count != last { notifier.signal(StoreChanges.everything) }
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
        events?.stop()
        polling?.cancel()
        (polling, baseline, last) = (nil, nil, nil)
    }
}

extension CommitNotifier {
    /// How long an observation waits before it reads again after a failed read, one delay per
    /// retry; when the read fails once more, the observation ends with the error.
    package static let retryDelays: [Duration] = [.milliseconds(50), .milliseconds(250), .seconds(1)]

    /// A value read from the store now, and again after every commit that meets the regions
    /// the last read looked at, yielded whenever it differs from the last one yielded; or,
    /// with `apply`, brought up to date with each such commit's changes, and read again only
    /// when they cannot be applied.
    ///
    /// The loop reads ``commitCount`` before it calls `fetch`, so a commit that lands during the
    /// read is never missed: it is read again, or, with `apply`, applied to the value read
    /// before the value is yielded. A consumer slower than the commits gets the newest value,
    /// not every one in between. A failed read is tried again after each of ``retryDelays``.
    /// Cancelling the consuming task, or dropping the stream, ends the loop.
    ///
    /// - Parameters:
    ///   - fetch: Reads the value and the regions it looked at, off the cooperative pool (the
    ///     repository's `async` read).
    ///   - apply: Applies a commit's changes to the value, on the committing thread as the
    ///     commit signals; ``ChangeApplication/needsRead`` must leave the value as it was.
    ///     `nil` reads the value again after every commit that meets its regions.
    ///   - watcher: For a database that other connections write, what sees their commits;
    ///     `nil` when only this repository commits.
    /// - Returns: A stream that finishes with the error of a read that failed after every
    ///   retry, and never otherwise.
    package func values<Value: Equatable & Sendable>(
        of fetch: @escaping @Sendable () async throws -> (value: Value, regions: StoreRegions),
        applying apply: (@Sendable (inout Value, StoreChanges) -> ChangeApplication)? = nil,
        watching watcher: CommitWatcher? = nil
    ) -> AsyncThrowingStream<Value, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            await watcher?.begin()
            var failure: (any Error)?
            do {
                let observed = ObservedValue(yieldingTo: continuation)
                let follower = apply.map { apply in
                    Follower(apply: { observed.apply($0, with: apply) }, settle: { observed.settle() })
                }
                while true {
                    let seen = commitCount
                    let (value, regions) = try await Self.retrying(fetch)
                    observed.receive(value)
                    if follower == nil { observed.settle() }
                    await waitForCommit(after: seen, meeting: regions, following: follower)
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

/// The value an observation yielded last, and the one it read, until the commits made while it
/// read are applied to that one and it is yielded in its turn.
///
/// Its lock is taken inside the notifier's, never the other way.
private final class ObservedValue<Value: Equatable & Sendable>: Sendable {
    private struct State {
        /// The value yielded last, to which commits apply their changes.
        var yielded: Value?
        /// A value read, to which the commits made while it was read are still being applied.
        var read: Value?
    }

    private let state = Locked(State())
    private let continuation: AsyncThrowingStream<Value, any Error>.Continuation

    init(yieldingTo continuation: AsyncThrowingStream<Value, any Error>.Continuation) {
        self.continuation = continuation
    }

    /// Takes a value just read; ``settle()`` yields it.
    func receive(_ value: Value) {
        state.withLock { $0.read = value }
    }

    /// Yields the value read when it differs from the one yielded last.
    func settle() {
        state.withLock { state in
            guard let read = state.read else { return }
            state.read = nil
            if read != state.yielded { continuation.yield(read) }
            state.yielded = read
        }
    }

    /// Applies a commit's changes with `apply`: to the value read, while it waits to be
    /// yielded, without yielding it; otherwise to the value yielded last, which it yields when
    /// they changed it. Answers `false` when they cannot be applied; a value read is then
    /// dropped, as the commits applied to it so far may not be all it misses.
    func apply(_ changes: StoreChanges, with apply: (inout Value, StoreChanges) -> ChangeApplication) -> Bool {
        state.withLock { state in
            if var read = state.read {
                // Taken out while the changes apply, so that the value is not copied.
                state.read = nil
                guard apply(&read, changes) != .needsRead else { return false }
                state.read = read
                return true
            }
            guard var value = state.yielded else { return false }
            state.yielded = nil
            defer { state.yielded = value }
            switch apply(&value, changes) {
            case .unchanged: return true
            case .changed:
                continuation.yield(value)
                return true
            case .needsRead: return false
            }
        }
    }
}
