public import ArrangeModel
public import ArrangeOrdering
public import ArrangeStore
public import Foundation

/// An item as intents return it.
///
/// Its `Codable` form has the keys `id`, `list`, `listName`, `heading` (`null` for none),
/// `title`, `notes`, `sortIndex`, `status`, `completed`, `completedAt` (when done), `today`,
/// `todayIndex` (when it has a key in Today), `todayMark` (when it has one), `startDate`, `someday`, `evening`, `deadline`,
/// `deadlineDismissed`, `checklist`, `tags`, `createdAt`, `updatedAt` and `position` (when counted).
public struct ItemSummary: Identifiable, Hashable, Sendable, Codable {
    /// The item's id.
    public var id: Item.ID
    /// The id of the item's list.
    public var list: ItemList.ID
    /// The name of the item's list.
    public var listName: String
    /// The heading of its list the item is under, or `nil` for none.
    public var heading: Heading.ID?
    /// The item's title.
    public var title: String
    /// The item's notes; may be empty.
    public var notes: String
    /// The item's key in its list's order, under its heading.
    public var sortIndex: Int64
    /// Whether the item is open, completed or canceled.
    public var status: ItemStatus
    /// Whether the item is completed; `false` for a canceled one.
    public var completed: Bool
    /// When the item was completed or canceled, or `nil` while it is open.
    public var completedAt: Date?
    /// Whether Today holds the item, on the day the intent was of (`Item.isInToday(on:)`).
    public var today: Bool
    /// The item's key in Today's hand order, or `nil` for none: an item that arrived in Today
    /// by its dates has none until it is moved there.
    public var todayIndex: Int64?
    /// The person's own mark of the item in or out of Today, beside its dates, which are every
    /// member's in a shared list; `nil` for none (`Item.todayMark`).
    public var todayMark: TodayMark?
    /// The item's start date, or `nil` when it is anytime or someday.
    public var startDate: Day?
    /// Whether the item is put off to someday; never with a ``startDate``.
    public var someday: Bool
    /// Whether the item is in the evening of its ``startDate``.
    public var evening: Bool
    /// The day the item is due, or `nil` for none.
    public var deadline: Day?
    /// Whether the item's ``deadline`` no longer brings it into Today.
    public var deadlineDismissed: Bool
    /// The entries of the item's checklist, in order.
    public var checklist: [ChecklistItemSummary]
    /// The ids of the tags set on the item itself, in the tags' order (depth first, by hand).
    public var tags: [Tag.ID]
    /// When the item was created.
    public var createdAt: Date
    /// When the item last changed.
    public var updatedAt: Date
    /// The item's 1-based place among the open items of its list (of Today, for the Today
    /// intents), when the intent counted it.
    public var position: Int?
    /// When the item went to the Trash, itself or with its heading or list, or `nil` while it
    /// is out of it.
    public var trashedAt: Date?
    /// The time its reminder fires on its start date, or `nil` for none.
    public var reminder: TimeOfDay?
    /// The repeating series the item was made from, or made the first to-do of, while the
    /// series has a rule; `nil` for none.
    public var series: Series.ID?
    /// The rule of that series, on every to-do of it; `nil` for none.
    public var `repeat`: RepeatRule?

    /// Describes `item`, whose list is named `listName` and whose checklist is `checklist`, on
    /// the day `today`; without one, ``today`` says whether it has a key in Today's hand order.
    /// `tags` are the item's tags in the tags' order; without them, by id.
    public init(_ item: Item, listName: String, position: Int? = nil, checklist: [ChecklistItem] = [], today day: Day? = nil, tags: [Tag.ID]? = nil) {
        id = item.id
        list = item.listID
        self.listName = listName
        heading = item.heading
        title = item.title
        notes = item.notes
        sortIndex = item.sortIndex
        status = item.status
        completed = item.status == .completed
        completedAt = item.completedAt
        today = day.map(item.isInToday(on:)) ?? item.isKeyedInToday
        todayIndex = item.todayIndex
        todayMark = item.todayMark
        startDate = item.when.startDate
        someday = item.when.isSomeday
        evening = item.when.isEvening
        deadline = item.deadline
        deadlineDismissed = item.deadlineDismissed
        self.checklist = checklist.map(ChecklistItemSummary.init)
        self.tags = tags ?? item.tags.sorted()
        createdAt = item.createdAt
        updatedAt = item.updatedAt
        self.position = position
        trashedAt = item.trashedAt
        reminder = item.reminder
        series = item.series
    }

