public import Foundation

/// A repeating to-do, as Things keeps one: a rule, and a hidden template each of its to-dos is
/// made from.
///
/// A ``RepeatRule/Kind/fixed`` series makes a to-do on each of its rule's dates, once that day
/// comes; an ``RepeatRule/Kind/afterCompletion`` series makes the next when the current one
/// is completed or canceled. The template shows in no view: each to-do made from it is an
/// ``Item`` of its own, whose ``Item/series`` names the series.
///
/// The to-dos a series makes have ids that every device derives alike (``itemID(on:)``,
/// ``itemID(following:)``), so that two devices that make the same to-do make one.
public struct Series: Identifiable, Hashable, Sendable, Codable {
    /// A series' identity.
    public typealias ID = Identifier<Series>

    /// The series' stable identity.
    public var id: ID
    /// How it repeats.
    public var rule: RepeatRule
    /// The first to-do's start date: a fixed rule's dates count from it.
    public var start: Day
    /// The latest date a to-do was made for, or `nil` before any: the dates up to it are done
    /// with, whether their to-dos were made, skipped or deleted since.
    public var madeThrough: Day?
    /// How many to-dos the series made after its first: what an `afterCompletion` rule's
    /// `ends.after` counts.
    public var madeCount: Int
    /// Whether it makes no to-dos for now.
    public var isPaused: Bool
    /// The list its to-dos go to.
    public var listID: ItemList.ID
    /// The heading of that list they go under, or `nil` for none.
    public var heading: Heading.ID?
    /// Their title.
    public var title: String
    /// Their notes.
    public var notes: String
    /// The tags set on each.
    public var tags: Set<Tag.ID>
    /// The titles of the checklist each gets, in order.
    public var checklist: [String]
    /// The time of each one's reminder when the rule names none; `nil` for none.
    public var reminder: TimeOfDay?
    /// When the series was made.
    public var createdAt: Date
    /// When its rule or its template, or whether it is paused, last changed, or a to-do was made.
    public var updatedAt: Date

    /// A series with these fields; `updatedAt` defaults to `createdAt`.
    public init(
        id: ID = ID(), rule: RepeatRule, start: Day, madeThrough: Day? = nil, madeCount: Int = 0, isPaused: Bool = false,
        listID: ItemList.ID, heading: Heading.ID? = nil, title: String, notes: String = "", tags: Set<Tag.ID> = [], checklist: [String] = [],
        reminder: TimeOfDay? = nil, createdAt: Date, updatedAt: Date? = nil
    ) {
        (self.id, self.rule, self.start, self.madeThrough, self.madeCount) = (id, rule, start, madeThrough, madeCount)
        self.isPaused = isPaused
        (self.listID, self.heading, self.title, self.notes, self.tags, self.checklist) = (listID, heading, title, notes, tags, checklist)
        self.reminder = reminder
        (self.createdAt, self.updatedAt) = (createdAt, updatedAt ?? createdAt)
    }

    // MARK: Its dates

    /// The date of a fixed series' to-do that `day` makes: the latest of its rule's dates on
    /// or before `day` that comes after ``madeThrough``; `nil` when there is none, or the series
    /// is paused or not fixed.
    ///
    /// When several dates were missed, only the latest is made; the others still count
    /// toward the rule's `ends.after`.
    ///
    /// - Complexity: O(d) for the d dates of the rule from ``madeThrough`` through `day`; from
    ///   ``start`` for a rule that ends after a count of dates.
    public func dueDate(on day: Day) -> Day? {
        guard rule.type == .fixed, !isPaused else { return nil }
        var due: Day?
        for date in rule.dates(from: start, skippingTo: madeThrough ?? start) {
            guard date <= day else { break }
            if madeThrough.map({ date > $0 }) ?? true { due = date }
        }
        return due
    }

    /// The dates of a fixed series' to-dos still to be made, after ``madeThrough`` and after
    /// `day`, through `last`; none when it is paused or not fixed.
    ///
    /// - Complexity: O(d) for the d dates of the rule from `day` through `last`.
    public func upcomingDates(after day: Day, through last: Day) -> [Day] {
        guard rule.type == .fixed, !isPaused else { return [] }
        let after = max(day, madeThrough ?? day)
        return Array(rule.dates(from: start, skippingTo: after).lazy.prefix { $0 <= last }.filter { $0 > after })
    }

