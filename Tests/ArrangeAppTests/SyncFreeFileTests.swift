import ArrangeIntents
import ArrangeModel
import ArrangeSQLite
import ArrangeStore
import ArrangeSync
import Foundation
import GRDB
import Testing

/// Sync is a choice of the file: a database that has never synced is not a syncing database,
/// whoever writes to it, and its first sync carries everything it holds.
@Suite("An app without sync and the command line share a file that never synced", .serialized)
struct SyncFreeFileTests {
    @Test("The app's pool with no sync and arrange add from another process, in both orders; the first sync brings everything to a peer", arguments: [true, false])
    func appAndCommandLine(appFirst: Bool) async throws {
        try await withDatabasePool { pool, path in
            if !appFirst { try AppAdoptionTests.runArrange(["add", "Bread"], on: path) }
            let repository = try SQLiteItemRepository(writer: pool)
            let environment = try IntentEnvironment(repository: repository)
            _ = try await AddItem(title: "Milk").perform(in: environment)
            if appFirst { try AppAdoptionTests.runArrange(["add", "Bread"], on: path) }
            // The command line left the file sync-free: the app goes on writing to it.
            _ = try await AddItem(title: "Eggs").perform(in: environment)
            #expect(try await repository.readLog { try $0.replicaState() } == nil, "the file does not sync")
            #expect(Set(try await Self.titles(in: repository)) == ["Milk", "Bread", "Eggs"])

            try await Self.expectFirstSyncCarriesEverything(from: repository, path: path)
        }
    }

    @Test("A file the command line of an earlier version wrote, without ever syncing, takes an app's changes without sync")
    func fileOfAnEarlierCommandLine() async throws {
        try await withDatabasePool(copying: Bundle.module.resourceURL!.appendingPathComponent("Kept/command-line-never-synced.sqlite")) { pool, path in
            let repository = try SQLiteItemRepository(writer: pool)
            #expect(try await repository.readLog { try $0.replicaState() } == nil, "the upgrade left it sync-free")
            let environment = try IntentEnvironment(repository: repository)
            _ = try await AddItem(title: "Eggs").perform(in: environment)
            #expect(try await Self.titles(in: repository) == ["Milk", "Bread", "Eggs"])

            try await Self.expectFirstSyncCarriesEverything(from: repository, path: path)
        }
    }

    /// Turns sync on for `repository`, as an app does, meets a new peer, and expects the peer
    /// to end with everything; then `arrange add` on the file, which syncs now, logs its change
    /// for the peer, and an app without sync is refused.
    static func expectFirstSyncCarriesEverything(from repository: SQLiteItemRepository, path: String) async throws {
        let before = try await titles(in: repository)
        let here = SyncEngine(repository: repository)
        let peer = SyncEngine(repository: try SQLiteItemRepository.inMemory())
        _ = try await here.exchange(with: peer)
        #expect(try await titles(in: peer.repository) == before, "the first sync carried every item")

        try AppAdoptionTests.runArrange(["add", "Tea"], on: path)
        _ = try await here.exchange(with: peer)
        #expect(try await titles(in: peer.repository) == before + ["Tea"], "the command line logs once the file syncs")
        await #expect(throws: StoreError.unloggedChange) { try await AddItem(title: "Rice").perform(in: try IntentEnvironment(repository: repository)) }
    }

    /// The titles of every item in every list, in order.
    static func titles(in repository: any ItemRepository) async throws -> [String] {
        try await repository.read { transaction in
            try transaction.lists().flatMap { try transaction.items(in: $0.id, visibility: .all, offset: 0, limit: .max).map(\.title) }
        }
    }
}
