public import ArrangeModel
import ArrangeChanges
import ArrangeStore
public import Foundation

/// Sets when items are meant to be done: from a start date (perhaps in its evening), someday,
/// or anytime. Their places in their lists do not change.
///
/// ```swift
/// try await SetWhen([milk], to: .on(try Day(parsing: "2026-12-01"))).perform(in: environment)
/// try await SetWhen([call], to: .on(today, evening: true)).perform(in: environment)
/// try await SetWhen([novel], to: .someday).perform(in: environment)
/// ```
public struct SetWhen: ArrangeIntent {
    public static let title = "Set When"

    /// The items, each once; repeats are ignored.
    public var items: [Item.ID]
    /// When they are meant to be done.
    public var when: When
    /// A reminder at this time on their start date, set in the same step; `nil` leaves their reminders as they are.
    public var reminder: TimeOfDay?

    /// Sets when `items` are meant to be done to `when`, with a reminder at `reminder` when it is given.
    public init(_ items: [Item.ID], to when: When, reminder: TimeOfDay? = nil) {
        self.items = items
        self.when = when
        self.reminder = reminder
    }

    /// Someday and anytime take the items' reminders away, as in Things: a reminder fires on a start date.
    ///
    /// - Returns: The items, and how many of them changed.
    /// - Throws: ``IntentError/noItemsNamed`` or ``IntentError/unknownItem(_:)``, with nothing written;
    ///   ``IntentError/reminderWithoutDay`` for a reminder with someday or anytime.
    public func run(in context: IntentContext) throws -> ItemsResult {
        guard reminder == nil || when.startDate != nil else { throw IntentError.reminderWithoutDay }
        var result = try edit(\.when, of: items, in: context, action: Self.title, to: { _ in when }) { WhenSet(ids: $0, when: $1) }
        if when.startDate == nil || reminder != nil {
            let reminders = try edit(\.reminder, of: items, in: context, action: Self.title, to: { _ in reminder }) { ReminderSet(ids: $0, reminder: $1) }
            if reminders.changed > 0 { result = ItemsResult(items: reminders.items, changed: max(result.changed, reminders.changed)) }
        }
        return try keepingToday(result, in: context, action: Self.title)
    }
}

/// Gives items a deadline, the day they are due, or takes theirs away. A new deadline brings
/// an item into Today again when it comes, though its old one had been dismissed.
///
/// ```swift
/// try await SetDeadline([taxes], to: try Day(parsing: "2027-04-15")).perform(in: environment)
/// try await SetDeadline([taxes], to: nil).perform(in: environment)
/// ```
public struct SetDeadline: ArrangeIntent {
    public static let title = "Set Deadline"

    /// The items, each once; repeats are ignored.
    public var items: [Item.ID]
    /// The day they are due, or `nil` for none.
    public var deadline: Day?

    /// Sets the deadline of `items` to `deadline`; `nil` takes it away.
    public init(_ items: [Item.ID], to deadline: Day?) {
        self.items = items
        self.deadline = deadline
    }

    /// - Returns: The items, and how many of them changed.
    /// - Throws: ``IntentError/noItemsNamed`` or ``IntentError/unknownItem(_:)``, with nothing written.
    public func run(in context: IntentContext) throws -> ItemsResult {
        // A new deadline is not dismissed, though the old one was.
        let result = try edit(\.deadline, of: items, in: context, action: Self.title, to: { _ in deadline }) { DeadlineSet(ids: $0, deadline: $1) }
        return try keepingToday(result, in: context, action: Self.title)
    }
}

/// Sets when a list is meant to be worked on, as Things schedules a project: from a start date
/// (perhaps in its evening), someday, or anytime. Its items keep their own dates.
///
/// A list put off to someday leaves the sidebar for the Someday view. One with a start date
/// shows in Upcoming until that day, and in Today from then on.
///
/// ```swift
/// try await SetListWhen(list: garden, to: .on(try Day(parsing: "2027-03-01"))).perform(in: environment)
/// try await SetListWhen(list: novel, to: .someday).perform(in: environment)
/// ```
public struct SetListWhen: ArrangeIntent {
    public static let title = "Set List When"

