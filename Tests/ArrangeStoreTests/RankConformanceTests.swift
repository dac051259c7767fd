import ArrangeModel
import ArrangeStore
import Foundation
import Testing

/// ``ItemReading/ranks(of:in:)`` as every backend answers it, checked against counts before
/// each key (``ItemReading/entryCount(in:visibility:before:)``) and by hand.
@Suite("Ranks conformance")
struct RankConformanceTests {
    @Test("Ranks count the open entries out of the Trash before each key, ties broken by id, in the order asked; and the ordering's counts", arguments: Backend.allCases)
    func ranks(backend: Backend) throws {
        let store = try backend.makeStore()
        let list = Sample.list("Errands")
        var random = SeededRandomNumberGenerator(seed: 61)
        // 40 items on 12 keys: most keys shared, so that ties are broken by id; some completed, some in the Trash.
        let items = (0..<40).map { index in
            var item = Sample.item(in: list.id, "Item \(index)", sortIndex: Int64.random(in: 0..<12, using: &random) * 100, completed: index % 4 == 1)
            if index % 5 == 2 { item.trashedAt = Sample.date(9) }
            return item
        }
        try store.repository.write { store throws in
            try store.insert(list)
            for item in items { try store.insert(item) }
        }
        let ordered = items.sorted { $0.orderKey < $1.orderKey }
        // The keys of a few items, out of order, and keys of no entry: before all, between two, after all.
        let asked = items.shuffled(using: &random).prefix(15).map(\.orderKey)
            + [OrderKey(sortIndex: -1, id: Item.ID().entryID), OrderKey(sortIndex: 550, id: Item.ID().entryID), OrderKey(sortIndex: 5_000, id: Item.ID().entryID)]
        try store.repository.read { store throws in
            let scope = OrderScope.items(list.id)
            let ranks = try store.ranks(of: asked, in: scope)
            #expect(ranks.openBefore == (try asked.map { try store.entryCount(in: scope, visibility: .open, before: $0) }))
            // The same, counted by hand over the items in their order.
            let isOpen = { (item: Item) in !item.isCompleted && item.trashedAt == nil }
            #expect(ranks.openBefore == asked.map { key in ordered.count { $0.orderKey < key && isOpen($0) } })
            #expect(ranks.openCount == items.count(where: isOpen))
            #expect(ranks.keptCount == items.count { $0.trashedAt == nil })
            #expect(ranks.openBefore.last == ranks.openCount, "a key after every entry has every open entry before it")
            #expect(try store.ranks(of: [], in: scope) == EntryRanks(openBefore: [], openCount: ranks.openCount, keptCount: ranks.keptCount))
            #expect(try store.ranks(of: asked, in: .items(ItemList.ID())) == EntryRanks(openBefore: asked.map { _ in 0 }, openCount: 0, keptCount: 0))
        }
    }
}
