import ArrangeModel
import ArrangeSync
import ArrangeSyncHTTP
import Foundation
import Synchronization
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("arrange-server: long polls, limits and a database that goes away", .serialized)
struct ServerLimitsTests {
    @Test("A long poll waits for a push; a push through another server process wakes it at once")
    func longPoll() async throws {
        let fixture = try ServerFixture()
        let token = try fixture.user("alice")
        let polling = RawClient(server: try fixture.startServer(), token: token)
        let pushing = RawClient(server: try fixture.startServer(), token: token)
        let clock = ContinuousClock()

        var start = clock.now
        let idle = try await polling.send("GET", SyncProtocol.operationsPath, query: "wait=1")
        #expect(idle.status == 200)
        #expect(try OperationFile.decode(idle.body).operations.isEmpty)
        #expect(start.duration(to: clock.now) >= .milliseconds(900), "it waited for a push that did not come")

        let head = try await polling.head()
        start = clock.now
        async let poll = polling.send("GET", SyncProtocol.operationsPath, query: "after=\(head.rawValue)&wait=20")
        try await Task.sleep(for: .milliseconds(500))
        let replica = ReplicaID()
        let operations = ServerTests.operations(2, of: replica)
        #expect(try await pushing.push(operations, from: replica).status == 200)
        let woken = try await poll
        #expect(start.duration(to: clock.now) < .seconds(5), "woken by the push, not by the time running out")
        #expect(woken.status == 200)
        #expect(try OperationFile.decode(woken.body).operations.map(\.id) == operations.map(\.id))
    }

