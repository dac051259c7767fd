import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation
import Testing

@Suite("Scheduled lists")
struct ScheduledListTests {
    /// The day the session's clock starts on, where its environment is.
    private static func today(_ session: Session) -> Day { Day(Session.start, in: session.environment.timeZone) }

    @Test("A list put off to someday leaves the sidebar for Someday, with its undated items, and undo brings it back")
    func someday() async throws {
        let session = try await Session(lists: ["Inbox", "Novel", "Garden", "Empty"])
        let items = try await session.add("Outline", "Chapter one", to: "Novel")
        try await session.run(SetWhen([items[1].id], to: .on(Self.today(session).adding(days: 2))))
        try await session.add("Dig", to: "Garden")
        let (novel, empty) = (try session.list("Novel"), try session.list("Empty"))

        let result = try await session.run(SetListWhen(list: novel, to: .someday))
        #expect(result.list.someday && result.list.startDate == nil && result.list.when == .someday)
        try await session.run(SetListWhen(list: empty, to: .someday))
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["Inbox", "Garden"])
        let someday = try await session.run(ShowSomeday())
        // Its items with no start date, in its place among the lists; an empty one shows too.
        #expect(someday.lists.map(\.list.name) == ["Novel", "Empty"])
        #expect(someday.lists.first?.items.map(\.title) == ["Outline"])
        #expect(try await session.run(ShowAnytime()).lists.map(\.list.name) == ["Garden"])
        // Its dated item still comes up.
        #expect(try await session.run(ShowUpcoming()).days.flatMap(\.items).map(\.title) == ["Chapter one"])
        // Offsets of the sidebar count the lists it shows: Garden, at 1, moves to the top.
        try await session.run(MoveListsAtOffsets(fromOffsets: [1], toOffset: 0))
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["Garden", "Inbox"])

        try await session.run(Undo())
        try await session.run(Undo())
        try await session.run(Undo())
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["Inbox", "Novel", "Garden", "Empty"])
        #expect(try await session.run(ShowSomeday()).lists.isEmpty)
    }

    @Test("A list with a later start date shows in Upcoming on that day, its items out of Anytime until then, and in Today from then on")
    func startDate() async throws {
        let session = try await Session(lists: ["Inbox", "Garden"])
        try await session.add("Dig", to: "Garden")
        let garden = try session.list("Garden")
        let today = Self.today(session)
        let start = today.adding(days: 3)
        try await session.run(SetListWhen(list: garden, to: .on(start, evening: true)))

        let upcoming = try await session.run(ShowUpcoming())
        #expect(upcoming.days.map(\.day) == [start])
        #expect(upcoming.days.first?.lists.map(\.name) == ["Garden"])
        #expect(upcoming.days.first?.items.isEmpty == true)
        #expect(try await session.run(ShowAnytime()).lists.isEmpty)
        #expect(try await session.run(ShowToday()).lists.isEmpty)
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["Inbox", "Garden"], "a list that starts later stays in the sidebar")

        let onStart = try await session.run(ShowToday(day: start))
        #expect(onStart.lists.map(\.name) == ["Garden"])
        #expect(onStart.lists.first?.evening == true)
        #expect(try await session.run(ShowToday(day: start.adding(days: 1))).lists.map(\.name) == ["Garden"], "it stays once started")
        #expect(try await session.run(ShowAnytime(day: start)).lists.map(\.list.name) == ["Garden"])
        #expect(try await session.run(ShowUpcoming(day: start)).days.allSatisfy(\.lists.isEmpty))

        // Anytime takes it back out of Upcoming and Today.
        try await session.run(SetListWhen(list: garden, to: .anytime))
        #expect(try await session.run(ShowToday(day: start)).lists.isEmpty)
        #expect(try await session.run(ShowUpcoming()).days.isEmpty)
    }

    @Test("A list's deadline brings it into Today from that day on; it can be taken away, and undone")
    func deadline() async throws {
        let session = try await Session(lists: ["Inbox", "Taxes", "Finished"])
        let (taxes, finished) = (try session.list("Taxes"), try session.list("Finished"))
        let due = Self.today(session).adding(days: 2)
        let set = try await session.run(SetListDeadline(list: taxes, to: due))
        #expect(set.list.deadline == due)
        try await session.run(SetListDeadline(list: finished, to: due))
        try await session.run(CompleteList(list: finished))
        #expect(try await session.run(ShowToday()).lists.isEmpty)
        #expect(try await session.run(ShowToday(day: due)).lists.map(\.name) == ["Taxes"], "a finished list is in the Logbook, not Today")
        #expect(try await session.run(ShowToday(day: due.adding(days: 5))).lists.map(\.name) == ["Taxes"])

        try await session.run(SetListDeadline(list: taxes, to: nil))
        #expect(try await session.run(ShowToday(day: due)).lists.isEmpty)
        try await session.run(Undo())
        #expect(try await session.run(GetLists()).lists.first { $0.id == taxes }?.deadline == due)
    }

    @Test("The default list cannot be put off to someday, an unknown list is refused, and nothing is written")
    func refusals() async throws {
        let session = try await Session(lists: ["Inbox", "Other"])
        let inbox = try session.list("Inbox")
        await expectFailure(IntentError.defaultListStaysInSidebar("Inbox")) { try await session.run(SetListWhen(list: inbox, to: .someday)) }
        let unknown = ItemList.ID(rawValue: Session.id(999))
        await expectFailure(IntentError.unknownList(unknown)) { try await session.run(SetListWhen(list: unknown, to: .anytime)) }
        await expectFailure(IntentError.unknownList(unknown)) { try await session.run(SetListDeadline(list: unknown, to: nil)) }
        #expect(try await session.repository.read { try $0.lists() }.allSatisfy { $0.when == .anytime && $0.deadline == nil })
        await expectFailure(IntentError.nothingToUndo) { try await session.run(Undo()) }
        // It can start on a day, as any list.
        #expect(try await session.run(SetListWhen(list: inbox, to: .on(Self.today(session)))).list.startDate == Self.today(session))
    }

    @Test("A tag filter keeps the lists that carry the tags, themselves or through their area")
    func tagFilter() async throws {
        let session = try await Session(lists: ["Inbox", "Taxes", "Garden"])
        let (taxes, garden) = (try session.list("Taxes"), try session.list("Garden"))
        let errand = try await session.run(CreateTag(name: "Errand")).tag.id
        try await session.run(AddTags([errand], to: .list(taxes)))
        let today = Self.today(session)
        for list in [taxes, garden] { try await session.run(SetListDeadline(list: list, to: today)) }
        #expect(try await session.run(ShowToday()).lists.map(\.name) == ["Taxes", "Garden"])
        #expect(try await session.run(ShowToday(tags: [errand])).lists.map(\.name) == ["Taxes"])
    }
}
