/// A part of Today: the day's items, or This Evening at its bottom.
public enum TodaySection: String, Hashable, Sendable, Codable, CaseIterable {
    /// The items of the day, at the top of Today.
    case day
    /// This Evening: the items put in the evening of the day, at the bottom of Today.
    case evening
}

/// One person's own word on an item in Today, beside its dates: an item of a list shared with
/// others has the dates every member sees, and each member adds it to their Today, or takes it
/// out, with a mark of their own that changes no date.
///
/// ```swift
/// item.todayMark = .added(today)                 // in my Today from today on
/// item.todayMark = .added(today, evening: true)  // in my This Evening
/// item.todayMark = .removed(today)               // out of my Today, though it starts today
/// ```
public enum TodayMark: Hashable, Sendable {
    /// Added to Today on a day, in its evening when `evening`: Today holds the item from that
    /// day on, as it holds an item that starts then.
    case added(Day, evening: Bool = false)
    /// Taken out of Today on a day: a start date on or before that day no longer brings the
    /// item in. A later start date does.
    case removed(Day)

    /// The day of the mark.
    public var day: Day {
        switch self {
        case .added(let day, _), .removed(let day): day
        }
    }
}

extension TodayMark: Codable {
    private enum CodingKeys: String, CodingKey {
        case added, evening, removed
    }

    /// Reads the form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let day = try container.decodeIfPresent(Day.self, forKey: .added) {
            self = .added(day, evening: try container.decodeIfPresent(Bool.self, forKey: .evening) ?? false)
        } else {
            self = .removed(try container.decode(Day.self, forKey: .removed))
        }
    }

    /// Writes `{"added": "2026-11-30"}`, perhaps with `"evening": true`, or `{"removed": "2026-11-30"}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .added(let day, let evening):
            try container.encode(day, forKey: .added)
            if evening { try container.encode(true, forKey: .evening) }
        case .removed(let day):
            try container.encode(day, forKey: .removed)
        }
    }
}

/// What Today's rules read of an item: its dates, the person's own mark, and its key in
/// Today's hand order.
///
/// ``Item`` is one. So is what a store reads of an item to order Today without the rest of
/// its row, which Today's rules need no more of.
public protocol TodayDated {
    /// When the item starts: anytime, someday, or on a day, perhaps in its evening.
    var when: When { get }
    /// The day the item is due, if any.
    var deadline: Day? { get }
    /// Whether the deadline no longer brings the item into Today.
    var deadlineDismissed: Bool { get }
    /// The item's key in Today's hand order, if it has one.
    var todayIndex: Int64? { get }
    /// The person's own mark of the item in or out of Today, beside its dates, if any.
    var todayMark: TodayMark? { get }
}

extension Item: TodayDated {}

extension TodayDated {
    /// The day the item starts in the person's Today, and whether in its evening: its start
    /// date, unless the person took it out of Today on or after that day; or the day they added
    /// it to Today, when that comes first.
    public var startInToday: (day: Day, evening: Bool)? {
        var start: (day: Day, evening: Bool)? = if case .on(let day, let evening) = when { (day, evening) } else { nil }
        switch todayMark {
        case .removed(let day)?:
            if let started = start, started.day <= day { start = nil }
        case .added(let day, let evening)?:
            if start.map({ day <= $0.day }) ?? true { start = (day, evening) }
        case nil:
            break
        }
        return start
    }

    /// The section of Today that holds the item on `day`, or `nil` when Today does not hold it.
    ///
    /// Today holds an item from its start in Today on (``startInToday``: its start date, or
    /// the person's own ``todayMark``), and from its deadline on unless its deadline is
    /// dismissed (``deadlineDismissed``). The evening flag holds on the start day only: the day
    /// after, an unfinished evening item is one of the day's. A key in Today's hand order alone
    /// does not hold an item there.
    ///
    /// Completion does not matter here: which completed items a view shows is its visibility's business.
    public func todaySection(on day: Day) -> TodaySection? {
        if let start = startInToday, start.day <= day { return start.evening && start.day == day ? .evening : .day }
        if let deadline, deadline <= day, !deadlineDismissed { return .day }
        return nil
    }

    /// Whether Today holds the item on `day`.
    public func isInToday(on day: Day) -> Bool {
        todaySection(on: day) != nil
    }

    /// Whether the item, which Today holds on `day`, stands there by its key in Today's hand
    /// order; `false` for an item that arrived without one, or that came into the day's items
    /// since it was given one: yesterday's evening item.
    public func keepsTodayPlace(on day: Day) -> Bool {
        guard todayIndex != nil, let section = todaySection(on: day) else { return false }
        if section == .day, let start = startInToday, start.evening, start.day < day { return false }
        return true
    }

    /// The day the item came into Today, as the order of the arrivals has it: its start in
    /// Today (``startInToday``) when that has come by `day`, its deadline otherwise; `day`
    /// itself for an item with neither.
    public func arrivalInToday(on day: Day) -> Day {
        if let start = startInToday?.day, start <= day { return start }
        return deadline ?? day
    }
}
