public import Foundation

/// How a to-do repeats, as Things keeps it on a repeating to-do's template: on fixed dates, or a
/// number of days, weeks, months or years after the last one was done.
///
/// ```swift
/// // Every month on the 1st.
/// let rent = try RepeatRule(.fixed, every: 1, .month, monthDays: [1])
/// Array(rent.dates(from: try Day(parsing: "2026-11-27")).prefix(2))   // 2026-12-01, 2027-01-01
/// // 3 days after it was last done.
/// let plants = try RepeatRule(.afterCompletion, every: 3, .day)
/// plants.next(afterCompletionOn: try Day(parsing: "2027-02-27"))      // 2027-03-02
/// ```
///
/// A fixed rule's dates follow RFC 5545 (`RRULE`, with weeks that start on Monday) wherever
/// the two meet. Where they part, the rule follows Things:
/// - a day of the month that a month lacks falls back to its last day (the 31st is April's
///   30th, February's 28th or 29th), where RFC 5545 skips the month;
/// - a yearly rule without `months` falls in the start's month, with its days of the month or
///   its n-th weekday there, where RFC 5545 would take every month, or the n-th weekday of the year;
/// - a rule's dates are those on or after the day it starts from that the rule names: the
///   start itself only when the rule names it, as python-dateutil counts them, where RFC 5545
///   counts the start always (`ends.after` counts the same way).
///
/// A rule is checked as it is made, and its fields are then read only: every rule names dates.
public struct RepeatRule: Hashable, Sendable {
    /// Whether a series falls on the rule's dates or follows each completion.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// On the rule's dates, whenever the to-dos are done.
        case fixed
        /// `every` units after the day the last to-do was completed or canceled.
        case afterCompletion
    }

    /// The unit a rule counts in.
    public enum Unit: String, Hashable, Sendable, Codable, CaseIterable {
        case day, week, month, year
    }

    /// A day of the week, written as RFC 5545 writes it (`mo` to `su`).
    public enum Weekday: String, Hashable, Sendable, Codable, CaseIterable {
        case mo, tu, we, th, fr, sa, su

        /// The day's number, as ``Day/weekday`` numbers it: 1 for Monday to 7 for Sunday.
        public var number: Int { (Self.allCases.firstIndex(of: self) ?? 0) + 1 }
    }

    /// The n-th such weekday of a month: `{n: 2, weekday: .mo}`, the second Monday; `n` -1 is the last.
    public struct NthWeekday: Hashable, Sendable, Codable {
        /// Which one: 1 to 5, or -1 for the last.
        public var n: Int
        /// The weekday.
        public var weekday: Weekday

        public init(_ n: Int, _ weekday: Weekday) {
            self.n = n
            self.weekday = weekday
        }
    }

    /// When a series ends.
    public enum End: Hashable, Sendable {
        /// After its last date on or before this day.
        case on(Day)
        /// After this many dates, those skipped included.
        case after(Int)
    }

    /// Fixed dates, or after each completion.
    public private(set) var type: Kind
    /// How many units apart the dates are, 1 or more.
    public private(set) var every: Int
    /// The unit.
    public private(set) var unit: Unit
    /// The days of the week of a weekly rule; `nil` for the start's.
    public private(set) var weekdays: [Weekday]?
    /// The days of a monthly or yearly rule's months, 1 to 31, -1 for the last; `nil` for the start's.
    public private(set) var monthDays: [Int]?
    /// The n-th weekday of a monthly or yearly rule's months, instead of days of the month.
    public private(set) var nthWeekday: NthWeekday?
    /// The months of a yearly rule, 1 to 12; `nil` for the start's.
    public private(set) var months: [Int]?
    /// When the series ends; `nil` for never.
    public private(set) var ends: End?
    /// The days from each to-do's start to its deadline, 0 or more; `nil` for no deadline.
    public private(set) var deadlineOffset: Int?
    /// The time of each to-do's reminder; `nil` for none.
    public private(set) var reminder: TimeOfDay?

    /// A rule, checked.
    ///
    /// - Throws: ``RepeatRuleError`` for a rule that names no dates, or fields its kind and
    ///   unit do not take.
    public init(
        _ type: Kind, every: Int, _ unit: Unit, weekdays: [Weekday]? = nil, monthDays: [Int]? = nil, nthWeekday: NthWeekday? = nil,
        months: [Int]? = nil, ends: End? = nil, deadlineOffset: Int? = nil, reminder: TimeOfDay? = nil
    ) throws(RepeatRuleError) {
        self.type = type
        self.every = every
        self.unit = unit
        self.weekdays = weekdays
        self.monthDays = monthDays
        self.nthWeekday = nthWeekday
        self.months = months
        self.ends = ends
        self.deadlineOffset = deadlineOffset
        self.reminder = reminder
        try validate()
    }

    /// Checks that the rule names dates, with the fields its kind and unit take.
    ///
    /// - Throws: ``RepeatRuleError``.
    public func validate() throws(RepeatRuleError) {
        guard every >= 1, every <= 1_000 else { throw .invalidEvery(every) }
        if let weekdays {
            guard unit == .week else { throw .fieldNotForUnit("weekdays", unit) }
            guard !weekdays.isEmpty else { throw .emptyField("weekdays") }
            guard Set(weekdays).count == weekdays.count else { throw .repeatedValue("weekdays") }
        }
        if let monthDays {
            guard unit == .month || unit == .year else { throw .fieldNotForUnit("monthDays", unit) }
            guard !monthDays.isEmpty else { throw .emptyField("monthDays") }
            guard Set(monthDays).count == monthDays.count else { throw .repeatedValue("monthDays") }
            if let day = monthDays.first(where: { !(1...31).contains($0) && $0 != -1 }) { throw .invalidMonthDay(day) }
        }
        if let nthWeekday {
            guard unit == .month || unit == .year else { throw .fieldNotForUnit("nthWeekday", unit) }
            guard (1...5).contains(nthWeekday.n) || nthWeekday.n == -1 else { throw .invalidNth(nthWeekday.n) }
            guard monthDays == nil else { throw .monthDaysAndNthWeekday }
        }
        if let months {
            guard unit == .year else { throw .fieldNotForUnit("months", unit) }
            guard !months.isEmpty else { throw .emptyField("months") }
            guard Set(months).count == months.count else { throw .repeatedValue("months") }
            if let month = months.first(where: { !(1...12).contains($0) }) { throw .invalidMonth(month) }
        }
        if type == .afterCompletion, let field = [("weekdays", weekdays != nil), ("monthDays", monthDays != nil), ("nthWeekday", nthWeekday != nil), ("months", months != nil)].first(where: \.1)?.0 {
            throw .fieldNotAfterCompletion(field)
        }
        if case .after(let count) = ends, count < 1 { throw .invalidEndCount(count) }
        if let deadlineOffset, !(0...3_650).contains(deadlineOffset) { throw .invalidDeadlineOffset(deadlineOffset) }
    }

    /// The dates of a fixed rule from `start` on, in order, up to its end: each a to-do's start.
    ///
    /// - Parameter start: The day the series starts from: the first to-do's start date.
    /// - Returns: The dates, lazily; none past year 9999. An `afterCompletion` rule has none.
    /// - Complexity: O(1) per date, and per period of the rule that holds none.
    public func dates(from start: Day) -> RepeatDates {
        RepeatDates(rule: self, start: start, firstPeriod: 0)
    }

    /// The dates of a fixed rule from `start` on, as ``dates(from:)`` gives them, but for those
    /// of the periods that end before `day`, which it skips without stepping through them: it
    /// hands out every date on or after `day`, and perhaps a few before. A rule that ends after
    /// a count of dates steps through them all, to count them.
    ///
    /// - Complexity: O(1) to reach `day`, then as ``dates(from:)``.
    public func dates(from start: Day, skippingTo day: Day) -> RepeatDates {
        if case .after = ends { return dates(from: start) }
        return RepeatDates(rule: self, start: start, firstPeriod: max(0, period(containing: day, from: start) - 1))
    }

    /// The index of the period (counted from `start`'s) that `day` falls in, rounded down.
    func period(containing day: Day, from start: Day) -> Int {
        let elapsed = switch unit {
        case .day: day.ordinal - start.ordinal
        case .week: ((day.ordinal + 1 - day.weekday) - (start.ordinal + 1 - start.weekday)) / 7
        case .month: (day.year * 12 + day.month) - (start.year * 12 + start.month)
        case .year: day.year - start.year
        }
        return elapsed < 0 ? 0 : elapsed / every
    }

    /// The start of the to-do that follows one completed or canceled on `day`: `every` units
    /// later, a day the month lacks falling back to its last.
    public func next(afterCompletionOn day: Day) -> Day {
        switch unit {
        case .day: day.adding(days: every)
        case .week: day.adding(days: 7 * every)
        case .month: day.adding(months: every)
        case .year: day.adding(months: 12 * every)
        }
    }

    /// The first day of the rule's `period`-th period (day, week, month or year) counted from
    /// `start`'s, and the dates it names in that period, in order (some may come before
    /// `start`); `nil` past year 9999.
    func period(_ period: Int, from start: Day) -> (first: Day, dates: [Day])? {
        switch unit {
        case .day:
            let ordinal = start.ordinal + period * every
            guard ordinal <= Day.last.ordinal else { return nil }
            let day = start.adding(days: period * every)
            return (day, [day])
        case .week:
            let monday = start.ordinal + 1 - start.weekday + 7 * every * period
            guard monday <= Day.last.ordinal else { return nil }
            let days = weekdays.map { Set($0.map(\.number)).sorted() } ?? [start.weekday]
            let first = start.adding(days: monday - start.ordinal)
            return (first, days.filter { monday + $0 - 1 <= Day.last.ordinal }.map { first.adding(days: $0 - 1) })
        case .month:
            let index = start.year * 12 + start.month - 1 + every * period
            guard index <= 9999 * 12 + 11 else { return nil }
            let first = start.adding(days: 1 - start.day).adding(months: every * period)
            return (first, dates(inMonthOf: first, from: start))
        case .year:
            guard start.year + every * period <= 9999, let first = try? Day(year: start.year + every * period, month: 1, day: 1) else { return nil }
            return (first, Set(months ?? [start.month]).sorted().flatMap { dates(inMonthOf: first.adding(months: $0 - 1), from: start) })
        }
    }

    /// The days the rule names in the month whose first day is `first`, in order.
    private func dates(inMonthOf first: Day, from start: Day) -> [Day] {
        let length = Day.length(ofMonth: first.month, in: first.year)
        if let nthWeekday {
            let firstMatch = 1 + (nthWeekday.weekday.number - first.weekday + 7) % 7
            let matches = Array(stride(from: firstMatch, through: length, by: 7))
            let index = nthWeekday.n == -1 ? matches.count - 1 : nthWeekday.n - 1
            return matches.indices.contains(index) ? [first.adding(days: matches[index] - 1)] : []
        }
        let days = (monthDays ?? [start.day]).map { $0 == -1 ? length : min($0, length) }
        return Set(days).sorted().map { first.adding(days: $0 - 1) }
    }
}

