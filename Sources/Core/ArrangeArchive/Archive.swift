public import ArrangeModel
public import Foundation

/// Arrange's own data, or one list of it, as a versioned document: what `Export` writes as JSON
/// and `Import` reads back.
///
/// The areas come in their order, the lists in the sidebar's (each naming its area, if any),
/// each with its headings in their order and its items in their order (those under no heading,
/// then each heading's, each naming its heading), completed ones included, and each item with its
/// checklist in its order. Today is the items that have a
/// ``ArchivedItem/todayIndex``, in the order of those keys. Ids,
/// keys and dates are kept exactly, so that importing an archive into an empty store and
/// exporting again gives the same bytes.
///
/// ```json
/// {
///   "defaultList" : "3f2a…",
///   "format" : "arrange",
///   "lists" : [ { "createdAt" : 1800000000, "id" : "3f2a…", "items" : [ … ], "name" : "Inbox", "sortIndex" : 0 } ],
///   "version" : 1
/// }
/// ```
public struct Archive: Codable, Hashable, Sendable {
    /// The value of ``format`` in every archive.
    public static let formatName = "arrange"
    /// The newest version this code reads and writes. Version 2 brought checklists: an archive
    /// without them is written as version 1, which a version of Arrange without checklists reads
    /// too, and one with them is refused there as newer rather than read without them. Version 3
    /// brought areas, version 4 headings, version 5 dates, version 6 dismissed deadlines, and
    /// version 7 canceled items, version 8 finished lists, version 9 tags, version 10 the
    /// Trash (`trashedAt` on lists, headings and items), version 11 reminders (`reminder` on
    /// items), version 12 repeating to-dos (`series`, and `series` on items), version 13
    /// scheduled lists (`startDate`, `someday`, `evening` and `deadline` on lists), version
    /// 14 lists' notes (`notes` on lists), and version 15 the person's marks in Today
    /// (`todayMark` on items), in the same way.
    public static let currentVersion = 15

    /// Always ``formatName``: it tells an archive from another JSON file.
    public var format: String
    /// The format version the archive was read in; ``jsonData()`` writes the oldest that holds it all.
    public var version: Int
    /// The id of the store's default list, when the archive holds it.
    public var defaultList: ItemList.ID?
    /// The areas, in their order; absent when there are none.
    public var areas: [ArchivedArea]?
    /// The lists, in the sidebar's order.
    public var lists: [ArchivedList]
    /// The tags, depth first in hand order (each tag before its children); absent when there are none.
    public var tags: [ArchivedTag]?
    /// The repeating series, oldest first, each with its rule and template; absent when there are none.
    public var series: [Series]?

    /// An archive in the oldest version that holds it (``requiredVersion``).
    public init(defaultList: ItemList.ID?, areas: [ArchivedArea] = [], lists: [ArchivedList], tags: [ArchivedTag] = [], series: [Series] = []) {
        self.format = Self.formatName
        self.defaultList = defaultList
        self.areas = areas.isEmpty ? nil : areas
        self.lists = lists
        self.tags = tags.isEmpty ? nil : tags
        self.series = series.isEmpty ? nil : series
        self.version = 1
        self.version = requiredVersion
    }

