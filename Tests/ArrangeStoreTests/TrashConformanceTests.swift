import ArrangeModel
import ArrangeStore
import Foundation
import Testing

/// The Trash as every ``ItemRepository`` keeps it, checked on each backend.
@Suite("Trash conformance")
struct TrashConformanceTests {
    @Test("What is in the Trash keeps its keys, is seen under .all only, and leaves Today, the Logbook and the counts", arguments: Backend.allCases)
    func trash(backend: Backend) throws {
        let store = try backend.makeStore()
        let groceries = Sample.list("Groceries")
        let trip = Sample.list("Trip", at: 1)
        let packing = Heading(listID: trip.id, title: "Packing", createdAt: Sample.date(2), sortIndex: 0)
        let day = Day(Sample.date(0), in: .gmt)
        var items = (0..<4).map { Sample.item(in: groceries.id, "G\($0)", sortIndex: Int64($0) * 10) }
        for index in items.indices { items[index].when = .on(day) }
        items[3].completedAt = Sample.date(5)
        var tent = Sample.item(in: trip.id, "Tent", sortIndex: 0)
        tent.heading = packing.id
        tent.completedAt = Sample.date(6)
        var map = Sample.item(in: trip.id, "Map", sortIndex: 0)
        map.when = .on(day)
        try store.repository.write { store throws in
            for list in [groceries, trip] { try store.insert(list) }
            try store.insert(packing)
            for item in items + [tent, map] { try store.insert(item) }
        }
        // G1 and the completed G3 go to the Trash, then the heading Packing, then the list Trip.
        try store.repository.write { store throws in
            for (index, moment) in [(1, 10.0), (3, 11.0)] {
                var item = items[index]
                item.trashedAt = Sample.date(moment)
                try store.update(item)
            }
            var heading = packing
            heading.trashedAt = Sample.date(12)
            try store.update(heading)
            var list = trip
            list.trashedAt = Sample.date(13)
            try store.update(list)
        }
        try store.repository.read { store throws in
            let titles = { (visibility: ItemVisibility) in try store.items(in: groceries.id, visibility: visibility, offset: 0, limit: .max).map(\.title) }
            #expect(try titles(.all) == ["G0", "G1", "G2", "G3"])
            #expect(try titles(.openAndCompleted) == ["G0", "G2"])
            #expect(try titles(.open) == ["G0", "G2"])
            #expect(try store.entryCount(in: .items(groceries.id), visibility: .openAndCompleted) == 2)
            #expect(try store.entryCount(in: .items(groceries.id), visibility: .all, before: items[2].orderKey) == 2)
            #expect(try store.entryCount(in: .items(groceries.id), visibility: .openAndCompleted, before: items[2].orderKey) == 1)
            #expect(try store.entries(in: .items(groceries.id), visibility: .all, offset: 1, limit: 1).map(\.isTrashed) == [true])
            // Their keys stay taken: a neighbour lookup sees them.
            #expect(try store.keys(in: .items(groceries.id), after: items[0].orderKey, limit: 1) == [items[1].orderKey])
            // A heading in the Trash takes its items out of its list's views, not out of .all.
            #expect(try store.items(in: trip.id, visibility: .openAndCompleted, offset: 0, limit: .max).map(\.title) == ["Map"])
            #expect(try store.items(in: trip.id, visibility: .all, offset: 0, limit: .max).map(\.title) == ["Map", "Tent"])
            #expect(try store.itemCount(in: trip.id, visibility: .openAndCompleted) == 1)
            #expect(try store.sections(of: trip.id, visibility: .open) == [.items(trip.id)])
            // The Trash itself, the most recent first.
            #expect(try store.items(.trashed).map(\.title) == ["G3", "G1"])
            #expect(try store.headings(.trashed).map(\.title) == ["Packing"])
            #expect(try store.lists().map(\.trashedAt) == [nil, Sample.date(13)])
            #expect(try store.listSummaries().map(\.name) == ["Groceries"], "a list in the Trash leaves the sidebar")
            // Today leaves out an item in the Trash itself, or of a list there; the Logbook any item in the Trash.
            #expect(Set(try store.datedItems(through: day).map(\.title)) == ["G0", "G2", "Map"])
            #expect(try TodayArrangement(on: day, visibility: .open, in: store).items.map(\.title).sorted() == ["G0", "G2"])
            #expect(try store.completedItems(offset: 0, limit: 10).isEmpty && store.completedItemCount() == 0)
        }
        // Out of the Trash again, everything is where it was.
        try store.repository.write { store throws in
            var list = try #require(try store.list(id: trip.id))
            list.trashedAt = nil
            try store.update(list)
            var heading = try #require(try store.heading(id: packing.id))
            heading.trashedAt = nil
            try store.update(heading)
            var item = try #require(try store.item(id: items[3].id))
            item.trashedAt = nil
            try store.update(item)
        }
        try store.repository.read { store throws in
            #expect(try store.items(in: groceries.id, visibility: .openAndCompleted, offset: 0, limit: .max).map(\.title) == ["G0", "G2", "G3"])
            #expect(try store.items(in: trip.id, visibility: .openAndCompleted, offset: 0, limit: .max).map(\.title) == ["Map", "Tent"])
            #expect(try store.completedItems(offset: 0, limit: 10).map(\.title) == ["Tent", "G3"] && store.completedItemCount() == 2)
            #expect(try store.items(.trashed).map(\.title) == ["G1"] && store.headings(.trashed).isEmpty)
        }
    }
}
