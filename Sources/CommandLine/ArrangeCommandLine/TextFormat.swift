import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation

/// How results read as text.
enum TextFormat {
    /// The first 8 hex digits of an id: enough to name an item in a later command.
    static func short(_ id: Identifier<some Any>) -> String {
        String(id.text.prefix(8))
    }

    /// What a maintenance result worked on: the list's name, "The lists" ("the lists" within a sentence) or "Today".
    static func name(of scope: OrderingKind, list: ListSummary?, startingSentence: Bool = true) -> String {
        switch scope {
        case .items: list?.name ?? (startingSentence ? "The list" : "the list")
        case .lists: startingSentence ? "The lists" : "the lists"
        case .today: "Today"
        case .checklist: startingSentence ? "The checklist" : "the checklist"
        case .areas: startingSentence ? "The areas" : "the areas"
        case .area: startingSentence ? "The area's lists" : "the area's lists"
        case .headings: startingSentence ? "The headings" : "the headings"
        case .heading: startingSentence ? "The heading's items" : "the heading's items"
        case .tags: startingSentence ? "The tags" : "the tags"
        }
    }

    /// `"Buy milk"`.
    static func quoted(_ title: String) -> String {
        "\"\(title)\""
    }

    /// `"Buy milk", "Eggs"`, or `2 items` past a handful.
    static func titles(_ items: [ItemSummary]) -> String {
        items.count > 5 ? "\(items.count) items" : items.map { quoted($0.title) }.joined(separator: ", ")
    }

    /// One row of a listing: `  #1  3f2a91c0  Buy milk`, or `      3f2a91c0  ✓ Buy milk` when done;
    /// an item with dates ends with them: `  [from 2026-12-01, due 2026-12-03]`.
    static func row(_ item: ItemSummary, width: Int, on day: Day? = nil) -> String {
        let number = item.position.map { "#\($0)" } ?? ""
        let padded = String(repeating: " ", count: max(0, width - number.count)) + number
        // A view of a day leaves out a start date on that day: it is the view's own.
        let showsWhen = (item.startDate != nil || item.someday) && (day == nil || item.startDate != day)
        let dates = [showsWhen ? when(of: item) : nil, item.deadline.map { "due \($0)" }].compactMap { $0 }
        return "  \(padded)  \(short(item.id))  \(mark(item))\(item.title)" + (dates.isEmpty ? "" : "  [\(dates.joined(separator: ", "))]")
    }

    /// When an item is meant to be done: `from 2026-12-01`, `from 2026-12-01, in the evening`,
    /// `from 2026-12-01, reminder at 09:00`, `someday` or `anytime`.
    static func when(of item: ItemSummary) -> String {
        guard let start = item.startDate else { return item.someday ? "someday" : "anytime" }
        return "from \(start)" + (item.evening ? ", in the evening" : "") + (item.reminder.map { ", reminder at \($0)" } ?? "")
    }

    /// A list's dates in words: `from 2027-03-01, due 2027-04-15`, `someday`, `due 2027-04-15`, `anytime`.
    static func when(of list: ListSummary) -> String {
        let start = list.startDate.map { "from \($0)" + (list.evening ? ", in the evening" : "") } ?? (list.someday ? "someday" : nil)
        let words = [start, list.deadline.map { "due \($0)" }].compactMap { $0 }
        return words.isEmpty ? "anytime" : words.joined(separator: ", ")
    }

    /// A list's dates after its name, when it has any: `  (from 2027-03-01, due 2027-04-15)`.
    static func dates(of list: ListSummary) -> String {
        list.when == .anytime && list.deadline == nil ? "" : "  (\(when(of: list)))"
    }

