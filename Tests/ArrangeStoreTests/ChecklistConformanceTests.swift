import ArrangeModel
import ArrangeStore
import Foundation
import Testing

/// The checklists every ``ItemRepository`` keeps, checked on each backend: entries in their
/// order, their changes and errors, and that they go with their item.
@Suite("ItemRepository conformance: checklists")
struct ChecklistConformanceTests {
    /// A list with two items, and the entries of the first one's checklist, inserted in this
    /// order: keys 20, 10, 10 (a tie, told apart by id) and 30.
    private func seeded(_ backend: Backend) throws -> (store: Store, trip: Item, other: Item, entries: [ChecklistItem]) {
        let store = try backend.makeStore()
        let (_, items) = try store.seed("Plans", sortIndices: [1, 2])
        let trip = items[0]
        let entries = try [("b", "Tickets", 20, nil), ("c", "Charger", 10, Sample.date(7)), ("a", "Passport", 10, nil), ("d", "Map", 30, nil)].map {
            ChecklistItem(id: try Self.id($0.0), itemID: trip.id, title: $0.1, sortIndex: Int64($0.2), completedAt: $0.3)
        }
        try store.repository.write { store throws in
            for entry in entries { try store.insert(entry) }
        }
        return (store, trip, items[1], entries)
    }

    private static func id(_ prefix: String) throws -> ChecklistItem.ID {
        ChecklistItem.ID(rawValue: try Sample.id(prefix).rawValue)
    }

    @Test("A checklist reads in its order (sortIndex, then id), by item, and through the generic queries of its ordering", arguments: Backend.allCases)
    func order(backend: Backend) throws {
        let (store, trip, other, entries) = try seeded(backend)
        let inOrder = [entries[2], entries[1], entries[0], entries[3]]
        try store.repository.read { store throws in
            #expect(try store.checklist(of: trip.id) == inOrder)
            #expect(try store.checklists(of: [other.id, trip.id, trip.id]) == [trip.id: inOrder])
            #expect(try store.checklist(of: other.id) == [])
            #expect(try store.checklistItem(id: entries[1].id) == entries[1])
            let scope = OrderScope.checklist(trip.id)
            #expect(try store.entries(in: scope, visibility: .all, offset: 1, limit: 2) == [entries[1].entry, entries[0].entry])
            #expect(try store.entries(in: scope, visibility: .open, offset: 0, limit: 10).map(\.id) == [entries[2], entries[0], entries[3]].map(\.id.entryID))
            #expect(try store.entryCount(in: scope, visibility: .open) == 3)
            #expect(try store.entryCount(in: scope, visibility: .all, before: entries[0].orderKey) == 2)
            #expect(try store.keys(in: scope, before: entries[0].orderKey, limit: 5) == [entries[1].orderKey, entries[2].orderKey])
            #expect(try store.keys(in: scope, after: entries[1].orderKey, limit: 1) == [entries[0].orderKey])
            #expect(try store.entriesSharingSortIndex(in: scope) == [[entries[2].entry, entries[1].entry]])
            #expect(try store.entry(id: entries[3].id.entryID, in: scope) == entries[3].entry)
            #expect(try store.entry(id: entries[3].id.entryID, in: .checklist(other.id)) == nil)
            #expect(try store.entryCount(in: .checklist(other.id), visibility: .all) == 0)
        }
    }

    @Test("Entries are retitled, completed, reopened and moved by update and by new keys, and deleted", arguments: Backend.allCases)
    func changes(backend: Backend) throws {
        let (store, trip, _, entries) = try seeded(backend)
        var passport = entries[2]
        passport.title = "Passport 🛂"
        passport.completedAt = Sample.date(9)
        var charger = entries[1]
        charger.completedAt = nil
        try store.repository.write { store throws in
            try store.update(passport)
            try store.update(charger)
            try store.setSortIndices([SortIndexChange(id: entries[3].id.entryID, sortIndex: 0)], in: .checklist(trip.id), updatedAt: Sample.date(10))
            try store.deleteChecklistItem(id: entries[0].id)
        }
        var map = entries[3]
        map.sortIndex = 0
        try store.repository.read { store throws in
            #expect(try store.checklist(of: trip.id) == [map, passport, charger])
        }
    }

    @Test("Changes that name an unknown item or entry, a taken id, or an entry of another checklist are refused", arguments: Backend.allCases)
    func errors(backend: Backend) throws {
        let (store, trip, other, entries) = try seeded(backend)
        let stranger = ChecklistItem(itemID: Item.ID(), title: "Nowhere")
        let unknown = ChecklistItem(itemID: trip.id, title: "Unknown")
        let cases: [(String, StoreError, (any ItemWriting) throws -> Void)] = [
            ("an entry of no item", .itemNotFound(stranger.itemID), { try $0.insert(stranger) }),
            ("a taken id", .duplicateChecklistItem(entries[0].id), { try $0.insert(entries[0]) }),
            ("an update of no entry", .checklistItemNotFound(unknown.id), { try $0.update(unknown) }),
            ("a delete of no entry", .checklistItemNotFound(unknown.id), { try $0.deleteChecklistItem(id: unknown.id) }),
            ("a key in another checklist", .checklistItemNotFound(entries[0].id), {
                try $0.setSortIndices([SortIndexChange(id: entries[0].id.entryID, sortIndex: 5)], in: .checklist(other.id), updatedAt: Sample.date(1))
            }),
        ]
        let before = try store.repository.read { try $0.checklist(of: trip.id) }
        for (name, expected, change) in cases {
            #expect(throws: expected, "\(name)") { try store.repository.write(change) }
        }
        #expect(try store.repository.read { try $0.checklist(of: trip.id) } == before)
    }

    @Test("A checklist goes with its item, and with its item's list, and comes back with a rollback", arguments: Backend.allCases)
    func cascade(backend: Backend) throws {
        let (store, trip, other, entries) = try seeded(backend)
        let kept = ChecklistItem(itemID: other.id, title: "Kept")
        try store.repository.write { try $0.insert(kept) }
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try store.repository.write { store throws in
                try store.deleteItem(id: trip.id)
                #expect(try store.checklist(of: trip.id) == [])
                throw Refused()
            }
        }
        try store.repository.read { store throws in
            #expect(try store.checklist(of: trip.id).count == entries.count)
        }
        try store.repository.write { try $0.deleteItem(id: trip.id) }
        try store.repository.read { store throws in
            #expect(try store.checklist(of: trip.id) == [])
            for entry in entries { #expect(try store.checklistItem(id: entry.id) == nil) }
            #expect(try store.checklist(of: other.id) == [kept])
        }
        try store.repository.write { try $0.deleteList(id: other.listID) }
        #expect(try store.repository.read { try $0.checklistItem(id: kept.id) } == nil)
    }
}
