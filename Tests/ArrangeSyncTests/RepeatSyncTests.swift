import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import ArrangeSync
import Foundation
import Testing

/// A repeating series makes exactly one to-do a date, whichever devices make it, through sync.
@Suite("Sync: repeating to-dos, one to-do a date")
struct RepeatSyncTests {
    /// Two devices that share one repeating to-do, with wall clocks the test moves.
    struct Pair {
        let clock = SimulatedClock(1_000)
        let here: IntentReplica
        let there: IntentReplica
        let first: Item.ID

        init(kind: StoreKind, rule: RepeatRule) async throws {
            let clock = self.clock
            here = try IntentReplica(kind: kind, wallClock: { clock.read() })
            there = try IntentReplica(kind: kind, wallClock: { clock.read() })
            let added = try await AddItem(title: "Pay rent", placement: .top, when: .on(try Day(parsing: "2027-02-01"))).perform(in: here.environment)
            first = try #require(added.items.first?.id)
            _ = try await SetRepeat(item: first, repeat: rule).perform(in: here.environment)
            _ = try await there.engine.merge(try here.operations())
        }

        /// Each device merges what the other logged.
        func meet() async throws {
            let (mine, theirs) = (try here.operations(), try there.operations())
            _ = try await here.engine.merge(theirs)
            _ = try await there.engine.merge(mine)
        }

        /// The to-dos of the series on each device, the same on both, by start date.
        func todos() async throws -> [Item] {
            let read = { (replica: IntentReplica) in
                try await replica.engine.repository.read { transaction in
                    try transaction.lists().flatMap { try transaction.items(in: $0.id, visibility: .all, offset: 0, limit: .max) }
                        .filter { $0.title == "Pay rent" }.sorted { ($0.when.startDate?.description ?? "", $0.id) < ($1.when.startDate?.description ?? "", $1.id) }
                }
            }
            let (mine, theirs) = (try await read(here), try await read(there))
            #expect(mine == theirs, "the two devices hold the same to-dos")
            #expect(try Simulation.dump(here.engine.repository) == Simulation.dump(there.engine.repository), "the two devices end identical")
            return mine
        }
    }

    private static func day(_ text: String) throws -> Day { try Day(parsing: text) }

    @Test("Two devices that both open on the new day make the same to-do, not two", arguments: StoreKind.allCases)
    func bothOpenOnTheDay(kind: StoreKind) async throws {
        let pair = try await Pair(kind: kind, rule: try RepeatRule(.fixed, every: 1, .month, monthDays: [1]))
        _ = try await ShowToday(day: try Self.day("2027-03-01")).perform(in: pair.here.environment)
        pair.clock.advance(by: 1_000)
        _ = try await ShowToday(day: try Self.day("2027-03-01")).perform(in: pair.there.environment)
        try await pair.meet()
        let todos = try await pair.todos()
        #expect(todos.map(\.when.startDate) == [try Self.day("2027-02-01"), try Self.day("2027-03-01")])
        #expect(todos.allSatisfy { $0.series == todos[0].series && $0.series != nil })
    }

    @Test("A to-do deleted for good is not made again by a device that opens on its day later", arguments: StoreKind.allCases)
    func deletedStaysDeleted(kind: StoreKind) async throws {
        let pair = try await Pair(kind: kind, rule: try RepeatRule(.fixed, every: 1, .month, monthDays: [1]))
        let made = try await MakeDueRepeats(day: try Self.day("2027-03-01")).perform(in: pair.here.environment).items
        #expect(made.count == 1)
        _ = try await DeleteItems(made.map(\.id)).perform(in: pair.here.environment)
        _ = try await EmptyTrash().perform(in: pair.here.environment)
        pair.clock.advance(by: 1_000)
        // The other device, which has not heard of it, opens on that day later.
        _ = try await ShowToday(day: try Self.day("2027-03-01")).perform(in: pair.there.environment)
        try await pair.meet()
        #expect(try await pair.todos().map(\.id) == [pair.first], "the deleted to-do stays deleted on both")
        _ = try await ShowToday(day: try Self.day("2027-03-02")).perform(in: pair.there.environment)
        try await pair.meet()
        #expect(try await pair.todos().map(\.id) == [pair.first], "and no later day makes it again")
    }

    @Test("Two devices that complete the same to-do apart make one next to-do, dated by the later completion", arguments: StoreKind.allCases)
    func completedApart(kind: StoreKind) async throws {
        let pair = try await Pair(kind: kind, rule: try RepeatRule(.afterCompletion, every: 3, .day))
        _ = try await CompleteItems([pair.first], day: try Self.day("2027-03-01")).perform(in: pair.here.environment)
        pair.clock.advance(by: 1_000)
        _ = try await CompleteItems([pair.first], day: try Self.day("2027-03-05")).perform(in: pair.there.environment)
        try await pair.meet()
        let todos = try await pair.todos()
        #expect(todos.count == 2)
        #expect(todos.filter { !$0.isCompleted }.map(\.when.startDate) == [try Self.day("2027-03-08")], "three days after the later completion")
    }
}
