import ArrangeIntents
public import ArrangeModel
public import ArrangeOrdering
import ArrangeStore
public import Foundation

/// Why a reference names nothing, or more than one thing.
public enum ReferenceError: Error, Hashable, Sendable {
    /// No item matches the reference.
    case unknownItem(String)
    /// An id prefix matches more than one item.
    case ambiguousPrefix(String, matches: Int)
    /// An id prefix is shorter than ``ItemReference/minimumPrefixLength`` hex digits.
    case prefixTooShort(String)
    /// The text is neither `#N`, an id, nor an id prefix.
    case invalidItemReference(String)
    /// `#N` names a position the list does not have (`count` open items).
    case positionOutOfRange(position: Int, count: Int, list: String)
    /// No list has this name or id; `known` names the lists there are.
    case unknownList(String, known: [String])
    /// The same offset is given twice in one move.
    case duplicateOffsets([Int])
    /// An offset of a move is past the end of any list there can be: the largest whole number.
    case offsetTooLarge(Int)
    /// The text is neither `#N` nor a checklist entry's id.
    case invalidChecklistItemReference(String)
    /// `#N` names a place the checklist of the item titled `item` does not have (`count` entries).
    case checklistPositionOutOfRange(position: Int, count: Int, item: String)
    /// No area has this name or id; `known` names the areas there are.
    case unknownArea(String, known: [String])
    /// No tag has this name or id; `known` names the tags there are.
    case unknownTag(String, known: [String])
    /// No heading of the list named `list` has this title, and none has this id; `known` names its headings.
    case unknownHeading(String, list: String, known: [String])
    /// Several headings of the list named `list` have this title.
    case ambiguousHeading(String, list: String, matches: Int)
    /// Evening was asked for with a when that has no day (`anytime` or `someday`).
    case eveningWithoutDay(String)
    /// A list's when ended with a time, which sets a reminder: lists take none.
    case reminderOnList(String)
    /// No repeating series has this id, and none or several repeat a to-do of this title;
    /// `known` names the to-dos that repeat.
    case unknownSeries(String, known: [String])

    /// A short, stable name for the error, for programs (`"unknownItem"`, …).
    public var code: String {
        switch self {
        case .unknownItem: "unknownItem"
        case .ambiguousPrefix: "ambiguousPrefix"
        case .prefixTooShort: "prefixTooShort"
        case .invalidItemReference: "invalidReference"
        case .positionOutOfRange: "positionOutOfRange"
        case .unknownList: "unknownList"
        case .duplicateOffsets: "duplicateOffsets"
        case .offsetTooLarge: "offsetOutOfRange"
        case .invalidChecklistItemReference: "invalidReference"
        case .checklistPositionOutOfRange: "positionOutOfRange"
        case .unknownArea: "unknownArea"
        case .unknownTag: "unknownTag"
        case .unknownHeading: "unknownHeading"
        case .ambiguousHeading: "ambiguousHeading"
        case .eveningWithoutDay: "eveningWithoutDay"
        case .reminderOnList: "reminderOnList"
        case .unknownSeries: "unknownSeries"
        }
    }
}

