@testable import ArrangeStore
import Foundation
import Synchronization
import Testing

/// The watch of other connections' commits, told of them by notes rather than polling.
@Suite("CommitWatcher")
struct CommitWatcherTests {
    /// A counter that counts its reads, and changes when told to.
    final class CountingCounter: ChangeCounter {
        let state = Mutex((reads: 0, value: Int64(0)))

        func changeCount() async throws -> Int64 {
            state.withLock { state in
                state.reads += 1
                return state.value
            }
        }

        var reads: Int { state.withLock { $0.reads } }
    }

    @Test("A burst of notes reads the counter once or so, not once a note; with no observation, a note reads nothing")
    func notesCoalesce() async throws {
        let counter = CountingCounter()
        let notifier = CommitNotifier()
        let watcher = CommitWatcher(interval: nil, counter: counter, notifier: notifier)

        for _ in 0..<100 { watcher.note() }
        try await Task.sleep(for: CommitWatcher.noteDelay * 4)
        #expect(counter.reads == 0, "nobody observes")

        await watcher.begin()
        let baseline = counter.reads
        #expect(baseline == 1)
        counter.state.withLock { $0.value += 1 }
        for _ in 0..<100 { watcher.note() }
        let deadline = ContinuousClock.now + .seconds(10)
        while notifier.commitCount == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(notifier.commitCount == 1, "the other connection's commit is signalled")
        try await Task.sleep(for: CommitWatcher.noteDelay * 4)
        // One read for the burst; a slow machine may split it in two or three.
        #expect((1...3).contains(counter.reads - baseline), "\(counter.reads - baseline) reads for 100 notes")
        #expect(notifier.commitCount == 1, "reads that find no change signal nothing")
        await watcher.end()
    }
}
