import ArrangeModel
import ArrangeSQLite
import ArrangeStore
import ArrangeSync
import ArrangeSyncHTTP
@testable import ArrangeSyncHTTPCore
import Foundation
import Testing

/// A device for the server tests: a SQLite database of its own, and the engine on it.
struct ServerDevice {
    let engine: SyncEngine

    /// A device on the database at `path`, whose system clock is `wallClock`.
    init(_ path: String, wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMilliseconds) throws {
        engine = SyncEngine(repository: try SQLiteItemRepository(path: path), wallClock: wallClock)
    }

    func items() throws -> [Item] {
        try engine.repository.read { try $0.items(in: ItemList.firstDefaultListID, visibility: .all, offset: 0, limit: .max) }
    }

    /// The rows that sync decides: every item's id, title and key, in order.
    func dump() throws -> [String] {
        try items().map { "\($0.id) \($0.title) \($0.sortIndex)" }
    }

    /// Whether this device holds exactly what the server's log makes: its digest is the server's.
    func holdsWhatTheServerHolds(_ remote: HTTPSyncRemote) async throws -> Bool {
        try await engine.snapshot().stateDigest == remote.stateDigest().digest
    }

    /// One random change: adds an item, renames, moves or deletes one.
    func change(using random: inout SeededRandomNumberGenerator) throws {
        let items = try items()
        let anchor = items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)].id.entryID
        let place = SyncPlace(after: anchor, before: nil)
        let number = Int.random(in: 0..<1_000, using: &random)
        let choice = items.isEmpty ? 3 : Int.random(in: 0..<6, using: &random)
        let item = items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)].id
        switch (choice, item) {
        case (0, let id?): _ = try engine.perform(.editItem(id: id, title: "renamed \(number)", notes: nil))
        case (1, let id?): _ = try engine.perform(.deleteItems(ids: [id]))
        case (2, let id?): _ = try engine.perform(.moveItems(ids: [id], list: ItemList.firstDefaultListID, place: place))
        default: _ = try engine.perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: "item \(number)", notes: "", place: place))
        }
    }
}

@Suite("arrange-server: devices sync through PostgreSQL")
struct ServerTests {
    @Test("Devices that change their lists and sync through two server processes that fold, in any order, end identical, with the server's digest")
    func convergence() async throws {
        let fixture = try ServerFixture()
        let token = try fixture.user("alice")
        let servers = [try fixture.startServer(["--fold-every", "10"]), try fixture.startServer(["--fold-every", "10"])]
        try await withTemporaryFolder { folder in
            let devices = try (0..<4).map { try ServerDevice(folder.appendingPathComponent("device\($0).sqlite").path) }
            var random = SeededRandomNumberGenerator(seed: 20)
            for _ in 0..<60 {
                let device = devices[Int.random(in: 0..<devices.count, using: &random)]
                if Bool.random(using: &random) {
                    try device.change(using: &random)
                } else {
                    let server = servers[Int.random(in: 0..<servers.count, using: &random)]
                    _ = try await device.engine.sync(with: HTTPSyncRemote(server: server, token: token))
                }
            }
            // Two rounds reach everyone with everything.
            for _ in 0..<2 {
                for (index, device) in devices.enumerated() {
                    _ = try await device.engine.sync(with: HTTPSyncRemote(server: servers[index % 2], token: token))
                }
            }
            let dumps = try devices.map { try $0.dump() }
            #expect(!dumps[0].isEmpty, "the devices made items")
            #expect(dumps.allSatisfy { $0 == dumps[0] }, "\(dumps)")
            for device in devices {
                #expect(try await device.holdsWhatTheServerHolds(HTTPSyncRemote(server: servers[0], token: token)))
            }
        }
    }

