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
        let moved = try await session.run(MoveItems(items: ["#5"], placement: .top))
        #expect(moved.items.map(\.title) == ["E"])
        #expect(moved.rowsWritten == 1)
        #expect(try await session.titles() == "E A B C D")
        try await session.run(MoveItems(items: ["#1", "#2"], placement: .bottom))
        #expect(try await session.titles() == "B C D E A")
        try await session.run(MoveItems(items: ["#4"], placement: .before("#1")))
        #expect(try await session.titles() == "E B C D A")
        try await session.run(MoveItems(items: ["#1"], placement: .after("#3")))
        #expect(try await session.titles() == "B C E D A")
        try await session.run(MoveItems(items: ["#5"], placement: .offset(1)))
        #expect(try await session.titles() == "B A C E D")
    }

    @Test("A move onto the items' own place writes nothing and records no step")
    func noOp() async throws {
        let session = try await Session()
        try await session.add("A", "B")
        let moved = try await session.run(MoveItems(items: ["#1"], placement: .top))
        #expect(moved.rowsWritten == 0)
        #expect(session.environment.undoCount == 2, "only the two adds")
    }

    @Test("Move into another list; #N in the placement counts the target list")
    func intoAnotherList() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        try await session.add("A", "B", "C")
        try await session.add("X", "Y", to: "Work")
        let moved = try await session.run(MoveItems(items: ["#1", "#3"], placement: .after("#1"), list: "work"))
        #expect(moved.items.map(\.listName) == ["Work", "Work"])
        #expect(try await session.titles("Work") == "X A C Y")
        #expect(try await session.titles("Inbox") == "B")

        // `from` says where #N counts for the moved items.
        try await session.run(MoveItems(items: ["#4"], placement: .top, list: "Inbox", from: "Work"))
        #expect(try await session.titles("Inbox") == "Y B")
    }

    @Test("Moving several items keeps their order; a failing move changes nothing")
    func atomic() async throws {
        let session = try await Session()
        try await session.add("A", "B", "C", "D")
        let before = try session.snapshot()
        await expectFailure("positionOutOfRange") { try await session.run(MoveItems(items: ["#1", "#9"], placement: .bottom)) }
        await expectFailure("placedRelativeToItself") { try await session.run(MoveItems(items: ["#1", "#2"], placement: .after("#2"))) }
        await expectFailure("duplicateItems") { try await session.run(MoveItems(items: ["#1", "#1"], placement: .bottom)) }
        await expectFailure("unknownList") { try await session.run(MoveItems(items: ["#1"], placement: .top, list: "Nope")) }
        #expect(try session.snapshot() == before)
    }

    @Test("The offset form has SwiftUI's semantics over the open items")
    func offsets() async throws {
        let session = try await Session()
        for letter in "ABcDefgHIJKlmNO" { try await session.add(String(letter)) }
        try await session.run(MoveItemsAtOffsets(fromOffsets: [2, 4, 5, 6, 11, 12], toOffset: 2))
        #expect(try await session.titles() == "A B c e f g l m D H I J K N O")

        // Completed items are not counted.
        try await session.run(CompleteItems(items: ["#1"]))
        try await session.run(MoveItemsAtOffsets(fromOffsets: [0], toOffset: 2))
        #expect(try await session.titles(includeCompleted: false) == "c B e f g l m D H I J K N O")

        await expectFailure("offsetOutOfRange") { try await session.run(MoveItemsAtOffsets(fromOffsets: [0], toOffset: 15)) }
        await expectFailure("offsetOutOfRange") { try await session.run(MoveItemsAtOffsets(fromOffsets: [-1], toOffset: 0)) }
        await expectFailure("nothingToMove") { try await session.run(MoveItemsAtOffsets(fromOffsets: [], toOffset: 0)) }
    }
}
