import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("When and deadline")
struct DateIntentTests {
    let december1 = Day(Date(timeIntervalSince1970: 1_796_083_200), in: .gmt)  // 2026-12-01

    /// Each item of the Inbox as "title when deadline", in order.
    func dates(_ session: Session) throws -> [String] {
        let list = try session.list("Inbox")
        return try session.repository.read { try $0.items(in: list, visibility: .all, offset: 0, limit: .max) }.map { item in
            "\(item.title) \(item.when) \(item.deadline.map(String.init(describing:)) ?? "-")"
        }
    }

    @Test("SetWhen gives items a start date, the evening of one, someday or anytime, and reports what changed")
    func setWhen() async throws {
        #expect(december1.description == "2026-12-01")
        let session = try await Session()
        let added = try await session.add("A", "B", "C")
        let result = try await session.run(SetWhen([added[0].id, added[1].id], to: .on(december1, evening: true)))
        #expect(result.changed == 2)
        #expect(result.items.map(\.startDate) == [december1, december1] && result.items.allSatisfy { $0.evening && !$0.someday })
        let someday = try await session.run(SetWhen([added[1].id, added[2].id, added[1].id], to: .someday))
        #expect(someday.changed == 2 && someday.items.count == 2, "repeats are ignored")
        #expect(someday.items.allSatisfy { $0.someday && $0.startDate == nil && !$0.evening })
        #expect(try await session.run(SetWhen([added[2].id], to: .someday)).changed == 0, "already so")
        #expect(try dates(session) == [
            "A on(\(december1), evening: true) -", "B someday -", "C someday -",
        ])
        try await session.run(SetWhen([added[1].id], to: .anytime))
        #expect(try dates(session)[1] == "B anytime -")
        #expect(try await session.titles() == "A B C", "places do not change")
    }

    @Test("SetDeadline gives items a deadline or takes it away")
    func setDeadline() async throws {
        let session = try await Session()
        let added = try await session.add("A", "B")
        let result = try await session.run(SetDeadline([added[1].id], to: december1))
        #expect(result.changed == 1 && result.items[0].deadline == december1)
        #expect(try dates(session) == ["A anytime -", "B anytime \(december1)"])
        #expect(try await session.run(SetDeadline([added[0].id, added[1].id], to: nil)).changed == 1)
        #expect(try dates(session) == ["A anytime -", "B anytime -"])
    }

    @Test("AddItem sets a when and a deadline in the same step: its result shows them, and one undo takes the item away")
    func addWithDates() async throws {
        let session = try await Session()
        try await session.add("A")
        let added = try await session.run(AddItem(title: "B", when: .on(december1, evening: true), deadline: december1.adding(days: 3)))
        #expect(added.items.map(\.startDate) == [december1] && added.items.map(\.evening) == [true])
        #expect(added.items.map(\.deadline) == [december1.adding(days: 3)])
        #expect(try dates(session) == ["A anytime -", "B on(\(december1), evening: true) \(december1.adding(days: 3))"])
        #expect(session.environment.undoSteps.last?.actionName == "Add Item")
        try await session.run(Undo())
        #expect(try dates(session) == ["A anytime -"])
    }

    @Test("Undo gives each item its old when and deadline back, and redo the new ones")
    func undo() async throws {
        let session = try await Session()
        let added = try await session.add("A", "B")
        try await session.run(SetWhen([added[0].id], to: .someday))
        try await session.run(SetWhen([added[0].id, added[1].id], to: .on(december1)))
        try await session.run(SetDeadline([added[1].id], to: december1))
        let end = try dates(session)
        #expect(session.environment.undoSteps.suffix(2).map(\.actionName) == ["Set When", "Set Deadline"])

        try await session.run(Undo())
        #expect(try dates(session) == ["A on(\(december1), evening: false) -", "B on(\(december1), evening: false) -"])
        try await session.run(Undo())
        #expect(try dates(session) == ["A someday -", "B anytime -"])
        try await session.run(Redo())
        try await session.run(Redo())
        #expect(try dates(session) == end)
    }

    @Test("An undo over a when or a deadline changed since is refused, and writes nothing")
    func undoConflict() async throws {
        let session = try await Session()
        let added = try await session.add("A")
        try await session.run(SetDeadline([added[0].id], to: december1))
        // Another client moves the deadline behind the session's back.
        try await session.repository.write { transaction in
            guard var item = try transaction.item(id: added[0].id) else { return }
            item.deadline = december1.adding(days: 1)
            try transaction.update(item)
        }
        let before = try dates(session)
        await #expect(throws: IntentError.historyConflict(action: "Set Deadline", reason: .editedSince(.deadline, item: added[0].id, title: "A"))) {
            try await session.run(Undo())
        }
        #expect(try dates(session) == before)
        #expect(HistoryConflict.editedSince(.deadline, item: added[0].id, title: "A").message == "the deadline of “A” has changed since.")
    }

    @Test("Upcoming groups the open items that start after the day by that day, in the sidebar's order; Anytime and Someday group by list")
    func views() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        let inbox = try await session.add("A", "B", "C", "D")
        let work = try await session.add("W1", "W2", to: "Work")
        let (first, second) = (december1, december1.adding(days: 1))
        try await session.run(SetWhen([work[1].id, inbox[2].id], to: .on(second)))
        try await session.run(SetWhen([inbox[1].id], to: .on(first, evening: true)))
        try await session.run(SetWhen([work[0].id, inbox[0].id], to: .on(first)))
        try await session.run(SetWhen([inbox[3].id], to: .someday))
        try await session.run(CompleteItems([inbox[0].id]))

        func days(_ listing: UpcomingListing) -> [String] {
            listing.days.map { "\($0.day): " + $0.items.map(\.title).joined(separator: " ") }
        }
        func lists(_ listing: ItemsByList) -> [String] {
            listing.lists.map { "\($0.list.name): " + $0.items.map(\.title).joined(separator: " ") }
        }
        let before = try await session.run(ShowUpcoming(day: first.adding(days: -1)))
        #expect(before.day == first.adding(days: -1))
        #expect(days(before) == ["\(first): B W1", "\(second): C W2"], "by day, then the sidebar's order, then places; completed A left out")
        #expect(days(try await session.run(ShowUpcoming(day: first))) == ["\(second): C W2"])
        #expect(days(try await session.run(ShowUpcoming(day: second))) == [])
        #expect(lists(try await session.run(ShowAnytime(day: first))) == ["Inbox: B", "Work: W1"], "a start on the day is anytime; someday is not")
        #expect(lists(try await session.run(ShowAnytime(day: second))) == ["Inbox: B C", "Work: W1 W2"])
        #expect(lists(try await session.run(ShowAnytime(day: first.adding(days: -1)))) == [], "lists with nothing to show are left out")
        #expect(lists(try await session.run(ShowSomeday())) == ["Inbox: D"])

        // The sidebar's order decides within a day: Work first now.
        try await session.run(MoveList(try session.list("Work"), to: .top))
        #expect(days(try await session.run(ShowUpcoming(day: first.adding(days: -1)))) == ["\(first): W1 B", "\(second): W2 C"])
        #expect(lists(try await session.run(ShowAnytime(day: second))) == ["Work: W1 W2", "Inbox: B C"])
    }

    @Test("The views' day is today where the person is, by the environment's clock and time zone")
    func viewDay() async throws {
        // 2026-11-28 23:30 UTC: the 28th in Lisbon, the 29th in Tokyo.
        let moment = Date(timeIntervalSince1970: 1_795_908_600)
        for (zone, expected) in [("Europe/Lisbon", "2026-11-28"), ("Asia/Tokyo", "2026-11-29"), ("America/Los_Angeles", "2026-11-28")] {
            let timeZone = try #require(TimeZone(identifier: zone))
            let environment = try IntentEnvironment(repository: InMemoryItemRepository(), clock: { moment }, timeZone: timeZone)
            let item = try await AddItem(title: "Call").perform(in: environment).items[0]
            _ = try await SetWhen([item.id], to: .on(try Day(parsing: "2026-11-29"))).perform(in: environment)
            #expect(try await ShowUpcoming().perform(in: environment).day.description == expected, "\(zone)")
            let upcoming = try await ShowUpcoming().perform(in: environment).days.count
            let anytime = try await ShowAnytime().perform(in: environment).lists.count
            #expect((upcoming, anytime) == (expected == "2026-11-29" ? (0, 1) : (1, 0)), "\(zone): the 29th is upcoming on the 28th, anytime on the 29th")
        }
    }

    @Test("A date for no item, or for a deleted one, is refused with nothing written")
    func badInput() async throws {
        let session = try await Session()
        let added = try await session.add("A", "B")
        try await session.run(DeleteItems([added[1].id]))
        try await session.run(EmptyTrash())
        let before = try dates(session)
        await #expect(throws: IntentError.noItemsNamed) { try await session.run(SetWhen([], to: .someday)) }
        await #expect(throws: IntentError.unknownItem(added[1].id)) { try await session.run(SetDeadline([added[0].id, added[1].id], to: december1)) }
        await #expect(throws: IntentError.unknownItem(added[1].id)) { try await session.run(SetWhen([added[0].id, added[1].id], to: .someday)) }
        #expect(try dates(session) == before)
    }
}
