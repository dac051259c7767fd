public import Foundation

/// A calendar day of the Gregorian calendar, with no time and no time zone: an item's start date
/// or its deadline.
///
/// A day is the same on every device: 2026-11-28 is 2026-11-28 in Tokyo and in Lisbon. Which day
/// it is *now* depends on where the device is (``init(_:in:)``).
///
/// ```swift
/// let day = try Day(parsing: "2026-11-28")
/// day.description            // "2026-11-28"
/// day.adding(days: 3)        // 2026-12-01
/// Day(.now, in: .current)    // today, where the device is
/// ```
public struct Day: Hashable, Comparable, Sendable, CustomStringConvertible {
    // Four bytes in all: an item holds two days, and a store of a million items holds them all.
    private let storedYear: UInt16
    private let storedMonth: UInt8
    private let storedDay: UInt8

    /// The year, 1 to 9999.
    public var year: Int { Int(storedYear) }
    /// The month, 1 to 12.
    public var month: Int { Int(storedMonth) }
    /// The day of the month, 1 to 28, 29, 30 or 31.
    public var day: Int { Int(storedDay) }

    /// The day with these numbers.
    ///
    /// - Throws: ``DayError/notADay(_:)`` unless the numbers name a day of years 1 to 9999.
    public init(year: Int, month: Int, day: Int) throws(DayError) {
        guard (1...9999).contains(year), (1...12).contains(month), (1...Self.length(ofMonth: month, in: year)).contains(day) else {
            throw .notADay(Self.text(year: year, month: month, day: day))
        }
        self.init(uncheckedYear: year, month: month, day: day)
    }

    /// Reads a day written as `YYYY-MM-DD`, such as `2026-11-28`.
    ///
    /// - Throws: ``DayError/notADay(_:)`` for any other text, or a day that does not exist
    ///   (`2026-02-30`).
    public init(parsing text: String) throws(DayError) {
        var bytes = text
        guard let day = bytes.withUTF8({ Day(utf8: UnsafeRawBufferPointer($0)) }) else { throw .notADay(text) }
        self = day
    }