    private enum CodingKeys: String, CodingKey {
        case id, list, listName, heading, title, notes, sortIndex, status, completed, completedAt, today, todayIndex, todayMark
        case startDate, someday, evening, deadline, deadlineDismissed, checklist, tags, createdAt, updatedAt, position, trashedAt, reminder
        case series, `repeat`
    }

    /// Writes every field, `heading`, `startDate`, `deadline`, `trashedAt`, `reminder`, `series` and `repeat` as `null` when they are unset,
    /// so that a reader of the JSON sees the field either way; `completedAt`, `todayIndex`,
    /// `todayMark` and `position` only when set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(list, forKey: .list)
        try container.encode(listName, forKey: .listName)
        try container.encode(heading, forKey: .heading)
        try container.encode(title, forKey: .title)
        try container.encode(notes, forKey: .notes)
        try container.encode(sortIndex, forKey: .sortIndex)
        try container.encode(status, forKey: .status)
        try container.encode(completed, forKey: .completed)
        try container.encodeIfPresent(completedAt, forKey: .completedAt)
        try container.encode(today, forKey: .today)
        try container.encodeIfPresent(todayIndex, forKey: .todayIndex)
        try container.encodeIfPresent(todayMark, forKey: .todayMark)
        try container.encode(startDate, forKey: .startDate)
        try container.encode(someday, forKey: .someday)
        try container.encode(evening, forKey: .evening)
        try container.encode(deadline, forKey: .deadline)
        try container.encode(deadlineDismissed, forKey: .deadlineDismissed)
        try container.encode(checklist, forKey: .checklist)
        try container.encode(tags, forKey: .tags)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encodeIfPresent(position, forKey: .position)
        try container.encode(trashedAt, forKey: .trashedAt)
        try container.encode(reminder, forKey: .reminder)
        try container.encode(series, forKey: .series)
        try container.encode(`repeat`, forKey: .repeat)
    }
}

/// An entry of an item's checklist, as intents return it.
///
/// Its `Codable` form has the keys `id`, `title`, `status`, `completed`, `completedAt` (when
/// done) and `sortIndex`.
public struct ChecklistItemSummary: Identifiable, Hashable, Sendable, Codable {
    /// The entry's id.
    public var id: ChecklistItem.ID
    /// The entry's title.
    public var title: String
    /// Whether the entry is open, ticked off (`completed`) or canceled.
    public var status: ItemStatus
    /// Whether the entry is ticked off; `false` for a canceled one.
    public var completed: Bool
    /// When the entry was ticked off or canceled, or `nil` while it is open.
    public var completedAt: Date?
    /// The entry's key in its checklist's order.
    public var sortIndex: Int64

    /// Describes `entry`.
    public init(_ entry: ChecklistItem) {
        id = entry.id
        title = entry.title
        status = entry.status
        completed = entry.status == .completed
        completedAt = entry.completedAt
        sortIndex = entry.sortIndex
    }
}

/// What the checklist intents did: the item with its whole checklist as it is now, the entries
/// changed, and the rows written.
public struct ChecklistResult: Hashable, Sendable, Codable {
    /// The item, its checklist in ``ItemSummary/checklist``.
    public var item: ItemSummary
    /// The entries the intent added, edited, moved, completed, reopened or deleted, in the
    /// order named; those already as asked are not among them.
    public var changed: [ChecklistItem.ID]
    /// Every row written: the entries changed, and the neighbours a move re-spread.
    public var rowsWritten: Int

    /// Creates the result from its parts.
    public init(item: ItemSummary, changed: [ChecklistItem.ID], rowsWritten: Int) {
        self.item = item
        self.changed = changed
        self.rowsWritten = rowsWritten
    }
}