    /// The list.
    public var list: ItemList.ID
    /// When it is meant to be worked on.
    public var when: When

    /// Sets when `list` is meant to be worked on to `when`.
    public init(list: ItemList.ID, to when: When) {
        self.list = list
        self.when = when
    }

    /// - Returns: The list as it is now.
    /// - Throws: ``IntentError/unknownList(_:)``; ``IntentError/defaultListStaysInSidebar(_:)``
    ///   for someday on the default list, where new items go. Nothing is written then.
    public func run(in context: IntentContext) throws -> ListResult {
        let transaction = try context.writing(Self.title)
        let list = try context.list(self.list)
        guard list.when != when else { return ListResult(list: try context.summary(of: list)) }
        if when.isSomeday, try transaction.defaultListID() == list.id { throw IntentError.defaultListStaysInSidebar(list.name) }
        try context.apply(ListWhenSet(id: list.id, when: when), action: Self.title)
        return ListResult(list: try context.summary(of: try context.list(list.id)))
    }
}

/// Gives a list a deadline, the day it is due, or takes its own away. From that day on, the
/// list shows in Today. Its items keep their own deadlines.
///
/// ```swift
/// try await SetListDeadline(list: taxes, to: try Day(parsing: "2027-04-15")).perform(in: environment)
/// ```
public struct SetListDeadline: ArrangeIntent {
    public static let title = "Set List Deadline"

    /// The list.
    public var list: ItemList.ID
    /// The day it is due, or `nil` for none.
    public var deadline: Day?

    /// Sets the deadline of `list` to `deadline`; `nil` takes it away.
    public init(list: ItemList.ID, to deadline: Day?) {
        self.list = list
        self.deadline = deadline
    }

    /// - Returns: The list as it is now.
    /// - Throws: ``IntentError/unknownList(_:)``, with nothing written.
    public func run(in context: IntentContext) throws -> ListResult {
        let list = try context.list(self.list)
        if list.deadline != deadline { try context.apply(ListDeadlineSet(id: list.id, deadline: deadline), action: Self.title) }
        return ListResult(list: try context.summary(of: try context.list(list.id)))
    }
}

/// Sets when an item was created, for one that came from elsewhere with a date of its own,
/// such as a link of Things' URL scheme (`creation-date`). Every device takes the date as given.
public struct SetItemCreationDate: ArrangeIntent {
    public static let title = "Set Creation Date"

    /// The item.
    public var item: Item.ID
    /// When it was created.
    public var date: Date

    /// Sets when `item` was created to `date`.
    public init(item: Item.ID, to date: Date) {
        self.item = item
        self.date = date
    }

    /// - Returns: The item as it is now.
    /// - Throws: ``IntentError/unknownItem(_:)``, with nothing written.
    public func run(in context: IntentContext) throws -> ItemResult {
        let item = try context.item(self.item)
        if item.createdAt != date { try context.apply(ItemCreationDateSet(id: item.id, at: date), action: Self.title) }
        return ItemResult(item: try context.summary(of: try context.item(item.id)))
    }
}

/// Sets when a list was created, for one that came from elsewhere with a date of its own, such
/// as a link of Things' URL scheme (`creation-date`). Every device takes the date as given.
public struct SetListCreationDate: ArrangeIntent {
    public static let title = "Set List Creation Date"

    /// The list.
    public var list: ItemList.ID
    /// When it was created.
    public var date: Date

    /// Sets when `list` was created to `date`.
    public init(list: ItemList.ID, to date: Date) {
        self.list = list
        self.date = date
    }

    /// - Returns: The list as it is now.
    /// - Throws: ``IntentError/unknownList(_:)``, with nothing written.
    public func run(in context: IntentContext) throws -> ListResult {
        let list = try context.list(self.list)
        if list.createdAt != date { try context.apply(ListCreationDateSet(id: list.id, at: date), action: Self.title) }
        return ListResult(list: try context.summary(of: try context.list(list.id)))
    }
}

