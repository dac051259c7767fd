import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("Checklist intents")
struct ChecklistIntentTests {
    /// A session with one item, Trip, whose checklist holds these entries in this order.
    private func trip(_ titles: String...) async throws -> (session: Session, trip: Item.ID, entries: [ChecklistItem.ID]) {
        let session = try await Session()
        let trip = try await session.add("Trip", "Groceries")[0].id
        var entries: [ChecklistItem.ID] = []
        for title in titles {
            entries += try await session.run(AddChecklistItem(title: title, to: trip)).changed
        }
        return (session, trip, entries)
    }

    /// The checklist of `item` as "title" or "title ✓" for a ticked-off entry, in order.
    private func checklist(_ session: Session, _ item: Item.ID) async throws -> [String] {
        try await session.run(ShowItem(item: item)).item.checklist.map { $0.completed ? "\($0.title) ✓" : $0.title }
    }

    @Test("Entries are added where asked, retitled, ticked off, reopened, moved and deleted, each move writing one row")
    func lifecycle() async throws {
        let (session, trip, entries) = try await trip("Passport", "Charger")
        let tickets = try await session.run(AddChecklistItem(title: "  Tickets ", to: trip, at: .after(entries[0])))
        #expect(tickets.item.checklist.map(\.title) == ["Passport", "Tickets", "Charger"])
        #expect(tickets.rowsWritten == 1)
        let map = try await session.run(AddChecklistItem(title: "Map", to: trip, at: .offset(0))).changed[0]
        #expect(try await checklist(session, trip) == ["Map", "Passport", "Tickets", "Charger"])

        #expect(try await session.run(EditChecklistItem(entries[1], title: "USB-C charger")).changed == [entries[1]])
        #expect(try await session.run(EditChecklistItem(entries[1], title: "USB-C charger")).changed == [], "the same title changes nothing")
        let done = try await session.run(CompleteChecklistItems([entries[0], map, entries[0]]))
        #expect(done.changed == [entries[0], map])
        #expect(try await session.run(CompleteChecklistItems([map])).changed == [], "already ticked off")
        #expect(try await session.run(ReopenChecklistItems([map])).changed == [map])
        #expect(try await checklist(session, trip) == ["Map", "Passport ✓", "Tickets", "USB-C charger"])

        let moved = try await session.run(MoveChecklistItems([entries[1]], to: .top))
        #expect(moved.rowsWritten == 1)
        let dragged = try await session.run(MoveChecklistItemsAtOffsets(fromOffsets: [1], toOffset: 4, in: trip))
        #expect(dragged.rowsWritten == 1)
        #expect(try await checklist(session, trip) == ["USB-C charger", "Passport ✓", "Tickets", "Map"])
        let shown = try await session.run(ShowItem(item: trip)).item.checklist.map(\.id)
        try await session.run(MoveChecklistItemsAtOffsets(fromOffsets: [3], toOffset: 0, in: trip, shown: shown))
        #expect(try await checklist(session, trip) == ["Map", "USB-C charger", "Passport ✓", "Tickets"])

        let deleted = try await session.run(DeleteChecklistItems([map, entries[0]]))
        #expect(deleted.changed == [map, entries[0]])
        #expect(try await checklist(session, trip) == ["USB-C charger", "Tickets"])
        #expect(try await session.run(ListItems()).items.first?.checklist.map(\.title) == ["USB-C charger", "Tickets"], "a list shows each item's checklist")
    }

    @Test("Bad input is refused with the error that names it, and changes nothing")
    func badInput() async throws {
        let (session, trip, entries) = try await trip("Passport", "Charger")
        let groceries = try session.item(2)
        let milk = try await session.run(AddChecklistItem(title: "Milk", to: groceries)).changed[0]
        let before = try await checklist(session, trip)
        let unknownItem = Item.ID()
        let unknownEntry = ChecklistItem.ID()
        await expectFailure(IntentError.unknownItem(unknownItem)) { try await session.run(AddChecklistItem(title: "X", to: unknownItem)) }
        await expectFailure(TitleError.empty(field: .title)) { try await session.run(AddChecklistItem(title: "  ", to: trip)) }
        await expectFailure(IntentError.unknownChecklistItem(unknownEntry)) { try await session.run(AddChecklistItem(title: "X", to: trip, at: .before(unknownEntry))) }
        await expectFailure(OrderingError.notInChecklist(milk, item: trip)) { try await session.run(AddChecklistItem(title: "X", to: trip, at: .after(milk))) }
        await expectFailure(IntentError.negativeOffset(-1)) { try await session.run(AddChecklistItem(title: "X", to: trip, at: .offset(-1))) }
        await expectFailure(OrderingError.offsetOutOfRange(offset: 5, count: 2)) { try await session.run(AddChecklistItem(title: "X", to: trip, at: .offset(5))) }
        await expectFailure(IntentError.unknownChecklistItem(unknownEntry)) { try await session.run(EditChecklistItem(unknownEntry, title: "X")) }
        await expectFailure(IntentError.noChecklistItemsNamed) { try await session.run(CompleteChecklistItems([])) }
        await expectFailure(OrderingError.notInChecklist(milk, item: trip)) { try await session.run(DeleteChecklistItems([entries[0], milk])) }
        await expectFailure(OrderingError.notInChecklist(milk, item: trip)) { try await session.run(MoveChecklistItems([entries[0]], to: .before(milk))) }
        await expectFailure(OrderingError.placedRelativeToItself(entries[0].entryID)) { try await session.run(MoveChecklistItems([entries[0]], to: .after(entries[0]))) }
        await expectFailure(OrderingError.offsetOutOfRange(offset: 2, count: 1)) { try await session.run(MoveChecklistItemsAtOffsets(fromOffsets: [2], toOffset: 0, in: trip)) }
        await expectFailure(IntentError.unknownItem(unknownItem)) { try await session.run(MoveChecklistItemsAtOffsets(fromOffsets: [0], toOffset: 1, in: unknownItem)) }
        #expect(try await checklist(session, trip) == before)
        #expect(try await checklist(session, groceries) == ["Milk"])
        #expect(session.environment.undoCount == 5, "three adds before, and nothing since")
    }

