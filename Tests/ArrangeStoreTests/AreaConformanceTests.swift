import ArrangeModel
import ArrangeStore
import Foundation
import Testing

/// The areas every ``ItemRepository`` keeps, checked on each backend: areas in their order,
/// each area's lists in theirs after the lists in no area, their changes and errors, and that
/// deleting an area keeps its lists.
@Suite("ItemRepository conformance: areas")
struct AreaConformanceTests {
    /// Areas Work (key 20) and Home (key 10), and lists: Inbox and Errands in no area (keys 5,
    /// 1), Launch and Hiring in Work (keys 7, 7: a tie, told apart by id), Garden in Home (3).
    private func seeded(_ backend: Backend) throws -> (store: Store, work: Area, home: Area, lists: [String: ItemList]) {
        let store = try backend.makeStore()
        let work = Area(id: try Self.id("b"), name: "Work", createdAt: Sample.date(1), sortIndex: 20)
        let home = Area(id: try Self.id("a"), name: "Home", createdAt: Sample.date(2), sortIndex: 10)
        let lists = try [
            ("Inbox", nil, 5, "1"), ("Errands", nil, 1, "2"), ("Launch", work.id, 7, "4"), ("Hiring", work.id, 7, "3"), ("Garden", home.id, 3, "5"),
        ].map { ItemList(id: ItemList.ID(rawValue: try Sample.id($0.3).rawValue), name: $0.0, createdAt: Sample.date(3), sortIndex: Int64($0.2), area: $0.1) }
        try store.repository.write { store throws in
            try store.insert(work)
            try store.insert(home)
            for list in lists { try store.insert(list) }
        }
        return (store, work, home, Dictionary(uniqueKeysWithValues: lists.map { ($0.name, $0) }))
    }

    private static func id(_ prefix: String) throws -> Area.ID {
        Area.ID(rawValue: try Sample.id(prefix).rawValue)
    }

    @Test("Areas read in their order; the lists read those in no area first, then each area's, each group by key then id", arguments: Backend.allCases)
    func order(backend: Backend) throws {
        let (store, work, home, lists) = try seeded(backend)
        try store.repository.read { store throws in
            #expect(try store.areas() == [home, work])
            #expect(try store.area(id: work.id) == work)
            #expect(try store.area(id: try Self.id("f")) == nil)
            #expect(try store.lists().map(\.name) == ["Errands", "Inbox", "Garden", "Hiring", "Launch"])
            #expect(try store.list(id: try #require(lists["Launch"]).id)?.area == work.id)
            #expect(try store.entries(in: .lists, visibility: .all, offset: 0, limit: 10).map(\.id) == ["Errands", "Inbox"].map { lists[$0]!.id.entryID })
            #expect(try store.entries(in: .area(work.id), visibility: .open, offset: 0, limit: 10).map(\.id) == ["Hiring", "Launch"].map { lists[$0]!.id.entryID })
            #expect(try store.entriesSharingSortIndex(in: .area(work.id)).map { $0.map(\.id) } == [["Hiring", "Launch"].map { lists[$0]!.id.entryID }])
            #expect(try store.entryCount(in: .area(home.id), visibility: .all) == 1)
            #expect(try store.entries(in: .areas, visibility: .all, offset: 0, limit: 10) == [home.entry, work.entry])
            #expect(try store.keys(in: .areas, after: home.orderKey, limit: 5) == [work.orderKey])
            #expect(try store.entry(id: lists["Garden"]!.id.entryID, in: .area(home.id)) == lists["Garden"]!.entry)
            #expect(try store.entry(id: lists["Garden"]!.id.entryID, in: .lists) == nil, "a list is only in the ordering of its own area")
            #expect(try store.entry(id: lists["Inbox"]!.id.entryID, in: .area(work.id)) == nil)
        }
    }