extension ReferenceError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .unknownItem(let reference):
            "No item matches '\(reference)'; use #N from `list`, or the start of an item's id."
        case .ambiguousPrefix(let prefix, let matches):
            "'\(prefix)' matches \(matches) items; type more characters of the id."
        case .prefixTooShort(let prefix):
            "'\(prefix)' is too short; give at least \(ItemReference.minimumPrefixLength) characters of an id, or #N."
        case .invalidItemReference(let text):
            "'\(text)' is not an item reference; use #N (as `list` numbers them), an id, or at least \(ItemReference.minimumPrefixLength) characters of one."
        case .positionOutOfRange(let position, let count, let list) where position < 1:
            "Positions start at #1; '\(list)' has \(count) open item\(count == 1 ? "" : "s")."
        case .positionOutOfRange(let position, let count, let list):
            count == 0
                ? "#\(position) is past the end: '\(list)' has no open items."
                : "#\(position) is past the end: '\(list)' has \(count) open item\(count == 1 ? "" : "s") (#1 to #\(count))."
        case .unknownList(let name, let known):
            "No list is named '\(name)'." + (known.isEmpty ? "" : " Lists: \(known.joined(separator: ", ")).")
        case .duplicateOffsets(let offsets):
            "Each offset may be given once; repeated: \(offsets.map(String.init).joined(separator: ", "))."
        case .offsetTooLarge(let offset):
            "Offset \(offset) is past the end of any list."
        case .invalidChecklistItemReference(let text):
            "'\(text)' is not a checklist entry; use #N (as the item's checklist numbers them) or an entry's id."
        case .checklistPositionOutOfRange(let position, let count, let item):
            count == 0
                ? "#\(position) is past the end: the checklist of '\(item)' is empty."
                : "#\(position) is out of range: the checklist of '\(item)' has \(count) entr\(count == 1 ? "y" : "ies") (#1 to #\(count))."
        case .unknownArea(let name, let known):
            "No area is named '\(name)'." + (known.isEmpty ? " There are no areas yet; create one with `area create`." : " Areas: \(known.joined(separator: ", ")).")
        case .unknownTag(let name, let known):
            "No tag is named '\(name)'." + (known.isEmpty ? " There are no tags yet; create one with `tag create`." : " Tags: \(known.joined(separator: ", ")).")
        case .unknownHeading(let title, let list, let known):
            "'\(list)' has no heading '\(title)'."
                + (known.isEmpty ? " It has no headings yet; create one with `heading create`." : " Its headings: \(known.joined(separator: ", ")).")
                + " Name a heading of another list with --list, or by id."
        case .ambiguousHeading(let title, let list, let matches):
            "\(matches) headings of '\(list)' are titled '\(title)'; name one by id (`list --json` shows them)."
        case .eveningWithoutDay(let when):
            "'\(when)' has no day whose evening it could be; give a day, 'today' or 'evening'."
        case .reminderOnList(let when):
            "'\(when)' ends with a time, which sets a reminder, and a list takes none; give the day alone, or set the reminder on its items."
        case .unknownSeries(let text, let known):
            "No one repeating to-do is '\(text)'; name it by its series id, or by its title when no other repeating to-do has it."
                + (known.isEmpty ? " Nothing repeats yet." : " Repeating: \(known.joined(separator: ", ")).")
        }
    }
}

/// The items `#N` counts: the open items of a list, or those of Today.
public enum ItemNumbering: Sendable {
    case list(ItemList)
    case today

    /// The name a message gives it: the list's, or "Today".
    var name: String {
        switch self {
        case .list(let list): list.name
        case .today: "Today"
        }
    }
}

/// Turns the text a person or a program typed into lists and items, inside the transaction
/// that then runs the intent, so that `#3` means the third item at the moment the change is made.
///
/// A resolver belongs to one transaction.
public final class ReferenceResolver {
    let transaction: any ItemReading
    /// The list to use when a request names none: the REPL's `use LIST`, else the default list.
    private let currentList: ItemList.ID?
    /// Whether `#N` counts Today when a request names no list: the REPL's `use Today`.
    private let countsToday: Bool
    /// The most matches of an ambiguous id prefix that an error counts.
    static let prefixMatchesCounted = 1_000

    /// The day `today` names.
    let today: Day

    /// - Parameter today: The day `today` names; by default the day it is now in this
    ///   machine's time zone (`TZ`).
    init(_ transaction: any ItemReading, currentList: ItemList.ID?, countsToday: Bool = false, today: Day = Day(Date(), in: .current)) {
        self.transaction = transaction
        self.currentList = currentList
        self.countsToday = countsToday
        self.today = today
    }

    // MARK: Lists

    /// The list `reference` names; without one, the current list, else the default list.
    ///
    /// - Throws: ``ReferenceError/unknownList(_:known:)``; `IntentError.noDefaultList` when
    ///   the store has no default list yet.
    ///
    /// A list named by id, the current list and the default list are read by id; only a name
    /// reads every list.
    public func list(_ reference: ListReference?) throws -> ItemList {
        guard let reference else {
            if let currentList, let list = try transaction.list(id: currentList) { return list }
            guard let id = try transaction.defaultListID(), let list = try transaction.list(id: id) else { throw IntentError.noDefaultList }
            return list
        }
        let text = reference.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let id = ItemList.ID(text), let list = try transaction.list(id: id) {
            return list
        }
        let lists = try transaction.lists()
        let key = ItemList.nameKey(text)
        guard let list = lists.first(where: { ItemList.nameKey($0.name) == key }) else {
            throw ReferenceError.unknownList(reference.text, known: lists.map(\.name))
        }
        return list
    }

    /// What `#N` counts for a request that names `reference` as its list: that list; without
    /// one, Today after `use Today`, else the current list.
    public func numbering(_ reference: ListReference?) throws -> ItemNumbering {
        reference == nil && countsToday ? .today : .list(try list(reference))
    }

    // MARK: Items