    @Test("Polls woken by one push share their reads only with polls that ask for the same page")
    func wokenPollsShareReads() async throws {
        let fixture = try ServerFixture()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 50
        let client = RawClient(server: try fixture.startServer(), token: try fixture.user("alice"), session: URLSession(configuration: configuration))
        let head = try await client.head()
        // Half of them ask for one operation a page, half for all of them.
        let polls = Task {
            try await withThrowingTaskGroup(of: (limit: Int, answer: RawClient.Answer).self) { group in
                for index in 0..<40 {
                    let limit = index.isMultiple(of: 2) ? 1 : 500
                    group.addTask { (limit, try await client.send("GET", SyncProtocol.operationsPath, query: "after=\(head.rawValue)&limit=\(limit)&wait=20")) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        try await Task.sleep(for: .seconds(1))
        let replica = ReplicaID()
        let operations = ServerTests.operations(3, of: replica)
        #expect(try await client.push(operations, from: replica).status == 200)
        let answers = try await polls.value
        #expect(answers.count == 40)
        for (limit, answer) in answers {
            #expect(answer.status == 200)
            let page = try OperationFile.decode(answer.body)
            #expect(page.operations.map(\.id) == operations.prefix(limit).map(\.id), "limit \(limit)")
            #expect(page.isComplete == (limit > 1), "limit \(limit)")
        }
    }

    @Test("Past the cap on waiting polls, a poll gets 429 with Retry-After")
    func waitingPollCap() async throws {
        let fixture = try ServerFixture()
        let client = RawClient(server: try fixture.startServer(["--waiting-polls", "1"]), token: try fixture.user("alice"))
        let head = try await client.head()
        async let first = client.send("GET", SyncProtocol.operationsPath, query: "after=\(head.rawValue)&wait=20")
        try await Task.sleep(for: .milliseconds(500))
        let second = try await client.send("GET", SyncProtocol.operationsPath, query: "after=\(head.rawValue)&wait=20")
        #expect(second.status == 429 && second.refusal?.code == .rateLimited && second.headers["retry-after"] != nil)
        let replica = ReplicaID()
        #expect(try await client.push(ServerTests.operations(1, of: replica), from: replica).status == 200)
        #expect(try await first.status == 200)
    }

    @Test("A process opens no more connections to PostgreSQL than --database-connections, and refuses 0")
    func connectionCap() async throws {
        let fixture = try ServerFixture()
        let client = RawClient(server: try fixture.startServer(["--database-connections", "2"]), token: try fixture.user("alice"))
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<12 { group.addTask { try await client.send("GET", SyncProtocol.statePath).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 12))
        let open = try fixture.value(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'arrange-server'")
        #expect(Int(open).map { (1...2).contains($0) } == true, "\(open) connections")
        #expect(throws: ServerTestSetup.self) { try fixture.run(["serve", "--database-connections", "0"]) }
    }

    @Test("A device over its rate gets 429 with Retry-After; another device goes on")
    func rateLimit() async throws {
        let fixture = try ServerFixture()
        let server = try fixture.startServer(["--token-rate", "1"])
        let (alice, bob) = (RawClient(server: server, token: try fixture.user("alice")), RawClient(server: server, token: try fixture.user("bob")))
        var answers: [RawClient.Answer] = []
        for _ in 0..<6 { answers.append(try await alice.send("GET", SyncProtocol.statePath)) }
        let limited = try #require(answers.first { $0.status == 429 }, "\(answers.map(\.status))")
        #expect(limited.refusal?.code == .rateLimited)
        #expect(limited.headers["retry-after"].flatMap { Int($0) }.map { $0 >= 1 } == true)
        #expect(answers.prefix(3).allSatisfy { $0.status == 200 }, "a burst of 3 goes through")
        #expect(try await bob.send("GET", SyncProtocol.statePath).status == 200)
    }

    @Test("A limit or a wait that is not a whole number in its range gets 400")
    func badParameters() async throws {
        let fixture = try ServerFixture()
        let client = RawClient(server: try fixture.startServer(), token: try fixture.user("alice"))
        for query in ["limit=0", "limit=many", "wait=-1", "wait=1.5", "wait=26"] {
            let answer = try await client.send("GET", SyncProtocol.operationsPath, query: query)
            #expect(answer.status == 400 && answer.refusal?.code == .invalidBody, "\(query): \(answer.status)")
        }
    }

    @Test("PostgreSQL stopped at once under load: 503 within 1 s while it is down, none past 10 s, back within 5 s, nothing acknowledged lost")
    func databaseRestart() async throws {
        let fixture = try ServerFixture()
        let client = RawClient(server: try fixture.startServer(), token: try fixture.user("alice"))
        let clock = ContinuousClock()
        let start = clock.now
        let record = LoadRecord()

        // Four devices push one operation a request, and send it again until it is taken. They
        // stop once a push sent after the restart is taken, and at the latest after 120 s: how
        // long PostgreSQL takes to restart depends on the machine's load, not on the server.
        async let load: Void = withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let replica = ReplicaID()
                    var sequence: Int64 = 1
                    while !record.isTakenAfterRestart, start.duration(to: clock.now) < .seconds(120) {
                        let operations = ServerTests.operations(1, of: replica, from: sequence)
                        let sent = clock.now
                        let answer = try await client.push(operations, from: replica)
                        record.exchanges.withLock { $0.append(Exchange(sent: sent, answered: clock.now, status: answer.status)) }
                        if answer.status == 200 {
                            record.acknowledged.withLock { $0.append(contentsOf: operations.map(\.id)) }
                            record.noteTaken(sent: sent)
                            sequence += 1
                        } else {
                            try await Task.sleep(for: .milliseconds(50))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }

        try await Task.sleep(for: .seconds(2))
        try await ServerFixture.clusterInBackground(["stop", "-m", "immediate"])
        let stopped = clock.now
        try await Task.sleep(for: .milliseconds(300))
        let healthSent = clock.now
        let health = try await RawClient(server: client.server, token: nil).send("GET", SyncProtocol.healthPath)
        #expect(health.status == 503 && healthSent.duration(to: clock.now) < .seconds(1))
        try await Task.sleep(for: .seconds(2))
        let restarting = clock.now
        try await ServerFixture.clusterInBackground(["start"])
        let started = clock.now
        record.restarted.withLock { $0 = started }
        try await load

        let all = record.exchanges.withLock { $0 }
        #expect(all.allSatisfy { $0.sent.duration(to: $0.answered) < .seconds(10) }, "no request hangs")
        let whileDown = all.filter { $0.sent > stopped + .milliseconds(300) && $0.answered < restarting }
        #expect(!whileDown.isEmpty)
        for exchange in whileDown {
            #expect(exchange.status == 503 && exchange.sent.duration(to: exchange.answered) < .seconds(1), "\(exchange)")
        }
        let firstTaken = try #require(all.filter { $0.sent > started && $0.status == 200 }.map(\.answered).min(), "pushes were taken again within 120 s")
        #expect(started.duration(to: firstTaken) < .seconds(5))

        let held = try await client.everyOperationID(waitingForDatabase: .seconds(10))
        let taken = record.acknowledged.withLock { $0 }
        #expect(Set(taken).isSubset(of: Set(held)), "every push answered 200 is kept")
        #expect(held.count == Set(held).count, "none is stored twice")
    }

    /// What the load's clients saw.
    final class LoadRecord: Sendable {
        /// The operations of every push answered 200.
        let acknowledged = Mutex<[SyncOperation.ID]>([])
        let exchanges = Mutex<[Exchange]>([])
        /// When PostgreSQL was up again, once it was.
        let restarted = Mutex<ContinuousClock.Instant?>(nil)
        /// Whether a push sent after the restart was taken.
        private let takenAfterRestart = Atomic<Bool>(false)

        var isTakenAfterRestart: Bool { takenAfterRestart.load(ordering: .relaxed) }

        /// Notes that a push sent at `sent` was taken.
        func noteTaken(sent: ContinuousClock.Instant) {
            if let restarted = restarted.withLock({ $0 }), sent > restarted { takenAfterRestart.store(true, ordering: .relaxed) }
        }
    }

    /// A request of the load, as its client saw it.
    struct Exchange: Sendable, CustomStringConvertible {
        var sent: ContinuousClock.Instant
        var answered: ContinuousClock.Instant
        var status: Int

        var description: String { "\(status) after \(sent.duration(to: answered))" }
    }
}

extension RawClient {
    /// The cursor after the newest operation the server holds.
    func head() async throws -> SyncCursor {
        try JSONDecoder().decode(SyncServerState.self, from: try await send("GET", SyncProtocol.statePath).body).head
    }

    /// The id of every operation the server holds, in its order.
    ///
    /// - Parameter waitingForDatabase: How long a page may be answered 503, while the server
    ///   connects to PostgreSQL again, before the read fails; by default not at all.
    func everyOperationID(waitingForDatabase patience: Duration = .zero) async throws -> [SyncOperation.ID] {
        let deadline = ContinuousClock.now + patience
        var ids: [SyncOperation.ID] = []
        var cursor: String?
        while true {
            let answer = try await send("GET", SyncProtocol.operationsPath, query: cursor.map { "after=\($0)" })
            if answer.status == 503, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                continue
            }
            // A refusal is JSON of one line, which would read as a file cut short.
            try #require(answer.status == 200, "the operations' page was answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
            let page = try OperationFile.decode(answer.body)
            ids += page.operations.map(\.id)
            if page.isComplete == true || page.operations.isEmpty { return ids }
            cursor = page.cursor?.rawValue
        }
    }
}
