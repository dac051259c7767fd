public import Foundation

/// A when written in words, as a person types it, read relative to the day it is typed on:
/// `tomorrow`, `next friday`, `in 3 weeks`, `dec 24`, `tonight @8pm`.
///
/// ```swift
/// let friday = try Day(parsing: "2026-11-27")
/// try WhenPhrase(parsing: "next week", on: friday).when         // .on(2026-11-30)
/// try WhenPhrase(parsing: "tomorrow @9:30", on: friday).time    // 09:30
/// try WhenPhrase.deadline(parsing: "dec 24", on: friday)        // 2026-12-24
/// ```
///
/// The phrases, in any case and with any spaces between words:
/// - `today`; `tonight`, `this evening` or `evening`: today, in its evening; `tomorrow`;
/// - `this weekend`: the coming Saturday, or the day itself on a Saturday or a Sunday;
/// - `next week`: the coming Monday, the Monday after on a Monday;
/// - a weekday (`friday`, `fri`), alone or after `next`: the next such day, the day itself excluded;
/// - `in N days`, `in N weeks`, `in N months`: a day the month lacks becomes its last;
/// - a date without a year (`dec 24`, `24 dec`, `december 24`): the next such day, next
///   year's on the day itself;
/// - a day written `YYYY-MM-DD`, `someday`, `anytime`.
///
/// A phrase that names a day may end with a time, which sets a reminder: `@9`, `@9:30`,
/// `@9pm`, `at 9am`, `at 18:30`.
public struct WhenPhrase: Hashable, Sendable {
    /// When the phrase says.
    public var when: When
    /// The time it ends with; `nil` for none.
    public var time: TimeOfDay?

    /// A phrase's meaning: `when`, at `time`.
    public init(when: When, time: TimeOfDay? = nil) {
        self.when = when
        self.time = time
    }

    /// Reads `text` as typed on `day`.
    ///
    /// - Parameters:
    ///   - text: The phrase.
    ///   - day: The day the phrase is relative to: today, where the person is.
    /// - Throws: ``WhenPhraseError/invalidWhen(_:)`` for text that is none of the phrases, and
    ///   for a time after `someday` or `anytime`.
    public init(parsing text: String, on day: Day) throws(WhenPhraseError) {
        let words = text.lowercased().replacingOccurrences(of: "@", with: " @ ").split(whereSeparator: \.isWhitespace).map(String.init)
        var dateWords = words[...]
        if let marker = words.lastIndex(where: { $0 == "@" || $0 == "at" }) {
            dateWords = words[..<marker]
            guard let time = Self.time(Array(words[(marker + 1)...])) else { throw .invalidWhen(text) }
            self.time = time
        }
        guard let when = Self.when(Array(dateWords), on: day), time == nil || when.startDate != nil else { throw .invalidWhen(text) }
        self.when = when
    }

    /// Reads `text`, typed on `day`, as a deadline: a phrase that names a day, without a time;
    /// `tonight` is today.
    ///
    /// - Parameters:
    ///   - text: The phrase.
    ///   - day: The day the phrase is relative to: today, where the person is.
    /// - Returns: The day it names.
    /// - Throws: ``WhenPhraseError/notADeadline(_:)`` for text that is none of the phrases,
    ///   `someday`, `anytime`, or a phrase with a time.
    public static func deadline(parsing text: String, on day: Day) throws(WhenPhraseError) -> Day {
        guard let phrase = try? WhenPhrase(parsing: text, on: day), phrase.time == nil, let deadline = phrase.when.startDate else {
            throw .notADeadline(text)
        }
        return deadline
    }

    /// The when that `words` (lowercased) name on `day`, or `nil` for none.
    private static func when(_ words: [String], on day: Day) -> When? {
        switch words.joined(separator: " ") {
        case "today": return .on(day)
        case "tonight", "evening", "this evening": return .on(day, evening: true)
        case "tomorrow": return .on(day.adding(days: 1))
        case "this weekend": return .on(day.weekday >= 6 ? day : day.adding(days: 6 - day.weekday))
        case "next week": return .on(day.adding(days: 8 - day.weekday))
        case "someday": return .someday
        case "anytime": return .anytime
        default: break
        }
        if let target = words.last.flatMap({ weekdays[$0] }), words.count == 1 || words.count == 2 && words[0] == "next" {
            let ahead = (target - day.weekday + 7) % 7
            return .on(day.adding(days: ahead == 0 ? 7 : ahead))
        }
        switch words.count {
        case 1:
            return (try? Day(parsing: words[0])).map { .on($0) }
        case 2:
            guard let (month, dayOfMonth) = monthAndDay(words[0], words[1]) ?? monthAndDay(words[1], words[0]) else { return nil }
            return next(month: month, day: dayOfMonth, after: day).map { .on($0) }
        case 3 where words[0] == "in":
            guard words[1].allSatisfy(\.isASCIIDigit), let count = Int(words[1]), count <= 9999 else { return nil }
            switch words[2] {
            case "day", "days": return .on(day.adding(days: count))
            case "week", "weeks": return .on(day.adding(days: 7 * count))
            case "month", "months": return .on(day.adding(months: count))
            default: return nil
            }
        default:
            return nil
        }
    }

