package import ArrangeModel
package import Foundation

/// The members of a kind of change's JSON object, declared once: from them come its fast
/// hand-written JSON both ways (``ChangeKind/write(to:)``, ``ChangeKind/init(reading:)``) and its
/// size bound. Their `Codable` form is the kind's synthesized one, which tests hold them to.
///
/// ```swift
/// package static let members: ChangeMembers<Self> = [.member("id") { $0.id }, .member("title") { $0.title }]
/// package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
///     self.init(id: try members.value("id"), title: try members.value("title"))
/// }
/// ```
package struct ChangeMembers<Kind>: ExpressibleByArrayLiteral, Sendable {
    /// The members, in the order they are written.
    let members: [ChangeMember<Kind>]
    /// Their names, in the same order.
    let names: [StaticString]

    package init(arrayLiteral members: ChangeMember<Kind>...) {
        self.members = members
        self.names = members.map(\.name)
    }
}

/// One member of a kind of change's JSON: its name, and how its value is written, read and bounded.
package struct ChangeMember<Kind>: Sendable {
    let name: StaticString
    let write: @Sendable (Kind, inout LogJSON.Members) -> Void
    let read: @Sendable (inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> any Sendable
    let sizeBound: @Sendable (Kind) -> Int
    /// Notes what the member's value names (``ChangeSubjects``).
    let subjects: @Sendable (Kind, inout ChangeSubjects) -> Void

    /// The member `name`, whose value `value` reads of the kind: left out of the JSON when it is
    /// an absent optional, as `encodeIfPresent` leaves it out.
    package static func member<Value: LogValue>(_ name: StaticString, _ value: @escaping @Sendable (Kind) -> Value) -> Self {
        member(name, value) { value($0).collectSubjects(into: &$1) }
    }

    /// The member `name`, the id of a thing the change makes (``ChangeSubjects/made``): an item,
    /// a heading, a checklist entry or a series.
    package static func made<Subject>(_ name: StaticString, _ id: @escaping @Sendable (Kind) -> Identifier<Subject>) -> Self {
        member(name, id) { $1.made.insert(id($0).rawValue) }
    }

    private static func member<Value: LogValue>(
        _ name: StaticString, _ value: @escaping @Sendable (Kind) -> Value, subjects: @escaping @Sendable (Kind, inout ChangeSubjects) -> Void
    ) -> Self {
        ChangeMember(
            name: name,
            write: { kind, members in
                let value = value(kind)
                if !value.isAbsent { members.member(name) { value.write(to: $0) } }
            },
            read: { json throws(OperationJSONReader.GiveUp) in try Value.read(from: &json) },
            sizeBound: { 16 + value($0).sizeBound },
            subjects: subjects)
    }
}

/// The values read of a change's members, by name, for the kind's initializer.
package struct ChangeFields {
    fileprivate let names: [StaticString]
    fileprivate var values: [(any Sendable)?]

    /// The value of the member `name`: the one read, or, for an optional member that was
    /// absent, `nil`.
    ///
    /// - Throws: ``OperationJSONReader/GiveUp`` when a member that must be there is absent.
    package func value<Value: LogValue>(_ name: StaticString) throws(OperationJSONReader.GiveUp) -> Value {
        guard let index = names.firstIndex(where: { $0.utf8CodeUnitCount == name.utf8CodeUnitCount && memcmp($0.utf8Start, name.utf8Start, name.utf8CodeUnitCount) == 0 })
        else { throw .init() }
        if let value = values[index] {
            guard let value = value as? Value else { throw .init() }
            return value
        }
        guard let absent = Value.absent else { throw .init() }
        return absent
    }
}

extension ChangeKind {
    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        let members = Self.members
        var fields = ChangeFields(names: members.names, values: Array(repeating: nil, count: members.names.count))
        try json.members(members.names) { json, index throws(OperationJSONReader.GiveUp) in
            fields.values[index] = try members.members[index].read(&json)
        }
        try self.init(fields)
    }

    package func write(to members: inout LogJSON.Members) {
        for member in Self.members.members { member.write(self, &members) }
    }

    package var sizeBound: Int {
        Self.members.members.reduce(0) { $0 + $1.sizeBound(self) }
    }
}