/// The dates of a fixed ``RepeatRule`` from a day on, in order, up to the rule's end.
public struct RepeatDates: Sequence, Sendable {
    let rule: RepeatRule
    let start: Day
    /// The period the dates begin in: 0, or one that ``RepeatRule/dates(from:skippingTo:)`` skipped to.
    let firstPeriod: Int

    public func makeIterator() -> Iterator {
        Iterator(rule: rule, start: start, period: firstPeriod)
    }

    /// Steps through the rule's periods, handing out each period's dates on or after the start.
    public struct Iterator: IteratorProtocol, Sendable {
        let rule: RepeatRule
        let start: Day
        private var period: Int
        /// The current period's dates still to hand out, the next last.
        private var pending: [Day] = []
        private var given = 0

        init(rule: RepeatRule, start: Day, period: Int) {
            self.rule = rule
            self.start = start
            self.period = period
        }

        public mutating func next() -> Day? {
            guard rule.type == .fixed else { return nil }
            if case .after(let count) = rule.ends, given >= count { return nil }
            let end: Day? = if case .on(let day) = rule.ends { day } else { nil }
            while pending.isEmpty {
                guard let (first, dates) = rule.period(period, from: start), end.map({ first <= $0 }) ?? true else { return nil }
                period += 1
                pending = dates.filter { $0 >= start }.reversed()
            }
            let day = pending.removeLast()
            if let end, day > end { return nil }
            given += 1
            return day
        }
    }
}