    @Test("Operations over the limits of one request are pushed in several, and all arrive")
    func largePush() async throws {
        let fixture = try ServerFixture()
        let server = try fixture.startServer()
        let token = try fixture.user("alice")
        try await withTemporaryFolder { folder in
            let (laptop, phone) = (try ServerDevice(folder.appendingPathComponent("laptop.sqlite").path), try ServerDevice(folder.appendingPathComponent("phone.sqlite").path))
            let notes = String(repeating: "n", count: 9_000)
            for index in 0..<150 {
                _ = try laptop.engine.perform(.addItem(
                    id: Item.ID(), list: ItemList.firstDefaultListID, title: "item \(index)", notes: notes, place: SyncPlace(after: nil, before: nil)))
            }
            let batches = try HTTPSyncRemote.batches(of: try await laptop.engine.operations(after: 0).operations)
            #expect(batches.count > 1, "over 1 MiB in all")
            let sent = try await laptop.engine.sync(with: HTTPSyncRemote(server: server, token: token))
            #expect(sent.pushed >= 150)
            _ = try await phone.engine.sync(with: HTTPSyncRemote(server: server, token: token))
            #expect(try phone.dump() == laptop.dump())
        }
    }

    @Test("A push sent twice is stored once, and gets the same answer")
    func idempotentPush() async throws {
        let fixture = try ServerFixture()
        let client = RawClient(server: try fixture.startServer(), token: try fixture.user("alice"))
        let replica = ReplicaID()
        let operations = Self.operations(3, of: replica)
        let first = try await client.push(operations, from: replica)
        let second = try await client.push(operations, from: replica)
        #expect(first.status == 200 && second.status == 200, "\(String(decoding: second.body, as: UTF8.self))")
        #expect(first.body == second.body)
        let page = try OperationFile.decode(try await client.send("GET", SyncProtocol.operationsPath).body)
        #expect(page.operations.map(\.id) == operations.map(\.id))
    }

    @Test("Each user has a log of their own; no token, a wrong one or a revoked one gets 401")
    func isolation() async throws {
        let fixture = try ServerFixture()
        let server = try fixture.startServer()
        let alice = RawClient(server: server, token: try fixture.user("alice"))
        let bob = RawClient(server: server, token: try fixture.user("bob"))
        let replica = ReplicaID()
        #expect(try await alice.push(Self.operations(2, of: replica), from: replica).status == 200)
        let bobsPage = try OperationFile.decode(try await bob.send("GET", SyncProtocol.operationsPath).body)
        #expect(bobsPage.operations.isEmpty, "bob sees none of alice's operations")
        #expect(try await bob.push(Self.operations(2, of: replica), from: replica).status == 200, "bob's own copies of the same ids")

        for client in [RawClient(server: server, token: nil), RawClient(server: server, token: "not-a-token")] {
            let answer = try await client.send("GET", SyncProtocol.statePath)
            #expect(answer.status == 401 && answer.refusal?.code == .unauthorized)
        }
        let listed = try fixture.run(["token", "list", "--user", "alice"])
        let tokenID = try #require(listed.split(separator: " ").first.map(String.init))
        try fixture.run(["token", "revoke", tokenID])
        #expect(try await alice.send("GET", SyncProtocol.statePath).status == 401, "a revoked token")
        #expect(!listed.contains(try #require(alice.token)), "token list never shows a token")
    }

