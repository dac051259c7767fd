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

/// ``ItemRequest/reminders(from:through:)`` as every backend answers it.
@Suite("Reminders conformance")
struct ReminderConformanceTests {
    @Test("The reminders that can fire in a span of days: open items out of the Trash, themselves, with their list and heading", arguments: Backend.allCases)
    func reminders(backend: Backend) throws {
        let store = try backend.makeStore()
        let (list, trip) = (Sample.list("Errands"), Sample.list("Trip", at: 1))
        let packing = Heading(listID: list.id, title: "Packing", createdAt: Sample.date(2), sortIndex: 0)
        let days = ["2027-03-27", "2027-03-28", "2027-03-29", "2027-03-30"].compactMap { try? Day(parsing: $0) }
        let nine = try TimeOfDay(parsing: "09:00")
        func item(_ title: String, _ index: Int, day: Int?, reminder: TimeOfDay? = nil, in list: ItemList = list) -> Item {
            var item = Sample.item(in: list.id, title, sortIndex: Int64(index))
            item.when = day.map { .on(days[$0]) } ?? .anytime
            item.reminder = reminder
            return item
        }
        var done = item("Done", 3, day: 1, reminder: nine)
        done.completedAt = Sample.date(5)
        var trashed = item("Trashed", 4, day: 1, reminder: nine)
        trashed.trashedAt = Sample.date(6)
        var underHeading = item("Under", 5, day: 1, reminder: nine)
        underHeading.heading = packing.id
        let items = [
            item("Before", 0, day: 0, reminder: nine), item("In", 1, day: 1, reminder: nine), item("Last", 2, day: 2, reminder: nine),
            done, trashed, underHeading, item("Plain", 6, day: 1), item("After", 7, day: 3, reminder: nine),
            item("Away", 0, day: 1, reminder: nine, in: trip),
        ]
        try store.repository.write { store throws in
            try store.insert(list)
            try store.insert(trip)
            try store.insert(packing)
            for item in items { try store.insert(item) }
        }
        func titles() throws -> [String] {
            try store.repository.read { try $0.items(.reminders(from: days[1], through: days[2])) }.map(\.title).sorted()
        }
        #expect(try titles() == ["Away", "In", "Last", "Under"])
        try store.repository.write { store throws in
            var heading = packing
            heading.trashedAt = Sample.date(7)
            try store.update(heading)
            var away = trip
            away.trashedAt = Sample.date(8)
            try store.update(away)
        }
        #expect(try titles() == ["In", "Last"], "with their heading or list in the Trash, none fires")
    }
}
