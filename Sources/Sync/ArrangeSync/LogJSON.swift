import ArrangeModel
import Foundation

/// The JSON of the log, written by hand: `JSONEncoder`'s generic machinery costs more than
/// all the rest of logging a move. It writes what the `Encodable` conformances write (with
/// the keys in another order, and empty lists left out where the reader allows), so that
/// `JSONDecoder` reads it back; a test holds the two to each other.
final class LogJSON {
    /// The UTF-8 bytes written so far. Appending bytes, not `String`s, keeps a move's two
    /// documents to a few thousand instructions.
    private var bytes: [UInt8] = []

    /// The JSON of a value, as bytes.
    static func encode(_ write: (LogJSON) -> Void) -> Data {
        let json = LogJSON()
        json.bytes.reserveCapacity(512)
        write(json)
        return Data(json.bytes)
    }

    /// Writes an object whose members `body` writes with ``Members/member(_:_:)``.
    func object(_ body: (inout Members) -> Void) {
        var members = Members(json: self)
        bytes.append(UInt8(ascii: "{"))
        body(&members)
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes an array of values.
    func array<Element>(_ elements: [Element], _ write: (LogJSON, Element) -> Void) {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(self, element)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    func string(_ value: String) {
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

    func id<Subject>(_ value: Identifier<Subject>) {
        bytes.append(UInt8(ascii: "\""))
        value.rawValue.appendLowercasedUTF8(to: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }

    func number(_ value: Int64) { bytes.append(contentsOf: String(value).utf8) }
    func bool(_ value: Bool) { append(value ? "true" : "false") }
    /// A date as seconds since 1970, as `JSONEncoder.DateEncodingStrategy.secondsSince1970` writes it.
    func date(_ value: Date) { bytes.append(contentsOf: value.timeIntervalSince1970.description.utf8) }

    func scope(_ scope: OrderScope) {
        switch scope {
        case .lists: append("\"lists\"")
        case .today: append("\"today\"")
        case .areas: append("\"areas\"")
        case .items(let list): id(list)
        case .checklist, .area, .headings, .heading: string(scope.text)
        }
    }

    /// Writes JSON that is already encoded.
    func raw(_ json: Data) { bytes.append(contentsOf: json) }

    private func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// The members of an object being written.
    struct Members {
        fileprivate let json: LogJSON
        private var count = 0

        fileprivate init(json: LogJSON) {
            self.json = json
        }

        /// Writes `"key":` and the value `write` writes.
        mutating func member(_ key: StaticString, _ write: (LogJSON) -> Void) {
            if count > 0 { json.bytes.append(UInt8(ascii: ",")) }
            count += 1
            json.bytes.append(UInt8(ascii: "\""))
            json.append(key)
            json.append("\":")
            write(json)
        }

        /// Writes an array of objects, each with the members `write` writes, unless it is
        /// empty: the reader takes a missing array for an empty one.
        mutating func objects<Element>(_ key: StaticString, _ elements: [Element], _ write: (inout Members, Element) -> Void) {
            guard !elements.isEmpty else { return }
            member(key) { json in
                json.array(elements) { json, element in json.object { write(&$0, element) } }
            }
        }

        /// Writes the member unless the value is `nil`, as `encodeIfPresent` does.
        mutating func member<Value>(_ key: StaticString, ifPresent value: Value?, _ write: (LogJSON, Value) -> Void) {
            guard let value else { return }
            member(key) { write($0, value) }
        }
    }
}

extension LogJSON {
    func item(_ item: Item) {
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
        }
    }

    /// A day as `Day`'s `Codable` form writes it: `"2026-11-28"`.
    func day(_ day: Day) { string(day.description) }

    /// When an item is meant to be done, as `When`'s `Codable` form writes it, keys sorted.
    func when(_ when: When) {
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

    func list(_ list: ItemList) {
        object { members in
            members.member("id") { $0.id(list.id) }
            members.member("name") { $0.string(list.name) }
            members.member("createdAt") { $0.date(list.createdAt) }
            members.member("sortIndex") { $0.number(list.sortIndex) }
            members.member("area", ifPresent: list.area) { $0.id($1) }
        }
    }

    func area(_ area: Area) {
        object { members in
            members.member("id") { $0.id(area.id) }
            members.member("name") { $0.string(area.name) }
            members.member("createdAt") { $0.date(area.createdAt) }
            members.member("sortIndex") { $0.number(area.sortIndex) }
        }
    }

    func heading(_ heading: Heading) {
        object { members in
            members.member("id") { $0.id(heading.id) }
            members.member("listID") { $0.id(heading.listID) }
            members.member("title") { $0.string(heading.title) }
            members.member("createdAt") { $0.date(heading.createdAt) }
            members.member("sortIndex") { $0.number(heading.sortIndex) }
        }
    }

    func checklistItem(_ entry: ChecklistItem) {
        object { members in
            members.member("id") { $0.id(entry.id) }
            members.member("itemID") { $0.id(entry.itemID) }
            members.member("title") { $0.string(entry.title) }
            members.member("sortIndex") { $0.number(entry.sortIndex) }
            members.member("completedAt", ifPresent: entry.completedAt) { $0.date($1) }
        }
    }

    func place(_ place: SyncPlace) {
        object { members in
            members.member("after", ifPresent: place.after) { $0.id($1) }
            members.member("before", ifPresent: place.before) { $0.id($1) }
        }
    }

    func ids<Subject>(_ ids: [Identifier<Subject>]) {
        array(ids) { $0.id($1) }
    }

    func rewind(_ rewind: Rewind) {
        object { members in
            members.objects("lists", rewind.lists) { members, image in
                members.member("id") { $0.id(image.id) }
                members.member("list", ifPresent: image.list) { $0.list($1) }
            }
            members.objects("items", rewind.items) { members, image in
                members.member("id") { $0.id(image.id) }
                members.member("item", ifPresent: image.item) { $0.item($1) }
            }
            members.objects("keys", rewind.keys) { members, image in
                members.member("id") { $0.id(image.id) }
                members.member("listID") { $0.id(image.listID) }
                members.member("heading", ifPresent: image.heading) { $0.id($1) }
                members.member("sortIndex") { $0.number(image.sortIndex) }
                members.member("todayIndex", ifPresent: image.todayIndex) { $0.number($1) }
                members.member("updatedAt") { $0.date(image.updatedAt) }
            }
            members.objects("areas", rewind.areas) { members, image in
                members.member("id") { $0.id(image.id) }
                members.member("area", ifPresent: image.area) { $0.area($1) }
            }
            members.objects("headings", rewind.headings) { members, image in
                members.member("id") { $0.id(image.id) }
                members.member("heading", ifPresent: image.heading) { $0.heading($1) }
            }
            members.objects("checklistItems", rewind.checklistItems) { members, image in
                members.member("id") { $0.id(image.id) }
                members.member("entry", ifPresent: image.entry) { $0.checklistItem($1) }
            }
            members.member("defaultList", ifPresent: rewind.defaultList) { json, image in
                json.object { $0.member("id", ifPresent: image.id) { $0.id($1) } }
            }
            members.objects("tombstones", rewind.tombstones) { members, image in
                members.member("entry") { $0.id(image.entry) }
                members.member("scope") { $0.scope(image.scope) }
                members.member("sortIndex", ifPresent: image.sortIndex) { $0.number($1) }
            }
        }
    }

    func change(_ change: SyncChange) {
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
        case .createList(let id, let name, let place, let area):
            tagged("createList") { members in
                members.member("id") { $0.id(id) }
                members.member("name") { $0.string(name) }
                members.member("place") { $0.place(place) }
                members.member("area", ifPresent: area) { $0.id($1) }
            }
        case .renameList(let id, let name):
            tagged("renameList") { $0.member("id") { $0.id(id) }; $0.member("name") { $0.string(name) } }
        case .moveList(let id, let place, let area):
            tagged("moveList") { $0.member("id") { $0.id(id) }; $0.member("place") { $0.place(place) }; $0.member("area", ifPresent: area) { $0.id($1) } }
        case .deleteList(let id):
            tagged("deleteList") { $0.member("id") { $0.id(id) } }
        case .addItem(let id, let list, let title, let notes, let place, let heading):
            tagged("addItem") { members in
                members.member("id") { $0.id(id) }
                members.member("list") { $0.id(list) }
                members.member("title") { $0.string(title) }
                members.member("notes") { $0.string(notes) }
                members.member("place") { $0.place(place) }
                members.member("heading", ifPresent: heading) { $0.id($1) }
            }
        case .editItem(let id, let title, let notes):
            tagged("editItem") { members in
                members.member("id") { $0.id(id) }
                members.member("title", ifPresent: title) { $0.string($1) }
                members.member("notes", ifPresent: notes) { $0.string($1) }
            }
        case .completeItems(let ids, let at):
            tagged("completeItems") { $0.member("ids") { $0.ids(ids) }; $0.member("at") { $0.date(at) } }
        case .reopenItems(let ids):
            tagged("reopenItems") { $0.member("ids") { $0.ids(ids) } }
        case .deleteItems(let ids):
            tagged("deleteItems") { $0.member("ids") { $0.ids(ids) } }
        case .moveItems(let ids, let list, let place, let heading):
            tagged("moveItems") { members in
                members.member("ids") { $0.ids(ids) }
                members.member("list") { $0.id(list) }
                members.member("place") { $0.place(place) }
                members.member("heading", ifPresent: heading) { $0.id($1) }
            }
        case .setWhen(let ids, let when):
            tagged("setWhen") { $0.member("ids") { $0.ids(ids) }; $0.member("when") { $0.when(when) } }
        case .setDeadline(let ids, let deadline):
            tagged("setDeadline") { $0.member("deadline", ifPresent: deadline) { $0.day($1) }; $0.member("ids") { $0.ids(ids) } }
        case .dismissDeadlines(let ids, let dismissed):
            tagged("dismissDeadlines") { $0.member("dismissed") { $0.bool(dismissed) }; $0.member("ids") { $0.ids(ids) } }
        case .addToToday(let ids, let place):
            tagged("addToToday") { $0.member("ids") { $0.ids(ids) }; $0.member("place") { $0.place(place) } }
        case .removeFromToday(let ids):
            tagged("removeFromToday") { $0.member("ids") { $0.ids(ids) } }
        case .moveInToday(let ids, let place):
            tagged("moveInToday") { $0.member("ids") { $0.ids(ids) }; $0.member("place") { $0.place(place) } }
        case .repairOrder(let scope, let normalize):
            tagged("repairOrder") { $0.member("scope") { $0.scope(scope) }; $0.member("normalize") { $0.bool(normalize) } }
        case .addChecklistItem(let id, let item, let title, let place):
            tagged("addChecklistItem") { members in
                members.member("id") { $0.id(id) }
                members.member("item") { $0.id(item) }
                members.member("title") { $0.string(title) }
                members.member("place") { $0.place(place) }
            }
        case .editChecklistItem(let id, let title):
            tagged("editChecklistItem") { $0.member("id") { $0.id(id) }; $0.member("title") { $0.string(title) } }
        case .moveChecklistItems(let ids, let item, let place):
            tagged("moveChecklistItems") { $0.member("ids") { $0.ids(ids) }; $0.member("item") { $0.id(item) }; $0.member("place") { $0.place(place) } }
        case .completeChecklistItems(let ids, let at):
            tagged("completeChecklistItems") { $0.member("ids") { $0.ids(ids) }; $0.member("at") { $0.date(at) } }
        case .reopenChecklistItems(let ids):
            tagged("reopenChecklistItems") { $0.member("ids") { $0.ids(ids) } }
        case .deleteChecklistItems(let ids):
            tagged("deleteChecklistItems") { $0.member("ids") { $0.ids(ids) } }
        case .createArea(let id, let name, let place):
            tagged("createArea") { $0.member("id") { $0.id(id) }; $0.member("name") { $0.string(name) }; $0.member("place") { $0.place(place) } }
        case .renameArea(let id, let name):
            tagged("renameArea") { $0.member("id") { $0.id(id) }; $0.member("name") { $0.string(name) } }
        case .moveArea(let id, let place):
            tagged("moveArea") { $0.member("id") { $0.id(id) }; $0.member("place") { $0.place(place) } }
        case .deleteArea(let id):
            tagged("deleteArea") { $0.member("id") { $0.id(id) } }
        case .repairAreas(let area, let normalize):
            tagged("repairAreas") { $0.member("area", ifPresent: area) { $0.id($1) }; $0.member("normalize") { $0.bool(normalize) } }
        case .createHeading(let id, let list, let title, let place):
            tagged("createHeading") { members in
                members.member("id") { $0.id(id) }
                members.member("list") { $0.id(list) }
                members.member("title") { $0.string(title) }
                members.member("place") { $0.place(place) }
            }
        case .renameHeading(let id, let title):
            tagged("renameHeading") { $0.member("id") { $0.id(id) }; $0.member("title") { $0.string(title) } }
        case .moveHeading(let id, let list, let place):
            tagged("moveHeading") { $0.member("id") { $0.id(id) }; $0.member("list") { $0.id(list) }; $0.member("place") { $0.place(place) } }
        case .deleteHeading(let id):
            tagged("deleteHeading") { $0.member("id") { $0.id(id) } }
        case .repairHeadings(let list, let heading, let normalize):
            tagged("repairHeadings") { members in
                members.member("list") { $0.id(list) }
                members.member("heading", ifPresent: heading) { $0.id($1) }
                members.member("normalize") { $0.bool(normalize) }
            }
        case .repairChecklist(let item, let normalize):
            tagged("repairChecklist") { $0.member("item") { $0.id(item) }; $0.member("normalize") { $0.bool(normalize) } }
        case .retireReplica(let id):
            tagged("retireReplica") { $0.member("id") { $0.id(id) } }
        case .leaveForkedReplica(let id):
            tagged("leaveForkedReplica") { $0.member("id") { $0.id(id) } }
        case .unknown(_, let json):
            raw(json)
        case .replacement(let original, let change):
            carrying("replacement", original, change)
        case .renumbering(let original, let change):
            carrying("renumbering", original, change)
        }
    }
}
