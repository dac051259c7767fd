import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("Move intents")
struct MoveIntentTests {
    @Test("Move to the top, the bottom, before and after an item, and to an offset")
    func placements() async throws {
        let session = try await Session()
        try await session.add("A", "B", "C", "D", "E")
        let moved = try await session.run(MoveItems([try session.item(5)], to: .top))
        #expect(moved.items.map(\.title) == ["E"])
        #expect(moved.rowsWritten == 1)
        #expect(try await session.titles() == "E A B C D")
        try await session.run(MoveItems([try session.item(1), try session.item(2)], to: .bottom))
        #expect(try await session.titles() == "B C D E A")
        try await session.run(MoveItems([try session.item(4)], to: .before(try session.item(1))))
        #expect(try await session.titles() == "E B C D A")
        try await session.run(MoveItems([try session.item(1)], to: .after(try session.item(3))))
        #expect(try await session.titles() == "B C E D A")
        try await session.run(MoveItems([try session.item(5)], to: .offset(1)))
        #expect(try await session.titles() == "B A C E D")
    }

    @Test("A move onto the items' own place writes nothing and records no step")
    func noOp() async throws {
        let session = try await Session()
        try await session.add("A", "B")
        let performed = try await session.environment.perform(MoveItems([try session.item(1)], to: .top))
        #expect(performed.result.rowsWritten == 0)
        #expect(performed.undoStep == nil)
        #expect(session.environment.undoCount == 2, "only the two adds")
    }

    @Test("Move into another list, next to an item of it")
    func intoAnotherList() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        let inbox = try await session.add("A", "B", "C")
        let work = try await session.add("X", "Y", to: "Work")
        let moved = try await session.run(MoveItems([inbox[0].id, inbox[2].id], to: .after(work[0].id), into: try session.list("Work")))
        #expect(moved.items.map(\.listName) == ["Work", "Work"])
        #expect(try await session.titles("Work") == "X A C Y")
        #expect(try await session.titles("Inbox") == "B")
        // The anchor's list is the destination when none is named.
        try await session.run(MoveItems([work[1].id], to: .before(inbox[1].id)))
        #expect(try await session.titles("Inbox") == "Y B")
    }

    @Test("A failing move changes nothing")
    func atomic() async throws {
        let session = try await Session()
        let added = try await session.add("A", "B", "C", "D")
        let before = try session.snapshot()
        let gone = Item.ID()
        await expectFailure(IntentError.unknownItem(gone)) { try await session.run(MoveItems([added[0].id, gone], to: .bottom)) }
        await expectFailure(IntentError.unknownItem(gone)) { try await session.run(MoveItems([added[0].id], to: .after(gone))) }
        await expectFailure(OrderingError.placedRelativeToItself(added[1].id.entryID)) { try await session.run(MoveItems([added[0].id, added[1].id], to: .after(added[1].id))) }
        await expectFailure(OrderingError.duplicateItems([added[0].id.entryID])) { try await session.run(MoveItems([added[0].id, added[0].id], to: .bottom)) }
        let nowhere = ItemList.ID()
        await expectFailure(IntentError.unknownList(nowhere)) { try await session.run(MoveItems([added[0].id], to: .top, into: nowhere)) }
        await expectFailure(IntentError.negativeOffset(-2)) { try await session.run(MoveItems([added[0].id], to: .offset(-2))) }
        #expect(try session.snapshot() == before)
    }

    @Test("The offset form has SwiftUI's semantics over the items the view shows")
    func offsets() async throws {
        let session = try await Session()
        for letter in "ABcDefgHIJKlmNO" { try await session.add(String(letter)) }
        let inbox = try session.list("Inbox")
        try await session.run(MoveItemsAtOffsets(fromOffsets: [2, 4, 5, 6, 11, 12], toOffset: 2, in: inbox))
        #expect(try await session.titles() == "A B c e f g l m D H I J K N O")

        // Completed items are not counted in a view of open items…
        try await session.run(CompleteItems([try session.item(1)]))
        try await session.run(MoveItemsAtOffsets(fromOffsets: [0], toOffset: 2, in: inbox))
        #expect(try await session.titles(includeCompleted: false) == "c B e f g l m D H I J K N O")
        // …and are in a view of every item: offset 0 is the completed A.
        try await session.run(MoveItemsAtOffsets(fromOffsets: [0], toOffset: 3, in: inbox, visibility: .all))
        #expect(try await session.titles() == "c B A e f g l m D H I J K N O")

        await expectFailure(OrderingError.offsetOutOfRange(offset: 15, count: 14)) { try await session.run(MoveItemsAtOffsets(fromOffsets: [0], toOffset: 15, in: inbox)) }
        await expectFailure(IntentError.negativeOffset(-1)) { try await session.run(MoveItemsAtOffsets(fromOffsets: [-1], toOffset: 0, in: inbox)) }
        await expectFailure(OrderingError.nothingToMove) { try await session.run(MoveItemsAtOffsets(fromOffsets: [], toOffset: 0, in: inbox)) }
    }
}
