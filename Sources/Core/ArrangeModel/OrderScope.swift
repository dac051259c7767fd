import Foundation

/// An ordering that people arrange by hand, and that keys belong to.
///
/// Every ordering works the same way: each of its entries keeps a gapped 64-bit `sortIndex`,
/// and the entries read in ascending ``OrderKey``. Only what an entry is, and where its key
/// is stored, differ from one scope to another.
///
/// ```swift
/// OrderScope.items(groceries.id)  // the items of Groceries under no heading, by Item.sortIndex
/// OrderScope.lists                // the lists in no area, by ItemList.sortIndex
/// OrderScope.today                // the items in Today, of any list, by Item.todayIndex
/// OrderScope.checklist(trip.id)   // the checklist of the item Trip, by ChecklistItem.sortIndex
/// OrderScope.areas                // the areas in the sidebar, by Area.sortIndex
/// OrderScope.area(work.id)        // the lists of the area Work, by ItemList.sortIndex
/// OrderScope.headings(trip.id)    // the headings of the list Trip, by Heading.sortIndex
/// OrderScope.heading(packing.id)  // the items under the heading Packing, by Item.sortIndex
/// OrderScope.tags(nil)            // the tags at the top level, by Tag.sortIndex
/// OrderScope.tags(home.id)        // the children of the tag Home, by Tag.sortIndex
/// ```
public enum OrderScope: Hashable, Sendable {
    /// The items of one list under no heading, keyed by ``Item/sortIndex``: the first items of the list.
    case items(ItemList.ID)
    /// The lists in no area, keyed by ``ItemList/sortIndex``: the first lists of the sidebar.
    case lists
    /// The items in Today, whatever their list, keyed by ``Item/todayIndex``.
    case today
    /// The entries of one item's checklist, keyed by ``ChecklistItem/sortIndex``.
    case checklist(Item.ID)
    /// Every area, keyed by ``Area/sortIndex``.
    case areas
    /// The lists of one area, keyed by ``ItemList/sortIndex``.
    case area(Area.ID)
    /// The headings of one list, keyed by ``Heading/sortIndex``.
    case headings(ItemList.ID)
    /// The items under one heading, keyed by ``Item/sortIndex``.
    case heading(Heading.ID)
    /// The children of one tag, or the tags at the top level (`nil`), keyed by ``Tag/sortIndex``.
    case tags(Tag.ID?)

    /// Whether the ordering holds lists: those in no area, or an area's.
    public var holdsLists: Bool {
        switch self {
        case .lists, .area: true
        case .items, .today, .checklist, .areas, .headings, .heading, .tags: false
        }
    }
}

extension OrderScope: CustomStringConvertible {
    /// A short form for messages and logs.
    public var description: String {
        switch self {
        case .items(let list): "the list \(list)"
        case .lists: "the order of the lists"
        case .today: "Today"
        case .checklist(let item): "the checklist of the item \(item)"
        case .areas: "the order of the areas"
        case .area(let area): "the lists of the area \(area)"
        case .headings(let list): "the headings of the list \(list)"
        case .heading(let heading): "the items under the heading \(heading)"
        case .tags(nil): "the tags at the top level"
        case .tags(let parent?): "the children of the tag \(parent)"
        }
    }
}

extension OrderScope: Codable {
    /// Reads the form ``encode(to:)`` writes: `"lists"`, `"today"`, `"areas"`, the list's id,
    /// `"checklist:"` and the item's id, `"area:"` and the area's id, `"headings:"` and the
    /// list's id, or `"heading:"` and the heading's id.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let scope = OrderScope(text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "'\(text)' is not an ordering: 'lists', 'today', 'areas', 'tags', a list's id, or 'checklist:', 'area:', 'headings:', 'heading:' or 'tags:' and an id."))
        }
        self = scope
    }

    /// Writes the ordering as one string, its ``text``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// The ordering as one string: `"lists"`, `"today"`, `"areas"`, the list's id for its items,
    /// `"checklist:"` and the item's id for its checklist, `"area:"` and the area's id for its
    /// lists, `"headings:"` and the list's id for its headings, `"heading:"` and the
    /// heading's id for its items, `"tags"` for the tags at the top level, or `"tags:"` and a
    /// tag's id for its children.
    public var text: String {
        switch self {
        case .lists: "lists"
        case .today: "today"
        case .areas: "areas"
        case .items(let list): list.text
        case .checklist(let item): Self.checklistPrefix + item.text
        case .area(let area): Self.areaPrefix + area.text
        case .headings(let list): Self.headingsPrefix + list.text
        case .heading(let heading): Self.headingPrefix + heading.text
        case .tags(nil): "tags"
        case .tags(let parent?): Self.tagsPrefix + parent.text
        }
    }

    /// The ordering that a ``text`` spells, or `nil`.
    public init?(_ text: String) {
        switch text {
        case "lists": self = .lists
        case "today": self = .today
        case "areas": self = .areas
        case "tags": self = .tags(nil)
        case _ where text.hasPrefix(Self.tagsPrefix):
            guard let parent = Tag.ID(String(text.dropFirst(Self.tagsPrefix.count))) else { return nil }
            self = .tags(parent)
        case _ where text.hasPrefix(Self.checklistPrefix):
            guard let item = Item.ID(String(text.dropFirst(Self.checklistPrefix.count))) else { return nil }
            self = .checklist(item)
        case _ where text.hasPrefix(Self.areaPrefix):
            guard let area = Area.ID(String(text.dropFirst(Self.areaPrefix.count))) else { return nil }
            self = .area(area)
        case _ where text.hasPrefix(Self.headingsPrefix):
            guard let list = ItemList.ID(String(text.dropFirst(Self.headingsPrefix.count))) else { return nil }
            self = .headings(list)
        case _ where text.hasPrefix(Self.headingPrefix):
            guard let heading = Heading.ID(String(text.dropFirst(Self.headingPrefix.count))) else { return nil }
            self = .heading(heading)
        default:
            guard let list = ItemList.ID(text) else { return nil }
            self = .items(list)
        }
    }

    /// What the text of a checklist's ordering starts with, before the item's id.
    public static let checklistPrefix = "checklist:"
    /// What the text of an area's ordering of lists starts with, before the area's id.
    public static let areaPrefix = "area:"
    /// What the text of a list's ordering of headings starts with, before the list's id.
    public static let headingsPrefix = "headings:"
    /// What the text of a heading's ordering of items starts with, before the heading's id.
    public static let headingPrefix = "heading:"
    /// What the text of a tag's ordering of children starts with, before the tag's id.
    public static let tagsPrefix = "tags:"
}

