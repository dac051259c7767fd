import ArrangeBenchSupport
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import ArrangeStore
import Foundation

/// Time on SQLite (database files in WAL mode): reminders and repeating to-dos.
///
/// 1. **Reminders.** `GetReminders` for the next 24 hours over ``reminderItems`` items, of which
///    ``reminders`` have a reminder on one of ``reminderDays`` days, over the floor: one read of
///    the same rows by id.
/// 2. **Upcoming with series.** `ShowUpcoming` through 365 days over ``upcomingItems`` items, a
///    third dated within the year, with ``seriesCount`` weekly series, over the same view of a
///    copy without the series.
/// 3. **Completing a to-do of a series.** `CompleteItems` of a to-do of a series after
///    completion, which makes the next in the same transaction, over completing a plain to-do
///    and adding one item in one transaction.
/// 4. **A new day.** `MakeDueRepeats` on a day when ``seriesCount`` daily series are due, over
///    adding as many items in one transaction.
struct TimeSection {
    let rounds: Int
    let seed: UInt64
    let log: (String) -> Void

    static let reminderItems = 100_000
    static let reminders = 2_000
    static let reminderDays = 100
    static let upcomingItems = 10_000
    static let seriesCount = 200

    struct Measurement {
        var reminders: MedianRatio
        var remindersFound: Int
        var upcoming: MedianRatio
        var projected: Int
        var completion: MedianRatio
        var newDay: MedianRatio
    }

    /// The day the benchmark's views are of.
    static let day = Day(BulkLoad.epoch, in: .gmt)

    func run(in directory: URL) async throws -> Measurement {
        let (reminders, found) = try await measureReminders(in: directory)
        let (upcoming, projected) = try await measureUpcoming(in: directory)
        return Measurement(
            reminders: reminders, remindersFound: found, upcoming: upcoming, projected: projected, completion: try await measureCompletion(in: directory),
            newDay: try await measureNewDay(in: directory))
    }

    /// Times `operation` and `floor` in turns, ``rounds`` times, each pair then checked by
    /// `check` with the round and both results; the first tenth of the rounds (two at least)
    /// warm up and are left out.
    private func inTurns<Timed, Floor>(
        _ operation: (Int) async throws -> Timed, against floor: (Int) async throws -> Floor, checking check: (Int, Timed, Floor) async throws -> Void
    ) async throws -> MedianRatio {
        var (times, floors): ([Double], [Double]) = ([], [])
        let clock = ContinuousClock()
        for round in 0..<rounds {
            let start = clock.now
            let timed = try await operation(round)
            let middle = clock.now
            let reference = try await floor(round)
            let end = clock.now
            try await check(round, timed, reference)
            if round >= max(2, rounds / 10) {
                times.append((middle - start).nanoseconds)
                floors.append((end - middle).nanoseconds)
            }
        }
        return MedianRatio(times, over: floors)
    }

    /// An environment on a fresh database file, at the benchmark's day in UTC.
    private func environment(in directory: URL, named name: String) throws -> IntentEnvironment {
        try IntentEnvironment(
            repository: try SQLiteItemRepository(writer: try Backend.openPool(in: directory, named: name)), historyLimit: 0,
            clock: { BulkLoad.epoch }, timeZone: .gmt)
    }

    private func measureReminders(in directory: URL) async throws -> (MedianRatio, Int) {
        log("  reminders: \(Format.count(Self.reminderItems)) items, \(Format.count(Self.reminders)) with a reminder over \(Self.reminderDays) days")
        var random = SeededRandomNumberGenerator(seed: seed ^ 0x71E)
        let environment = try environment(in: directory, named: "reminders")
        let repository = environment.repository
        let list = try BulkLoad.makeList(named: "Reminders", in: repository)
        var items: [Item] = []
        for index in 0..<Self.reminderItems {
            var item = BulkLoad.item(Item.ID(using: &random), number: index, in: list.id, sortIndex: BulkLoad.appendedKey(index))
            if index % (Self.reminderItems / Self.reminders) == 0 {
                item.when = .on(Self.day.adding(days: Int.random(in: 0..<Self.reminderDays, using: &random)))
                item.reminder = try TimeOfDay(hour: Int.random(in: 0..<24, using: &random), minute: 0)
            }
            items.append(item)
        }
        try await repository.write { [items] transaction in
            for item in items { try transaction.insert(item) }
        }
        let from = BulkLoad.epoch
        let firing = try await GetReminders(from: from, to: from.addingTimeInterval(86_400)).perform(in: environment).reminders.map(\.id)
        let ratio = try await inTurns { _ in
            try await GetReminders(from: from, to: from.addingTimeInterval(86_400)).perform(in: environment)
        } against: { _ in
            try await repository.read { try $0.items(withIDs: firing) }
        } checking: { _, read, rows in
            guard read.reminders.map(\.id) == firing, rows.count == firing.count else {
                throw VerificationFailure(message: "GetReminders found \(read.reminders.count) reminders, not the \(firing.count) of the first read.")
            }
        }
        return (ratio, firing.count)
    }

