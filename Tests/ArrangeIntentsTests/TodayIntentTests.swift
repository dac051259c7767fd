import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Synchronization
import Testing

/// A clock that a test sets.
private final class SettableClock: Sendable {
    private let time: Mutex<Date>

    init(_ date: Date) { time = Mutex(date) }

    func read() -> Date { time.withLock { $0 } }
    func set(_ date: Date) { time.withLock { $0 = date } }
}

/// A store whose clock a test sets, seen from a time zone a test picks.
private final class Desk: Sendable {
    let repository = InMemoryItemRepository()
    let clock = SettableClock(Desk.morning)
    let environment: IntentEnvironment

    /// 2026-12-01 10:00 UTC.
    static let morning = Date(timeIntervalSince1970: 1_796_119_200)
    static let december1 = Day(morning, in: .gmt)

    init(timeZone: TimeZone = .gmt) throws {
        environment = try IntentEnvironment(repository: repository, clock: { [clock] in clock.read() }, timeZone: timeZone)
    }

    /// The same store seen from another time zone, on the same clock.
    func seen(from timeZone: TimeZone) throws -> IntentEnvironment {
        try IntentEnvironment(repository: repository, clock: { [clock] in clock.read() }, timeZone: timeZone)
    }

    @discardableResult
    func run<Intent: ArrangeIntent>(_ intent: Intent) async throws -> Intent.Result {
        try await intent.perform(in: environment)
    }

    func add(_ titles: String..., to list: ItemList.ID? = nil) async throws -> [Item.ID] {
        var ids: [Item.ID] = []
        for title in titles { ids += try await run(AddItem(title: title, list: list)).items.map(\.id) }
        return ids
    }

    /// Today's titles in the order shown, the evening's after a `|`.
    func today(_ day: Day? = nil) async throws -> String {
        let items = try await run(ShowToday(day: day)).items
        let ofDay = items.filter { !($0.evening && $0.startDate == (day ?? Self.december1)) }.map(\.title)
        let evening = items.filter { $0.evening && $0.startDate == (day ?? Self.december1) }.map(\.title)
        return (ofDay + (evening.isEmpty ? [] : ["|"] + evening)).joined(separator: " ")
    }

    /// The titles of the items with a key in Today.
    func keyed() throws -> Set<String> {
        Set(try repository.read { try $0.todayItems(visibility: .all, offset: 0, limit: .max) }.map(\.title))
    }

    func item(_ id: Item.ID) throws -> Item {
        try #require(try repository.read { try $0.item(id: id) })
    }
}

@Suite("Today by dates")
struct TodayIntentTests {
    let december1 = Desk.december1

    @Test("Today holds what has started or is due; the arrivals come first, by day, the sidebar's order and their places; This Evening last")
    func arrivals() async throws {
        let desk = try Desk()
        let inbox = try await desk.add("Placed", "Early", "Due", "Later", "Evening", "Someday")
        let work = try await desk.run(CreateList(name: "Work", placement: .bottom)).list.id
        let w = try await desk.add("Work", to: work)
        try await desk.run(AddToToday([inbox[0]]))
        #expect(try desk.item(inbox[0]).when == .on(december1), "adding by hand starts the item today")
        try await desk.run(SetWhen([inbox[1]], to: .on(december1.adding(days: -2))))
        try await desk.run(SetDeadline([inbox[2]], to: december1))
        try await desk.run(SetWhen([inbox[3]], to: .on(december1.adding(days: 1))))
        try await desk.run(SetWhen([inbox[4]], to: .on(december1, evening: true)))
        try await desk.run(SetWhen([inbox[5]], to: .someday))
        try await desk.run(SetWhen(w, to: .on(december1)))
        let shown = try await desk.today()
        #expect(shown == "Early Due Work Placed | Evening")
        #expect(try desk.keyed() == ["Placed"], "an arrival has no key")
        let listing = try await desk.run(ShowToday())
        #expect(listing.day == december1 && listing.items.map(\.position) == [1, 2, 3, 4, 5] && listing.items.allSatisfy(\.today))

        // The next day: Later arrives, and yesterday's evening item is one of the day's, an arrival again.
        let nextDay = try await desk.today(december1.adding(days: 1))
        #expect(nextDay == "Early Due Evening Work Later Placed")
        // The sidebar's order decides among one day's arrivals.
        try await desk.run(MoveList(work, to: .top))
        #expect(try await desk.today() == "Early Work Due Placed | Evening")
    }

