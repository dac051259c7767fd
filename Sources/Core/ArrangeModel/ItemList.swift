public import Foundation

/// A named list of items: a project, in Things' words.
///
/// A list is open while people work on it, and shown in the sidebar. Once finished, completed
/// or canceled (``completedAt``, ``isCanceled``), it leaves the sidebar for the Logbook, and
/// keeps its place among the lists for when it is reopened.
///
/// A list is scheduled as an item is (``when``, ``deadline``): put off to someday, it leaves the
/// sidebar for the Someday view; with a start date, it shows in Upcoming until that day, and in
/// Today from then on, as it does from its deadline on.
public struct ItemList: Identifiable, Hashable, Sendable, Codable {
    /// A list's identity.
    public typealias ID = Identifier<ItemList>

    /// The list's stable identity.
    public var id: ID
    /// The list's name, unique among lists ignoring case.
    public var name: String
    /// When the list was created.
    public var createdAt: Date
    /// The list's place among the lists of its area, or among those in no area. Lists read in
    /// ascending `sortIndex`, then ascending `id`.
    public var sortIndex: Int64
    /// The area the list is in, or `nil` for none: the lists in no area come first in the sidebar.
    public var area: Area.ID?
    /// When the list was finished, completed or canceled (``isCanceled``), or `nil` while it is open.
    public var completedAt: Date?
    /// Whether the list was canceled rather than completed, as Things' status 2.
    public var isCanceled: Bool
    /// The tags set on the list itself; they apply to its items too.
    public var tags: Set<Tag.ID>
    /// When the list was moved to the Trash, with the items and headings it holds, or `nil`
    /// when it was not. A list in the Trash is in neither the sidebar nor the Logbook.
    public var trashedAt: Date?
    /// When the list is meant to be worked on: from a start date (perhaps in its evening),
    /// someday, or anytime, the default.
    public var when: When
    /// The day the list is due, if any.
    public var deadline: Day?
    /// Free-form notes about the list, as a Things project has; may be empty, and take at most
    /// `Item.maximumNotesSize` bytes, as an item's.
    public var notes: String

    /// A list with these fields; the ordering service chooses the `sortIndex` of a new list.
    public init(
        id: ID = ID(), name: String, createdAt: Date, sortIndex: Int64 = 0, area: Area.ID? = nil, completedAt: Date? = nil, isCanceled: Bool = false,
        tags: Set<Tag.ID> = [], trashedAt: Date? = nil, when: When = .anytime, deadline: Day? = nil, notes: String = ""
    ) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.sortIndex = sortIndex
        self.area = area
        self.completedAt = completedAt
        self.isCanceled = isCanceled && completedAt != nil
        self.tags = tags
        self.trashedAt = trashedAt
        self.when = when
        self.deadline = deadline
        self.notes = notes
    }

    /// Whether the list is finished: completed or canceled, in the Logbook rather than the sidebar.
    public var isFinished: Bool { completedAt != nil }

    /// Whether the list is in the sidebar: neither finished, nor in the Trash, nor put off to
    /// someday (the Someday view shows it then).
    public var isInSidebar: Bool { isActive && !when.isSomeday }

    /// Whether the list is neither finished nor in the Trash: its items show in the views of
    /// the day, whatever its own dates.
    public var isActive: Bool { completedAt == nil && trashedAt == nil }

    /// The section of Today that shows the list on `day`, or `nil` when Today does not: an
    /// active list shows there from its start date on, in the evening of that day when it is
    /// put there, and from its deadline on, as an item does (`TodayDated.todaySection(on:)`).
    public func todaySection(on day: Day) -> TodaySection? {
        isActive ? ScheduledList(when: when, deadline: deadline).todaySection(on: day) : nil
    }

    /// Whether the list is open, completed or canceled.
    public var status: ItemStatus {
        completedAt == nil ? .open : isCanceled ? .canceled : .completed
    }

    /// The ordering the list is in: its area's lists, or the lists in no area.
    public var scope: OrderScope { area.map(OrderScope.area) ?? .lists }

    /// The id a store gives the first default list it makes: the same in every store, so that
    /// two stores that each made their default list, then sync, share one list instead of two.
    public static let firstDefaultListID = ID(rawValue: UUID(uuid: (0, 0, 0, 0, 0, 0, 0x80, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)))

    /// The list's place among the lists of its ``scope``: `sortIndex`, then `id`.
    public var orderKey: OrderKey { OrderKey(sortIndex: sortIndex, id: id.entryID) }

    /// The list's entry in the order of the lists of its ``scope``: open while the list is,
    /// and not put off to someday, so that the sidebar's offsets count the lists it shows only,
    /// and trashed while it is in the Trash.
    public var entry: OrderEntry { OrderEntry(id: id.entryID, sortIndex: sortIndex, isOpen: !isFinished && !when.isSomeday, isTrashed: trashedAt != nil) }

    /// The form under which two list names count as the same: case and width folded.
    ///
    /// ```swift
    /// ItemList.nameKey("Groceries") == ItemList.nameKey("GROCERIES")  // true
    /// ```
    public static func nameKey(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }
}

