import ArrangeModel
import ArrangeSync
import Foundation
import NIOCore
import NIOHTTP1

/// Many idle long polls on one log, then one push: how much memory the waiting polls cost the
/// server, and how soon after the push each of them answers.
///
/// The polls take `devices` in turn, each on its log (its own, or its shared list's); the first
/// device pushes, to its log: all must be on the same log.
struct LongPollRun {
    let host: String
    let port: Int
    let devices: [LoadUser]
    let polls: Int
    /// The server's process id, for its resident memory; 0 for none.
    let serverPID: Int
    /// Seconds the polls wait before the push.
    let idle: Double

    func run() async throws -> LoadFigures {
        var figures = LoadFigures(scenario: "long-polls", connections: polls)
        let pusher = devices[0]
        let head = try await LoadConnection.with(host: host, port: port, group: loadEventLoops) { connection in
            let answer = try await connection.send(LoadRequest(method: .GET, uri: "/v1/state\(pusher.logQuery)", token: pusher.token))
            guard answer.status == .ok else { throw LoadError.refused("GET /v1/state answered \(answer.status.code)") }
            return try JSONDecoder().decode(StateHead.self, from: Data(answer.body.readableBytesView)).head
        }
        figures.serverMiBBefore = residentMiB()
        let clock = ContinuousClock()
        let start = clock.now
        let (answers, pushedAt) = try await withThrowingTaskGroup(of: (ContinuousClock.Instant, UInt).self) { group in
            for poll in 0..<polls {
                let device = devices[poll % devices.count]
                let query = device.logQuery.isEmpty ? "?" : device.logQuery + "&"
                group.addTask {
                    try await LoadConnection.with(host: host, port: port, group: loadEventLoops) { connection in
                        let answer = try await connection.send(LoadRequest(method: .GET, uri: "/v1/ops\(query)after=\(head)&wait=25", token: device.token))
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

    /// Pushes one new item, as the first device, to its log.
    private func push() async throws {
        let pusher = devices[0]
        let list = pusher.list.map { ItemList.ID(rawValue: $0) } ?? ItemList.firstDefaultListID
        let operation = SyncOperation.newItem(of: ReplicaID(), sequence: 1, at: HybridLogicalClock.systemMilliseconds(), in: list)
        let body = try OperationFile.encode(OperationFile.Contents(
            operations: [operation], replica: operation.replica, through: SyncCursor(rawValue: "1:\(operation.id.rawValue.uuidString.lowercased())")))
        try await LoadConnection.with(host: host, port: port, group: loadEventLoops) { connection in
            let answer = try await connection.send(LoadRequest(
                method: .POST, uri: "/v1/push\(pusher.logQuery)", token: pusher.token, contentType: "application/x-ndjson", body: ByteBuffer(bytes: body)))
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
}
