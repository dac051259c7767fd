import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation

/// The JSON of an ``ItemListing``, written by hand: the bytes `JSONLine` would write through
/// `JSONEncoder` (keys sorted, slashes unescaped, dates in ISO 8601), without its generic
/// machinery, which took a third of `arrange list --json` over 1,000 items. A test holds the
/// two to each other, byte for byte.
struct ListingJSON {
    /// The UTF-8 bytes written so far.
    private var bytes: [UInt8] = []
    /// The last date written, in whole seconds since 1970, and its JSON, rewritten in place for
    /// each new date (no date is at `Int64.min`, the seconds before the first).
    private var lastDate: (seconds: Int64, json: [UInt8]) = (.min, Array(#""0000-00-00T00:00:00Z""#.utf8))

    /// The listing as one line of JSON.
    ///
    /// - Parameter lineBreak: Whether a line break ends the JSON.
    static func encode(_ listing: ItemListing, lineBreak: Bool) -> String {
        var json = ListingJSON()
        // About 330 bytes an item, with short titles and no notes.
        json.bytes.reserveCapacity(256 + 384 * listing.items.count)
        json.write(listing)
        if lineBreak { json.bytes.append(UInt8(ascii: "\n")) }
        return String(decoding: json.bytes, as: UTF8.self)
    }

    private mutating func write(_ listing: ItemListing) {
        append(#"{"items":["#)
        for (index, item) in listing.items.enumerated() {
            if index > 0 { append(",") }
            write(item)
        }
        append(#"],"list":"#)
        write(listing.list)
        append("}")
    }

    private mutating func write(_ list: ListSummary) {
        append(#"{"createdAt":"#)
        date(list.createdAt)
        append(#","id":"#)
        id(list.id)
        append(#","name":"#)
        string(list.name)
        append(#","openItems":"#)
        number(Int64(list.openItems))
        append(#","sortIndex":"#)
        number(list.sortIndex)
        append(#","totalItems":"#)
        number(Int64(list.totalItems))
        append("}")
    }

    /// An item's members in the order `.sortedKeys` gives them; the optional ones only when
    /// present, as the synthesized `encodeIfPresent` writes them.
    private mutating func write(_ item: ItemSummary) {
        append(item.completed ? #"{"completed":true"# : #"{"completed":false"#)
        if let completedAt = item.completedAt {
            append(#","completedAt":"#)
            date(completedAt)
        }
        append(#","createdAt":"#)
        date(item.createdAt)
        append(#","id":"#)
        id(item.id)
        append(#","list":"#)
        id(item.list)
        append(#","listName":"#)
        string(item.listName)
        append(#","notes":"#)
        string(item.notes)
        if let position = item.position {
            append(#","position":"#)
            number(Int64(position))
        }
        append(#","sortIndex":"#)
        number(item.sortIndex)
        append(#","title":"#)
        string(item.title)
        append(item.today ? #","today":true"# : #","today":false"#)
        if let todayIndex = item.todayIndex {
            append(#","todayIndex":"#)
            number(todayIndex)
        }
        append(#","updatedAt":"#)
        date(item.updatedAt)
        append("}")
    }

    /// A string as `JSONEncoder` escapes it: `"` and `\`, the control characters (`\b`, `\f`,
    /// `\n`, `\r`, `\t` by name, the others as `\u00XX`), and nothing else.
    private mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        if value.utf8.allSatisfy({ !Self.needsEscape($0) }) {
            bytes.append(contentsOf: value.utf8)
        } else {
            for byte in value.utf8 {
                switch byte {
                case UInt8(ascii: "\""): append(#"\""#)
                case UInt8(ascii: "\\"): append(#"\\"#)
                case 0x08: append(#"\b"#)
                case 0x0C: append(#"\f"#)
                case UInt8(ascii: "\n"): append(#"\n"#)
                case UInt8(ascii: "\r"): append(#"\r"#)
                case UInt8(ascii: "\t"): append(#"\t"#)
                case 0..<0x20:
                    append(#"\u00"#)
                    bytes.append(Self.hexDigit(byte >> 4))
                    bytes.append(Self.hexDigit(byte & 0x0F))
                default: bytes.append(byte)
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Whether a byte of a string's UTF-8 is written escaped.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private mutating func id<Subject>(_ value: Identifier<Subject>) {
        bytes.append(UInt8(ascii: "\""))
        value.rawValue.appendLowercasedUTF8(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    /// A number in decimal, without making a `String` of it.
    private mutating func number(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.endIndex
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// A date as `JSONEncoder.DateEncodingStrategy.iso8601` writes it, `2026-11-26T09:30:00Z`:
    /// UTC, whole seconds rounded down. Years outside 1583 to 9999 go through Foundation's own
    /// formatter: it counts days before the Gregorian reform of October 1582 in the Julian
    /// calendar, and writes years beyond 9999 in a form of its own.
    private mutating func date(_ value: Date) {
        let seconds = value.timeIntervalSince1970.rounded(.down)
        // 1583-01-01T00:00:00Z and the first second of the year 10000.
        guard seconds >= -12_212_553_600, seconds < 253_402_300_800 else {
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: value.formatted(.iso8601).utf8)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        let whole = Int64(seconds)
        // Items made together share their dates: an item's creation and its last change, and
        // the items of one import or one script.
        if lastDate.seconds != whole {
            // Days rounded down, so that the second of the day is never negative.
            let days = (whole >= 0 ? whole : whole - 86_399) / 86_400
            let second = whole - days * 86_400
            let (year, month, day) = Self.civilDate(daysSince1970: days)
            Self.write(year, digits: 4, into: &lastDate.json, at: 1)
            Self.write(month, digits: 2, into: &lastDate.json, at: 6)
            Self.write(day, digits: 2, into: &lastDate.json, at: 9)
            Self.write(second / 3600, digits: 2, into: &lastDate.json, at: 12)
            Self.write(second / 60 % 60, digits: 2, into: &lastDate.json, at: 15)
            Self.write(second % 60, digits: 2, into: &lastDate.json, at: 18)
            lastDate.seconds = whole
        }
        bytes.append(contentsOf: lastDate.json)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    private static func civilDate(daysSince1970 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Writes a non-negative number in `digits` digits from `start` on, zeros in front.
    private static func write(_ value: Int64, digits: Int, into json: inout [UInt8], at start: Int) {
        var rest = value
        for index in (start..<start + digits).reversed() {
            json[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }

    private mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
