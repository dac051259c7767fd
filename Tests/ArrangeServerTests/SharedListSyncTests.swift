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

    init(_ name: String, in folder: URL, server: URL, token: String) throws {
        self.name = name
        repository = try SQLiteItemRepository(path: folder.appendingPathComponent("\(name).sqlite").path)
        engine = SyncEngine(repository: repository)
        environment = try IntentEnvironment(repository: repository, historyLimit: 50, sync: engine)
        self.server = HTTPSyncRemote(server: server, token: token)
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
}