extension RepeatRule: Codable {
    private enum CodingKeys: String, CodingKey {
        case type, every, unit, weekdays, monthDays, nthWeekday, months, ends, deadlineOffset, reminder
    }

    private enum EndKeys: String, CodingKey {
        case on, after
    }

    /// Reads the rule's JSON, `{"type": "fixed", "every": 1, "unit": "month", "monthDays": [1]}`, and checks it.
    ///
    /// - Throws: `DecodingError` for JSON of another shape, or `ends` with both or neither of
    ///   its members; ``TimeOfDayError`` for a reminder that is not `HH:MM`; ``RepeatRuleError``
    ///   for a rule that names no dates, or fields its kind and unit do not take.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var ends: End?
        if container.contains(.ends) {
            let end = try container.nestedContainer(keyedBy: EndKeys.self, forKey: .ends)
            switch (try end.decodeIfPresent(Day.self, forKey: .on), try end.decodeIfPresent(Int.self, forKey: .after)) {
            case (let day?, nil): ends = .on(day)
            case (nil, let count?): ends = .after(count)
            default:
                throw DecodingError.dataCorruptedError(forKey: .ends, in: container, debugDescription: #"ends is {"on": "YYYY-MM-DD"} or {"after": K}, one of the two."#)
            }
        }
        let reminder = try container.decodeIfPresent(String.self, forKey: .reminder).map { text throws(TimeOfDayError) in try TimeOfDay(parsing: text) }
        try self.init(
            try container.decode(Kind.self, forKey: .type), every: try container.decode(Int.self, forKey: .every), try container.decode(Unit.self, forKey: .unit),
            weekdays: try container.decodeIfPresent([Weekday].self, forKey: .weekdays),
            monthDays: try container.decodeIfPresent([Int].self, forKey: .monthDays),
            nthWeekday: try container.decodeIfPresent(NthWeekday.self, forKey: .nthWeekday),
            months: try container.decodeIfPresent([Int].self, forKey: .months), ends: ends,
            deadlineOffset: try container.decodeIfPresent(Int.self, forKey: .deadlineOffset), reminder: reminder)
    }

