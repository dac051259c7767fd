import ArrangeModel
import ArrangeSync
import ArrangeSyncHTTP
import Foundation
import Testing

@Suite("arrange-server folds each user's log")
struct ServerFoldTests {
    @Test("Under steady use from three devices, folds keep the log short, and every device ends with the server's digest")
    func boundedLog() async throws {
        let fixture = try ServerFixture()
        let token = try fixture.user("alice")
        let server = try fixture.startServer(["--fold-every", "20"])
        try await withTemporaryFolder { folder in
            let devices = try (0..<3).map { try ServerDevice(folder.appendingPathComponent("device\($0).sqlite").path) }
            var random = SeededRandomNumberGenerator(seed: 7)
            var longest = 0
            for _ in 0..<40 {
                for device in devices {
                    for _ in 0..<2 { try device.change(using: &random) }
                    _ = try await device.engine.sync(with: HTTPSyncRemote(server: server, token: token))
                }
                longest = max(longest, Int(try fixture.value("SELECT count(*) FROM operations")) ?? .max)
            }
            let made = Int(try fixture.value("SELECT head FROM logs")) ?? 0
            #expect(made >= 240, "every change reached the log")
            #expect(longest <= 60, "the log stayed short: at most \(longest) of \(made) operations at once")
            #expect(Int(try fixture.value("SELECT folded_count FROM folds")) ?? 0 >= made - longest, "the rest were folded")

            for device in devices + devices { _ = try await device.engine.sync(with: HTTPSyncRemote(server: server, token: token)) }
            let dumps = try devices.map { try $0.dump() }
            #expect(!dumps[0].isEmpty && dumps.allSatisfy { $0 == dumps[0] }, "\(dumps)")
            for device in devices {
                #expect(try await device.holdsWhatTheServerHolds(HTTPSyncRemote(server: server, token: token)))
            }
        }
    }