    /// A list's items under a line that names it: those under no heading, then each heading
    /// (`  ## Packing`) with its items.
    static func listing(_ listing: ItemListing) -> String {
        let list = listing.list
        let done = list.totalItems - list.openItems
        var title = "\(list.name): \(list.openItems) open"
        if done > 0 { title += ", \(done) done" }
        guard !listing.items.isEmpty || !listing.headings.isEmpty else {
            return title + "\n  (nothing here; add an item with: add TITLE)"
        }
        let width = listing.items.compactMap(\.position).max().map { "#\($0)".count } ?? 0
        let byHeading = Dictionary(grouping: listing.items, by: \.heading)
        var lines = [title] + (byHeading[nil] ?? []).map { row($0, width: width) }
        for heading in listing.headings {
            lines.append("  ## \(heading.title)")
            lines += (byHeading[heading.id] ?? []).map { row($0, width: width) }
        }
        return lines.joined(separator: "\n")
    }

    /// A list's headings, one per line, in order, with how many open items each holds.
    static func headings(_ headings: [HeadingSummary]) -> String {
        guard !headings.isEmpty else { return "  (no headings)" }
        return headings.map { "  \($0.title)  (\($0.openItems) open)" }.joined(separator: "\n")
    }

    /// The line above the evening's items in Today.
    private static let thisEvening = "This Evening:"

    /// Today's items under a heading, each with its list, the evening's under one of their own.
    static func today(_ listing: TodayListing) -> String {
        let open = listing.items.count { $0.status == .open }
        let done = listing.items.count - open
        let heading = "Today: \(open) open" + (done > 0 ? ", \(done) done" : "")
        guard !listing.items.isEmpty || !listing.lists.isEmpty else {
            return heading + "\n  (nothing here; add items with: today add ITEM)"
        }
        let width = listing.items.compactMap(\.position).max().map { "#\($0)".count } ?? 0
        var lines = [heading] + listing.lists.map { "  ▸ \($0.name)" + dates(of: $0) }
        for item in listing.items {
            if item.evening, item.startDate == listing.day, !lines.contains(Self.thisEvening) { lines.append(Self.thisEvening) }
            lines.append(row(item, width: width, on: listing.day) + "  (\(item.listName))")
        }
        return lines.joined(separator: "\n")
    }

    /// What is coming, under a heading: each start date, then its items, each with its list.
    static func upcoming(_ listing: UpcomingListing) -> String {
        guard !listing.days.isEmpty else { return "Upcoming after \(listing.day): nothing scheduled." }
        return (["Upcoming after \(listing.day):"] + listing.days.flatMap { day in
            let lists: [String] = day.lists.map { "  ▸ \($0.name)" + dates(of: $0) }
            let items: [String] = day.items.map { row($0, width: 0) + "  (\($0.listName))" }
            return ["\(day.day)"] + lists + items
                + day.projected.map { "  ↻ \($0.repeating.template.title)  (\($0.repeating.template.listName))" }
        }).joined(separator: "\n")
    }

