import ArrangeArchive
import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation
import Testing

@Suite("Repeating to-dos")
struct RepeatTests {
    private static func day(_ text: String) -> Day {
        (try? Day(parsing: text)) ?? Day(.distantPast, in: .gmt)
    }

    /// Every month on the 1st, due two days later, with a reminder at 09:00.
    private static func monthly() throws -> RepeatRule {
        try RepeatRule(.fixed, every: 1, .month, monthDays: [1], deadlineOffset: 2, reminder: TimeOfDay(parsing: "09:00"))
    }

    /// The to-dos titled `title`, completed ones included, by start date.
    private static func todos(_ title: String, in session: Session) async throws -> [ItemSummary] {
        try await session.run(ListItems(list: try session.list("Inbox"), visibility: .openAndCompleted)).items
            .filter { $0.title == title }.sorted { ($0.startDate?.description ?? "") < ($1.startDate?.description ?? "") }
    }

    @Test("A fixed series makes a day's to-do when a view of that day is read, once, and only the latest of several missed dates")
    func fixedSeries() async throws {
        let session = try await Session()
        let rent = try await session.run(AddItem(title: "Pay rent", when: .on(Self.day("2027-02-01")))).items[0]
        let set = try await session.run(SetRepeat(item: rent.id, repeat: try Self.monthly()))
        let series = try #require(set.item.series)
        #expect(try set.item.repeat == Self.monthly() && set.item.startDate == Self.day("2027-02-01"))

        let march = try await session.run(ShowToday(day: Self.day("2027-03-01")))
        #expect(march.items.map(\.title) == ["Pay rent", "Pay rent"], "the first, still open, and the day's")
        let made = try #require(march.items.first { $0.id != rent.id })
        #expect(try made.series == series && made.repeat == Self.monthly() && made.startDate == Self.day("2027-03-01"))
        #expect(try made.deadline == Self.day("2027-03-03") && made.reminder == TimeOfDay(parsing: "09:00"), "the rule's deadline offset and reminder")
        _ = try await session.run(ShowToday(day: Self.day("2027-03-01")))
        #expect(try await Self.todos("Pay rent", in: session).count == 2, "reading the day again makes nothing more")

        _ = try await session.run(ShowToday(day: Self.day("2027-06-15")))
        #expect(try await Self.todos("Pay rent", in: session).map(\.startDate) == ["2027-02-01", "2027-03-01", "2027-06-01"].map(Self.day))
        let repeats = try await session.run(GetRepeats())
        #expect(repeats.series.map(\.id) == [series] && repeats.series[0].next == Self.day("2027-07-01"))
        #expect(repeats.series[0].template.title == "Pay rent" && repeats.series[0].template.id.rawValue == series.rawValue)
        #expect(session.environment.undoSteps.last?.actionName == "Set Repeat", "making a day's to-dos is no step of the history")
    }

    @Test("Completing a to-do of a series after completion makes the next, counted from the day it was done; undo takes both back")
    func afterCompletion() async throws {
        let session = try await Session()
        let plants = try await session.run(AddItem(title: "Water the plants", when: .on(Self.day("2028-01-20")))).items[0]
        _ = try await session.run(SetRepeat(item: plants.id, repeat: try RepeatRule(.afterCompletion, every: 1, .month)))
        _ = try await session.run(CompleteItems([plants.id], day: Self.day("2028-01-31")))
        let todos = try await Self.todos("Water the plants", in: session)
        #expect(todos.map(\.startDate) == [Self.day("2028-01-20"), Self.day("2028-02-29")], "a month after January 31st of a leap year")
        #expect(todos.map(\.status) == [.completed, .open])

        try await session.run(Undo())
        let undone = try await Self.todos("Water the plants", in: session)
        #expect(undone.map(\.status) == [.open], "undo reopens the to-do and takes back the one it made")
        _ = try await session.run(CancelItems([plants.id], day: Self.day("2028-12-31")))
        #expect(try await Self.todos("Water the plants", in: session).map(\.startDate) == [Self.day("2028-01-20"), Self.day("2029-01-31")])
    }

