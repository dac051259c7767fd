import ArrangeModel
import ArrangeStore
import Foundation
import Testing

/// The headings every ``ItemRepository`` keeps, checked on each backend: a list's headings in
/// their order, the items under no heading first, then each heading's in theirs, their changes
/// and errors, and that deleting a heading deletes the items under it.
@Suite("ItemRepository conformance: headings")
struct HeadingConformanceTests {
    /// The list Trip with headings Packing (key 20) and Before (key 10), and the list Home.
    /// Trip's items: Map and Tent under no heading (keys 5, 1); Visa and Tickets under Before
    /// (keys 7, 7: a tie, told apart by id; Tickets is completed); Boots under Packing (key 2).
    /// Home holds Rake, under no heading.
    private struct Seed {
        let store: Store
        let trip: ItemList
        let home: ItemList
        let packing: Heading
        let before: Heading
        let items: [String: Item]

        func item(_ title: String) throws -> Item { try #require(items[title]) }
    }

    private func seeded(_ backend: Backend) throws -> Seed {
        let store = try backend.makeStore()
        let (trip, home) = (Sample.list("Trip", at: 1), Sample.list("Home", at: 2))
        let packing = Heading(id: try Self.id("b"), listID: trip.id, title: "Packing", createdAt: Sample.date(1), sortIndex: 20)
        let before = Heading(id: try Self.id("a"), listID: trip.id, title: "Before", createdAt: Sample.date(2), sortIndex: 10)
        var items = [
            Sample.item(in: trip.id, "Map", sortIndex: 5), Sample.item(in: trip.id, "Tent", sortIndex: 1),
            Sample.item(in: trip.id, "Visa", sortIndex: 7, id: try Sample.id("3")),
            Sample.item(in: trip.id, "Tickets", sortIndex: 7, completed: true, id: try Sample.id("4")),
            Sample.item(in: trip.id, "Boots", sortIndex: 2), Sample.item(in: home.id, "Rake", sortIndex: 1),
        ]
        items[2].heading = before.id
        items[3].heading = before.id
        items[4].heading = packing.id
        try store.repository.write { store throws in
            try store.insert(trip)
            try store.insert(home)
            try store.insert(packing)
            try store.insert(before)
            for item in items { try store.insert(item) }
        }
        return Seed(store: store, trip: trip, home: home, packing: packing, before: before, items: Dictionary(uniqueKeysWithValues: items.map { ($0.title, $0) }))
    }

    private static func id(_ prefix: String) throws -> Heading.ID {
        Heading.ID(rawValue: try Sample.id(prefix).rawValue)
    }

    private func titles(_ items: [Item]) -> [String] { items.map(\.title) }

    @Test("A list reads its items under no heading first, then each heading's in the order of the headings, in pages that cross them", arguments: Backend.allCases)
    func order(backend: Backend) throws {
        let seed = try seeded(backend)
        let (trip, before, packing) = (seed.trip.id, seed.before, seed.packing)
        try seed.store.repository.read { store throws in
            #expect(try store.headings(in: trip) == [before, packing])
            #expect(try store.headings(in: seed.home.id) == [])
            #expect(try store.heading(id: packing.id) == packing)
            #expect(try store.heading(id: try Self.id("f")) == nil)
            #expect(titles(try store.items(in: trip, visibility: .all, offset: 0, limit: 10)) == ["Tent", "Map", "Visa", "Tickets", "Boots"])
            #expect(titles(try store.items(in: trip, visibility: .open, offset: 0, limit: 10)) == ["Tent", "Map", "Visa", "Boots"])
            #expect(titles(try store.items(in: trip, visibility: .all, offset: 1, limit: 3)) == ["Map", "Visa", "Tickets"])
            #expect(titles(try store.items(in: trip, visibility: .all, offset: 3, limit: 10)) == ["Tickets", "Boots"])
            #expect(titles(try store.items(in: trip, visibility: .open, offset: 3, limit: 10)) == ["Boots"])
            #expect(titles(try store.items(in: trip, visibility: .all, offset: 4, limit: 1)) == ["Boots"])
            #expect(try store.items(in: trip, visibility: .all, offset: 5, limit: 10).isEmpty)
            #expect(try store.itemCount(in: trip, visibility: .all) == 5)
            #expect(try store.itemCount(in: trip, visibility: .open) == 4)
            #expect(try store.sections(of: trip) == [.items(trip), .heading(before.id), .heading(packing.id)])
            let (visa, tickets, boots) = (try seed.item("Visa"), try seed.item("Tickets"), try seed.item("Boots"))
            #expect(try store.entries(in: .heading(before.id), visibility: .all, offset: 0, limit: 10).map(\.id) == [visa.id.entryID, tickets.id.entryID])
            #expect(try store.entriesSharingSortIndex(in: .heading(before.id)).map { $0.map(\.id) } == [[visa.id.entryID, tickets.id.entryID]])
            #expect(try store.entryCount(in: .items(trip), visibility: .all) == 2, "the list's own ordering holds the items under no heading")
            #expect(try store.entry(id: boots.id.entryID, in: .items(trip)) == nil)
            #expect(try store.entry(id: boots.id.entryID, in: .heading(packing.id)) == boots.entry(in: .heading(packing.id)))
            #expect(try store.entry(id: boots.id.entryID, in: .heading(before.id)) == nil)
            #expect(try store.entry(id: packing.id.entryID, in: .headings(trip)) == packing.entry)
            #expect(try store.entry(id: packing.id.entryID, in: .headings(seed.home.id)) == nil)
            #expect(try store.keys(in: .headings(trip), after: before.orderKey, limit: 5) == [packing.orderKey])
            #expect(try store.standing(ofItem: visa.id) == ItemStanding(list: trip, heading: before.id, key: visa.orderKey))
            #expect(try store.item(id: boots.id)?.heading == packing.id)
        }
    }