extension ItemList {
    private enum CodingKeys: String, CodingKey {
        case id, name, createdAt, sortIndex, area, completedAt, tags, trashedAt, when, deadline, notes
        case isCanceled = "canceled"
    }

    /// Reads the form ``encode(to:)`` writes; a list written before lists were finished is open,
    /// one written before lists were scheduled is anytime, with no deadline, and one written
    /// before lists kept notes has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(ID.self, forKey: .id),
            name: try container.decode(String.self, forKey: .name),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            sortIndex: try container.decode(Int64.self, forKey: .sortIndex),
            area: try container.decodeIfPresent(Area.ID.self, forKey: .area),
            completedAt: try container.decodeIfPresent(Date.self, forKey: .completedAt),
            isCanceled: try container.decodeIfPresent(Bool.self, forKey: .isCanceled) == true,
            tags: Set(try container.decodeIfPresent([Tag.ID].self, forKey: .tags) ?? []),
            trashedAt: try container.decodeIfPresent(Date.self, forKey: .trashedAt),
            when: try container.decodeIfPresent(When.self, forKey: .when) ?? .anytime,
            deadline: try container.decodeIfPresent(Day.self, forKey: .deadline),
            notes: try container.decodeIfPresent(String.self, forKey: .notes) ?? "")
    }

    /// Writes every field; `area`, `completedAt`, `trashedAt` and `deadline` when they are `nil`,
    /// `canceled` when it is `false`, `when` when it is anytime, `tags` when there are none
    /// (else by id) and `notes` when they are empty are left out, so that an open list without
    /// tags, dates or notes reads as it did before lists were finished.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(sortIndex, forKey: .sortIndex)
        try container.encodeIfPresent(area, forKey: .area)
        try container.encodeIfPresent(completedAt, forKey: .completedAt)
        if isCanceled { try container.encode(true, forKey: .isCanceled) }
        if !tags.isEmpty { try container.encode(tags.sorted(), forKey: .tags) }
        try container.encodeIfPresent(trashedAt, forKey: .trashedAt)
        if when != .anytime { try container.encode(when, forKey: .when) }
        try container.encodeIfPresent(deadline, forKey: .deadline)
        if !notes.isEmpty { try container.encode(notes, forKey: .notes) }
    }
}

/// What Today's rules read of a list: its dates, with no deadline dismissed, no key in Today's
/// hand order and no mark of the person's own, which lists do not have.
private struct ScheduledList: TodayDated {
    var when: When
    var deadline: Day?
    var deadlineDismissed: Bool { false }
    var todayIndex: Int64? { nil }
    var todayMark: TodayMark? { nil }
}