    @Test("Upcoming projects a fixed series' next to-dos for 28 days at least, and through a later day when asked")
    func projected() async throws {
        let session = try await Session()
        let review = try await session.run(AddItem(title: "Review", when: .on(Self.day("2027-02-01")))).items[0]
        _ = try await session.run(SetRepeat(item: review.id, repeat: try RepeatRule(.fixed, every: 1, .week, weekdays: [.mo])))
        let upcoming = try await session.run(ShowUpcoming(day: Self.day("2027-02-01")))
        #expect(upcoming.days.flatMap(\.projected).map(\.day) == ["2027-02-08", "2027-02-15", "2027-02-22", "2027-03-01"].map(Self.day))
        #expect(upcoming.days.allSatisfy { $0.items.isEmpty }, "the projected to-dos are not items")
        let further = try await session.run(ShowUpcoming(day: Self.day("2027-02-01"), through: Self.day("2027-03-31")))
        #expect(further.days.flatMap(\.projected).count == 8)
        #expect(try await Self.todos("Review", in: session).count == 1, "the view of the first day made nothing")
    }

    @Test("A paused series makes nothing until it resumes; taking the repeat off keeps the to-dos made")
    func pauseAndTakeOff() async throws {
        let session = try await Session()
        let rent = try await session.run(AddItem(title: "Pay rent", when: .on(Self.day("2027-02-01")))).items[0]
        let series = try #require(try await session.run(SetRepeat(item: rent.id, repeat: try Self.monthly())).item.series)
        #expect(try await session.run(PauseRepeat(series: series)).series.paused)
        _ = try await session.run(ShowToday(day: Self.day("2027-03-01")))
        #expect(try await Self.todos("Pay rent", in: session).count == 1)
        _ = try await session.run(ResumeRepeat(series: series))
        _ = try await session.run(ShowToday(day: Self.day("2027-03-01")))
        let made = try await Self.todos("Pay rent", in: session)
        #expect(made.count == 2)

        let off = try await session.run(SetRepeat(item: made[1].id, repeat: nil))
        #expect(off.item.series == nil && off.item.repeat == nil)
        #expect(try await session.run(GetRepeats()).series.isEmpty)
        #expect(try await Self.todos("Pay rent", in: session).count == 2, "the to-dos made stay")
        await #expect(throws: IntentError.unknownSeries(series)) { try await session.run(PauseRepeat(series: series)) }
    }

    @Test("Export and import carry the series: into an empty store as they were, into another by id, keeping the dates made")
    func exportAndImport() async throws {
        let session = try await Session()
        let rent = try await session.run(AddItem(title: "Pay rent", when: .on(Self.day("2027-02-01")))).items[0]
        _ = try await session.run(SetRepeat(item: rent.id, repeat: try Self.monthly()))
        _ = try await session.run(ShowToday(day: Self.day("2027-03-01")))
        let archive = try await session.run(ExportArchive())
        let expected = try await session.run(GetRepeats(day: Self.day("2027-03-01")))

        let empty = try await Session(firstID: 1_000)
        let imported = try await empty.run(ImportArchive(archive))
        #expect(imported.seriesAdded == 1)
        #expect(try await empty.run(GetRepeats(day: Self.day("2027-03-01"))) == expected)
        _ = try await empty.run(ShowToday(day: Self.day("2027-03-01")))
        #expect(try await Self.todos("Pay rent", in: empty).count == 2, "the imported series made nothing again")

        let other = try await Session(lists: ["Inbox", "Home"], firstID: 2_000)
        _ = try await other.add("Own", to: "Home")
        let merged = try await other.run(ImportArchive(archive))
        #expect(merged.seriesAdded == 1 && merged.seriesMerged == 0)
        #expect(try await other.run(ImportArchive(archive)).seriesMerged == 1, "the second import finds it by id")
        #expect(try await other.run(GetRepeats(day: Self.day("2027-03-01"))).series.map(\.next) == [Self.day("2027-04-01")])
    }

