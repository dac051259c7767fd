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
        try await session.run(AddItem(title: "C", placement: .after("#2")))
        try await session.run(AddItem(title: "E", placement: .offset(4)))
        let result = try await session.run(AddItem(title: "  Z  ", list: "Inbox", placement: .before("#1"), notes: "first"))
        #expect(result.items.map(\.title) == ["Z"])
        #expect(result.items[0].notes == "first")
        #expect(result.rowsWritten == 1)
        #expect(result.items[0].createdAt > Session.start)
        #expect(try await session.titles() == "Z A B C D E")
    }

    @Test("Add refuses an empty title, an unknown list or anchor, and writes nothing")
    func addErrors() async throws {
        let session = try await Session()
        try await session.add("A")
        let before = try session.snapshot()
        let empty = await expectFailure("emptyTitle") { try await session.run(AddItem(title: " \t ")) }
        #expect(empty == "The title is empty; give it at least one visible character.")
        await expectFailure("unknownList") { try await session.run(AddItem(title: "X", list: "Nope")) }
        await expectFailure("positionOutOfRange") { try await session.run(AddItem(title: "X", placement: .after("#2"))) }
        await expectFailure("offsetOutOfRange") { try await session.run(AddItem(title: "X", placement: .offset(5))) }
        await expectFailure("offsetOutOfRange") { try await session.run(AddItem(title: "X", placement: .offset(-1))) }
        await expectFailure("controlCharacter") { try await session.run(AddItem(title: "a\nb")) }
        #expect(try session.snapshot() == before)
    }

    @Test("Rename, complete, reopen and delete; #N counts open items only")
    func changes() async throws {
        let session = try await Session()
        try await session.add("A", "B", "C")
        #expect(try await session.run(RenameItem(item: "#2", title: "Bee")).item.title == "Bee")

        let completed = try await session.run(CompleteItems(items: ["#1", "#3", "#1"]))
        #expect(completed.items.map(\.title) == ["A", "C"])
        #expect(completed.changed == 2)
        #expect(completed.items.allSatisfy { $0.completed })
        #expect(try await session.titles(includeCompleted: false) == "Bee")
        // #1 now names Bee, the only open item.
        #expect(try await session.run(ShowItem(item: "#1")).item.title == "Bee")

        let again = try await session.run(CompleteItems(items: [ItemReference(completed.items[0].id.text)]))
        #expect(again.changed == 0)

        let reopened = try await session.run(ReopenItems(items: [ItemReference(completed.items[1].id.text)]))
        #expect(reopened.items[0].completed == false)
        #expect(try await session.titles(includeCompleted: false) == "Bee C", "a reopened item keeps its place")

        let deleted = try await session.run(DeleteItems(items: ["#2", "#1"]))
        #expect(deleted.items.map(\.title) == ["C", "Bee"])
        #expect(try await session.titles() == "A")
    }

    @Test("List numbers open items and leaves completed ones unnumbered")
    func listing() async throws {
        let session = try await Session()
        try await session.add("A", "B", "C")
        try await session.run(CompleteItems(items: ["#2"]))
        let open = try await session.run(ListItems())
        #expect(open.items.map(\.title) == ["A", "C"])
        #expect(open.items.map(\.position) == [1, 2])
        #expect(open.list.openItems == 2 && open.list.totalItems == 3)
        let all = try await session.run(ListItems(includeCompleted: true))
        #expect(all.items.map(\.title) == ["A", "B", "C"])
        #expect(all.items.map(\.position) == [1, nil, 2])
    }

    @Test("Show gives every field; a #N reference also gives the position")
    func show() async throws {
        let session = try await Session()
        let added = try await session.add("A", "B")
        let shown = try await session.run(ShowItem(item: "#2", list: "inbox"))
        #expect(shown.item.id == added[1].id)
        #expect(shown.item.listName == "Inbox")
        #expect(shown.item.position == 2)
        #expect(try await session.run(ShowItem(item: ItemReference(added[0].id.text))).item.position == nil)
    }

    @Test("Every change is stamped by the environment's clock")
    func stamps() async throws {
        let session = try await Session()
        let added = try await session.add("A")[0]
        let completed = try await session.run(CompleteItems(items: ["#1"])).items[0]
        #expect(completed.completedAt == completed.updatedAt)
        #expect(completed.updatedAt > added.updatedAt)
    }
}
