import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("Heading intents")
struct HeadingIntentTests {
    /// A session with the lists Trip (Map, Tent, Boots, Visa) and Home, and the headings Packing
    /// (Tent, Boots) and Before (Visa) of Trip, in that order, made by the intents.
    private func trip() async throws -> (session: Session, packing: Heading.ID, before: Heading.ID, items: [String: Item.ID]) {
        let session = try await Session(lists: ["Inbox", "Trip", "Home"])
        let added = try await session.add("Map", "Tent", "Boots", "Visa", to: "Trip")
        let items = Dictionary(uniqueKeysWithValues: added.map { ($0.title, $0.id) })
        let packing = try await session.run(CreateHeading(title: " Packing ", in: try session.list("Trip"))).heading.id
        let before = try await session.run(CreateHeading(title: "Before", in: try session.list("Trip"))).heading.id
        try await session.run(MoveItems([try #require(items["Tent"]), try #require(items["Boots"])], to: .top, section: .heading(packing)))
        try await session.run(MoveItems([try #require(items["Visa"])], to: .bottom, section: .heading(before)))
        return (session, packing, before, items)
    }

    /// The list as a person reads it: its items under no heading, then "Heading:" and its items.
    private func outline(_ session: Session, _ list: String = "Trip") async throws -> [String] {
        let listing = try await session.run(ListItems(list: try session.list(list), visibility: .openAndCompleted))
        var lines = listing.items.filter { $0.heading == nil }.map(\.title)
        for heading in listing.headings {
            lines.append("\(heading.title):")
            lines += listing.items.filter { $0.heading == heading.id }.map(\.title)
        }
        return lines
    }

    @Test("Headings are made, renamed and moved, each move writing one row; items move under a heading, within it and out of it")
    func lifecycle() async throws {
        let (session, packing, before, items) = try await trip()
        #expect(try await outline(session) == ["Map", "Packing:", "Tent", "Boots", "Before:", "Visa"])
        let listing = try await session.run(ListItems(list: try session.list("Trip"), visibility: .openAndCompleted))
        #expect(listing.headings.map(\.title) == ["Packing", "Before"], "titles are trimmed")
        #expect(listing.headings.map(\.totalItems) == [2, 1])
        #expect(listing.list.totalItems == 4)

        let moved = try await session.run(MoveHeading(before, to: .top))
        #expect(moved.rowsWritten == 1)
        #expect(moved.headings.map(\.title) == ["Before", "Packing"])
        let dragged = try await session.run(MoveHeadingsAtOffsets(fromOffsets: [1], toOffset: 0, in: try session.list("Trip")))
        #expect(dragged.rowsWritten == 1)
        #expect(dragged.headings.map(\.title) == ["Packing", "Before"])
        #expect(try await session.run(RenameHeading(heading: before, title: "Papers")).heading.title == "Papers")
        let made = try await session.run(CreateHeading(title: "Food", in: try session.list("Trip"), placement: .after(packing))).heading
        #expect(made.totalItems == 0)

        let map = try #require(items["Map"])
        let under = try await session.run(MoveItems([map], to: .after(try #require(items["Tent"]))))
        #expect(under.rowsWritten == 1, "placed beside an item under a heading, it goes under that heading")
        #expect(under.items.first?.heading == packing)
        let within = try await session.run(MoveItemsAtOffsets(fromOffsets: [2], toOffset: 0, in: try session.list("Trip"), section: .heading(packing), visibility: .openAndCompleted))
        #expect(within.rowsWritten == 1)
        let out = try await session.run(MoveItems([try #require(items["Boots"])], to: .top, section: .noHeading))
        #expect(out.items.first?.heading == nil)
        let beside = try await session.run(AddItem(title: "Socks", list: try session.list("Trip"), placement: .after(try #require(items["Tent"]))))
        #expect(beside.items.first?.heading == packing, "added beside an item under a heading, it goes under that heading")
        try await session.run(DeleteItems([try #require(beside.items.first).id]))
        let underMade = try await session.run(AddItem(title: "Snacks", list: try session.list("Trip"), section: .heading(made.id)))
        #expect(underMade.items.first?.heading == made.id)
        try await session.run(DeleteItems([try #require(underMade.items.first).id]))
        let across = try await session.run(MoveItemsAtOffsets(
            fromOffsets: [0], toOffset: 0, in: try session.list("Trip"), section: .noHeading, destination: .heading(made.id), visibility: .openAndCompleted))
        #expect(across.rowsWritten == 1, "a drag across sections writes the item's row alone")
        #expect(try await outline(session) == ["Packing:", "Tent", "Map", "Food:", "Boots", "Papers:", "Visa"])
    }

    @Test("A heading moves to another list with its items; undo brings them back, in their places")
    func moveToAnotherList() async throws {
        let (session, packing, _, _) = try await trip()
        let moved = try await session.run(MoveHeading(packing, to: .bottom, in: try session.list("Home")))
        #expect(moved.headings.map(\.title) == ["Packing"])
        #expect(try await outline(session, "Home") == ["Packing:", "Tent", "Boots"])
        #expect(try await outline(session) == ["Map", "Before:", "Visa"])
        try await session.run(Undo())
        #expect(try await outline(session) == ["Map", "Packing:", "Tent", "Boots", "Before:", "Visa"])
        #expect(try await outline(session, "Home") == [])
        try await session.run(Redo())
        #expect(try await outline(session, "Home") == ["Packing:", "Tent", "Boots"])
    }

    @Test("Undo takes back a heading made, a heading moved within its list, by id or by offsets, and items moved under a heading, across it and out of it; redo does each again")
    func undoOfEachChange() async throws {
        let (session, packing, before, items) = try await trip()
        let trip = try session.list("Trip")
        let start = ["Map", "Packing:", "Tent", "Boots", "Before:", "Visa"]
        let (map, tent, visa) = (try #require(items["Map"]), try #require(items["Tent"]), try #require(items["Visa"]))
        let changes: [(String, [String], () async throws -> Void)] = [
            ("made", ["Map", "Packing:", "Tent", "Boots", "Food:", "Before:", "Visa"], {
                try await session.run(CreateHeading(title: "Food", in: trip, placement: .after(packing)))
            }),
            ("moved by id", ["Map", "Before:", "Visa", "Packing:", "Tent", "Boots"], { try await session.run(MoveHeading(packing, to: .after(before))) }),
            ("moved by offsets", ["Map", "Before:", "Visa", "Packing:", "Tent", "Boots"], {
                try await session.run(MoveHeadingsAtOffsets(fromOffsets: [1], toOffset: 0, in: trip, shown: [packing, before]))
            }),
            ("an item under a heading", ["Packing:", "Tent", "Map", "Boots", "Before:", "Visa"], {
                try await session.run(MoveItems([map], to: .after(tent), section: .heading(packing)))
            }),
            ("an item out of its heading", ["Map", "Visa", "Packing:", "Tent", "Boots", "Before:"], {
                try await session.run(MoveItems([visa], to: .bottom, section: .noHeading))
            }),
            ("items across headings", ["Map", "Packing:", "Boots", "Before:", "Visa", "Tent"], {
                try await session.run(MoveItems([tent], to: .after(visa), section: .heading(before)))
            }),
        ]
        for (change, after, run) in changes {
            try await run()
            #expect(try await outline(session) == after, "\(change)")
            try await session.run(Undo())
            #expect(try await outline(session) == start, "undo of \(change)")
            try await session.run(Redo())
            #expect(try await outline(session) == after, "redo of \(change)")
            try await session.run(Undo())
        }
    }

    @Test("Deleting a heading deletes its items; undo brings all of them back, redo deletes them again; deleting the list keeps them for undo too")
    func deleteAndUndo() async throws {
        let (session, packing, _, items) = try await trip()
        try await session.run(AddChecklistItem(title: "Laces", to: try #require(items["Boots"])))
        let deleted = try await session.run(DeleteHeading(heading: packing))
        #expect(deleted.deletedItems == 2)
        #expect(deleted.heading.title == "Packing")
        #expect(try await outline(session) == ["Map", "Before:", "Visa"])
        try await session.run(Undo())
        #expect(try await outline(session) == ["Map", "Packing:", "Tent", "Boots", "Before:", "Visa"])
        #expect(try await session.run(ShowItem(item: try #require(items["Boots"]))).item.checklist.map(\.title) == ["Laces"])
        try await session.run(Redo())
        #expect(try await outline(session) == ["Map", "Before:", "Visa"])
        try await session.run(Undo())

        try await session.run(DeleteList(list: try session.list("Trip")))
        try await session.run(Undo())
        #expect(try await outline(session) == ["Map", "Packing:", "Tent", "Boots", "Before:", "Visa"])
        try await session.run(RenameHeading(heading: packing, title: "Gear"))
        try await session.run(Undo())
        #expect(try await outline(session).contains("Packing:"))
    }

    @Test("Undoing a heading made takes it away but keeps an item another client put under it since, in its list; redo brings both back")
    func undoCreationKeepsOthersItems() async throws {
        let (session, _, _, items) = try await trip()
        let late = try await session.run(CreateHeading(title: "Late", in: try session.list("Trip"))).heading.id
        // Another client, writing to the same store, puts Map under it.
        let mapID = try #require(items["Map"])
        try await session.repository.write { transaction in
            var map = try #require(try transaction.item(id: mapID))
            map.heading = late
            try transaction.update(map)
        }
        #expect(try await outline(session) == ["Packing:", "Tent", "Boots", "Before:", "Visa", "Late:", "Map"])
        try await session.run(Undo())
        #expect(try await outline(session) == ["Map", "Packing:", "Tent", "Boots", "Before:", "Visa"])
        try await session.run(Redo())
        #expect(try await outline(session) == ["Packing:", "Tent", "Boots", "Before:", "Visa", "Late:", "Map"])
    }

    @Test("Unknown headings, headings of another list and bad titles are refused, with nothing written")
    func errors() async throws {
        let (session, packing, before, items) = try await trip()
        let ghost = Heading.ID()
        let home = try session.list("Home")
        let unchanged = try session.order()
        await #expect(throws: IntentError.unknownHeading(ghost)) { try await session.run(RenameHeading(heading: ghost, title: "X")) }
        await #expect(throws: IntentError.unknownHeading(ghost)) { try await session.run(DeleteHeading(heading: ghost)) }
        await #expect(throws: IntentError.unknownHeading(ghost)) { try await session.run(MoveItems([try #require(items["Map"])], to: .top, section: .heading(ghost))) }
        await #expect(throws: IntentError.unknownHeading(ghost)) { try await session.run(CreateHeading(title: "X", placement: .after(ghost))) }
        await #expect(throws: IntentError.headingInAnotherList(heading: packing, list: home)) {
            try await session.run(MoveItems([try #require(items["Map"])], to: .top, into: home, section: .heading(packing)))
        }
        await #expect(throws: IntentError.headingInAnotherList(heading: packing, list: home)) {
            try await session.run(MoveItemsAtOffsets(fromOffsets: [0], toOffset: 0, in: home, section: .heading(packing)))
        }
        await #expect(throws: OrderingError.headingInAnotherList(anchor: packing, list: home)) {
            try await session.run(MoveHeading(before, to: .after(packing), in: home))
        }
        await #expect(throws: OrderingError.anchorUnderAnotherHeading(anchor: try #require(items["Tent"]), heading: nil)) {
            try await session.run(MoveItems([try #require(items["Map"])], to: .after(try #require(items["Tent"])), section: .noHeading))
        }
        await #expect(throws: TitleError.empty(field: .title)) { try await session.run(CreateHeading(title: "  ", in: home)) }
        await #expect(throws: IntentError.unknownList(ItemList.ID(rawValue: Session.id(999)))) {
            try await session.run(CreateHeading(title: "X", in: ItemList.ID(rawValue: Session.id(999))))
        }
        #expect(try session.order() == unchanged)
    }
}