    /// The oldest version that holds the whole archive: 15 when an item has the person's mark in Today, 14 when a list has notes, 13 when a list has a when or a deadline, 12 when it has repeating series, 11 when an item has a reminder, 10 when something is in the Trash, 9 when it has tags, 8 when a list is finished, 7 when an item or a checklist entry is canceled, 6 when an
    /// item's deadline is dismissed from Today, 5 when an item has a date or is someday,
    /// 4 when it has headings, 3 when it has areas, else 2 when an item has a checklist, else 1.
    public var requiredVersion: Int {
        let inTrash = lists.contains { list in
            list.trashedAt != nil || list.headings?.contains { $0.trashedAt != nil } == true || list.items.contains { $0.trashedAt != nil }
        }
        if lists.contains(where: { $0.items.contains { $0.todayMark != nil } }) { return 15 }
        if lists.contains(where: { $0.notes != nil }) { return 14 }
        if lists.contains(where: { $0.startDate != nil || $0.someday != nil || $0.deadline != nil }) { return 13 }
        if series != nil || lists.contains(where: { $0.items.contains { $0.series != nil } }) { return 12 }
        if lists.contains(where: { $0.items.contains { $0.reminder != nil } }) { return 11 }
        if inTrash { return 10 }
        if tags != nil || areas?.contains(where: { $0.tags != nil }) == true || lists.contains(where: { $0.tags != nil || $0.items.contains { $0.tags != nil } }) {
            return 9
        }
        if lists.contains(where: { $0.completedAt != nil }) { return 8 }
        if lists.contains(where: { $0.items.contains { $0.canceled == true || $0.checklist?.contains { $0.canceled == true } == true } }) { return 7 }
        if lists.contains(where: { $0.items.contains { $0.deadlineDismissed == true } }) { return 6 }
        if lists.contains(where: { $0.items.contains { $0.when != .anytime || $0.deadline != nil } }) { return 5 }
        if lists.contains(where: { $0.headings != nil || $0.items.contains { $0.heading != nil } }) { return 4 }
        if areas != nil || lists.contains(where: { $0.area != nil }) { return 3 }
        return lists.contains { $0.items.contains { $0.checklist != nil } } ? 2 : 1
    }
}

/// An area of an ``Archive``; its lists name it.
public struct ArchivedArea: Codable, Hashable, Sendable, Identifiable {
    /// The area's id.
    public var id: Area.ID
    /// The area's name.
    public var name: String
    /// Seconds since 1970 in JSON, as the database stores them.
    public var createdAt: Date
    /// The area's key among the areas.
    public var sortIndex: Int64
    /// The ids of the tags set on the area, by id; absent when it has none.
    public var tags: [Tag.ID]?

    /// Archives `area`.
    public init(_ area: Area) {
        self.id = area.id
        self.name = area.name
        self.createdAt = area.createdAt
        self.sortIndex = area.sortIndex
        self.tags = area.tags.isEmpty ? nil : area.tags.sorted()
    }

    /// The area as the model holds it.
    public var area: Area {
        Area(id: id, name: name, createdAt: createdAt, sortIndex: sortIndex, tags: Set(tags ?? []))
    }
}

/// A tag of an ``Archive``, after its parent.
public struct ArchivedTag: Codable, Hashable, Sendable, Identifiable {
    /// The tag's id.
    public var id: Tag.ID
    /// The tag's name, unique among the archive's tags ignoring case.
    public var name: String
    /// The tag it is a child of; absent at the top level.
    public var parent: Tag.ID?
    /// The tag's key among its siblings.
    public var sortIndex: Int64
    /// The character that sets the tag from the keyboard; absent for none.
    public var shortcut: String?
    /// Seconds since 1970 in JSON, as the database stores them.
    public var createdAt: Date

    /// Archives `tag`.
    public init(_ tag: Tag) {
        (id, name, parent, sortIndex, shortcut, createdAt) = (tag.id, tag.name, tag.parent, tag.sortIndex, tag.shortcut, tag.createdAt)
    }

    /// The tag as the model holds it.
    public var tag: Tag {
        Tag(id: id, name: name, parent: parent, sortIndex: sortIndex, shortcut: shortcut, createdAt: createdAt)
    }
}

/// A list of an ``Archive``, with its items in their order.
public struct ArchivedList: Codable, Hashable, Sendable, Identifiable {
    /// The list's id.
    public var id: ItemList.ID
    /// The list's name.
    public var name: String
    /// Seconds since 1970 in JSON, as the database stores them.
    public var createdAt: Date
    /// The list's key among the lists of its area, or of none.
    public var sortIndex: Int64
    /// The id of the list's area; absent when it is in none.
    public var area: Area.ID?
    /// When the list was completed or canceled, in seconds since 1970; absent while it is open.
    public var completedAt: Date?
    /// `true` when the list was canceled rather than completed; absent otherwise. Only with a ``completedAt``.
    public var canceled: Bool?
    /// The list's headings, in their order; absent when it has none.
    public var headings: [ArchivedHeading]?
    /// The list's items, completed ones included, in their order: those under no heading, then each heading's.
    public var items: [ArchivedItem]
    /// The ids of the tags set on the list itself, by id; absent when it has none.
    public var tags: [Tag.ID]?
    /// When the list went to the Trash, with what it holds; absent out of it.
    public var trashedAt: Date?
    /// The list's start date, `YYYY-MM-DD`; absent when it is anytime or someday.
    public var startDate: Day?
    /// `true` when the list is put off to someday; absent otherwise. Never with a ``startDate``.
    public var someday: Bool?
    /// `true` when the list is in the evening of its ``startDate``; absent otherwise.
    public var evening: Bool?
    /// The day the list is due, `YYYY-MM-DD`; absent when it has none.
    public var deadline: Day?
    /// The list's notes; absent when it has none.
    public var notes: String?

