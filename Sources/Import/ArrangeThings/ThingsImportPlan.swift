public import ArrangeArchive
import ArrangeIntents
public import ArrangeModel
public import Foundation

/// A Things library mapped onto Arrange: areas and lists in Things' sidebar order, to-dos in
/// their order, Today, and what was left out. It is an `Archive` whose ids come from Things' uuids,
/// so importing the same library again updates what the first import made.
public struct ThingsImportPlan: Hashable, Sendable {
    /// The lists and items; the list with ``inboxID`` stands for the store's default list.
    public var archive: Archive
    /// What the plan holds and what it leaves out.
    public var summary: ThingsImportSummary

    /// The id of the list that holds Things' Inbox: the store's default list on import.
    public static let inboxID = ThingsID("inbox").list
}

/// What a Things import brings and leaves out.
public struct ThingsImportSummary: Hashable, Sendable, Codable {
    /// Lists, the default list (Things' Inbox) included.
    public var lists = 0
    /// To-dos imported, completed and cancelled ones included.
    public var toDos = 0
    /// Of those, the completed ones.
    public var completed = 0
    /// Of those, the cancelled ones, which arrive canceled.
    public var cancelled = 0
    /// Projects completed in Things, which arrive as completed lists, in the Logbook.
    public var completedProjects = 0
    /// Projects cancelled in Things, which arrive as canceled lists, in the Logbook.
    public var cancelledProjects = 0
    /// To-dos in Things' trash, which arrive in the Trash, in their places.
    public var trashedToDos = 0
    /// Projects in Things' trash, which arrive in the Trash with their to-dos and headings.
    public var trashedProjects = 0
    /// Headings in Things' trash, which arrive in the Trash with their to-dos.
    public var trashedHeadings = 0
    /// Templates of repeating to-dos whose rule Arrange cannot follow: their to-dos come in
    /// without a repeat, and ``unreadableRules`` names them.
    public var skippedTemplates = 0
    /// Repeating to-dos, each a series with its rule and template; their to-dos name it.
    public var repeating = 0
    /// The titles of the templates whose rule Arrange cannot follow.
    public var unreadableRules: [String] = []
    /// To-dos in Today.
    public var today = 0
    /// Checklist items, of the to-dos imported.
    public var checklistItems = 0
    /// Areas.
    public var areas = 0
    /// Headings of projects.
    public var headings = 0
    /// Tags, with their tree, order and shortcuts.
    public var tags = 0
    /// Reminders, of the to-dos imported with a start date.
    public var reminders = 0
    /// Projects with a start date, put off to Someday, or with a deadline, which they keep.
    public var scheduledProjects = 0

    /// A summary of nothing.
    public init() {}
}

/// A day as Things packs it in `startDate` and `deadline`: `year << 16 | month << 12 | day << 7`.
public enum ThingsDay {
    /// The packed form of a calendar day.
    public static func packed(year: Int, month: Int, day: Int) -> Int64 {
        Int64(year) << 16 | Int64(month) << 12 | Int64(day) << 7
    }

    /// The day of `date` in `calendar` (its time zone).
    public static func packed(_ date: Date, in calendar: Calendar = .current) -> Int64 {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return packed(year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0)
    }

    /// The day a packed value holds, or `nil` when it holds none that exists.
    public static func day(_ packed: Int64) -> Day? {
        try? Day(year: Int(packed >> 16), month: Int(packed >> 12 & 0xF), day: Int(packed >> 7 & 0x1F))
    }
}

/// A time of day as Things packs it in `reminderTime`: `hour << 26 | minute << 20`.
public enum ThingsTime {
    /// The packed form of a time of day.
    public static func packed(hour: Int, minute: Int) -> Int64 {
        Int64(hour) << 26 | Int64(minute) << 20
    }