/// What ``AddItem`` and the move intents did: the items placed, in display order, and the rows written.
public struct PlacementResult: Hashable, Sendable, Codable {
    /// The items, in display order.
    public var items: [ItemSummary]
    /// Every row written, the placed items and re-spread neighbours together.
    public var rowsWritten: Int
    /// The rows of neighbours re-spread to make room (included in ``rowsWritten``).
    public var rowsRespread: Int

    /// Creates the result from its parts.
    public init(items: [ItemSummary], rowsWritten: Int, rowsRespread: Int) {
        self.items = items
        self.rowsWritten = rowsWritten
        self.rowsRespread = rowsRespread
    }
}

/// One item, as ``ShowItem`` and ``RenameItem`` return it.
public struct ItemResult: Hashable, Sendable, Codable {
    /// The item.
    public var item: ItemSummary

    /// Creates the result from its parts.
    public init(item: ItemSummary) {
        self.item = item
    }
}

/// Several items, as ``CompleteItems``, ``ReopenItems`` and ``DeleteItems`` return them.
public struct ItemsResult: Hashable, Sendable, Codable {
    /// The items, in display order.
    public var items: [ItemSummary]
    /// How many of the items the intent changed; the others were already as asked.
    public var changed: Int

    /// Creates the result from its parts.
    public init(items: [ItemSummary], changed: Int) {
        self.items = items
        self.changed = changed
    }
}

/// The items of a list in display order, as ``ListItems`` returns them, with the list's headings.
public struct ItemListing: Hashable, Sendable, Codable {
    /// The list.
    public var list: ListSummary
    /// The list's headings, in order; the items under each follow those under none.
    public var headings: [HeadingSummary]
    /// The items in display order: those under no heading, then each heading's; open items
    /// carry their place in ``ItemSummary/position``.
    public var items: [ItemSummary]

    /// Creates the result from its parts.
    public init(list: ListSummary, headings: [HeadingSummary] = [], items: [ItemSummary]) {
        self.list = list
        self.headings = headings
        self.items = items
    }
}

/// A heading of a list as intents return it, with how many items are under it.
public struct HeadingSummary: Identifiable, Hashable, Sendable, Codable {
    /// The heading's id.
    public var id: Heading.ID
    /// The id of the heading's list.
    public var list: ItemList.ID
    /// The heading's title.
    public var title: String
    /// When the heading was created.
    public var createdAt: Date
    /// The heading's key among the headings of its list.
    public var sortIndex: Int64
    /// How many open items are under it.
    public var openItems: Int
    /// How many items are under it.
    public var totalItems: Int
    /// When the heading went to the Trash, or `nil` while it is out of it.
    public var trashedAt: Date?

    /// Describes `heading`, under which `totalItems` items are, `openItems` of them open.
    public init(_ heading: Heading, openItems: Int, totalItems: Int) {
        id = heading.id
        list = heading.listID
        title = heading.title
        createdAt = heading.createdAt
        sortIndex = heading.sortIndex
        self.openItems = openItems
        self.totalItems = totalItems
        trashedAt = heading.trashedAt
    }

    private enum CodingKeys: String, CodingKey {
        case id, list, title, createdAt, sortIndex, openItems, totalItems, trashedAt
    }

    /// Writes every field, `trashedAt` as `null` out of the Trash.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(list, forKey: .list)
        try container.encode(title, forKey: .title)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(sortIndex, forKey: .sortIndex)
        try container.encode(openItems, forKey: .openItems)
        try container.encode(totalItems, forKey: .totalItems)
        try container.encode(trashedAt, forKey: .trashedAt)
    }
}

/// One heading, as the intents that create and rename one return it.
public struct HeadingResult: Hashable, Sendable, Codable {
    /// The heading.
    public var heading: HeadingSummary

    /// Creates the result from its parts.
    public init(heading: HeadingSummary) {
        self.heading = heading
    }
}