    /// A rule in words: `every 2 weeks on mo, th`, `3 days after done, until 2027-06-30`.
    static func rule(_ rule: RepeatRule) -> String {
        let unit = rule.every == 1 ? rule.unit.rawValue : "\(rule.every) \(rule.unit.rawValue)s"
        var words = rule.type == .fixed ? "every \(unit)" : "\(unit) after done"
        if let weekdays = rule.weekdays { words += " on " + weekdays.map(\.rawValue).joined(separator: ", ") }
        if let days = rule.monthDays { words += " on day " + days.map { $0 == -1 ? "last" : "\($0)" }.joined(separator: ", ") }
        if let nth = rule.nthWeekday { words += " on the \(nth.n == -1 ? "last" : "#\(nth.n)") \(nth.weekday.rawValue)" }
        if let months = rule.months { words += " in month " + months.map(String.init).joined(separator: ", ") }
        switch rule.ends {
        case .on(let day): words += ", until \(day)"
        case .after(let count): words += ", \(count) times"
        case nil: break
        }
        return words
    }

    /// A repeating series on one line: its id, title, rule and next date.
    static func series(_ series: RepeatSeries) -> String {
        "\(short(series.id))  \(series.template.title)  (\(series.template.listName))  \(rule(series.rule))"
            + (series.paused ? ", paused" : series.next.map { ", next \($0)" } ?? ", ended")
    }

    /// A view of items by list (Anytime, Someday) under a heading that names it: each list,
    /// then its items.
    static func groups(_ listing: ItemsByList, named name: String) -> String {
        let count = listing.lists.reduce(0) { $0 + $1.items.count }
        guard !listing.lists.isEmpty else { return "\(name): nothing here." }
        return (["\(name): \(count) open"] + listing.lists.flatMap { group in
            [group.list.name + dates(of: group.list)] + group.items.map { row($0, width: 0) }
        }).joined(separator: "\n")
    }

    /// How an item's line marks it done: "✓ " completed, "✗ " canceled, nothing while open.
    static func mark(_ item: ItemSummary) -> String { mark(item.status) }

    /// How a line marks a status: "✓ " completed, "✗ " canceled, nothing while open.
    static func mark(_ status: ItemStatus) -> String {
        switch status {
        case .open: ""
        case .completed: "✓ "
        case .canceled: "✗ "
        }
    }

    /// A page of the Logbook under a heading: the finished lists first, completed (✓) or
    /// canceled (✗), then each item, with the day it was done, on this machine's calendar, and its list.
    static func logbook(_ page: LogbookPage) -> String {
        let day = Date.ISO8601FormatStyle(timeZone: .current).year().month().day()
        let lists = page.lists.isEmpty ? [] : ["Finished lists:"] + page.lists.map { list in
            "  \(list.completedAt.map { $0.formatted(day) } ?? "")  \(mark(list.status))\(list.name)  (\(list.totalItems) item\(list.totalItems == 1 ? "" : "s"))"
        }
        guard !page.items.isEmpty else {
            let heading = page.total > 0 ? "Logbook: \(page.total) done; none past the first \(page.offset)."
                : lists.isEmpty ? "Logbook: nothing done yet." : "Logbook: no items done yet."
            return ([heading] + lists).joined(separator: "\n")
        }
        let heading = "Logbook: \(page.total) done, \(page.offset + 1) to \(page.offset + page.items.count) shown, the most recent first"
        return (lists + [heading] + page.items.map { item in
            "  \(item.completedAt.map { $0.formatted(day) } ?? "")  \(short(item.id))  \(mark(item))\(item.title)  (\(item.listName))"
        }).joined(separator: "\n")
    }

    /// Every list, one per line, with its counts, in the sidebar's order: those in no area,
    /// then under each area's name, indented, its own. The default list is marked.
    ///
    /// - Parameter areas: Every area, in order; the lists name theirs by id.
    static func lists(_ lists: [ListSummary], defaultList: ItemList.ID?, areas: [Area] = []) -> String {
        let width = lists.map { $0.name.count + ($0.area == nil ? 0 : 2) }.max() ?? 0
        let row = { (list: ListSummary) in
            let name = (list.area == nil ? "" : "  ") + list.name
            let done = list.totalItems - list.openItems
            let marker = list.id == defaultList ? "  (default)" : ""
            return name + String(repeating: " ", count: width - name.count) + "  \(list.openItems) open" + (done > 0 ? ", \(done) done" : "") + marker
                + dates(of: list)
        }
        let byArea = Dictionary(grouping: lists.filter { $0.area != nil }, by: \.area)
        return (lists.filter { $0.area == nil }.map(row) + areas.flatMap { area in
            ["\(area.name):"] + (byArea[area.id] ?? []).map(row)
        }).joined(separator: "\n")
    }

    /// Every area, in order, each with its lists, indented, as the sidebar shows them.
    static func areas(_ areas: [AreaSummary], defaultList: ItemList.ID?) -> String {
        guard !areas.isEmpty else { return "No areas yet; create one with `area create NAME`." }
        return lists(
            areas.flatMap(\.lists), defaultList: defaultList,
            areas: areas.map { Area(id: $0.id, name: $0.name, createdAt: $0.createdAt, sortIndex: $0.sortIndex) })
    }

    /// Every tag, depth first, each child indented under its parent, as the tag manager shows them:
    ///
    /// ```text
    /// Errand
    ///   Shops
    /// Home
    /// ```
    static func tags(_ tags: [Tag]) -> String {
        guard !tags.isEmpty else { return "No tags yet; create one with `tag create NAME`." }
        var depth: [Tag.ID: Int] = [:]
        return tags.map { tag in
            let level = tag.parent.flatMap { depth[$0].map { $0 + 1 } } ?? 0
            depth[tag.id] = level
            return String(repeating: "  ", count: level) + tag.name + (tag.shortcut.map { "  [\($0)]" } ?? "")
        }.joined(separator: "\n")
    }

    /// Every field of one item.
    static func details(_ item: ItemSummary) -> String {
        let dates = Date.ISO8601FormatStyle()
        var lines = [
            "title:     \(item.title)",
            "id:        \(item.id)",
            "list:      \(item.listName)" + (item.position.map { " (#\($0))" } ?? ""),
            "status:    " + (item.completedAt.map { "\(item.status == .canceled ? "canceled" : "done") \(dates.format($0))" } ?? "open"),
            "sortIndex: \(item.sortIndex)",
            "created:   \(dates.format(item.createdAt))",
            "updated:   \(dates.format(item.updatedAt))",
        ]
        if item.startDate != nil || item.someday { lines.append("when:      \(when(of: item))") }
        if let deadline = item.deadline { lines.append("deadline:  \(deadline)" + (item.deadlineDismissed ? " (dismissed from Today)" : "")) }
        switch item.todayMark {
        case .added(let day, let evening)?: lines.append("today:     added by you on \(day)" + (evening ? ", to This Evening" : ""))
        case .removed(let day)?: lines.append("today:     taken out by you on \(day)")
        case nil: break
        }
        if !item.notes.isEmpty { lines.append("notes:     \(item.notes)") }
        if !item.checklist.isEmpty { lines.append("checklist:\n" + checklistRows(item.checklist)) }
        return lines.joined(separator: "\n")
    }

    /// The checklist of an item, numbered #1, #2, … as `arrange checklist` names its entries:
    ///
    /// ```text
    /// Checklist of "Trip" (3f2a91c0):
    ///   #1 [x] Passport
    ///   #2 [ ] Charger
    /// ```
    static func checklist(_ item: ItemSummary) -> String {
        let heading = "Checklist of \(quoted(item.title)) (\(short(item.id)))"
        return item.checklist.isEmpty ? heading + ": empty." : heading + ":\n" + checklistRows(item.checklist)
    }

    /// One row for each entry: its number, whether it is ticked off (`x`) or canceled (`-`), its title.
    private static func checklistRows(_ entries: [ChecklistItemSummary]) -> String {
        let width = String(entries.count).count + 1
        return entries.enumerated().map { index, entry in
            let number = "#\(index + 1)".padding(toLength: width, withPad: " ", startingAt: 0)
            let box = switch entry.status { case .open: " "; case .completed: "x"; case .canceled: "-" }
            return "  \(number) [\(box)] \(entry.title)"
        }.joined(separator: "\n")
    }

    /// `"Buy milk" (3f2a91c0) is #4 of Groceries.`, one line per placed item.
    ///
    /// With `inToday`, the positions count Today: `now #2 of Today`.
    static func placed(_ verb: String, _ items: [ItemSummary], positions: [Item.ID: Int], inToday: Bool = false) -> String {
        items.map { item in
            let name = inToday ? "Today" : item.listName
            let place = positions[item.id].map { "#\($0) of \(name)" } ?? "in \(name)"
            return "\(verb) \(quoted(item.title)) (\(short(item.id))), now \(place)."
        }.joined(separator: "\n")
    }
}