    @Test("New keys move a list into an area or out of one; areas are renamed and moved", arguments: Backend.allCases)
    func changes(backend: Backend) throws {
        let (store, work, home, lists) = try seeded(backend)
        let (inbox, garden) = (try #require(lists["Inbox"]), try #require(lists["Garden"]))
        try store.repository.write { store throws in
            try store.setSortIndices([SortIndexChange(id: inbox.id.entryID, sortIndex: 100)], in: .area(work.id), updatedAt: Sample.date(9))
            try store.setSortIndices([SortIndexChange(id: garden.id.entryID, sortIndex: 0)], in: .lists, updatedAt: Sample.date(9))
            var renamed = home
            renamed.name = "House"
            renamed.sortIndex = 30
            try store.update(renamed)
            try store.setSortIndices([SortIndexChange(id: work.id.entryID, sortIndex: 40)], in: .areas, updatedAt: Sample.date(9))
        }
        try store.repository.read { store throws in
            #expect(try store.list(id: inbox.id)?.area == work.id)
            #expect(try store.list(id: inbox.id)?.sortIndex == 100)
            #expect(try store.list(id: garden.id)?.area == nil)
            #expect(try store.lists().map(\.name) == ["Garden", "Errands", "Hiring", "Launch", "Inbox"])
            #expect(try store.areas().map(\.name) == ["House", "Work"])
            #expect(try store.area(id: work.id)?.sortIndex == 40)
        }
    }

    @Test("Deleting an area keeps its lists, in no area with their keys; the area's name is free again", arguments: Backend.allCases)
    func delete(backend: Backend) throws {
        let (store, work, _, lists) = try seeded(backend)
        try store.repository.write { try $0.deleteArea(id: work.id) }
        try store.repository.read { store throws in
            #expect(try store.area(id: work.id) == nil)
            #expect(try store.list(id: lists["Launch"]!.id)?.area == nil)
            #expect(try store.list(id: lists["Launch"]!.id)?.sortIndex == 7)
            #expect(try store.entries(in: .lists, visibility: .all, offset: 0, limit: 10).count == 4)
            #expect(try store.entryCount(in: .area(work.id), visibility: .all) == 0)
        }
        try store.repository.write { try $0.insert(Area(name: "work", createdAt: Sample.date(9))) }
    }

    @Test("Unknown areas, taken ids and names are refused, and a failed write leaves everything as it was", arguments: Backend.allCases)
    func errors(backend: Backend) throws {
        let (store, work, home, lists) = try seeded(backend)
        let ghost = try Self.id("e")
        let inbox = try #require(lists["Inbox"])
        try store.repository.write { store throws in
            #expect(throws: StoreError.duplicateArea(work.id)) { try store.insert(Area(id: work.id, name: "Other", createdAt: Sample.date(9))) }
            #expect(throws: StoreError.validation(.duplicateAreaName("Home"))) { try store.insert(Area(name: "HOME", createdAt: Sample.date(9))) }
            var renamed = work
            renamed.name = "home"
            #expect(throws: StoreError.validation(.duplicateAreaName("Home"))) { try store.update(renamed) }
            #expect(throws: StoreError.areaNotFound(ghost)) { try store.update(Area(id: ghost, name: "Ghost", createdAt: Sample.date(9))) }
            #expect(throws: StoreError.areaNotFound(ghost)) { try store.deleteArea(id: ghost) }
            #expect(throws: StoreError.areaNotFound(ghost)) { try store.insert(ItemList(name: "Orphan", createdAt: Sample.date(9), area: ghost)) }
            var moved = inbox
            moved.area = ghost
            #expect(throws: StoreError.areaNotFound(ghost)) { try store.update(moved) }
            #expect(throws: StoreError.areaNotFound(ghost)) {
                try store.setSortIndices([SortIndexChange(id: inbox.id.entryID, sortIndex: 1)], in: .area(ghost), updatedAt: Sample.date(9))
            }
            #expect(throws: StoreError.areaNotFound(ghost)) {
                try store.setSortIndices([SortIndexChange(id: ghost.entryID, sortIndex: 1)], in: .areas, updatedAt: Sample.date(9))
            }
        }
        #expect(throws: StoreError.self) {
            try store.repository.write { store throws in
                try store.deleteArea(id: home.id)
                try store.insert(Area(id: work.id, name: "Again", createdAt: Sample.date(9)))
            }
        }
        try store.repository.read { store throws in
            #expect(try store.areas() == [home, work])
            #expect(try store.list(id: lists["Garden"]!.id)?.area == home.id)
            #expect(try store.list(id: inbox.id) == inbox)
        }
    }
}
