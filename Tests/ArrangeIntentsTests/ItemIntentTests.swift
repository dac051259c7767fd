import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("Item intents")
struct ItemIntentTests {
    @Test("Add places items at the bottom, the top, next to an item or at an offset")
    func add() async throws {
        let session = try await Session()
        try await session.add("B", "D")
        try await session.run(AddItem(title: "A", placement: .top))
        try await session.run(AddItem(title: "C", placement: .after(try session.item(2))))
        try await session.run(AddItem(title: "E", placement: .offset(4)))
        let result = try await session.run(AddItem(title: "  Z  ", list: try session.list("Inbox"), placement: .before(try session.item(1)), notes: "first"))
        #expect(result.items.map(\.title) == ["Z"])
        #expect(result.items[0].notes == "first")
        #expect(result.rowsWritten == 1)
        #expect(result.items[0].createdAt > Session.start)
        #expect(try await session.titles() == "Z A B C D E")
    }

    @Test("Without a list, items go to the default list, found by id: renaming it keeps it the default")
    func defaultList() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        try await session.run(RenameList(list: try session.list("Inbox"), name: "Home"))
        try await session.run(AddItem(title: "A"))
        #expect(try await session.titles("Home") == "A")
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["Home", "Work"], "no second Inbox")
        #expect(try await session.run(ListItems()).list.name == "Home")
    }

    @Test("Offsets of add count open items unless told to count all")
    func addAtOffsetWithVisibility() async throws {
        let session = try await Session()
        try await session.add("A", "B", "C")
        try await session.run(CompleteItems([try session.item(1)]))
        try await session.run(AddItem(title: "X", placement: .offset(1)))
        #expect(try await session.titles() == "A B X C")
        try await session.run(AddItem(title: "Y", placement: .offset(1), visibility: .all))
        #expect(try await session.titles() == "A Y B X C")
    }

    @Test("Add refuses an empty title, an unknown list or anchor, and writes nothing")
    func addErrors() async throws {
        let session = try await Session()
        try await session.add("A")
        let before = try session.snapshot()
        let empty = await expectFailure(TitleError.empty(field: .title)) { try await session.run(AddItem(title: " \t ")) }
        #expect(empty == "The title is empty; give it at least one visible character.")
        let nowhere = ItemList.ID()
        await expectFailure(IntentError.unknownList(nowhere)) { try await session.run(AddItem(title: "X", list: nowhere)) }
        let nothing = Item.ID()
        await expectFailure(IntentError.unknownItem(nothing)) { try await session.run(AddItem(title: "X", placement: .after(nothing))) }
        await expectFailure(OrderingError.offsetOutOfRange(offset: 5, count: 1)) { try await session.run(AddItem(title: "X", placement: .offset(5))) }
        await expectFailure(IntentError.negativeOffset(-1)) { try await session.run(AddItem(title: "X", placement: .offset(-1))) }
        await expectFailure(TitleError.controlCharacter(field: .title, position: 2)) { try await session.run(AddItem(title: "a\nb")) }
        #expect(try session.snapshot() == before)
    }

    @Test("Edit an item's title, its notes, or both, as one step of the history; what is left out stays")
    func edit() async throws {
        let session = try await Session()
        let item = try await session.add("Milk")[0].id
        let notes = { (result: ItemResult) in result.item.notes }

        #expect(try await notes(session.run(EditItem(item, notes: "Oat, not soy"))) == "Oat, not soy")
        let both = try await session.run(EditItem(item, title: "  Oat milk ", notes: "Two cartons"))
        #expect((both.item.title, both.item.notes) == ("Oat milk", "Two cartons"))
        #expect(try await session.run(EditItem(item, title: "Oat milk")).item.notes == "Two cartons")
        #expect(try await notes(session.run(EditItem(item, notes: ""))) == "")
        #expect(try await session.run(EditItem(item)).item.title == "Oat milk", "nothing given changes nothing")

        _ = try await session.run(Undo())  // the notes cleared
        _ = try await session.run(Undo())  // title and notes, in one step
        let back = try await session.run(ShowItem(item: item)).item
        #expect((back.title, back.notes) == ("Milk", "Oat, not soy"))
        _ = try await session.run(Redo())
        #expect(try await session.run(ShowItem(item: item)).item.notes == "Two cartons")

        let before = try session.snapshot()
        let nothing = Item.ID()
        await expectFailure(IntentError.unknownItem(nothing)) { try await session.run(EditItem(nothing, notes: "x")) }
        await expectFailure(TitleError.notesTooLarge(size: Item.maximumNotesSize + 1, limit: Item.maximumNotesSize)) {
            try await session.run(EditItem(item, title: "Kept out", notes: String(repeating: "n", count: Item.maximumNotesSize + 1)))
        }
        #expect(try session.snapshot() == before)
        #expect(try await session.run(ShowItem(item: item)).item.notes == "Two cartons")
    }

    @Test("Rename, complete, reopen and delete")
    func changes() async throws {
        let session = try await Session()
        let added = try await session.add("A", "B", "C")
        #expect(try await session.run(RenameItem(item: added[1].id, title: "Bee")).item.title == "Bee")

        let completed = try await session.run(CompleteItems([added[0].id, added[2].id, added[0].id]))
        #expect(completed.items.map(\.title) == ["A", "C"])
        #expect(completed.changed == 2)
        #expect(completed.items.allSatisfy { $0.completed })
        #expect(try await session.titles(includeCompleted: false) == "Bee")

        let again = try await session.run(CompleteItems([added[0].id]))
        #expect(again.changed == 0)

        let reopened = try await session.run(ReopenItems([added[2].id]))
        #expect(reopened.items[0].completed == false)
        #expect(try await session.titles(includeCompleted: false) == "Bee C", "a reopened item keeps its place")

        let deleted = try await session.run(DeleteItems([added[2].id, added[1].id]))
        #expect(deleted.items.map(\.title) == ["C", "Bee"])
        #expect(try await session.titles() == "A")
        await expectFailure(IntentError.noItemsNamed) { try await session.run(DeleteItems([])) }
        // In the Trash, an item is put back before it is completed or canceled; emptied, it is gone.
        await expectFailure(IntentError.inTrash("C")) { try await session.run(CompleteItems([added[2].id])) }
        await expectFailure(IntentError.inTrash("C")) { try await session.run(CancelItems([added[2].id])) }
        try await session.run(EmptyTrash())
        await expectFailure(IntentError.unknownItem(added[2].id)) { try await session.run(CompleteItems([added[2].id])) }
    }

    @Test("List numbers open items and leaves completed ones unnumbered")
    func listing() async throws {
        let session = try await Session()
        let added = try await session.add("A", "B", "C")
        try await session.run(CompleteItems([added[1].id]))
        let open = try await session.run(ListItems())
        #expect(open.items.map(\.title) == ["A", "C"])
        #expect(open.items.map(\.position) == [1, 2])
        #expect(open.list.openItems == 2 && open.list.totalItems == 3)
        let all = try await session.run(ListItems(visibility: .all))
        #expect(all.items.map(\.title) == ["A", "B", "C"])
        #expect(all.items.map(\.position) == [1, nil, 2])
        #expect(all.list == open.list, "either listing counts the list's open items and all of them")
    }

    @Test("Show gives every field and the place among the open items")
    func show() async throws {
        let session = try await Session()
        let added = try await session.add("A", "B", "C")
        try await session.run(CompleteItems([added[0].id]))
        let shown = try await session.run(ShowItem(item: added[2].id))
        #expect(shown.item.id == added[2].id)
        #expect(shown.item.listName == "Inbox")
        #expect(shown.item.position == 2)
        #expect(try await session.run(ShowItem(item: added[0].id)).item.position == nil, "completed items have no place")
    }

    @Test("Every change is stamped by the environment's clock")
    func stamps() async throws {
        let session = try await Session()
        let added = try await session.add("A")[0]
        let completed = try await session.run(CompleteItems([added.id])).items[0]
        #expect(completed.completedAt == completed.updatedAt)
        #expect(completed.updatedAt > added.updatedAt)
    }

    @Test("Errors are localized: their description is the message, not the type and case number")
    func localizedErrors() async throws {
        let session = try await Session()
        let error = await expectFailure(IntentError.self) { try await session.run(Undo()) }
        #expect(error?.localizedDescription == "There is nothing to undo.")
        let title = await expectFailure(TitleError.self) { try await session.run(CreateList(name: "")) }
        #expect(title?.localizedDescription == "The list name is empty; give it at least one visible character.")
    }
}