    /// The time a packed value holds, or `nil` when it holds none.
    public static func time(_ packed: Int64) -> TimeOfDay? {
        try? TimeOfDay(hour: Int(packed >> 26 & 0x1F), minute: Int(packed >> 20 & 0x3F))
    }
}

extension ThingsLibrary {
    /// Maps the library onto Arrange's lists, items and Today.
    ///
    /// - Parameter today: The day of the import, packed (``ThingsDay``): it decides which
    ///   to-dos Things would show in Today.
    public func importPlan(today: Int64) -> ThingsImportPlan {
        var mapper = ThingsMapper(library: self, today: today)
        return mapper.plan()
    }
}

/// The work of ``ThingsLibrary/importPlan(today:)``.
private struct ThingsMapper {
    let library: ThingsLibrary
    let today: Int64
    let tasks: [String: ThingsLibrary.Task]
    /// The headings of each project, in no order, those in the trash included.
    let headingsByProject: [String: [ThingsLibrary.Task]]
    var summary = ThingsImportSummary()
    /// The series of the templates of repeating to-dos, by the template's uuid.
    var seriesByTemplate: [String: Series] = [:]
    var names = Set<String>()
    var areaNames = Set<String>()

    /// Keys as the ordering service spreads them afresh: one end gap (2^32) apart.
    static let step: Int64 = 1 << 32

