public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// A repeating series made a to-do from its template, starting on `day`, with an id every
/// device derives alike (`Series.itemID(on:)`, `Series.itemID(following:)`).
///
/// Made twice, on two devices, it makes one to-do: the later change in the total order finds
/// it, and gives it its own start date, as a later completion sets the next to-do's date. A
/// fixed series makes no to-do for a date it made through already: a to-do deleted for good
/// stays deleted. A series taken off meanwhile makes none.
public struct RepeatMade: ChangeKind {
    package static let name: StaticString = "makeRepeat"

    /// The series.
    public var series: Series.ID
    /// The new to-do.
    public var id: Item.ID
    /// Its start date.
    public var day: Day
    /// Its list.
    public var list: ItemList.ID
    /// Its heading; `nil` for none.
    public var heading: Heading.ID?
    /// Where it went among the items of its heading, or of none.
    public var place: SyncPlace
    /// Its title.
    public var title: String
    /// Its notes.
    public var notes: String
    /// Its tags.
    public var tags: [Tag.ID]
    /// The titles of its checklist, in order.
    public var checklist: [String]
    /// Its deadline; `nil` for none.
    public var deadline: Day?
    /// Its reminder; `nil` for none.
    public var reminder: TimeOfDay?

    /// The to-do `id` of `series`, made from its template, starting on `day`, at `place`.
    public init(_ series: Series, id: Item.ID, day: Day, place: SyncPlace) {
        (self.series, self.id, self.day, self.list, self.heading, self.place) = (series.id, id, day, series.listID, series.heading, place)
        (title, notes, tags, checklist) = (series.title, series.notes, series.tags.sorted(), series.checklist)
        deadline = series.rule.deadlineOffset.map { day.adding(days: $0) }
        reminder = series.rule.reminder ?? series.reminder
    }

    /// The change of these parts.
    public init(
        series: Series.ID, id: Item.ID, day: Day, list: ItemList.ID, heading: Heading.ID?, place: SyncPlace, title: String, notes: String,
        tags: [Tag.ID], checklist: [String], deadline: Day?, reminder: TimeOfDay?
    ) {
        (self.series, self.id, self.day, self.list, self.heading, self.place) = (series, id, day, list, heading, place)
        (self.title, self.notes, self.tags, self.checklist, self.deadline, self.reminder) = (title, notes, tags, checklist, deadline, reminder)
    }

    package var change: SyncChange { .makeRepeat(self) }

    /// What its members name, and the checklist entries it makes, whose ids every device derives
    /// alike (`Series.checklistItemID(_:of:)`).
    package var subjects: ChangeSubjects {
        var subjects = memberSubjects
        subjects.made.formUnion(checklist.indices.map { Series.checklistItemID($0, of: id).rawValue })
        return subjects
    }

    package static let members: ChangeMembers<Self> = [
        .member("series") { $0.series }, .made("id") { $0.id }, .member("day") { $0.day }, .member("list") { $0.list },
        .member("heading") { $0.heading }, .member("place") { $0.place }, .member("title") { $0.title }, .member("notes") { $0.notes },
        .member("tags") { $0.tags }, .member("checklist") { $0.checklist }, .member("deadline") { $0.deadline }, .member("reminder") { $0.reminder },
    ]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(
            series: try members.value("series"), id: try members.value("id"), day: try members.value("day"), list: try members.value("list"),
            heading: try members.value("heading"), place: try members.value("place"), title: try members.value("title"),
            notes: try members.value("notes"), tags: try members.value("tags"), checklist: try members.value("checklist"),
            deadline: try members.value("deadline"), reminder: try members.value("reminder"))
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: title, as: .title)
        try check.notes(notes)
        for entry in checklist { try check.length(of: entry, as: .title) }
    }

    package func apply(in context: ChangeContext) throws {
        let transaction = context.transaction
        guard var made = try transaction.series(id: series) else { return }
        if var item = try transaction.item(id: id) {
            guard item.when.startDate != day else { return }
            (item.when, item.updatedAt) = (.on(day, evening: item.when.isEvening), context.stamp)
            try transaction.update(item)
            return
        }
        if made.rule.type == .fixed, let through = made.madeThrough, day <= through { return }
        var item = Item(
            id: id, listID: try context.existingList(list), title: ChangeContext.storable(title: title), notes: ChangeContext.storable(notes),
            sortIndex: 0, createdAt: context.stamp, when: .on(day), deadline: deadline, tags: Set(try tags.filter { try transaction.tag(id: $0) != nil }),
            reminder: reminder, series: series)
        if let heading = try context.existingHeading(heading), heading.listID == item.listID { item.heading = heading.id }
        try context.ordering.add(item, at: try context.placement(place, in: item.scope).map { Item.ID(entry: $0) }, visibility: .all, in: transaction)
        for (index, title) in checklist.enumerated() {
            let entry = ChecklistItem(id: Series.checklistItemID(index, of: id), itemID: id, title: ChangeContext.storable(title: title))
            try context.ordering.add(entry, at: .bottom, in: transaction)
        }
        made.madeThrough = max(made.madeThrough ?? day, day)
        (made.madeCount, made.updatedAt) = (made.madeCount < Int.max ? max(0, made.madeCount) + 1 : Int.max, context.stamp)
        try transaction.update(made)
    }
}

extension RepeatMade: RowCreation {
    /// Deleting it: undoing a completion takes back the to-do it made.
    package var deletion: any ReversibleChange { SyncChange.deletion(ofItems: [id]) }
    package func deletionConflict(in store: any ItemReading) throws -> ChangeConflict? { try store.item(id: id) == nil ? .itemGone(id) : nil }

    /// Deleting the to-do it made; for a to-do that was there already, and that it only dated
    /// again, its date as it was.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        guard let existing = try store.item(id: id) else { return [deletion] }
        return existing.when.startDate == day ? [] : [WhenSet(ids: [id], when: existing.when)]
    }
}

extension SyncChange {
    /// A change of the kind ``RepeatMade``: the to-do `id` of `series`, starting on `day`, at `place`.
    public static func makeRepeat(_ series: Series, id: Item.ID, day: Day, place: SyncPlace) -> SyncChange {
        .makeRepeat(RepeatMade(series, id: id, day: day, place: place))
    }
}
