import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("The Trash")
struct TrashTests {
    /// The titles of a list's items out of the Trash, and the titles of what the Trash holds.
    private func state(_ session: Session, _ list: String = "Inbox") async throws -> (list: String, trash: [String]) {
        let trash = try await session.run(GetTrash())
        return (try await session.titles(list), trash.lists.map(\.name) + trash.headings.map(\.title) + trash.items.map(\.title))
    }

    @Test("Deleted items go to the Trash, the most recent first, and come back to their places in the list and in Today")
    func itemsComeBack() async throws {
        let session = try await Session()
        let added = try await session.add("A", "B", "C", "D")
        try await session.run(AddToToday([added[1].id, added[3].id]))
        let today = try await session.run(ShowToday()).items.map(\.title)
        let deleted = try await session.run(DeleteItems([added[1].id]))
        #expect(deleted.changed == 1 && deleted.items[0].trashedAt != nil)
        try await session.run(DeleteItems([added[3].id, added[2].id]))
        #expect(try await state(session) == ("A", ["C", "D", "B"]), "the most recently deleted first, then by id")
        #expect(try await session.run(ShowToday()).items.map(\.title) == [], "an item in the Trash is in no view")
        #expect(try await session.run(GetLists()).lists[0].totalItems == 1, "counts leave the Trash out")

        // Meanwhile the list changes around them: they come back where their keys kept them.
        try await session.add("E", to: "Inbox")
        let restored = try await session.run(RestoreFromTrash(items: [added[1].id, added[3].id, added[2].id]))
        #expect(restored.items.allSatisfy { $0.trashedAt == nil })
        #expect(try await state(session) == ("A B C D E", []))
        #expect(try await session.run(ShowToday()).items.map(\.title) == today, "back in Today, in its place")

        // Undo sends them back to the Trash; redo brings them out again.
        try await session.run(Undo())
        #expect(try await state(session).list == "A E")
        try await session.run(Redo())
        #expect(try await state(session).list == "A B C D E")
    }

    @Test("A list deleted goes to the Trash with its items; it comes back with those, not with those deleted before it")
    func listComesBackWithWhatWentWithIt() async throws {
        let session = try await Session(lists: ["Inbox", "Trip", "Home"])
        let trip = try await session.add("Passport", "Tent", "Map", to: "Trip")
        try await session.run(DeleteItems([trip[2].id]))
        let deleted = try await session.run(DeleteList(list: try session.list("Trip")))
        #expect(deleted.deletedItems == 2, "the items that went to the Trash with it")
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["Inbox", "Home"])
        #expect(try await state(session).trash == ["Trip", "Map"])
        // An item added to a list in the Trash goes there with it.
        try await session.add("Boots", to: "Trip")
        #expect(try await session.run(ShowItem(item: try #require(try await session.run(ListItems(list: try session.list("Trip"))).items.last).id)).item.trashedAt != nil)

        try await session.run(RestoreFromTrash(lists: [try session.list("Trip")]))
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["Inbox", "Trip", "Home"], "back in its place in the sidebar")
        #expect(try await state(session, "Trip") == ("Passport Tent Boots", ["Map"]), "Map was deleted before the list, and stays")
    }

    @Test("A heading deleted goes to the Trash with the items under it, and comes back first of its list's headings where it was")
    func headingComesBack() async throws {
        let session = try await Session(lists: ["Inbox", "Trip"])
        let trip = try session.list("Trip")
        let packing = try await session.run(CreateHeading(title: "Packing", in: trip)).heading.id
        let later = try await session.run(CreateHeading(title: "Later", in: trip)).heading.id
        _ = try await session.run(AddItem(title: "Tent", list: trip, section: .heading(packing)))
        _ = try await session.run(AddItem(title: "Visa", list: trip, section: .heading(later)))
        let deleted = try await session.run(DeleteHeading(heading: packing))
        #expect(deleted.deletedItems == 1)
        let listing = try await session.run(ListItems(list: trip, visibility: .openAndCompleted))
        #expect(listing.headings.map(\.title) == ["Later"] && listing.items.map(\.title) == ["Visa"])
        #expect(try await session.run(GetTrash()).headings.map(\.title) == ["Packing"])
        try await session.run(RestoreFromTrash(headings: [packing]))
        let back = try await session.run(ListItems(list: trip, visibility: .openAndCompleted))
        #expect(back.headings.map(\.title) == ["Packing", "Later"] && back.items.map(\.title) == ["Tent", "Visa"])
    }

    @Test("Emptying deletes for good: everything, or the items named; undo puts them back in the Trash")
    func emptying() async throws {
        let session = try await Session(lists: ["Inbox", "Trip"])
        let added = try await session.add("A", "B", "C")
        try await session.add("Tent", to: "Trip")
        try await session.run(DeleteItems([added[0].id, added[1].id]))
        try await session.run(DeleteList(list: try session.list("Trip")))
        #expect(try await session.run(EmptyTrash(items: [added[0].id])).deleted == 1)
        await expectFailure(IntentError.unknownItem(added[0].id)) { try await session.run(ShowItem(item: added[0].id)) }
        try await session.run(Undo())
        #expect(try await state(session).trash == ["Trip", "A", "B"], "deleted at one moment, by id")
        // Everything: the item, and the list with its item.
        #expect(try await session.run(EmptyTrash()).deleted == 4)
        #expect(try await state(session) == ("C", []))
        #expect(try await session.run(EmptyTrash()).deleted == 0, "an empty Trash stays empty")
        try await session.run(Undo())
        #expect(try await state(session).trash == ["Trip", "A", "B"], "deleted at one moment, by id")
    }

    @Test("Bad input is refused and changes nothing: what is not in the Trash, an item that comes back only with its list, canceling what is in the Trash")
    func refusals() async throws {
        let session = try await Session(lists: ["Inbox", "Trip"])
        let added = try await session.add("A", "B")
        let tent = try await session.add("Tent", to: "Trip")
        try await session.run(DeleteItems([added[1].id]))
        try await session.run(DeleteList(list: try session.list("Trip")))
        let before = try await state(session)
        await expectFailure(IntentError.nothingToRestore) { try await session.run(RestoreFromTrash()) }
        await expectFailure(IntentError.notInTrash("A")) { try await session.run(RestoreFromTrash(items: [added[0].id, added[1].id])) }
        await expectFailure(IntentError.notInTrash("Inbox")) { try await session.run(RestoreFromTrash(lists: [try session.list("Inbox")])) }
        await expectFailure(IntentError.inTrashWith(item: "Tent", container: "Trip")) { try await session.run(RestoreFromTrash(items: [tent[0].id])) }
        await expectFailure(IntentError.inTrash("B")) { try await session.run(CancelItems([added[1].id])) }
        await expectFailure(IntentError.inTrash("Tent")) { try await session.run(CompleteItems([tent[0].id])) }
        await expectFailure(IntentError.notInTrash("A")) { try await session.run(EmptyTrash(items: [added[0].id])) }
        await expectFailure(IntentError.defaultListProtected("Inbox")) { try await session.run(DeleteList(list: try session.list("Inbox"))) }
        #expect(try await state(session) == before)
    }
}