    /// The month that `month` names and the day of the month `day` writes (`24`, `24th`),
    /// or `nil` unless both are.
    private static func monthAndDay(_ month: String, _ day: String) -> (month: Int, day: Int)? {
        let digits = day.prefix(while: \.isASCIIDigit)
        guard let month = months[month], (1...2).contains(digits.count), let number = Int(digits),
              ["", "st", "nd", "rd", "th"].contains(day.dropFirst(digits.count))
        else { return nil }
        return (month, number)
    }

    /// The first day after `day` that falls on `month` and `dayOfMonth`: this year's, or a
    /// later year's (the next leap year's, for February 29); `nil` when the month has no such day.
    private static func next(month: Int, day dayOfMonth: Int, after day: Day) -> Day? {
        guard dayOfMonth >= 1, dayOfMonth <= Day.length(ofMonth: month, in: 2000) else { return nil }
        return (day.year...min(day.year + 8, 9999)).lazy.compactMap { try? Day(year: $0, month: month, day: dayOfMonth) }.first { $0 > day }
    }

    /// The time a phrase ends with, in its words: `9`, `9:30`, `18:30`, `9am`, `9:30pm`, or
    /// `9 am`; `nil` for anything else.
    private static func time(_ words: [String]) -> TimeOfDay? {
        let text: String
        switch words.count {
        case 1: text = words[0]
        case 2 where ["am", "pm"].contains(words[1]): text = words[0] + words[1]
        default: return nil
        }
        let meridiem = ["am", "pm"].first { text.hasSuffix($0) }
        let clock = meridiem.map { String(text.dropLast($0.count)) } ?? text
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), (1...2).contains(parts[0].count), parts.count == 1 || parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }), var hour = Int(parts[0])
        else { return nil }
        let minute = parts.count == 2 ? Int(parts[1]) ?? 60 : 0
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            hour = hour % 12 + (meridiem == "pm" ? 12 : 0)
        }
        return try? TimeOfDay(hour: hour, minute: minute)
    }

    /// The weekdays' names and short names, ISO 8601's numbers.
    private static let weekdays: [String: Int] = [
        "monday": 1, "mon": 1, "tuesday": 2, "tue": 2, "tues": 2, "wednesday": 3, "wed": 3, "thursday": 4, "thu": 4, "thur": 4, "thurs": 4,
        "friday": 5, "fri": 5, "saturday": 6, "sat": 6, "sunday": 7, "sun": 7,
    ]

    /// The months' names and short names, their numbers.
    private static let months: [String: Int] = [
        "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4, "apr": 4, "may": 5, "june": 6, "jun": 6,
        "july": 7, "jul": 7, "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11, "nov": 11,
        "december": 12, "dec": 12,
    ]
}

/// Why text is not a ``WhenPhrase``.
public enum WhenPhraseError: Error, Hashable, Sendable {
    /// The text is none of the phrases, or puts a time after `someday` or `anytime`.
    case invalidWhen(String)
    /// The text names no day (`someday`, `anytime`, or none of the phrases), or ends with a time: no deadline.
    case notADeadline(String)
}

extension WhenPhraseError: CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, in English, as the command line and logs say it; a person sees
    /// ``errorDescription``.
    public var description: String { debugDescription }

    /// What went wrong, in English, as the command line and logs say it.
    public var debugDescription: String {
        switch self {
        case .invalidWhen(let text):
            "'\(text)' is not a when; write a day as YYYY-MM-DD, or today, tonight, tomorrow, this weekend, next week, a weekday (friday, next friday), "
                + "in N days, weeks or months, a date (dec 24), someday or anytime; a day may end with a time (@9, at 18:30)."
        case .notADeadline(let text):
            "'\(text)' is not a deadline; a deadline is a day: YYYY-MM-DD, today, tonight, tomorrow, this weekend, next week, a weekday, "
                + "in N days, weeks or months, or a date (dec 24), without a time."
        }
    }
}

extension WhenPhraseError: LocalizedError {
    /// What went wrong, in the app's language, in a sentence a person can act on.
    public var errorDescription: String? {
        switch self {
        case .invalidWhen(let text): MessageTable.model.message("WhenPhraseError.invalidWhen", ["text": text])
        case .notADeadline(let text): MessageTable.model.message("WhenPhraseError.notADeadline", ["text": text])
        }
    }
}