/// Takes away the keys in Today's hand order of the items of `result` that their new dates
/// take out of Today, so that each arrives at the top when it comes back; the result then
/// tells the items as they are.
private func keepingToday(_ result: ItemsResult, in context: IntentContext, action: String) throws -> ItemsResult {
    let day = context.today()
    let leaving = try result.items.filter { $0.todayIndex != nil }.map { try context.item($0.id) }.filter { !$0.isInToday(on: day) }
    guard !leaving.isEmpty else { return result }
    try releaseTodayKeys(of: leaving, in: context, action: action)
    return ItemsResult(items: try context.summaries(ofItems: result.items.map(\.id)), changed: result.changed)
}

/// The open items and the lists with a start date after a day, grouped by their start date:
/// what is coming.
///
/// The days come in order; within a day, the lists come first, in the sidebar's order, then the
/// items, in the sidebar's order of their lists, then in their places in their lists.
///
/// ```swift
/// let upcoming = try await ShowUpcoming().perform(in: environment)
/// for day in upcoming.days { print(day.day, day.items.map(\.title)) }
/// ```
///
/// - Complexity: O(n) for the n open items of every list: it reads them all.
public struct ShowUpcoming: ArrangeIntent {
    public static let title = "Show Upcoming"

    /// The day the view is of; `nil` for today where the person is (``IntentContext/today()``).
    public var day: Day?
    /// Only the items that carry every one of these tags, on themselves, their list or its area, each tag or one under it; every item for none.
    public var tags: [Tag.ID]
    /// The last day the to-dos of repeating series are projected through; `nil` for 28 days
    /// after ``day``, the least it projects.
    public var through: Day?

    /// Shows what comes after `day`, today by default, of the items that carry every one of
    /// `tags`, with the to-dos repeating series will make through `through`.
    public init(day: Day? = nil, tags: [Tag.ID] = [], through: Day? = nil) {
        self.day = day
        self.tags = tags
        self.through = through
    }

    public var isReadOnly: Bool { true }

    /// The days the view projects the to-dos of repeating series through, at least.
    public static let projectedDays = 28
    /// The most days after the view's day that `through` may name: ten years.
    public static let mostProjectedDays = 3_660

    /// - Throws: ``IntentError/projectionTooLong(_:)`` for a `through` more than
    ///   ``mostProjectedDays`` after the day.
    public func run(in context: IntentContext) throws -> UpcomingListing {
        let day = self.day ?? context.today()
        if let through, through.ordinal - day.ordinal > Self.mostProjectedDays { throw IntentError.projectionTooLong(Self.mostProjectedDays) }
        let startsLater = { (when: When) in when.startDate.map { $0 > day } ?? false }
        let filter = try TagFilter(tags, in: context)
        var byDay: [Day: [Item]] = [:]
        for (_, items) in try openItemsByList(in: context, filter: filter, lists: \.isActive, where: { startsLater($0.when) }) {
            for item in items {
                if let start = item.when.startDate { byDay[start, default: []].append(item) }
            }
        }
        var listsByDay: [Day: [ListSummary]] = [:]
        for list in try context.reading.lists() where list.isActive && startsLater(list.when) && filter?.passesAll(of: list.id) != false {
            if let start = list.when.startDate { listsByDay[start, default: []].append(try context.summary(of: list)) }
        }
        let last = max(day.adding(days: Self.projectedDays), through ?? day)
        var projected: [Day: [ProjectedRepeat]] = [:]
        for series in try context.transaction.allSeries() where filter?.passes(series.template) ?? true {
            let dates = series.upcomingDates(after: day, through: last)
            guard !dates.isEmpty else { continue }
            let description = try context.description(of: series, on: day)
            for date in dates { projected[date, default: []].append(ProjectedRepeat(repeating: description, day: date)) }
        }
        return UpcomingListing(day: day, days: try Set(byDay.keys).union(listsByDay.keys).union(projected.keys).sorted().map { start in
            UpcomingDay(day: start, lists: listsByDay[start] ?? [], items: try context.summaries(of: byDay[start] ?? []), projected: projected[start] ?? [])
        })
    }
}

/// The open items that can be done now, grouped by list in the sidebar's order: those that are
/// not someday and have no start date after the day, Today's included, in the lists of the
/// sidebar that have started by then.
///
/// - Complexity: O(n) for the n open items of every list: it reads them all.
public struct ShowAnytime: ArrangeIntent {
    public static let title = "Show Anytime"

