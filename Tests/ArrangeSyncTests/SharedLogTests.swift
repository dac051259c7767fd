import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
@testable import ArrangeSync
import Foundation
import Testing

/// A device that holds a list shared with other people keeps that list's operations in a log
/// of their own: its replica of the list makes them, and only that list's remote carries them.
@Suite("Sync: a shared list's own log")
struct SharedLogTests {
    /// A syncing device with a list of its own and a list shared with it, each with an item.
    private struct Device {
        let repository: any ItemRepository
        let engine: SyncEngine
        let environment: IntentEnvironment

        init(_ kind: StoreKind) throws {
            repository = try kind.makeRepository()
            engine = SyncEngine(repository: repository)
            environment = try IntentEnvironment(repository: repository, historyLimit: 20, sync: engine)
        }

        func perform<Intent: ArrangeIntent>(_ intent: Intent) async throws -> Intent.Result {
            try await intent.perform(in: environment)
        }

        /// The replicas of the operations logged since `cursor`, in order.
        func replicas(after cursor: Int64, of list: ItemList.ID? = nil) async throws -> [ReplicaID] {
            try await engine.operations(after: cursor, of: list).operations.map(\.replica)
        }

        /// Where the log ends now, for ``replicas(after:of:)``.
        var cursor: Int64 { get async throws { try await engine.operations(after: 0).cursor } }
    }

    @Test("Changes to a shared list's things go to its log as the device's replica of it; all else, Today included, to the own log", arguments: StoreKind.allCases)
    func routing(kind: StoreKind) async throws {
        let device = try Device(kind)
        let own = try await device.perform(CreateList(name: "Own")).list.id
        let shared = try await device.perform(CreateList(name: "Groceries")).list.id
        let milk = try #require(try await device.perform(AddItem(title: "Milk", list: shared)).items.first?.id)
        try await device.engine.startSharing(ListShare(list: shared, role: .edit, owner: "me", isOwned: true))
        let here = try await device.engine.startSyncing()
        let replica = SyncEngine.sharedReplica(of: shared, under: here)
        #expect(replica != here && replica == SyncEngine.sharedReplica(of: shared, under: here), "named, the same each time")
        #expect(try await device.replicas(after: 0, of: shared) == [replica, replica], "the list and its item, restated for its members")

        var cursor = try await device.cursor
        _ = try await device.perform(AddItem(title: "Eggs", list: shared))
        _ = try await device.perform(MoveItems([milk], to: .bottom))
        _ = try await device.perform(AddChecklistItem(title: "Oat", to: milk))
        #expect(try await device.replicas(after: cursor, of: shared) == [replica, replica, replica])
        #expect(try await device.replicas(after: cursor).isEmpty, "nothing of it in the own log")

        cursor = try await device.cursor
        _ = try await device.perform(AddItem(title: "Diary", list: own))
        #expect(try await device.replicas(after: cursor) == [here])
        #expect(try await device.replicas(after: cursor, of: shared).isEmpty)

        // Today is each person's: the mark and the place go to the own log, and no date changes.
        cursor = try await device.cursor
        _ = try await device.perform(AddToToday([milk]))
        #expect(try await device.replicas(after: cursor) == [here, here])
        #expect(try await device.replicas(after: cursor, of: shared).isEmpty)
        #expect(try await device.engine.operations(after: cursor).operations.first?.change == TodayMarksSet(ids: [milk], mark: .added(Day(Date(), in: .current))).change)

        // An evening is each person's own: the date goes to the list's log, the evening after it to the own log.
        cursor = try await device.cursor
        let eggs = try #require(try await device.repository.read { try $0.items(in: shared, visibility: .all, offset: 0, limit: .max) }.first { $0.title == "Eggs" }?.id)
        let day = try Day(parsing: "2026-12-24")
        _ = try await device.perform(SetWhen([eggs], to: .on(day, evening: true)))
        #expect(try await device.engine.operations(after: cursor, of: shared).operations.map(\.change) == [WhenSet(ids: [eggs], when: .on(day)).change])
        #expect(try await device.engine.operations(after: cursor).operations.map(\.change) == [WhenSet(ids: [eggs], when: .on(day, evening: true)).change])
        _ = try await device.engine.merge([])
        #expect(try await device.repository.read { try $0.share(of: shared) } != nil, "the share outlives its list's creation taken back and made again")
        #expect(try await device.repository.read { try $0.item(id: eggs)?.when } == .on(day, evening: true), "replayed in order, the evening last")

        // A delete names what it deleted, which the store holds no more.
        cursor = try await device.cursor
        _ = try await device.perform(DeleteItems([milk]))
        _ = try await device.perform(EmptyTrash())
        #expect(try await device.replicas(after: cursor, of: shared).count >= 1)
        #expect(try await device.replicas(after: cursor).allSatisfy { $0 == here })

        let listed = try await device.engine.replicas()
        #expect(listed.first?.id == here && listed.contains { $0.id == replica && $0.isThisDatabase && !$0.holdsCompactionBack })
    }

