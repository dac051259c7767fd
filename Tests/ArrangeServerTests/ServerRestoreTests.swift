import ArrangeModel
import ArrangeSync
import ArrangeSyncHTTP
import Foundation
import Testing

@Suite("arrange-server restored from a backup")
struct ServerRestoreTests {
    @Test(
        "After the server's database is restored from a backup, marked restored or not, devices converge again with all they held",
        arguments: [false, true])
    func restoredServer(markedRestored: Bool) async throws {
        let fixture = try ServerFixture()
        let token = try fixture.user("alice")
        let options = ["--fold-every", "10"]
        let server = try fixture.startServer(options)
        let port = try #require(server.port)
        let remote = HTTPSyncRemote(server: server, token: token)
        try await withTemporaryFolder { folder in
            let (laptop, phone) = try (
                ServerDevice(folder.appendingPathComponent("laptop.sqlite").path), ServerDevice(folder.appendingPathComponent("phone.sqlite").path))
            var random = SeededRandomNumberGenerator(seed: markedRestored ? 31 : 30)
            func rounds(_ count: Int) async throws {
                for _ in 0..<count {
                    for device in [laptop, phone] {
                        for _ in 0..<3 { try device.change(using: &random) }
                        _ = try await device.engine.sync(with: remote)
                    }
                }
            }
            /// A device of its own token that syncs once, then is revoked: the next fold retires it,
            /// and the server's replica logs that.
            func retireADevice(_ name: String) async throws {
                let own = try fixture.run(["token", "create", "--user", "alice", "--label", name]).trimmingCharacters(in: .whitespacesAndNewlines)
                let device = try ServerDevice(folder.appendingPathComponent("\(name).sqlite").path)
                try device.change(using: &random)
                _ = try await device.engine.sync(with: HTTPSyncRemote(server: server, token: own))
                let id = try #require(try fixture.run(["token", "list", "--user", "alice"]).split(separator: "\n")
                    .first { $0.contains(name) }?.split(separator: " ").first.map(String.init))
                try fixture.run(["token", "revoke", id])
                #expect(try fixture.run(["fold", "--user", "alice"]).contains("Retired 1 replicas"))
            }
            try await rounds(2)
            try await retireADevice("old")
            try await rounds(2)
            let backup = folder.appendingPathComponent("backup.dump")
            try fixture.backUp(to: backup)
            // After the backup: more changes, and a retirement, which the restored server lacks.
            try await rounds(2)
            try await retireADevice("spare")
            try await rounds(2)
            for device in [laptop, phone, laptop] { _ = try await device.engine.sync(with: remote) }
            let held = try laptop.dump()
            #expect(try phone.dump() == held)

            let serverReplica = try fixture.value("SELECT replica FROM folds")
            fixture.stopServers()
            try fixture.restore(from: backup)
            if markedRestored { try fixture.run(["restored"]) }
            _ = try fixture.startServer(options + ["--port", String(port)])

            // The laptop adds before it syncs, enough that the log grows past where the phone's
            // cursor was: the phone must still pull what takes those positions now.
            let added = (0..<20).map { _ in Item.ID() }
            for (index, id) in added.enumerated() {
                _ = try laptop.engine.perform(.addItem(
                    id: id, list: ItemList.firstDefaultListID, title: "after the restore \(index)", notes: "", place: SyncPlace(after: nil, before: nil)))
            }
            for device in [laptop, phone, laptop, phone] { _ = try await device.engine.sync(with: remote) }
            // The server's replica, restored behind what it had made, left its id for a new one, and retired it.
            try fixture.run(["fold", "--user", "alice"])
            for device in [laptop, phone, laptop] { _ = try await device.engine.sync(with: remote) }
            #expect(try fixture.value("SELECT replica FROM folds") != serverReplica)
            #expect(try await phone.engine.replicas().contains { $0.id.rawValue.uuidString.lowercased() == serverReplica && $0.isForgotten })
            let (laptopAfter, phoneAfter) = (try laptop.dump(), try phone.dump())
            #expect(laptopAfter == phoneAfter, "\(laptopAfter)\n\(phoneAfter)")
            #expect(Set(held).isSubset(of: Set(phoneAfter)) && phoneAfter.count == held.count + added.count, "nothing either device held is lost")
            #expect(Set(added).isSubset(of: Set(try phone.items().map(\.id))))
            #expect(try await phone.holdsWhatTheServerHolds(remote))
        }
    }

    @Test("Restored without being marked, a log that took other operations where a cursor points refuses that cursor")
    func reusedPositions() async throws {
        let fixture = try ServerFixture()
        let client = RawClient(server: try fixture.startServer(), token: try fixture.user("alice"))
        let (first, second) = (ReplicaID(), ReplicaID())
        #expect(try await client.push(ServerTests.operations(3, of: first), from: first).status == 200)
        try await withTemporaryFolder { folder in
            let backup = folder.appendingPathComponent("backup.dump")
            try fixture.backUp(to: backup)
            #expect(try await client.push(ServerTests.operations(3, of: first, from: 4), from: first).status == 200)
            let cursor = try #require(try OperationFile.decode(try await client.send("GET", SyncProtocol.operationsPath).body).cursor)
            try fixture.restore(from: backup)
            // Another device pushes first: its operations take positions 4 to 6.
            #expect(try await client.push(ServerTests.operations(3, of: second), from: second).status == 200)
            let refused = try await client.send("GET", SyncProtocol.operationsPath, query: "after=\(cursor.rawValue)")
            #expect(refused.status == 409 && refused.refusal?.code == .cursorInvalid, "\(refused.status) \(String(decoding: refused.body, as: UTF8.self))")
            let fresh = try #require(try OperationFile.decode(try await client.send("GET", SyncProtocol.operationsPath).body).cursor)
            #expect(try await client.send("GET", SyncProtocol.operationsPath, query: "after=\(fresh.rawValue)").status == 200)
        }
    }
}
