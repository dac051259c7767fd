import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("Undo and redo")
struct UndoTests {
    @Test("Each kind of step undoes and redoes")
    func everyKind() async throws {
        let session = try await Session()
        let start = try session.order()
        try await session.add("A", "B", "C")
        try await session.run(RenameItem(item: "#2", title: "Bee"))
        try await session.run(CompleteItems(items: ["#1"]))
        try await session.run(ReopenItems(items: ["00000002"]))
        try await session.run(MoveItems(items: ["#1"], placement: .bottom))
        try await session.run(DeleteItems(items: ["#2"]))
        try await session.run(CreateList(name: "Work"))
        try await session.add("X", to: "Work")
        try await session.run(MoveItems(items: ["#1"], placement: .top, list: "Work"))
        try await session.run(RenameList(list: "Work", name: "Job"))
        try await session.run(DeleteList(list: "Job"))
        let end = try session.order()

        let steps = session.environment.undoCount
        #expect(steps == 13)
        var undone: [String] = []
        for _ in 0..<steps {
            undone.append(try await session.run(Undo()).action)
            try session.expectStrictlyRising()
        }
        #expect(undone == [
            "Delete List", "Rename List", "Move Items", "Add Item", "Create List", "Delete Items", "Move Items",
            "Reopen Items", "Complete Items", "Rename Item", "Add Item", "Add Item", "Add Item",
        ])
        #expect(try session.order() == start)
        await expectFailure("nothingToUndo") { try await session.run(Undo()) }

        for _ in 0..<steps { try await session.run(Redo()) }
        #expect(try session.order() == end)
        await expectFailure("nothingToRedo") { try await session.run(Redo()) }
    }

    @Test("Undoing a delete brings back the same items, in their places")
    func deleteComesBack() async throws {
        let session = try await Session()
        let added = try await session.add("A", "B", "C", "D")
        try await session.run(CompleteItems(items: ["#3"]))
        try await session.run(DeleteItems(items: [ItemReference(added[2].id.text), "#1", "#2"]))
        #expect(try await session.titles() == "D")
        try await session.run(Undo())
        let restored = try await session.run(ListItems(includeCompleted: true)).items
        #expect(restored.map(\.title) == ["A", "B", "C", "D"])
        #expect(restored.map(\.id) == added.map(\.id))
        #expect(restored[2].completed)
    }

    @Test("Undoing a delete of a list restores the list and its items")
    func listComesBack() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        try await session.add("X", "Y", "Z", to: "Work")
        let before = try session.snapshot()
        try await session.run(DeleteList(list: "Work"))
        try await session.run(Undo())
        #expect(try session.snapshot() == before)
        try await session.run(Redo())
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["Inbox"])
    }

    @Test("Undoing a move that re-spread its neighbours puts the order back, not the old keys")
    func moveAfterRespread() async throws {
        // Tiny gaps: every few inserts into one gap re-spread the neighbours.
        let session = try await Session(configuration: OrderingConfiguration(endGap: 4, minimumGap: 1))
        try await session.add("A", "B", "C", "D", "E", "F")
        let start = try await session.titles()
        var respreads = 0
        for round in 0..<12 {
            // Keep moving the last item into the gap after A.
            let moved = try await session.run(MoveItems(items: ["#6"], placement: .after("#1")))
            respreads += moved.rowsRespread
            try session.expectStrictlyRising()
            _ = round
        }
        #expect(respreads > 0, "the test must exercise a re-spread")
        let end = try await session.titles()
        for _ in 0..<12 {
            try await session.run(Undo())
            try session.expectStrictlyRising()
        }
        #expect(try await session.titles() == start)
        for _ in 0..<12 { try await session.run(Redo()) }
        #expect(try await session.titles() == end)
    }

    @Test("A new change clears redo; the history keeps at most historyLimit steps")
    func bounded() async throws {
        let session = try await Session(historyLimit: 2)
        try await session.add("A", "B", "C")
        #expect(session.environment.undoCount == 2)
        try await session.run(Undo())
        #expect(session.environment.redoCount == 1)
        try await session.add("D")
        #expect(session.environment.redoCount == 0)
        try await session.run(Undo())
        try await session.run(Undo())
        await expectFailure("nothingToUndo") { try await session.run(Undo()) }
        #expect(try await session.titles() == "A")
    }

    @Test("A step the store no longer fits fails, changes nothing and stays undoable")
    func conflict() async throws {
        let session = try await Session()
        let added = try await session.add("A", "B")
        try await session.run(MoveItems(items: ["#1"], placement: .bottom))
        // Another client deletes A behind the session's back.
        try session.repository.write { try $0.deleteItem(id: added[0].id) }
        let before = try session.snapshot()
        let message = await expectFailure("historyConflict") { try await session.run(Undo()) }
        #expect(message?.hasPrefix("Cannot go back over 'Move Items': item") == true)
        #expect(try session.snapshot() == before)
        #expect(session.environment.undoCount == 3)
    }

    @Test("Random sessions: undoing everything restores the start, redoing everything the end")
    func randomSessions() async throws {
        var random = SeededRandomNumberGenerator(seed: 11)
        for _ in 0..<4 {
            let session = try await Session(configuration: OrderingConfiguration(endGap: 8, minimumGap: 1), lists: ["Inbox", "Work"])
            try await session.add("a", "b", "c", "d", "e")
            try await session.add("v", "w", to: "Work")
            let start = try session.order()
            let stepsBefore = session.environment.undoCount
            for _ in 0..<40 {
                try await randomStep(session, using: &random)
                try session.expectStrictlyRising()
            }
            let end = try session.order()
            let steps = session.environment.undoCount - stepsBefore
            for _ in 0..<steps {
                try await session.run(Undo())
                try session.expectStrictlyRising()
            }
            #expect(try session.order() == start)
            for _ in 0..<steps { try await session.run(Redo()) }
            #expect(try session.order() == end)
        }
    }

    /// One random change; a refused one (an empty list, say) changes nothing and is skipped.
    private func randomStep(_ session: Session, using random: inout SeededRandomNumberGenerator) async throws {
        let list: ListReference = Bool.random(using: &random) ? "Inbox" : "Work"
        let count = try await session.run(ListItems(list: list)).items.count
        let some = ItemReference("#\(Int.random(in: 1...max(1, count), using: &random))")
        let placement: PlacementReference = switch Int.random(in: 0..<5, using: &random) {
        case 0: .top
        case 1: .bottom
        case 2: .before(ItemReference("#\(Int.random(in: 1...max(1, count), using: &random))"))
        case 3: .after(ItemReference("#\(Int.random(in: 1...max(1, count), using: &random))"))
        default: .offset(Int.random(in: 0...max(0, count - 1), using: &random))
        }
        do {
            switch Int.random(in: 0..<7, using: &random) {
            case 0: try await session.run(AddItem(title: "n\(Int.random(in: 0..<1000, using: &random))", list: list, placement: placement))
            case 1: try await session.run(DeleteItems(items: [some], list: list))
            case 2: try await session.run(CompleteItems(items: [some], list: list))
            case 3: try await session.run(MoveItems(items: [some], placement: .offset(0), list: list == "Inbox" ? "Work" : "Inbox", from: list))
            case 4: try await session.run(MoveItemsAtOffsets(fromOffsets: [0, count - 1], toOffset: count / 2, list: list))
            default: try await session.run(MoveItems(items: [some], placement: placement, from: list))
            }
        } catch is IntentError {
        } catch is OrderingError {
        }
    }
}