    @Test("Each remote carries its own log alone, acknowledged as its replica; a member's device gets the list, and none of the owner's own", arguments: StoreKind.allCases)
    func remotes(kind: StoreKind) async throws {
        let (owner, member) = (try Device(kind), try Device(kind))
        let secret = try await owner.perform(CreateList(name: "Secret")).list.id
        _ = try await owner.perform(AddItem(title: "Diary", list: secret))
        let shared = try await owner.perform(CreateList(name: "Groceries")).list.id
        for title in ["Milk", "Eggs"] { _ = try await owner.perform(AddItem(title: title, list: shared)) }
        let (ownerLog, memberLog, sharedLog) = (RelayRemote(identity: "owner"), RelayRemote(identity: "member"), RelayRemote(identity: "groceries", list: shared))
        _ = try await owner.engine.sync(with: ownerLog)
        try await owner.engine.startSharing(ListShare(list: shared, role: .edit, owner: "alice", isOwned: true))
        _ = try await owner.engine.sync(with: ownerLog)
        _ = try await owner.engine.sync(with: sharedLog)

        let here = try await owner.engine.startSyncing()
        let replica = SyncEngine.sharedReplica(of: shared, under: here)
        #expect(!ownerLog.operations.contains { $0.replica == replica })
        #expect(Set(sharedLog.operations.map(\.replica)) == [replica])
        #expect(Set(sharedLog.acknowledgements.map(\.replica)) == [replica], "acknowledged as its replica of the list")
        #expect(sharedLog.acknowledgements.allSatisfy { Set($0.merged.keys) == [replica.rawValue.lowercasedString] }, "of the list's log alone")
        #expect(ownerLog.acknowledgements.allSatisfy { !$0.merged.keys.contains(replica.rawValue.lowercasedString) })

        _ = try await member.engine.sync(with: memberLog)
        _ = try await member.engine.sync(with: sharedLog)
        _ = try await member.engine.applyShares([ListShare(list: shared, role: .edit, owner: "alice", isOwned: false)])
        #expect(try await member.repository.read { try $0.items(in: shared, visibility: .all, offset: 0, limit: .max) }.map(\.title) == ["Milk", "Eggs"])
        #expect(try await member.repository.read { try $0.list(id: secret) } == nil)

        // The member's move comes back to the owner through the list's log alone.
        let eggs = try #require(try await member.repository.read { try $0.items(in: shared, visibility: .all, offset: 0, limit: .max) }.last?.id)
        _ = try await member.perform(MoveItems([eggs], to: .top))
        _ = try await member.engine.sync(with: memberLog)
        _ = try await member.engine.sync(with: sharedLog)
        #expect(memberLog.operations.isEmpty, "the member's own log holds nothing of the list")
        _ = try await owner.engine.sync(with: sharedLog)
        #expect(try await owner.repository.read { try $0.items(in: shared, visibility: .all, offset: 0, limit: .max) }.map(\.title) == ["Eggs", "Milk"])

        // A peer, and a file, carry the own log alone: the member's other device gets nothing
        // of the list from it, and the owner's own log holds no operation made for the list's.
        let peer = try Device(kind)
        _ = try await peer.engine.exchange(with: member.engine)
        #expect(try await peer.repository.read { try $0.list(id: shared) } == nil)
        let memberReplica = SyncEngine.sharedReplica(of: shared, under: try await member.engine.startSyncing())
        #expect(try await owner.engine.operations(after: 0).operations.allSatisfy { $0.replica != replica && $0.replica != memberReplica })
        #expect(try await owner.engine.operations(after: 0, of: shared).operations.contains { $0.replica == memberReplica })
    }