    /// Reads a day written as `YYYY-MM-DD` from its UTF-8 bytes, as a database hands them
    /// over, without making a `String` first.
    ///
    /// - Returns: `nil` for any other text, or a day that does not exist.
    public init?(utf8 bytes: UnsafeRawBufferPointer) {
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ offsets: Range<Int>) -> Int? {
            var value = 0
            for offset in offsets {
                let digit = bytes[offset] &- UInt8(ascii: "0")
                guard digit <= 9 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let parsed = try? Day(year: year, month: month, day: day)
        else { return nil }
        self = parsed
    }

    /// The day that `date` falls on in `timeZone`: today, for the current moment and the
    /// device's time zone.
    public init(_ date: Date, in timeZone: TimeZone) {
        let seconds = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        // Clamped first: a date far past years 1 to 9999, or not finite, would not fit an Int.
        let days = (seconds / 86_400).rounded(.down)
        self.init(ordinal: days.isNaN ? 0 : Int(min(max(days, -4_000_000), 4_000_000)))
    }

    /// The day `ordinal` days after 1970-01-01, clamped to years 1 to 9999.
    ///
    /// The conversion is Howard Hinnant's `civil_from_days`.
    private init(ordinal: Int) {
        let clamped = min(max(ordinal, Self.first.ordinal), Self.last.ordinal)
        let shifted = clamped + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        self.init(uncheckedYear: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
    }

    /// The number of days from 1970-01-01 to this day; negative before it.
    ///
    /// The conversion is Howard Hinnant's `days_from_civil`.
    public var ordinal: Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day `days` days later (earlier when negative), kept within years 1 to 9999.
    public func adding(days: Int) -> Day {
        let (sum, overflow) = ordinal.addingReportingOverflow(days)
        return Day(ordinal: overflow ? (days < 0 ? .min : .max) : sum)
    }

    /// The same day of the month `months` months later (earlier when negative); a day the month
    /// lacks becomes its last day, as calendars do: 2027-01-31 plus one month is 2027-02-28.
    /// Kept within years 1 to 9999.
    public func adding(months: Int) -> Day {
        let (shifted, overflow) = (year * 12 + month - 1).addingReportingOverflow(months)
        guard !overflow, (12...(9999 * 12 + 11)).contains(shifted) else { return months < 0 ? Self.first : Self.last }
        let (newYear, newMonth) = (shifted / 12, shifted % 12 + 1)
        return Day(uncheckedYear: newYear, month: newMonth, day: min(day, Self.length(ofMonth: newMonth, in: newYear)))
    }

    /// The day of the week, numbered as ISO 8601 numbers them: 1 for Monday to 7 for Sunday.
    public var weekday: Int {
        // 1970-01-01 was a Thursday, the 4th day.
        ((ordinal + 3) % 7 + 7) % 7 + 1
    }

    /// The day as `YYYY-MM-DD`.
    public var description: String { Self.text(year: year, month: month, day: day) }

    public static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// The first day a ``Day`` can be: 0001-01-01.
    static let first = Day(uncheckedYear: 1, month: 1, day: 1)
    /// The last day a ``Day`` can be: 9999-12-31.
    static let last = Day(uncheckedYear: 9999, month: 12, day: 31)

    /// The day with numbers known to name one of years 1 to 9999.
    private init(uncheckedYear year: Int, month: Int, day: Int) {
        storedYear = UInt16(year)
        storedMonth = UInt8(month)
        storedDay = UInt8(day)
    }

    /// The number of days of `month` (1 to 12) in `year`.
    public static func length(ofMonth month: Int, in year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// `YYYY-MM-DD`, each number padded with zeros.
    private static func text(year: Int, month: Int, day: Int) -> String {
        func padded(_ number: Int, to width: Int) -> String {
            let digits = String(number)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(year, to: 4))-\(padded(month, to: 2))-\(padded(day, to: 2))"
    }
}

extension Day: Codable {
    /// Reads a day written as `YYYY-MM-DD`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.debugDescription)
        }
    }

    /// Writes the day as `YYYY-MM-DD`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// When an item is meant to be done, as Things has it: anytime, someday, or from a start date,
/// perhaps in the evening of that day.
///
/// ```swift
/// item.when = .on(try Day(parsing: "2026-12-01"))
/// item.when = .on(today, evening: true)   // This Evening
/// item.when = .someday
/// ```
public enum When: Hashable, Sendable {
    /// No date: the item can be done at any time. The default.
    case anytime
    /// Put off, with no date.
    case someday
    /// From a start date on; `evening` puts it in the evening of that day (This Evening), which
    /// holds on that day only.
    case on(Day, evening: Bool = false)

    /// The when that stored fields tell, as Things and Arrange's tables keep it: from
    /// `startDate` (in its evening when `evening`) when there is one, else someday when
    /// `someday`, else anytime. `evening` without a start date, and `someday` with one, count
    /// for nothing.
    public init(startDate: Day?, someday: Bool, evening: Bool) {
        if let startDate { self = .on(startDate, evening: evening) } else { self = someday ? .someday : .anytime }
    }

    /// The start date, or `nil` for anytime and someday.
    public var startDate: Day? {
        if case .on(let day, _) = self { day } else { nil }
    }

    /// Whether the item is put off to someday.
    public var isSomeday: Bool { self == .someday }

    /// Whether the item is in the evening of its start date.
    public var isEvening: Bool {
        if case .on(_, let evening) = self { evening } else { false }
    }
}

extension When: Codable {
    private enum CodingKeys: String, CodingKey {
        case startDate, someday, evening
    }

    /// Reads the form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            startDate: try container.decodeIfPresent(Day.self, forKey: .startDate),
            someday: try container.decodeIfPresent(Bool.self, forKey: .someday) ?? false,
            evening: try container.decodeIfPresent(Bool.self, forKey: .evening) ?? false)
    }

    /// Writes `{"startDate": "2026-11-28", "evening": true}`, `{"someday": true}`, or `{}` for anytime.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .anytime: break
        case .someday: try container.encode(true, forKey: .someday)
        case .on(let day, let evening):
            try container.encode(day, forKey: .startDate)
            if evening { try container.encode(true, forKey: .evening) }
        }
    }
}

/// Why text or numbers are not a ``Day``.
public enum DayError: Error, Hashable, Sendable {
    /// The text is not a day written as `YYYY-MM-DD`, or names a day that does not exist.
    case notADay(String)
}

extension DayError: CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, in English, as the command line and logs say it; a person sees
    /// ``errorDescription``.
    public var description: String { debugDescription }

    /// What went wrong, in English, as the command line and logs say it.
    public var debugDescription: String {
        switch self {
        case .notADay(let text): "'\(text)' is not a day; write a day as YYYY-MM-DD, such as 2026-11-28."
        }
    }
}

extension DayError: LocalizedError {
    /// What went wrong, in the app's language, in a sentence a person can act on.
    public var errorDescription: String? {
        switch self {
        case .notADay(let text): MessageTable.model.message("DayError.notADay", ["text": text])
        }
    }
}