/// The headings of a list once some moved, and the rows the move wrote.
public struct HeadingPlacementResult: Hashable, Sendable, Codable {
    /// The headings of the list they moved in, in order.
    public var headings: [HeadingSummary]
    /// The rows written: headings only, whatever the items under them.
    public var rowsWritten: Int
    /// How many of those were headings re-spread to make room.
    public var rowsRespread: Int

    /// Creates the result from its parts.
    public init(headings: [HeadingSummary], rowsWritten: Int, rowsRespread: Int) {
        self.headings = headings
        self.rowsWritten = rowsWritten
        self.rowsRespread = rowsRespread
    }
}

/// A heading deleted, and how many items went with it.
public struct DeletedHeadingResult: Hashable, Sendable, Codable {
    /// The heading, as it was.
    public var heading: HeadingSummary
    /// How many items were deleted with it.
    public var deletedItems: Int

    /// Creates the result from its parts.
    public init(heading: HeadingSummary, deletedItems: Int) {
        self.heading = heading
        self.deletedItems = deletedItems
    }
}

/// One list, as the list intents return it.
public struct ListResult: Hashable, Sendable, Codable {
    /// The list.
    public var list: ListSummary

    /// Creates the result from its parts.
    public init(list: ListSummary) {
        self.list = list
    }
}

/// Every list, in their order, as ``GetLists`` returns them.
public struct ListsResult: Hashable, Sendable, Codable {
    /// Every list, in the order of `ItemReading.lists()`.
    public var lists: [ListSummary]

    /// Creates the result from its parts.
    public init(lists: [ListSummary]) {
        self.lists = lists
    }
}

/// A deleted list and how many items went with it.
public struct DeletedListResult: Hashable, Sendable, Codable {
    /// The list.
    public var list: ListSummary
    /// How many items were deleted with the list.
    public var deletedItems: Int

    /// Creates the result from its parts.
    public init(list: ListSummary, deletedItems: Int) {
        self.list = list
        self.deletedItems = deletedItems
    }
}

/// An area with its lists, in their order, as intents return it.
public struct AreaSummary: Identifiable, Hashable, Sendable, Codable {
    /// The area's id.
    public var id: Area.ID
    /// The area's name.
    public var name: String
    /// When the area was created.
    public var createdAt: Date
    /// The area's key in the order of the areas.
    public var sortIndex: Int64
    /// The area's lists, in their order there.
    public var lists: [ListSummary]
    /// The ids of the tags set on the area, in the tags' order (depth first, by hand).
    public var tags: [Tag.ID]

    /// Describes `area` with its lists; `tags` are the area's tags in the tags' order, without
    /// them by id.
    public init(_ area: Area, lists: [ListSummary], tags: [Tag.ID]? = nil) {
        id = area.id
        name = area.name
        createdAt = area.createdAt
        sortIndex = area.sortIndex
        self.lists = lists
        self.tags = tags ?? area.tags.sorted()
    }
}

/// One area, as the intents that create and rename one return it.
public struct AreaResult: Hashable, Sendable, Codable {
    /// The area.
    public var area: AreaSummary

    /// Creates the result from its parts.
    public init(area: AreaSummary) {
        self.area = area
    }
}

/// Every area, in their order, as ``GetAreas`` returns them.
public struct AreasResult: Hashable, Sendable, Codable {
    /// Every area, in the order of `ItemReading.areas()`, each with its lists.
    public var areas: [AreaSummary]

    /// Creates the result from its parts.
    public init(areas: [AreaSummary]) {
        self.areas = areas
    }
}

/// A tag, as ``CreateTag`` and ``RenameTag`` return it.
public struct TagResult: Hashable, Sendable, Codable {
    /// The tag.
    public var tag: Tag

    /// Creates the result from its parts.
    public init(tag: Tag) {
        self.tag = tag
    }
}

/// Every tag, depth first in hand order, as ``GetTags`` returns them.
public struct TagsResult: Hashable, Sendable, Codable {
    /// Every tag: each tag, then its children, each group in its order.
    public var tags: [Tag]

    /// Creates the result from its parts.
    public init(tags: [Tag]) {
        self.tags = tags
    }
}

