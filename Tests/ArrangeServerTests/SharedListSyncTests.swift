import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import ArrangeStore
import ArrangeSync
import ArrangeSyncHTTP
import Foundation
import Testing

/// A device of one user for the tests of shared lists: its database, the intents a person
/// uses, and its user's server.
struct SharingDevice {
    let name: String
    let repository: SQLiteItemRepository
    let engine: SyncEngine
    let environment: IntentEnvironment
    let server: HTTPSyncRemote
    /// Where its file is, and who it syncs as, for a copy of it.
    private let folder: URL, token: String

    init(
        _ name: String, in folder: URL, server: URL, token: String, wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMilliseconds
    ) throws {
        (self.name, self.folder, self.token) = (name, folder, token)
        repository = try SQLiteItemRepository(path: folder.appendingPathComponent("\(name).sqlite").path)
        engine = SyncEngine(repository: repository, wallClock: wallClock)
        environment = try IntentEnvironment(repository: repository, historyLimit: 50, sync: engine)
        self.server = HTTPSyncRemote(server: server, token: token)
    }

    /// A device named `name` that opens a copy of this one's file as it is now: a copied
    /// database, or a backup to restore.
    func copy(named name: String) throws -> SharingDevice {
        let path = folder.appendingPathComponent("\(self.name).sqlite").path
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: folder.appendingPathComponent("\(name).sqlite").path + suffix)
        }
        return try SharingDevice(name, in: folder, server: server.server, token: token)
    }

    @discardableResult
    func sync() async throws -> ServerSyncReport {
        try await engine.sync(withServer: server)
    }

    /// The titles of a list's items, in order; `nil` when the device holds no such list.
    func titles(of list: ItemList.ID) async throws -> [String]? {
        try await repository.read { transaction in
            guard try transaction.list(id: list) != nil else { return nil }
            return try transaction.items(in: list, visibility: .all, offset: 0, limit: .max).map(\.title)
        }
    }

    /// The items in the device's Today, as its person sees it today, in order.
    func today() async throws -> [Item.ID] {
        try await repository.read { try TodayArrangement(on: Day(Date(), in: .current), visibility: .open, in: $0) }.items.map(\.id)
    }

    /// A list's name, items and keys, what every member must hold alike.
    func shared(_ list: ItemList.ID) async throws -> [String] {
        try await repository.read { transaction in
            guard let found = try transaction.list(id: list) else { return [] }
            let items = try transaction.items(in: list, visibility: .all, offset: 0, limit: .max)
            return [found.name] + items.map { "\($0.id) \($0.title) \($0.sortIndex) \($0.when) \($0.completedAt != nil)" }
        }
    }

    func item(titled title: String, in list: ItemList.ID) async throws -> Item.ID {
        try #require(try await repository.read { try $0.items(in: list, visibility: .all, offset: 0, limit: .max) }.first { $0.title == title }?.id)
    }

    func perform<Intent: ArrangeIntent>(_ intent: Intent) async throws -> Intent.Result {
        try await intent.perform(in: environment)
    }
}

