import ArrangeModel
import ArrangeSync
import ArrangeSyncHTTP
import Foundation
import Testing

@Suite("arrange-server killed in the middle of pushes")
struct ServerCrashTests {
    @Test("Killed at random just before and just after a push's COMMIT: every push answered 200 is kept, none twice, and devices converge")
    func killedAroundCommit() async throws {
        let fixture = try ServerFixture()
        let token = try fixture.user("alice")
        let failpoints = ["ARRANGE_SERVER_FAILPOINTS": "pushBeforeCommit=0.1,pushAfterCommit=0.1"]
        let server = try fixture.startServer(environment: failpoints)
        let port = try #require(server.port)
        var kills = 0
        /// Runs `body` until the server answers it, starting the server again on its port each time it was killed.
        func untilAnswered<Value>(_ body: () async throws -> Value) async throws -> Value {
            while true {
                do {
                    return try await body()
                } catch let error where Self.serverIsGone(error) {}
                kills += 1
                try #require(kills < 200, "the server keeps dying")
                _ = try fixture.startServer(["--port", String(port)], environment: failpoints)
            }
        }

        let client = RawClient(server: server, token: token)
        var random = SeededRandomNumberGenerator(seed: 41)
        let replicas = (0..<3).map { _ in ReplicaID() }
        var next = replicas.map { _ in Int64(1) }
        var acknowledged: [SyncOperation.ID] = []
        try await withTemporaryFolder { folder in
            let devices = try (0..<2).map { try ServerDevice(folder.appendingPathComponent("device\($0).sqlite").path) }
            for _ in 0..<80 {
                let index = Int.random(in: 0..<replicas.count, using: &random)
                if index == 0 {
                    // A device changes its list, and syncs through the dying server.
                    let device = devices[Int.random(in: 0..<devices.count, using: &random)]
                    try device.change(using: &random)
                    _ = try await untilAnswered { try await device.engine.sync(with: HTTPSyncRemote(server: server, token: token)) }
                    continue
                }
                let batch = ServerTests.operations(Int.random(in: 1...5, using: &random), of: replicas[index], from: next[index])
                let answer = try await untilAnswered { try await client.push(batch, from: replicas[index]) }
                #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
                acknowledged += batch.map(\.id)
                next[index] += Int64(batch.count)
            }
            for device in devices + devices {
                _ = try await untilAnswered { try await device.engine.sync(with: HTTPSyncRemote(server: server, token: token)) }
            }
            #expect(try devices[0].dump() == devices[1].dump())
            #expect(!(try devices[0].dump()).isEmpty)
        }
        #expect(kills > 0, "the failpoints killed the server")
        let held = try await client.everyOperationID()
        #expect(Set(acknowledged).isSubset(of: Set(held)), "every push answered 200 is kept")
        #expect(held.count == Set(held).count, "none is stored twice")
    }

    /// Whether `error` says the server did not answer: it was killed.
    static func serverIsGone(_ error: any Error) -> Bool {
        if case HTTPSyncError.unreachable = error { return true }
        return error is URLError
    }
}
