import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

/// The lists in a hand-made order, and Today: a second order of items across lists.
@Suite("Lists and Today in a hand-made order")
struct OrderingScopeIntentTests {
    private func listNames(_ session: Session) async throws -> [String] {
        try await session.run(GetLists()).lists.map(\.name)
    }

    private func today(_ session: Session, includeCompleted: Bool = false) async throws -> String {
        try await session.run(ShowToday(visibility: includeCompleted ? .all : .open)).items.map(\.title).joined(separator: " ")
    }

    @Test("Lists go to the bottom unless placed, move by placement and by offsets, and undo puts them back")
    func movingLists() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        try await session.run(CreateList(name: "Home"))
        try await session.run(CreateList(name: "Errands", placement: .top))
        try await session.run(CreateList(name: "Garden", placement: .after(try session.list("Inbox"))))
        #expect(try await listNames(session) == ["Errands", "Inbox", "Garden", "Work", "Home"])

        let moved = try await session.run(MoveList(try session.list("Home"), to: .before(try session.list("Inbox"))))
        #expect(moved.lists.map(\.name) == ["Errands", "Home", "Inbox", "Garden", "Work"])
        #expect(moved.rowsWritten == 1 && moved.rowsRespread == 0)
        #expect(zip(moved.lists, moved.lists.dropFirst()).allSatisfy { $0.sortIndex < $1.sortIndex })

        try await session.run(MoveListsAtOffsets(fromOffsets: [0, 1], toOffset: 5))
        #expect(try await listNames(session) == ["Inbox", "Garden", "Work", "Errands", "Home"])
        try await session.run(MoveList(try session.list("Work"), to: .offset(0)))
        #expect(try await listNames(session) == ["Work", "Inbox", "Garden", "Errands", "Home"])

        try await session.run(Undo())
        try await session.run(Undo())
        #expect(try await listNames(session) == ["Errands", "Home", "Inbox", "Garden", "Work"])
        try await session.run(Redo())
        #expect(try await listNames(session) == ["Inbox", "Garden", "Work", "Errands", "Home"])