/// What ``MoveTag`` and ``MoveTagsAtOffsets`` did: every tag in its new order, and the rows written.
public struct TagPlacementResult: Hashable, Sendable, Codable {
    /// Every tag, depth first in hand order.
    public var tags: [Tag]
    /// Every row written, the moved tag and re-spread neighbours together.
    public var rowsWritten: Int
    /// The rows of neighbours re-spread to make room (included in ``rowsWritten``).
    public var rowsRespread: Int

    /// Creates the result from its parts.
    public init(tags: [Tag], rowsWritten: Int, rowsRespread: Int) {
        self.tags = tags
        self.rowsWritten = rowsWritten
        self.rowsRespread = rowsRespread
    }
}

/// What ``AddTags`` and ``RemoveTags`` tagged: the items, the list or the area, as they are now.
public struct TaggedResult: Hashable, Sendable, Codable {
    /// The items, with their tags; empty unless items were named.
    public var items: [ItemSummary]
    /// The list, with its tags; empty unless a list was named.
    public var lists: [ListSummary]
    /// The area, with its tags; empty unless an area was named.
    public var areas: [AreaSummary]

    /// Creates the result from its parts.
    public init(items: [ItemSummary] = [], lists: [ListSummary] = [], areas: [AreaSummary] = []) {
        self.items = items
        self.lists = lists
        self.areas = areas
    }
}

/// What ``DeleteTag`` deleted: the tag and every tag under it, as they were.
public struct DeletedTagsResult: Hashable, Sendable, Codable {
    /// The tag, then the tags under it, depth first in hand order.
    public var tags: [Tag]

    /// Creates the result from its parts.
    public init(tags: [Tag]) {
        self.tags = tags
    }
}

/// What ``MoveArea`` and ``MoveAreasAtOffsets`` did: every area in its new order, and the rows written.
public struct AreaPlacementResult: Hashable, Sendable, Codable {
    /// Every area, in order.
    public var areas: [AreaSummary]
    /// Every row written, the moved area and re-spread neighbours together.
    public var rowsWritten: Int
    /// The rows of neighbours re-spread to make room (included in ``rowsWritten``).
    public var rowsRespread: Int

    /// Creates the result from its parts.
    public init(areas: [AreaSummary], rowsWritten: Int, rowsRespread: Int) {
        self.areas = areas
        self.rowsWritten = rowsWritten
        self.rowsRespread = rowsRespread
    }
}

/// A deleted area, and the lists that moved out of it.
public struct DeletedAreaResult: Hashable, Sendable, Codable {
    /// The area, with its lists as they were in it.
    public var area: AreaSummary
    /// Its lists, now in no area, at the bottom of those lists, in their order.
    public var movedLists: [ListSummary]

    /// Creates the result from its parts.
    public init(area: AreaSummary, movedLists: [ListSummary]) {
        self.area = area
        self.movedLists = movedLists
    }
}

/// What ``MoveList`` and ``MoveListsAtOffsets`` did: every list in its new order, and the rows written.
public struct ListPlacementResult: Hashable, Sendable, Codable {
    /// Every list, in order.
    public var lists: [ListSummary]
    /// Every row written, the moved list and re-spread neighbours together.
    public var rowsWritten: Int
    /// The rows of neighbours re-spread to make room (included in ``rowsWritten``).
    public var rowsRespread: Int

    /// Creates the result from its parts.
    public init(lists: [ListSummary], rowsWritten: Int, rowsRespread: Int) {
        self.lists = lists
        self.rowsWritten = rowsWritten
        self.rowsRespread = rowsRespread
    }
}

/// The items in Today on a day, in the order shown, as ``ShowToday`` returns them, and the
/// lists started or due by then.
public struct TodayListing: Hashable, Sendable, Codable {
    /// The day Today is of.
    public var day: Day
    /// The items in the order shown: the day's, then the evening's (``ItemSummary/evening``);
    /// open ones carry their place in Today in ``ItemSummary/position``.
    public var items: [ItemSummary]
    /// The lists Today shows, in the sidebar's order, above its items: those whose start date
    /// or deadline has come (`ItemList.todaySection(on:)`).
    public var lists: [ListSummary]

