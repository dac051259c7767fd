import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("Area intents")
struct AreaIntentTests {
    /// A session with the lists Inbox, Launch, Hiring and Garden, all in no area, and the
    /// areas Work (Launch, Hiring) and Home (Garden) made by the intents.
    private func sidebar() async throws -> (session: Session, work: Area.ID, home: Area.ID) {
        let session = try await Session(lists: ["Inbox", "Launch", "Hiring", "Garden"])
        let work = try await session.run(CreateArea(name: " Work ")).area.id
        let home = try await session.run(CreateArea(name: "Home")).area.id
        try await session.run(MoveList(try session.list("Launch"), to: .bottom, in: .area(work)))
        try await session.run(MoveList(try session.list("Hiring"), to: .bottom, in: .area(work)))
        try await session.run(MoveList(try session.list("Garden"), to: .top, in: .area(home)))
        return (session, work, home)
    }

    /// The sidebar as "list" for a list in no area, then "Area: list, list" for each area, in order.
    private func outline(_ session: Session) async throws -> [String] {
        let lists = try await session.run(GetLists()).lists.filter { $0.area == nil }.map(\.name)
        let areas = try await session.run(GetAreas()).areas.map { "\($0.name): " + $0.lists.map(\.name).joined(separator: ", ") }
        return lists + areas
    }

    @Test("Areas are created where asked, renamed and moved; lists move into an area, within it and out of it, each move writing one row")
    func lifecycle() async throws {
        let (session, work, home) = try await sidebar()
        #expect(try await outline(session) == ["Inbox", "Work: Launch, Hiring", "Home: Garden"])
        let lists = try await session.run(GetLists()).lists
        #expect(lists.map(\.name) == ["Inbox", "Launch", "Hiring", "Garden"], "the lists in no area first, then each area's")
        #expect(lists.map(\.area) == [nil, work, work, home])

        let errands = try await session.run(CreateArea(name: "Errands", placement: .after(work))).area
        #expect(errands.lists == [])
        #expect(try await session.run(GetAreas()).areas.map(\.name) == ["Work", "Errands", "Home"])
        let moved = try await session.run(MoveArea(home, to: .top))
        #expect(moved.rowsWritten == 1)
        #expect(moved.areas.map(\.name) == ["Home", "Work", "Errands"])
        let dragged = try await session.run(MoveAreasAtOffsets(fromOffsets: [2], toOffset: 1))
        #expect(dragged.rowsWritten == 1)
        #expect(dragged.areas.map(\.name) == ["Home", "Errands", "Work"])
        #expect(try await session.run(RenameArea(area: errands.id, name: "Chores")).area.name == "Chores")

        let within = try await session.run(MoveList(try session.list("Hiring"), to: .top))
        #expect(within.rowsWritten == 1, "a move within its own area writes the list's key alone")
        let out = try await session.run(MoveList(try session.list("Launch"), to: .top, in: .noArea))
        #expect(out.rowsWritten == 1)
        let created = try await session.run(CreateList(name: "Shop", placement: .top, in: .area(errands.id))).list
        #expect(created.area == errands.id)
        let offsets = try await session.run(MoveListsAtOffsets(fromOffsets: [0], toOffset: 1, in: .area(home)))
        #expect(offsets.rowsWritten == 0, "Home holds one list: nothing moves")
        #expect(try await outline(session) == ["Launch", "Inbox", "Home: Garden", "Chores: Shop", "Work: Hiring"])
    }

    @Test("Deleting an area keeps its lists, at the bottom of those in no area in their order; undo puts them back in it, redo takes them out again")
    func deleteAndUndo() async throws {
        let (session, work, _) = try await sidebar()
        let deleted = try await session.run(DeleteArea(area: work))
        #expect(deleted.area.lists.map(\.name) == ["Launch", "Hiring"])
        #expect(deleted.movedLists.map(\.name) == ["Launch", "Hiring"])
        #expect(deleted.movedLists.allSatisfy { $0.area == nil })
        #expect(try await outline(session) == ["Inbox", "Launch", "Hiring", "Home: Garden"])

        try await session.run(Undo())
        #expect(try await outline(session) == ["Inbox", "Work: Launch, Hiring", "Home: Garden"])
        try await session.run(Redo())
        #expect(try await outline(session) == ["Inbox", "Launch", "Hiring", "Home: Garden"])
        try await session.run(Undo())

        // Undo of a rename, a move of an area and a list's move into an area.
        try await session.run(RenameArea(area: work, name: "Office"))
        try await session.run(MoveArea(work, to: .bottom))
        try await session.run(MoveList(try session.list("Inbox"), to: .top, in: .area(work)))
        #expect(try await outline(session) == ["Home: Garden", "Office: Inbox, Launch, Hiring"])
        for _ in 0..<3 { try await session.run(Undo()) }
        #expect(try await outline(session) == ["Inbox", "Work: Launch, Hiring", "Home: Garden"])

        // Undo of a create deletes the area again, and keeps a list moved into it since.
        let later = try await session.run(CreateArea(name: "Later")).area.id
        try await session.run(MoveList(try session.list("Inbox"), to: .top, in: .area(later)))
        try await session.run(Undo())
        try await session.run(Undo())
        #expect(try await outline(session) == ["Inbox", "Work: Launch, Hiring", "Home: Garden"])
    }