    @Test("Each checklist change undoes and redoes, and so does a delete of the item or its list with the checklist")
    func undo() async throws {
        let (session, trip, entries) = try await trip("Passport", "Charger", "Tickets")
        let start = try await checklist(session, trip)
        try await session.run(EditChecklistItem(entries[0], title: "Passports"))
        try await session.run(CompleteChecklistItems([entries[1], entries[2]]))
        try await session.run(ReopenChecklistItems([entries[2]]))
        try await session.run(MoveChecklistItems([entries[2]], to: .top))
        try await session.run(MoveChecklistItemsAtOffsets(fromOffsets: [0], toOffset: 3, in: trip))
        try await session.run(DeleteChecklistItems([entries[1], entries[0]]))
        try await session.run(AddChecklistItem(title: "Map", to: trip, at: .top))
        let end = try await checklist(session, trip)
        #expect(end == ["Map", "Tickets"])
        var undone: [String] = []
        for _ in 0..<7 { undone.append(try await session.run(Undo()).action) }
        #expect(undone == [
            "Add Checklist Item", "Delete Checklist Items", "Move Checklist Items", "Move Checklist Items", "Reopen Checklist Items",
            "Complete Checklist Items", "Edit Checklist Item",
        ])
        #expect(try await checklist(session, trip) == start)
        let ids = try await session.run(ShowItem(item: trip)).item.checklist.map(\.id)
        #expect(ids == entries, "the entries come back with their ids")
        for _ in 0..<7 { try await session.run(Redo()) }
        #expect(try await checklist(session, trip) == end)

        try await session.run(CompleteChecklistItems([try #require(try await session.run(ShowItem(item: trip)).item.checklist.last?.id)]))
        let whole = try await checklist(session, trip)
        try await session.run(DeleteItems([trip]))
        try await session.run(Undo())
        #expect(try await checklist(session, trip) == whole, "an item comes back with its checklist")
        let work = try await session.run(CreateList(name: "Work")).list.id
        try await session.run(MoveItems([trip], to: .top, into: work))
        try await session.run(DeleteList(list: work))
        try await session.run(Undo())
        #expect(try await checklist(session, trip) == whole, "a list comes back with its items' checklists")
        try await session.run(Redo())
        #expect(try await session.run(ShowItem(item: trip)).item.trashedAt != nil, "redone, the delete puts the list back in the Trash, with the item")
    }

    @Test("Canceling leaves ticked-off entries alone; reopen opens canceled entries; undo and redo give each state back")
    func cancel() async throws {
        let (session, trip, entries) = try await trip("Passport", "Charger", "Tickets")
        let statuses = { try await session.run(ShowItem(item: trip)).item.checklist.map(\.status) }
        try await session.run(CompleteChecklistItems([entries[0]]))
        let canceled = try await session.run(CancelChecklistItems([entries[0], entries[1]]))
        #expect(canceled.changed == [entries[1]], "a ticked-off entry stays ticked off")
        #expect(try await statuses() == [.completed, .canceled, .open])
        let entry = try #require(try await session.run(ShowItem(item: trip)).item.checklist.first { $0.id == entries[1] })
        #expect(!entry.completed && entry.completedAt != nil)
        try await session.run(ReopenChecklistItems([entries[0], entries[1]]))
        #expect(try await statuses() == [.open, .open, .open])
        try await session.run(Undo())
        #expect(try await statuses() == [.completed, .canceled, .open], "the reopening undone: each closed as it was")
        try await session.run(Undo())
        #expect(try await statuses() == [.completed, .open, .open])
        try await session.run(Redo())
        #expect(try await statuses() == [.completed, .canceled, .open])
    }

    @Test("Undo refuses to take back an edit of an entry changed since, or a delete of an entry that came back, and changes nothing")
    func undoConflicts() async throws {
        let (session, trip, entries) = try await trip("Passport", "Charger")
        try await session.run(EditChecklistItem(entries[0], title: "Passports"))
        // Another window changes the title, outside this session's history.
        try await session.repository.write { transaction in
            var entry = try transaction.existingChecklistItem(id: entries[0])
            entry.title = "ID"
            try transaction.update(entry)
        }
        await expectFailure(IntentError.historyConflict(action: "Edit Checklist Item", reason: .checklistItemEditedSince(entry: entries[0], title: "ID"))) {
            try await session.run(Undo())
        }
        #expect(try await checklist(session, trip) == ["ID", "Charger"])

        let deleted = try await session.run(DeleteChecklistItems([entries[1]]))
        #expect(deleted.item.checklist.map(\.title) == ["ID"])
        try await session.repository.write { try $0.insert(ChecklistItem(id: entries[1], itemID: trip, title: "Charger again", sortIndex: 1 << 40)) }
        await expectFailure(IntentError.historyConflict(action: "Delete Checklist Items", reason: .checklistItemExistsAgain(entries[1]))) {
            try await session.run(Undo())
        }
        #expect(try await checklist(session, trip) == ["ID", "Charger again"])
    }
}
