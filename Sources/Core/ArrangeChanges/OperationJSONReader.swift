package import ArrangeModel
package import Foundation

/// A reader of an operation's JSON, written by hand: under a server's pushes, `JSONDecoder`'s
/// generic machinery took a third of the CPU, to read lines that are nearly always plain.
///
/// It reads what an operation holds, in any order and with any whitespace JSON allows, and
/// gives up on anything else: a key it does not know or that comes twice, a kind of change it
/// does not know, a number that is not a plain integer or decimal, an id that is not 36
/// characters, a `\u` escape of a surrogate, bytes that are not UTF-8, nesting deeper than any
/// change makes. Its caller then reads the line with `JSONDecoder`, so that what is read, what
/// is refused and how a refusal is told stay as they were; a test holds the two readers to each
/// other on every kind of change and on damaged lines.
package struct OperationJSONReader {
    /// Why the reader stopped: the line is not one it reads, which says nothing about whether
    /// `JSONDecoder` reads it.
    package struct GiveUp: Error {
        package init() {}
    }

    private let bytes: UnsafeRawBufferPointer
    private var position = 0

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// The operation that `json` holds, or `nil` when the line is not one this reader reads.
    package static func operation(from json: Data) -> SyncOperation? {
        json.withUnsafeBytes { bytes in
            var reader = OperationJSONReader(bytes: bytes)
            do {
                let operation = try reader.operation()
                reader.skipWhitespace()
                return reader.position == bytes.count ? operation : nil
            } catch {
                return nil
            }
        }
    }

    // MARK: Operations and changes

    private mutating func operation() throws(GiveUp) -> SyncOperation {
        var id: SyncOperation.ID?, replica: ReplicaID?, sequence: Int64?, clock: HLCTimestamp?, change: SyncChange?
        var object = try beginObject()
        while let key = try nextKey(in: &object, among: Self.operationKeys) {
            switch key {
            case 0: id = try identifier()
            case 1: replica = try identifier()
            case 2: sequence = try integer()
            case 3: clock = try timestamp()
            default: change = try self.change(depth: 0)
            }
        }
        guard let id, let replica, let sequence, let clock, let change else { throw GiveUp() }
        return SyncOperation(id: id, replica: replica, sequence: sequence, clock: clock, change: change)
    }

    private static let operationKeys: [StaticString] = ["id", "replica", "sequence", "clock", "change"]

    /// The names a change's JSON may start with: every kind's, then a replacement's and a
    /// renumbering's, which carry another change.
    private static let changeNames: [StaticString] = SyncChange.kinds.map { $0.name } + ["replacement", "renumbering"]

    /// A change: `{"kind":{members}}`, as `Codable` writes an enum case with associated values.
    private mutating func change(depth: Int) throws(GiveUp) -> SyncChange {
        guard depth < 8 else { throw GiveUp() }
        var outer = try beginObject()
        guard let index = try nextKey(in: &outer, among: Self.changeNames) else { throw GiveUp() }
        let change: SyncChange
        if index < SyncChange.kinds.count {
            change = try SyncChange.kinds[index].init(reading: &self).change
        } else {
            var original: OperationReference?, carried: SyncChange?
            try members(["of", "change"]) { json, member throws(GiveUp) in
                if member == 0 { original = try json.reference() } else { carried = try json.change(depth: depth + 1) }
            }
            let (reference, inner) = (try required(original), try required(carried))
            change = index == SyncChange.kinds.count ? .replacement(of: reference, change: inner) : .renumbering(of: reference, change: inner)
        }
        guard try nextKey(in: &outer, among: [] as [StaticString]) == nil else { throw GiveUp() }
        return change
    }

    /// Reads an object whose keys are among `keys`, each at most once, in any order: for each
    /// member, `read` reads its value, told the index of its key in `keys`.
    ///
    /// ```swift
    /// var id: Heading.ID?, title: String?
    /// try json.members(["id", "title"]) { json, member throws(OperationJSONReader.GiveUp) in
    ///     if member == 0 { id = try json.identifier() } else { title = try json.string() }
    /// }
    /// ```
    package mutating func members(_ keys: [StaticString], _ read: (inout OperationJSONReader, Int) throws(GiveUp) -> Void) throws(GiveUp) {
        var object = try beginObject()
        while let index = try nextKey(in: &object, among: keys) { try read(&self, index) }
    }

    /// A member's value that a change needs.
    ///
    /// - Throws: ``GiveUp`` when the member was missing.
    package func required<Value>(_ value: Value?) throws(GiveUp) -> Value {
        guard let value else { throw GiveUp() }
        return value
    }

    private mutating func reference() throws(GiveUp) -> OperationReference {
        var id: SyncOperation.ID?, replica: ReplicaID?, sequence: Int64?, clock: HLCTimestamp?
        var object = try beginObject()
        while let key = try nextKey(in: &object, among: Self.operationKeys.dropLast()) {
            switch key {
            case 0: id = try identifier()
            case 1: replica = try identifier()
            case 2: sequence = try integer()
            default: clock = try timestamp()
            }
        }
        guard let id, let replica, let sequence, let clock else { throw GiveUp() }
        return OperationReference(id: id, replica: replica, sequence: sequence, clock: clock)
    }

    private mutating func timestamp() throws(GiveUp) -> HLCTimestamp {
        var milliseconds: Int64?, counter: Int64?
        var object = try beginObject()
        while let key = try nextKey(in: &object, among: ["milliseconds", "counter"] as [StaticString]) {
            if key == 0 { milliseconds = try integer() } else { counter = try integer() }
        }
        guard let milliseconds, let counter, let counter = UInt32(exactly: counter) else { throw GiveUp() }
        return HLCTimestamp(milliseconds: milliseconds, counter: counter)
    }

    package mutating func place() throws(GiveUp) -> SyncPlace {
        var place = SyncPlace(after: nil, before: nil)
        var object = try beginObject()
        while let key = try nextKey(in: &object, among: ["after", "before"] as [StaticString]) {
            let entry: OrderEntry.ID? = try isNull() ? nil : identifier()
            if key == 0 { place.after = entry } else { place.before = entry }
        }
        return place
    }

    /// When an item is meant to be done, as `When`'s `Codable` form writes it: `{}`,
    /// `{"someday":true}`, or `{"startDate":"2026-11-28"}` with perhaps `"evening":true`.
    package mutating func when() throws(GiveUp) -> When {
        var startDate: Day?, someday = false, evening = false
        var object = try beginObject()
        while let key = try nextKey(in: &object, among: ["startDate", "someday", "evening"] as [StaticString]) {
            switch key {
            case 0: startDate = try day()
            case 1: someday = try boolean()
            default: evening = try boolean()
            }
        }
        return When(startDate: startDate, someday: someday, evening: evening)
    }

    /// A day written as `YYYY-MM-DD`.
    package mutating func day() throws(GiveUp) -> Day {
        guard let day = try? Day(parsing: try string()) else { throw GiveUp() }
        return day
    }

    package mutating func orderScope() throws(GiveUp) -> OrderScope {
        let text = try string()
        switch text {
        case "lists": return .lists
        case "today": return .today
        case "areas": return .areas
        case _ where text.utf8.count != 36:
            guard let scope = OrderScope(text) else { throw GiveUp() }
            switch scope {
            case .checklist, .area: return scope
            case .items, .lists, .today, .areas, .headings, .heading, .tags: throw GiveUp()
            }
        default:
            var text = text
            guard let list = text.withUTF8({ ItemList.ID(utf8: UnsafeRawBufferPointer($0)) }) else { throw GiveUp() }
            return .items(list)
        }
    }

    // MARK: Values

    /// An array, each of whose elements `element` reads.
    package mutating func array<Element>(_ element: (inout OperationJSONReader) throws(GiveUp) -> Element) throws(GiveUp) -> [Element] {
        try expect(UInt8(ascii: "["))
        var elements: [Element] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            elements.append(try element(&self))
            skipWhitespace()
            let next = try take()
            if next == UInt8(ascii: "]") { return elements }
            guard next == UInt8(ascii: ",") else { throw GiveUp() }
        }
    }

    package mutating func identifier<Subject>() throws(GiveUp) -> Identifier<Subject> {
        Identifier(rawValue: try uuid())
    }

    /// An id in its 36-character text form, in either case, with no escapes.
    private mutating func uuid() throws(GiveUp) -> UUID {
        try expect(UInt8(ascii: "\""))
        guard position + 37 <= bytes.count, bytes[position + 36] == UInt8(ascii: "\""),
              let identifier = Identifier<Replica>(utf8: UnsafeRawBufferPointer(rebasing: bytes[position..<position + 36]))
        else { throw GiveUp() }
        position += 37
        return identifier.rawValue
    }

    /// A string, its escapes read; gives up on a `\u` escape of a surrogate, a control
    /// character, and bytes that are not UTF-8.
    package mutating func string() throws(GiveUp) -> String {
        try expect(UInt8(ascii: "\""))
        let start = position
        var isASCII = true
        while true {
            let byte = try take()
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeRawBufferPointer(rebasing: bytes[start..<position - 1])
                guard isASCII || Self.isUTF8(text) else { throw GiveUp() }
                return String(decoding: text, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                position -= 1
                return try escapedString(from: start)
            }
            guard byte >= 0x20 else { throw GiveUp() }
            isASCII = isASCII && byte < 0x80
        }
    }

    /// The rest of a string that holds an escape, from its first byte after the quote.
    private mutating func escapedString(from start: Int) throws(GiveUp) -> String {
        var text = [UInt8](UnsafeRawBufferPointer(rebasing: bytes[start..<position]))
        while true {
            let byte = try take()
            switch byte {
            case UInt8(ascii: "\""):
                guard Self.isUTF8(text) else { throw GiveUp() }
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                switch try take() {
                case UInt8(ascii: "\""): text.append(UInt8(ascii: "\""))
                case UInt8(ascii: "\\"): text.append(UInt8(ascii: "\\"))
                case UInt8(ascii: "/"): text.append(UInt8(ascii: "/"))
                case UInt8(ascii: "b"): text.append(0x08)
                case UInt8(ascii: "f"): text.append(0x0C)
                case UInt8(ascii: "n"): text.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "r"): text.append(UInt8(ascii: "\r"))
                case UInt8(ascii: "t"): text.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "u"):
                    var value: UInt32 = 0
                    for _ in 0..<4 {
                        guard let digit = Self.hexValue(try take()) else { throw GiveUp() }
                        value = value << 4 | UInt32(digit)
                    }
                    guard let scalar = Unicode.Scalar(value) else { throw GiveUp() }
                    UTF8.encode(scalar) { text.append($0) }
                default: throw GiveUp()
                }
            default:
                guard byte >= 0x20 else { throw GiveUp() }
                text.append(byte)
            }
        }
    }

    /// Reads `null` if it comes next, and tells whether it did.
    package mutating func isNull() throws(GiveUp) -> Bool {
        skipWhitespace()
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    package mutating func boolean() throws(GiveUp) -> Bool {
        skipWhitespace()
        if try peek() == UInt8(ascii: "t") {
            try literal("true")
            return true
        }
        try literal("false")
        return false
    }

    /// An integer without a fraction or an exponent, that fits in 64 bits.
    package mutating func integer() throws(GiveUp) -> Int64 {
        skipWhitespace()
        let isNegative = try peek() == UInt8(ascii: "-")
        if isNegative { position += 1 }
        let start = position
        var magnitude: UInt64 = 0
        while position < bytes.count, case let digit = bytes[position] &- UInt8(ascii: "0"), digit < 10 {
            let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow, !carry else { throw GiveUp() }
            magnitude = sum
            position += 1
        }
        // No digits, a leading zero, "-0", or a fraction or exponent after: all for JSONDecoder.
        guard position > start, bytes[start] != UInt8(ascii: "0") || (position == start + 1 && !isNegative),
              position == bytes.count || !Self.continuesNumber(bytes[position])
        else { throw GiveUp() }
        if isNegative {
            guard magnitude <= UInt64(Int64.max) + 1 else { throw GiveUp() }
            return Int64(truncatingIfNeeded: 0 &- magnitude)
        }
        guard magnitude <= UInt64(Int64.max) else { throw GiveUp() }
        return Int64(magnitude)
    }

    /// A moment, as seconds since 1970: the form `JSONEncoder` writes a date in.
    package mutating func date() throws(GiveUp) -> Date {
        Date(timeIntervalSince1970: try decimal())
    }

    /// A number with an optional fraction and no exponent, as a `Double`: the form
    /// `JSONEncoder` writes a date in.
    private mutating func decimal() throws(GiveUp) -> Double {
        skipWhitespace()
        let start = position
        if try peek() == UInt8(ascii: "-") { position += 1 }
        let digits = position
        while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
        guard position > digits, bytes[digits] != UInt8(ascii: "0") || position == digits + 1 else { throw GiveUp() }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            let fraction = position
            while position < bytes.count, bytes[position] &- UInt8(ascii: "0") < 10 { position += 1 }
            guard position > fraction else { throw GiveUp() }
        }
        guard position == bytes.count || !Self.continuesNumber(bytes[position]),
              let value = Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)), value.isFinite
        else { throw GiveUp() }
        return value
    }

    private static func continuesNumber(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte &- UInt8(ascii: "0") < 10
    }

    // MARK: Objects

    /// Where the reader is in an object: whether a member was read, and which keys.
    private struct ObjectCursor {
        var isFirst = true
        /// The keys read so far, as bits by their indexes.
        var seen: UInt64 = 0
    }

    private mutating func beginObject() throws(GiveUp) -> ObjectCursor {
        try expect(UInt8(ascii: "{"))
        return ObjectCursor()
    }

    /// Reads the next member's key and its colon, and returns the key's index in `keys`; `nil`
    /// at the end of the object. Gives up on a key not in `keys`, or one read before.
    private mutating func nextKey(in object: inout ObjectCursor, among keys: some Collection<StaticString>) throws(GiveUp) -> Int? {
        skipWhitespace()
        let next = try take()
        if next == UInt8(ascii: "}") { return nil }
        if object.isFirst {
            position -= 1
            object.isFirst = false
        } else {
            guard next == UInt8(ascii: ",") else { throw GiveUp() }
        }
        try expect(UInt8(ascii: "\""))
        let start = position
        while try take() != UInt8(ascii: "\"") {}
        let key = UnsafeRawBufferPointer(rebasing: bytes[start..<position - 1])
        guard let index = keys.firstIndex(where: { Self.equal(key, $0) }).map({ keys.distance(from: keys.startIndex, to: $0) }) else { throw GiveUp() }
        // The outer object of a change, whose keys are the kinds' names, has one member: past
        // 64 keys, no bit is kept.
        let bit: UInt64 = index < 64 ? 1 << index : 0
        guard object.seen & bit == 0 else { throw GiveUp() }
        object.seen |= bit
        try expect(UInt8(ascii: ":"))
        return index
    }

    private static func equal(_ key: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
        key.count == name.utf8CodeUnitCount && memcmp(key.baseAddress!, name.utf8Start, key.count) == 0
    }

    // MARK: Bytes

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): position += 1
            default: return
            }
        }
    }

    private func peek() throws(GiveUp) -> UInt8 {
        guard position < bytes.count else { throw GiveUp() }
        return bytes[position]
    }

    private mutating func take() throws(GiveUp) -> UInt8 {
        let byte = try peek()
        position += 1
        return byte
    }

    /// Skips whitespace, then reads `byte`.
    private mutating func expect(_ byte: UInt8) throws(GiveUp) {
        skipWhitespace()
        guard try take() == byte else { throw GiveUp() }
    }

    private mutating func literal(_ word: StaticString) throws(GiveUp) {
        guard position + word.utf8CodeUnitCount <= bytes.count,
              Self.equal(UnsafeRawBufferPointer(rebasing: bytes[position..<position + word.utf8CodeUnitCount]), word)
        else { throw GiveUp() }
        position += word.utf8CodeUnitCount
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether `bytes` are well-formed UTF-8: no overlong forms, no surrogates, nothing past
    /// U+10FFFF (Unicode's table 3-7).
    private static func isUTF8(_ bytes: some Collection<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        func continuation(_ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            guard let byte = iterator.next() else { return false }
            return range.contains(byte)
        }
        while let lead = iterator.next() {
            let isWellFormed = switch lead {
            case 0x00...0x7F: true
            case 0xC2...0xDF: continuation()
            case 0xE0: continuation(0xA0...0xBF) && continuation()
            case 0xE1...0xEC, 0xEE...0xEF: continuation() && continuation()
            case 0xED: continuation(0x80...0x9F) && continuation()
            case 0xF0: continuation(0x90...0xBF) && continuation() && continuation()
            case 0xF1...0xF3: continuation() && continuation() && continuation()
            case 0xF4: continuation(0x80...0x8F) && continuation() && continuation()
            default: false
            }
            guard isWellFormed else { return false }
        }
        return true
    }
}