    @Test("A deleted list of an area comes back into it, or into none once the area is gone; a step whose area is gone since is refused")
    func undoAcrossAreas() async throws {
        let (session, work, home) = try await sidebar()
        try await session.run(DeleteList(list: try session.list("Garden")))
        try await session.run(Undo())
        #expect(try await outline(session) == ["Inbox", "Work: Launch, Hiring", "Home: Garden"])

        try await session.run(DeleteList(list: try session.list("Garden")))
        // Another session deletes Home meanwhile.
        try await DeleteArea(area: home).perform(in: try IntentEnvironment(repository: session.repository))
        // The list waited in the Trash, and its area's deletion took it out of the area there.
        try await session.run(Undo())
        #expect(try await outline(session) == ["Inbox", "Garden", "Work: Launch, Hiring"])

        try await session.run(RenameArea(area: work, name: "Office"))
        try await DeleteArea(area: work).perform(in: try IntentEnvironment(repository: session.repository))
        await expectFailure(IntentError.historyConflict(action: "Rename Area", reason: .areaGone(work))) { try await session.run(Undo()) }
    }

    @Test("Bad input is refused and writes nothing: unknown areas, names taken or empty, anchors of another area")
    func refusals() async throws {
        let (session, work, home) = try await sidebar()
        let before = try await outline(session)
        let ghost = Area.ID(rawValue: Session.id(999))
        await expectFailure(IntentError.unknownArea(ghost)) { try await session.run(RenameArea(area: ghost, name: "Ghost")) }
        await expectFailure(IntentError.unknownArea(ghost)) { try await session.run(MoveArea(ghost, to: .top)) }
        await expectFailure(IntentError.unknownArea(ghost)) { try await session.run(DeleteArea(area: ghost)) }
        await expectFailure(IntentError.unknownArea(ghost)) { try await session.run(MoveArea(work, to: .after(ghost))) }
        await expectFailure(IntentError.unknownArea(ghost)) { try await session.run(MoveList(try session.list("Inbox"), to: .top, in: .area(ghost))) }
        await expectFailure(IntentError.unknownArea(ghost)) { try await session.run(CreateList(name: "Orphan", in: .area(ghost))) }
        await expectFailure(IntentError.unknownArea(ghost)) { try await session.run(MoveListsAtOffsets(fromOffsets: [0], toOffset: 1, in: .area(ghost))) }
        await expectFailure(StoreError.validation(.duplicateAreaName("Work"))) { try await session.run(CreateArea(name: "WORK")) }
        await expectFailure(StoreError.validation(.duplicateAreaName("Home"))) { try await session.run(RenameArea(area: work, name: "home")) }
        await expectFailure(TitleError.empty(field: .areaName)) { try await session.run(CreateArea(name: "  ")) }
        await expectFailure(OrderingError.placedRelativeToItself(work.entryID)) { try await session.run(MoveArea(work, to: .before(work))) }
        let garden = try session.list("Garden")
        await expectFailure(OrderingError.anchorInAnotherArea(anchor: garden, area: work)) {
            try await session.run(MoveList(try session.list("Inbox"), to: .after(garden), in: .area(work)))
        }
        await expectFailure(OrderingError.anchorInAnotherArea(anchor: garden, area: nil)) {
            try await session.run(MoveList(try session.list("Launch"), to: .before(garden), in: .noArea))
        }
        await expectFailure(OrderingError.offsetOutOfRange(offset: 3, count: 1)) { try await session.run(MoveAreasAtOffsets(fromOffsets: [3], toOffset: 0)) }
        #expect(try await outline(session) == before)
        #expect(try await session.run(GetAreas()).areas.map(\.id) == [work, home])
    }
}
