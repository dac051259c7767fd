public import ArrangeModel
import ArrangeChanges
import ArrangeStore
import Foundation

/// Makes an item the first to-do of a new repeating series, changes the rule of the series it
/// belongs to, or takes the repeat off (`rule` `nil`).
///
/// A new series takes the item as its template: its list, heading, title, notes, tags,
/// checklist and reminder. It starts on the item's start date; an item without one gets
/// `day`'s. Later to-dos follow a changed rule, and the to-dos made so far stay.
///
/// ```swift
/// let rent = try RepeatRule(.fixed, every: 1, .month, monthDays: [1])
/// try await SetRepeat(item: payRent, repeat: rent).perform(in: environment)
/// try await SetRepeat(item: payRent, repeat: nil).perform(in: environment)
/// ```
public struct SetRepeat: ArrangeIntent {
    public static let title = "Set Repeat"

    /// The item.
    public var item: Item.ID
    /// How it repeats; `nil` takes the repeat off.
    public var rule: RepeatRule?
    /// The start date an item without one gets; `nil` for today where the person is.
    public var day: Day?

    /// Makes `item` repeat by `rule`, or stop repeating (`nil`).
    public init(item: Item.ID, repeat rule: RepeatRule?, day: Day? = nil) {
        self.item = item
        self.rule = rule
        self.day = day
    }

    /// - Returns: The item, with its series and rule.
    /// - Throws: ``IntentError/unknownItem(_:)``, or ``IntentError/inTrash(_:)`` for an item in
    ///   the Trash; nothing is written then.
    public func run(in context: IntentContext) throws -> ItemResult {
        var item = try context.item(self.item)
        try context.ensureOutOfTrash([item])
        let existing = try item.series.flatMap { try context.transaction.series(id: $0) }
        switch (existing, rule) {
        case (nil, nil):
            if item.series != nil { try context.apply(SeriesSet(ids: [item.id], series: nil), action: Self.title) }
        case (let series?, nil):
            try context.apply(RepeatSet(series, rule: nil), action: Self.title)
            try context.apply(SeriesSet(ids: [item.id], series: nil), action: Self.title)
        case (var series?, let rule?):
            // A series after completion made through no date: a fixed rule counts from its to-do's.
            if rule.type == .fixed, series.madeThrough == nil { series.madeThrough = max(series.start, item.when.startDate ?? series.start) }
            try context.apply(RepeatSet(series, rule: rule), action: Self.title)
        case (nil, let rule?):
            if item.when.startDate == nil {
                _ = try SetWhen([item.id], to: .on(day ?? context.today())).run(in: context)
                item = try context.item(item.id)
            }
            let start = item.when.startDate ?? day ?? context.today()
            let checklist = try context.transaction.checklists(of: [item.id])[item.id] ?? []
            let series = Series(
                id: Series.ID(rawValue: context.environment.newID()), rule: rule, start: start, madeThrough: rule.type == .fixed ? start : nil,
                listID: item.listID, heading: item.heading, title: item.title, notes: item.notes, tags: item.tags,
                checklist: checklist.map(\.title), reminder: item.reminder, createdAt: context.now())
            try context.apply(RepeatSet(series, rule: rule), action: Self.title)
            try context.apply(SeriesSet(ids: [item.id], series: series.id), action: Self.title)
        }
        return ItemResult(item: try context.summary(of: try context.item(item.id)))
    }
}

/// Stops a repeating series making to-dos for now: a fixed series makes none while the dates
/// pass (resumed, it makes the latest), and one after completion none when its to-do is done.
public struct PauseRepeat: ArrangeIntent {
    public static let title = "Pause Repeat"

    /// The series.
    public var series: Series.ID

    /// Pauses `series`.
    public init(series: Series.ID) { self.series = series }

    /// - Returns: The series.
    /// - Throws: ``IntentError/unknownSeries(_:)``.
    public func run(in context: IntentContext) throws -> RepeatSeriesResult {
        try setPaused(series, true, in: context, action: Self.title)
    }
}

/// Lets a paused repeating series make to-dos again: a fixed one makes the latest of the dates
/// that passed meanwhile, as after any absence, the next time a view of the day is read.
public struct ResumeRepeat: ArrangeIntent {
    public static let title = "Resume Repeat"

    /// The series.
    public var series: Series.ID

    /// Resumes `series`.
    public init(series: Series.ID) { self.series = series }

    /// - Returns: The series.
    /// - Throws: ``IntentError/unknownSeries(_:)``.
    public func run(in context: IntentContext) throws -> RepeatSeriesResult {
        try setPaused(series, false, in: context, action: Self.title)
    }
}

