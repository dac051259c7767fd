import ArrangeArchive
import ArrangeIntents
import ArrangeModel
import ArrangeStore
import ArrangeThings
import Foundation
import GRDB
import Testing

private typealias Tag = ArrangeModel.Tag

/// A Things-shaped database that the test builds itself: areas, projects, headings, ties,
/// trashed and cancelled to-dos, a repeating template, checklists and Today.
struct ThingsFixture {
    let folder: URL
    let pool: DatabasePool
    var path: String { folder.appendingPathComponent("main.sqlite").path }

    /// 2026-11-23, the day of the import, as Things packs a day (things.py: the year shifted
    /// left 16 bits, the month 12, the day 7): written out, so that the fixture follows Things'
    /// encoding and not the importer's.
    static let today: Int64 = 132_823_936
    static let importDay = Date(timeIntervalSince1970: 1_795_392_000 + 12 * 3_600)
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        return calendar
    }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("things-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        pool = try DatabasePool(path: folder.appendingPathComponent("main.sqlite").path)
        try pool.write { db in
            try db.execute(sql: #"CREATE TABLE TMArea (uuid TEXT PRIMARY KEY, title TEXT, "index" INTEGER)"#)
            try db.execute(sql: """
                CREATE TABLE TMTask (uuid TEXT PRIMARY KEY, title TEXT, notes TEXT, type INTEGER, status INTEGER, trashed INTEGER,
                  start INTEGER, startDate INTEGER, deadline INTEGER, deadlineSuppressionDate INTEGER, area TEXT, project TEXT,
                  heading TEXT, "index" INTEGER, todayIndex INTEGER, creationDate REAL, userModificationDate REAL, stopDate REAL,
                  rt1_recurrenceRule BLOB)
                """)
            try db.execute(sql: #"CREATE TABLE TMChecklistItem (uuid TEXT PRIMARY KEY, title TEXT, task TEXT, "index" INTEGER, status INTEGER, stopDate REAL)"#)
            try db.execute(sql: #"INSERT INTO TMArea VALUES ('A-home', 'Home', 2), ('A-work', 'Work', 1)"#)
            let past: Int64 = 132_823_552  // 2026-11-20
            let future: Int64 = 132_845_696  // 2027-01-01
            // uuid, title, type, status, trashed, start, startDate, deadline, suppression, area, project, heading, index, todayIndex, created, stop, rule
            let rows: [[(any DatabaseValueConvertible)?]] = [
                ["P-garden", "Garden", 1, 0, 0, 1, nil, nil, nil, nil, nil, nil, 5, 0, 10, nil, nil],
                ["P-reno", "Renovation", 1, 0, 0, 1, nil, nil, nil, "A-home", nil, nil, 1, 0, 11, nil, nil],
                ["P-old", "Old", 1, 0, 1, 1, nil, nil, nil, nil, nil, nil, 0, 0, 12, nil, nil],
                ["P-taxes", "Taxes", 1, 3, 0, 1, nil, nil, nil, "A-work", nil, nil, 0, 0, 13, 99, nil],
                ["H-kitchen", "Kitchen", 2, 0, 0, 1, nil, nil, nil, nil, "P-reno", nil, 2, 0, 14, nil, nil],
                ["H-bath", "Bath", 2, 0, 0, 1, nil, nil, nil, nil, "P-reno", nil, 1, 0, 15, nil, nil],
                ["H-attic", "Attic", 2, 0, 1, 1, nil, nil, nil, nil, "P-reno", nil, 0, 0, 16, nil, nil],
                ["I-call", "Call mom", 0, 0, 0, 0, nil, nil, nil, nil, nil, nil, 3, 0, 20, nil, nil],
                ["I-milk", "Buy milk", 0, 0, 0, 0, nil, nil, nil, nil, nil, nil, 1, 0, 22, nil, nil],
                ["I-eggs", "Buy eggs", 0, 0, 0, 0, nil, nil, nil, nil, nil, nil, 1, 0, 21, nil, nil],
                ["Z-trash", "Thrown away", 0, 0, 1, 0, nil, nil, nil, nil, nil, nil, 0, 0, 23, nil, nil],
                ["T-read", "Read book", 0, 0, 0, 1, past, nil, nil, nil, nil, nil, 0, 5, 24, nil, nil],
                ["T-water", "Water plants", 0, 0, 0, 1, past, nil, nil, nil, nil, nil, 1, 0, 25, nil, nil],
                ["RT-water", "Water plants", 0, 0, 0, 1, nil, nil, nil, nil, nil, nil, 2, 0, 26, nil, Data([1, 2])],
                ["T-piano", "Learn piano", 0, 0, 0, 2, future, nil, nil, nil, nil, nil, 0, 0, 27, nil, nil],
                ["T-passport", "Renew passport", 0, 0, 0, 2, past, nil, nil, nil, nil, nil, 1, 2, 28, nil, nil],
                ["T-door", "Fix door", 0, 0, 0, 1, nil, past, nil, "A-home", nil, nil, 0, 2, 29, nil, nil],
                ["T-gutter", "Clean gutter", 0, 0, 0, 1, nil, past, past, "A-home", nil, nil, 1, 0, 30, nil, nil],
                ["G-roses", "Plant roses", 0, 0, 0, 1, nil, nil, nil, nil, "P-garden", nil, 2, 0, 31, nil, nil],
                ["G-seeds", "Buy seeds", 0, 3, 0, 1, nil, nil, nil, nil, "P-garden", nil, 1, 0, 32, 1_795_000_000, nil],
                ["G-mow", "Mow", 0, 2, 0, 1, nil, nil, nil, nil, "P-garden", nil, 3, 0, 33, 1_795_000_100, nil],
                ["R-budget", "Budget", 0, 0, 0, 1, nil, nil, nil, nil, "P-reno", nil, 5, 0, 34, nil, nil],
                ["K-tiles", "Tiles", 0, 0, 0, 1, nil, nil, nil, nil, nil, "H-kitchen", 0, 0, 35, nil, nil],
                ["B-sink", "Sink", 0, 0, 0, 1, nil, nil, nil, nil, nil, "H-bath", 0, 0, 36, nil, nil],
                ["X-insulate", "Insulate", 0, 0, 0, 1, nil, nil, nil, nil, nil, "H-attic", 0, 0, 37, nil, nil],
                ["O-old", "Old task", 0, 0, 0, 1, nil, nil, nil, nil, "P-old", nil, 0, 0, 38, nil, nil],
            ]
            for row in rows {
                let values: [(any DatabaseValueConvertible)?] = Array(row[0...1]) + [""] + Array(row[2...13]) + [row[14]] + [row[14]] + Array(row[15...16])
                try db.execute(sql: "INSERT INTO TMTask VALUES (\(Array(repeating: "?", count: 19).joined(separator: ", ")))", arguments: StatementArguments(values))
            }
            try db.execute(sql: "UPDATE TMTask SET notes = 'Semi-skimmed' WHERE uuid = 'I-milk'")
            try db.execute(sql: "UPDATE TMTask SET notes = 'Roses by the fence' WHERE uuid = 'P-garden'")
            // This Evening, as Things keeps it: a start date with startBucket 1. And a project's
            // to-do put off to Someday, with no date.
            try db.execute(sql: "ALTER TABLE TMTask ADD COLUMN startBucket INTEGER NOT NULL DEFAULT 0")
            try db.execute(sql: "UPDATE TMTask SET startBucket = 1 WHERE uuid = 'T-water'")
            try db.execute(sql: "UPDATE TMTask SET start = 2 WHERE uuid = 'R-budget'")
            // Projects are scheduled as to-dos are: Renovation from a day, with a deadline; the
            // trashed Old put off to Someday.
            try db.execute(sql: "UPDATE TMTask SET startDate = ?, deadline = ? WHERE uuid = 'P-reno'", arguments: [future, future])
            try db.execute(sql: "UPDATE TMTask SET start = 2 WHERE uuid = 'P-old'")
            // Reminders: at 09:30 on a start date; one on a to-do without a date is none.
            try db.execute(sql: "ALTER TABLE TMTask ADD COLUMN reminderTime INTEGER")
            try db.execute(sql: "UPDATE TMTask SET reminderTime = ? WHERE uuid IN ('T-read', 'I-call')", arguments: [ThingsTime.packed(hour: 9, minute: 30)])
            try db.execute(sql: #"INSERT INTO TMChecklistItem VALUES ('C1', 'Oat', 'I-milk', 1, 0, NULL), ('C2', 'Whole', 'I-milk', 0, 3, 1795000200)"#)
            // The tag manager's tree: Errand (Shops, Post under it), Home; a tag whose parent is
            // gone goes to the top level.
            try db.execute(sql: #"CREATE TABLE TMTag (uuid TEXT PRIMARY KEY, title TEXT, shortcut TEXT, usedDate REAL, parent TEXT, "index" INTEGER)"#)
            try db.execute(sql: """
                INSERT INTO TMTag VALUES ('G-errand', 'Errand', 'e', NULL, NULL, 1), ('G-home', 'Home', NULL, NULL, NULL, 2),
                  ('G-post', 'Post', NULL, NULL, 'G-errand', 2), ('G-shops', 'Shops', 's', NULL, 'G-errand', 1), ('G-stray', 'Stray', NULL, NULL, 'G-gone', 0)
                """)
            // Milk is tagged Shops and Errand, the Garden project Home, the Home area Errand; a
            // use of a tag that is gone is left out.
            try db.execute(sql: "CREATE TABLE TMTaskTag (tasks TEXT NOT NULL, tags TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO TMTaskTag VALUES ('I-milk', 'G-shops'), ('I-milk', 'G-errand'), ('P-garden', 'G-home'), ('I-eggs', 'G-gone')")
            try db.execute(sql: "CREATE TABLE TMAreaTag (areas TEXT NOT NULL, tags TEXT NOT NULL)")
            try db.execute(sql: "INSERT INTO TMAreaTag VALUES ('A-home', 'G-errand')")
        }
    }

    func remove() {
        try? pool.close()
        try? FileManager.default.removeItem(at: folder)
    }
}

@Suite("Import from Things 3")
struct ThingsImportTests {
    @Test("The mapping: sidebar order, Inbox to the default list, headings, ties, Today, checklists; the trashed in the Trash, templates left out")
    func mapping() async throws {
        let fixture = try ThingsFixture()
        defer { fixture.remove() }
        let library = try ThingsLibrary(contentsOf: fixture.path)
        let plan = library.importPlan(today: ThingsFixture.today)
        let lists = plan.archive.lists
        #expect(lists.map(\.name) == ["Inbox", "Anytime", "Someday", "Old", "Garden", "Taxes", "Home", "Renovation"],
            "an area's own to-dos make a list named after it only when it has some: Work has none")
        let trashedLists: [Bool] = lists.map { $0.trashedAt != nil }
        #expect(trashedLists == [false, false, false, true, false, false, false, false], "the trashed project arrives in the Trash")
        #expect(lists[0].id == ThingsImportPlan.inboxID)
        let areas = try #require(plan.archive.areas)
        #expect(areas.map(\.name) == ["Work", "Home"] && areas.map(\.sortIndex) == [0, 1 << 32], "areas in index order")
        #expect(lists.map(\.area) == [nil, nil, nil, nil, nil, areas[0].id, areas[1].id, areas[1].id], "projects inside their areas")
        let listKeys: [Int64] = [0, 1 << 32, 2 << 32, 3 << 32, 4 << 32, 0, 0, 1 << 32]
        #expect(lists.map(\.sortIndex) == listKeys, "keys within each area, or among the lists in no area")
        #expect(lists.map(\.completedAt) == [nil, nil, nil, nil, nil, Date(timeIntervalSince1970: 99), nil, nil], "a completed project keeps its stop date")
        #expect(lists.allSatisfy { $0.canceled == nil })
        let titles = Dictionary(uniqueKeysWithValues: lists.map { ($0.name, $0.items.map(\.title)) })
        #expect(titles["Inbox"] == ["Thrown away", "Buy eggs", "Buy milk", "Call mom"], "index order; the tie breaks by creation date")
        let trashedInbox: [Bool] = lists[0].items.map { $0.trashedAt != nil }
        #expect(trashedInbox == [true, false, false, false], "the trashed to-do arrives in the Trash, in its place")
        #expect(titles["Old"] == ["Old task"], "a trashed project's to-do comes with it, in the Trash through it")
        #expect(titles["Anytime"] == ["Read book", "Water plants"], "the repeating template is left out, its instance stays")
        #expect(titles["Someday"] == ["Learn piano", "Renew passport"])
        #expect(titles["Garden"] == ["Buy seeds", "Plant roses", "Mow"])
        #expect(titles["Renovation"] == ["Budget", "Insulate", "Sink", "Tiles"], "loose to-dos, then Attic (index 0), Bath (1) and Kitchen (2)")
        let renovation = try #require(lists.first { $0.name == "Renovation" })
        let headings = try #require(renovation.headings)
        #expect(headings.map(\.title) == ["Attic", "Bath", "Kitchen"], "the project's headings in index order, the trashed one in the Trash")
        let trashedHeadings: [Bool] = headings.map { $0.trashedAt != nil }
        #expect(trashedHeadings == [true, false, false])
        #expect(headings.map(\.sortIndex) == [0, 1 << 32, 2 << 32])
        #expect(renovation.items.map(\.heading) == [nil, headings[0].id, headings[1].id, headings[2].id], "each to-do under its heading")
        #expect(lists.filter { $0.name != "Renovation" }.allSatisfy { $0.headings == nil })
        #expect(titles["Home"] == ["Fix door", "Clean gutter"])
        #expect(titles["Taxes"] == [])
        let items = Dictionary(uniqueKeysWithValues: lists.flatMap(\.items).map { ($0.title + ($0.todayIndex == nil ? "" : "*"), $0) })
        #expect(items["Buy milk"]?.notes == "Semi-skimmed", "the checklist is not pasted into the notes")
        let checklist = try #require(items["Buy milk"]?.checklistItems)
        #expect(checklist.map(\.title) == ["Whole", "Oat"], "index order")
        #expect(checklist.map(\.completedAt) == [Date(timeIntervalSince1970: 1_795_000_200), nil], "a completed checklist item at its stop date")
        #expect(checklist.map(\.sortIndex) == [0, 1 << 32] && checklist.allSatisfy { $0.itemID == items["Buy milk"]?.id })
        #expect(items["Buy seeds"]?.completedAt == Date(timeIntervalSince1970: 1_795_000_000))
        #expect(items["Mow"]?.completedAt == Date(timeIntervalSince1970: 1_795_000_100) && items["Mow"]?.canceled == true, "cancelled arrives canceled")
        #expect(items.values.filter { $0.canceled == true }.map(\.title) == ["Mow"], "only the cancelled to-do")
        #expect(plan.archive.todayOrder.compactMap { id in lists.flatMap(\.items).first { $0.id == id }?.title }
            == ["Water plants", "Fix door", "Renew passport", "Read book"],
            "todayIndex, then startDate; a suppressed deadline and a future start are not in Today")
        #expect(plan.summary == {
            var summary = ThingsImportSummary()
            (summary.lists, summary.toDos, summary.completed, summary.cancelled) = (8, 18, 1, 1)
            (summary.trashedToDos, summary.trashedProjects, summary.trashedHeadings) = (1, 1, 1)
            (summary.skippedTemplates, summary.unreadableRules, summary.today, summary.checklistItems) = (1, ["Water plants"], 4, 2)
            (summary.areas, summary.headings, summary.completedProjects, summary.tags, summary.reminders) = (2, 3, 1, 5, 1)
            summary.scheduledProjects = 2
            return summary
        }())
        for list in lists {
            for section in Dictionary(grouping: list.items, by: \.heading).values {
                let keys = section.map(\.sortIndex)
                #expect(keys == keys.indices.map { Int64($0) << 32 }, "keys gapped afresh in each section of \(list.name)")
            }
        }
    }

    /// A template's rule as Things writes it: an XML property list of short keys.
    static func rulePlist(_ members: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>\(members)<key>rrv</key><integer>4</integer></dict></plist>
            """.utf8)
    }

    @Test("Repeating templates become series with their rules; their to-dos name them; a rule that cannot be read is reported by title")
    func repeating() async throws {
        let fixture = try ThingsFixture()
        defer { fixture.remove() }
        let november1 = ThingsDay.packed(year: 2026, month: 11, day: 1)
        try await fixture.pool.write { db in
            try db.execute(sql: "ALTER TABLE TMTask ADD COLUMN rt1_repeatingTemplate TEXT")
            try db.execute(sql: "ALTER TABLE TMTask ADD COLUMN rt1_instanceCreationPaused INTEGER NOT NULL DEFAULT 0")
            let rent = Self.rulePlist("""
                <key>fu</key><integer>8</integer><key>fa</key><integer>1</integer><key>tp</key><integer>0</integer>\
                <key>of</key><array><dict><key>dy</key><integer>1</integer></dict></array><key>ed</key><integer>64092211200</integer>\
                <key>rc</key><integer>0</integer><key>ts</key><integer>2</integer><key>ia</key><integer>1793491200</integer>
                """)
            let review = Self.rulePlist("""
                <key>fu</key><integer>256</integer><key>fa</key><integer>2</integer><key>tp</key><integer>0</integer>\
                <key>of</key><array><dict><key>wd</key><integer>2</integer></dict><dict><key>wd</key><integer>5</integer></dict></array>\
                <key>ed</key><integer>1798761600</integer><key>ia</key><integer>1793577600</integer>
                """)
            let plants = Self.rulePlist("<key>fu</key><integer>16</integer><key>fa</key><integer>3</integer><key>tp</key><integer>1</integer>")
            try db.execute(sql: """
                INSERT INTO TMTask (uuid, title, notes, type, status, trashed, start, startDate, "index", todayIndex, creationDate, rt1_recurrenceRule,
                  rt1_repeatingTemplate, rt1_instanceCreationPaused, reminderTime) VALUES
                  ('RT-rent', 'Pay rent', 'By transfer', 0, 0, 0, 2, NULL, 0, 0, 40, ?, NULL, 0, ?),
                  ('T-rent', 'Pay rent', 'By transfer', 0, 0, 0, 1, ?, 9, 0, 41, NULL, 'RT-rent', 0, NULL),
                  ('RT-review', 'Review', '', 0, 0, 0, 2, NULL, 0, 0, 42, ?, NULL, 1, NULL),
                  ('RT-plants', 'Plants', '', 0, 0, 0, 2, NULL, 0, 0, 43, ?, NULL, 0, NULL)
                """, arguments: [rent, ThingsTime.packed(hour: 9, minute: 0), november1, review, plants])
            try db.execute(sql: "UPDATE TMTask SET rt1_repeatingTemplate = 'RT-water' WHERE uuid = 'T-water'")
        }
        let plan = try ThingsLibrary(contentsOf: fixture.path).importPlan(today: ThingsFixture.today)
        let series = try #require(plan.archive.series)
        #expect(series.map(\.title) == ["Pay rent", "Review", "Plants"])
        #expect(try series[0].rule == RepeatRule(.fixed, every: 1, .month, monthDays: [1], deadlineOffset: 2))
        let first = try Day(parsing: "2026-11-01")
        #expect(series[0].start == first && series[0].madeThrough == first)
        #expect(try series[0].reminder == TimeOfDay(parsing: "09:00") && series[0].notes == "By transfer")
        #expect(plan.archive.lists.first { $0.id == series[0].listID }?.name == "Anytime", "where its to-do is, not in Someday with the template")
        #expect(try series[1].rule == RepeatRule(.fixed, every: 2, .week, weekdays: [.mo, .th], ends: .on(Day(parsing: "2027-01-01"))))
        #expect(series[1].isPaused, "rt1_instanceCreationPaused")
        #expect(try series[2].rule == RepeatRule(.afterCompletion, every: 3, .day) && series[2].madeThrough == nil)
        let items = plan.archive.lists.flatMap(\.items)
        #expect(items.first { $0.title == "Pay rent" }?.series == series[0].id, "the to-do names its series")
        #expect(items.first { $0.title == "Water plants" }?.series == nil, "a to-do of a rule that cannot be read comes in without a repeat")
        #expect(!items.contains { ["Review", "Plants"].contains($0.title) }, "templates are no items")
        #expect(plan.summary.repeating == 3 && plan.summary.skippedTemplates == 1 && plan.summary.unreadableRules == ["Water plants"])
    }

    @Test("Dates: a start date, This Evening (startBucket), Someday without a date and deadlines are kept; anytime has none")
    func dates() throws {
        let fixture = try ThingsFixture()
        defer { fixture.remove() }
        let plan = try ThingsLibrary(contentsOf: fixture.path).importPlan(today: ThingsFixture.today)
        let items = Dictionary(plan.archive.lists.flatMap(\.items).map { ($0.title, $0) }, uniquingKeysWith: { first, _ in first })
        let past = try Day(parsing: "2026-11-20")
        #expect(items["Read book"]?.when == .on(past))
        #expect(items["Water plants"]?.when == .on(past, evening: true), "startBucket 1 is the evening")
        #expect(items["Learn piano"]?.when == .on(try Day(parsing: "2027-01-01")), "a scheduled to-do keeps its future start")
        #expect(items["Budget"]?.when == .someday, "start 2 with no date is Someday")
        #expect(items["Call mom"]?.when == .anytime && items["Call mom"]?.deadline == nil)
        #expect(items["Read book"]?.reminder == (try TimeOfDay(parsing: "09:30")) && items["Call mom"]?.reminder == nil, "a reminder needs a start date")
        #expect(plan.summary.reminders == 1)
        #expect(ThingsTime.time(ThingsTime.packed(hour: 23, minute: 59)) == (try TimeOfDay(parsing: "23:59")) && ThingsTime.time(ThingsTime.packed(hour: 24, minute: 0)) == nil)
        #expect(items["Fix door"]?.deadline == past && items["Fix door"]?.when == .anytime)
        #expect(items["Clean gutter"]?.deadline == past && items["Clean gutter"]?.deadlineDismissed == true, "a dismissed deadline is still the deadline")
        let importDay = try Day(parsing: "2026-11-23")
        #expect(ThingsDay.packed(year: 2026, month: 11, day: 23) == ThingsFixture.today && ThingsDay.day(ThingsFixture.today) == importDay)
        #expect(ThingsDay.packed(year: 2024, month: 2, day: 29) == 132_656_768)
        #expect(ThingsDay.day(ThingsDay.packed(year: 2024, month: 2, day: 29)) == (try Day(parsing: "2024-02-29")))
        #expect(ThingsDay.day(ThingsDay.packed(year: 2026, month: 2, day: 30)) == nil, "a packed day that does not exist is no date")
        #expect(ThingsDay.day(0) == nil)

        let lists = Dictionary(plan.archive.lists.map { ($0.name, $0.list) }, uniquingKeysWith: { first, _ in first })
        let newYear = try Day(parsing: "2027-01-01")
        #expect(lists["Renovation"]?.when == .on(newYear) && lists["Renovation"]?.deadline == newYear, "a project keeps its start date and deadline")
        #expect(lists["Old"]?.when == .someday, "start 2 with no date puts a project off to Someday")
        #expect(lists["Garden"]?.when == .anytime && lists["Garden"]?.deadline == nil)
        #expect(lists["Garden"]?.notes == "Roses by the fence" && lists["Renovation"]?.notes == "", "a project keeps its notes")
        #expect(plan.summary.scheduledProjects == 2)
    }

    @Test("Importing goes into the store, Inbox into its default list; importing again updates and never duplicates")
    func reimport() async throws {
        let fixture = try ThingsFixture()
        defer { fixture.remove() }
        let environment = try IntentEnvironment(repository: InMemoryItemRepository())
        try await environment.prepareDefaultList(named: nil)
        _ = try await CreateList(name: "Mine").perform(in: environment)
        let library = try ThingsLibrary(contentsOf: fixture.path)
        let first = try await ImportThings(library, today: ThingsFixture.importDay, calendar: ThingsFixture.utc).perform(in: environment)
        #expect(first.merged.itemsAdded == 18 && first.merged.listsMerged == 1 && first.merged.listsAdded == 7 && first.merged.areasAdded == 2)
        let lists = try await GetLists().perform(in: environment).lists
        #expect(lists.map(\.name) == ["Inbox", "Mine", "Anytime", "Someday", "Garden", "Home", "Renovation"],
            "the new lists come after the store's own, in Things' order, each area's in it; the completed Taxes is in the Logbook")
        #expect(try await GetAreas().perform(in: environment).areas.map { "\($0.name): " + $0.lists.map(\.name).joined(separator: ", ") }
            == ["Work: ", "Home: Home, Renovation"])
        #expect(try await ShowLogbook().perform(in: environment).lists.map { "\($0.name) \($0.status)" } == ["Taxes completed"])
        #expect(try await ListItems(visibility: .openAndCompleted).perform(in: environment).items.map(\.title) == ["Buy eggs", "Buy milk", "Call mom"])
        let milk = try #require(try await ListItems(visibility: .openAndCompleted).perform(in: environment).items.first { $0.title == "Buy milk" }).id
        #expect(try await ShowItem(item: milk).perform(in: environment).item.checklist.map(\.title) == ["Whole", "Oat"])
        let today = try await ShowToday(day: Day(ThingsFixture.importDay, in: .gmt)).perform(in: environment).items.map(\.title)
        // Clean gutter is overdue, its deadline dismissed in Things (deadlineSuppressionDate): not in Today.
        #expect(today == ["Water plants", "Fix door", "Renew passport", "Read book"])
        let renovation = try #require(lists.first { $0.name == "Renovation" }).id
        let sections = { () async throws -> [String] in
            let listing = try await ListItems(list: renovation, visibility: .openAndCompleted).perform(in: environment)
            return listing.items.filter { $0.heading == nil }.map(\.title)
                + listing.headings.flatMap { heading in ["\(heading.title):"] + listing.items.filter { $0.heading == heading.id }.map(\.title) }
        }
        #expect(try await sections() == ["Budget", "Bath:", "Sink", "Kitchen:", "Tiles"], "headings as headings, their to-dos under them")
        // What was in Things' trash is in the Trash: the to-do, the project and the heading, each with what it holds.
        let trash = try await GetTrash().perform(in: environment)
        #expect(trash.items.map(\.title) == ["Thrown away"] && trash.lists.map(\.name) == ["Old"] && trash.headings.map(\.title) == ["Attic"])
        _ = try await RestoreFromTrash(headings: trash.headings.map(\.id)).perform(in: environment)
        #expect(try await sections() == ["Budget", "Attic:", "Insulate", "Bath:", "Sink", "Kitchen:", "Tiles"], "put back, the heading comes back first, with its to-do")
        _ = try await DeleteHeading(heading: try #require(trash.headings.first).id).perform(in: environment)
        let tree = { () async throws -> [String] in
            let tags = try await GetTags().perform(in: environment).tags
            let names = Dictionary(tags.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
            return tags.map { tag in (tag.parent.flatMap { names[$0] }.map { "\($0)/" } ?? "") + tag.name + (tag.shortcut.map { " [\($0)]" } ?? "") }
        }
        #expect(try await tree() == ["Stray", "Errand [e]", "Errand/Shops [s]", "Errand/Post", "Home"], "the tree, its order and shortcuts")
        #expect(first.summary.tags == 5 && first.merged.tagsAdded == 5)
        let tagNames = Dictionary(try await GetTags().perform(in: environment).tags.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let names = { (ids: [Tag.ID]) in ids.compactMap { tagNames[$0] } }
        #expect(names(try await ShowItem(item: milk).perform(in: environment).item.tags) == ["Errand", "Shops"], "a to-do's tags, in the tags' order")
        #expect(try await ListItems(visibility: .openAndCompleted).perform(in: environment).items.first { $0.title == "Buy eggs" }?.tags == [], "a gone tag is left out")
        #expect(names(try #require(lists.first { $0.name == "Garden" }).tags) == ["Home"], "a project's tags")
        #expect(try await GetAreas().perform(in: environment).areas.map { "\($0.name) \(names($0.tags))" } == ["Work []", "Home [\"Errand\"]"], "an area's tags")

        try await fixture.pool.write { db in
            try db.execute(sql: "UPDATE TMTask SET title = 'Call dad' WHERE uuid = 'I-call'")
            try db.execute(sql: "UPDATE TMChecklistItem SET title = 'Oat, barista' WHERE uuid = 'C1'")
        }
        let again = try await ImportThings(try ThingsLibrary(contentsOf: fixture.path), today: ThingsFixture.importDay, calendar: ThingsFixture.utc)
            .perform(in: environment)
        #expect(again.merged.itemsAdded == 0 && again.merged.itemsUpdated == 18 && again.merged.listsAdded == 0)
        #expect(again.merged.areasAdded == 0 && again.merged.areasMerged == 2)
        #expect(again.merged.tagsAdded == 0 && again.merged.tagsMerged == 5)
        let treeAgain = try await tree()
        #expect(treeAgain.count == 5, "tags merged, never duplicated")
        #expect(try await GetLists().perform(in: environment).lists.count == 7)
        #expect(try await ShowLogbook().perform(in: environment).lists.map(\.name) == ["Taxes"])
        #expect(try await GetAreas().perform(in: environment).areas.count == 2)
        #expect(try await ListItems(visibility: .openAndCompleted).perform(in: environment).items.map(\.title) == ["Buy eggs", "Buy milk", "Call dad"])
        #expect(try await ShowItem(item: milk).perform(in: environment).item.checklist.map(\.title) == ["Whole", "Oat, barista"], "updated, never duplicated")
        #expect(try await sections() == ["Budget", "Bath:", "Sink", "Kitchen:", "Tiles"], "headings merged, never duplicated")
    }

    @Test("Reading never writes to the database or its -wal, and sees what only the -wal holds")
    func readOnly() throws {
        let fixture = try ThingsFixture()
        defer { fixture.remove() }
        // The pool stays open: the rows are in the -wal, not yet in main.sqlite.
        let files = [fixture.path, fixture.path + "-wal", fixture.path + "-shm"]
        let before = try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
        let library = try ThingsLibrary(contentsOf: fixture.path)
        #expect(library.tasks.count == 26 && library.areas.count == 2 && library.checklistItems.count == 2)
        #expect(try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } == before)
    }

    @Test("A file that is not a Things database, or is missing, is refused with a clear error")
    func refused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("things-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let other = folder.appendingPathComponent("other.sqlite").path
        try DatabaseQueue(path: other).write { try $0.execute(sql: "CREATE TABLE t (x)") }
        #expect(throws: ThingsError.self) { try ThingsLibrary(contentsOf: other) }
        do {
            _ = try ThingsLibrary(contentsOf: other)
        } catch {
            #expect(String(describing: error).hasPrefix("\(other) is not a Things 3 database: no such table: TMArea"), "\(error)")
        }
        #expect(throws: ThingsError.self) { try ThingsLibrary(contentsOf: folder.appendingPathComponent("missing.sqlite").path) }
    }
}