    @Test("A revoked device and one unseen too long are retired; the one that returns takes the snapshot, and nothing it made is lost")
    func retiredDeviceReturns() async throws {
        let fixture = try ServerFixture()
        let token = try fixture.user("alice")
        let server = try fixture.startServer(["--fold-every", "0"])
        let remote = HTTPSyncRemote(server: server, token: token)
        try await withTemporaryFolder { folder in
            let (laptop, phone, tablet) = try (
                ServerDevice(folder.appendingPathComponent("laptop.sqlite").path), ServerDevice(folder.appendingPathComponent("phone.sqlite").path),
                ServerDevice(folder.appendingPathComponent("tablet.sqlite").path))
            let lostToken = try fixture.run(["token", "create", "--user", "alice", "--label", "lost"]).trimmingCharacters(in: .whitespacesAndNewlines)
            let lost = try ServerDevice(folder.appendingPathComponent("lost.sqlite").path)
            var random = SeededRandomNumberGenerator(seed: 11)
            for _ in 0..<2 {
                for device in [laptop, phone, tablet] {
                    try device.change(using: &random)
                    _ = try await device.engine.sync(with: remote)
                }
            }
            // The tablet goes offline with a change of its own, and stays unseen.
            let kept = Item.ID()
            _ = try tablet.engine.perform(.addItem(
                id: kept, list: ItemList.firstDefaultListID, title: "made offline", notes: "", place: SyncPlace(after: nil, before: nil)))
            try await Task.sleep(for: .seconds(3))
            // The others go on; the lost phone syncs once more, then its token is revoked.
            for _ in 0..<2 {
                for device in [laptop, phone] {
                    for _ in 0..<5 { try device.change(using: &random) }
                    _ = try await device.engine.sync(with: remote)
                }
            }
            _ = try await lost.engine.sync(with: HTTPSyncRemote(server: server, token: lostToken))
            let lostTokenID = try #require(try fixture.run(["token", "list", "--user", "alice"]).split(separator: "\n")
                .first { $0.contains("lost") }?.split(separator: " ").first.map(String.init))
            try fixture.run(["token", "revoke", lostTokenID])

            let before = Int(try fixture.value("SELECT count(*) FROM operations")) ?? 0
            // Unseen for 2 s is too long here.
            let folded = try fixture.run(["fold", "--user", "alice", "--retire-after-days", "0.0000231"])
            let tabletID = try #require(try await tablet.engine.replicas().first(where: \.isThisDatabase)?.id.rawValue.uuidString.lowercased())
            let lostID = try #require(try await lost.engine.replicas().first(where: \.isThisDatabase)?.id.rawValue.uuidString.lowercased())
            #expect(folded.contains("Retired 2 replicas") && folded.contains(tabletID) && folded.contains(lostID), "\(folded)")
            let after = Int(try fixture.value("SELECT count(*) FROM operations")) ?? .max
            #expect(after < before, "the fold deleted operations: \(before) before, \(after) after")

            // A device with a cursor from before the fold, and nothing acknowledged past it, is told to take the snapshot.
            let newcomer = RawClient(server: server, token: try fixture.run(["token", "create", "--user", "alice"]).trimmingCharacters(in: .whitespacesAndNewlines))
            let refused = try await newcomer.send("GET", SyncProtocol.operationsPath)
            #expect(refused.status == 410 && refused.refusal?.code == .snapshotRequired, "\(refused.status) \(String(decoding: refused.body, as: UTF8.self))")

            let returned = try await tablet.engine.sync(with: remote)
            #expect(returned.adoption != nil, "the tablet took the snapshot")
            for device in [tablet, laptop, phone, tablet, laptop, phone] { _ = try await device.engine.sync(with: remote) }
            let dumps = try [laptop, phone, tablet].map { try $0.dump() }
            #expect(dumps.allSatisfy { $0 == dumps[0] }, "\(dumps)")
            #expect(try laptop.items().contains { $0.id == kept }, "the tablet's offline change reached the others")
            #expect(try await tablet.holdsWhatTheServerHolds(remote))
        }
    }

    @Test("A device that holds what was folded pulls past it at once, long poll or not")
    func pullPastFold() async throws {
        let fixture = try ServerFixture()
        let token = try fixture.user("alice")
        let server = try fixture.startServer(["--fold-every", "0"])
        try await withTemporaryFolder { folder in
            let device = try ServerDevice(folder.appendingPathComponent("device.sqlite").path)
            var random = SeededRandomNumberGenerator(seed: 5)
            for _ in 0..<5 { try device.change(using: &random) }
            _ = try await device.engine.sync(with: HTTPSyncRemote(server: server, token: token))
        }
        // The only device holds every operation: the fold takes them all.
        #expect(try fixture.run(["fold", "--user", "alice"]).hasPrefix("Folded"))
        #expect(try fixture.value("SELECT count(*) FROM operations") == "0")
        let head = try fixture.value("SELECT head FROM logs")
        let client = RawClient(server: server, token: token)
        let started = ContinuousClock.now
        for query in [nil, "wait=5"] {
            let answer = try await client.send("GET", SyncProtocol.operationsPath, query: query)
            let page = try OperationFile.decode(answer.body)
            #expect(answer.status == 200 && page.operations.isEmpty && page.isComplete == true)
            #expect(page.cursor?.rawValue.hasSuffix(":\(head)") == true, "\(String(describing: page.cursor)) is past the head, \(head)")
        }
        #expect(ContinuousClock.now - started < .seconds(3), "the long poll did not wait")
    }

    @Test("arrange-server fold names the user it folds, and refuses one that does not exist")
    func foldCommand() throws {
        let fixture = try ServerFixture()
        _ = try fixture.user("alice")
        let output = try fixture.run(["fold", "--user", "alice"])
        #expect(output.hasPrefix("Folded 0 operations of alice's log away"), "\(output)")
        #expect(throws: ServerTestSetup.self) { try fixture.run(["fold", "--user", "nobody"]) }
        #expect(throws: ServerTestSetup.self) { try fixture.run(["fold", "--user", "alice", "--retire-after-days", "-1"]) }
    }
}