    @Test("A list the user is no longer in stays as their own, with ids every device derives alike, logged in the own log", arguments: StoreKind.allCases)
    func keptCopy(kind: StoreKind) async throws {
        let device = try Device(kind)
        let shared = try await device.perform(CreateList(name: "Trip")).list.id
        let heading = try await device.perform(CreateHeading(title: "Bags", in: shared)).heading.id
        let charger = try #require(try await device.perform(AddItem(title: "Charger", list: shared)).items.first?.id)
        _ = try await device.perform(AddChecklistItem(title: "Cable", to: charger))
        _ = try await device.perform(AddItem(title: "Tickets", list: shared, section: .heading(heading)))
        try await device.engine.startSharing(ListShare(list: shared, role: .edit, owner: "bob", isOwned: false))
        let before = try await device.repository.read { try $0.items(in: shared, visibility: .all, offset: 0, limit: .max) }

        let cursor = try await device.cursor
        let update = try await device.engine.applyShares([])
        let kept = try #require(update.kept[shared])
        #expect(kept == ItemList.ID(rawValue: SyncEngine.keptID(of: shared.rawValue)))
        let after = try await device.repository.read { try $0.items(in: kept, visibility: .all, offset: 0, limit: .max) }
        #expect(after.map(\.title) == before.map(\.title) && after.map(\.id.rawValue) == before.map { SyncEngine.keptID(of: $0.id.rawValue) })
        #expect(try await device.repository.read { try $0.list(id: shared) } == nil)
        #expect(try await device.repository.read { try $0.list(id: kept)?.name } == "Trip", "the copy takes the name")
        #expect(try await device.repository.read { try $0.checklists(of: after.map(\.id)).values.joined().map(\.title) } == ["Cable"])
        #expect(try await device.repository.read { try $0.listShares() }.isEmpty)
        let here = try await device.engine.startSyncing()
        let logged = try await device.replicas(after: cursor)
        #expect(!logged.isEmpty && logged.allSatisfy { $0 == here })
        #expect(try await device.replicas(after: cursor, of: shared).isEmpty, "leaving tells the list's log nothing")

        // A second device of the user, told the same, makes the same copy; they meet without a second one.
        let other = try Device(kind)
        _ = try await other.engine.exchange(with: device.engine)
        #expect(try await other.repository.read { try $0.lists().filter { $0.name.hasPrefix("Trip") }.map(\.id) } == [kept])
    }

    @Test("Each log folds once its own replicas hold it: the user's devices the own log, the members' devices the shared list's", arguments: StoreKind.allCases)
    func foldsByLog(kind: StoreKind) async throws {
        let (phone, laptop, member) = (try Device(kind), try Device(kind), try Device(kind))
        let shared = try await phone.perform(CreateList(name: "Groceries")).list.id
        let secret = try await phone.perform(CreateList(name: "Secret")).list.id
        for title in ["Milk", "Eggs"] { _ = try await phone.perform(AddItem(title: title, list: shared)) }
        _ = try await phone.engine.exchange(with: laptop.engine)
        try await phone.engine.startSharing(ListShare(list: shared, role: .edit, owner: "alice", isOwned: true))
        try await laptop.engine.repository.write { try $0.apply(.setListShare(ListShare(list: shared, role: .edit, owner: "alice", isOwned: true), of: shared)) }
        // A relay that leaves folding to the stores: each folds as far as the members' devices allow.
        let list = RelayRemote(identity: "groceries", list: shared, coordinatesFolding: false)
        func settle() async throws {
            for _ in 0..<2 {
                for device in [phone, laptop, member] { _ = try await device.engine.sync(with: list) }
                _ = try await phone.engine.exchange(with: laptop.engine)
            }
        }
        try await settle()
        _ = try await member.engine.applyShares([ListShare(list: shared, role: .edit, owner: "alice", isOwned: false)])
        _ = try await member.perform(AddItem(title: "Bread", list: shared))
        _ = try await laptop.perform(AddItem(title: "Tea", list: shared))
        _ = try await phone.perform(AddItem(title: "Diary", list: secret))
        try await settle()

        let logged = try await phone.engine.operations(after: 0).operations.count + phone.engine.operations(after: 0, of: shared).operations.count
        let folded = try await phone.engine.compact()
        #expect(folded > 0, "the phone folds what the laptop and the member hold")
        #expect(try await member.engine.compact() > 0, "the member folds what every member's device holds")
        // The phone heard the laptop's last word on the list before the laptop took the member's
        // last change; once it hears it again, no one holds its folds back.
        _ = try await phone.engine.sync(with: list)
        #expect(try await phone.engine.replicas().filter(\.holdsCompactionBack).isEmpty)
        #expect(folded <= logged)

        // They sync on, and agree.
        _ = try await member.perform(AddItem(title: "Jam", list: shared))
        _ = try await phone.perform(AddItem(title: "Salt", list: shared, placement: .top))
        try await settle()
        let titles = try await [phone, laptop, member].asyncMap { device in
            try await device.repository.read { try $0.items(in: shared, visibility: .all, offset: 0, limit: .max).map(\.title) }
        }
        #expect(Set(titles[0]) == ["Salt", "Milk", "Eggs", "Bread", "Tea", "Jam"] && titles.allSatisfy { $0 == titles[0] }, "\(titles)")
    }
}

extension Array {
    fileprivate func asyncMap<Value>(_ transform: (Element) async throws -> Value) async rethrows -> [Value] {
        var values: [Value] = []
        for element in self { values.append(try await transform(element)) }
        return values
    }
}