    /// Archives `list` with `headings` and `items`.
    public init(_ list: ItemList, headings: [ArchivedHeading] = [], items: [ArchivedItem]) {
        self.id = list.id
        self.name = list.name
        self.createdAt = list.createdAt
        self.sortIndex = list.sortIndex
        self.area = list.area
        self.completedAt = list.completedAt
        self.canceled = list.isCanceled ? true : nil
        self.headings = headings.isEmpty ? nil : headings
        self.items = items
        self.tags = list.tags.isEmpty ? nil : list.tags.sorted()
        self.trashedAt = list.trashedAt
        self.startDate = list.when.startDate
        self.someday = list.when.isSomeday ? true : nil
        self.evening = list.when.isEvening ? true : nil
        self.deadline = list.deadline
        self.notes = list.notes.isEmpty ? nil : list.notes
    }

    /// The list as the model holds it.
    public var list: ItemList {
        ItemList(
            id: id, name: name, createdAt: createdAt, sortIndex: sortIndex, area: area, completedAt: completedAt, isCanceled: canceled == true,
            tags: Set(tags ?? []), trashedAt: trashedAt, when: When(startDate: startDate, someday: someday == true, evening: evening == true),
            deadline: deadline, notes: notes ?? "")
    }
}

/// A heading of an ``ArchivedList``; its items name it.
public struct ArchivedHeading: Codable, Hashable, Sendable, Identifiable {
    /// The heading's id.
    public var id: Heading.ID
    /// The heading's title.
    public var title: String
    /// Seconds since 1970 in JSON, as the database stores them.
    public var createdAt: Date
    /// The heading's key among the headings of its list.
    public var sortIndex: Int64
    /// When the heading went to the Trash, with the items under it; absent out of it.
    public var trashedAt: Date?

    /// Archives `heading`; its list is the archived list that holds it.
    public init(_ heading: Heading) {
        self.id = heading.id
        self.title = heading.title
        self.createdAt = heading.createdAt
        self.sortIndex = heading.sortIndex
        self.trashedAt = heading.trashedAt
    }

    /// The heading as the model holds it, in `list`.
    public func heading(in list: ItemList.ID) -> Heading {
        Heading(id: id, listID: list, title: title, createdAt: createdAt, sortIndex: sortIndex, trashedAt: trashedAt)
    }
}

/// An item of an ``ArchivedList``.
public struct ArchivedItem: Codable, Hashable, Sendable, Identifiable {
    /// The item's id.
    public var id: Item.ID
    /// The item's title.
    public var title: String
    /// The item's notes; may be empty.
    public var notes: String
    /// The id of the heading of its list the item is under; absent when under none.
    public var heading: Heading.ID?
    /// The item's key in its list, under its heading.
    public var sortIndex: Int64
    /// When the item was created: seconds since 1970 in JSON.
    public var createdAt: Date
    /// When the item last changed: seconds since 1970 in JSON.
    public var updatedAt: Date
    /// When the item was completed or canceled; absent while it is open.
    public var completedAt: Date?
    /// `true` when the item was canceled rather than completed; absent otherwise. Only with a ``completedAt``.
    public var canceled: Bool?
    /// The item's key in Today; absent when it is not in Today.
    public var todayIndex: Int64?
    /// The item's start date, `YYYY-MM-DD`; absent when it is anytime or someday.
    public var startDate: Day?
    /// `true` when the item is put off to someday; absent otherwise. Never with a ``startDate``.
    public var someday: Bool?
    /// `true` when the item is in the evening of its ``startDate``; absent otherwise.
    public var evening: Bool?
    /// The day the item is due, `YYYY-MM-DD`; absent when it has none.
    public var deadline: Day?
    /// `true` when the item's deadline no longer brings it into Today; absent otherwise. Only with a ``deadline``.
    public var deadlineDismissed: Bool?
    /// The item's checklist, in its order; absent when it has none.
    public var checklist: [ArchivedChecklistItem]?
    /// The ids of the tags set on the item, by id; absent when it has none.
    public var tags: [Tag.ID]?
    /// When the item itself went to the Trash; absent out of it.
    public var trashedAt: Date?
    /// The time of the item's reminder on its start date, `HH:MM`; absent when it has none.
    public var reminder: TimeOfDay?
    /// The id of the repeating series the item was made from; absent when it has none.
    public var series: Series.ID?
    /// The person's own mark of the item in or out of Today, beside its dates
    /// (`{"added": "2026-11-30"}`, perhaps with `"evening": true`, or `{"removed": "2026-11-30"}`);
    /// absent when it has none.
    public var todayMark: TodayMark?