    /// Writes the rule's JSON, leaving out the fields it does not set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
        try container.encode(every, forKey: .every)
        try container.encode(unit, forKey: .unit)
        try container.encodeIfPresent(weekdays, forKey: .weekdays)
        try container.encodeIfPresent(monthDays, forKey: .monthDays)
        try container.encodeIfPresent(nthWeekday, forKey: .nthWeekday)
        try container.encodeIfPresent(months, forKey: .months)
        if let ends {
            var end = container.nestedContainer(keyedBy: EndKeys.self, forKey: .ends)
            switch ends {
            case .on(let day): try end.encode(day, forKey: .on)
            case .after(let count): try end.encode(count, forKey: .after)
            }
        }
        try container.encodeIfPresent(deadlineOffset, forKey: .deadlineOffset)
        try container.encodeIfPresent(reminder?.description, forKey: .reminder)
    }
}

/// Why a ``RepeatRule`` names no dates.
public enum RepeatRuleError: Error, Hashable, Sendable {
    /// `every` is below 1 or above 1,000.
    case invalidEvery(Int)
    /// A field the rule's unit does not take: `weekdays` on a daily rule.
    case fieldNotForUnit(String, RepeatRule.Unit)
    /// A field an `afterCompletion` rule does not take, as it counts from each completion.
    case fieldNotAfterCompletion(String)
    /// A list of days or months that is empty.
    case emptyField(String)
    /// A field names a value twice.
    case repeatedValue(String)
    /// A day of the month other than 1 to 31 or -1.
    case invalidMonthDay(Int)
    /// A month other than 1 to 12.
    case invalidMonth(Int)
    /// An n-th weekday other than 1 to 5 or -1.
    case invalidNth(Int)
    /// Both days of the month and an n-th weekday.
    case monthDaysAndNthWeekday
    /// `ends.after` below 1.
    case invalidEndCount(Int)
    /// A deadline offset below 0 or above 3,650 days.
    case invalidDeadlineOffset(Int)
}