/// One entry of an ordering: an item in its list, under a heading or in Today, a list among
/// the lists, an entry of a checklist, an area, or a heading.
///
/// The ordering service reads and writes entries only, so one algorithm serves every
/// ``OrderScope``; an entry's ``id`` is the item's, the list's, the checklist entry's, the
/// area's or the heading's own id.
public struct OrderEntry: Hashable, Sendable {
    /// The id of the item, list, checklist entry, area or heading an entry stands for, as an ordering knows it.
    public typealias ID = Identifier<OrderEntry>

    /// The id of the item, list, checklist entry, area or heading.
    public var id: ID
    /// The entry's key in its ordering.
    public var sortIndex: Int64
    /// Whether the entry is seen among open entries: an item or a checklist entry that is not
    /// completed, or any list, area or heading.
    public var isOpen: Bool
    /// Whether the entry is in the Trash itself: an item, a list or a heading that was deleted
    /// and can be put back. It keeps its key, so that it comes back where it was, and only
    /// ``isOpen`` entries out of the Trash are seen among open entries.
    public var isTrashed: Bool

    /// An entry with these fields.
    public init(id: ID, sortIndex: Int64, isOpen: Bool, isTrashed: Bool = false) {
        self.id = id
        self.sortIndex = sortIndex
        self.isOpen = isOpen
        self.isTrashed = isTrashed
    }

    /// The entry's place in its ordering.
    public var key: OrderKey { OrderKey(sortIndex: sortIndex, id: id) }
}

/// A position in an ordering: `sortIndex` first, the entry's id breaks ties.
///
/// Every backend orders entries exactly by this key, so two entries that share a
/// `sortIndex` still have one well-defined order.
public struct OrderKey: Hashable, Comparable, Sendable {
    /// The key the ordering service chose.
    public var sortIndex: Int64
    /// The entry's id, which breaks ties.
    public var id: OrderEntry.ID

    /// The key of the entry `id` at `sortIndex`.
    public init(sortIndex: Int64, id: OrderEntry.ID) {
        self.sortIndex = sortIndex
        self.id = id
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.sortIndex != rhs.sortIndex ? lhs.sortIndex < rhs.sortIndex : lhs.id < rhs.id
    }
}

/// What the entries of an ordering stand for: items, lists, checklist entries, areas, headings and tags. Only their
/// ids convert to and from ``OrderEntry/ID``.
public protocol OrderedSubject {}

extension Item: OrderedSubject {}
extension ItemList: OrderedSubject {}
extension ChecklistItem: OrderedSubject {}
extension Area: OrderedSubject {}
extension Heading: OrderedSubject {}
extension Tag: OrderedSubject {}

extension Identifier where Subject: OrderedSubject {
    /// This id as the entry of an ordering names it.
    public var entryID: OrderEntry.ID { OrderEntry.ID(rawValue: rawValue) }

    /// The id of the item, list, checklist entry, area or heading that an entry of an ordering stands for.
    ///
    /// The caller knows which it is from the ``OrderScope``: `.lists` and `.area` hold lists,
    /// `.checklist` checklist entries, `.areas` areas, `.headings` headings, the others items.
    public init(entry: OrderEntry.ID) {
        self.init(rawValue: entry.rawValue)
    }
}
