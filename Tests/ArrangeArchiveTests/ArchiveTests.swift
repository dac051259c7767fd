import ArrangeArchive
import ArrangeModel
import Foundation
import Testing

private typealias Tag = ArrangeModel.Tag

@Suite("Archive: the JSON export, Markdown and CSV")
struct ArchiveTests {
    static let list = ItemList(id: ItemList.ID("00000001-0000-4000-8000-000000000000")!, name: "Groceries", createdAt: Date(timeIntervalSince1970: 1_800_000_000.25), sortIndex: -7)
    static let milk = Item(
        id: Item.ID("00000002-0000-4000-8000-000000000000")!, listID: list.id, title: "Milk, \"oat\"", notes: "two\nbottles",
        sortIndex: 10, createdAt: Date(timeIntervalSince1970: 1_800_000_001.123456), completedAt: nil, todayIndex: 5)
    static let eggs = Item(
        id: Item.ID("00000003-0000-4000-8000-000000000000")!, listID: list.id, title: "Eggs", sortIndex: 20,
        createdAt: Date(timeIntervalSince1970: 1_800_000_002), completedAt: Date(timeIntervalSince1970: 1_800_000_003), todayIndex: -1)
    static let oat = ChecklistItem(id: ChecklistItem.ID("00000004-0000-4000-8000-000000000000")!, itemID: milk.id, title: "Oat", sortIndex: -3)
    static let whole = ChecklistItem(
        id: ChecklistItem.ID("00000005-0000-4000-8000-000000000000")!, itemID: milk.id, title: "Whole", sortIndex: 9, completedAt: Date(timeIntervalSince1970: 1_800_000_004.5))
    static let archive = Archive(defaultList: list.id, lists: [ArchivedList(list, items: [ArchivedItem(milk, checklist: [oat, whole]), ArchivedItem(eggs)])])