    private func measureUpcoming(in directory: URL) async throws -> (MedianRatio, Int) {
        log("  upcoming through 365 days: \(Format.count(Self.upcomingItems)) items, with \(Self.seriesCount) weekly series and without")
        var stores: [IntentEnvironment] = []
        for name in ["upcoming-series", "upcoming-plain"] {
            var random = SeededRandomNumberGenerator(seed: seed ^ 0x0BC)
            let environment = try environment(in: directory, named: name)
            let list = try BulkLoad.makeList(named: "Plans", in: environment.repository)
            var items: [Item] = []
            for index in 0..<Self.upcomingItems {
                var item = BulkLoad.item(Item.ID(using: &random), number: index, in: list.id, sortIndex: BulkLoad.appendedKey(index))
                if index % 3 == 0 { item.when = .on(Self.day.adding(days: 1 + Int.random(in: 0..<365, using: &random))) }
                items.append(item)
            }
            try await environment.repository.write { [items] transaction in
                for item in items { try transaction.insert(item) }
            }
            stores.append(environment)
        }
        let weekly = try RepeatRule(.fixed, every: 1, .week)
        let seriesList = try await stores[0].repository.read { try $0.lists()[0].id }
        for index in 0..<Self.seriesCount {
            let item = try await AddItem(title: "Weekly \(index)", list: seriesList, when: .on(Self.day.adding(days: index % 7))).perform(in: stores[0]).items[0].id
            _ = try await SetRepeat(item: item, repeat: weekly).perform(in: stores[0])
            _ = try await AddItem(title: "Weekly \(index)", list: try await stores[1].repository.read { try $0.lists()[0].id }, when: .on(Self.day.adding(days: index % 7)))
                .perform(in: stores[1])
        }
        let view = ShowUpcoming(day: Self.day, through: Self.day.adding(days: 365))
        var projected = 0
        let ratio = try await inTurns { _ in
            try await view.perform(in: stores[0])
        } against: { _ in
            try await view.perform(in: stores[1])
        } checking: { _, withSeries, without in
            projected = withSeries.days.reduce(0) { $0 + $1.projected.count }
            guard projected >= Self.seriesCount * 50, withSeries.days.flatMap(\.items).count == without.days.flatMap(\.items).count else {
                throw VerificationFailure(message: "Upcoming projects \(projected) to-dos of \(Self.seriesCount) weekly series over a year.")
            }
        }
        return (ratio, projected)
    }

    /// Completes a plain to-do and adds an item right after it, where a series puts its next,
    /// in one transaction: the floor of completing a to-do of a series, which makes its next.
    struct CompleteAndAdd: ArrangeIntent {
        static let title = "Complete and Add"
        var item: Item.ID
        var list: ItemList.ID

        func run(in context: IntentContext) throws -> ItemsResult {
            _ = try CompleteItems([item]).run(in: context)
            return ItemsResult(items: try AddItem(title: "Next", list: list, placement: .after(item), visibility: .all).run(in: context).items, changed: 1)
        }
    }

