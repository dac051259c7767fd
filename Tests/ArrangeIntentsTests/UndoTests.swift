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
        let added = try await session.add("A", "B", "C")
        try await session.run(RenameItem(item: added[1].id, title: "Bee"))
        try await session.run(CompleteItems([added[0].id]))
        try await session.run(ReopenItems([added[0].id]))
        try await session.run(MoveItems([added[0].id], to: .bottom))
        try await session.run(DeleteItems([added[2].id]))
        let work = try await session.run(CreateList(name: "Work")).list.id
        try await session.add("X", to: "Work")
        try await session.run(MoveItems([added[1].id], to: .top, into: work))
        try await session.run(RenameList(list: work, name: "Job"))
        try await session.run(DeleteList(list: work))
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
        await expectFailure(IntentError.nothingToUndo) { try await session.run(Undo()) }

        for _ in 0..<steps { try await session.run(Redo()) }
        #expect(try session.order() == end)
        await expectFailure(IntentError.nothingToRedo) { try await session.run(Redo()) }
    }

    @Test("Undoing a delete brings back the same items, in their places")
    func deleteComesBack() async throws {
        let session = try await Session()
        let added = try await session.add("A", "B", "C", "D")
        try await session.run(CompleteItems([added[2].id]))
        try await session.run(DeleteItems([added[2].id, added[0].id, added[1].id]))
        #expect(try await session.titles() == "D")
        try await session.run(Undo())
        let restored = try await session.run(ListItems(visibility: .all)).items
        #expect(restored.map(\.title) == ["A", "B", "C", "D"])
        #expect(restored.map(\.id) == added.map(\.id))
        #expect(restored[2].completed)
    }

    @Test("Undoing a delete of a list restores the list and its items")
    func listComesBack() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        try await session.add("X", "Y", "Z", to: "Work")
        let before = try session.snapshot()
        try await session.run(DeleteList(list: try session.list("Work")))
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
            let moved = try await session.run(MoveItems([try session.item(6)], to: .after(try session.item(1))))
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
        await expectFailure(IntentError.nothingToUndo) { try await session.run(Undo()) }
        #expect(try await session.titles() == "A")
    }

    @Test("A step the store no longer fits fails, changes nothing and stays undoable")
    func conflict() async throws {
        let session = try await Session()
        let added = try await session.add("A", "B")
        try await session.run(MoveItems([added[0].id], to: .bottom))
        // Another client deletes A behind the session's back.
        try await session.repository.write { try $0.deleteItem(id: added[0].id) }
        let before = try session.snapshot()
        let error = await expectFailure(IntentError.self) { try await session.run(Undo()) }
        guard case .historyConflict(let action, _) = error else { Issue.record("expected a history conflict, got \(String(describing: error))"); return }
        #expect(action == "Move Items")
        #expect(error.map(String.init(describing:))?.hasPrefix("Cannot go back over 'Move Items': item") == true)
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
        let name = Bool.random(using: &random) ? "Inbox" : "Work"
        let (list, other) = (try session.list(name), try session.list(name == "Inbox" ? "Work" : "Inbox"))
        let items = try await session.run(ListItems(list: list)).items.map(\.id)
        guard let some = items.randomElement(using: &random), let anchor = items.randomElement(using: &random) else {
            try await session.run(AddItem(title: "n\(Int.random(in: 0..<1000, using: &random))", list: list))
            return
        }
        let placement: ItemPlacement = switch Int.random(in: 0..<5, using: &random) {
        case 0: .top
        case 1: .bottom
        case 2: .before(anchor)
        case 3: .after(anchor)
        default: .offset(Int.random(in: 0..<items.count, using: &random))
        }
        do {
            switch Int.random(in: 0..<7, using: &random) {
            case 0: try await session.run(AddItem(title: "n\(Int.random(in: 0..<1000, using: &random))", list: list, placement: placement))
            case 1: try await session.run(DeleteItems([some]))
            case 2: try await session.run(CompleteItems([some]))
            case 3: try await session.run(MoveItems([some], to: .offset(0), into: other))
            case 4: try await session.run(MoveItemsAtOffsets(fromOffsets: [0, items.count - 1], toOffset: items.count / 2, in: list))
            default: try await session.run(MoveItems([some], to: placement))
            }
        } catch is OrderingError {
        }
    }

    @Test("A performed intent reports the step it recorded; a session without history records none")
    func reportedSteps() async throws {
        let session = try await Session()
        let performed = try await session.environment.perform(AddItem(title: "A"))
        let step = try #require(performed.undoStep)
        #expect(step.actionName == "Add Item")
        #expect(session.environment.undoSteps == [step])
        let undone = try await session.environment.perform(Undo())
        #expect(undone.undoStep == nil)
        #expect(session.environment.redoSteps.map(\.id) == [step.id], "undoing keeps the step's identity")
        #expect(try await session.run(ListItems()).items.isEmpty)

        let oneShot = try await Session(historyLimit: 0)
        let unrecorded = try await oneShot.environment.perform(AddItem(title: "A"))
        #expect(unrecorded.undoStep == nil)
        #expect(oneShot.environment.undoCount == 0)
        await expectFailure(IntentError.nothingToUndo) { try await oneShot.run(Undo()) }
    }

    @Test("Undoing the creation of a list that has since become the default list is refused")
    func createdListBecameDefault() async throws {
        let session = try await Session()
        let work = try await session.run(CreateList(name: "Work")).list
        try await session.environment.prepareDefaultList(named: "Work")
        let error = await expectFailure(IntentError.self) { try await session.run(Undo()) }
        guard case .historyConflict = error else { Issue.record("expected a history conflict, got \(String(describing: error))"); return }
        #expect(try await session.run(GetLists()).lists.map(\.id).contains(work.id))
    }

    @Test("An intent of the app's own that runs two intents is one step, and one undo takes both back")
    func composedIntent() async throws {
        let session = try await Session()
        try await session.add("A")
        let result = try await session.run(AddToTodayAtOnce(title: "B"))
        #expect(try await session.titles() == "A B")
        #expect(try await session.run(ShowToday()).items.map(\.id) == [result.items[0].id])
        #expect(session.environment.undoSteps.last?.actionName == AddToTodayAtOnce.title)

        try await session.run(Undo())
        #expect(try await session.titles() == "A", "the item goes as well as its place in Today")
        #expect(try await session.run(ShowToday()).items.isEmpty)
        try await session.run(Redo())
        #expect(try await session.titles() == "A B")
        #expect(try await session.run(ShowToday()).items.map(\.title) == ["B"])
    }

}

/// Adds an item to the default list and puts it in Today: an intent an app makes of two others.
private struct AddToTodayAtOnce: ArrangeIntent {
    static let title = "Add to Today at Once"
    let title: String

    func run(in context: IntentContext) throws -> PlacementResult {
        let added = try AddItem(title: title).run(in: context)
        return try AddToToday(added.items.map(\.id)).run(in: context)
    }
}