    @Test("Undo takes back only what a step did: a to-do it dated again keeps its place and its old date; a series taken off comes back paused")
    func undoOfWhatWasThere() async throws {
        let session = try await Session()
        let plants = try await session.run(AddItem(title: "Water the plants", when: .on(Self.day("2027-03-01")))).items[0]
        let series = try #require(try await session.run(SetRepeat(item: plants.id, repeat: try RepeatRule(.afterCompletion, every: 3, .day))).item.series)
        _ = try await session.run(CompleteItems([plants.id], day: Self.day("2027-03-01")))
        _ = try await session.run(ReopenItems([plants.id]))
        _ = try await session.run(CompleteItems([plants.id], day: Self.day("2027-03-10")))
        #expect(try await Self.todos("Water the plants", in: session).map(\.startDate) == ["2027-03-01", "2027-03-13"].map(Self.day), "the second completion dates the next to-do again")
        try await session.run(Undo())
        #expect(try await Self.todos("Water the plants", in: session).map(\.startDate) == ["2027-03-01", "2027-03-04"].map(Self.day), "undo gives it back its date, and keeps it")

        _ = try await session.run(PauseRepeat(series: series))
        _ = try await session.run(SetRepeat(item: plants.id, repeat: nil))
        try await session.run(Undo())
        #expect(try await session.run(GetRepeats()).series.map(\.paused) == [true], "the series comes back paused")
    }

    @Test("A series after completion made fixed counts from its to-do: the day it starts makes no second")
    func afterCompletionMadeFixed() async throws {
        let session = try await Session()
        let review = try await session.run(AddItem(title: "Review", when: .on(Self.day("2027-01-04")))).items[0]
        _ = try await session.run(SetRepeat(item: review.id, repeat: try RepeatRule(.afterCompletion, every: 1, .week)))
        _ = try await session.run(SetRepeat(item: review.id, repeat: try RepeatRule(.fixed, every: 1, .week)))
        _ = try await session.run(ShowToday(day: Self.day("2027-01-04")))
        #expect(try await Self.todos("Review", in: session).count == 1)
        _ = try await session.run(ShowToday(day: Self.day("2027-01-11")))
        #expect(try await Self.todos("Review", in: session).map(\.startDate) == ["2027-01-04", "2027-01-11"].map(Self.day))
    }

    @Test("Upcoming projects ten years ahead at most; an export with a tag deleted since imports")
    func limits() async throws {
        let session = try await Session()
        let rent = try await session.run(AddItem(title: "Pay rent", when: .on(Self.day("2027-02-01")))).items[0]
        await #expect(throws: IntentError.projectionTooLong(ShowUpcoming.mostProjectedDays)) {
            try await session.run(ShowUpcoming(day: Self.day("2027-02-01"), through: Self.day("2040-01-01")))
        }
        let tag = try await session.run(CreateTag(name: "Bills")).tag.id
        _ = try await session.run(AddTags([tag], to: .items([rent.id])))
        _ = try await session.run(SetRepeat(item: rent.id, repeat: try Self.monthly()))
        _ = try await session.run(DeleteTag(tag: tag))
        let archive = try await session.run(ExportArchive())
        #expect(archive.series?.first?.tags.isEmpty == true)
        let restored = try await Session(firstID: 5_000)
        #expect(try await restored.run(ImportArchive(Archive(jsonData: archive.jsonData()))).seriesAdded == 1)
    }

    @Test("setRepeat refuses an item in the Trash, and changes nothing")
    func refusesTrashed() async throws {
        let session = try await Session()
        let item = try await session.add("Old")[0]
        _ = try await session.run(DeleteItems([item.id]))
        await #expect(throws: IntentError.inTrash("Old")) { try await session.run(SetRepeat(item: item.id, repeat: try Self.monthly())) }
        #expect(try await session.run(GetRepeats()).series.isEmpty)
    }
}