    private func measureCompletion(in directory: URL) async throws -> MedianRatio {
        log("  completing a to-do of a series, which makes the next, and a plain one with an add")
        let environment = try environment(in: directory, named: "completion")
        let list = try BulkLoad.makeList(named: "Chores", in: environment.repository).id
        var current = try await AddItem(title: "Water the plants", list: list, when: .on(Self.day)).perform(in: environment).items[0].id
        _ = try await SetRepeat(item: current, repeat: try RepeatRule(.afterCompletion, every: 3, .day)).perform(in: environment)
        var plain = try await AddItem(title: "Plain", list: list).perform(in: environment).items[0].id
        return try await inTurns { round in
            try await CompleteItems([current], day: Self.day.adding(days: round)).perform(in: environment)
        } against: { _ in
            try await CompleteAndAdd(item: plain, list: list).perform(in: environment)
        } checking: { _, _, added in
            let next = try await environment.repository.read { [current] transaction -> Item? in
                guard let series = try transaction.item(id: current)?.series.flatMap(transaction.series(id:)) else { return nil }
                return try transaction.item(id: series.itemID(following: current))
            }
            guard let next, next.id != current, !next.isCompleted else { throw VerificationFailure(message: "Completing a to-do of a series made no next to-do.") }
            (current, plain) = (next.id, added.items[0].id)
        }
    }

    /// Adds items at the top of a list, where a new day's to-dos go, in one transaction: the
    /// floor of the to-dos a new day makes.
    struct AddMany: ArrangeIntent {
        static let title = "Add Many"
        var count: Int
        var list: ItemList.ID

        func run(in context: IntentContext) throws -> ItemsResult {
            var changed = 0
            for index in 0..<count { changed += try AddItem(title: "Added \(index)", list: list, placement: .top).run(in: context).items.count }
            return ItemsResult(items: [], changed: changed)
        }
    }

    private func measureNewDay(in directory: URL) async throws -> MedianRatio {
        log("  a new day: \(Self.seriesCount) daily series due, and as many items added")
        let environment = try environment(in: directory, named: "new-day")
        let list = try BulkLoad.makeList(named: "Daily", in: environment.repository).id
        let daily = try RepeatRule(.fixed, every: 1, .day)
        for index in 0..<Self.seriesCount {
            let item = try await AddItem(title: "Daily \(index)", list: list, when: .on(Self.day)).perform(in: environment).items[0].id
            _ = try await SetRepeat(item: item, repeat: daily).perform(in: environment)
        }
        return try await inTurns { round in
            try await MakeDueRepeats(day: Self.day.adding(days: round + 1)).perform(in: environment)
        } against: { _ in
            try await AddMany(count: Self.seriesCount, list: list).perform(in: environment)
        } checking: { _, made, added in
            guard made.changed == Self.seriesCount, added.changed == Self.seriesCount else {
                throw VerificationFailure(message: "The new day made \(made.changed) to-dos, not \(Self.seriesCount).")
            }
        }
    }

    func text(_ measurement: Measurement) -> String {
        func pair(_ ratio: MedianRatio, _ unit: Double, _ suffix: String) -> String {
            "\(Format.figure(ratio.median / unit)) \(suffix) ÷ \(Format.figure(ratio.reference / unit)) \(suffix)"
        }
        return """
            | figure | result | target |
            |---|---|---|
            | `GetReminders` for the next 24 hours over \(Format.count(Self.reminderItems)) items with \(Format.count(Self.reminders)) reminders (\(measurement.remindersFound) fire) ÷ reading those rows by id in one query (\(pair(measurement.reminders, 1_000, "µs"))) | \(Format.figure(measurement.reminders.value)) | ≤ 2 |
            | `ShowUpcoming` through 365 days over \(Format.count(Self.upcomingItems)) items with \(Self.seriesCount) weekly series (\(Format.count(measurement.projected)) to-dos projected) ÷ the same without the series (\(pair(measurement.upcoming, 1_000_000, "ms"))) | \(Format.figure(measurement.upcoming.value)) | ≤ 3 |
            | `CompleteItems` of a to-do of a series after completion, the next made in the same transaction ÷ completing a plain to-do and adding one item right after it, where a series puts its next, in one transaction (\(pair(measurement.completion, 1_000, "µs"))) | \(Format.figure(measurement.completion.value)) | ≤ 1.3 |
            | `MakeDueRepeats` on a new day with \(Self.seriesCount) daily series due ÷ adding \(Self.seriesCount) items at the top of their list, where the day's to-dos go, in one transaction (\(pair(measurement.newDay, 1_000, "µs"))) | \(Format.figure(measurement.newDay.value)) | ≤ 2 |
            """
    }
}