    @Test("A move among the arrivals writes the moved items and the arrivals that end up below them, and nothing else")
    func movesAmongArrivals() async throws {
        let desk = try Desk()
        let ids = try await desk.add("A", "B", "C", "D", "P")
        try await desk.run(SetWhen(Array(ids[0..<4]), to: .on(december1)))
        try await desk.run(AddToToday([ids[4]]))
        #expect(try await desk.today() == "A B C D P")

        // P above B: P, C and D take keys as a run; A stays an arrival with no key.
        let moved = try await desk.run(MoveInToday([ids[4]], to: .before(ids[1])))
        #expect(try await desk.today() == "A P B C D")
        #expect(try desk.keyed() == ["P", "B", "C", "D"])
        #expect(moved.rowsWritten == 3, "B, C and D: P's key already lies above where they go")
        // An arrival moved down below the placed items writes itself alone.
        let down = try await desk.run(MoveInToday([ids[0]], to: .bottom))
        #expect(try await desk.today() == "P B C D A")
        #expect(down.rowsWritten == 1)
        // By offsets, as SwiftUI reports a drag over what it shows.
        try await desk.run(MoveInTodayAtOffsets(fromOffsets: [4], toOffset: 1))
        #expect(try await desk.today() == "P A B C D")

        // Undo takes the keys back: the arrivals are arrivals again.
        for _ in 0..<3 { try await desk.run(Undo()) }
        #expect(try await desk.today() == "A B C D P")
        #expect(try desk.keyed() == ["P"])
    }

    @Test("A place among the evening's items puts an item in the evening; one among the day's takes it out")
    func eveningSection() async throws {
        let desk = try Desk()
        let ids = try await desk.add("A", "E", "F")
        try await desk.run(AddToToday([ids[0]]))
        try await desk.run(SetWhen([ids[1]], to: .on(december1, evening: true)))
        try await desk.run(AddToToday([ids[2]], placement: .after(ids[1])))
        #expect(try desk.item(ids[2]).when == .on(december1, evening: true))
        #expect(try await desk.today() == "A | E F")
        try await desk.run(MoveInToday([ids[2]], to: .before(ids[1])))
        #expect(try await desk.today() == "A | F E")
        try await desk.run(MoveInToday([ids[1]], to: .top))
        #expect(try desk.item(ids[1]).when == .on(december1))
        #expect(try await desk.today() == "E A | F")
    }

