public import ArrangeModel
public import Foundation

/// A repeating to-do's rule as Things keeps it on the template, in `rt1_recurrenceRule`: an
/// XML property list of short keys.
///
/// - `fu`: the unit (16 day, 256 week, 8 month, 4 year), `fa`: every how many;
/// - `tp`: 0 on fixed dates, 1 after completion;
/// - `of`: which days, an array of dicts: `wd` a weekday (1 Sunday … 7 Saturday, as Apple's
///   calendars number them), with `wo` its n-th in the month (-1 the last); `dy` a day of the
///   month (-1 or 0 the last); `mo` a month;
/// - `ed`: the end, seconds since 1970 (year 4001 for never); `rc`: how many, 0 for no limit;
/// - `ts`: days from each to-do's start to its deadline;
/// - `ia`: the anchor, seconds since 1970: the first to-do's start.
public enum ThingsRecurrence {
    /// The rule a template's property list holds, and the day it starts from, when it holds one
    /// Arrange can follow; `nil` for bytes that are no such property list, or a rule that names
    /// no dates.
    ///
    /// - Parameters:
    ///   - data: The bytes of `rt1_recurrenceRule`.
    ///   - timeZone: Where the days of `ed` and `ia` are read.
    public static func rule(from data: Data, in timeZone: TimeZone = .current) -> (rule: RepeatRule, start: Day?)? {
        guard let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else { return nil }
        func number(_ key: String, in dictionary: [String: Any] = plist) -> Int? {
            (dictionary[key] as? NSNumber)?.intValue ?? (dictionary[key] as? Int)
        }
        let units: [Int: RepeatRule.Unit] = [16: .day, 256: .week, 8: .month, 4: .year]
        guard let unit = number("fu").flatMap({ units[$0] }), let every = number("fa") else { return nil }
        let type: RepeatRule.Kind = number("tp") == 1 ? .afterCompletion : .fixed
        let offsets = (plist["of"] as? [[String: Any]]) ?? []
        // Each value once, in the order first given: a rule names a day once.
        func once<Value: Hashable>(_ values: [Value]) -> [Value] {
            var seen = Set<Value>()
            return values.filter { seen.insert($0).inserted }
        }
        let weekdays = once(offsets.compactMap { number("wd", in: $0) })
        let ordinal = offsets.compactMap { number("wo", in: $0) }.first
        let monthDays = once(offsets.compactMap { number("dy", in: $0) }.map { $0 <= 0 ? -1 : $0 })
        let months = once(offsets.compactMap { number("mo", in: $0) })
        let day = { (seconds: Int) -> Day? in seconds <= 0 ? nil : Day(Date(timeIntervalSince1970: TimeInterval(seconds)), in: timeZone) }
        var ends: RepeatRule.End?
        if let count = number("rc"), count > 0 { ends = .after(count) }
        if ends == nil, let end = number("ed").flatMap(day), end.year < 4000 { ends = .on(end) }
        let weekday = { (number: Int) -> RepeatRule.Weekday? in
            (1...7).contains(number) ? RepeatRule.Weekday.allCases[(number + 5) % 7] : nil
        }
        var nth: RepeatRule.NthWeekday?
        var byWeekday: [RepeatRule.Weekday]?
        if type == .fixed, !weekdays.isEmpty {
            if let ordinal, unit == .month || unit == .year, let first = weekday(weekdays[0]) {
                nth = RepeatRule.NthWeekday(ordinal, first)
            } else if unit == .week {
                byWeekday = weekdays.compactMap(weekday)
            }
        }
        let deadline = number("ts").flatMap { $0 > 0 ? $0 : nil }
        guard let rule = try? RepeatRule(
            type, every: every, unit, weekdays: byWeekday, monthDays: type == .fixed && nth == nil && (unit == .month || unit == .year) && !monthDays.isEmpty ? monthDays : nil,
            nthWeekday: nth, months: type == .fixed && unit == .year && !months.isEmpty ? months : nil, ends: ends, deadlineOffset: deadline)
        else { return nil }
        return (rule, number("ia").flatMap(day))
    }
}