private func setPaused(_ id: Series.ID, _ paused: Bool, in context: IntentContext, action: String) throws -> RepeatSeriesResult {
    guard try context.transaction.series(id: id) != nil else { throw IntentError.unknownSeries(id) }
    try context.apply(RepeatPaused(series: id, paused: paused), action: action)
    guard let series = try context.transaction.series(id: id) else { throw IntentError.unknownSeries(id) }
    return RepeatSeriesResult(series: try context.description(of: series))
}

/// Every repeating series, oldest first, with its rule, its next date and its template: the
/// one place the templates show.
public struct GetRepeats: ArrangeIntent {
    public static let title = "Get Repeats"

    /// The day `next` counts from for a series after completion; `nil` for today.
    public var day: Day?

    /// Lists the series, as of `day` (today by default).
    public init(day: Day? = nil) { self.day = day }

    public var isReadOnly: Bool { true }

    public func run(in context: IntentContext) throws -> RepeatsResult {
        let day = self.day ?? context.today()
        return RepeatsResult(series: try context.transaction.allSeries().map { try context.description(of: $0, on: day) })
    }
}

/// Makes the to-dos of the fixed series that fall due by `day`, each series' latest due date
/// alone, with the same ids on every device.
///
/// Views of a day (``DatedView``) performed through an environment run it first, in a
/// transaction of its own, so that a person who opens Today finds the day's to-dos there; an
/// observation does not, so an app that observes a view performs it when the day begins. It
/// is no step of the undo history.
public struct MakeDueRepeats: ArrangeIntent {
    public static let title = "Make Due Repeats"

    /// The day; `nil` for today where the person is.
    public var day: Day?

    /// Makes the to-dos due by `day` (today by default).
    public init(day: Day? = nil) { self.day = day }

    /// - Returns: The to-dos made.
    /// - Complexity: O(s + d) for s series and the d dates of their rules up to `day`.
    public func run(in context: IntentContext) throws -> ItemsResult {
        let day = self.day ?? context.today()
        var made: [Item.ID] = []
        for (series, date) in try Self.due(on: day, in: context.transaction) {
            let id = series.itemID(on: date)
            // Due means a date after those made: the change makes the to-do, whose id no other has.
            try context.apply(RepeatMade(series, id: id, day: date, place: SyncPlace(after: nil, before: nil)), action: Self.title, inHistory: false)
            made.append(id)
        }
        return ItemsResult(items: try context.summaries(ofItems: made), changed: made.count)
    }

    /// Each fixed series with a to-do due by `day`, and the date of that to-do.
    static func due(on day: Day, in transaction: any ItemReading) throws -> [(Series, Day)] {
        try transaction.allSeries().compactMap { series in series.dueDate(on: day).map { (series, $0) } }
    }
}

/// A view of a day, which shows the to-dos of repeating series due that day: an environment's
/// `perform` makes them first (``MakeDueRepeats``), in a transaction of its own; its
/// `observe` does not.
public protocol DatedView: ArrangeIntent {
    /// The day the view is of; `nil` for today where the person is.
    var day: Day? { get }
}

extension ShowToday: DatedView {}
extension ShowUpcoming: DatedView {}
extension ShowAnytime: DatedView {}

extension IntentContext {
    /// Makes the next to-do of each `afterCompletion` series whose to-do among `closed` was
    /// just completed or canceled on `day`: its rule's `every` units after `day`, right after
    /// the closed one in its list. A paused series, or one whose rule has ended, makes none.
    func makeNextRepeats(after closed: [Item], on day: Day, action: String) throws {
        for item in closed {
            guard let id = item.series, let series = try transaction.series(id: id), series.rule.type == .afterCompletion, !series.isPaused,
                  let next = series.next(on: day)
            else { continue }
            let place = SyncPlace(after: item.id.entryID, before: nil)
            try apply(RepeatMade(series, id: series.itemID(following: item.id), day: next, place: place), action: action)
        }
    }

    /// A series as ``GetRepeats`` describes it, its next date counted from `day` (today by default).
    func description(of series: Series, on day: Day? = nil) throws -> RepeatSeries {
        let next = series.next(on: day ?? today())
        let template = series.template(on: next)
        let checklist = series.checklist.enumerated().map { ChecklistItem(id: Series.checklistItemID($0.offset, of: template.id), itemID: template.id, title: $0.element) }
        var summary = ItemSummary(
            template, listName: try transaction.list(id: series.listID)?.name ?? "", checklist: checklist, today: day ?? today(), tags: try ordered(series.tags))
        summary.repeat = series.rule
        return RepeatSeries(id: series.id, rule: series.rule, next: next, paused: series.isPaused, template: summary)
    }
}
