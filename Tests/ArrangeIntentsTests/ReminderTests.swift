import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation
import Testing

@Suite("Reminders")
struct ReminderTests {
    private static func day(_ text: String) -> Day {
        (try? Day(parsing: text)) ?? Day(.distantPast, in: .gmt)
    }

    private static func time(_ text: String) -> TimeOfDay? {
        try? TimeOfDay(parsing: text)
    }

    private static func instant(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text) ?? .distantPast
    }

    @Test("SetReminder sets a time on the start date, gives an undated item the day's, and someday takes it away; undo brings each back")
    func setReminder() async throws {
        let session = try await Session()
        let added = try await session.add("Call", "Pay", "Read")
        try await session.run(SetWhen([added[1].id], to: .on(Self.day("2027-03-28"))))
        let set = try await session.run(SetReminder([added[0].id, added[1].id], at: Self.time("09:00"), day: Self.day("2027-03-27")))
        #expect(set.changed == 2 && set.items.map(\.reminder) == [Self.time("09:00"), Self.time("09:00")])
        #expect(set.items.map(\.startDate) == [Self.day("2027-03-27"), Self.day("2027-03-28")], "the undated item gets the day; the dated one keeps its own")
        #expect(session.environment.undoSteps.last?.actionName == "Set Reminder")

        let someday = try await session.run(SetWhen([added[0].id], to: .someday))
        #expect(someday.items[0].reminder == nil, "someday takes the reminder away")
        try await session.run(Undo())
        #expect(try await session.run(ShowItem(item: added[0].id)).item.reminder == Self.time("09:00"), "undo brings it back with the date")
        try await session.run(Undo())
        let undone = try await session.run(ShowItem(item: added[0].id)).item
        #expect(undone.reminder == nil && undone.startDate == nil, "one undo takes back the reminder and the day it gave")

        await #expect(throws: IntentError.reminderWithoutDay) { try await session.run(SetWhen([added[2].id], to: .someday, reminder: Self.time("09:00"))) }
        await #expect(throws: IntentError.reminderWithoutDay) { try await session.run(AddItem(title: "Later", when: .anytime, reminder: Self.time("09:00"))) }
        #expect(try await session.titles() == "Call Pay Read", "the refused add added nothing")
        let together = try await session.run(SetWhen([added[2].id], to: .on(Self.day("2027-04-01"), evening: true), reminder: Self.time("20:15")))
        #expect(together.items[0].reminder == Self.time("20:15") && together.items[0].evening)
        let removed = try await session.run(SetReminder([added[2].id], at: nil))
        #expect(removed.changed == 1 && removed.items[0].reminder == nil && removed.items[0].startDate == Self.day("2027-04-01"))
    }

    @Test("observeReminders yields the reminders of a span now, and again after a commit that changes them")
    func observed() async throws {
        let session = try await Session()
        let added = try await session.add("Call")
        let span = (from: Session.start, to: Session.start.addingTimeInterval(30 * 86_400))
        var reminders = session.environment.observeReminders(from: span.from, to: span.to).makeAsyncIterator()
        #expect(try await reminders.next()?.reminders.isEmpty == true)
        let tomorrow = Day(Session.start.addingTimeInterval(86_400), in: session.environment.timeZone)
        try await session.run(SetReminder([added[0].id], at: Self.time("09:00"), day: tomorrow))
        #expect(try await reminders.next()?.reminders.map(\.id) == [added[0].id])
        try await session.run(CompleteItems([added[0].id]))
        #expect(try await reminders.next()?.reminders.isEmpty == true, "a completed item fires none")
    }

    @Test("GetReminders answers what fires in a span, in order, at the wall-clock times of the time zone across both daylight-saving changes; done and trashed items fire none")
    func firing() async throws {
        let berlin = try #require(TimeZone(identifier: "Europe/Berlin"))
        let environment = try IntentEnvironment(repository: InMemoryItemRepository(), clock: { Self.instant("2027-03-27T12:00:00Z") }, timeZone: berlin)
        func add(_ title: String, on day: String, at time: String) async throws -> Item.ID {
            try await AddItem(title: title, when: .on(Self.day(day)), reminder: Self.time(time)).perform(in: environment).items[0].id
        }
        let breakfast = try await add("Breakfast", on: "2027-03-28", at: "09:00")
        let skipped = try await add("Skipped", on: "2027-03-28", at: "02:30")
        let evening = try await add("Evening", on: "2027-03-27", at: "20:00")
        let done = try await add("Done", on: "2027-03-28", at: "10:00")
        _ = try await CompleteItems([done]).perform(in: environment)
        let trashed = try await add("Trashed", on: "2027-03-28", at: "11:00")
        _ = try await DeleteItems([trashed]).perform(in: environment)
        let autumn = try await add("Twice", on: "2027-10-31", at: "02:30")

        let day = try await GetReminders(from: Self.instant("2027-03-27T00:00:00Z"), to: Self.instant("2027-03-29T00:00:00Z")).perform(in: environment)
        #expect(day.reminders.map(\.id) == [evening, skipped, breakfast])
        #expect(day.reminders.map(\.at) == [Self.instant("2027-03-27T19:00:00Z"), Self.instant("2027-03-28T01:00:00Z"), Self.instant("2027-03-28T07:00:00Z")])
        #expect(day.reminders.map(\.utcOffset) == [3_600, 7_200, 7_200])
        // By default, from now (noon on the 27th) for a day; from a later instant, only what fires after it.
        #expect(try await GetReminders().perform(in: environment).reminders.map(\.id) == [evening, skipped, breakfast])
        #expect(try await GetReminders(from: Self.instant("2027-03-28T02:00:00Z")).perform(in: environment).reminders.map(\.id) == [breakfast])
        let repeated = try await GetReminders(from: Self.instant("2027-10-30T00:00:00Z"), to: Self.instant("2027-11-01T00:00:00Z")).perform(in: environment)
        #expect(repeated.reminders.map(\.at) == [Self.instant("2027-10-31T00:30:00Z")] && repeated.reminders.map(\.id) == [autumn], "the first of the two 02:30s")
        #expect(try await GetReminders(from: Self.instant("2027-03-28T07:00:00Z"), to: Self.instant("2027-03-28T07:00:00Z")).perform(in: environment).reminders.isEmpty)

        // The JSON an app or the command line hands on: the wall-clock time with its offset.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(day.reminders[2]), as: UTF8.self)
        #expect(json.contains(#""at":"2027-03-28T09:00:00+02:00""#), "\(json)")
        #expect(try JSONDecoder().decode(Reminder.self, from: Data(json.utf8)) == day.reminders[2])
    }
}
