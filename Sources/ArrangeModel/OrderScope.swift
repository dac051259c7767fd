import Foundation

/// An ordering that people arrange by hand, and that keys belong to.
///
/// Every ordering works the same way: each of its entries keeps a gapped 64-bit `sortIndex`,
/// and the entries read in ascending ``OrderKey``. Only what an entry is, and where its key
/// is stored, differ from one scope to another.
///
/// ```swift
/// OrderScope.items(groceries.id)  // the items of Groceries, by Item.sortIndex
/// OrderScope.lists                // the lists in the sidebar, by ItemList.sortIndex
/// OrderScope.today                // the items in Today, of any list, by Item.todayIndex
/// OrderScope.checklist(trip.id)    // the checklist of the item Trip, by ChecklistItem.sortIndex
/// ```
public enum OrderScope: Hashable, Sendable {
    /// The items of one list, keyed by ``Item/sortIndex``.
    case items(ItemList.ID)
    /// Every list, keyed by ``ItemList/sortIndex``.
    case lists
    /// The items in Today, whatever their list, keyed by ``Item/todayIndex``.
    case today
    /// The entries of one item's checklist, keyed by ``ChecklistItem/sortIndex``.
    case checklist(Item.ID)
}

extension OrderScope: CustomStringConvertible {
    /// A short form for messages and logs.
    public var description: String {
        switch self {
        case .items(let list): "the list \(list)"
        case .lists: "the order of the lists"
        case .today: "Today"
        case .checklist(let item): "the checklist of the item \(item)"
        }
    }
}

extension OrderScope: Codable {
    /// Reads the form ``encode(to:)`` writes: `"lists"`, `"today"`, the list's id, or
    /// `"checklist:"` and the item's id.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let scope = OrderScope(text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "'\(text)' is not an ordering: 'lists', 'today', a list's id, or 'checklist:' and an item's id."))
        }
        self = scope
    }

    /// Writes the ordering as one string, its ``text``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// The ordering as one string: `"lists"`, `"today"`, the list's id for its items, or
    /// `"checklist:"` and the item's id for its checklist.
    public var text: String {
        switch self {
        case .lists: "lists"
        case .today: "today"
        case .items(let list): list.text
        case .checklist(let item): Self.checklistPrefix + item.text
        }
    }

    /// The ordering that a ``text`` spells, or `nil`.
    public init?(_ text: String) {
        switch text {
        case "lists": self = .lists
        case "today": self = .today
        case _ where text.hasPrefix(Self.checklistPrefix):
            guard let item = Item.ID(String(text.dropFirst(Self.checklistPrefix.count))) else { return nil }
            self = .checklist(item)
        default:
            guard let list = ItemList.ID(text) else { return nil }
            self = .items(list)
        }
    }

    /// What the text of a checklist's ordering starts with, before the item's id.
    public static let checklistPrefix = "checklist:"
}

/// One entry of an ordering: an item in its list or in Today, a list among the lists, or an
/// entry of a checklist.
///
/// The ordering service reads and writes entries only, so one algorithm serves every
/// ``OrderScope``; an entry's ``id`` is the item's, the list's or the checklist entry's own id.
public struct OrderEntry: Hashable, Sendable {
    /// The id of the item, list or checklist entry an entry stands for, as an ordering knows it.
    public typealias ID = Identifier<OrderEntry>

    /// The id of the item, list or checklist entry.
    public var id: ID
    /// The entry's key in its ordering.
    public var sortIndex: Int64
    /// Whether the entry is seen among open entries: an item or a checklist entry that is not
    /// completed, or any list.
    public var isOpen: Bool

    /// An entry with these fields.
    public init(id: ID, sortIndex: Int64, isOpen: Bool) {
        self.id = id
        self.sortIndex = sortIndex
        self.isOpen = isOpen
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

/// What the entries of an ordering stand for: items, lists and checklist entries. Only their
/// ids convert to and from ``OrderEntry/ID``.
public protocol OrderedSubject {}

extension Item: OrderedSubject {}
extension ItemList: OrderedSubject {}
extension ChecklistItem: OrderedSubject {}

extension Identifier where Subject: OrderedSubject {
    /// This id as the entry of an ordering names it.
    public var entryID: OrderEntry.ID { OrderEntry.ID(rawValue: rawValue) }

    /// The id of the item, list or checklist entry that an entry of an ordering stands for.
    ///
    /// The caller knows which it is from the ``OrderScope``: `.lists` holds lists,
    /// `.checklist` checklist entries, the others items.
    public init(entry: OrderEntry.ID) {
        self.init(rawValue: entry.rawValue)
    }
}