        // A deleted list comes back at its place, with its items.
        try await session.add("Rake", to: "Garden")
        try await session.run(DeleteList(list: try session.list("Garden")))
        try await session.run(Undo())
        #expect(try await listNames(session) == ["Inbox", "Garden", "Work", "Errands", "Home"])
        #expect(try await session.titles("Garden") == "Rake")
    }

    @Test("Moving a list relative to itself, next to an unknown list or past the end is refused and changes nothing")
    func listErrors() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        let work = try session.list("Work")
        let before = try await session.run(GetLists())
        await expectFailure(OrderingError.placedRelativeToItself(work.entryID)) { try await session.run(MoveList(work, to: .after(work))) }
        let gone = ItemList.ID()
        await expectFailure(IntentError.unknownList(gone)) { try await session.run(MoveList(work, to: .before(gone))) }
        await expectFailure(IntentError.unknownList(gone)) { try await session.run(MoveList(gone, to: .top)) }
        await expectFailure(OrderingError.offsetOutOfRange(offset: 2, count: 1)) { try await session.run(MoveList(work, to: .offset(2))) }
        await expectFailure(OrderingError.offsetOutOfRange(offset: 3, count: 2)) { try await session.run(MoveListsAtOffsets(fromOffsets: [0], toOffset: 3)) }
        #expect(try await session.run(GetLists()) == before)
    }

    @Test("Today has its own order: moves in Today write only Today keys, moves in a list only list keys")
    func todayOrder() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        let inbox = try await session.add("A", "B", "C")
        let work = try await session.add("X", "Y", to: "Work")
        let added = try await session.run(AddToToday([inbox[2].id, work[0].id, inbox[0].id]))
        #expect(added.rowsWritten == 3)
        #expect(added.items.allSatisfy { $0.today && $0.todayIndex != nil })
        #expect(try await today(session) == "C X A")
        try await session.run(AddToToday([work[1].id], placement: .before(work[0].id)))
        #expect(try await today(session) == "C Y X A")

        let listKeys = try session.snapshot()
        let moved = try await session.run(MoveInToday([inbox[0].id], to: .top))
        #expect(moved.rowsWritten == 1)
        #expect(try await today(session) == "A C Y X")
        #expect(try session.snapshot() == listKeys, "a move in Today writes no list key")

        let todayBefore = try await session.run(ShowToday()).items.map(\.todayIndex)
        try await session.run(MoveItems([inbox[0].id], to: .bottom))
        #expect(try await session.titles() == "B C A")
        #expect(try await session.run(ShowToday()).items.map(\.todayIndex) == todayBefore, "a move in a list writes no Today key")

        try await session.run(MoveInTodayAtOffsets(fromOffsets: [0], toOffset: 4))
        #expect(try await today(session) == "C Y X A")
    }

    @Test("Completing keeps an item in Today, hidden; moving it to another list keeps its Today place; deleting removes it from both")
    func todayAndItemChanges() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        let items = try await session.add("A", "B", "C")
        try await session.run(AddToToday(items.map(\.id)))
        try await session.run(CompleteItems([items[1].id]))
        #expect(try await today(session) == "A C")
        #expect(try await today(session, includeCompleted: true) == "A B C")
        #expect(try await session.run(ShowToday()).items.map(\.position) == [1, 2])

        try await session.run(MoveItems([items[0].id], to: .top, into: try session.list("Work")))
        #expect(try await today(session) == "A C")
        try await session.run(DeleteItems([items[2].id]))
        #expect(try await today(session, includeCompleted: true) == "A B")
        try await session.run(Undo())
        #expect(try await today(session, includeCompleted: true) == "A B C", "undoing a delete puts the item back in Today too")
        #expect(try await session.titles() == "B C")

        let removed = try await session.run(RemoveFromToday([items[0].id]))
        #expect(removed.changed == 1 && !removed.items[0].today && removed.items[0].todayIndex == nil)
        #expect(try await today(session) == "C")
        #expect(try await session.titles("Work") == "A", "leaving Today keeps the list place")
        try await session.run(Undo())
        #expect(try await today(session) == "A C")
    }

    @Test("Undoing a move whose list was deleted since is a history conflict, and changes nothing")
    func undoIntoDeletedList() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        let items = try await session.add("A", "B")
        try await session.run(MoveItems([items[0].id], to: .top, into: try session.list("Work")))
        // Another client empties Inbox and deletes it behind the session's back.
        let inbox = try await session.repository.write { transaction in
            let inbox = try #require(try transaction.lists().first { $0.name == "Inbox" })
            try transaction.setDefaultListID(try #require(try transaction.lists().first { $0.name == "Work" }).id)
            try transaction.deleteList(id: inbox.id)
            return inbox.id
        }
        let before = try session.snapshot()
        let error = await expectFailure(IntentError.self) { try await session.run(Undo()) }
        #expect(error == .historyConflict(action: "Move Items", reason: .listGone(inbox)))
        #expect(error?.localizedDescription == "Cannot go back over “Move Items”: a list it changed no longer exists.")
        #expect(try session.snapshot() == before)
    }

    @Test("Undo takes items added to Today out again, and puts moved ones back")
    func todayUndo() async throws {
        let session = try await Session()
        let items = try await session.add("A", "B", "C")
        try await session.run(AddToToday([items[0].id, items[1].id]))
        try await session.run(AddToToday([items[2].id, items[1].id], placement: .top))
        #expect(try await today(session) == "B C A")
        try await session.run(Undo())
        #expect(try await today(session) == "A B")
        try await session.run(Undo())
        #expect(try await today(session) == "")
        try await session.run(Redo())
        try await session.run(Redo())
        #expect(try await today(session) == "B C A")
    }

    @Test("Today's errors: an anchor not in Today, an item not in Today, an offset past the end; nothing changes")
    func todayErrors() async throws {
        let session = try await Session()
        let items = try await session.add("A", "B", "C")
        try await session.run(AddToToday([items[0].id]))
        let before = try session.snapshot()
        let todayBefore = try await today(session)
        await expectFailure(OrderingError.anchorNotInToday(items[2].id)) { try await session.run(AddToToday([items[1].id], placement: .after(items[2].id))) }
        await expectFailure(IntentError.notInToday(items[1].id)) { try await session.run(RemoveFromToday([items[1].id])) }
        await expectFailure(IntentError.notInToday(items[1].id)) { try await session.run(MoveInToday([items[1].id], to: .top)) }
        await expectFailure(OrderingError.offsetOutOfRange(offset: 2, count: 1)) { try await session.run(MoveInTodayAtOffsets(fromOffsets: [0], toOffset: 2)) }
        await expectFailure(OrderingError.offsetOutOfRange(offset: 2, count: 1)) { try await session.run(AddToToday([items[1].id], placement: .offset(2))) }
        #expect(try session.snapshot() == before)
        #expect(try await today(session) == todayBefore)
    }

    @Test("validate and normalize work on the order of the lists and on Today")
    func maintenance() async throws {
        let session = try await Session(lists: ["Inbox", "Work", "Home"])
        let items = try await session.add("A", "B", "C")
        try await session.run(AddToToday([items[0].id, items[1].id]))
        try await session.run(AddToToday([items[2].id], placement: .top))
        // The fixture's lists share sortIndex 0: tied keys, ordered by id.
        let tied = try await session.run(ValidateList(.lists))
        #expect(tied.scope == .lists && tied.list == nil && tied.report.tiedItems == 3 && !tied.healthy)
        let repaired = try await session.run(ValidateList(.lists, repair: true))
        #expect(repaired.report.repaired && repaired.report.rowsWritten == 2)
        #expect(try await session.run(ValidateList(.lists)).healthy)
        #expect(try await listNames(session) == ["Inbox", "Work", "Home"])
        #expect(try await session.run(ValidateList(.today)).healthy)
        let normalized = try await session.run(NormalizeList(.today))
        #expect(normalized.scope == .today && normalized.list == nil && normalized.rowsWritten > 0)
        #expect(try await session.run(ShowToday()).items.map(\.todayIndex) == [-(1 << 32), 0, 1 << 32], "one end gap apart, centred on 0")
        #expect(try await today(session) == "C A B")
    }
}