    @Test("JSON round-trips exactly, dates and keys included, and the same archive gives the same bytes")
    func roundTrip() throws {
        let data = try Self.archive.jsonData()
        let read = try Archive(jsonData: data)
        #expect(read == Self.archive)
        #expect(try read.jsonData() == data)
        #expect(read.lists[0].items[0].item(in: Self.list.id) == Self.milk)
        #expect(read.lists[0].items[0].checklistItems == [Self.oat, Self.whole])
        #expect(read.lists[0].items[1].checklist == nil, "an item without a checklist has no checklist key")
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"defaultList\" : \"00000001-0000-4000-8000-000000000000\",\n  \"format\" : \"arrange\",\n"))
        #expect(text.hasSuffix("\"version\" : 2\n}\n"), "checklists need version 2")
        let plain = Archive(defaultList: nil, lists: [ArchivedList(Self.list, items: [ArchivedItem(Self.eggs)])])
        #expect(String(decoding: try plain.jsonData(), as: UTF8.self).hasSuffix("\"version\" : 1\n}\n"), "an archive without checklists stays at version 1")
        #expect(!text.contains("completedAt\" : null"), "an open item has no completedAt")
    }

    @Test("Markdown has a heading per list and a checkbox line per item, in order")
    func markdown() {
        #expect(Self.archive.markdown() == "# Groceries\n\n- [ ] Milk, \"oat\"\n  - [ ] Oat\n  - [x] Whole\n- [x] Eggs\n")
        let two = Archive(defaultList: nil, lists: Self.archive.lists + [ArchivedList(ItemList(name: "Work", createdAt: .now), items: [])])
        #expect(two.markdown() == "# Groceries\n\n- [ ] Milk, \"oat\"\n  - [ ] Oat\n  - [x] Whole\n- [x] Eggs\n\n# Work\n")
    }

    @Test("Headings: version 4, each list's headings in order, items naming theirs, Markdown sections; an item under a heading its list lacks is refused")
    func headings() throws {
        let bakery = Heading(id: Heading.ID("00000006-0000-4000-8000-000000000000")!, listID: Self.list.id, title: "Bakery", createdAt: Date(timeIntervalSince1970: 1_800_000_005), sortIndex: 3)
        var bread = Item(id: Item.ID("00000007-0000-4000-8000-000000000000")!, listID: Self.list.id, title: "Bread", sortIndex: 1, createdAt: Date(timeIntervalSince1970: 1_800_000_006))
        bread.heading = bakery.id
        let archive = Archive(
            defaultList: Self.list.id,
            lists: [ArchivedList(Self.list, headings: [ArchivedHeading(bakery)], items: [ArchivedItem(Self.eggs), ArchivedItem(bread)])])
        let data = try archive.jsonData()
        let read = try Archive(jsonData: data)
        #expect(try read == archive && read.jsonData() == data)
        #expect(read.version == 4 && read.lists[0].headings?.first?.heading(in: Self.list.id) == bakery)
        #expect(read.lists[0].items[1].item(in: Self.list.id) == bread)
        #expect(!String(decoding: try Self.archive.jsonData(), as: UTF8.self).contains("heading"), "an archive without headings names none")
        #expect(archive.markdown() == "# Groceries\n\n- [x] Eggs\n\n## Bakery\n\n- [ ] Bread\n")
        var lost = archive
        lost.lists[0].headings = nil
        #expect(throws: ArchiveError.invalid(path: "lists[0].items[1].heading", reason: "no heading of its list has the id 00000006-0000-4000-8000-000000000000.")) {
            try Archive(jsonData: try lost.jsonData())
        }
    }

    @Test("Tags: version 9, the tree depth first with shortcuts, byte for byte; none without them; a child before its parent, a duplicate name or a long shortcut refused")
    func tags() throws {
        let errand = ArchivedTag(Tag(id: Tag.ID(rawValue: UUID(uuid: (0, 0, 0, 9, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0))), name: "Errand", sortIndex: 0, shortcut: "e", createdAt: Date(timeIntervalSince1970: 100)))
        let shops = ArchivedTag(Tag(id: Tag.ID(rawValue: UUID(uuid: (0, 0, 0, 10, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0))), name: "Shops", parent: errand.id, sortIndex: 0, createdAt: Date(timeIntervalSince1970: 100)))
        let archive = Archive(defaultList: Self.list.id, lists: [ArchivedList(Self.list, items: [ArchivedItem(Self.milk)])], tags: [errand, shops])
        let data = try archive.jsonData()
        let read = try Archive(jsonData: data)
        #expect(try read == archive && read.jsonData() == data)
        #expect(read.version == 9 && read.tags?.map(\.tag) == [errand.tag, shops.tag])
        #expect(!String(decoding: try Self.archive.jsonData(), as: UTF8.self).contains("tags"), "no tags, no member and the version of before")
        var tagged = Self.milk
        tagged.tags = [shops.id, errand.id]
        let withItemTags = Archive(defaultList: Self.list.id, lists: [ArchivedList(Self.list, items: [ArchivedItem(tagged)])], tags: [errand, shops])
        #expect(try Archive(jsonData: try withItemTags.jsonData()).lists[0].items[0].item(in: Self.list.id).tags == [errand.id, shops.id])
        #expect(withItemTags.markdown().contains("- [ ] Milk, \"oat\" #Errand #Shops"), "Markdown puts the tags after the title, in the tags' order: \(withItemTags.markdown())")

        var orphan = archive
        orphan.tags = [shops, errand]
        #expect(throws: ArchiveError.invalid(path: "tags[0].parent", reason: "no tag before it in the archive has the id \(errand.id).")) {
            try Archive(jsonData: try orphan.jsonData())
        }
        var twin = shops
        (twin.id, twin.name) = (Tag.ID(rawValue: UUID()), "errand")
        var duplicate = archive
        duplicate.tags = [errand, twin]
        #expect(throws: ArchiveError.invalid(path: "tags[1].name", reason: "another tag is named 'errand'.")) {
            try Archive(jsonData: try duplicate.jsonData())
        }
        var long = archive
        long.tags?[0].shortcut = "ee"
        #expect(throws: ArchiveError.invalid(path: "tags[0].shortcut", reason: "a shortcut is one character.")) {
            try Archive(jsonData: try long.jsonData())
        }
    }

    @Test("The Trash: version 10, a list's, a heading's and an item's trashedAt, byte for byte; left out of the Markdown, dated in the CSV")
    func trash() throws {
        let moment = Date(timeIntervalSince1970: 1_800_000_100)
        var list = Self.list
        list.trashedAt = moment
        var eggs = Self.eggs
        eggs.trashedAt = moment
        let heading = Heading(id: Heading.ID("00000009-0000-4000-8000-000000000000")!, listID: list.id, title: "Dairy", createdAt: moment, trashedAt: moment)
        let trashed = Archive(defaultList: nil, lists: [ArchivedList(list, headings: [ArchivedHeading(heading)], items: [ArchivedItem(Self.milk), ArchivedItem(eggs)])])
        #expect(trashed.requiredVersion == 10 && Self.archive.requiredVersion < 10, "only an archive with something in the Trash is version 10")
        let data = try trashed.jsonData()
        let read = try Archive(jsonData: data)
        #expect(read.version == 10 && read.lists[0].list.trashedAt == moment && read.lists[0].headings?[0].heading(in: list.id).trashedAt == moment)
        #expect(read.lists[0].items.map { $0.item(in: list.id).trashedAt } == [nil, moment])
        #expect(try read.jsonData() == data, "byte for byte")
        #expect(trashed.markdown() == "\n", "a list in the Trash is left out, with all it holds")
        var kept = Self.list
        kept.name = "Kept"
        let partly = Archive(defaultList: nil, lists: [ArchivedList(kept, items: [ArchivedItem(Self.milk), ArchivedItem(eggs)])])
        #expect(!partly.markdown().contains("Eggs") && partly.markdown().contains("Milk"))
        let rows = partly.csv().components(separatedBy: "\r\n")
        #expect(rows[1].hasSuffix(",open,,") && rows[2].hasSuffix(",completed," + moment.formatted(.iso8601) + ","), "\(rows)")
    }

    @Test("Scheduled lists: version 13, a list's when and deadline byte for byte, each form of when alike")
    func scheduledLists() throws {
        let day = Day(Date(timeIntervalSince1970: 1_796_083_200), in: .gmt)
        #expect(Self.archive.requiredVersion < 13)
        for (when, deadline) in [(When.on(day, evening: true), day), (.someday, nil), (.anytime, day.adding(days: 9)), (.on(day), nil)] {
            var list = Self.list
            (list.when, list.deadline) = (when, deadline)
            let scheduled = Archive(defaultList: nil, lists: [ArchivedList(list, items: [ArchivedItem(Self.milk)])])
            let data = try scheduled.jsonData()
            let read = try Archive(jsonData: data)
            #expect(read.version == 13 && read.lists[0].list == list, "\(when)")
            #expect(try read.jsonData() == data, "byte for byte")
        }
    }

    @Test("Lists' notes: version 14, byte for byte, lines and awkward characters alike; none leaves the version as it was")
    func listNotes() throws {
        #expect(Self.archive.requiredVersion < 14)
        for notes in ["Passports first.\nThen tickets.", "\"quoted\" \\ back – 🧳", " "] {
            var list = Self.list
            list.notes = notes
            let archive = Archive(defaultList: nil, lists: [ArchivedList(list, items: [ArchivedItem(Self.milk)])])
            let data = try archive.jsonData()
            let read = try Archive(jsonData: data)
            #expect(read.version == 14 && read.lists[0].list == list, "\(notes)")
            #expect(try read.jsonData() == data, "byte for byte")
        }
        #expect(Archive(defaultList: nil, lists: [ArchivedList(Self.list, items: [])]).version < 14, "none without notes")
    }

    @Test("Reminders: version 11, an item's reminder byte for byte, and in the CSV")
    func reminders() throws {
        var reminded = Self.milk
        (reminded.when, reminded.reminder) = (.on(Day(Date(timeIntervalSince1970: 1_796_083_200), in: .gmt)), try TimeOfDay(parsing: "09:30"))
        let archive = Archive(defaultList: nil, lists: [ArchivedList(Self.list, items: [ArchivedItem(reminded), ArchivedItem(Self.eggs)])])
        let data = try archive.jsonData()
        let read = try Archive(jsonData: data)
        #expect(read.version == 11 && read.lists[0].items[0].item(in: Self.list.id).reminder == reminded.reminder)
        #expect(String(decoding: data, as: UTF8.self).contains(#""reminder" : "09:30""#))
        #expect(try read.jsonData() == data)
        let rows = archive.csv().components(separatedBy: "\r\n")
        #expect(rows[1].hasSuffix(",open,,09:30") && rows[2].hasSuffix(",completed,,"), "\(rows)")
        #expect(Archive(defaultList: nil, lists: [ArchivedList(Self.list, items: [ArchivedItem(Self.eggs)])]).version < 11, "none without reminders")
    }

    @Test("Repeating to-dos: version 12, each series with its rule and template, and an item's series, byte for byte; a series of no list refused")
    func series() throws {
        let rule = try RepeatRule(.fixed, every: 2, .week, weekdays: [.mo, .th], ends: .after(10), deadlineOffset: 1, reminder: TimeOfDay(parsing: "08:00"))
        let series = Series(
            id: Series.ID("00000009-0000-4000-8000-000000000000")!, rule: rule, start: try Day(parsing: "2027-01-04"), madeThrough: try Day(parsing: "2027-01-14"),
            madeCount: 2, isPaused: true, listID: Self.list.id, title: "Water the plants", notes: "The ferns first", checklist: ["Ferns", "Cactus"],
            createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        var made = Self.milk
        made.series = series.id
        let archive = Archive(defaultList: nil, lists: [ArchivedList(Self.list, items: [ArchivedItem(made), ArchivedItem(Self.eggs)])], series: [series])
        let data = try archive.jsonData()
        let read = try Archive(jsonData: data)
        #expect(read.version == 12 && read.series == [series] && read.lists[0].items[0].item(in: Self.list.id).series == series.id)
        #expect(try read.jsonData() == data)
        #expect(String(decoding: data, as: UTF8.self).contains(#""paused" : true"#))
        var stray = series
        stray.listID = ItemList.ID("0000000a-0000-4000-8000-000000000000")!
        let strayData = try Archive(defaultList: nil, lists: [ArchivedList(Self.list, items: [])], series: [stray]).jsonData()
        #expect(throws: ArchiveError.invalid(path: "series[0].listID", reason: "no list of the archive has the id \(stray.listID).")) { try Archive(jsonData: strayData) }
    }

    @Test("Dates: version 5, each item's start date, someday, evening and deadline, byte for byte; none without them; cancelations and finished lists after")
    func dates() throws {
        let day = try Day(parsing: "2026-12-01")
        var evening = Self.milk
        (evening.when, evening.deadline) = (.on(day, evening: true), day.adding(days: 2))
        var someday = Self.eggs
        someday.when = .someday
        let archive = Archive(defaultList: Self.list.id, lists: [ArchivedList(Self.list, items: [ArchivedItem(evening), ArchivedItem(someday)])])
        let data = try archive.jsonData()
        let read = try Archive(jsonData: data)
        #expect(try read == archive && read.jsonData() == data)
        #expect(read.version == 5)
        #expect(read.lists[0].items.map { $0.item(in: Self.list.id) } == [evening, someday])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"startDate\" : \"2026-12-01\"") && text.contains("\"deadline\" : \"2026-12-03\"") && text.contains("\"evening\" : true"))
        let plain = String(decoding: try Self.archive.jsonData(), as: UTF8.self)
        #expect(!plain.contains("startDate") && !plain.contains("someday") && !plain.contains("evening") && !plain.contains("deadline"))

        // A dismissed deadline takes version 6, and comes back dismissed.
        evening.deadlineDismissed = true
        let dismissed = Archive(defaultList: Self.list.id, lists: [ArchivedList(Self.list, items: [ArchivedItem(evening)])])
        let reread = try Archive(jsonData: try dismissed.jsonData())
        #expect(reread.version == 6 && reread.lists[0].items[0].item(in: Self.list.id) == evening)

        // A canceled item takes version 7, comes back canceled, and Markdown strikes it through.
        var canceled = Self.eggs
        canceled.isCanceled = true
        let withCanceled = Archive(defaultList: Self.list.id, lists: [ArchivedList(Self.list, items: [ArchivedItem(canceled)])])
        let canceledData = try withCanceled.jsonData()
        let canceledRead = try Archive(jsonData: canceledData)
        #expect(canceledRead.version == 7 && canceledRead.lists[0].items[0].item(in: Self.list.id).status == .canceled)
        #expect(try canceledRead.jsonData() == canceledData)
        #expect(withCanceled.markdown().contains("- [x] ~~Eggs~~"), "\(withCanceled.markdown())")
        #expect(withCanceled.csv().components(separatedBy: "\r\n")[1].hasSuffix(",canceled,,"))

        // A finished list takes version 8, comes back finished, and Markdown says so in its heading.
        for canceled in [false, true] {
            var finished = Self.list
            (finished.completedAt, finished.isCanceled) = (Date(timeIntervalSince1970: 1_797_000_000.5), canceled)
            let withFinished = Archive(defaultList: nil, lists: [ArchivedList(finished, items: [ArchivedItem(Self.eggs)])])
            let finishedData = try withFinished.jsonData()
            let finishedRead = try Archive(jsonData: finishedData)
            #expect(finishedRead.version == 8 && finishedRead.lists[0].list == finished)
            #expect(try finishedRead.jsonData() == finishedData)
            #expect(withFinished.markdown().hasPrefix("# \(finished.name) (\(canceled ? "canceled" : "completed"))\n"), "\(withFinished.markdown())")
        }
    }

    @Test("CSV follows RFC 4180: a header, CR LF, quoted fields with doubled quotes; today is the place in Today")
    func csv() {
        let lines = Self.archive.csv().components(separatedBy: "\r\n")
        #expect(lines[0] == "list,title,notes,completed,completed_at,created_at,updated_at,today,id,list_id,start_date,someday,evening,deadline,status,trashed_at,reminder")
        #expect(lines[1] == #"Groceries,"Milk, ""oat""","two"# + "\n" + #"bottles",false,,2027-01-15T08:00:01Z,2027-01-15T08:00:01Z,2,00000002-0000-4000-8000-000000000000,00000001-0000-4000-8000-000000000000,,false,false,,open,,"#)
        #expect(lines[2] == "Groceries,Eggs,,true,2027-01-15T08:00:03Z,2027-01-15T08:00:02Z,2027-01-15T08:00:02Z,1,00000003-0000-4000-8000-000000000000,00000001-0000-4000-8000-000000000000,,false,false,,completed,,")
        var dated = Self.milk
        (dated.when, dated.deadline) = (.on(Day(Date(timeIntervalSince1970: 1_796_083_200), in: .gmt), evening: true), Day(Date(timeIntervalSince1970: 1_796_256_000), in: .gmt))
        let row = Archive(defaultList: nil, lists: [ArchivedList(Self.list, items: [ArchivedItem(dated)])]).csv().components(separatedBy: "\r\n")[1]
        #expect(row.hasSuffix(",2026-12-01,false,true,2026-12-03,open,,"), "\(row)")
        #expect(lines.count == 4 && lines[3].isEmpty, "every line ends in CR LF")
        #expect(Self.archive.todayOrder == [Self.eggs.id, Self.milk.id])
    }

    @Test("Bad files are refused whole, saying where the fault is", arguments: [
        ("{\n  \"format\": \"arrange\",\n  \"version\": 1,\n  \"lists\": [x]\n}", "The file is not valid JSON: line 4, column 13: invalid value."),
        ("{\n  \"format\": \"arrange\",\n  \"version\": 1,\n  \"lists\": [", "The file is not valid JSON: it ends early, at line 4: the file may be cut short."),
        (#"{"format": "arrange", "version": 16, "lists": []}"#, "The file is in format version 16, newer than this Arrange reads (15); update Arrange to import it."),
        (#"{"format": "arrange", "version": 8, "lists": [{"id": "00000001-0000-4000-8000-000000000000", "name": "A", "createdAt": 0, "sortIndex": 0, "canceled": true, "items": []}]}"#,
         "The value at lists[0].canceled is not valid: only a finished list, with a completedAt, is canceled."),
        (#"{"format": "arrange", "version": 5, "lists": [{"id": "00000001-0000-4000-8000-000000000000", "name": "A", "createdAt": 0, "sortIndex": 0, "items": [{"id": "00000002-0000-4000-8000-000000000000", "title": "T", "notes": "", "sortIndex": 0, "createdAt": 0, "updatedAt": 0, "deadline": "2026-02-30"}]}]}"#,
         "The value at lists[0].items[0].deadline is not valid: '2026-02-30' is not a day; write a day as YYYY-MM-DD, such as 2026-11-28."),
        (#"{"format": "arrange", "version": 5, "lists": [{"id": "00000001-0000-4000-8000-000000000000", "name": "A", "createdAt": 0, "sortIndex": 0, "items": [{"id": "00000002-0000-4000-8000-000000000000", "title": "T", "notes": "", "sortIndex": 0, "createdAt": 0, "updatedAt": 0, "startDate": "2026-12-01", "someday": true}]}]}"#,
         "The value at lists[0].items[0].someday is not valid: an item is someday or has a start date, not both."),
        (#"{"format": "arrange", "version": 5, "lists": [{"id": "00000001-0000-4000-8000-000000000000", "name": "A", "createdAt": 0, "sortIndex": 0, "items": [{"id": "00000002-0000-4000-8000-000000000000", "title": "T", "notes": "", "sortIndex": 0, "createdAt": 0, "updatedAt": 0, "evening": true}]}]}"#,
         "The value at lists[0].items[0].evening is not valid: only an item with a start date is in the evening of it."),
        (#"{"format": "arrange", "version": 6, "lists": [{"id": "00000001-0000-4000-8000-000000000000", "name": "A", "createdAt": 0, "sortIndex": 0, "items": [{"id": "00000002-0000-4000-8000-000000000000", "title": "T", "notes": "", "sortIndex": 0, "createdAt": 0, "updatedAt": 0, "deadlineDismissed": true}]}]}"#,
         "The value at lists[0].items[0].deadlineDismissed is not valid: only an item with a deadline can have it dismissed."),
        (#"{"format": "arrange", "version": 7, "lists": [{"id": "00000001-0000-4000-8000-000000000000", "name": "A", "createdAt": 0, "sortIndex": 0, "items": [{"id": "00000002-0000-4000-8000-000000000000", "title": "T", "notes": "", "sortIndex": 0, "createdAt": 0, "updatedAt": 0, "canceled": true}]}]}"#,
         "The value at lists[0].items[0].canceled is not valid: only a done item, with a completedAt, is canceled."),
        (#"{"format": "arrange", "version": 3, "lists": [{"id": "00000001-0000-4000-8000-000000000000", "name": "A", "createdAt": 0, "sortIndex": 0, "area": "00000002-0000-4000-8000-000000000000", "items": []}]}"#,
         "The value at lists[0].area is not valid: no area of the archive has the id 00000002-0000-4000-8000-000000000000."),
        (#"{"format": "arrange", "version": 3, "areas": [{"id": "00000002-0000-4000-8000-000000000000", "name": "W", "createdAt": 0, "sortIndex": 0}, {"id": "00000003-0000-4000-8000-000000000000", "name": "w", "createdAt": 0, "sortIndex": 1}], "lists": []}"#,
         "The value at areas[1].name is not valid: another area is named 'w'."),
        (#"{"format": "arrange", "version": 0, "lists": []}"#, "The value at version is not valid: an archive has a format version of 1 or more."),
        (#"{"lists": []}"#, #"The file is not an Arrange export: it has no "format": "arrange"."#),
        (#"[1, 2]"#, #"The file is not an Arrange export: it has no "format": "arrange"."#),
        (#"{"format": "arrange", "version": 1}"#, "The value at lists is not valid: it is missing."),
        (#"{"format": "arrange", "version": 1, "lists": [{"id": "nope", "name": "A", "createdAt": 0, "sortIndex": 0, "items": []}]}"#,
         "The value at lists[0].id is not valid: 'nope' is not a UUID."),
        (#"{"format": "arrange", "version": 1, "lists": [{"id": "00000001-0000-4000-8000-000000000000", "name": "A", "createdAt": "today", "sortIndex": 0, "items": []}]}"#,
         "The value at lists[0].createdAt is not valid: expected a number."),
    ])
    func refused(json: String, message: String) {
        #expect(throws: ArchiveError.self) { try Archive(jsonData: Data(json.utf8)) }
        do {
            _ = try Archive(jsonData: Data(json.utf8))
        } catch {
            #expect(String(describing: error) == message)
        }
    }

    @Test("Duplicate ids and names, invalid titles and an unknown default list are refused with their path")
    func inconsistent() throws {
        func refusal(_ change: (inout Archive) -> Void) throws -> String? {
            var archive = Self.archive
            change(&archive)
            do {
                _ = try Archive(jsonData: try archive.jsonData())
                return nil
            } catch {
                return String(describing: error)
            }
        }
        #expect(try refusal { $0.lists.append($0.lists[0]) } == "The value at lists[1].id is not valid: another list has the id 00000001-0000-4000-8000-000000000000.")
        #expect(try refusal { var other = ArchivedList(ItemList(name: "GROCERIES", createdAt: .now), items: []); other.name = "GROCERIES"; $0.lists.append(other) }
            == "The value at lists[1].name is not valid: another list is named 'GROCERIES'.")
        #expect(try refusal { $0.lists[0].items.append($0.lists[0].items[0]) } == "The value at lists[0].items[2].id is not valid: another item has the id 00000002-0000-4000-8000-000000000000.")
        #expect(try refusal { $0.lists[0].items[1].title = "  " }?.hasPrefix("The value at lists[0].items[1].title is not valid: The title is empty") == true)
        #expect(try refusal { $0.lists[0].items[1].checklist = [ArchivedChecklistItem(Self.oat)] }
            == "The value at lists[0].items[1].checklist[0].id is not valid: another checklist entry has the id 00000004-0000-4000-8000-000000000000.")
        #expect(try refusal { $0.lists[0].items[0].checklist?[1].title = "" }?.hasPrefix("The value at lists[0].items[0].checklist[1].title is not valid") == true)
        #expect(try refusal { $0.defaultList = ItemList.ID("00000009-0000-4000-8000-000000000000") }
            == "The value at defaultList is not valid: no list of the archive has the id 00000009-0000-4000-8000-000000000000.")
        #expect(try refusal { _ in } == nil)
    }
}
