public import ArrangeModel
import ArrangeChanges
import ArrangeStore
public import Foundation

/// Gives items a reminder at a time on their start date, or takes theirs away. An item without
/// a start date gets `day`'s, as in Things.
///
/// ```swift
/// try await SetReminder([call], at: try TimeOfDay(parsing: "09:00")).perform(in: environment)
/// try await SetReminder([call], at: nil).perform(in: environment)
/// ```
public struct SetReminder: ArrangeIntent {
    public static let title = "Set Reminder"

    /// The items, each once; repeats are ignored.
    public var items: [Item.ID]
    /// The time on the wall, or `nil` to take the reminder away.
    public var reminder: TimeOfDay?
    /// The start date an item without one gets; `nil` for today where the person is.
    public var day: Day?

    /// Sets the reminder of `items` to `reminder`, on their start dates, or on `day` (today by
    /// default) for those without one; `nil` takes it away.
    public init(_ items: [Item.ID], at reminder: TimeOfDay?, day: Day? = nil) {
        self.items = items
        self.reminder = reminder
        self.day = day
    }

    /// - Returns: The items, and how many of them changed: their reminders or their dates.
    /// - Throws: ``IntentError/noItemsNamed`` or ``IntentError/unknownItem(_:)``, with nothing written.
    public func run(in context: IntentContext) throws -> ItemsResult {
        var dated = 0
        if reminder != nil {
            let undated = try context.distinctItems(items).filter { $0.when.startDate == nil }.map(\.id)
            if !undated.isEmpty { dated = try SetWhen(undated, to: .on(day ?? context.today())).run(in: context).changed }
        }
        let result = try edit(\.reminder, of: items, in: context, action: Self.title, to: { _ in reminder }) { ReminderSet(ids: $0, reminder: $1) }
        return ItemsResult(items: result.items, changed: max(result.changed, dated))
    }
}

/// The reminders that fire in a span of time, in the order they fire: what an app hands to the
/// system's scheduler of notifications.
///
/// A reminder fires at its time on the wall of the environment's time zone on the item's start
/// date (`TimeOfDay.instant(on:in:)`). Those of completed and canceled items, and of items in
/// the Trash, fire none.
///
/// - Complexity: One search of the index of the reminders over the days the span touches.
public struct GetReminders: ArrangeIntent {
    public static let title = "Get Reminders"

    /// The first instant of the span; `nil` for now.
    public var from: Date?
    /// The instant after its end; `nil` for a day after `from`.
    public var to: Date?

    /// The reminders that fire from `from` (now by default) up to `to` (a day later by default).
    public init(from: Date? = nil, to: Date? = nil) {
        self.from = from
        self.to = to
    }

    public var isReadOnly: Bool { true }

    public func run(in context: IntentContext) throws -> RemindersResult {
        let from = self.from ?? context.now()
        let to = self.to ?? from.addingTimeInterval(86_400)
        guard from < to else { return RemindersResult(reminders: []) }
        let timeZone = context.environment.timeZone
        // A day's wall times lie within a day of its instants, wherever the zone is.
        let first = Day(from, in: timeZone).adding(days: -1), last = Day(to, in: timeZone).adding(days: 1)
        let firing = try context.transaction.items(.reminders(from: first, through: last)).compactMap { item -> (Item, Date)? in
            guard let reminder = item.reminder, let start = item.when.startDate else { return nil }
            let instant = reminder.instant(on: start, in: timeZone)
            return (from..<to).contains(instant) ? (item, instant) : nil
        }.sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
        let summaries = try context.summaries(of: firing.map(\.0))
        return RemindersResult(reminders: zip(summaries, firing).map { Reminder(item: $0, at: $1.1, utcOffset: timeZone.secondsFromGMT(for: $1.1)) })
    }
}

/// A reminder that fires: the item, and when.
///
/// Its `Codable` form is `{"item": …, "at": "2027-03-28T09:00:00+02:00"}`: the instant as the
/// wall clock shows it, with the time zone's offset then.
public struct Reminder: Identifiable, Hashable, Sendable, Codable {
    /// The item.
    public var item: ItemSummary
    /// When it fires.
    public var at: Date
    /// The time zone's offset from UTC at that instant, in seconds: the wall clock shows `at` plus this.
    public var utcOffset: Int

    /// The item's id.
    public var id: Item.ID { item.id }

    public init(item: ItemSummary, at: Date, utcOffset: Int) {
        self.item = item
        self.at = at
        self.utcOffset = utcOffset
    }

    private enum CodingKeys: String, CodingKey {
        case item, at
    }

    /// Reads the form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .at)
        guard let at = ISO8601DateFormatter().date(from: text), let offset = Self.offset(of: text) else {
            throw DecodingError.dataCorruptedError(forKey: .at, in: container, debugDescription: "'\(text)' is not an ISO 8601 date and time with an offset.")
        }
        self.init(item: try container.decode(ItemSummary.self, forKey: .item), at: at, utcOffset: offset)
    }

    /// Writes the item, and `at` on the wall clock with its offset.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(item, forKey: .item)
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: utcOffset) ?? .gmt
        try container.encode(formatter.string(from: at), forKey: .at)
    }

    /// The offset an ISO 8601 date and time ends with, `Z` or `±HH:MM`, in seconds.
    private static func offset(of text: String) -> Int? {
        if text.hasSuffix("Z") { return 0 }
        let tail = text.suffix(6)
        guard let sign = tail.first, sign == "+" || sign == "-", let time = try? TimeOfDay(parsing: String(tail.dropFirst())) else { return nil }
        return (sign == "-" ? -1 : 1) * (time.hour * 3_600 + time.minute * 60)
    }
}

/// The reminders that fire in a span, in the order they fire (``GetReminders``).
public struct RemindersResult: Hashable, Sendable, Codable {
    /// The reminders.
    public var reminders: [Reminder]

    public init(reminders: [Reminder]) {
        self.reminders = reminders
    }
}