extension RepeatRuleError: CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, in English, as the command line and logs say it; a person sees
    /// ``errorDescription``.
    public var description: String { debugDescription }

    /// What went wrong, in English, as the command line and logs say it.
    public var debugDescription: String {
        switch self {
        case .invalidEvery(let every): "A rule repeats every 1 to 1,000 units, not \(every)."
        case .fieldNotForUnit(let field, let unit): "A rule that repeats by \(unit.rawValue) takes no \(field)."
        case .fieldNotAfterCompletion(let field): "A rule that repeats after completion counts from each completion, and takes no \(field)."
        case .emptyField(let field): "\(field) is empty; leave it out, or name at least one."
        case .repeatedValue(let field): "\(field) names a value twice; name each once."
        case .invalidMonthDay(let day): "\(day) is not a day of the month; give 1 to 31, or -1 for the last day."
        case .invalidMonth(let month): "\(month) is not a month; give 1 to 12."
        case .invalidNth(let n): "\(n) is not a week of the month; give 1 to 5, or -1 for the last."
        case .monthDaysAndNthWeekday: "A rule takes days of the month or an n-th weekday, not both."
        case .invalidEndCount(let count): "A rule ends after 1 date or more, not \(count)."
        case .invalidDeadlineOffset(let days): "A deadline comes 0 to 3,650 days after the start, not \(days)."
        }
    }
}

extension RepeatRuleError: LocalizedError {
    /// What went wrong, in the app's language, in a sentence a person can act on.
    public var errorDescription: String? {
        let table = MessageTable.model
        return switch self {
        case .invalidEvery(let every): table.message("RepeatRuleError.invalidEvery", ["every": String(every)])
        case .fieldNotForUnit(let field, let unit): table.message("RepeatRuleError.fieldNotForUnit.\(unit.rawValue)", ["field": field])
        case .fieldNotAfterCompletion(let field): table.message("RepeatRuleError.fieldNotAfterCompletion", ["field": field])
        case .emptyField(let field): table.message("RepeatRuleError.emptyField", ["field": field])
        case .repeatedValue(let field): table.message("RepeatRuleError.repeatedValue", ["field": field])
        case .invalidMonthDay(let day): table.message("RepeatRuleError.invalidMonthDay", ["day": String(day)])
        case .invalidMonth(let month): table.message("RepeatRuleError.invalidMonth", ["month": String(month)])
        case .invalidNth(let n): table.message("RepeatRuleError.invalidNth", ["n": String(n)])
        case .monthDaysAndNthWeekday: table.message("RepeatRuleError.monthDaysAndNthWeekday")
        case .invalidEndCount(let count): table.message("RepeatRuleError.invalidEndCount", ["count": String(count)])
        case .invalidDeadlineOffset(let days): table.message("RepeatRuleError.invalidDeadlineOffset", ["days": String(days)])
        }
    }
}