    @Test("New keys move an item under a heading or out of one, and a heading to another list with its items", arguments: Backend.allCases)
    func changes(backend: Backend) throws {
        let seed = try seeded(backend)
        let (map, boots, rake) = (try seed.item("Map"), try seed.item("Boots"), try seed.item("Rake"))
        try seed.store.repository.write { store throws in
            try store.setSortIndices([SortIndexChange(id: map.id.entryID, sortIndex: 100)], in: .heading(seed.packing.id), updatedAt: Sample.date(9))
            try store.setSortIndices([SortIndexChange(id: boots.id.entryID, sortIndex: 0)], in: .items(seed.trip.id), updatedAt: Sample.date(9))
            try store.setSortIndices([SortIndexChange(id: rake.id.entryID, sortIndex: 50)], in: .heading(seed.before.id), updatedAt: Sample.date(9))
        }
        try seed.store.repository.read { store throws in
            #expect(try store.item(id: map.id)?.heading == seed.packing.id)
            #expect(try store.item(id: boots.id)?.heading == nil)
            let moved = try #require(try store.item(id: rake.id))
            #expect(moved.listID == seed.trip.id && moved.heading == seed.before.id && moved.sortIndex == 50)
            #expect(titles(try store.items(in: seed.trip.id, visibility: .all, offset: 0, limit: 10)) == ["Boots", "Tent", "Visa", "Tickets", "Rake", "Map"])
            #expect(try store.items(in: seed.home.id, visibility: .all, offset: 0, limit: 10).isEmpty)
        }
        try seed.store.repository.write { store throws in
            try store.setSortIndices([SortIndexChange(id: seed.before.id.entryID, sortIndex: 30)], in: .headings(seed.home.id), updatedAt: Sample.date(9))
            var renamed = seed.packing
            renamed.title = "Gear"
            renamed.sortIndex = 5
            try store.update(renamed)
        }
        try seed.store.repository.read { store throws in
            #expect(try store.headings(in: seed.trip.id).map(\.title) == ["Gear"])
            #expect(try store.headings(in: seed.home.id).map { "\($0.title) \($0.sortIndex)" } == ["Before 30"])
            #expect(titles(try store.items(in: seed.home.id, visibility: .all, offset: 0, limit: 10)) == ["Visa", "Tickets", "Rake"])
            #expect(try store.item(id: rake.id)?.listID == seed.home.id)
            #expect(try store.item(id: rake.id)?.sortIndex == 50, "items keep their keys when their heading moves")
            #expect(titles(try store.items(in: seed.trip.id, visibility: .all, offset: 0, limit: 10)) == ["Boots", "Tent", "Map"])
            #expect(try store.itemCount(in: seed.home.id, visibility: .all) == 3)
        }
        // A heading moved by a whole update takes its items along too.
        try seed.store.repository.write { store throws in
            var back = try store.existingHeading(id: seed.before.id)
            back.listID = seed.trip.id
            try store.update(back)
        }
        try seed.store.repository.read { store throws in
            #expect(try store.item(id: rake.id)?.listID == seed.trip.id)
            #expect(try store.itemCount(in: seed.home.id, visibility: .all) == 0)
        }
    }

