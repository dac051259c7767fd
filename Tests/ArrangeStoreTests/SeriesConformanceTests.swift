import ArrangeModel
import ArrangeStore
import Foundation
import Testing

/// Arrange's tag, not Swift Testing's.
private typealias Tag = ArrangeModel.Tag

/// The repeating series every ``ItemRepository`` keeps, checked on each backend: each series
/// whole, rule and template, oldest first; an item naming its series; the errors of a series
/// that is not there, or is there already; a rollback that leaves them as they were.
@Suite("ItemRepository conformance: repeating series")
struct SeriesConformanceTests {
    private static func series(_ title: String, created: Double, in list: ItemList.ID) throws -> Series {
        Series(
            rule: try RepeatRule(.fixed, every: 2, .week, weekdays: [.mo, .fr], ends: .after(9), deadlineOffset: 1, reminder: TimeOfDay(parsing: "07:45")),
            start: try Day(parsing: "2027-01-04"), madeThrough: try Day(parsing: "2027-01-08"), madeCount: 1, isPaused: created > 1, listID: list,
            title: title, notes: Sample.texts.joined(separator: " "), tags: [Tag.ID(), Tag.ID()], checklist: ["Oat", "Whole"], createdAt: Sample.date(created),
            updatedAt: Sample.date(created + 0.5))
    }

    @Test("A series reads back whole, all of them oldest first, and an item names its own", arguments: Backend.allCases)
    func roundTrip(backend: Backend) throws {
        let store = try backend.makeStore()
        let list = ItemList(name: "Home", createdAt: Sample.date(0))
        let (later, earlier) = (try Self.series("Review", created: 2, in: list.id), try Self.series("Rent", created: 1, in: list.id))
        var item = Item(listID: list.id, title: "Rent", sortIndex: 0, createdAt: Sample.date(0))
        item.series = earlier.id
        try store.repository.write { transaction in
            try transaction.insert(list)
            try transaction.insert(later)
            try transaction.insert(earlier)
            try transaction.insert(item)
        }
        try store.repository.read { transaction throws in
            #expect(try transaction.allSeries() == [earlier, later])
            #expect(try transaction.series(id: later.id) == later)
            #expect(try transaction.series(id: Series.ID()) == nil)
            #expect(try transaction.item(id: item.id)?.series == earlier.id)
        }
    }

    @Test("A series changes and goes by id; one that is not there, or is there already, is refused, and a rollback undoes all", arguments: Backend.allCases)
    func writes(backend: Backend) throws {
        let store = try backend.makeStore()
        let list = ItemList(name: "Home", createdAt: Sample.date(0))
        var rent = try Self.series("Rent", created: 1, in: list.id)
        try store.repository.write { transaction in
            try transaction.insert(list)
            try transaction.insert(rent)
        }
        rent.rule = try RepeatRule(.afterCompletion, every: 3, .day)
        (rent.madeThrough, rent.madeCount, rent.isPaused, rent.title, rent.checklist, rent.tags) = (nil, 7, true, "Pay rent", [], [])
        try store.repository.write { try $0.update(rent) }
        #expect(try store.repository.read { try $0.series(id: rent.id) } == rent)
        let stranger = try Self.series("Stranger", created: 3, in: list.id)
        #expect(throws: StoreError.seriesNotFound(stranger.id)) { try store.repository.write { try $0.update(stranger) } }
        #expect(throws: StoreError.seriesNotFound(stranger.id)) { try store.repository.write { try $0.deleteSeries(id: stranger.id) } }
        #expect(throws: StoreError.duplicateSeries(rent.id)) { try store.repository.write { try $0.insert(rent) } }
        struct Abandon: Error {}
        #expect(throws: Abandon.self) {
            try store.repository.write { transaction in
                try transaction.deleteSeries(id: rent.id)
                #expect(try transaction.series(id: rent.id) == nil, "the transaction sees its own delete")
                throw Abandon()
            }
        }
        #expect(try store.repository.read { try $0.allSeries() } == [rent], "the rollback left it")
        try store.repository.write { try $0.deleteSeries(id: rent.id) }
        #expect(try store.repository.read { try $0.allSeries() }.isEmpty)
    }
}
