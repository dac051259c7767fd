import ArrangeModel
import ArrangeSync
import ArrangeSyncHTTP
import Foundation
import Testing

@Suite("Copied and restored devices through arrange-server")
struct ServerCopiedDeviceTests {
    @Test(
        "A database copied to a new device with a token of its own, or restored from a backup on the same one, syncs on: every change of both reaches both",
        arguments: [true, false])
    func copiedDevice(withItsOwnToken: Bool) async throws {
        let fixture = try ServerFixture()
        let token = try fixture.user("alice")
        let server = try fixture.startServer()
        try await withTemporaryFolder { folder in
            let (phonePath, copyPath) = (folder.appendingPathComponent("phone.sqlite").path, folder.appendingPathComponent("copy.sqlite").path)
            let (phone, laptop) = try (ServerDevice(phonePath), ServerDevice(folder.appendingPathComponent("laptop.sqlite").path))
            var random = SeededRandomNumberGenerator(seed: withItsOwnToken ? 50 : 51)
            for _ in 0..<3 {
                for device in [phone, laptop] {
                    for _ in 0..<3 { try device.change(using: &random) }
                    _ = try await device.engine.sync(with: HTTPSyncRemote(server: server, token: token))
                }
            }
            // The copy: the file as it is now, with the phone going on beside it.
            for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: phonePath + suffix) {
                try FileManager.default.copyItem(atPath: phonePath + suffix, toPath: copyPath + suffix)
            }
            let copy = try ServerDevice(copyPath)
            let copyToken = withItsOwnToken
                ? try fixture.run(["token", "create", "--user", "alice", "--label", "new phone"]).trimmingCharacters(in: .whitespacesAndNewlines) : token
            var added: [Item.ID] = []
            for (device, title) in [(phone, "on the phone"), (copy, "on the copy"), (laptop, "on the laptop")] {
                let id = Item.ID()
                added.append(id)
                _ = try device.engine.perform(.addItem(id: id, list: ItemList.firstDefaultListID, title: title, notes: "", place: SyncPlace(after: nil, before: nil)))
            }
            let tokens = [(copy, copyToken), (phone, token), (laptop, token)]
            for _ in 0..<3 {
                for (device, own) in tokens { _ = try await device.engine.sync(with: HTTPSyncRemote(server: server, token: own)) }
            }
            let dumps = try [phone, copy, laptop].map { try $0.dump() }
            #expect(dumps.allSatisfy { $0 == dumps[0] }, "\(dumps)")
            #expect(Set(added).isSubset(of: Set(try laptop.items().map(\.id))), "every device's change reached the others")
            let ids = try await [phone, copy].asyncMap { try await $0.engine.replicas().first(where: \.isThisDatabase)?.id }
            #expect(ids[0] != ids[1], "the two databases sync under replica ids of their own")
            #expect(try await laptop.holdsWhatTheServerHolds(HTTPSyncRemote(server: server, token: token)))
        }
    }
}

extension Array {
    /// The values `transform` gives for the elements, in order, each awaited in turn.
    func asyncMap<Value>(_ transform: (Element) async throws -> Value) async rethrows -> [Value] {
        var values: [Value] = []
        for element in self { values.append(try await transform(element)) }
        return values
    }
}