    @Test("Deleting a heading deletes its items and their checklists; deleting a list deletes its headings", arguments: Backend.allCases)
    func delete(backend: Backend) throws {
        let seed = try seeded(backend)
        let visa = try seed.item("Visa")
        let entry = ChecklistItem(itemID: visa.id, title: "Photo", sortIndex: 1)
        try seed.store.repository.write { store throws in
            try store.insert(entry)
            try store.deleteHeading(id: seed.before.id)
        }
        try seed.store.repository.read { store throws in
            #expect(try store.heading(id: seed.before.id) == nil)
            #expect(try store.item(id: visa.id) == nil)
            #expect(try store.item(id: try seed.item("Tickets").id) == nil)
            #expect(try store.checklistItem(id: entry.id) == nil)
            #expect(titles(try store.items(in: seed.trip.id, visibility: .all, offset: 0, limit: 10)) == ["Tent", "Map", "Boots"])
        }
        try seed.store.repository.write { try $0.deleteList(id: seed.trip.id) }
        try seed.store.repository.read { store throws in
            #expect(try store.heading(id: seed.packing.id) == nil)
            #expect(try store.headings(in: seed.trip.id) == [])
            #expect(try store.item(id: try seed.item("Boots").id) == nil)
            #expect(try store.item(id: try seed.item("Rake").id) != nil)
        }
    }

    @Test("Unknown headings, taken ids and headings of another list are refused, and a failed write leaves everything as it was", arguments: Backend.allCases)
    func errors(backend: Backend) throws {
        let seed = try seeded(backend)
        let ghost = try Self.id("e")
        let ghostList = ItemList.ID()
        let (map, rake) = (try seed.item("Map"), try seed.item("Rake"))
        try seed.store.repository.write { store throws in
            #expect(throws: StoreError.duplicateHeading(seed.packing.id)) {
                try store.insert(Heading(id: seed.packing.id, listID: seed.trip.id, title: "Again", createdAt: Sample.date(9)))
            }
            #expect(throws: StoreError.listNotFound(ghostList)) { try store.insert(Heading(listID: ghostList, title: "Lost", createdAt: Sample.date(9))) }
            #expect(throws: StoreError.headingNotFound(ghost)) { try store.update(Heading(id: ghost, listID: seed.trip.id, title: "Ghost", createdAt: Sample.date(9))) }
            var lost = seed.packing
            lost.listID = ghostList
            #expect(throws: StoreError.listNotFound(ghostList)) { try store.update(lost) }
            #expect(throws: StoreError.headingNotFound(ghost)) { try store.deleteHeading(id: ghost) }
            var elsewhere = rake
            elsewhere.heading = seed.packing.id
            #expect(throws: StoreError.headingNotFound(seed.packing.id), "a heading of another list") { try store.update(elsewhere) }
            var orphan = Sample.item(in: seed.trip.id, "Orphan", sortIndex: 9)
            orphan.heading = ghost
            #expect(throws: StoreError.headingNotFound(ghost)) { try store.insert(orphan) }
            #expect(throws: StoreError.headingNotFound(ghost)) {
                try store.setSortIndices([SortIndexChange(id: map.id.entryID, sortIndex: 1)], in: .heading(ghost), updatedAt: Sample.date(9))
            }
            #expect(throws: StoreError.headingNotFound(ghost)) {
                try store.setSortIndices([SortIndexChange(id: ghost.entryID, sortIndex: 1)], in: .headings(seed.trip.id), updatedAt: Sample.date(9))
            }
        }
        #expect(throws: StoreError.self) {
            try seed.store.repository.write { store throws in
                try store.deleteHeading(id: seed.before.id)
                try store.setSortIndices([SortIndexChange(id: map.id.entryID, sortIndex: 3)], in: .heading(seed.packing.id), updatedAt: Sample.date(9))
                try store.insert(Heading(id: seed.packing.id, listID: seed.trip.id, title: "Again", createdAt: Sample.date(9)))
            }
        }
        try seed.store.repository.read { store throws in
            #expect(try store.headings(in: seed.trip.id) == [seed.before, seed.packing])
            #expect(try store.item(id: map.id) == map)
            #expect(titles(try store.items(in: seed.trip.id, visibility: .all, offset: 0, limit: 10)) == ["Tent", "Map", "Visa", "Tickets", "Boots"])
        }
    }
}