    /// Creates the result from its parts.
    public init(day: Day, items: [ItemSummary], lists: [ListSummary] = []) {
        self.day = day
        self.items = items
        self.lists = lists
    }
}

/// A page of the Logbook, as ``ShowLogbook`` returns it.
public struct LogbookPage: Hashable, Sendable, Codable {
    /// The page's items, the most recently completed first.
    public var items: [ItemSummary]
    /// How many completed items come before the page.
    public var offset: Int
    /// How many items are completed, of every list: the page is the last when
    /// `offset + items.count` reaches it.
    public var total: Int
    /// The finished lists, completed or canceled, the most recently finished first: on the
    /// first page (`offset` 0), and none on the others.
    public var lists: [ListSummary]

    /// Creates the result from its parts.
    public init(items: [ItemSummary], offset: Int, total: Int, lists: [ListSummary] = []) {
        self.items = items
        self.offset = offset
        self.total = total
        self.lists = lists
    }
}

/// Which kind of ordering a maintenance intent worked on, as its result names it.
public enum OrderingKind: String, Hashable, Sendable, Codable, CaseIterable {
    /// The items of a list under no heading.
    case items
    /// The lists.
    case lists
    /// Today.
    case today
    /// An item's checklist.
    case checklist
    /// The areas.
    case areas
    /// The lists of an area.
    case area
    /// The headings of a list.
    case headings
    /// The items under a heading.
    case heading
    /// The children of a tag, or the tags at the top level.
    case tags

    /// The kind of `scope`.
    public init(_ scope: OrderScope) {
        switch scope {
        case .items: self = .items
        case .lists: self = .lists
        case .today: self = .today
        case .checklist: self = .checklist
        case .areas: self = .areas
        case .area: self = .area
        case .headings: self = .headings
        case .heading: self = .heading
        case .tags: self = .tags
        }
    }
}

/// What ``ValidateList`` found in an ordering, and what it repaired.
public struct ValidationResult: Hashable, Sendable, Codable {
    /// The kind of ordering checked.
    public var scope: OrderingKind
    /// The list whose items were checked; `nil` for the lists and Today.
    public var list: ListSummary?
    /// What the check found and repaired.
    public var report: ValidationReport
    /// Whether the ordering needed nothing.
    public var healthy: Bool

    /// Creates the result from its parts.
    public init(scope: OrderingKind, list: ListSummary?, report: ValidationReport) {
        self.scope = scope
        self.list = list
        self.report = report
        self.healthy = report.isHealthy
    }
}

/// What ``NormalizeList`` wrote.
public struct NormalizeResult: Hashable, Sendable, Codable {
    /// The kind of ordering renumbered.
    public var scope: OrderingKind
    /// The list whose items were renumbered; `nil` for the lists and Today.
    public var list: ListSummary?
    /// The rows written.
    public var rowsWritten: Int

    /// Creates the result from its parts.
    public init(scope: OrderingKind, list: ListSummary?, rowsWritten: Int) {
        self.scope = scope
        self.list = list
        self.rowsWritten = rowsWritten
    }
}

/// What ``Undo`` or ``Redo`` went back over, and what is left.
public struct HistoryResult: Hashable, Sendable, Codable {
    /// The title of the intent undone or redone ("Move Items").
    public var action: String
    /// How many steps can still be undone.
    public var undoCount: Int
    /// How many steps can still be redone.
    public var redoCount: Int

    /// Creates the result from its parts.
    public init(action: String, undoCount: Int, redoCount: Int) {
        self.action = action
        self.undoCount = undoCount
        self.redoCount = redoCount
    }
}

/// What is coming, as ``ShowUpcoming`` returns it: the open items with a start date after
/// ``day``, grouped by that date.
public struct UpcomingListing: Hashable, Sendable, Codable {
    /// The day the view is of.
    public var day: Day
    /// Each start date after ``day`` that has items, in order, with its items.
    public var days: [UpcomingDay]

    /// Creates the result from its parts.
    public init(day: Day, days: [UpcomingDay]) {
        self.day = day
        self.days = days
    }
}

