import ArrangeModel
import ArrangeSync
import ArrangeSyncHTTP
import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("arrange-server stopped with SIGTERM")
struct ServerShutdownTests {
    @Test("SIGTERM during pushes, a fold and a long poll: the poll gets an empty page at once, the pushes and the fold end and are kept, and the server exits 0 within 5 s")
    func sigtermMidway() async throws {
        let fixture = try ServerFixture()
        let (aliceToken, bobToken, carolToken) = (try fixture.user("alice"), try fixture.user("bob"), try fixture.user("carol"))
        // Every push starts a fold; a push pauses 1 s before its COMMIT, and a fold 2 s before it stores.
        let server = try fixture.startServer(
            ["--fold-every", "1"], environment: ["ARRANGE_SERVER_FAILPOINTS": "pushPausesBeforeCommit=1,foldPausesBeforeStore=1"])
        let (bob, carol) = (RawClient(server: server, token: bobToken), RawClient(server: server, token: carolToken))

        // Alice's only device pushes its changes and says it holds them: the fold its push
        // starts folds them all away, and pauses before it stores, past the pushes below.
        try await withTemporaryFolder { folder in
            let device = try ServerDevice(folder.appendingPathComponent("device.sqlite").path)
            var random = SeededRandomNumberGenerator(seed: 17)
            for _ in 0..<3 { try device.change(using: &random) }
            _ = try await device.engine.sync(with: HTTPSyncRemote(server: server, token: aliceToken))
        }
        // Meanwhile Bob waits for changes, and Bob and Carol push, each push pausing before its COMMIT.
        let (bobReplica, carolReplica) = (ReplicaID(), ReplicaID())
        let (bobOperations, carolOperations) = (ServerTests.operations(2, of: bobReplica), ServerTests.operations(3, of: carolReplica))
        async let poll = Self.timed { try await bob.send("GET", SyncProtocol.operationsPath, query: "wait=20") }
        async let bobPush = Self.timed { try await bob.push(bobOperations, from: bobReplica) }
        async let carolPush = Self.timed { try await carol.push(carolOperations, from: carolReplica) }
        try await Task.sleep(for: .milliseconds(300))

        let (signalled, signalledDate) = (ContinuousClock.now, Date())
        async let exit = fixture.terminateServer(at: server, waitingAtMost: .seconds(10))
        let (polled, pollAnswered) = try await poll
        #expect(polled.status == 200, "\(String(decoding: polled.body, as: UTF8.self))")
        #expect(try OperationFile.decode(polled.body).operations.isEmpty, "the poll ended with nothing new, not woken by a push")
        #expect(signalled.duration(to: pollAnswered) < .seconds(1), "the poll was answered at once: \(signalled.duration(to: pollAnswered))")

        // Shutting down, it takes no new connection.
        try await Task.sleep(for: .milliseconds(200))
        let fresh = RawClient(server: server, token: bobToken, session: URLSession(configuration: .ephemeral))
        await #expect(throws: (any Error).self, "a request sent after the signal is refused") { try await fresh.send("GET", SyncProtocol.healthPath) }

        for (push, answered) in [try await bobPush, try await carolPush] {
            #expect(push.status == 200, "\(String(decoding: push.body, as: UTF8.self))")
            #expect(answered > signalled, "the push was under way at the signal")
        }
        let ended = try await exit
        #expect(ended.reason == .exit && ended.status == 0, "\(ended)")
        #expect(ended.after.map { $0 < .seconds(5) } == true, "\(ended)")

        // The fold under way at the signal was stored, after it.
        let fold = try fixture.value(
            "SELECT folded_count || ' ' || extract(epoch FROM folded_at) FROM folds JOIN logs ON logs.id = folds.log_id JOIN users ON users.id = logs.owner_id WHERE users.name = 'alice'")
        let (folded, foldedAt) = (Int(fold.split(separator: " ").first ?? ""), Double(fold.split(separator: " ").last ?? ""))
        #expect(folded.map { $0 > 0 } == true, "alice's fold was stored: '\(fold)'")
        #expect(foldedAt.map { $0 > signalledDate.timeIntervalSince1970 } == true, "alice's fold was stored after the signal: '\(fold)'")

        // Every push answered 200 is kept.
        let restarted = try fixture.startServer()
        #expect(try await RawClient(server: restarted, token: bobToken).everyOperationID() == bobOperations.map(\.id))
        #expect(try await RawClient(server: restarted, token: carolToken).everyOperationID() == carolOperations.map(\.id))
    }

    /// What `body` answers, and when it answered.
    static func timed<Value: Sendable>(_ body: @Sendable () async throws -> Value) async throws -> (Value, ContinuousClock.Instant) {
        let value = try await body()
        return (value, ContinuousClock.now)
    }
}
