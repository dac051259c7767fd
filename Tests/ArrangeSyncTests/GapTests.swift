import ArrangeModel
import ArrangeSQLite
import ArrangeStore
import ArrangeSync
import Foundation
import Testing

/// Operations that come after a gap in their replica's sequence numbers wait for the ones
/// before them: kept, neither applied, passed on, acknowledged nor folded.
@Suite("Sync: gaps in a replica's operations")
struct GapTests {
    /// A replica's first six operations: a list, then five items in it, each after the one before.
    static func operations() throws -> (maker: SyncEngine, operations: [SyncOperation]) {
        let maker = SyncEngine(repository: InMemoryItemRepository(), wallClock: { 1_000 })
        let list = ItemList.ID()
        var operations = [try maker.perform(.createList(id: list, name: "Home", place: SyncPlace(after: nil, before: nil)))]
        var previous: Item.ID?
        for title in ["A", "B", "C", "D", "E"] {
            let id = Item.ID()
            operations.append(try maker.perform(.addItem(id: id, list: list, title: title, notes: "", place: SyncPlace(after: previous?.entryID, before: nil))))
            previous = id
        }
        return (maker, operations)
    }

    static func titles(_ engine: SyncEngine) throws -> [String] {
        try engine.repository.read { transaction in
            try transaction.lists().flatMap { try transaction.items(in: $0.id, visibility: .all, offset: 0, limit: .max).map(\.title) }
        }
    }

    @Test("Operations after a gap are held, reported and not passed on, until the gap is filled", arguments: StoreKind.allCases)
    func heldUntilFilled(kind: StoreKind) async throws {
        let (maker, operations) = try Self.operations()
        let replica = SyncEngine(repository: try kind.makeRepository())
        let withGap = [operations[0], operations[1], operations[2], operations[4], operations[5]]
        let report = try await replica.merge(withGap.shuffled())
        #expect(report.held == 2)
        #expect(report.gaps == [MergeReport.Gap(replica: operations[0].replica, firstMissing: 4, held: 2)])
        #expect(try Self.titles(replica) == ["A", "B"], "nothing after the gap is applied")
        let passedOn = try await replica.operations(after: 0).operations.map(\.id)
        #expect(Set(passedOn) == Set(operations.prefix(3).map(\.id)), "held operations are not passed on")
        let merged = try await replica.repository.read { try replica.merged(in: $0) }
        #expect(merged[operations[0].replica.rawValue] == 3, "nor acknowledged")

        // Merging again without the gap filled keeps them held, and says so.
        #expect(try await replica.merge([operations[5]]).gaps == report.gaps)
        let filled = try await replica.merge([operations[3]])
        #expect(filled.held == 0 && filled.gaps.isEmpty)
        #expect(filled.new == 3, "the missing operation and the two it held back")
        #expect(try Self.titles(replica) == ["A", "B", "C", "D", "E"])
        #expect(try Simulation.dump(replica.repository) == Simulation.dump(maker.repository))
    }

    @Test("Held operations are kept in the file, and applied when the gap is filled after it is opened again")
    func keptAcrossLaunches() async throws {
        let (maker, operations) = try Self.operations()
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("Arrange.sqlite").path
            do {
                let replica = SyncEngine(repository: try SQLiteItemRepository(path: path))
                #expect(try await replica.merge(Array(operations.prefix(2)) + Array(operations.suffix(3))).held == 3)
            }
            let reopened = SyncEngine(repository: try SQLiteItemRepository(path: path))
            #expect(try await reopened.merge([operations[2]]).new == 4)
            #expect(try Simulation.dump(reopened.repository) == Simulation.dump(maker.repository))
        }
    }
}
