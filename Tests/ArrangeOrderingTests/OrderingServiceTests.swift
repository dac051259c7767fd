import ArrangeModel
@testable import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("Placing and moving items")
struct OrderingServiceTests {
    @Test("The first item takes key 0; ends step the end gap; a middle insert takes the midpoint")
    func placesKeys() throws {
        let fixture = try Fixture()
        let b = try fixture.add("B")
        let c = try fixture.add("C", at: .bottom)
        let a = try fixture.add("A", at: .top)
        let middle = try fixture.add("M", at: .after(b.id))
        #expect(b.sortIndex == 0)
        #expect(c.sortIndex == 1 << 32)
        #expect(a.sortIndex == -(1 << 32))
        #expect(middle.sortIndex == 1 << 31)
        #expect(try fixture.titles() == "ABMC")
    }

    @Test("Apple's example: the lowercase letters of ABcDefgHIJKlmNO moved to offset 2")
    func applesExample() throws {
        let fixture = try Fixture()
        for letter in "ABcDefgHIJKlmNO" { try fixture.add(String(letter)) }
        let lowercase = IndexSet(try fixture.items().enumerated().filter { $0.element.title.first!.isLowercase }.map(\.offset))
        var reference = Array("ABcDefgHIJKlmNO")
        reference.referenceMove(fromOffsets: lowercase, toOffset: 2)
        let report = try fixture.service.move(fromOffsets: lowercase, toOffset: 2, in: .items(fixture.list.id))
        #expect(String(reference) == "ABcefglmDHIJKNO")
        #expect(try fixture.titles() == "ABcefglmDHIJKNO")
        #expect(report.rowsWritten == 5, "c is in place already and keeps its key")
        #expect(try report.placed.map { try fixture.repository.read { [id = $0.id] in try $0.existingItem(id: Item.ID(entry: id)) }.title }.joined() == "cefglm")
    }

    @Test("A move onto its own place, or onto the next offset, writes nothing")
    func noOpMoves() throws {
        let fixture = try Fixture()
        for letter in "ABCD" { try fixture.add(String(letter)) }
        for destination in [1, 2] {
            let report = try fixture.service.move(fromOffsets: [1], toOffset: destination, in: .items(fixture.list.id))
            #expect(report.rowsWritten == 0)
        }
        let items = try fixture.items()
        #expect(try fixture.service.move([items[1].id, items[2].id], to: .after(items[0].id)).rowsWritten == 0)
        #expect(try fixture.titles() == "ABCD")
    }

    @Test("A move writes one row")
    func oneRowPerMove() throws {
        let fixture = try Fixture()
        for letter in "ABCDE" { try fixture.add(String(letter)) }
        let items = try fixture.items()
        let report = try fixture.service.move([items[4].id], to: .before(items[1].id))
        #expect(report.rowsWritten == 1)
        #expect(report.rowsRespread == 0)
        #expect(try fixture.titles() == "AEBCD")
    }

    @Test("Items move into another list, at a placement there")
    func movesAcrossLists() throws {
        let fixture = try Fixture()
        let other = try Fixture.makeList(named: "Other", in: fixture.repository)
        for letter in "ABC" { try fixture.add(String(letter)) }
        for letter in "XY" { try fixture.add(String(letter), to: other.id) }
        let items = try fixture.items()
        let y = try fixture.items(of: other.id)[1]
        try fixture.service.move([items[2].id, items[0].id], to: .before(y.id))
        #expect(try fixture.titles() == "B")
        #expect(try fixture.titles(of: other.id) == "XACY")
        try fixture.service.move([items[1].id], to: .top, into: other.id)
        #expect(try fixture.titles(of: other.id) == "BXACY")
    }

    @Test("In a view that hides completed items, offsets count visible items and hidden ones keep their order")
    func filteredMoves() throws {
        let fixture = try Fixture()
        for letter in "AbCdE" { try fixture.add(String(letter)) }
        try fixture.repository.write { transaction in
            for item in try transaction.items(in: fixture.list.id, visibility: .all, offset: 0, limit: 10) where item.title.first!.isLowercase {
                var done = item
                done.completedAt = Date(timeIntervalSince1970: 1_800_000_100)
                try transaction.update(done)
            }
        }
        #expect(try fixture.titles(visibility: .open) == "ACE")
        try fixture.service.move(fromOffsets: [2], toOffset: 1, in: .items(fixture.list.id), visibility: .open)
        #expect(try fixture.titles(visibility: .open) == "AEC")
        #expect(try fixture.titles() == "AbECd")
        try fixture.service.move(fromOffsets: [0], toOffset: 3, in: .items(fixture.list.id), visibility: .open)
        #expect(try fixture.titles(visibility: .open) == "ECA")
        #expect(try fixture.titles() == "bECAd")
    }

