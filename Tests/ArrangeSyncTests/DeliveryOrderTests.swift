import ArrangeModel
import ArrangeStore
import ArrangeSync
import Foundation
import Testing

/// Two replicas that share a small list make two operations each, apart; every one of the
/// 24 orders those four operations can arrive in, one at a time, must end exactly where one
/// merge of all four does: same items, same order, same keys.
@Suite("Sync: every delivery order of a small case")
struct DeliveryOrderTests {
    /// The first operation each replica makes, against the shared base: one entry of the menu.
    static let menu = Array(0..<8)

    @Test("Four operations made apart, delivered in each of their 24 orders, give one result", arguments: menu)
    func everyDeliveryOrder(first: Int) throws {
        for second in Self.menu {
            let base = try Base()
            let left = try base.replica(clock: 2_000)
            let right = try base.replica(clock: 2_000)
            // Equal wall clocks: the two replicas' operations tie on the clock and are ordered by replica.
            let made = [
                try left.perform(base.change(first)),
                try left.perform(base.moveFirstToBottom(in: left.repository)),
                try right.perform(base.change(second)),
                try right.perform(base.addAtTopOfSecondList()),
            ]

            let reference = try base.replica(clock: 0)
            _ = try reference.merge(made)
            let expected = try Simulation.dump(reference.repository)
            try Simulation.expectSoundOrder(reference.repository)

            for order in permutations(of: made.indices) {
                let observer = try base.replica(clock: 0)
                for index in order { _ = try observer.merge([made[index]]) }
                #expect(try Simulation.dump(observer.repository) == expected, "menu \(first), \(second), delivered as \(order)")
            }
            // The replicas themselves, each receiving the other's two operations in either order.
            for (replica, others) in [(left, made[2...]), (right, made[..<2])] {
                for operation in others.reversed() { _ = try replica.merge([operation]) }
                #expect(try Simulation.dump(replica.repository) == expected, "menu \(first), \(second), at a replica")
            }
        }
    }

    @Test("Permutations are every order, once")
    func permutationsAreComplete() {
        let all = permutations(of: 0..<4)
        #expect(all.count == 24)
        #expect(Set(all).count == 24)
        #expect(all.allSatisfy { $0.sorted() == [0, 1, 2, 3] })
    }
}

/// Every order of `elements`.
func permutations<C: Collection>(of elements: C) -> [[C.Element]] {
    guard let first = elements.first else { return [[]] }
    return permutations(of: elements.dropFirst()).flatMap { rest in
        (0...rest.count).map { position in
            var order = rest
            order.insert(first, at: position)
            return order
        }
    }
}

/// The shared start: lists Home (A, B, C, D) and Work, made on one replica.
private struct Base {
    let home = ItemList.ID()
    let work = ItemList.ID()
    let items = (0..<4).map { _ in Item.ID() }
    let operations: [SyncOperation]

    init() throws {
        let maker = SyncEngine(repository: InMemoryItemRepository(), wallClock: { 1_000 })
        var operations = [
            try maker.perform(.createList(id: home, name: "Home", place: SyncPlace(after: nil, before: nil))),
            try maker.perform(.createList(id: work, name: "Work", place: SyncPlace(after: home.entryID, before: nil))),
        ]
        for (index, id) in items.enumerated() {
            let place = SyncPlace(after: index == 0 ? nil : items[index - 1].entryID, before: nil)
            operations.append(try maker.perform(.addItem(id: id, list: home, title: "ABCD".map(String.init)[index], notes: "", place: place)))
        }
        self.operations = operations
    }

    /// A new replica that has the base, its wall clock stopped at `clock`.
    func replica(clock: Int64) throws -> SyncEngine {
        let engine = SyncEngine(repository: InMemoryItemRepository(), wallClock: { clock })
        _ = try engine.merge(operations)
        return engine
    }

    /// One operation of the menu, made against the base.
    func change(_ choice: Int) -> SyncChange {
        let (a, b, c, d) = (items[0].entryID, items[1].entryID, items[2].entryID, items[3].entryID)
        return switch choice {
        case 0: .moveItems(ids: [items[0]], list: home, place: SyncPlace(after: c, before: d))
        case 1: .moveItems(ids: [items[2]], list: home, place: SyncPlace(after: nil, before: a))
        case 2: .deleteItems(ids: [items[1]])
        case 3: .moveItems(ids: [items[1]], list: work, place: SyncPlace(after: nil, before: nil))
        case 4: .addItem(id: Item.ID(), list: home, title: "X", notes: "", place: SyncPlace(after: a, before: b))
        case 5: .addToToday(ids: [items[2]], place: SyncPlace(after: nil, before: nil))
        case 6: .deleteList(id: work)
        default: .moveItems(ids: [items[3]], list: home, place: SyncPlace(after: a, before: b))
        }
    }

    /// Moves the first item of Home after its last, as the replica sees them.
    func moveFirstToBottom(in repository: any ItemRepository) throws -> SyncChange {
        let order = try repository.read { try $0.items(in: home, visibility: .all, offset: 0, limit: .max) }.map(\.id)
        return .moveItems(ids: [order[0]], list: home, place: SyncPlace(after: order.last?.entryID, before: nil))
    }

    /// Adds an item at the top of Work, which the other replica may have deleted.
    func addAtTopOfSecondList() -> SyncChange {
        .addItem(id: Item.ID(), list: work, title: "Y", notes: "", place: SyncPlace(after: nil, before: nil))
    }
}
