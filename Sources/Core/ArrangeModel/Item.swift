public import Foundation

/// One entry of a list, kept in its user's order by ``sortIndex``.
public struct Item: Identifiable, Hashable, Sendable, Codable {
    /// An item's identity.
    public typealias ID = Identifier<Item>

    /// The item's stable identity.
    public var id: ID
    /// The list the item belongs to.
    public var listID: ItemList.ID
    /// The heading of its list the item is under, or `nil` for none: the items under no heading
    /// come first in their list.
    public var heading: Heading.ID?
    // Declared here, and `deadline` after `todayIndex`, the two fill what would be padding:
    // an item takes no more memory than before it had them.
    /// When the item is meant to be done: anytime (the default), someday, or from a start
    /// date, perhaps in the evening.
    public var when: When
    /// The item's title: non-empty, at most ``Title/maximumLength`` characters, no control characters.
    public var title: String
    /// Free-form notes; may be empty, and take at most ``maximumNotesSize`` bytes
    /// (``notesSize(_:)``), which every store checks when it writes them.
    public var notes: String
    /// The item's place among the items of its list under the same heading (or under none).
    /// They read in ascending `sortIndex`, then ascending `id`.
    public var sortIndex: Int64
    /// When the item was created.
    public var createdAt: Date
    /// When the item's content or place last changed.
    public var updatedAt: Date
    /// When the item was completed or canceled (``isCanceled``), or `nil` while it is open.
    public var completedAt: Date?
    /// The item's place in Today's hand order, or `nil` for none: the items that keep their
    /// place in Today (``keepsTodayPlace(on:)``) read in ascending `todayIndex`, then ascending
    /// `id`, whatever their lists.
    public var todayIndex: Int64?
    /// The day the item is due, or `nil` for none.
    public var deadline: Day?
    /// Whether the item's deadline no longer brings it into Today: someone took the item out
    /// of Today once it was due, as Things' `deadlineSuppressionDate` records. A new deadline
    /// brings it back.
    public var deadlineDismissed: Bool
    /// Whether the item was canceled rather than completed: it is done (``completedAt``), and
    /// shows in the Logbook as canceled, as Things' status 2.
    public var isCanceled: Bool
    /// The tags set on the item itself; those of its list and area apply to it too.
    public var tags: Set<Tag.ID>
    /// When the item itself was moved to the Trash, or `nil` when it was not. An item is in the
    /// Trash also while its list or its heading is (``ItemList/trashedAt``, ``Heading/trashedAt``).
    public var trashedAt: Date?
    /// The time its reminder fires on its start date, on the wall where the person is; `nil`
    /// for none. Only an item with a start date has one.
    public var reminder: TimeOfDay?
    /// The repeating series the item was made from, or made the first to-do of; `nil` for none.
    public var series: Series.ID?
    /// The person's own mark of the item in or out of Today, beside its dates, which are every
    /// member's in a shared list; `nil` for none. Today reads both (``todaySection(on:)``).
    public var todayMark: TodayMark?

    /// An item with these fields; `updatedAt` defaults to `createdAt`.
    public init(
        id: ID = ID(),
        listID: ItemList.ID,
        title: String,
        notes: String = "",
        sortIndex: Int64,
        createdAt: Date,
        updatedAt: Date? = nil,
        completedAt: Date? = nil,
        todayIndex: Int64? = nil,
        heading: Heading.ID? = nil,
        when: When = .anytime,
        deadline: Day? = nil,
        deadlineDismissed: Bool = false,
        isCanceled: Bool = false,
        tags: Set<Tag.ID> = [],
        trashedAt: Date? = nil,
        reminder: TimeOfDay? = nil,
        series: Series.ID? = nil,
        todayMark: TodayMark? = nil
    ) {
        self.id = id
        self.listID = listID
        self.heading = heading
        self.title = title
        self.notes = notes
        self.sortIndex = sortIndex
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.completedAt = completedAt
        self.todayIndex = todayIndex
        self.when = when
        self.deadline = deadline
        self.deadlineDismissed = deadlineDismissed
        self.isCanceled = isCanceled
        self.tags = tags
        self.trashedAt = trashedAt
        self.reminder = reminder
        self.series = series
        self.todayMark = todayMark
    }

