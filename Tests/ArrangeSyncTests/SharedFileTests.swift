import ArrangeModel
import ArrangeSQLite
import ArrangeStore
import ArrangeSync
import Foundation
import GRDB
import Testing

/// A repository carries the replica's state from one write transaction to the next; another
/// repository of the same file, on another connection or on the same one, may change it in
/// between.
@Suite("Sync: one file, two repositories")
struct SharedFileTests {
    enum Sharing: CaseIterable {
        /// Two pools, as two processes have.
        case twoConnections
        /// Two repositories on one pool, as an app may open.
        case oneConnection
    }

    @Test("Each change takes the next sequence number, whichever repository of the file made the one before", arguments: Sharing.allCases)
    func nextSequenceNumber(sharing: Sharing) async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("shared.sqlite").path
            let pool = try DatabasePool(path: path)
            let first = try SQLiteItemRepository(writer: pool)
            let second = switch sharing {
            case .twoConnections: try SQLiteItemRepository(path: path)
            case .oneConnection: try SQLiteItemRepository(writer: pool)
            }
            let engines = [SyncEngine(repository: first), SyncEngine(repository: second)]
            for (index, engine) in [0, 0, 1, 0, 1, 1, 0].map({ engines[$0] }).enumerated() {
                try engine.perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: "Item \(index)", notes: "", place: SyncPlace(after: nil, before: nil)))
            }
            let operations = try await engines[0].operations(after: 0).operations
            let sequences = operations.map(\.sequence)
            #expect(sequences == Array(1...Int64(sequences.count)), "\(sequences)")
            #expect(Set(operations.map(\.replica)).count == 1)
            let items = try await second.read { try $0.items(in: ItemList.firstDefaultListID, visibility: .all, offset: 0, limit: .max) }
            #expect(items.count == 7)
        }
    }
}