    /// The item `reference` names; `#N` counts the open items of `list`.
    ///
    /// - Throws: ``ReferenceError`` for a reference that is malformed, unknown, ambiguous or out of range.
    public func item(_ reference: ItemReference, in list: ItemList) throws -> Item {
        try item(reference, numberedIn: .list(list))
    }

    /// The item `reference` names; `#N` counts the open items of `numbering`.
    ///
    /// - Throws: ``ReferenceError`` for a reference that is malformed, unknown, ambiguous or out of range.
    public func item(_ reference: ItemReference, numberedIn numbering: ItemNumbering) throws -> Item {
        switch try reference.form {
        case .id(let id):
            guard let item = try transaction.item(id: id) else { throw ReferenceError.unknownItem(reference.text) }
            return item
        case .position(let position):
            guard position >= 1, let item = try openItem(at: position - 1, of: numbering) else {
                let count = try openItemCount(of: numbering)
                throw ReferenceError.positionOutOfRange(position: position, count: count, list: numbering.name)
            }
            return item
        case .prefix(let prefix):
            let matches = try transaction.items(withIDPrefix: prefix, limit: Self.prefixMatchesCounted)
            guard let match = matches.first else { throw ReferenceError.unknownItem(reference.text) }
            guard matches.count == 1 else { throw ReferenceError.ambiguousPrefix(reference.text, matches: matches.count) }
            return match
        }
    }

    private func openItem(at offset: Int, of numbering: ItemNumbering) throws -> Item? {
        switch numbering {
        case .list(let list): try transaction.items(in: list.id, visibility: .open, offset: offset, limit: 1).first
        case .today: try openItemsInToday().dropFirst(offset).first
        }
    }

    /// How many open items `numbering` counts: the largest `#N`.
    func openItemCount(of numbering: ItemNumbering) throws -> Int {
        switch numbering {
        case .list(let list): try transaction.itemCount(in: list.id, visibility: .open)
        case .today: try openItemsInToday().count
        }
    }

    /// The open items of Today on ``today``, in the order shown.
    private func openItemsInToday() throws -> [Item] {
        try TodayArrangement(on: today, visibility: .open, in: transaction).items
    }

    /// The ids of the items `references` name, in the order given, repeats kept: the intent
    /// decides what a repeat means. `#N` counts the open items of `numbering`.
    public func itemIDs(_ references: [ItemReference], numberedIn numbering: ItemNumbering) throws -> [Item.ID] {
        try references.map { try item($0, numberedIn: numbering).id }
    }

    /// A placement with its anchor resolved; `#N` anchors count the open items of `numbering`.
    public func placement(_ reference: PlacementReference, numberedIn numbering: ItemNumbering) throws -> ItemPlacement {
        try reference.map { try item($0, numberedIn: numbering).id }
    }

    // MARK: Checklists

    /// The id of the checklist entry `reference` names in the checklist of `item`: `#N` counts
    /// every entry of it, ticked off or not; an id must be of one of its entries.
    ///
    /// - Throws: ``ReferenceError/invalidChecklistItemReference(_:)``,
    ///   ``ReferenceError/checklistPositionOutOfRange(position:count:item:)``;
    ///   `IntentError.unknownChecklistItem(_:)` for an id of no entry, and
    ///   `OrderingError.notInChecklist(_:item:)` for an entry of another item's checklist.
    public func checklistItem(_ reference: ChecklistItemReference, of item: Item) throws -> ChecklistItem.ID {
        switch try reference.form {
        case .id(let id):
            guard let entry = try transaction.checklistItem(id: id) else { throw IntentError.unknownChecklistItem(id) }
            guard entry.itemID == item.id else { throw OrderingError.notInChecklist(id, item: item.id) }
            return id
        case .position(let position):
            let scope = OrderScope.checklist(item.id)
            guard position >= 1, let entry = try transaction.entries(in: scope, visibility: .all, offset: position - 1, limit: 1).first else {
                let count = try transaction.entryCount(in: scope, visibility: .all)
                throw ReferenceError.checklistPositionOutOfRange(position: position, count: count, item: item.title)
            }
            return ChecklistItem.ID(entry: entry.id)
        }
    }

    /// A placement in the checklist of `item` with its anchor resolved.
    public func placement(_ reference: ChecklistPlacementReference, in item: Item) throws -> ChecklistPlacement {
        try reference.map { try checklistItem($0, of: item) }
    }

    /// A placement among the lists with its anchor resolved.
    public func placement(_ reference: ListPlacementReference) throws -> ListPlacement {
        try reference.map { try self.list($0).id }
    }

    // MARK: Repeating series

