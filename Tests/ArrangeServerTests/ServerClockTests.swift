import ArrangeModel
import ArrangeSync
import ArrangeSyncHTTP
import Foundation
import Testing

@Suite("Devices whose clocks are wrong, through arrange-server")
struct ServerClockTests {
    static let year: Int64 = 365 * 24 * 3_600 * 1_000

    @Test(
        "A device whose clock is a year ahead or behind tells the time by the server's, across launches: its changes and the others' reach everyone, the later edit wins",
        arguments: [year, -year])
    func wrongClock(off: Int64) async throws {
        let fixture = try ServerFixture()
        let token = try fixture.user("alice")
        let remote = HTTPSyncRemote(server: try fixture.startServer(), token: token)
        try await withTemporaryFolder { folder in
            let phonePath = folder.appendingPathComponent("phone.sqlite").path
            let wrongClock: @Sendable () -> Int64 = { HybridLogicalClock.systemMilliseconds() + off }
            var phone = try ServerDevice(phonePath, wallClock: wrongClock)
            let laptop = try ServerDevice(folder.appendingPathComponent("laptop.sqlite").path)
            let (mine, theirs) = (Item.ID(), Item.ID())
            _ = try phone.engine.perform(.addItem(id: mine, list: ItemList.firstDefaultListID, title: "by the phone", notes: "", place: SyncPlace(after: nil, before: nil)))
            _ = try laptop.engine.perform(.addItem(id: theirs, list: ItemList.firstDefaultListID, title: "by the laptop", notes: "", place: SyncPlace(after: nil, before: nil)))
            _ = try await laptop.engine.sync(with: remote)

            let first = try await phone.engine.sync(with: remote)
            let correction = try #require(first.clockCorrection, "the first sync corrects the phone's clock")
            #expect(abs(correction + off) < SyncEngine.clockTolerance, "by what it is off: \(correction)")
            #expect((first.clockRecovery != nil) == (off > 0), "a clock that ran ahead stamps its changes again")
            #expect(try await phone.engine.sync(with: remote).clockCorrection == nil, "a correction is made once")

            // Relaunched with the same wrong clock, the phone still tells the time by the server's.
            phone = try ServerDevice(phonePath, wallClock: wrongClock)
            _ = try laptop.engine.perform(.editItem(id: mine, title: "renamed on the laptop", notes: nil))
            _ = try await laptop.engine.sync(with: remote)
            _ = try await phone.engine.sync(with: remote)
            try await Task.sleep(for: .milliseconds(5))
            let edit = try phone.engine.perform(.editItem(id: theirs, title: "renamed on the phone", notes: nil))
            #expect(abs(edit.clock.milliseconds - HybridLogicalClock.systemMilliseconds()) < SyncEngine.clockTolerance, "stamped with the right time")
            try await Task.sleep(for: .milliseconds(5))
            _ = try laptop.engine.perform(.editItem(id: theirs, title: "renamed on the laptop last", notes: nil))
            for device in [phone, laptop, phone] { _ = try await device.engine.sync(with: remote) }

            let dumps = try [phone, laptop].map { try $0.dump() }
            #expect(dumps[0] == dumps[1], "\(dumps)")
            let titles = Set(try laptop.items().map(\.title))
            #expect(titles == ["renamed on the laptop", "renamed on the laptop last"], "every change arrived, and the later edit won: \(titles)")
            #expect(try await laptop.holdsWhatTheServerHolds(remote))
        }
    }

    @Test("A push refused as stamped ahead of the server's clock is stamped again and pushed again, by a device that learnt no time before")
    func refusedAsAhead() async throws {
        let fixture = try ServerFixture()
        let token = try fixture.user("alice")
        let remote = HTTPSyncRemote(server: try fixture.startServer(), token: token)
        try await withTemporaryFolder { folder in
            let phone = try ServerDevice(folder.appendingPathComponent("phone.sqlite").path, wallClock: { HybridLogicalClock.systemMilliseconds() + Self.year })
            let laptop = try ServerDevice(folder.appendingPathComponent("laptop.sqlite").path)
            for title in ["one", "two"] {
                _ = try phone.engine.perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: title, notes: "", place: SyncPlace(after: nil, before: nil)))
            }
            let report = try await phone.engine.sync(with: TimelessRemote(remote: remote))
            #expect(report.clockCorrection != nil && (report.clockRecovery?.restated ?? 0) >= 2, "both items, stamped again: \(report)")
            _ = try await laptop.engine.sync(with: remote)
            #expect(try laptop.dump() == phone.dump())
            #expect(Set(try laptop.items().map(\.title)) == ["one", "two"])
        }
    }
}

/// A server that does not tell the time: its state carries no clock, so a device learns it only
/// from a refused push.
struct TimelessRemote: SyncRemote {
    let remote: HTTPSyncRemote

    var identity: String { remote.identity }

    func state(for replica: ReplicaID) async throws -> SyncRemoteState {
        var state = try await remote.state(for: replica)
        state.clock = nil
        return state
    }

    func pull(after cursor: SyncCursor?, limit: Int) async throws -> SyncPage {
        try await remote.pull(after: cursor, limit: limit)
    }

    func push(
        _ operations: [SyncOperation], from replica: ReplicaID, through: SyncCursor, acknowledgements: [SyncAcknowledgement]
    ) async throws -> MergeReport? {
        try await remote.push(operations, from: replica, through: through, acknowledgements: acknowledgements)
    }

    func snapshot() async throws -> SyncRemoteSnapshot {
        try await remote.snapshot()
    }
}