    @Test("Bad moves are refused with an error that names the problem, and nothing changes")
    func refusesBadMoves() throws {
        let fixture = try Fixture()
        for letter in "ABC" { try fixture.add(String(letter)) }
        let items = try fixture.items()
        let list = fixture.list.id
        #expect(throws: OrderingError.offsetOutOfRange(offset: 4, count: 3)) { try fixture.service.move(fromOffsets: [0], toOffset: 4, in: .items(list)) }
        #expect(throws: OrderingError.offsetOutOfRange(offset: 3, count: 2)) { try fixture.service.move(fromOffsets: [3], toOffset: 0, in: .items(list)) }
        #expect(throws: OrderingError.offsetOutOfRange(offset: -1, count: 3)) { try fixture.add("D", at: .offset(-1)) }
        #expect(throws: OrderingError.nothingToMove) { try fixture.service.move([], to: .top) }
        #expect(throws: OrderingError.duplicateItems([items[0].id.entryID])) { try fixture.service.move([items[0].id, items[0].id], to: .top) }
        #expect(throws: OrderingError.placedRelativeToItself(items[1].id.entryID)) { try fixture.service.move([items[1].id], to: .after(items[1].id)) }
        #expect(throws: StoreError.itemNotFound(Item.ID.lowest)) { try fixture.service.move([Item.ID.lowest], to: .top) }
        #expect(try fixture.items() == items)
    }

    @Test("Adding at an offset counts visible items")
    func addsAtOffsets() throws {
        let fixture = try Fixture()
        try fixture.add("A")
        try fixture.add("C")
        try fixture.add("B", at: .offset(1))
        try fixture.add("D", at: .offset(3))
        try fixture.add("0", at: .offset(0))
        #expect(try fixture.titles() == "0ABCD")
    }

    @Test("Jitter lands a lone key in the middle third of its gap, repeatably for one seed")
    func jitter() throws {
        let keys = try (0..<2).map { _ in
            let fixture = try Fixture(configuration: OrderingConfiguration(jitter: true), seed: 99)
            let a = try fixture.add("A")
            let c = try fixture.add("C", at: .after(a.id))
            let b = try fixture.add("B", at: .after(a.id))
            let third = (c.sortIndex - a.sortIndex) / 3
            #expect((a.sortIndex + third)...(c.sortIndex - third) ~= b.sortIndex)
            return [a, b, c].map(\.sortIndex)
        }
        #expect(keys[0] == keys[1])
    }

    @Test("The gap a re-spread must leave is m^1.5 / 1.8 for m items, at least twice the minimum gap, as documented")
    func requiredGap() {
        #expect(KeyLayout.requiredGap(forItems: 100, minimumGap: 1) == 555)
        #expect(KeyLayout.requiredGap(forItems: 10_000, minimumGap: 1) == 555_555)
        #expect(KeyLayout.requiredGap(forItems: 4, minimumGap: 1_000) == 2_000)
    }

    @Test("A full gap re-spreads only a small window, and the order survives")
    func respreadsSmallWindow() throws {
        let fixture = try Fixture()
        for number in 0..<1_000 { try fixture.add(String(number)) }
        let anchor = try fixture.items()[500]
        var largest = 0
        for _ in 0..<200 {
            largest = max(largest, try fixture.service.add(Item(listID: fixture.list.id, title: "x", sortIndex: 0, createdAt: .now), at: .after(anchor.id)).rowsWritten)
        }
        try fixture.expectStrictlyRising()
        #expect(largest > 1, "200 inserts into one gap must have re-spread at least once")
        #expect(largest < 100, "a re-spread must stay a small window; it wrote \(largest) rows")
    }

    @Test("A move stamps its clock's time on the moved item and on every neighbour it re-spreads, and on no other")
    func respreadStampsUpdatedAt() throws {
        let repository = InMemoryItemRepository()
        let list = try Fixture.makeList(named: "Stamps", in: repository)
        let created = Date(timeIntervalSince1970: 1_800_000_000)
        let moment = Date(timeIntervalSince1970: 1_900_000_000)
        // Keys 1 apart: the first move between two of them must re-spread a window.
        let items = (0..<20).map { Item(listID: list.id, title: "\($0)", sortIndex: Int64($0), createdAt: created) }
        try repository.write { store in
            for item in items { try store.insert(item) }
        }
        let service = try OrderingService(repository: repository, now: { moment })
        let report = try service.move([items[15].id], to: .after(items[5].id))
        #expect(report.rowsRespread > 0)

        let after = try repository.read { try $0.items(in: list.id, visibility: .all, offset: 0, limit: .max) }
        let before = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        let rewritten = after.filter { $0.id == items[15].id || $0.sortIndex != before[$0.id]?.sortIndex }
        #expect(rewritten.count == report.rowsWritten)
        #expect(rewritten.allSatisfy { $0.updatedAt == moment })
        #expect(after.filter { !rewritten.contains($0) }.allSatisfy { $0.updatedAt == created })
    }
}