    @Test("Today changes with the day, with no write, and with the time zone the person is in")
    func dayAndTimeZone() async throws {
        let desk = try Desk()
        let ids = try await desk.add("Tomorrow", "Evening")
        try await desk.run(SetWhen([ids[0]], to: .on(december1.adding(days: 1))))
        try await desk.run(AddToToday([ids[1]]))
        try await desk.run(SetWhen([ids[1]], to: .on(december1, evening: true)))
        #expect(try await desk.today() == "| Evening")
        let before = try await desk.repository.read { try $0.todayItems(visibility: .all, offset: 0, limit: .max) }

        // The clock passes midnight: nothing is written, yet Today is another day's.
        desk.clock.set(Desk.morning.addingTimeInterval(86_400))
        let after = try await desk.run(ShowToday()).items.map(\.title)
        #expect(after == ["Evening", "Tomorrow"], "yesterday's evening item arrived a day earlier")
        #expect(try await desk.repository.read { try $0.todayItems(visibility: .all, offset: 0, limit: .max) } == before)

        // At 23:30 UTC on the 1st, it is already the 2nd in Tokyo, still the 1st in Lisbon.
        desk.clock.set(Desk.morning.addingTimeInterval(13.5 * 3_600))
        let tokyo = try desk.seen(from: try #require(TimeZone(identifier: "Asia/Tokyo")))
        let lisbon = try desk.seen(from: try #require(TimeZone(identifier: "Europe/Lisbon")))
        #expect(try await ShowToday().perform(in: tokyo).items.map(\.title) == ["Evening", "Tomorrow"])
        #expect(try await ShowToday().perform(in: lisbon).items.map(\.title) == ["Evening"])
    }

    @Test("Removing from Today makes an item anytime; a date that takes an item out of Today takes its key, so it arrives again")
    func leaving() async throws {
        let desk = try Desk()
        let ids = try await desk.add("A", "B", "C")
        try await desk.run(AddToToday(ids))
        try await desk.run(RemoveFromToday([ids[0]]))
        #expect(try desk.item(ids[0]).when == .anytime && desk.item(ids[0]).todayIndex == nil)
        try await desk.run(SetWhen([ids[1]], to: .on(december1.adding(days: 2))))
        #expect(try desk.item(ids[1]).todayIndex == nil)
        #expect(try await desk.today() == "C")
        #expect(try await desk.today(december1.adding(days: 2)) == "B C", "it arrives at the top on its day")
        try await desk.run(SetWhen([ids[2]], to: .someday))
        #expect(try await desk.today() == "")
        #expect(try desk.keyed().isEmpty)

        // Undo brings each back: its date, and its key.
        try await desk.run(Undo())
        #expect(try await desk.today() == "C")
        #expect(try desk.keyed() == ["C"])
        try await desk.run(Undo())
        try await desk.run(Undo())
        #expect(try await desk.today() == "A B C")
    }

    @Test("Removing an item that is due dismisses its deadline from Today; a new deadline brings it back; undo takes the dismissal back")
    func dismissedDeadline() async throws {
        let desk = try Desk()
        let ids = try await desk.add("Taxes", "Other")
        try await desk.run(SetDeadline([ids[0]], to: december1.adding(days: -1)))
        #expect(try await desk.today() == "Taxes")
        let removed = try await desk.run(RemoveFromToday([ids[0]]))
        #expect(removed.items[0].deadlineDismissed && !removed.items[0].today)
        #expect(try await desk.today() == "")
        #expect(try await desk.today(december1.adding(days: 5)) == "", "a dismissed deadline stays dismissed")
        try await desk.run(Undo())
        #expect(try await desk.today() == "Taxes")
        try await desk.run(Redo())
        #expect(try desk.item(ids[0]).deadlineDismissed)
        try await desk.run(SetDeadline([ids[0]], to: december1.adding(days: 2)))
        #expect(try !desk.item(ids[0]).deadlineDismissed)
        #expect(try await desk.today(december1.adding(days: 2)) == "Taxes")
        await #expect(throws: IntentError.notInToday(ids[1])) { try await desk.run(RemoveFromToday([ids[1]])) }
    }

    @Test("Moving or removing an item Today does not hold is refused, with nothing written")
    func notInToday() async throws {
        let desk = try Desk()
        let ids = try await desk.add("A", "Later")
        try await desk.run(AddToToday([ids[0]]))
        try await desk.run(SetWhen([ids[1]], to: .on(december1.adding(days: 1))))
        await #expect(throws: IntentError.notInToday(ids[1])) { try await desk.run(MoveInToday([ids[1]], to: .top)) }
        await #expect(throws: IntentError.notInToday(ids[1])) { try await desk.run(RemoveFromToday([ids[1]])) }
        await #expect(throws: OrderingError.anchorNotInToday(ids[1])) { try await desk.run(MoveInToday([ids[0]], to: .after(ids[1]))) }
        #expect(try desk.item(ids[1]).when == .on(december1.adding(days: 1)) && desk.keyed() == ["A"])
    }
}