    /// Archives `item` with its checklist; its list is the archived list that holds it.
    public init(_ item: Item, checklist: [ChecklistItem] = []) {
        self.id = item.id
        self.title = item.title
        self.notes = item.notes
        self.heading = item.heading
        self.sortIndex = item.sortIndex
        self.createdAt = item.createdAt
        self.updatedAt = item.updatedAt
        self.completedAt = item.completedAt
        self.canceled = item.isCanceled ? true : nil
        self.todayIndex = item.todayIndex
        self.startDate = item.when.startDate
        self.someday = item.when.isSomeday ? true : nil
        self.evening = item.when.isEvening ? true : nil
        self.deadline = item.deadline
        self.deadlineDismissed = item.deadlineDismissed ? true : nil
        self.checklist = checklist.isEmpty ? nil : checklist.map(ArchivedChecklistItem.init)
        self.tags = item.tags.isEmpty ? nil : item.tags.sorted()
        self.trashedAt = item.trashedAt
        self.reminder = item.reminder
        self.series = item.series
        self.todayMark = item.todayMark
    }

    /// When the item is meant to be done, from ``startDate``, ``someday`` and ``evening``.
    public var when: When {
        When(startDate: startDate, someday: someday == true, evening: evening == true)
    }

    /// The item as the model holds it, in `list`.
    public func item(in list: ItemList.ID) -> Item {
        Item(
            id: id, listID: list, title: title, notes: notes, sortIndex: sortIndex,
            createdAt: createdAt, updatedAt: updatedAt, completedAt: completedAt, todayIndex: todayIndex, heading: heading,
            when: when, deadline: deadline, deadlineDismissed: deadlineDismissed == true, isCanceled: canceled == true && completedAt != nil,
            tags: Set(tags ?? []), trashedAt: trashedAt, reminder: reminder, series: series, todayMark: todayMark)
    }

    /// The entries of the item's checklist as the model holds them.
    public var checklistItems: [ChecklistItem] {
        (checklist ?? []).map { $0.entry(of: id) }
    }
}

/// An entry of an ``ArchivedItem``'s checklist.
public struct ArchivedChecklistItem: Codable, Hashable, Sendable, Identifiable {
    /// The entry's id.
    public var id: ChecklistItem.ID
    /// The entry's title.
    public var title: String
    /// The entry's key in its checklist.
    public var sortIndex: Int64
    /// When the entry was ticked off or canceled: seconds since 1970 in JSON; absent while it is open.
    public var completedAt: Date?
    /// `true` when the entry was canceled rather than ticked off; absent otherwise. Only with a ``completedAt``.
    public var canceled: Bool?

    /// Archives `entry`; its item is the archived item that holds it.
    public init(_ entry: ChecklistItem) {
        self.id = entry.id
        self.title = entry.title
        self.sortIndex = entry.sortIndex
        self.completedAt = entry.completedAt
        self.canceled = entry.isCanceled ? true : nil
    }

    /// The entry as the model holds it, in the checklist of `item`.
    public func entry(of item: Item.ID) -> ChecklistItem {
        ChecklistItem(id: id, itemID: item, title: title, sortIndex: sortIndex, completedAt: completedAt, isCanceled: canceled == true && completedAt != nil)
    }
}
