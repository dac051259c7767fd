import ArrangeModel
import ArrangeSync
import Foundation
import NIOCore
import NIOHTTP1

/// What a load run measured: one line of JSON.
struct LoadFigures: Codable {
    var scenario: String
    var connections: Int
    var requests = 0
    var operations = 0
    var seconds = 0.0
    var requestsPerSecond = 0.0
    var operationsPerSecond = 0.0
    var p50Milliseconds = 0.0
    var p90Milliseconds = 0.0
    var p99Milliseconds = 0.0
    var maxMilliseconds = 0.0
    /// Requests answered with anything but 2xx, or not answered.
    var errors = 0
    /// How many answers had each status.
    var statuses: [String: Int] = [:]
    /// For the long polls: the server's resident memory before and while they wait, in MiB.
    var serverMiBBefore: Double?
    var serverMiBWaiting: Double?

    init(scenario: String, connections: Int) {
        self.scenario = scenario
        self.connections = connections
    }

    /// Fills in the rates and percentiles from what the connections recorded.
    mutating func summarize(latencies: [Double], seconds: Double) {
        self.seconds = seconds
        requestsPerSecond = Double(requests) / seconds
        operationsPerSecond = Double(operations) / seconds
        let sorted = latencies.sorted()
        func percentile(_ fraction: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
        }
        (p50Milliseconds, p90Milliseconds, p99Milliseconds, maxMilliseconds) = (percentile(0.5), percentile(0.9), percentile(0.99), sorted.last ?? 0)
    }

    func json() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}

/// Runs requests on many connections at once until a deadline, each connection for users of
/// its own, and adds up what they measured.
enum LoadRun {
    /// What one connection measured.
    private struct Tally: Sendable {
        var requests = 0
        var operations = 0
        var errors = 0
        var statuses: [UInt: Int] = [:]
        var latencies: [Double] = []
    }

    /// - Parameters:
    ///   - users: Spread over the connections, round robin; each connection takes its users in turn.
    ///   - request: The next request of a user, and how many operations it carries; `nil` when
    ///     the user has nothing left to send.
    ///   - count: How many operations an answer brought, for a run that counts them in answers.
    static func run<User: Sendable>(
        _ scenario: String, connections: Int, host: String, port: Int, duration: Double, users: [User],
        request: @escaping @Sendable (inout User) -> (LoadRequest, operations: Int)?,
        count: @escaping @Sendable (inout User, LoadAnswer) -> Int
    ) async throws -> LoadFigures {
        let groups = (0..<connections).map { index in stride(from: index, to: users.count, by: connections).map { users[$0] } }
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + .milliseconds(Int(duration * 1_000))
        let tallies = try await withThrowingTaskGroup(of: Tally.self) { group in
            for users in groups where !users.isEmpty {
                group.addTask {
                    var own = users
                    return try await LoadConnection.with(host: host, port: port, group: loadEventLoops) { connection in
                        var tally = Tally()
                        var turn = 0
                        var exhausted = 0
                        while clock.now < deadline, exhausted < own.count {
                            let index = turn % own.count
                            turn += 1
                            guard let (next, carried) = request(&own[index]) else {
                                exhausted += 1
                                continue
                            }
                            let sent = clock.now
                            let answer = try await connection.send(next)
                            tally.latencies.append((clock.now - sent).milliseconds)
                            tally.requests += 1
                            tally.statuses[answer.status.code, default: 0] += 1
                            if (200..<300).contains(answer.status.code) {
                                tally.operations += carried + count(&own[index], answer)
                            } else {
                                tally.errors += 1
                            }
                        }
                        return tally
                    }
                }
            }
            return try await group.reduce(into: [Tally]()) { $0.append($1) }
        }
        var figures = LoadFigures(scenario: scenario, connections: connections)
        for tally in tallies {
            figures.requests += tally.requests
            figures.operations += tally.operations
            figures.errors += tally.errors
            for (status, answers) in tally.statuses { figures.statuses[String(status), default: 0] += answers }
        }
        figures.summarize(latencies: tallies.flatMap(\.latencies), seconds: (clock.now - start).seconds)
        return figures
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    var milliseconds: Double { seconds * 1_000 }
}

/// A user whose device pushes new operations, made ready before the run so that making them
/// costs the run nothing: each push a batch of new items, its sequence numbers following the last,
/// in the default list, or in the device's shared list.
struct PushingUser: Sendable {
    let device: LoadUser
    private var pushes: [ByteBuffer]
    private var next = 0