    init(library: ThingsLibrary, today: Int64) {
        self.library = library
        self.today = today
        self.tasks = Dictionary(library.tasks.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        self.headingsByProject = Dictionary(grouping: library.tasks.filter { $0.kind == .heading }, by: { $0.project ?? "" })
    }

    /// Where a to-do goes.
    enum Destination: Hashable {
        case inbox, anytime, someday, project(String), area(String)
    }

    mutating func plan() -> ThingsImportPlan {
        var byDestination: [Destination: [ThingsLibrary.Task]] = [:]
        for task in library.tasks where task.kind == .toDo && !task.isRepeatingTemplate {
            byDestination[destination(of: task), default: []].append(task)
        }
        let checklists = Dictionary(grouping: library.checklistItems, by: \.task)
        seriesByTemplate = repeatingSeries(checklists: checklists)
        let areas = library.areas.sorted { ($0.index, $0.uuid) < ($1.index, $1.uuid) }.enumerated().map { offset, area in
            ArchivedArea(Area(
                id: areaID(area.uuid), name: uniqueName(area.title, among: &areaNames), createdAt: Date(timeIntervalSince1970: 0), sortIndex: Int64(offset) * Self.step,
                tags: tags(of: area.uuid, in: library.areaTags)))
        }
        var lists: [ArchivedList] = []
        var countByArea: [Area.ID?: Int64] = [:]
        for (destination, name, createdAt, area) in sidebar(byDestination) {
            let place = countByArea[area, default: 0]
            countByArea[area] = place + 1
            var list = ItemList(id: listID(destination), name: uniqueName(name, among: &names), createdAt: createdAt, sortIndex: place * Self.step, area: area)
            if case .project(let uuid) = destination { list.tags = tags(of: uuid, in: library.taskTags) }
            if case .project(let uuid) = destination, let project = tasks[uuid] {
                // A project is scheduled as a to-do is, and keeps its notes as a to-do does.
                (list.when, list.deadline) = (Self.when(of: project), project.deadline.flatMap(ThingsDay.day))
                list.notes = Item.fittedNotes(project.notes)
                if list.when != .anytime || list.deadline != nil { summary.scheduledProjects += 1 }
            }
            if case .project(let uuid) = destination, let project = tasks[uuid], !project.isOpen {
                // A finished project keeps its status, at its stop date.
                (list.completedAt, list.isCanceled) = (Self.date(project.stopDate) ?? Self.date(project.userModificationDate) ?? createdAt, project.isCancelled)
                if project.isCancelled { summary.cancelledProjects += 1 } else { summary.completedProjects += 1 }
            }
            if case .project(let uuid) = destination, let project = tasks[uuid], project.trashed {
                list.trashedAt = Self.trashedAt(project)
                summary.trashedProjects += 1
            }
            let headings = self.headings(of: destination).enumerated().map { offset, heading in
                ArchivedHeading(Heading(
                    id: headingID(heading.uuid), listID: list.id, title: Title.sanitized(heading.title, placeholder: "Untitled"),
                    createdAt: Self.date(heading.creationDate) ?? createdAt, sortIndex: Int64(offset) * Self.step,
                    trashedAt: heading.trashed ? Self.trashedAt(heading) : nil))
            }
            summary.headings += headings.count
            summary.trashedHeadings += headings.count { $0.trashedAt != nil }
            let kept = Set(headings.map(\.id))
            // Keys afresh in each section: the loose to-dos, then each heading's.
            let sections = Dictionary(grouping: byDestination[destination] ?? [], by: { task in task.heading.map(headingID).flatMap { kept.contains($0) ? $0 : nil } })
            let items = ([nil] + headings.map { Optional($0.id) }).flatMap { heading in
                Self.sorted(sections[heading] ?? []).enumerated().map { offset, task in
                    var item = archivedItem(task, checklist: checklists[task.uuid] ?? [], sortIndex: Int64(offset) * Self.step)
                    item.heading = heading
                    return item
                }
            }
            lists.append(ArchivedList(list, headings: headings, items: items))
        }
        placeInToday(&lists)
        summary.lists = lists.count
        summary.areas = areas.count
        let tagTree = archivedTags()
        summary.tags = tagTree.count
        // A series goes to its template's list, under its heading, when the import makes them; else to the Inbox.
        let headingsByList = Dictionary(uniqueKeysWithValues: lists.map { ($0.id, Set(($0.headings ?? []).map(\.id))) })
        let series = seriesByTemplate.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.map { series in
            var placed = series
            if headingsByList[placed.listID] == nil { placed.listID = ThingsImportPlan.inboxID }
            if let heading = placed.heading, headingsByList[placed.listID]?.contains(heading) != true { placed.heading = nil }
            return placed
        }
        return ThingsImportPlan(archive: Archive(defaultList: nil, areas: areas, lists: lists, tags: tagTree, series: series), summary: summary)
    }

    /// The series of the templates of repeating to-dos whose rules Arrange can follow, by the
    /// template's uuid; the others are counted in ``ThingsImportSummary/skippedTemplates``, by title.
    ///
    /// A series starts on its rule's anchor (`ia`), else the template's start date, else its first
    /// to-do's; a fixed series has made its to-dos through the latest of them, so that the import
    /// makes none again. It goes where its latest to-do goes.
    mutating func repeatingSeries(checklists: [String: [ThingsLibrary.ChecklistItem]]) -> [String: Series] {
        let instances = Dictionary(grouping: library.tasks.filter { $0.kind == .toDo && $0.repeatingTemplate != nil }, by: { $0.repeatingTemplate ?? "" })
        var series: [String: Series] = [:]
        for template in Self.sorted(library.tasks.filter { $0.kind == .toDo && $0.isRepeatingTemplate }) {
            guard let data = template.recurrenceRule, let (rule, anchor) = ThingsRecurrence.rule(from: data) else {
                summary.skippedTemplates += 1
                summary.unreadableRules.append(template.title)
                continue
            }
            let made = instances[template.uuid] ?? []
            let days = made.compactMap { $0.startDate.flatMap(ThingsDay.day) }
            let start = anchor ?? template.startDate.flatMap(ThingsDay.day) ?? days.min() ?? ThingsDay.day(today) ?? Day(Date(), in: .current)
            let created = Self.date(template.creationDate) ?? Date(timeIntervalSince1970: 0)
            // A template sits in Someday (`start` 2) whatever its to-dos do: its list is that of
            // its latest to-do, else its project's or area's, else Anytime's.
            var placed = made.max { ($0.creationDate ?? 0, $0.uuid) < ($1.creationDate ?? 0, $1.uuid) } ?? template
            if placed.uuid == template.uuid { placed.start = 1 }
            series[template.uuid] = Series(
                id: ThingsID(template.uuid).series, rule: rule, start: start,
                madeThrough: rule.type == .fixed ? max(days.max() ?? start, start) : nil, madeCount: max(0, made.count - 1), isPaused: template.isRepeatPaused,
                listID: listID(destination(of: placed)), heading: placed.heading.map(headingID), title: Title.sanitized(template.title, placeholder: "Untitled"),
                notes: Item.fittedNotes(template.notes), tags: tags(of: template.uuid, in: library.taskTags),
                checklist: (checklists[template.uuid] ?? []).sorted { ($0.index, $0.uuid) < ($1.index, $1.uuid) }.map { Title.sanitized($0.title, placeholder: "Untitled") },
                reminder: template.reminderTime.flatMap(ThingsTime.time), createdAt: created, updatedAt: Self.date(template.userModificationDate) ?? created)
            summary.repeating += 1
        }
        return series
    }

    /// The list a to-do goes to, whether it, its heading or its project is in the trash or not.
    func destination(of task: ThingsLibrary.Task) -> Destination {
        var project = task.project
        // A to-do under a heading names the heading, not the project: go through the heading.
        if let heading = task.heading.flatMap({ tasks[$0] }) { project = heading.project ?? project }
        if let projectID = project, tasks[projectID] != nil { return .project(projectID) }
        if let area = task.area { return .area(area) }
        switch task.start {
        case 1: return .anytime
        case 2: return .someday
        default: return .inbox
        }
    }

    /// The lists in Things' sidebar order, with their names, creation dates and areas: the
    /// Inbox; Anytime and Someday when they hold to-dos; the projects without an area; then, in
    /// each area, a list of the area's own to-dos when it has some, named after it, and its
    /// projects. Areas and projects are in `index` order.
    func sidebar(_ byDestination: [Destination: [ThingsLibrary.Task]]) -> [(Destination, String, Date, Area.ID?)] {
        let epoch = Date(timeIntervalSince1970: 0)
        var lists: [(Destination, String, Date, Area.ID?)] = [(.inbox, "Inbox", epoch, nil)]
        for (destination, name) in [(Destination.anytime, "Anytime"), (.someday, "Someday")] where byDestination[destination] != nil {
            lists.append((destination, name, epoch, nil))
        }
        let projects = Self.sorted(library.tasks.filter { $0.kind == .project })
        let project = { (task: ThingsLibrary.Task) in
            (Destination.project(task.uuid), task.title, Self.date(task.creationDate) ?? epoch, task.area.map(areaID))
        }
        let areas = Set(library.areas.map(\.uuid))
        // A project whose area is not among the areas goes with the projects in no area.
        lists += projects.filter { $0.area.map { !areas.contains($0) } ?? true }.map { var list = project($0); list.3 = nil; return list }
        for area in library.areas.sorted(by: { ($0.index, $0.uuid) < ($1.index, $1.uuid) }) {
            if byDestination[.area(area.uuid)] != nil { lists.append((.area(area.uuid), area.title, epoch, areaID(area.uuid))) }
            lists += projects.filter { $0.area == area.uuid }.map(project)
        }
        return lists
    }

    /// The headings of a project in Things' order, those in the trash included; none for another list.
    func headings(of destination: Destination) -> [ThingsLibrary.Task] {
        guard case .project(let project) = destination else { return [] }
        return Self.sorted(headingsByProject[project] ?? [])
    }

    func headingID(_ uuid: String) -> Heading.ID {
        ThingsID(uuid).heading
    }

    /// Tasks in `index` order, ties broken by creation date, then uuid.
    static func sorted(_ tasks: [ThingsLibrary.Task]) -> [ThingsLibrary.Task] {
        tasks.sorted { ($0.index, $0.creationDate ?? 0, $0.uuid) < ($1.index, $1.creationDate ?? 0, $1.uuid) }
    }

    /// The to-do as an item (its notes cut to `Item.maximumNotesSize` when they are longer,
    /// completion or cancelation from its stop date), with its checklist in `index` order, keys spread afresh:
    /// a completed checklist item arrives ticked off and a cancelled one canceled, at its own stop date.
    mutating func archivedItem(_ task: ThingsLibrary.Task, checklist: [ThingsLibrary.ChecklistItem], sortIndex: Int64) -> ArchivedItem {
        summary.toDos += 1
        if task.isCompleted { summary.completed += 1 }
        if task.isCancelled { summary.cancelled += 1 }
        let created = Self.date(task.creationDate) ?? Self.date(task.userModificationDate) ?? Date(timeIntervalSince1970: 0)
        let completedAt = task.isOpen ? nil : Self.date(task.stopDate) ?? Self.date(task.userModificationDate) ?? created
        let deadline = task.deadline.flatMap(ThingsDay.day)
        let when = Self.when(of: task)
        // A reminder fires on a start date: one without is no reminder.
        let reminder = when.startDate == nil ? nil : task.reminderTime.flatMap(ThingsTime.time)
        if reminder != nil { summary.reminders += 1 }
        let item = Item(
            id: ThingsID(task.uuid).item, listID: ThingsImportPlan.inboxID,
            title: Title.sanitized(task.title, placeholder: "Untitled"), notes: Item.fittedNotes(task.notes), sortIndex: sortIndex,
            createdAt: created, updatedAt: Self.date(task.userModificationDate) ?? created, completedAt: completedAt,
            when: when, deadline: deadline, deadlineDismissed: deadline != nil && task.deadlineSuppressionDate != nil,
            isCanceled: task.isCancelled, tags: tags(of: task.uuid, in: library.taskTags), trashedAt: task.trashed ? Self.trashedAt(task) : nil,
            reminder: reminder, series: task.repeatingTemplate.flatMap { seriesByTemplate[$0]?.id })
        if task.trashed { summary.trashedToDos += 1 }
        let entries = checklist.sorted { ($0.index, $0.uuid) < ($1.index, $1.uuid) }.enumerated().map { offset, entry in
            ChecklistItem(
                id: ThingsID(entry.uuid).checklistItem, itemID: item.id,
                title: Title.sanitized(entry.title, placeholder: "Untitled"), sortIndex: Int64(offset) * Self.step,
                completedAt: entry.status == 0 ? nil : Self.date(entry.stopDate) ?? completedAt ?? item.updatedAt, isCanceled: entry.status == 2)
        }
        summary.checklistItems += entries.count
        return ArchivedItem(item, checklist: entries)
    }

    /// When a task went to Things' trash, which keeps no moment of it: when it last changed, else
    /// when it was made.
    static func trashedAt(_ task: ThingsLibrary.Task) -> Date {
        date(task.userModificationDate) ?? date(task.creationDate) ?? Date(timeIntervalSince1970: 0)
    }

    /// When a to-do or a project is meant to be done, as Things' columns say: from its `startDate`, in the
    /// evening of it when `startBucket` is 1; someday when it has no start date and `start` is
    /// 2 (Someday); anytime otherwise.
    static func when(of task: ThingsLibrary.Task) -> When {
        if let start = task.startDate.flatMap(ThingsDay.day) { return .on(start, evening: task.startBucket == 1) }
        return task.start == 2 ? .someday : .anytime
    }

    /// Gives Today's to-dos their keys there: the open ones Things would show in Today on the
    /// day of the import, by `todayIndex`, then `startDate`, then creation date and uuid.
    mutating func placeInToday(_ lists: inout [ArchivedList]) {
        let imported = Set(lists.flatMap(\.items).map(\.id))
        let inToday = library.tasks
            .filter { $0.kind == .toDo && $0.isOpen && !$0.trashed && imported.contains(ThingsID($0.uuid).item) }
            .filter(isInToday)
            .sorted { ($0.todayIndex, $0.startDate ?? 0, $0.creationDate ?? 0, $0.uuid) < ($1.todayIndex, $1.startDate ?? 0, $1.creationDate ?? 0, $1.uuid) }
        let keys = Dictionary(uniqueKeysWithValues: inToday.enumerated().map { (ThingsID($1.uuid).item, Int64($0) * Self.step) })
        for list in lists.indices {
            for item in lists[list].items.indices {
                lists[list].items[item].todayIndex = keys[lists[list].items[item].id]
            }
        }
        summary.today = keys.count
    }

    /// Whether Things shows an open to-do in Today on the day of the import.
    func isInToday(_ task: ThingsLibrary.Task) -> Bool {
        switch (task.start, task.startDate, task.deadline) {
        case (1, _?, _): true
        case (2, let start?, _): start <= today
        case (_, nil, let deadline?): deadline <= today && task.deadlineSuppressionDate == nil
        default: false
        }
    }

    /// Things' tags depth first in the tag manager's order, each with keys afresh among its
    /// siblings; a tag whose parent is not among the tags goes to the top level, and a tag in a
    /// loop of parents, which Things should never hold, is left out.
    func archivedTags() -> [ArchivedTag] {
        let known = Set(library.tags.map(\.uuid))
        let children = Dictionary(grouping: library.tags, by: { $0.parent.flatMap { known.contains($0) ? $0 : nil } })
        var tagNames = Set<String>()
        func subtree(of parent: String?) -> [ArchivedTag] {
            (children[parent] ?? []).sorted { ($0.index, $0.uuid) < ($1.index, $1.uuid) }.enumerated().flatMap { offset, tag in
                let shortcut = tag.shortcut.flatMap { $0.count == 1 ? $0 : nil }
                let archived = ArchivedTag(Tag(
                    id: tagID(tag.uuid), name: uniqueName(tag.title, among: &tagNames), parent: parent.map(tagID), sortIndex: Int64(offset) * Self.step,
                    shortcut: shortcut, createdAt: Date(timeIntervalSince1970: 0)))
                return [archived] + subtree(of: tag.uuid)
            }
        }
        return subtree(of: nil)
    }

    /// The tags `uses` sets on the task or area `uuid`, those among the library's tags.
    func tags(of uuid: String, in uses: [String: Set<String>]) -> Set<Tag.ID> {
        let known = Set(library.tags.map(\.uuid))
        return Set((uses[uuid] ?? []).filter(known.contains).map(tagID))
    }

    func tagID(_ uuid: String) -> Tag.ID {
        ThingsID(uuid).tag
    }

    func areaID(_ uuid: String) -> Area.ID {
        ThingsID(uuid).area
    }

    func listID(_ destination: Destination) -> ItemList.ID {
        switch destination {
        case .inbox: ThingsImportPlan.inboxID
        case .anytime: ThingsID("anytime").list
        case .someday: ThingsID("someday").list
        case .project(let uuid), .area(let uuid): ThingsID(uuid).list
        }
    }

    /// A valid name none of `taken` has, ignoring case, which takes it: "Errands", then "Errands (2)".
    func uniqueName(_ title: String, among taken: inout Set<String>) -> String {
        let base = Title.sanitized(title, placeholder: "Untitled")
        var name = base
        var number = 2
        while !taken.insert(ItemList.nameKey(name)).inserted {
            name = "\(base) (\(number))"
            number += 1
        }
        return name
    }

    static func date(_ seconds: Double?) -> Date? {
        seconds.map(Date.init(timeIntervalSince1970:))
    }
}