    /// The series `reference` names: by its id or the start of it (at least
    /// ``ItemReference/minimumPrefixLength`` hex digits, as `repeats` shows it), or by the title
    /// of its template, ignoring case, when one series alone has it.
    ///
    /// - Throws: ``ReferenceError/unknownSeries(_:known:)``.
    public func series(_ reference: SeriesReference) throws -> Series {
        let text = reference.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let id = Series.ID(text), let series = try transaction.series(id: id) { return series }
        let every = try transaction.allSeries()
        let digits = text.lowercased().filter { $0 != "-" }
        if digits.count >= ItemReference.minimumPrefixLength, digits.allSatisfy(\.isHexDigit) {
            let matching = every.filter { $0.id.text.filter { $0 != "-" }.hasPrefix(digits) }
            if matching.count == 1, let series = matching.first { return series }
        }
        let key = ItemList.nameKey(text)
        let titled = every.filter { ItemList.nameKey($0.title) == key }
        guard titled.count == 1, let series = titled.first else { throw ReferenceError.unknownSeries(reference.text, known: every.map(\.title)) }
        return series
    }

    // MARK: Areas

    /// The area `reference` names: by its id, or by its name, ignoring case.
    ///
    /// - Throws: ``ReferenceError/unknownArea(_:known:)``.
    public func area(_ reference: AreaReference) throws -> Area {
        let text = reference.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let id = Area.ID(text), let area = try transaction.area(id: id) { return area }
        let areas = try transaction.areas()
        let key = ItemList.nameKey(text)
        guard let area = areas.first(where: { ItemList.nameKey($0.name) == key }) else {
            throw ReferenceError.unknownArea(reference.text, known: areas.map(\.name))
        }
        return area
    }

    /// The lists of the area `reference` names, or those in no area for `nil`.
    ///
    /// - Throws: ``ReferenceError/unknownArea(_:known:)``.
    func group(_ reference: AreaReference?) throws -> ListGroup {
        ListGroup(try reference.map { try area($0).id })
    }

    // MARK: Tags

    /// The tag `reference` names: by its id (or one merged into it), or by its name, ignoring case.
    ///
    /// - Throws: ``ReferenceError/unknownTag(_:known:)``.
    public func tag(_ reference: TagReference) throws -> Tag {
        let text = reference.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let id = Tag.ID(text), let tag = try transaction.tag(id: id) { return tag }
        let tags = try transaction.tags()
        let key = Tag.nameKey(text)
        guard let tag = tags.first(where: { Tag.nameKey($0.name) == key }) else {
            throw ReferenceError.unknownTag(reference.text, known: tags.map(\.name))
        }
        return tag
    }

    /// The tags each of `references` names, each once, in the order first named.
    ///
    /// - Throws: ``ReferenceError/unknownTag(_:known:)``.
    public func tags(_ references: [TagReference]) throws -> [Tag.ID] {
        var seen = Set<Tag.ID>()
        return try references.map { try tag($0).id }.filter { seen.insert($0).inserted }
    }

    /// A placement among a tag's siblings with its anchor resolved.
    public func placement(_ reference: TagPlacementReference) throws -> TagPlacement {
        try reference.map { try self.tag($0).id }
    }

    // MARK: Headings

    /// The heading `reference` names: by id, or by title among the headings of `list` (the
    /// current list, else the default list, when `nil`).
    ///
    /// - Throws: ``ReferenceError/unknownHeading(_:list:known:)``, ``ReferenceError/ambiguousHeading(_:list:matches:)``.
    public func heading(_ reference: HeadingReference, in list: ListReference?) throws -> Heading {
        let text = reference.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let id = Heading.ID(text), let heading = try transaction.heading(id: id) { return heading }
        let list = try self.list(list)
        let headings = try transaction.headings(in: list.id)
        let key = ItemList.nameKey(text)
        let matches = headings.filter { ItemList.nameKey($0.title) == key }
        guard let heading = matches.first else { throw ReferenceError.unknownHeading(reference.text, list: list.name, known: headings.map(\.title)) }
        guard matches.count == 1 else { throw ReferenceError.ambiguousHeading(reference.text, list: list.name, matches: matches.count) }
        return heading
    }

    /// A placement among the headings of `list` with its anchor resolved.
    public func placement(_ reference: HeadingPlacementReference, in list: ListReference?) throws -> HeadingPlacement {
        try reference.map { try self.heading($0, in: list).id }
    }

    /// A placement among the areas with its anchor resolved.
    public func placement(_ reference: AreaPlacementReference) throws -> AreaPlacement {
        try reference.map { try self.area($0).id }
    }
}
