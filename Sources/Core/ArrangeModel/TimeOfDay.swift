public import Foundation

/// A time on the wall clock, to the minute, in no time zone: when an item's reminder fires on
/// its day, wherever the device is.
///
/// ```swift
/// let time = try TimeOfDay(parsing: "09:30")
/// time.description                      // "09:30"
/// try TimeOfDay(hour: 18, minute: 5)    // 18:05
/// ```
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The hour, 0 to 23.
    public let hour: Int
    /// The minute, 0 to 59.
    public let minute: Int

    /// The time at `hour`:`minute`.
    ///
    /// - Throws: ``TimeOfDayError/notATime(_:)`` unless the hour is 0 to 23 and the minute 0 to 59.
    public init(hour: Int, minute: Int) throws(TimeOfDayError) {
        guard (0...23).contains(hour), (0...59).contains(minute) else { throw .notATime("\(hour):\(minute)") }
        self.hour = hour
        self.minute = minute
    }

    /// Reads a time written `HH:MM` on the 24-hour clock, such as `09:30` or `18:05`; the hour
    /// may have one digit (`9:30`).
    ///
    /// - Throws: ``TimeOfDayError/notATime(_:)`` for any other text, or a time past 23:59.
    public init(parsing text: String) throws(TimeOfDayError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }), let hour = Int(parts[0]), let minute = Int(parts[1]),
              let time = try? TimeOfDay(hour: hour, minute: minute)
        else { throw .notATime(text) }
        self = time
    }

    /// The time as `HH:MM`.
    public var description: String {
        (hour < 10 ? "0" : "") + String(hour) + (minute < 10 ? ":0" : ":") + String(minute)
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        (lhs.hour, lhs.minute) < (rhs.hour, rhs.minute)
    }

    /// The instant the clocks of `timeZone` show this time on `day`: when a reminder set for
    /// it fires there.
    ///
    /// `09:00` stays 09:00 on the wall across a change of daylight-saving time. A time the spring
    /// change skips (02:30 where clocks go from 02:00 to 03:00) falls at the first instant after
    /// the gap, the change itself; a time the autumn change shows twice falls at its first.
    ///
    /// - Parameters:
    ///   - day: The day, on the wall of `timeZone`.
    ///   - timeZone: Where the clocks are.
    /// - Complexity: A few lookups of the time zone's offset; a skipped time, a dozen more.
    public func instant(on day: Day, in timeZone: TimeZone) -> Date {
        // The wall time as if it were UTC; each offset the zone has near it names one instant.
        let wall = day.ordinal * 86_400 + hour * 3_600 + minute * 60
        let offset = { (instant: Int) in timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))) }
        let offsets = Set([-86_400, 0, 86_400].map { offset(wall + $0) })
        if let first = offsets.map({ wall - $0 }).filter({ $0 + offset($0) == wall }).min() {
            return Date(timeIntervalSince1970: Double(first))
        }
        // Skipped: the change lies between the instants the offsets before and after it name.
        var (low, high) = (wall - (offsets.max() ?? 0), wall - (offsets.min() ?? 0))
        let after = offset(high)
        while low < high {
            let middle = low + (high - low) / 2
            if offset(middle) == after { high = middle } else { low = middle + 1 }
        }
        return Date(timeIntervalSince1970: Double(low))
    }
}

extension TimeOfDay: Codable {
    /// Reads a time written `HH:MM`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.debugDescription)
        }
    }

    /// Writes the time as `HH:MM`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension Character {
    /// Whether the character is one of the ASCII digits 0 to 9, alone: no accent or keycap on it.
    var isASCIIDigit: Bool { asciiValue.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false }
}

/// Why text or numbers are not a ``TimeOfDay``.
public enum TimeOfDayError: Error, Hashable, Sendable {
    /// The text is not a time written `HH:MM`, or names a time past 23:59.
    case notATime(String)
}

extension TimeOfDayError: CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, in English, as the command line and logs say it; a person sees
    /// ``errorDescription``.
    public var description: String { debugDescription }

    /// What went wrong, in English, as the command line and logs say it.
    public var debugDescription: String {
        switch self {
        case .notATime(let text): "'\(text)' is not a time; write a time as HH:MM on the 24-hour clock, such as 09:30."
        }
    }
}

extension TimeOfDayError: LocalizedError {
    /// What went wrong, in the app's language, in a sentence a person can act on.
    public var errorDescription: String? {
        switch self {
        case .notATime(let text): MessageTable.model.message("TimeOfDayError.notATime", ["text": text])
        }
    }
}