/// A value a change's JSON holds, with its fast hand-written form both ways and a bound on its size.
package protocol LogValue: Sendable {
    /// Writes the value as its `Encodable` form writes it.
    func write(to json: LogJSON)
    /// Reads the value as its `Decodable` form reads it.
    ///
    /// - Throws: ``OperationJSONReader/GiveUp`` for JSON the fast reader does not read.
    static func read(from json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Self
    /// The value of an absent member: `nil`, for a value that must be there.
    static var absent: Self? { get }
    /// Whether the member is left out of the JSON: an absent optional.
    var isAbsent: Bool { get }
    /// More bytes than the value's JSON can take: an id 48, a text six a UTF-8 byte.
    var sizeBound: Int { get }
    /// Notes what the value names, by the rules of a shared list: nothing, for a value that
    /// names no thing.
    func collectSubjects(into subjects: inout ChangeSubjects)
}

extension LogValue {
    package static var absent: Self? { nil }
    package var isAbsent: Bool { false }
    package var sizeBound: Int { 48 }
}

extension Identifier: LogValue {
    package func write(to json: LogJSON) { json.id(self) }
    package static func read(from json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Self { try json.identifier() }
}

extension Array: LogValue where Element: LogValue {
    package func write(to json: LogJSON) { json.array(self) { $1.write(to: $0) } }
    package static func read(from json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Self {
        try json.array { json throws(OperationJSONReader.GiveUp) in try Element.read(from: &json) }
    }
    package var sizeBound: Int { reduce(16) { $0 + $1.sizeBound } }
}

extension String: LogValue {
    package func write(to json: LogJSON) { json.string(self) }
    package static func read(from json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Self { try json.string() }
    package var sizeBound: Int { 2 + 6 * utf8.count }
}

extension Bool: LogValue {
    package func write(to json: LogJSON) { json.bool(self) }
    package static func read(from json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Self { try json.boolean() }
}

extension Date: LogValue {
    package func write(to json: LogJSON) { json.date(self) }
    package static func read(from json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Self { try json.date() }
}

extension Day: LogValue {
    package func write(to json: LogJSON) { json.day(self) }
    package static func read(from json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Self { try json.day() }
}

extension TimeOfDay: LogValue {
    package func write(to json: LogJSON) { json.string(description) }
    package static func read(from json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Self {
        guard let time = try? TimeOfDay(parsing: try json.string()) else { throw OperationJSONReader.GiveUp() }
        return time
    }
}

extension When: LogValue {
    package func write(to json: LogJSON) { json.when(self) }
    package static func read(from json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Self { try json.when() }
    package var sizeBound: Int { 64 }
}

extension OrderScope: LogValue {
    package func write(to json: LogJSON) { json.scope(self) }
    package static func read(from json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Self { try json.orderScope() }
    package var sizeBound: Int { 128 }
}

extension SyncPlace: LogValue {
    package func write(to json: LogJSON) { json.place(self) }
    package static func read(from json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Self { try json.place() }
    package var sizeBound: Int { 144 }
}

extension Optional: LogValue where Wrapped: LogValue {
    package func write(to json: LogJSON) { self?.write(to: json) }
    /// The value, or `nil` for `null`, as `decodeIfPresent` reads it.
    package static func read(from json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Self {
        try json.isNull() ? nil : Wrapped.read(from: &json)
    }
    package static var absent: Self? { .some(nil) }
    package var isAbsent: Bool { self == nil }
    package var sizeBound: Int { self?.sizeBound ?? 0 }
}

extension Int: LogValue {
    package func write(to json: LogJSON) { json.number(Int64(self)) }
    package static func read(from json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Self {
        guard let value = Int(exactly: try json.integer()) else { throw OperationJSONReader.GiveUp() }
        return value
    }
}

extension RepeatRule: LogValue {
    private static let keys: [StaticString] = ["type", "every", "unit", "weekdays", "monthDays", "nthWeekday", "months", "ends", "deadlineOffset", "reminder"]

    /// Writes the rule as its `Codable` form does: RULE of the contract.
    package func write(to json: LogJSON) {
        json.object { members in
            members.member("type") { $0.string(type.rawValue) }
            members.member("every") { $0.number(Int64(every)) }
            members.member("unit") { $0.string(unit.rawValue) }
            members.member("weekdays", ifPresent: weekdays) { json, days in json.array(days) { $0.string($1.rawValue) } }
            members.member("monthDays", ifPresent: monthDays) { $1.write(to: $0) }
            members.member("nthWeekday", ifPresent: nthWeekday) { json, nth in
                json.object { members in
                    members.member("n") { $0.number(Int64(nth.n)) }
                    members.member("weekday") { $0.string(nth.weekday.rawValue) }
                }
            }
            members.member("months", ifPresent: months) { $1.write(to: $0) }
            members.member("ends", ifPresent: ends) { json, end in
                json.object { members in
                    switch end {
                    case .on(let day): members.member("on") { $0.day(day) }
                    case .after(let count): members.member("after") { $0.number(Int64(count)) }
                    }
                }
            }
            members.member("deadlineOffset", ifPresent: deadlineOffset) { $1.write(to: $0) }
            members.member("reminder", ifPresent: reminder) { $0.string($1.description) }
        }
    }

    /// Reads RULE, and checks it; gives up on a rule it cannot make, which `JSONDecoder` then reads.
    package static func read(from json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Self {
        var type: Kind?, every: Int?, unit: Unit?, weekdays: [Weekday]?, monthDays: [Int]?, nth: NthWeekday?, months: [Int]?
        var ends: End?, deadlineOffset: Int?, reminder: TimeOfDay?
        func word<Word: RawRepresentable<String>>(_ json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) -> Word {
            guard let word = Word(rawValue: try json.string()) else { throw OperationJSONReader.GiveUp() }
            return word
        }
        try json.members(keys) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: type = try word(&json)
            case 1: every = try Int.read(from: &json)
            case 2: unit = try word(&json)
            case 3: weekdays = try json.array { json throws(OperationJSONReader.GiveUp) in try word(&json) }
            case 4: monthDays = try [Int].read(from: &json)
            case 5:
                var n: Int?, weekday: Weekday?
                try json.members(["n", "weekday"]) { json, member throws(OperationJSONReader.GiveUp) in
                    if member == 0 { n = try Int.read(from: &json) } else { weekday = try word(&json) }
                }
                nth = NthWeekday(try json.required(n), try json.required(weekday))
            case 6: months = try [Int].read(from: &json)
            case 7:
                try json.members(["on", "after"]) { json, member throws(OperationJSONReader.GiveUp) in
                    guard ends == nil else { throw OperationJSONReader.GiveUp() }
                    ends = member == 0 ? .on(try json.day()) : .after(try Int.read(from: &json))
                }
            case 8: deadlineOffset = try Int.read(from: &json)
            default: reminder = try TimeOfDay.read(from: &json)
            }
        }
        do {
            return try RepeatRule(
                try json.required(type), every: try json.required(every), try json.required(unit), weekdays: weekdays, monthDays: monthDays,
                nthWeekday: nth, months: months, ends: ends, deadlineOffset: deadlineOffset, reminder: reminder)
        } catch {
            throw OperationJSONReader.GiveUp()
        }
    }

    package var sizeBound: Int { 512 }
}
