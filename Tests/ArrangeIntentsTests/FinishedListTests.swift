import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("Finished lists")
struct FinishedListTests {
    @Test("Completing a list completes its open items, takes it from the sidebar to the Logbook, and undo brings both back")
    func complete() async throws {
        let session = try await Session(lists: ["Inbox", "Launch", "Home"])
        try await session.add("Write post", "Ship", "Celebrate", to: "Launch")
        try await session.run(CompleteItems([try session.item(1, in: "Launch")]))
        let launch = try session.list("Launch")

        let completed = try await session.run(CompleteList(list: launch))
        #expect(completed.list.status == .completed)
        #expect(completed.list.completedAt != nil)
        #expect(completed.list.openItems == 0)
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["Inbox", "Home"])
        let logbook = try await session.run(ShowLogbook())
        #expect(logbook.lists.map(\.name) == ["Launch"])
        #expect(logbook.total == 3)
        // A later page holds no lists.
        #expect(try await session.run(ShowLogbook(offset: 1)).lists.isEmpty)

        // One step: the list and the two items it completed reopen; the one done before stays done.
        try await session.run(Undo())
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["Inbox", "Launch", "Home"])
        #expect(try await session.titles("Launch", includeCompleted: false) == "Ship Celebrate")
        try await session.run(Redo())
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["Inbox", "Home"])
        #expect(try await session.titles("Launch", includeCompleted: false) == "")
    }

    @Test("Canceling a list cancels its open items by default; keep leaves them open; complete completes them")
    func cancel() async throws {
        let session = try await Session(lists: ["Inbox", "A", "B", "C"])
        for name in ["A", "B", "C"] { try await session.add("one", "two", to: name) }
        let canceled = try await session.run(CancelList(list: try session.list("A")))
        #expect(canceled.list.status == .canceled)
        let items = { (name: String) in try await session.run(ListItems(list: try session.list(name), visibility: .all)).items.map(\.status) }
        #expect(try await items("A") == [.canceled, .canceled])
        try await session.run(CancelList(list: try session.list("B"), items: .keep))
        #expect(try await items("B") == [.open, .open])
        try await session.run(CancelList(list: try session.list("C"), items: .complete))
        #expect(try await items("C") == [.completed, .completed])
        #expect(try await session.run(ShowLogbook()).lists.map(\.status) == [.canceled, .canceled, .canceled])
    }

    @Test("A reopened list comes back to the place it had, and offsets of the sidebar skip finished lists")
    func reopen() async throws {
        let session = try await Session(lists: ["Inbox", "A", "B", "C"])
        try await session.run(CompleteList(list: try session.list("B")))
        // Offsets count the lists shown: moving the last shown (C, offset 2) to the top passes over B.
        try await session.run(MoveListsAtOffsets(fromOffsets: [2], toOffset: 0))
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["C", "Inbox", "A"])
        let reopened = try await session.run(ReopenList(list: try session.list("B")))
        #expect(reopened.list.status == .open)
        #expect(reopened.list.completedAt == nil)
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["C", "Inbox", "A", "B"])
        // Reopening an open list, or finishing a finished one, changes nothing.
        try await session.run(ReopenList(list: try session.list("B")))
        let first = try await session.run(CompleteList(list: try session.list("A")))
        let again = try await session.run(CancelList(list: try session.list("A")))
        #expect(again.list.status == .completed)
        #expect(again.list.completedAt == first.list.completedAt)
    }

    @Test("A finished list's items leave Anytime, Upcoming, Someday and the arrivals of Today; an area shows only open lists")
    func views() async throws {
        let session = try await Session(lists: ["Inbox", "Launch"])
        let area = try await session.run(CreateArea(name: "Work")).area
        try await session.run(MoveList(try session.list("Launch"), to: .bottom, in: .area(area.id)))
        let items = try await session.add("Today's", "Later", "Sometime", to: "Launch")
        let today = Day(Session.start, in: session.environment.timeZone)
        try await session.run(SetWhen([items[0].id], to: .on(today)))
        try await session.run(SetWhen([items[1].id], to: .on(today.adding(days: 3))))
        try await session.run(SetWhen([items[2].id], to: .someday))
        try await session.run(CompleteList(list: try session.list("Launch"), items: .keep))

        #expect(try await session.run(ShowToday()).items.isEmpty)
        #expect(try await session.run(ShowUpcoming()).days.isEmpty)
        #expect(try await session.run(ShowSomeday()).lists.isEmpty)
        #expect(try await session.run(ShowAnytime()).lists.allSatisfy { $0.list.name != "Launch" })
        #expect(try await session.run(GetAreas()).areas.map { $0.lists.map(\.name) } == [[]])

        try await session.run(ReopenList(list: try session.list("Launch")))
        #expect(try await session.run(ShowToday()).items.map(\.title) == ["Today's"])
        #expect(try await session.run(GetAreas()).areas.map { $0.lists.map(\.name) } == [["Launch"]])
    }

    @Test("The default list stays open, and an unknown list is refused; nothing is written")
    func errors() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        try await session.add("Milk")
        let message = await expectFailure(IntentError.defaultListStaysOpen("Inbox")) { try await session.run(CompleteList(list: try session.list("Inbox"))) }
        #expect(message == "'Inbox' is the default list, where new items go, and cannot be completed or canceled.")
        await expectFailure(IntentError.defaultListStaysOpen("Inbox")) { try await session.run(CancelList(list: try session.list("Inbox"))) }
        let gone = ItemList.ID()
        await expectFailure(IntentError.unknownList(gone)) { try await session.run(CompleteList(list: gone)) }
        await expectFailure(IntentError.unknownList(gone)) { try await session.run(ReopenList(list: gone)) }
        #expect(try await session.titles("Inbox", includeCompleted: false) == "Milk")
        #expect(try await session.run(GetLists()).lists.map(\.status) == [.open, .open])
    }
}
