import ArrangeModel
import ArrangeStore
import ArrangeSync
import Foundation
import Testing

/// Every batch a merge receives is checked before anything of it is applied.
@Suite("Sync: incoming operations checked in the merge")
struct IncomingCheckTests {
    /// Three operations of one replica: a list and two items in it.
    static func batch() throws -> [SyncOperation] {
        let maker = SyncEngine(repository: InMemoryItemRepository(), wallClock: { 1_000 })
        let list = ItemList.ID()
        let first = Item.ID()
        return [
            try maker.perform(.createList(id: list, name: "Home", place: SyncPlace(after: nil, before: nil))),
            try maker.perform(.addItem(id: first, list: list, title: "A", notes: "", place: SyncPlace(after: nil, before: nil))),
            try maker.perform(.addItem(id: Item.ID(), list: list, title: "B", notes: "", place: SyncPlace(after: first.entryID, before: nil))),
        ]
    }

    @Test("A batch with one bad operation is refused whole, naming it, and nothing is merged", arguments: StoreKind.allCases)
    func badOperation(kind: StoreKind) async throws {
        var operations = try Self.batch()
        operations[2].sequence = 0
        let replica = SyncEngine(repository: try kind.makeRepository())
        await #expect(throws: OperationCheckError.refused(position: 3, .sequenceBelowOne(0))) { try await replica.merge(operations) }
        #expect(try Simulation.dump(replica.repository).isEmpty, "nothing was merged")
    }

    @Test("An operation whose id the log holds for another operation is refused, and the batch with it", arguments: StoreKind.allCases)
    func idOfAnother(kind: StoreKind) async throws {
        let operations = try Self.batch()
        let replica = SyncEngine(repository: try kind.makeRepository())
        try await replica.merge(Array(operations.prefix(2)))
        let before = try Simulation.dump(replica.repository)

        var impostor = operations[1]
        impostor.change = .addItem(id: Item.ID(), list: ItemList.ID(), title: "Other", notes: "", place: SyncPlace(after: nil, before: nil))
        await #expect(throws: OperationCheckError.refused(position: 1, .idLoggedOtherwise(impostor.id))) {
            try await replica.merge([impostor, operations[2]])
        }
        #expect(try Simulation.dump(replica.repository) == before, "nothing was merged")
        // The same operation again is no fault: it is merged once.
        #expect(try await replica.merge([operations[1], operations[2]]).new == 1)
    }
}
