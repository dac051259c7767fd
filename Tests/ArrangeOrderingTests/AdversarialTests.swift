import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

/// The sequences that break earlier approaches: each runs 20,000 operations into one spot
/// and must never fail, with the order and strictly rising keys intact.
@Suite("Adversarial sequences")
struct AdversarialTests {
    static let operations = 20_000

    /// A list of ten items, keys one end gap apart.
    func seeded(jitter: Bool = false) throws -> Fixture {
        let fixture = try Fixture(configuration: OrderingConfiguration(jitter: jitter))
        for number in 0..<10 { try fixture.add("seed \(number)") }
        return fixture
    }

    func newItem(_ fixture: Fixture, _ number: Int) -> Item {
        Item(listID: fixture.list.id, title: "\(number)", sortIndex: 0, createdAt: Date(timeIntervalSince1970: 0))
    }

    @Test("20,000 inserts at offset 1")
    func insertsAtOffsetOne() throws {
        let fixture = try seeded()
        for number in 0..<Self.operations {
            try fixture.service.add(newItem(fixture, number), at: .offset(1))
        }
        let titles = try fixture.items().map(\.title)
        #expect(titles.count == Self.operations + 10)
        #expect(Array(titles[1...3]) == ["19999", "19998", "19997"])
        #expect(titles[Self.operations] == "0")
        try fixture.expectStrictlyRising()
    }

    @Test("20,000 times: move the last item to offset 1")
    func movesLastToOffsetOne() throws {
        let fixture = try seeded()
        for number in 0..<1_000 { try fixture.add("\(number)") }
        let before = try fixture.items().map(\.title)
        for _ in 0..<Self.operations {
            let count = try fixture.repository.read { try $0.itemCount(in: fixture.list.id, visibility: .all) }
            try fixture.service.move(fromOffsets: [count - 1], toOffset: 1, in: .items(fixture.list.id))
        }
        // Each move rotates items 1... right by one; 20,000 rotations of 1,009 items.
        let tail = Array(before.dropFirst())
        let shift = Self.operations % tail.count
        #expect(try fixture.items().map(\.title) == [before[0]] + tail.suffix(shift) + tail.prefix(tail.count - shift))
        try fixture.expectStrictlyRising()
    }

    @Test("20,000 inserts, each right after the one before")
    func insertsAfterPrevious() throws {
        let fixture = try seeded()
        var previous = try fixture.items()[4].id
        for number in 0..<Self.operations {
            previous = Item.ID(entry: try fixture.service.add(newItem(fixture, number), at: .after(previous)).placed[0].id)
        }
        let titles = try fixture.items().map(\.title)
        #expect(Array(titles[5..<(5 + Self.operations)]) == (0..<Self.operations).map(String.init))
        try fixture.expectStrictlyRising()
    }

    @Test("20,000 inserts at the top, each writing exactly one row")
    func insertsAtTop() throws {
        let fixture = try seeded()
        var rows: Set<Int> = []
        for number in 0..<Self.operations {
            rows.insert(try fixture.service.add(newItem(fixture, number), at: .top).rowsWritten)
        }
        #expect(rows == [1])
        #expect(try fixture.items().first?.title == "19999")
        try fixture.expectStrictlyRising()
    }

    @Test("With jitter, 20,000 inserts into the same gap")
    func jitteredInsertsIntoOneGap() throws {
        let fixture = try seeded(jitter: true)
        let anchor = try fixture.items()[3].id
        for number in 0..<Self.operations {
            try fixture.service.add(newItem(fixture, number), at: .after(anchor))
        }
        let titles = try fixture.items().map(\.title)
        #expect(Array(titles[4...5]) == ["19999", "19998"])
        try fixture.expectStrictlyRising()
    }

    @Test("A list whose every key is the same is repaired in (old sortIndex, id) order, keys strictly rising")
    func checkUniqueness() throws {
        let fixture = try Fixture()
        for number in 0..<500 { try fixture.add("\(number)") }
        let everyone = try fixture.items()
        try fixture.repository.write { transaction in
            try transaction.setSortIndices(everyone.map { SortIndexChange(id: $0.id.entryID, sortIndex: 7) }, in: .items(fixture.list.id), updatedAt: fixture.clock)
        }
        let expected = everyone.map(\.id).sorted()
        let found = try fixture.service.validate(.items(fixture.list.id), repair: false)
        #expect(found.tiedGroups == 1 && found.tiedItems == 500 && !found.repaired)
        let repaired = try fixture.service.validate(.items(fixture.list.id), repair: true)
        #expect(repaired.repaired && repaired.rowsWritten >= 499)
        #expect(try fixture.items().map(\.id) == expected)
        try fixture.expectStrictlyRising()
        #expect(try fixture.service.validate(.items(fixture.list.id), repair: false).isHealthy)
    }

    @Test("Ties between neighbours are resolved touching only the tied items when the gap allows")
    func checkUniquenessTouchesFew() throws {
        let fixture = try Fixture()
        for number in 0..<20 { try fixture.add("\(number)") }
        let items = try fixture.items()
        try fixture.repository.write { try $0.setSortIndices([SortIndexChange(id: items[9].id.entryID, sortIndex: items[8].sortIndex)], in: .items(fixture.list.id), updatedAt: fixture.clock) }
        let expected = try fixture.items().map(\.id)
        let report = try fixture.repository.write { try fixture.service.checkUniqueness(.items(fixture.list.id), in: $0) }
        #expect(report.rowsWritten == 1 && report.rowsRespread == 0)
        #expect(try fixture.items().map(\.id) == expected)
        try fixture.expectStrictlyRising()
    }

    @Test("Normalize spreads the list evenly around 0 and keeps its order")
    func normalizes() throws {
        let fixture = try Fixture()
        for number in 0..<9 { try fixture.add("\(number)", at: .top) }
        let order = try fixture.items().map(\.id)
        try fixture.service.normalize(.items(fixture.list.id))
        let keys = try fixture.items().map(\.sortIndex)
        #expect(try fixture.items().map(\.id) == order)
        #expect(keys == (-4...4).map { Int64($0) << 32 })
        #expect(try fixture.service.normalize(.items(fixture.list.id)).rowsWritten == 0)
    }

    @Test("Keys closer than the minimum gap are found and re-spread")
    func crampedGaps() throws {
        let fixture = try Fixture(configuration: OrderingConfiguration(minimumGap: 1_000))
        for number in 0..<6 { try fixture.add("\(number)") }
        let items = try fixture.items()
        try fixture.repository.write { try $0.setSortIndices([SortIndexChange(id: items[3].id.entryID, sortIndex: items[2].sortIndex + 10)], in: .items(fixture.list.id), updatedAt: fixture.clock) }
        #expect(try fixture.service.validate(.items(fixture.list.id), repair: false).crampedGaps == 1)
        let repaired = try fixture.service.validate(.items(fixture.list.id), repair: true)
        #expect(repaired.rowsWritten > 0)
        #expect(try fixture.items().map(\.id) == items.map(\.id))
        #expect(try fixture.service.validate(.items(fixture.list.id), repair: false).isHealthy)
    }
}
