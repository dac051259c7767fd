import ArrangeModel
import ArrangeSync
import Foundation
import NIOCore
import NIOHTTP1

/// Many idle long polls on one user's log, then one push: how much memory the waiting polls
/// cost the server, and how soon after the push each of them answers.
struct LongPollRun {
    let host: String
    let port: Int
    let token: String
    let polls: Int
    /// The server's process id, for its resident memory; 0 for none.
    let serverPID: Int
    /// Seconds the polls wait before the push.
    let idle: Double

    func run() async throws -> LoadFigures {
        var figures = LoadFigures(scenario: "long-polls", connections: polls)
        let head = try await LoadConnection.with(host: host, port: port, group: loadEventLoops) { connection in
            let answer = try await connection.send(LoadRequest(method: .GET, uri: "/v1/state", token: token))
            guard answer.status == .ok else { throw LoadError.refused("GET /v1/state answered \(answer.status.code)") }
            return try JSONDecoder().decode(StateHead.self, from: Data(answer.body.readableBytesView)).head
        }
        figures.serverMiBBefore = residentMiB()
        let clock = ContinuousClock()
        let start = clock.now
        let (answers, pushedAt) = try await withThrowingTaskGroup(of: (ContinuousClock.Instant, UInt).self) { group in
            for _ in 0..<polls {
                group.addTask {
                    try await LoadConnection.with(host: host, port: port, group: loadEventLoops) { connection in
                        let answer = try await connection.send(LoadRequest(method: .GET, uri: "/v1/ops?after=\(head)&wait=25", token: token))
                        return (clock.now, answer.status.code)
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(Int(idle * 1_000)))
            figures.serverMiBWaiting = residentMiB()
            let pushedAt = clock.now
            try await push()
            return (try await group.reduce(into: []) { $0.append($1) }, pushedAt)
        }
        var latencies: [Double] = []
        for (answeredAt, status) in answers {
            figures.requests += 1
            figures.statuses[String(status), default: 0] += 1
            // A poll that answered before the push did not wait for it.
            if status == 200, answeredAt > pushedAt {
                latencies.append((answeredAt - pushedAt).milliseconds)
                figures.operations += 1
            } else {
                figures.errors += 1
            }
        }
        figures.summarize(latencies: latencies, seconds: (clock.now - start).seconds)
        return figures
    }

    /// Pushes one new item, as a device of the user.
    private func push() async throws {
        let operation = SyncOperation.newItem(of: ReplicaID(), sequence: 1, at: HybridLogicalClock.systemMilliseconds())
        let body = try OperationFile.encode(OperationFile.Contents(
            operations: [operation], replica: operation.replica, through: SyncCursor(rawValue: "1:\(operation.id.rawValue.uuidString.lowercased())")))
        try await LoadConnection.with(host: host, port: port, group: loadEventLoops) { connection in
            let answer = try await connection.send(LoadRequest(
                method: .POST, uri: "/v1/push", token: token, contentType: "application/x-ndjson", body: ByteBuffer(bytes: body)))
            guard answer.status == .ok else { throw LoadError.refused("the push that wakes the polls answered \(answer.status.code)") }
        }
    }

    /// The server's resident memory in MiB, from /proc; `nil` without a process id.
    private func residentMiB() -> Double? {
        guard serverPID > 0, let status = try? String(contentsOfFile: "/proc/\(serverPID)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kibibytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return nil }
        return kibibytes / 1_024
    }

    /// What the run reads of the server's state: where the log ends.
    private struct StateHead: Decodable {
        var head: String
    }
}