    /// The first date that has no to-do yet, or `nil` once the series has ended by its rule's
    /// `ends`: for a fixed series, the first of its rule's dates after ``madeThrough``; after
    /// completion, the start of the to-do that completing the current one on `day` would make.
    public func next(on day: Day) -> Day? {
        switch rule.type {
        case .fixed:
            return rule.dates(from: start, skippingTo: madeThrough ?? start).first { date in madeThrough.map { date > $0 } ?? true }
        case .afterCompletion:
            if case .after(let count) = rule.ends, madeCount >= count - 1 { return nil }
            let next = rule.next(afterCompletionOn: day)
            if case .on(let end) = rule.ends, next > end { return nil }
            return next
        }
    }

    /// The template as an item, under the series' id, starting on `day`: what each to-do made
    /// on that day starts as, but for its id and its checklist.
    public func template(on day: Day? = nil) -> Item {
        let start = day ?? start
        return Item(
            id: Item.ID(rawValue: id.rawValue), listID: listID, title: title, notes: notes, sortIndex: 0, createdAt: createdAt, updatedAt: updatedAt,
            heading: heading, when: .on(start), deadline: rule.deadlineOffset.map { start.adding(days: $0) }, tags: tags,
            reminder: rule.reminder ?? reminder, series: id)
    }

    /// The template as an item, starting on the series' first day.
    public var template: Item { template() }

    // MARK: The ids of its to-dos

    /// The id of the to-do a fixed series makes for `date`: the same on every device.
    public func itemID(on date: Day) -> Item.ID {
        Item.ID(rawValue: UUID(named: "day \(date)", in: id.rawValue))
    }

    /// The id of the to-do an `afterCompletion` series makes when the to-do `completed` is
    /// completed or canceled: the same on every device, whichever completes it.
    public func itemID(following completed: Item.ID) -> Item.ID {
        Item.ID(rawValue: UUID(named: "after \(completed.text)", in: id.rawValue))
    }

    /// The id of the `index`-th entry of the checklist of the to-do `item` made from a series.
    public static func checklistItemID(_ index: Int, of item: Item.ID) -> ChecklistItem.ID {
        ChecklistItem.ID(rawValue: UUID(named: "checklist \(index)", in: item.rawValue))
    }
}

extension Series {
    private enum CodingKeys: String, CodingKey {
        case id, rule, start, madeThrough, madeCount, isPaused = "paused", listID, heading, title, notes, tags, checklist, reminder, createdAt, updatedAt
    }

    /// Reads the form ``encode(to:)`` writes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(ID.self, forKey: .id), rule: try container.decode(RepeatRule.self, forKey: .rule),
            start: try container.decode(Day.self, forKey: .start), madeThrough: try container.decodeIfPresent(Day.self, forKey: .madeThrough),
            madeCount: try container.decodeIfPresent(Int.self, forKey: .madeCount) ?? 0,
            isPaused: try container.decodeIfPresent(Bool.self, forKey: .isPaused) ?? false,
            listID: try container.decode(ItemList.ID.self, forKey: .listID), heading: try container.decodeIfPresent(Heading.ID.self, forKey: .heading),
            title: try container.decode(String.self, forKey: .title), notes: try container.decodeIfPresent(String.self, forKey: .notes) ?? "",
            tags: Set(try container.decodeIfPresent([Tag.ID].self, forKey: .tags) ?? []),
            checklist: try container.decodeIfPresent([String].self, forKey: .checklist) ?? [],
            reminder: try container.decodeIfPresent(TimeOfDay.self, forKey: .reminder),
            createdAt: try container.decode(Date.self, forKey: .createdAt), updatedAt: try container.decode(Date.self, forKey: .updatedAt))
    }

    /// Writes every field; `tags` by id, and those that are `nil`, empty, 0 or `false` left out,
    /// so that the same series always writes the same bytes.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(rule, forKey: .rule)
        try container.encode(start, forKey: .start)
        try container.encodeIfPresent(madeThrough, forKey: .madeThrough)
        if madeCount != 0 { try container.encode(madeCount, forKey: .madeCount) }
        if isPaused { try container.encode(true, forKey: .isPaused) }
        try container.encode(listID, forKey: .listID)
        try container.encodeIfPresent(heading, forKey: .heading)
        try container.encode(title, forKey: .title)
        if !notes.isEmpty { try container.encode(notes, forKey: .notes) }
        if !tags.isEmpty { try container.encode(tags.sorted(), forKey: .tags) }
        if !checklist.isEmpty { try container.encode(checklist, forKey: .checklist) }
        try container.encodeIfPresent(reminder, forKey: .reminder)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
    }
}
