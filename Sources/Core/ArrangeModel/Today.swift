/// A part of Today: the day's items, or This Evening at its bottom.
public enum TodaySection: String, Hashable, Sendable, Codable, CaseIterable {
    /// The items of the day, at the top of Today.
    case day
    /// This Evening: the items put in the evening of the day, at the bottom of Today.
    case evening
}

/// What Today's rules read of an item: its dates, and its key in Today's hand order.
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
}

extension Item: TodayDated {}

extension TodayDated {
    /// The section of Today that holds the item on `day`, or `nil` when Today does not hold it.
    ///
    /// Today holds an item from its start date on, and from its deadline on unless its deadline
    /// is dismissed (``deadlineDismissed``). The evening flag
    /// holds on the start date only: the day after, an unfinished evening item is one of the
    /// day's. A key in Today's hand order alone does not hold an item there.
    ///
    /// Completion does not matter here: which completed items a view shows is its visibility's business.
    public func todaySection(on day: Day) -> TodaySection? {
        if case .on(let start, let evening) = when, start <= day { return evening && start == day ? .evening : .day }
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
        if section == .day, case .on(let start, true) = when, start < day { return false }
        return true
    }

    /// The day the item came into Today, as the order of the arrivals has it: its start date
    /// when that has come by `day`, its deadline otherwise; `day` itself for an item with neither.
    public func arrivalInToday(on day: Day) -> Day {
        if let start = when.startDate, start <= day { return start }
        return deadline ?? day
    }
}