    @Test("A pairing code gives one token, once; a wrong code gets 401")
    func pairing() async throws {
        let fixture = try ServerFixture()
        let server = try fixture.startServer()
        _ = try fixture.user("alice")
        let code = try fixture.run(["pair", "--user", "alice"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let token = try await HTTPSyncRemote.pair(with: server, code: code.lowercased(), label: "phone")
        #expect(try await RawClient(server: server, token: token.token).send("GET", SyncProtocol.statePath).status == 200)
        await #expect(throws: SyncServerError.self, "a code works once") { try await HTTPSyncRemote.pair(with: server, code: code) }
        let wrong = try await RawClient(server: server, token: nil).send(
            "POST", SyncProtocol.pairPath, body: Data(#"{"code":"0000-0000"}"#.utf8), contentType: SyncProtocol.jsonMediaType)
        #expect(wrong.status == 401 && wrong.refusal?.code == .unauthorized)
        #expect(try fixture.run(["token", "list", "--user", "alice"]).contains("phone"))
    }

    @Test("What the server refuses, it refuses whole, with the code of the protocol")
    func refusals() async throws {
        let fixture = try ServerFixture()
        let client = RawClient(server: try fixture.startServer(), token: try fixture.user("alice"))
        let replica = ReplicaID()
        let good = try OperationFile.encode(OperationFile.Contents(
            operations: Self.operations(2, of: replica), replica: replica, through: SyncCursor(rawValue: "2")))
        func push(_ body: Data, contentType: String = SyncProtocol.operationsMediaType) async throws -> RawClient.Answer {
            try await client.send("POST", SyncProtocol.pushPath, body: body, contentType: contentType)
        }
        var cut = good
        cut.removeLast(10)
        let cases: [(String, Data, SyncServerError.Code)] = [
            ("cut short", cut, .invalidBody),
            ("without its trailer", Data(good.split(separator: UInt8(ascii: "\n")).dropLast().map { Data($0) + Data("\n".utf8) }.joined()), .invalidBody),
            ("invalid UTF-8", Data([0xFF, 0xFE, 0x0A]), .invalidBody),
            ("deeply nested", Data((String(repeating: "[", count: 10_000) + "\n").utf8), .invalidBody),
            ("over 1 MiB", Data(repeating: UInt8(ascii: " "), count: 10 << 20), .payloadTooLarge),
            ("without its replica", try OperationFile.encode(OperationFile.Contents(operations: Self.operations(1, of: replica))), .invalidBody),
        ]
        for (name, body, code) in cases {
            let answer = try await push(body)
            #expect(answer.refusal?.code == code && answer.status == code.status, "\(name): \(answer.status) \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
        }
        #expect(try await push(good, contentType: "text/plain").refusal?.code == .unsupportedMediaType)

        var invalid = Self.operations(3, of: replica)
        invalid[1].sequence = 0
        let refused = try await client.push(invalid, from: replica)
        #expect(refused.status == 422 && refused.refusal?.code == .invalidOperation && refused.refusal?.index == 1, "\(String(decoding: refused.body, as: UTF8.self))")

        var ahead = Self.operations(2, of: replica)
        ahead[1].clock = HLCTimestamp(milliseconds: HybridLogicalClock.systemMilliseconds() + 3_600_000, counter: 0)
        let skewed = try await client.push(ahead, from: replica)
        #expect(skewed.status == 409 && skewed.refusal?.code == .clockSkew && skewed.refusal?.index == 1 && skewed.refusal?.serverTime != nil)

        let tooMany = Self.operations(SyncProtocol.maximumOperationsPerPush + 1, of: replica)
        #expect(try await client.push(tooMany, from: replica).refusal?.code == .payloadTooLarge)

        // Nothing of any of these was stored.
        let page = try OperationFile.decode(try await client.send("GET", SyncProtocol.operationsPath).body)
        #expect(page.operations.isEmpty)

        let stored = Self.operations(2, of: replica)
        #expect(try await client.push(stored, from: replica).status == 200)
        var conflicting = stored
        conflicting[1].change = .editItem(id: Item.ID(), title: "another body", notes: nil)
        let conflict = try await client.push(conflicting, from: replica)
        #expect(conflict.status == 409 && conflict.refusal?.code == .operationConflict && conflict.refusal?.index == 1, "\(conflict.status) \(String(decoding: conflict.body, as: UTF8.self))")
        // An id the log holds, reused under a number the log holds nothing at: the insert's
        // uniqueness refuses it, and the answer still names the operation.
        var reused = Self.operations(2, of: replica, from: 3)
        reused[1].id = stored[0].id
        let reuse = try await client.push(reused, from: replica)
        #expect(reuse.status == 409 && reuse.refusal?.code == .operationConflict && reuse.refusal?.index == 1, "\(reuse.status) \(String(decoding: reuse.body, as: UTF8.self))")
        #expect(try OperationFile.decode(try await client.send("GET", SyncProtocol.operationsPath).body).operations.map(\.id) == stored.map(\.id))
        var forked = Self.operations(1, of: replica)
        forked[0].sequence = 2
        let fork = try await client.push(forked, from: replica)
        #expect(fork.status == 409 && fork.refusal?.code == .replicaForked && fork.refusal?.index == 0, "\(fork.status) \(String(decoding: fork.body, as: UTF8.self))")

        // Another replica's operation stamped ahead is relayed as it is: only its own device can stamp it again.
        var relayed = Self.operations(1, of: ReplicaID())
        relayed[0].clock = HLCTimestamp(milliseconds: HybridLogicalClock.systemMilliseconds() + 3_600_000, counter: 0)
        #expect(try await client.push(relayed, from: replica).status == 200, "a relayed operation stamped ahead is kept")

        let otherEpoch = try await client.send("GET", SyncProtocol.operationsPath, query: "after=\(UUID().uuidString.lowercased()):1")
        #expect(otherEpoch.status == 409 && otherEpoch.refusal?.code == .cursorInvalid, "\(otherEpoch.status) \(String(decoding: otherEpoch.body, as: UTF8.self))")
        let state = try JSONDecoder().decode(SyncServerState.self, from: try await client.send("GET", SyncProtocol.statePath).body)
        let past = try #require(state.head.rawValue.split(separator: ":").first)
        let pastHead = try await client.send("GET", SyncProtocol.operationsPath, query: "after=\(past):99")
        #expect(pastHead.refusal?.code == .cursorInvalid, "a cursor past the head: the server was restored")
        #expect(try await client.send("GET", "/v1/nothing").refusal?.code == .notFound)
        let wrongMethod = try await client.send("PUT", SyncProtocol.pushPath)
        #expect(wrongMethod.status == 405 && wrongMethod.refusal?.code == .methodNotAllowed && wrongMethod.headers["allow"] == "POST")
    }

    @Test("A snapshot holds what every operation makes, with the cursor to pull after it")
    func snapshot() async throws {
        let fixture = try ServerFixture()
        let server = try fixture.startServer()
        let token = try fixture.user("alice")
        try await withTemporaryFolder { folder in
            let device = try ServerDevice(folder.appendingPathComponent("device.sqlite").path)
            var random = SeededRandomNumberGenerator(seed: 3)
            for _ in 0..<20 { try device.change(using: &random) }
            _ = try await device.engine.sync(with: HTTPSyncRemote(server: server, token: token))
            let taken = try await HTTPSyncRemote(server: server, token: token).snapshot()
            let state = try JSONDecoder().decode(SyncServerState.self, from: try await RawClient(server: server, token: token).send("GET", SyncProtocol.statePath).body)
            #expect(taken.cursor == state.head)
            let titles = Set(taken.snapshot.items.map(\.title))
            #expect(titles == Set(try device.items().map(\.title)), "\(titles)")
        }
    }

    /// `count` operations of `replica` that add items, numbered from `first`.
    static func operations(_ count: Int, of replica: ReplicaID, from first: Int64 = 1) -> [SyncOperation] {
        (first..<first + Int64(count)).map { sequence in
            SyncOperation(
                replica: replica, sequence: Int64(sequence), clock: HLCTimestamp(milliseconds: 1_790_000_000_000 + Int64(sequence), counter: 0),
                change: .addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: "item \(sequence)", notes: "", place: SyncPlace(after: nil, before: nil)))
        }
    }
}

/// Runs `body` with a new temporary folder, then deletes it.
func withTemporaryFolder(_ body: (URL) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arrange-server-test-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try await body(folder)
}