    /// The most bytes an item's notes may take as JSON text (``notesSize(_:)``): 10,240, about
    /// 10,000 characters of plain text.
    ///
    /// Every store refuses to write longer notes, so that an item with its title and notes fits
    /// in one sync operation, which may take at most 16 KiB.
    public static let maximumNotesSize = 10_240

    /// The bytes `notes` take as JSON text: UTF-8, a quote, a backslash, a line feed, a
    /// carriage return or a tab as 2 bytes, and any other control character as 6.
    ///
    /// ```swift
    /// Item.notesSize("Buy oat milk")  // 12
    /// Item.notesSize("Line\nbreak")    // 11
    /// ```
    ///
    /// - Complexity: O(n) for n Unicode scalars.
    public static func notesSize(_ notes: String) -> Int {
        notes.unicodeScalars.reduce(0) { $0 + size(of: $1) }
    }

    /// The bytes one Unicode scalar takes as JSON text.
    private static func size(of scalar: Unicode.Scalar) -> Int {
        switch scalar {
        case "\"", "\\", "\n", "\r", "\t": 2
        case _ where scalar.value < 0x20: 6
        default: UTF8.width(scalar)
        }
    }

    /// Throws unless `notes` fit within ``maximumNotesSize``.
    ///
    /// - Throws: ``TitleError/notesTooLarge(size:limit:)``.
    public static func validateNotes(_ notes: String) throws(TitleError) {
        // Fewer bytes than the limit cannot grow past it by more than 6 to 1; most notes stop here.
        guard notes.utf8.count * 6 > maximumNotesSize else { return }
        let size = notesSize(notes)
        guard size <= maximumNotesSize else { throw .notesTooLarge(size: size, limit: maximumNotesSize) }
    }

    /// `notes` cut at the end so that they fit within ``maximumNotesSize``: for notes another
    /// program wrote, which may be longer.
    public static func fittedNotes(_ notes: String) -> String {
        guard notesSize(notes) > maximumNotesSize else { return notes }
        var size = 0
        var kept = String.UnicodeScalarView()
        for scalar in notes.unicodeScalars {
            size += self.size(of: scalar)
            guard size <= maximumNotesSize else { break }
            kept.append(scalar)
        }
        return String(kept)
    }

    /// Whether the item is done: completed, or canceled (``isCanceled``). A done item is in the
    /// Logbook, and in no view of open items.
    public var isCompleted: Bool { completedAt != nil }

    /// Whether the item is open, completed or canceled.
    public var status: ItemStatus {
        completedAt == nil ? .open : isCanceled ? .canceled : .completed
    }

    /// Whether the item has a key in Today's hand order (``todayIndex``).
    ///
    /// Today holds an item by its dates and mark (``todaySection(on:)``); the key says only where it
    /// stands among the items placed by hand, and may outlast its day.
    public var isKeyedInToday: Bool { todayIndex != nil }

    /// The ordering of its list the item is in: the items under its heading, or those under none.
    public var scope: OrderScope { heading.map(OrderScope.heading) ?? .items(listID) }

    /// The item's place in its ``scope``: `sortIndex`, then `id`.
    public var orderKey: OrderKey { OrderKey(sortIndex: sortIndex, id: id.entryID) }