    /// The day the view is of; `nil` for today where the person is (``IntentContext/today()``).
    public var day: Day?
    /// Only the items that carry every one of these tags, on themselves, their list or its area, each tag or one under it; every item for none.
    public var tags: [Tag.ID]

    /// Shows what can be done on `day`, today by default, of the items that carry every one of `tags`.
    public init(day: Day? = nil, tags: [Tag.ID] = []) {
        self.day = day
        self.tags = tags
    }

    public var isReadOnly: Bool { true }

    public func run(in context: IntentContext) throws -> ItemsByList {
        let day = self.day ?? context.today()
        let started = { (list: ItemList) in list.isInSidebar && list.when.startDate.map { $0 <= day } ?? true }
        // Through `perform`, the day's due to-dos are made first; a read-only store shows them as they will be, at the top of their lists.
        let projected = Dictionary(grouping: try context.reading.dueRepeats(on: day), by: \.listID)
        return try ItemsByList(day: day, groups: openItemsByList(in: context, filter: try TagFilter(tags, in: context), lists: started, adding: projected) { item in
            switch item.when {
            case .anytime: true
            case .someday: false
            case .on(let start, _): start <= day
            }
        }, in: context)
    }
}

/// The open items put off to someday, grouped by list in the sidebar's order, and the lists
/// put off to someday, each with its open items that have no start date.
///
/// - Complexity: O(n) for the n open items of every list: it reads them all.
public struct ShowSomeday: ArrangeIntent {
    public static let title = "Show Someday"

    /// Only the items that carry every one of these tags, on themselves, their list or its area, each tag or one under it; every item for none.
    public var tags: [Tag.ID]

    /// Shows what is put off to someday, which does not depend on the day, of the items that
    /// carry every one of `tags`.
    public init(tags: [Tag.ID] = []) {
        self.tags = tags
    }

    public var isReadOnly: Bool { true }

    public func run(in context: IntentContext) throws -> ItemsByList {
        try ItemsByList(
            day: nil,
            groups: openItemsByList(in: context, filter: try TagFilter(tags, in: context), lists: \.isActive, keepingEmpty: \.when.isSomeday) { item, list in
                list.when.isSomeday ? item.when.startDate == nil : item.when == .someday
            }, in: context)
    }
}

/// The open items of every list that `includeList` keeps, those that `include` keeps and that
/// `filter` passes (every one, for none), grouped by list, in the sidebar's order of the lists and each
/// list's display order.
///
/// - Parameters:
///   - keepingEmpty: Whether a list with no such item is kept, when it carries the tags.
///   - projected: Items in no table yet, by list, that come first in their lists.
private func openItemsByList(
    in context: IntentContext, filter: TagFilter?, lists includeList: (ItemList) -> Bool, keepingEmpty: (ItemList) -> Bool = { _ in false },
    adding projected: [ItemList.ID: [Item]] = [:], where include: (Item, ItemList) -> Bool
) throws -> [(ItemList, [Item])] {
    return try context.reading.lists().filter(includeList).compactMap { list in
        let stored = try context.reading.items(in: list.id, visibility: .open, offset: 0, limit: .max)
        let items = ((projected[list.id] ?? []) + stored).filter { include($0, list) && filter?.passes($0) != false }
        return items.isEmpty && !(keepingEmpty(list) && filter?.passesAll(of: list.id) != false) ? nil : (list, items)
    }
}

/// ``openItemsByList(in:filter:lists:keepingEmpty:adding:where:)`` for a view whose items are kept by their own fields.
private func openItemsByList(
    in context: IntentContext, filter: TagFilter?, lists includeList: (ItemList) -> Bool, adding projected: [ItemList.ID: [Item]] = [:],
    where include: (Item) -> Bool
) throws -> [(ItemList, [Item])] {
    try openItemsByList(in: context, filter: filter, lists: includeList, adding: projected) { item, _ in include(item) }
}

extension ItemsByList {
    /// The result of groups of items, each list described.
    fileprivate init(day: Day?, groups: [(ItemList, [Item])], in context: IntentContext) throws {
        self.init(day: day, lists: try groups.map { list, items in
            ListWithItems(list: try context.summary(of: list), items: try context.summaries(of: items))
        })
    }
}