/// One day of ``UpcomingListing``: the lists and the items that start on it, in the sidebar's
/// order of their lists, then the items' places in their lists, and the to-dos repeating series
/// will make on it.
public struct UpcomingDay: Hashable, Sendable, Codable {
    /// The start date.
    public var day: Day
    /// The lists that start on it, in the sidebar's order.
    public var lists: [ListSummary]
    /// The items that start on it.
    public var items: [ItemSummary]
    /// The to-dos repeating series will make on it, oldest series first: not items yet.
    public var projected: [ProjectedRepeat]

    /// Creates the day from its parts.
    public init(day: Day, lists: [ListSummary] = [], items: [ItemSummary], projected: [ProjectedRepeat] = []) {
        self.day = day
        self.lists = lists
        self.items = items
        self.projected = projected
    }
}

/// A to-do a repeating series will make on a day of ``UpcomingListing``.
public struct ProjectedRepeat: Hashable, Sendable, Codable {
    /// The series, as ``GetRepeats`` lists it.
    public var repeating: RepeatSeries
    /// The day.
    public var day: Day

    /// Creates the projection from its parts.
    public init(repeating: RepeatSeries, day: Day) {
        self.repeating = repeating
        self.day = day
    }
}

/// Items grouped by list, in the sidebar's order, as ``ShowAnytime`` and ``ShowSomeday``
/// return them: Someday also holds each list put off to someday, with its items or none.
public struct ItemsByList: Hashable, Sendable, Codable {
    /// The day the view is of; `nil` for Someday, which does not depend on the day.
    public var day: Day?
    /// Each list that has items in the view, or that is put off to someday in Someday, in the
    /// sidebar's order, with its items in the view.
    public var lists: [ListWithItems]

    /// Creates the result from its parts.
    public init(day: Day?, lists: [ListWithItems]) {
        self.day = day
        self.lists = lists
    }
}

/// One list of an ``ItemsByList`` and its items in the view, in their places in the list.
public struct ListWithItems: Hashable, Sendable, Codable {
    /// The list.
    public var list: ListSummary
    /// Its items in the view.
    public var items: [ItemSummary]

    /// Creates the group from its parts.
    public init(list: ListSummary, items: [ItemSummary]) {
        self.list = list
        self.items = items
    }
}

/// A repeating series, as ``GetRepeats`` lists it.
public struct RepeatSeries: Identifiable, Hashable, Sendable, Codable {
    /// The series' id.
    public var id: Series.ID
    /// How it repeats.
    public var rule: RepeatRule
    /// The first date that has no to-do yet, or `nil` once the series has ended
    /// (`Series.next(on:)`).
    public var next: Day?
    /// Whether it makes no to-dos for now.
    public var paused: Bool
    /// The template its to-dos are made from, as an item: its id is the series'.
    public var template: ItemSummary

    /// Creates the description from its parts.
    public init(id: Series.ID, rule: RepeatRule, next: Day?, paused: Bool, template: ItemSummary) {
        (self.id, self.rule, self.next, self.paused, self.template) = (id, rule, next, paused, template)
    }

    private enum CodingKeys: String, CodingKey {
        case id, rule, next, paused, template
    }

    /// Writes every field, `next` as `null` once the series has ended.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(rule, forKey: .rule)
        try container.encode(next, forKey: .next)
        try container.encode(paused, forKey: .paused)
        try container.encode(template, forKey: .template)
    }
}

/// Every repeating series, oldest first, as ``GetRepeats`` returns them.
public struct RepeatsResult: Hashable, Sendable, Codable {
    /// The series.
    public var series: [RepeatSeries]

    /// Creates the result from its parts.
    public init(series: [RepeatSeries]) { self.series = series }
}

/// One repeating series, as ``PauseRepeat`` and ``ResumeRepeat`` return it.
public struct RepeatSeriesResult: Hashable, Sendable, Codable {
    /// The series.
    public var series: RepeatSeries

    /// Creates the result from its parts.
    public init(series: RepeatSeries) { self.series = series }
}