    /// One user for each device, each with `pushes` ÷ the number of devices pushes ready.
    static func make(users: [LoadUser], pushes: Int, batch: Int) throws -> [PushingUser] {
        let base = HybridLogicalClock.systemMilliseconds()
        return try users.map { device in
            let replica = ReplicaID()
            let list = device.list.map { ItemList.ID(rawValue: $0) } ?? ItemList.firstDefaultListID
            let bodies = try (0..<max(1, pushes / users.count)).map { push in
                let first = Int64(push * batch) + 1
                let operations = (first..<first + Int64(batch)).map { SyncOperation.newItem(of: replica, sequence: $0, at: base + $0, in: list) }
                let through = SyncCursor(rawValue: "\(first + Int64(batch) - 1):\(operations[batch - 1].id.rawValue.uuidString.lowercased())")
                return ByteBuffer(bytes: try OperationFile.encode(OperationFile.Contents(operations: operations, replica: replica, through: through)))
            }
            return PushingUser(device: device, pushes: bodies)
        }
    }

    /// The next push's body; `nil` once every push was sent.
    mutating func nextPush() -> ByteBuffer? {
        guard next < pushes.count else { return nil }
        defer { next += 1 }
        return pushes[next]
    }
}

/// A user whose device pulls its log from the start, a page at a time, and again from the
/// start once it has it all.
struct PullingUser: Sendable {
    let token: String
    private var cursor: String?

    init(token: String) {
        self.token = token
    }

    /// The request of the next page.
    func nextURI(limit: Int) -> String {
        "/v1/ops?limit=\(limit)" + (cursor.map { "&after=\($0)" } ?? "")
    }

    /// Moves on past a page, and returns how many operations it held: its lines but the
    /// header and the trailer.
    mutating func read(_ answer: LoadAnswer) -> Int {
        let bytes = answer.body.readableBytesView
        guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")),
              let header = try? JSONDecoder().decode(PageHeader.self, from: Data(bytes[bytes.startIndex..<end]))
        else { return 0 }
        cursor = header.complete == true ? nil : header.cursor
        return bytes.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 } - 2
    }

    /// What a pull reads of a page's first line.
    private struct PageHeader: Decodable {
        var cursor: String?
        var complete: Bool?
    }
}

/// A user whose device pulls with nothing new: the heads of its shared lists, then its own log
/// after its head, as a device learns that it has nothing to pull.
struct IdleUser: Sendable {
    let token: String
    /// The head of the user's own log, read before the run.
    let head: String
    private var asksShares = true

    /// One user for each device, with the head of its own log.
    static func make(users: [LoadUser], host: String, port: Int) async throws -> [IdleUser] {
        try await LoadConnection.with(host: host, port: port, group: loadEventLoops) { connection in
            var idle: [IdleUser] = []
            for user in users {
                let answer = try await connection.send(LoadRequest(method: .GET, uri: "/v1/state", token: user.token))
                guard answer.status == .ok else { throw LoadError.refused("GET /v1/state answered \(answer.status.code)") }
                idle.append(IdleUser(token: user.token, head: try JSONDecoder().decode(StateHead.self, from: Data(answer.body.readableBytesView)).head))
            }
            return idle
        }
    }

    /// The next request: the shared lists' heads, or the own log after its head.
    func nextRequest() -> LoadRequest {
        LoadRequest(method: .GET, uri: asksShares ? "/v1/shares" : "/v1/ops?after=\(head)", token: token)
    }

    /// Moves on past an answer; 1 once both requests of a pull were answered.
    mutating func answered() -> Int {
        defer { asksShares.toggle() }
        return asksShares ? 0 : 1
    }
}

/// What a run reads of the server's state: where the log ends.
struct StateHead: Decodable {
    var head: String
}

extension SyncOperation {
    /// An operation that adds an item to `list`, as the benchmark's devices make them.
    static func newItem(of replica: ReplicaID, sequence: Int64, at milliseconds: Int64, in list: ItemList.ID = ItemList.firstDefaultListID) -> SyncOperation {
        SyncOperation(
            replica: replica, sequence: sequence, clock: HLCTimestamp(milliseconds: milliseconds, counter: 0),
            change: .addItem(id: Item.ID(), list: list, title: "item \(sequence)", notes: "", place: SyncPlace(after: nil, before: nil)))
    }
}
