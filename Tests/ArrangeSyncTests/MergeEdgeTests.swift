import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import ArrangeSync
import Foundation
import Testing

/// Merges that meet what the simulators do not make: a late operation that takes back the
/// creation of the default list, and operations written by other programs.
@Suite("Sync: merges at the edges")
struct MergeEdgeTests {
    @Test("The default list stays the default when a merge takes back its creation", arguments: StoreKind.allCases)
    func defaultListKept(kind: StoreKind) async throws {
        let (early, late) = (SimulatedClock(1_000), SimulatedClock(2_000))
        let here = try IntentReplica(kind: kind, wallClock: { late.read() })
        let there = try IntentReplica(kind: kind, wallClock: { early.read() })
        try await AddItem(title: "Milk", placement: .top).perform(in: here.environment)
        try await AddItem(title: "Bread", placement: .top).perform(in: there.environment)
        // There's Inbox comes first in the total order: the merge takes back the one made here.
        let report = try await here.engine.merge(try there.operations())
        #expect(report.rewound > 0)
        #expect(try await here.engine.repository.read { try $0.defaultListID() } == ItemList.firstDefaultListID)
        let items = try await ListItems(list: nil, visibility: .all).perform(in: here.environment).items
        #expect(Set(items.map(\.title)) == ["Milk", "Bread"])
    }

    @Test("An operation that names an item twice applies as if it named it once", arguments: StoreKind.allCases)
    func repeatedIDs(kind: StoreKind) throws {
        let maker = SyncEngine(repository: InMemoryItemRepository(), wallClock: { 1_000 })
        let list = ItemList.ID()
        let (a, b) = (Item.ID(), Item.ID())
        var operations = [try maker.perform(.createList(id: list, name: "Home", place: SyncPlace(after: nil, before: nil)))]
        operations.append(try maker.perform(.addItem(id: a, list: list, title: "A", notes: "", place: SyncPlace(after: nil, before: nil))))
        operations.append(try maker.perform(.addItem(id: b, list: list, title: "B", notes: "", place: SyncPlace(after: a.entryID, before: nil))))
        let replica = SyncEngine(repository: try kind.makeRepository(), wallClock: { 1_000 })
        let repeated: [SyncChange] = [
            .moveItems(ids: [b, b], list: list, place: SyncPlace(after: nil, before: a.entryID)),
            .addToToday(ids: [a, a, b], place: SyncPlace(after: nil, before: nil)),
            .completeItems(ids: [a, a], at: Date(timeIntervalSince1970: 5)),
            .deleteItems(ids: [b, b]),
        ]
        // Each from a replica of its own, as its first operation.
        for change in repeated {
            operations.append(SyncOperation(replica: ReplicaID(rawValue: UUID()), sequence: 1, clock: HLCTimestamp(milliseconds: 2_000, counter: 0), change: change))
        }
        _ = try replica.merge(operations)
        let (items, today) = try replica.repository.read { transaction in
            (try transaction.items(in: list, visibility: .all, offset: 0, limit: .max), try transaction.todayItems(visibility: .all, offset: 0, limit: .max))
        }
        #expect(items.map(\.id) == [a] && items.first?.isCompleted == true)
        #expect(today.map(\.id) == [a])
        try Simulation.expectSoundOrder(replica.repository)
    }

    @Test("Notes with U+0000 from another program merge on SQLite too, without it", arguments: StoreKind.allCases)
    func nulInNotes(kind: StoreKind) throws {
        let replica = SyncEngine(repository: try kind.makeRepository(), wallClock: { 1_000 })
        let id = Item.ID()
        let clock = HLCTimestamp(milliseconds: 1_000, counter: 0)
        let origin = ReplicaID(rawValue: UUID())
        _ = try replica.merge([
            SyncOperation(replica: origin, sequence: 1, clock: clock, change: .addItem(id: id, list: ItemList.firstDefaultListID, title: "Milk", notes: "a\u{0}b", place: SyncPlace(after: nil, before: nil))),
            SyncOperation(replica: origin, sequence: 2, clock: HLCTimestamp(milliseconds: 1_001, counter: 0), change: .editItem(id: id, title: nil, notes: "c\u{0}")),
        ])
        #expect(try replica.repository.read { try $0.item(id: id) }?.notes == "c")
    }
}
