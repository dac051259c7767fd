import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation

/// The JSON of an ``ItemListing``, written by hand: the bytes `JSONLine` would write through
/// `JSONEncoder` (keys sorted, slashes unescaped, dates in ISO 8601), without its generic
/// machinery, which took a third of `arrange list --json` over 1,000 items. A test holds the
/// two to each other, byte for byte.
///
/// The bytes go into a buffer of its own, each write after one test that it has room: an
/// array's `append` costs more than the byte it writes.
struct ListingJSON: ~Copyable {
    /// The bytes written and not yet handed on: `count` of them from `start`, in room for `capacity`.
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private var count = 0
    /// Where the bytes go each time the buffer is full, if anywhere before the end.
    private let output: ((UnsafeRawBufferPointer) -> Void)?
    /// The last date written, in whole seconds since 1970, and its JSON, rewritten in place for
    /// each new date (no date is at `Int64.min`, the seconds before the first).
    private var lastDate: (seconds: Int64, json: [UInt8]) = (.min, Array(#""0000-00-00T00:00:00Z""#.utf8))

    private init(capacity: Int, output: ((UnsafeRawBufferPointer) -> Void)?) {
        self.capacity = max(capacity, 1)
        self.start = .allocate(capacity: self.capacity)
        self.output = output
    }

    deinit {
        start.deallocate()
    }

    /// The listing as one line of JSON.
    ///
    /// - Parameter lineBreak: Whether a line break ends the JSON.
    static func encode(_ listing: ItemListing, lineBreak: Bool) -> String {
        // About 330 bytes an item, with short titles and no notes.
        var json = ListingJSON(capacity: 256 + 384 * listing.items.count, output: nil)
        json.write(listing)
        if lineBreak { json.append("\n") }
        return String(decoding: UnsafeBufferPointer(start: json.start, count: json.count), as: UTF8.self)
    }

    /// Writes the listing and a line break to `output`, a buffer of `chunkSize` bytes at a time:
    /// the bytes ``encode(_:lineBreak:)`` makes, without holding all of them.
    ///
    /// A long listing goes out through one small buffer, where the whole of it would touch
    /// fresh memory, a page fault each 4 KiB.
    static func writeLine(_ listing: ItemListing, chunkSize: Int = 64 * 1024, to output: @escaping (UnsafeRawBufferPointer) -> Void) {
        var json = ListingJSON(capacity: chunkSize, output: output)
        json.write(listing)
        json.append("\n")
        json.flush()
    }

    /// Makes room for `needed` more bytes: hands the bytes written so far to the output, if
    /// there is one, and grows the buffer if that is not enough.
    private mutating func reserve(_ needed: Int) {
        guard count + needed > capacity else { return }
        if output != nil { flush() }
        guard count + needed > capacity else { return }
        capacity = max(2 * capacity, count + needed)
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        grown.initialize(from: start, count: count)
        start.deallocate()
        start = grown
    }

    /// Hands the bytes written so far to the output.
    private mutating func flush() {
        output?(UnsafeRawBufferPointer(start: start, count: count))
        count = 0
    }

    /// Writes bytes the buffer has room for.
    private mutating func put(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        (start + count).initialize(from: base, count: bytes.count)
        count += bytes.count
    }

    /// Writes a byte the buffer has room for.
    private mutating func put(_ byte: UInt8) {
        start[count] = byte
        count += 1
    }

    private mutating func write(_ listing: ItemListing) {
        append(#"{"headings":["#)
        for (index, heading) in listing.headings.enumerated() {
            if index > 0 { append(",") }
            write(heading)
        }
        append(#"],"items":["#)
        for (index, item) in listing.items.enumerated() {
            if index > 0 { append(",") }
            write(item)
        }
        append(#"],"list":"#)
        write(listing.list)
        append("}")
    }

    private mutating func write(_ list: ListSummary) {
        if let area = list.area {
            append(#"{"area":"#)
            id(area)
        } else {
            append(#"{"area":null"#)
        }
        if let completedAt = list.completedAt {
            append(#","completedAt":"#)
            date(completedAt)
            append(#","createdAt":"#)
        } else {
            append(#","completedAt":null,"createdAt":"#)
        }
        date(list.createdAt)
        optionalDay("deadline", list.deadline)
        append(list.evening ? #","evening":true"# : #","evening":false"#)
        append(#","id":"#)
        id(list.id)
        append(#","name":"#)
        string(list.name)
        append(#","notes":"#)
        string(list.notes)
        append(#","openItems":"#)
        number(Int64(list.openItems))
        if let share = list.share {
            append(share.isOwned ? #","shared":{"owned":true,"owner":"# : #","shared":{"owned":false,"owner":"#)
            string(share.owner)
            append(#","role":"#)
            string(share.role.rawValue)
            append("}")
        }
        append(list.someday ? #","someday":true"# : #","someday":false"#)
        append(#","sortIndex":"#)
        number(list.sortIndex)
        optionalDay("startDate", list.startDate)
        status(list.status)
        tags(list.tags)
        append(#","totalItems":"#)
        number(Int64(list.totalItems))
        trashedAt(list.trashedAt)
        append("}")
    }

    private mutating func write(_ heading: HeadingSummary) {
        append(#"{"createdAt":"#)
        date(heading.createdAt)
        append(#","id":"#)
        id(heading.id)
        append(#","list":"#)
        id(heading.list)
        append(#","openItems":"#)
        number(Int64(heading.openItems))
        append(#","sortIndex":"#)
        number(heading.sortIndex)
        append(#","title":"#)
        string(heading.title)
        append(#","totalItems":"#)
        number(Int64(heading.totalItems))
        trashedAt(heading.trashedAt)
        append("}")
    }

    /// An item's members in the order `.sortedKeys` gives them; `heading` as `null` for none,
    /// and the other optional ones only when present, as ``ItemSummary``'s `encode(to:)` writes them.
    private mutating func write(_ item: ItemSummary) {
        append(#"{"checklist":["#)
        for (index, entry) in item.checklist.enumerated() {
            if index > 0 { append(",") }
            write(entry)
        }
        append(item.completed ? #"],"completed":true"# : #"],"completed":false"#)
        if let completedAt = item.completedAt {
            append(#","completedAt":"#)
            date(completedAt)
        }
        append(#","createdAt":"#)
        date(item.createdAt)
        optionalDay("deadline", item.deadline)
        append(item.deadlineDismissed ? #","deadlineDismissed":true"# : #","deadlineDismissed":false"#)
        append(item.evening ? #","evening":true"# : #","evening":false"#)
        if let heading = item.heading {
            append(#","heading":"#)
            id(heading)
        } else {
            append(#","heading":null"#)
        }
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
        append(#","reminder":"#)
        if let reminder = item.reminder { string(reminder.description) } else { append("null") }
        append(#","repeat":"#)
        if let rule = item.repeat { write(rule) } else { append("null") }
        append(#","series":"#)
        if let series = item.series { id(series) } else { append("null") }
        append(item.someday ? #","someday":true"# : #","someday":false"#)
        append(#","sortIndex":"#)
        number(item.sortIndex)
        optionalDay("startDate", item.startDate)
        status(item.status)
        tags(item.tags)
        append(#","title":"#)
        string(item.title)
        append(item.today ? #","today":true"# : #","today":false"#)
        if let todayIndex = item.todayIndex {
            append(#","todayIndex":"#)
            number(todayIndex)
        }
        switch item.todayMark {
        case .added(let day, let evening)?:
            append(#","todayMark":{"added":"#)
            string(day.description)
            append(evening ? #","evening":true}"# : "}")
        case .removed(let day)?:
            append(#","todayMark":{"removed":"#)
            string(day.description)
            append("}")
        case nil:
            break
        }
        trashedAt(item.trashedAt)
        append(#","updatedAt":"#)
        date(item.updatedAt)
        append("}")
    }

    /// `,"key":"2026-11-28"`, or `,"key":null` without a day.
    private mutating func optionalDay(_ key: StaticString, _ day: Day?) {
        append(",\"")
        append(key)
        append("\":")
        if let day { string(day.description) } else { append("null") }
    }

    /// A checklist entry's members in the order `.sortedKeys` gives them.
    private mutating func write(_ entry: ChecklistItemSummary) {
        append(entry.completed ? #"{"completed":true"# : #"{"completed":false"#)
        if let completedAt = entry.completedAt {
            append(#","completedAt":"#)
            date(completedAt)
        }
        append(#","id":"#)
        id(entry.id)
        append(#","sortIndex":"#)
        number(entry.sortIndex)
        status(entry.status)
        append(#","title":"#)
        string(entry.title)
        append("}")
    }

    /// `,"trashedAt":` and the date, or `null` out of the Trash.
    private mutating func trashedAt(_ moment: Date?) {
        append(#","trashedAt":"#)
        if let moment { date(moment) } else { append("null") }
    }

    /// `,"tags":["…",…]`: ids, in the order given.
    private mutating func tags(_ tags: [Tag.ID]) {
        append(#","tags":["#)
        for (index, tag) in tags.enumerated() {
            if index > 0 { append(",") }
            id(tag)
        }
        append("]")
    }

    /// `,"status":"open"`, `"completed"` or `"canceled"`.
    private mutating func status(_ status: ItemStatus) {
        switch status {
        case .open: append(#","status":"open""#)
        case .completed: append(#","status":"completed""#)
        case .canceled: append(#","status":"canceled""#)
        }
    }

    /// A string as `JSONEncoder` escapes it: `"` and `\`, the control characters (`\b`, `\f`,
    /// `\n`, `\r`, `\t` by name, the others as `\u00XX`), and nothing else.
    private mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            // At most six bytes for each: `\u00XX`.
            reserve(2 + 6 * utf8.count)
            put(UInt8(ascii: "\""))
            if !utf8.contains(where: Self.needsEscape) {
                put(utf8)
            } else {
                for byte in utf8 {
                    switch byte {
                    case UInt8(ascii: "\""): escape(UInt8(ascii: "\""))
                    case UInt8(ascii: "\\"): escape(UInt8(ascii: "\\"))
                    case 0x08: escape(UInt8(ascii: "b"))
                    case 0x0C: escape(UInt8(ascii: "f"))
                    case UInt8(ascii: "\n"): escape(UInt8(ascii: "n"))
                    case UInt8(ascii: "\r"): escape(UInt8(ascii: "r"))
                    case UInt8(ascii: "\t"): escape(UInt8(ascii: "t"))
                    case 0..<0x20:
                        escape(UInt8(ascii: "u"))
                        put(UInt8(ascii: "0"))
                        put(UInt8(ascii: "0"))
                        put(Self.hexDigit(byte >> 4))
                        put(Self.hexDigit(byte & 0x0F))
                    default: put(byte)
                    }
                }
            }
            put(UInt8(ascii: "\""))
        }
    }

    /// Writes a backslash and `letter`, in room already made.
    private mutating func escape(_ letter: UInt8) {
        put(UInt8(ascii: "\\"))
        put(letter)
    }

    /// Whether a byte of a string's UTF-8 is written escaped.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// A repeat rule as `JSONLine` writes it, through `JSONEncoder`: few items repeat.
    private mutating func write(_ rule: RepeatRule) {
        let json = Array((try? JSONLine.encode(rule)).map { $0.utf8 } ?? "null".utf8)
        reserve(json.count)
        json.withUnsafeBufferPointer { put($0) }
    }

    private mutating func id<Subject>(_ value: Identifier<Subject>) {
        reserve(38)
        put(UInt8(ascii: "\""))
        value.rawValue.writeLowercasedUTF8(to: start + count)
        count += 36
        put(UInt8(ascii: "\""))
    }

    /// A number in decimal, without making a `String` of it.
    private mutating func number(_ value: Int64) {
        reserve(20)
        if value < 0 { put(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var first = digits.endIndex
            repeat {
                first -= 1
                digits[first] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            put(UnsafeBufferPointer(rebasing: digits[first...]))
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
            string(value.formatted(.iso8601))
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
        reserve(lastDate.json.count)
        lastDate.json.withUnsafeBufferPointer { put($0) }
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
        reserve(literal.utf8CodeUnitCount)
        literal.withUTF8Buffer { put($0) }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
