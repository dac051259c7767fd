import ArrangeModel
import Foundation

/// Wakes the observations of one repository each time the repository commits a write.
///
/// A repository signals after every successful commit, synchronous or `async`; an
/// observation reads ``commitCount`` before it reads the store, then waits for a count
/// past it. Both backends build their `observeItems` and `observeLists` on
/// ``values(of:polling:)``, which is the whole of the observation loop.
package final class CommitNotifier: Sendable {
    private struct State {
        var commitCount: UInt64 = 0
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Locked(State())

    package init() {}

    /// How many commits have been signalled so far.
    package var commitCount: UInt64 {
        state.withLock { $0.commitCount }
    }

    /// Counts a commit and wakes every waiter.
    package func signal() {
        let waiters = state.withLock { state in
            state.commitCount += 1
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once ``commitCount`` is past `seen`, or at once when it is already, or when the
    /// task is cancelled.
    package func waitForCommit(after seen: UInt64) async {
        let waiter = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state in
                    // Cancellation sets the flag before it runs the handler below: a waiter
                    // registered after the handler ran sees it here.
                    guard state.commitCount <= seen, !Task.isCancelled else { return true }
                    state.waiters[waiter] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: waiter) }?.resume()
        }
    }

    /// Waits as ``waitForCommit(after:)`` does, but no longer than `timeout`.
    ///
    /// - Returns: Whether a commit past `seen` was signalled.
    package func waitForCommit(after seen: UInt64, atMost timeout: Duration) async -> Bool {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.waitForCommit(after: seen) }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
        return commitCount > seen
    }
}

/// A number that changes whenever anyone commits a change to a database, this process or
/// another: the `PRAGMA data_version` of a connection that never writes, for one.
///
/// Observations poll one to see the commits that their repository's ``CommitNotifier`` does
/// not: those of other connections to the same file.
package protocol ChangeCounter: Sendable {
    /// The current value; any change means a commit since the value was last read.
    func changeCount() async throws -> Int64

    /// Releases what the counter holds, such as its connection. It is not used afterwards.
    func close()
}

/// How an observation polls for the commits of other connections.
package struct ChangePolling: Sendable {
    /// How long an observation waits for a commit of its own repository before it polls.
    package var interval: Duration
    /// Opens the counter that one observation polls and closes when it ends.
    package var openCounter: @Sendable () throws -> any ChangeCounter

    package init(interval: Duration, openCounter: @escaping @Sendable () throws -> any ChangeCounter) {
        self.interval = interval
        self.openCounter = openCounter
    }
}

extension CommitNotifier {
    /// A value read from the store now, and again after every commit that may change it,
    /// yielded whenever it differs from the last one yielded.
    ///
    /// The loop reads ``commitCount`` (and the change counter, when polling) before it calls
    /// `fetch`, so a commit that lands during the read is never missed; it is at worst read
    /// twice, and yields once. A consumer slower than the commits gets the newest value, not
    /// every one in between. Cancelling the consuming task, or dropping the stream, cancels
    /// the loop and closes the change counter.
    ///
    /// - Parameters:
    ///   - fetch: Reads the value, off the cooperative pool (the repository's `async` read).
    ///   - polling: For a database that other connections write, how to see their commits;
    ///     `nil` when only this repository commits.
    /// - Returns: A stream that finishes with the error of a failed read, and never otherwise.
    package func values<Value: Equatable & Sendable>(
        of fetch: @escaping @Sendable () async throws -> Value,
        polling: ChangePolling? = nil
    ) -> AsyncThrowingStream<Value, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let task = Task {
            do {
                let counter = try polling?.openCounter()
                defer { counter?.close() }
                var last: Value?
                while true {
                    let seenCommits = commitCount
                    let seenChanges = try await counter?.changeCount()
                    let value = try await fetch()
                    if value != last {
                        continuation.yield(value)
                        last = value
                    }
                    if let counter, let seenChanges, let polling {
                        while await !waitForCommit(after: seenCommits, atMost: polling.interval) {
                            try Task.checkCancellation()
                            if try await counter.changeCount() != seenChanges { break }
                        }
                    } else {
                        await waitForCommit(after: seenCommits)
                    }
                    try Task.checkCancellation()
                }
            } catch {
                // A read cut short by the cancellation fails in its own way; the consumer is gone anyway.
                continuation.finish(throwing: Task.isCancelled ? nil : error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