/// Lists shared between people, from the devices' side, through a real server: what is shared
/// reaches every member and merges into one order, what is each person's own stays theirs.
@Suite("arrange-server: devices sync a list shared between people")
struct SharedListSyncTests {
    @Test("A shared list reaches its members whole, their moves merge into one order, Today stays each person's, a viewer changes nothing, and a removed member keeps a copy")
    func sharedList() async throws {
        let fixture = try ServerFixture()
        let address = try fixture.startServer()
        try await withTemporaryFolder { folder in
            let (aliceToken, bobToken, carolToken) = (try fixture.user("alice"), try fixture.user("bob"), try fixture.user("carol"))
            let phone = try SharingDevice("alice-phone", in: folder, server: address, token: aliceToken)
            let laptop = try SharingDevice("alice-laptop", in: folder, server: address, token: aliceToken)
            let bob = try SharingDevice("bob", in: folder, server: address, token: bobToken)
            let carol = try SharingDevice("carol", in: folder, server: address, token: carolToken)

            let groceries = try await phone.perform(CreateList(name: "Groceries")).list.id
            let secret = try await phone.perform(CreateList(name: "Secret")).list.id
            for title in ["Milk", "Eggs", "Flour"] { _ = try await phone.perform(AddItem(title: title, list: groceries)) }
            _ = try await phone.perform(AddItem(title: "Diary", list: secret))
            let milk = try await phone.item(titled: "Milk", in: groceries)
            _ = try await phone.perform(AddToToday([milk]))
            try await phone.sync()
            try await laptop.sync()

            let invite = try await phone.engine.invite(to: groceries, as: .edit, through: phone.server)
            _ = try await bob.server.join(code: invite.code)
            try await bob.sync()
            #expect(try await bob.titles(of: groceries) == ["Milk", "Eggs", "Flour"])
            #expect(try await bob.titles(of: secret) == nil, "the rest of alice's lists stays hers")
            #expect(try await bob.repository.read { try $0.share(of: groceries) } == ListShare(list: groceries, role: .edit, owner: "alice", isOwned: false))
            #expect(try await bob.repository.read { try $0.todayItems(visibility: .all, offset: 0, limit: .max) }.isEmpty, "alice's Today is hers")

            // Both move and add at once; one order comes of it everywhere.
            let flour = try await bob.item(titled: "Flour", in: groceries)
            _ = try await bob.perform(MoveItems([flour], to: .top))
            _ = try await bob.perform(AddItem(title: "Bread", list: groceries))
            _ = try await phone.perform(AddItem(title: "Tea", list: groceries, placement: .top))
            for device in [bob, phone, laptop, bob, phone, laptop] { try await device.sync() }
            let order = try await phone.titles(of: groceries)
            #expect(Set(order ?? []) == ["Milk", "Eggs", "Flour", "Bread", "Tea"])
            for device in [bob, laptop] { #expect(try await device.shared(groceries) == phone.shared(groceries), "\(device.name)") }
            // Caught up, a sync leaves the list's log alone; a change there brings it back.
            #expect(try await bob.sync().shared.isEmpty)
            _ = try await phone.perform(EditItem(try await phone.item(titled: "Bread", in: groceries), notes: "Rye"))
            #expect(try await phone.sync().shared[groceries]?.pushed == 1)
            #expect(try await bob.sync().shared[groceries]?.received.new == 1)

            // Nothing of the shared list went through alice's own log, nor of her own lists to the shared one.
            let own = try await phone.server.pull(after: nil, limit: 1_000).operations
            let sharedReplica = SyncEngine.sharedReplica(of: groceries, under: try #require(try await phone.engine.replicas().first?.id))
            #expect(!own.contains { $0.replica == sharedReplica })
            let sharedLog = try await phone.server.sharedList(groceries.rawValue).pull(after: nil, limit: 1_000).operations
            #expect(sharedLog.contains { $0.replica == sharedReplica })

            // A viewer receives and changes nothing.
            let view = try await phone.engine.invite(to: groceries, as: .view, through: phone.server)
            _ = try await carol.server.join(code: view.code)
            try await carol.sync()
            #expect(try await carol.shared(groceries) == phone.shared(groceries))
            await #expect(throws: IntentError.viewOnlyList("Groceries", owner: "alice")) {
                _ = try await carol.perform(AddItem(title: "Cake", list: groceries))
            }

            // Today is each person's own: putting a shared item there, or taking one out, sets
            // no date the others see. Milk started today before the list was shared.
            let eggs = try await bob.item(titled: "Eggs", in: groceries)
            _ = try await bob.perform(AddToToday([eggs]))
            _ = try await bob.perform(RemoveFromToday([milk]))
            _ = try await carol.perform(AddToToday([eggs], placement: .bottom))
            for device in [bob, carol, phone, laptop] { try await device.sync() }
            #expect(try await bob.today() == [eggs])
            #expect(try await carol.today() == [milk, eggs], "a viewer has a Today of her own")
            #expect(try await phone.today() == [milk])
            #expect(try await laptop.today() == [milk])
            for device in [bob, carol, laptop] { #expect(try await device.shared(groceries) == phone.shared(groceries), "\(device.name)") }
            #expect(try await bob.repository.read { try $0.item(id: milk) }?.when == .on(Day(Date(), in: .current)), "milk still starts today for everyone")

            // Bob is removed: he keeps what he had, as his own, and gets nothing after.
            _ = try await phone.server.remove("bob", from: groceries.rawValue)
            _ = try await phone.perform(AddItem(title: "After", list: groceries))
            try await phone.sync()
            let report = try await bob.sync()
            let kept = try #require(report.shares.kept[groceries])
            #expect(try await bob.titles(of: groceries) == nil)
            #expect(try await bob.titles(of: kept) == order, "bob's copy holds what he had, in its order")
            #expect(try await bob.repository.read { try $0.listShares() }.isEmpty)
            try await carol.sync()
            #expect(try await carol.titles(of: groceries)?.contains("After") == true)
            #expect(try await bob.titles(of: kept)?.contains("After") == false)
        }
    }

    @Test("What the owner changed in a list on another device, unsynced when the list was shared, reaches every member, as the device that shared it states it again")
    func changedBeforeSharing() async throws {
        let fixture = try ServerFixture()
        let address = try fixture.startServer()
        try await withTemporaryFolder { folder in
            let aliceToken = try fixture.user("alice")
            let phone = try SharingDevice("alice-phone", in: folder, server: address, token: aliceToken)
            let laptop = try SharingDevice("alice-laptop", in: folder, server: address, token: aliceToken)
            let bob = try SharingDevice("bob", in: folder, server: address, token: try fixture.user("bob"))
            let trip = try await phone.perform(CreateList(name: "Trip")).list.id
            _ = try await phone.perform(AddItem(title: "Tickets", list: trip))
            for device in [phone, laptop] { try await device.sync() }

            // The laptop changes the list, offline, while the phone shares it.
            _ = try await laptop.perform(EditItem(try await laptop.item(titled: "Tickets", in: trip), title: "Tickets, printed"))
            _ = try await laptop.perform(AddItem(title: "Passports", list: trip))
            _ = try await bob.server.join(code: try await phone.engine.invite(to: trip, as: .edit, through: phone.server).code)
            try await bob.sync()
            #expect(try await bob.titles(of: trip) == ["Tickets"], "the list as the phone shared it")
            for _ in 0..<2 { for device in [laptop, phone, bob] { try await device.sync() } }

            #expect(try await bob.titles(of: trip) == ["Tickets, printed", "Passports"])
            for device in [phone, laptop] { #expect(try await device.shared(trip) == bob.shared(trip), "\(device.name)") }
        }
    }

    /// Alice's phone, which shares a list, Trip, holding Tickets, with bob to edit; both synced.
    static func tripShared(by fixture: ServerFixture, at address: URL, in folder: URL) async throws -> (phone: SharingDevice, bob: SharingDevice, trip: ItemList.ID) {
        let phone = try SharingDevice("alice-phone", in: folder, server: address, token: try fixture.user("alice"))
        let bob = try SharingDevice("bob", in: folder, server: address, token: try fixture.user("bob"))
        let trip = try await phone.perform(CreateList(name: "Trip")).list.id
        _ = try await phone.perform(AddItem(title: "Tickets", list: trip))
        _ = try await bob.server.join(code: try await phone.engine.invite(to: trip, as: .edit, through: phone.server).code)
        for device in [bob, phone] { try await device.sync() }
        return (phone, bob, trip)
    }

    @Test("A copy of a member's database syncs a shared list on beside the original: each takes a line of its own, and every change of both reaches every member")
    func copiedDatabase() async throws {
        let fixture = try ServerFixture()
        let address = try fixture.startServer()
        try await withTemporaryFolder { folder in
            let (phone, bob, trip) = try await Self.tripShared(by: fixture, at: address, in: folder)
            let errands = try await phone.perform(CreateList(name: "Errands")).list.id
            try await phone.sync()

            // The copy: the phone's file as it is now, with the phone going on beside it. Each
            // adds to the list as the same replica of it, under the same numbers.
            let copy = try phone.copy(named: "alice-copy")
            for (device, title) in [(phone, "on the phone"), (copy, "on the copy"), (bob, "on bob's")] {
                _ = try await device.perform(AddItem(title: title, list: trip))
            }
            for (device, title) in [(phone, "Post, on the phone"), (copy, "Bank, on the copy")] {
                _ = try await device.perform(AddItem(title: title, list: errands))
            }
            _ = try await phone.perform(AddToToday([try await phone.item(titled: "Tickets", in: trip)]))
            for _ in 0..<3 { for device in [copy, phone, bob] { try await device.sync() } }

            #expect(Set(try await bob.titles(of: trip) ?? []) == ["Tickets", "on the phone", "on the copy", "on bob's"])
            for device in [phone, copy] { #expect(try await device.shared(trip) == bob.shared(trip), "\(device.name)") }
            #expect(try await phone.today() == copy.today(), "alice's two databases share her Today")
            #expect(Set(try await phone.titles(of: errands) ?? []) == ["Post, on the phone", "Bank, on the copy"])
            #expect(try await phone.titles(of: errands) == copy.titles(of: errands))
            #expect(try await bob.titles(of: errands) == nil)
            let ids = try await [phone, copy].asyncMap { try await $0.engine.replicas().first(where: \.isThisDatabase)?.id }
            #expect(ids[0] != nil && ids[0] != ids[1], "the two databases sync under replica ids of their own")
        }
    }

    @Test("A member's database restored from a backup syncs a shared list on: what it made before the loss comes back, and what it makes after reaches every member")
    func restoredBackup() async throws {
        let fixture = try ServerFixture()
        let address = try fixture.startServer()
        try await withTemporaryFolder { folder in
            let (phone, bob, trip) = try await Self.tripShared(by: fixture, at: address, in: folder)

            // The backup, left alone; then a change made and synced; then the phone is lost, and
            // the backup restored.
            let restored = try phone.copy(named: "alice-restored")
            _ = try await phone.perform(AddItem(title: "Before the loss", list: trip))
            try await phone.sync()
            _ = try await restored.perform(AddItem(title: "After the restore", list: trip))
            for _ in 0..<3 { for device in [restored, bob] { try await device.sync() } }

            #expect(Set(try await bob.titles(of: trip) ?? []) == ["Tickets", "Before the loss", "After the restore"])
            #expect(try await restored.shared(trip) == bob.shared(trip))
        }
    }

    @Test("An owner whose clock is a year ahead shares a list: what it logged ahead is stamped again by the server's time, so a member's later edit wins, and both end with one list")
    func clockAhead() async throws {
        let fixture = try ServerFixture()
        let address = try fixture.startServer()
        try await withTemporaryFolder { folder in
            let (aliceToken, bobToken) = (try fixture.user("alice"), try fixture.user("bob"))
            let phone = try SharingDevice(
                "alice-phone", in: folder, server: address, token: aliceToken, wallClock: { HybridLogicalClock.systemMilliseconds() + ServerClockTests.year })
            let bob = try SharingDevice("bob", in: folder, server: address, token: bobToken)
            let trip = try await phone.perform(CreateList(name: "Trip")).list.id
            _ = try await phone.perform(AddItem(title: "Tickets", list: trip))
            _ = try await bob.server.join(code: try await phone.engine.invite(to: trip, as: .edit, through: phone.server).code)
            try await bob.sync()
            let tickets = try await bob.item(titled: "Tickets", in: trip)
            _ = try await bob.perform(EditItem(tickets, title: "Tickets, printed"))
            for device in [bob, phone, bob] { try await device.sync() }
            #expect(try await phone.titles(of: trip) == ["Tickets, printed"], "the later edit wins")
            #expect(try await phone.shared(trip) == bob.shared(trip))
        }
    }

    @Test("A member who joins once the server folded the list's log takes the list's snapshot, and syncs on with the others; the rest of the store stays as it was")
    func joinAfterFold() async throws {
        let fixture = try ServerFixture()
        let address = try fixture.startServer(["--fold-every", "5"])
        try await withTemporaryFolder { folder in
            let (aliceToken, bobToken, carolToken) = (try fixture.user("alice"), try fixture.user("bob"), try fixture.user("carol"))
            let alice = try SharingDevice("alice", in: folder, server: address, token: aliceToken)
            let bob = try SharingDevice("bob", in: folder, server: address, token: bobToken)
            let carol = try SharingDevice("carol", in: folder, server: address, token: carolToken)
            let trip = try await alice.perform(CreateList(name: "Trip")).list.id
            _ = try await bob.server.join(code: try await alice.engine.invite(to: trip, as: .edit, through: alice.server).code)
            try await bob.sync()
            for round in 0..<4 {
                for (device, title) in [(alice, "A"), (bob, "B")] {
                    for index in 0..<3 { _ = try await device.perform(AddItem(title: "\(title)\(round).\(index)", list: trip, placement: .top)) }
                    try await device.sync()
                }
            }
            for device in [alice, bob, alice] { try await device.sync() }
            // Carol has lists of her own, and joins late.
            let hers = try await carol.perform(CreateList(name: "Carol's")).list.id
            _ = try await carol.perform(AddItem(title: "Mine", list: hers))
            try await carol.sync()
            let folded = try await alice.server.sharedList(trip.rawValue).state(for: ReplicaID()).folded
            #expect(!folded.isEmpty, "the server folded the list's log")
            _ = try await carol.server.join(code: try await alice.engine.invite(to: trip, as: .edit, through: alice.server).code)
            let joined = try await carol.sync()
            #expect(joined.shared[trip]?.adoption != nil, "carol took the list's snapshot")
            #expect(try await carol.shared(trip) == alice.shared(trip))
            #expect(try await carol.titles(of: hers) == ["Mine"])
            _ = try await carol.perform(AddItem(title: "From carol", list: trip, placement: .top))
            for device in [carol, alice, bob, carol] { try await device.sync() }
            for device in [alice, bob] { #expect(try await device.shared(trip) == carol.shared(trip), "\(device.name)") }
            #expect(try await alice.titles(of: trip)?.first == "From carol")
        }
    }

    @Test("Three people, five devices, one shared list, a viewer among them, changes made offline and online, the server killed once, a member removed: one list for every member, private state private, the viewer refused, the removed one keeps a copy", arguments: [64, 65, 66] as [UInt64])
    func threePeopleFiveDevices(seed: UInt64) async throws {
        let fixture = try ServerFixture()
        // It folds often, so that devices fold, and take snapshots, in the middle of it all.
        let address = try fixture.startServer(["--fold-every", "20"])
        let port = try #require(address.port)
        try await withTemporaryFolder { folder in
            let (aliceToken, bobToken, carolToken) = (try fixture.user("alice"), try fixture.user("bob"), try fixture.user("carol"))
            let alice = [try SharingDevice("alice-phone", in: folder, server: address, token: aliceToken), try SharingDevice("alice-laptop", in: folder, server: address, token: aliceToken)]
            let bob = [try SharingDevice("bob-phone", in: folder, server: address, token: bobToken), try SharingDevice("bob-laptop", in: folder, server: address, token: bobToken)]
            let carol = try SharingDevice("carol-phone", in: folder, server: address, token: carolToken)
            let devices = alice + bob + [carol]

            let trip = try await alice[0].perform(CreateList(name: "Trip")).list.id
            for title in ["Tickets", "Passports", "Charger"] { _ = try await alice[0].perform(AddItem(title: title, list: trip)) }
            let own = [
                alice[0].name: try await alice[0].perform(CreateList(name: "Alice's")).list.id,
                bob[0].name: try await bob[0].perform(CreateList(name: "Bob's")).list.id,
            ]
            for device in devices { try await device.sync() }
            _ = try await bob[0].server.join(code: try await alice[0].engine.invite(to: trip, as: .edit, through: alice[0].server).code)
            _ = try await carol.server.join(code: try await alice[0].engine.invite(to: trip, as: .view, through: alice[0].server).code)
            for _ in 0..<2 { for device in devices { try await device.sync() } }
            for device in devices { #expect(try await device.shared(trip) == alice[0].shared(trip), "\(device.name) joined") }

            var random = SeededRandomNumberGenerator(seed: seed)
            var (refusals, killed, removed) = (0, false, false)
            var addedAfterRemoval: Set<String> = []
            var todayOf: [String: Set<Item.ID>] = [:]
            for step in 0..<160 {
                if step == 70 {
                    try fixture.killServer(at: address)
                    killed = true
                    // Down for a while: devices sync in vain, and go on offline.
                    for device in devices.prefix(2) { await #expect(throws: (any Error).self) { try await device.sync() } }
                    _ = try fixture.startServer(["--port", String(port), "--fold-every", "20"])
                }
                if step == 110 {
                    _ = try await alice[0].server.remove("bob", from: trip.rawValue)
                    removed = true
                }
                let device = devices[Int.random(in: 0..<devices.count, using: &random)]
                let user = String(device.name.prefix { $0 != "-" })
                let items = try await device.repository.read { transaction in
                    try transaction.list(id: trip) == nil ? [] : transaction.items(in: trip, visibility: .all, offset: 0, limit: .max)
                }
                let item = items.isEmpty ? nil : items[Int.random(in: 0..<items.count, using: &random)]
                let title = "\(device.name) \(step)"
                do {
                    switch Int.random(in: 0..<10, using: &random) {
                    case 0..<2:
                        let placement: ItemPlacement = item.map { Bool.random(using: &random) ? .after($0.id) : .before($0.id) } ?? .top
                        guard try await device.titles(of: trip) != nil else { continue }
                        _ = try await device.perform(AddItem(title: title, list: trip, placement: placement))
                        if removed, user != "bob" { addedAfterRemoval.insert(title) }
                    case 2..<4:
                        guard let item, let anchor = items.randomElement(using: &random), anchor.id != item.id else { continue }
                        _ = try await device.perform(MoveItems([item.id], to: Bool.random(using: &random) ? .after(anchor.id) : .before(anchor.id)))
                    case 4:
                        guard let item else { continue }
                        _ = try await device.perform(EditItem(item.id, title: title))
                        if removed, user != "bob" { addedAfterRemoval.insert(title) }
                    case 5:
                        guard let item, items.count > 3 else { continue }
                        _ = try await device.perform(Bool.random(using: &random) ? CompleteItems([item.id]).erased : DeleteItems([item.id]).erased)
                    case 6:
                        // What is each person's own.
                        if let list = own[device.name] { _ = try await device.perform(AddItem(title: "own \(step)", list: list)) }
                        // Anyone, a viewer too, puts a shared item in their Today, or takes it out.
                        guard let item else { continue }
                        if try await device.today().contains(item.id) {
                            _ = try await device.perform(RemoveFromToday([item.id]))
                        } else {
                            _ = try await device.perform(AddToToday([item.id]))
                            todayOf[user, default: []].insert(item.id)
                        }
                    case 7:
                        _ = try await device.engine.compact()
                    default:
                        try await device.sync()
                    }
                } catch let error as IntentError {
                    #expect(user == "carol" && error == .viewOnlyList("Trip", owner: "alice"), "\(device.name): \(error)")
                    refusals += 1
                } catch let error where ServerCrashTests.serverIsGone(error) {
                    Issue.record("the server is back: \(error)")
                }
            }
            for _ in 0..<3 { for device in devices { try await device.sync() } }

            #expect(killed && removed)
            #expect(refusals > 0, "the viewer tried, and was refused")
            let expected = try await alice[0].shared(trip)
            #expect(expected.count > 4, "the list holds what its members made")
            for device in [alice[1], carol] { #expect(try await device.shared(trip) == expected, "\(device.name)") }
            // Bob keeps one copy, the same on both his devices, which has nothing made after he left.
            let keptID = ItemList.ID(rawValue: SyncEngine.keptID(of: trip.rawValue))
            let copies = try await bob.asyncMap { try await $0.titles(of: keptID) }
            #expect(copies[0] != nil && copies[0] == copies[1], "\(copies)")
            #expect(addedAfterRemoval.isDisjoint(with: Set(copies[0] ?? [])), "bob got nothing after his removal")
            for device in bob { #expect(try await device.titles(of: trip) == nil, "\(device.name)") }
            // What each person made for themselves stays theirs.
            for device in devices {
                let user = String(device.name.prefix { $0 != "-" })
                for (name, list) in own where !name.hasPrefix(user) {
                    #expect(try await device.titles(of: list) == nil, "\(device.name) holds \(name)'s own list")
                }
                let today = try await device.today()
                #expect(Set(today).isSubset(of: todayOf[user, default: []].union(today.filter { _ in user == "bob" })), "\(device.name)'s Today is its user's")
            }
            // Putting shared items in Today, or taking them out, set no date every member sees;
            // each person's devices agree on their Today.
            #expect(try await alice[0].repository.read { try $0.items(in: trip, visibility: .all, offset: 0, limit: .max) }.allSatisfy { $0.when == .anytime })
            #expect(!todayOf["carol", default: []].isEmpty, "the viewer put items in her Today")
            for pair in [alice, bob] { #expect(try await pair[0].today() == pair[1].today(), "\(pair[0].name)") }
        }
    }
}

extension ArrangeIntent {
    /// The intent, run for its effect alone.
    var erased: any ArrangeIntent { self }
}

extension SharingDevice {
    func perform(_ intent: any ArrangeIntent) async throws {
        _ = try await intent.perform(in: environment)
    }
}