    /// The item's entry in `scope`, or `nil` when it is not in that ordering.
    public func entry(in scope: OrderScope) -> OrderEntry? {
        let sortIndex: Int64? = switch scope {
        case .items(let list): list == listID && heading == nil ? self.sortIndex : nil
        case .heading(let heading): heading == self.heading ? self.sortIndex : nil
        case .today: todayIndex
        case .lists, .checklist, .areas, .area, .headings, .tags: nil
        }
        return sortIndex.map { OrderEntry(id: id.entryID, sortIndex: $0, isOpen: !isCompleted, isTrashed: trashedAt != nil) }
    }
}



extension Item {
    private enum CodingKeys: String, CodingKey {
        case id, listID, heading, title, notes, sortIndex, createdAt, updatedAt, completedAt, todayIndex, when, deadline, deadlineDismissed, tags, trashedAt,
            reminder, series, todayMark
        case isCanceled = "canceled"
    }

    /// Reads the form ``encode(to:)`` writes; an item written before dates is anytime, with no deadline.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(ID.self, forKey: .id),
            listID: try container.decode(ItemList.ID.self, forKey: .listID),
            title: try container.decode(String.self, forKey: .title),
            notes: try container.decode(String.self, forKey: .notes),
            sortIndex: try container.decode(Int64.self, forKey: .sortIndex),
            createdAt: try container.decode(Date.self, forKey: .createdAt),
            updatedAt: try container.decode(Date.self, forKey: .updatedAt),
            completedAt: try container.decodeIfPresent(Date.self, forKey: .completedAt),
            todayIndex: try container.decodeIfPresent(Int64.self, forKey: .todayIndex),
            heading: try container.decodeIfPresent(Heading.ID.self, forKey: .heading),
            when: try container.decodeIfPresent(When.self, forKey: .when) ?? .anytime,
            deadline: try container.decodeIfPresent(Day.self, forKey: .deadline),
            deadlineDismissed: try container.decodeIfPresent(Bool.self, forKey: .deadlineDismissed) ?? false,
            // Only a done item is canceled.
            isCanceled: try container.decodeIfPresent(Bool.self, forKey: .isCanceled) == true && container.contains(.completedAt),
            tags: Set(try container.decodeIfPresent([Tag.ID].self, forKey: .tags) ?? []),
            trashedAt: try container.decodeIfPresent(Date.self, forKey: .trashedAt),
            reminder: try container.decodeIfPresent(TimeOfDay.self, forKey: .reminder),
            series: try container.decodeIfPresent(Series.ID.self, forKey: .series),
            todayMark: try container.decodeIfPresent(TodayMark.self, forKey: .todayMark))
    }

    /// Writes every field; those that are `nil`, `when` when it is anytime,
    /// `deadlineDismissed` and `canceled` when they are `false`, and `tags` when there are none
    /// (else by id) are left out, so
    /// that an item without them reads as it did before they existed.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(listID, forKey: .listID)
        try container.encodeIfPresent(heading, forKey: .heading)
        try container.encode(title, forKey: .title)
        try container.encode(notes, forKey: .notes)
        try container.encode(sortIndex, forKey: .sortIndex)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(completedAt, forKey: .completedAt)
        try container.encodeIfPresent(todayIndex, forKey: .todayIndex)
        if when != .anytime { try container.encode(when, forKey: .when) }
        try container.encodeIfPresent(deadline, forKey: .deadline)
        if deadlineDismissed { try container.encode(true, forKey: .deadlineDismissed) }
        if isCanceled { try container.encode(true, forKey: .isCanceled) }
        if !tags.isEmpty { try container.encode(tags.sorted(), forKey: .tags) }
        try container.encodeIfPresent(trashedAt, forKey: .trashedAt)
        try container.encodeIfPresent(reminder, forKey: .reminder)
        try container.encodeIfPresent(series, forKey: .series)
        try container.encodeIfPresent(todayMark, forKey: .todayMark)
    }
}

/// Whether an item is open, completed or canceled, as Things has it (its status 0, 3 and 2).
public enum ItemStatus: String, Hashable, Sendable, Codable, CaseIterable {
    case open, completed, canceled
}
