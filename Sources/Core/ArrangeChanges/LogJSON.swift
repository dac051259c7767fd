package import ArrangeModel
package import Foundation

/// The JSON of the log, written by hand: `JSONEncoder`'s generic machinery costs more than
/// all the rest of logging a move. It writes what the `Encodable` conformances write (with
/// the keys in another order, and empty lists left out where the reader allows), so that
/// `JSONDecoder` reads it back; a test holds the two to each other.
package final class LogJSON {
    /// The UTF-8 bytes written so far. Appending bytes, not `String`s, keeps a move's two
    /// documents to a few thousand instructions.
    @usableFromInline var bytes: [UInt8] = []

    /// The JSON of a value, as bytes.
    package static func encode(_ write: (LogJSON) -> Void) -> Data {
        let json = LogJSON()
        json.bytes.reserveCapacity(512)
        write(json)
        return Data(json.bytes)
    }

    /// Writes an object whose members `body` writes with ``Members/member(_:_:)``.
    @inlinable package func object(_ body: (inout Members) -> Void) {
        var members = Members(json: self)
        bytes.append(UInt8(ascii: "{"))
        body(&members)
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes an array of values.
    @inlinable package func array<Element>(_ elements: [Element], _ write: (LogJSON, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(self, element)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    @inlinable package func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case UInt8(ascii: "\n"): append("\\n")
            case UInt8(ascii: "\r"): append("\\r")
            case UInt8(ascii: "\t"): append("\\t")
            case 0..<0x20:
                append("\\u00")
                bytes.append(Self.hexDigit(byte >> 4))
                bytes.append(Self.hexDigit(byte & 0x0F))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    @inlinable package func id<Subject>(_ value: Identifier<Subject>) {
        bytes.append(UInt8(ascii: "\""))
        value.rawValue.appendLowercasedUTF8(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    @inlinable package func number(_ value: Int64) { bytes.append(contentsOf: String(value).utf8) }
    @inlinable package func bool(_ value: Bool) { append(value ? "true" : "false") }
    /// A date as seconds since 1970, as `JSONEncoder.DateEncodingStrategy.secondsSince1970` writes it.
    @inlinable package func date(_ value: Date) { bytes.append(contentsOf: value.timeIntervalSince1970.description.utf8) }

    @inlinable package func scope(_ scope: OrderScope) {
        switch scope {
        case .lists: append("\"lists\"")
        case .today: append("\"today\"")
        case .areas: append("\"areas\"")
        case .items(let list): id(list)
        case .checklist, .area, .headings, .heading, .tags: string(scope.text)
        }
    }

    /// Writes JSON that is already encoded.
    @inlinable package func raw(_ json: Data) { bytes.append(contentsOf: json) }

    @inlinable func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    @inlinable static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// The members of an object being written.
    package struct Members {
        @usableFromInline let json: LogJSON
        @usableFromInline var count = 0

        @inlinable init(json: LogJSON) {
            self.json = json
        }

        /// Writes `"key":` and the value `write` writes.
        @inlinable package mutating func member(_ key: StaticString, _ write: (LogJSON) -> Void) {
            if count > 0 { json.bytes.append(UInt8(ascii: ",")) }
            count += 1
            json.bytes.append(UInt8(ascii: "\""))
            json.append(key)
            json.append("\":")
            write(json)
        }

        /// Writes an array of objects, each with the members `write` writes, unless it is
        /// empty: the reader takes a missing array for an empty one.
        @inlinable package mutating func objects<Element>(_ key: StaticString, _ elements: [Element], _ write: (inout Members, Element) -> Void) {
            guard !elements.isEmpty else { return }
            member(key) { json in
                json.array(elements) { json, element in json.object { write(&$0, element) } }
            }
        }

        /// Writes the member unless the value is `nil`, as `encodeIfPresent` does.
        @inlinable package mutating func member<Value>(_ key: StaticString, ifPresent value: Value?, _ write: (LogJSON, Value) -> Void) {
            guard let value else { return }
            member(key) { write($0, value) }
        }
    }
}

extension LogJSON {
    @inlinable package func item(_ item: Item) {
        object { members in
            members.member("id") { $0.id(item.id) }
            members.member("listID") { $0.id(item.listID) }
            members.member("heading", ifPresent: item.heading) { $0.id($1) }
            members.member("title") { $0.string(item.title) }
            members.member("notes") { $0.string(item.notes) }
            members.member("sortIndex") { $0.number(item.sortIndex) }
            members.member("createdAt") { $0.date(item.createdAt) }
            members.member("updatedAt") { $0.date(item.updatedAt) }
            members.member("completedAt", ifPresent: item.completedAt) { $0.date($1) }
            members.member("todayIndex", ifPresent: item.todayIndex) { $0.number($1) }
            if item.when != .anytime { members.member("when") { $0.when(item.when) } }
            members.member("deadline", ifPresent: item.deadline) { $0.day($1) }
            if item.deadlineDismissed { members.member("deadlineDismissed") { $0.bool(true) } }
            if item.isCanceled { members.member("canceled") { $0.bool(true) } }
            if !item.tags.isEmpty { members.member("tags") { $0.ids(item.tags.sorted()) } }
            members.member("trashedAt", ifPresent: item.trashedAt) { $0.date($1) }
            members.member("reminder", ifPresent: item.reminder) { $0.string($1.description) }
            members.member("series", ifPresent: item.series) { $0.id($1) }
            members.member("todayMark", ifPresent: item.todayMark) { $1.write(to: $0) }
        }
    }

    /// A day as `Day`'s `Codable` form writes it: `"2026-11-28"`.
    @inlinable package func day(_ day: Day) { string(day.description) }

    /// When an item is meant to be done, as `When`'s `Codable` form writes it, keys sorted.
    @inlinable package func when(_ when: When) {
        object { members in
            switch when {
            case .anytime: break
            case .someday: members.member("someday") { $0.bool(true) }
            case .on(let day, let evening):
                if evening { members.member("evening") { $0.bool(true) } }
                members.member("startDate") { $0.day(day) }
            }
        }
    }

    @inlinable package func list(_ list: ItemList) {
        object { members in
            members.member("id") { $0.id(list.id) }
            members.member("name") { $0.string(list.name) }
            members.member("createdAt") { $0.date(list.createdAt) }
            members.member("sortIndex") { $0.number(list.sortIndex) }
            members.member("area", ifPresent: list.area) { $0.id($1) }
            members.member("completedAt", ifPresent: list.completedAt) { $0.date($1) }
            if list.isCanceled { members.member("canceled") { $0.bool(true) } }
            if !list.tags.isEmpty { members.member("tags") { $0.ids(list.tags.sorted()) } }
            members.member("trashedAt", ifPresent: list.trashedAt) { $0.date($1) }
            if list.when != .anytime { members.member("when") { $0.when(list.when) } }
            members.member("deadline", ifPresent: list.deadline) { $0.day($1) }
            if !list.notes.isEmpty { members.member("notes") { $0.string(list.notes) } }
        }
    }

    @inlinable package func tag(_ tag: Tag) {
        object { members in
            members.member("id") { $0.id(tag.id) }
            members.member("name") { $0.string(tag.name) }
            members.member("parent", ifPresent: tag.parent) { $0.id($1) }
            members.member("sortIndex") { $0.number(tag.sortIndex) }
            members.member("shortcut", ifPresent: tag.shortcut) { $0.string($1) }
            members.member("createdAt") { $0.date(tag.createdAt) }
        }
    }

    @inlinable package func area(_ area: Area) {
        object { members in
            members.member("id") { $0.id(area.id) }
            members.member("name") { $0.string(area.name) }
            members.member("createdAt") { $0.date(area.createdAt) }
            members.member("sortIndex") { $0.number(area.sortIndex) }
            if !area.tags.isEmpty { members.member("tags") { $0.ids(area.tags.sorted()) } }
        }
    }

    @inlinable package func heading(_ heading: Heading) {
        object { members in
            members.member("id") { $0.id(heading.id) }
            members.member("listID") { $0.id(heading.listID) }
            members.member("title") { $0.string(heading.title) }
            members.member("createdAt") { $0.date(heading.createdAt) }
            members.member("sortIndex") { $0.number(heading.sortIndex) }
            members.member("trashedAt", ifPresent: heading.trashedAt) { $0.date($1) }
        }
    }

    @inlinable package func checklistItem(_ entry: ChecklistItem) {
        object { members in
            members.member("id") { $0.id(entry.id) }
            members.member("itemID") { $0.id(entry.itemID) }
            members.member("title") { $0.string(entry.title) }
            members.member("sortIndex") { $0.number(entry.sortIndex) }
            members.member("completedAt", ifPresent: entry.completedAt) { $0.date($1) }
            if entry.isCanceled { members.member("canceled") { $0.bool(true) } }
        }
    }

    @inlinable package func place(_ place: SyncPlace) {
        object { members in
            members.member("after", ifPresent: place.after) { $0.id($1) }
            members.member("before", ifPresent: place.before) { $0.id($1) }
        }
    }

    @inlinable package func ids<Subject>(_ ids: [Identifier<Subject>]) {
        array(ids) { $0.id($1) }
    }

    package func change(_ change: SyncChange) {
        /// `{"case":{members}}`, as `Codable` writes an enum case with associated values.
        func tagged(_ name: StaticString, _ body: (inout Members) -> Void) {
            object { $0.member(name) { $0.object(body) } }
        }
        /// A change that carries another operation's: a replacement or a renumbering.
        func carrying(_ name: StaticString, _ original: OperationReference, _ change: SyncChange) {
            tagged(name) { members in
                members.member("of") { json in
                    json.object { members in
                        members.member("id") { $0.id(original.id) }
                        members.member("replica") { $0.id(original.replica) }
                        members.member("sequence") { $0.number(original.sequence) }
                        members.member("clock") { json in
                            json.object { members in
                                members.member("milliseconds") { $0.number(original.clock.milliseconds) }
                                members.member("counter") { $0.number(Int64(original.clock.counter)) }
                            }
                        }
                    }
                }
                members.member("change") { $0.change(change) }
            }
        }
        switch change {
        case .unknown(_, let json):
            raw(json)
        case .replacement(let original, let change):
            carrying("replacement", original, change)
        case .renumbering(let original, let change):
            carrying("renumbering", original, change)
        default:
            // Through the kind's own witnesses, which are made for its type.
            if let kind = change.kind { tagged(type(of: kind).name) { kind.write(to: &$0) } }
        }
    }
}
