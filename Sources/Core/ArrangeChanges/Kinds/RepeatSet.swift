public import ArrangeModel
package import ArrangeStore
import Foundation

/// A repeating series got a rule and a template, new or changed, or was taken off (`rule`
/// `nil`, absent from the JSON): its to-dos made so far stay.
///
/// A change carries the whole template, so that it applies alike on every replica. The dates
/// made so far (`madeThrough`, `madeCount`) only grow: a change that carries fewer, made
/// before a to-do of the series reached it, leaves them as they are.
public struct RepeatSet: ChangeKind {
    package static let name: StaticString = "setRepeat"

    /// The series.
    public var series: Series.ID
    /// Its rule; `nil` takes the series off.
    public var rule: RepeatRule?
    /// The first to-do's start date.
    public var start: Day
    /// The latest date a to-do was made for, or `nil` for none.
    public var madeThrough: Day?
    /// How many to-dos the series made after its first.
    public var madeCount: Int
    /// The list its to-dos go to.
    public var list: ItemList.ID
    /// The heading they go under; `nil` for none.
    public var heading: Heading.ID?
    /// Their title.
    public var title: String
    /// Their notes.
    public var notes: String
    /// Their tags.
    public var tags: [Tag.ID]
    /// The titles of their checklist, in order.
    public var checklist: [String]
    /// Their reminder when the rule names none; `nil` for none.
    public var reminder: TimeOfDay?

    /// The change that gives `series` its rule (or takes it off, `rule` `nil`) and its template.
    public init(_ series: Series, rule: RepeatRule?) {
        (self.series, self.rule, start, madeThrough, madeCount) = (series.id, rule, series.start, series.madeThrough, series.madeCount)
        (list, heading, title, notes, tags, checklist, reminder) = (
            series.listID, series.heading, series.title, series.notes, series.tags.sorted(), series.checklist, series.reminder
        )
    }

    /// The change of these parts.
    public init(
        series: Series.ID, rule: RepeatRule?, start: Day, madeThrough: Day?, madeCount: Int, list: ItemList.ID, heading: Heading.ID?, title: String,
        notes: String, tags: [Tag.ID], checklist: [String], reminder: TimeOfDay?
    ) {
        (self.series, self.rule, self.start, self.madeThrough, self.madeCount) = (series, rule, start, madeThrough, madeCount)
        (self.list, self.heading, self.title, self.notes, self.tags, self.checklist, self.reminder) = (list, heading, title, notes, tags, checklist, reminder)
    }

    package var change: SyncChange { .setRepeat(self) }

    package static let members: ChangeMembers<Self> = [
        .made("series") { $0.series }, .member("rule") { $0.rule }, .member("start") { $0.start }, .member("madeThrough") { $0.madeThrough },
        .member("madeCount") { $0.madeCount }, .member("list") { $0.list }, .member("heading") { $0.heading }, .member("title") { $0.title },
        .member("notes") { $0.notes }, .member("tags") { $0.tags }, .member("checklist") { $0.checklist }, .member("reminder") { $0.reminder },
    ]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(
            series: try members.value("series"), rule: try members.value("rule"), start: try members.value("start"),
            madeThrough: try members.value("madeThrough"), madeCount: try members.value("madeCount"), list: try members.value("list"),
            heading: try members.value("heading"), title: try members.value("title"), notes: try members.value("notes"),
            tags: try members.value("tags"), checklist: try members.value("checklist"), reminder: try members.value("reminder"))
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: title, as: .title)
        try check.notes(notes)
        for entry in checklist { try check.length(of: entry, as: .title) }
    }

    /// The series these parts describe, with what `existing` made so far.
    func made(since existing: Series?, at stamp: Date) -> Series? {
        guard let rule else { return nil }
        var made = Series(
            id: series, rule: rule, start: start, madeThrough: [existing?.madeThrough, madeThrough].compactMap { $0 }.max(),
            madeCount: max(existing?.madeCount ?? 0, madeCount, 0), isPaused: existing?.isPaused ?? false, listID: list, heading: heading,
            title: ChangeContext.storable(title: title), notes: ChangeContext.storable(notes), tags: Set(tags),
            checklist: checklist.map { ChangeContext.storable(title: $0) }, reminder: reminder, createdAt: existing?.createdAt ?? stamp)
        made.updatedAt = stamp
        return made
    }

    package func apply(in context: ChangeContext) throws {
        let existing = try context.transaction.series(id: series)
        switch (existing, made(since: existing, at: context.stamp)) {
        case (nil, nil): return
        case (_?, nil): try context.transaction.deleteSeries(id: series)
        case (nil, let made?): try context.transaction.insert(made)
        case (var old?, var made?):
            (old.updatedAt, made.updatedAt) = (made.updatedAt, made.updatedAt)
            if old != made { try context.transaction.update(made) }
        }
    }
}

extension RepeatSet: ReversibleChange {
    /// The series as it is now: as it was, paused if it was, or taken off when it was not there.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        guard let old = try store.series(id: series) else { return rule == nil ? [] : [with(\.rule, nil)] }
        // Taken off, the series goes with its pause: putting it back makes it afresh, unpaused.
        return [RepeatSet(old, rule: old.rule)] + (rule == nil && old.isPaused ? [RepeatPaused(series: series, paused: true)] : [])
    }

    /// None: the series takes the rule undo gives it, whatever was set since.
    package func conflict(in store: any ItemReading) throws -> ChangeConflict? { nil }

    /// The series as it is now, when it is new or its rule, start, template or the dates made
    /// differ; taken off when it is gone (`series` `nil`).
    package static func changes(from old: Series?, to series: Series?) -> [Self] {
        switch (old, series) {
        case (let old?, nil): [RepeatSet(old, rule: nil)]
        case (let old, let series?):
            old.map { var same = $0; (same.isPaused, same.updatedAt) = (series.isPaused, series.updatedAt); return same == series } ?? false
                ? [] : [RepeatSet(series, rule: series.rule)]
        case (nil, nil): []
        }
    }

    private func with<Value>(_ field: WritableKeyPath<Self, Value>, _ value: Value) -> Self {
        var changed = self
        changed[keyPath: field] = value
        return changed
    }
}

extension SyncChange {
    /// A change of the kind ``RepeatSet``: `series` with `rule`, or taken off (`nil`).
    public static func setRepeat(_ series: Series, rule: RepeatRule?) -> SyncChange {
        .setRepeat(RepeatSet(series, rule: rule))
    }
}
