import ArrangeModel
import ArrangeStore
@testable import ArrangeSQLite
import Foundation
import Testing

/// The behaviour every ``ItemRepository`` must have, checked on each backend.
@Suite("ItemRepository conformance")
struct RepositoryConformanceTests {
    // MARK: Lists

    @Test("Lists are inserted, fetched in their order (sortIndex, then id), renamed and deleted", arguments: Backend.allCases)
    func lists(backend: Backend) throws {
        let store = try backend.makeStore()
        let inbox = Sample.list("Inbox", at: 10)
        let work = Sample.list("Work", at: 5)
        try store.repository.write { store throws in
            try store.insert(inbox)
            try store.insert(work)
        }
        try store.repository.read { store throws in
            #expect(try store.lists() == [work, inbox])
            #expect(try store.list(id: inbox.id) == inbox)
            #expect(try store.list(id: ItemList.ID()) == nil)
        }

        var renamed = inbox
        renamed.name = "Today"
        try store.repository.write { try $0.update(renamed) }
        #expect(try store.repository.read { try $0.list(id: inbox.id) } == renamed)

        try store.repository.write { try $0.deleteList(id: work.id) }
        #expect(try store.repository.read { try $0.lists() } == [renamed])

        let missing = Sample.list("Nowhere")
        #expect(throws: StoreError.listNotFound(missing.id)) { try store.repository.write { try $0.update(missing) } }
        #expect(throws: StoreError.listNotFound(missing.id)) {
            try store.repository.write { try $0.deleteList(id: missing.id) }
        }
    }

    @Test("Lists created at the same moment are ordered by id", arguments: Backend.allCases)
    func listsTieBreak(backend: Backend) throws {
        let store = try backend.makeStore()
        let lists = (0..<5).map { ItemList(name: "List \($0)", createdAt: Sample.date(0)) }
        try store.repository.write { store throws in
            for list in lists { try store.insert(list) }
        }
        #expect(try store.repository.read { try $0.lists() } == lists.sorted { $0.id < $1.id })
    }

    @Test("A list name that another list has, ignoring case and width, is refused", arguments: Backend.allCases)
    func duplicateListNames(backend: Backend) throws {
        let store = try backend.makeStore()
        let groceries = Sample.list("Groceries")
        let work = Sample.list("Work", at: 1)
        try store.repository.write { store throws in
            try store.insert(groceries)
            try store.insert(work)
        }

        let duplicate = StoreError.validation(.duplicateListName("Groceries"))
        #expect(throws: duplicate) { try store.repository.write { try $0.insert(Sample.list("GROCERIES")) } }
        #expect(throws: StoreError.validation(.duplicateListName("Work"))) {
            try store.repository.write { try $0.insert(Sample.list("\u{FF37}ork")) }  // a full-width W
        }
        var renamed = work
        renamed.name = "groceries"
        #expect(throws: duplicate) { try store.repository.write { try $0.update(renamed) } }

        // A list may change the case of its own name.
        var recased = groceries
        recased.name = "GROCERIES"
        try store.repository.write { try $0.update(recased) }
        #expect(try store.repository.read { try $0.lists() } == [recased, work])
    }

    @Test("Inserting a list whose id is taken is refused and changes nothing", arguments: Backend.allCases)
    func duplicateListID(backend: Backend) throws {
        let store = try backend.makeStore()
        let (list, items) = try store.seed("Home", sortIndices: [1, 2])
        let again = ItemList(id: list.id, name: "House", createdAt: Sample.date(50))
        #expect(throws: StoreError.duplicateList(list.id)) { try store.repository.write { try $0.insert(again) } }
        // The taken id is reported first, even when the name is taken too.
        #expect(throws: StoreError.duplicateList(list.id)) { try store.repository.write { try $0.insert(list) } }
        #expect(try store.contents() == [list: items])
    }

    @Test("Renaming an unknown list reports the list, not its name", arguments: Backend.allCases)
    func renamingUnknownList(backend: Backend) throws {
        let store = try backend.makeStore()
        try store.repository.write { try $0.insert(Sample.list("Inbox")) }
        let stranger = Sample.list("inbox")
        #expect(throws: StoreError.listNotFound(stranger.id)) { try store.repository.write { try $0.update(stranger) } }
    }

    // MARK: Items

    @Test("Items are inserted, fetched, changed in every field and deleted", arguments: Backend.allCases)
    func items(backend: Backend) throws {
        let store = try backend.makeStore()
        let (home, _) = try store.seed("Home", sortIndices: [])
        let (work, _) = try store.seed("Work", sortIndices: [])
        let item = Sample.item(in: home.id, "Water the plants", sortIndex: 1_024)
        try store.repository.write { try $0.insert(item) }
        #expect(try store.repository.read { try $0.item(id: item.id) } == item)
        #expect(try store.repository.read { try $0.item(id: Item.ID()) } == nil)

        let changed = Item(
            id: item.id, listID: work.id, title: "Water the office plants", notes: "", sortIndex: -7,
            createdAt: Sample.date(-100), updatedAt: Sample.date(100), completedAt: Sample.date(50))
        try store.repository.write { try $0.update(changed) }
        try store.repository.read { store throws in
            #expect(try store.item(id: item.id) == changed)
            #expect(try store.itemCount(in: home.id, visibility: .all) == 0)
            #expect(try store.items(in: work.id, visibility: .all, offset: 0, limit: 10) == [changed])
            #expect(try store.items(in: work.id, visibility: .open, offset: 0, limit: 10) == [])
        }

        try store.repository.write { try $0.deleteItem(id: item.id) }
        #expect(try store.repository.read { try $0.item(id: item.id) } == nil)
        #expect(try store.repository.read { try $0.itemCount(in: work.id, visibility: .all) } == 0)
    }

    @Test("An item's when and deadline are stored, changed and cleared, each form of when alike", arguments: Backend.allCases)
    func whenAndDeadline(backend: Backend) throws {
        let store = try backend.makeStore()
        let (home, _) = try store.seed("Home", sortIndices: [])
        let day = Day(Sample.date(0), in: .gmt)
        var item = Sample.item(in: home.id, "Taxes", sortIndex: 0)
        item.when = .on(day, evening: true)
        item.deadline = day.adding(days: 30)
        try store.repository.write { try $0.insert(item) }
        #expect(try store.repository.read { try $0.item(id: item.id) } == item)
        for (when, deadline) in [(When.someday, day), (.on(day.adding(days: -400)), nil), (.anytime, day.adding(days: 1)), (.on(day), nil)] {
            (item.when, item.deadline) = (when, deadline)
            try store.repository.write { try $0.update(item) }
            let stored = try store.repository.read { try $0.item(id: item.id) }
            #expect(stored == item)
            #expect(try store.repository.read { try $0.items(in: home.id, visibility: .all, offset: 0, limit: 1) } == [item])
        }
    }

    @Test("A list's notes are stored, changed and cleared, in both reads of lists", arguments: Backend.allCases)
    func listNotes(backend: Backend) throws {
        let store = try backend.makeStore()
        let (seeded, _) = try store.seed("Trip", sortIndices: [])
        var list = try #require(try store.repository.read { try $0.list(id: seeded.id) })
        #expect(list.notes.isEmpty)
        for notes in ["Passports first.\nThen tickets.", "’ünïcode 🧳", ""] {
            list.notes = notes
            try store.repository.write { try $0.update(list) }
            #expect(try store.repository.read { try $0.list(id: list.id) }?.notes == notes)
            #expect(try store.repository.read { try $0.lists() }.first { $0.id == list.id }?.notes == notes)
        }
        var inserted = Sample.list("Party", at: 5)
        inserted.notes = "Cake"
        try store.repository.write { try $0.insert(inserted) }
        #expect(try store.repository.read { try $0.list(id: inserted.id) }?.notes == "Cake")
    }

    @Test("A list's when and deadline are stored, changed and cleared; a list put off to someday is out of the sidebar's open entries", arguments: Backend.allCases)
    func listDates(backend: Backend) throws {
        let store = try backend.makeStore()
        let (first, _) = try store.seed("First", sortIndices: [])
        let (second, _) = try store.seed("Second", sortIndices: [])
        let day = Day(Sample.date(0), in: .gmt)
        var list = try #require(try store.repository.read { try $0.list(id: second.id) })
        let openEntries = { try store.repository.read { try $0.entries(in: .lists, visibility: .open, offset: 0, limit: 10).map(\.id) } }
        let order = try store.repository.read { try $0.lists().map(\.id.entryID) }
        #expect(Set(order) == [first.id.entryID, second.id.entryID])
        for (when, deadline) in [(When.on(day, evening: true), day.adding(days: 30)), (.someday, day), (.on(day.adding(days: -400)), nil), (.anytime, nil)] {
            (list.when, list.deadline) = (when, deadline)
            try store.repository.write { try $0.update(list) }
            #expect(try store.repository.read { try $0.list(id: list.id) } == list)
            #expect(try store.repository.read { try $0.lists() }.first { $0.id == list.id } == list)
            #expect(try openEntries() == (when == .someday ? order.filter { $0 != list.id.entryID } : order))
            #expect(try store.repository.read { try $0.entryCount(in: .lists, visibility: .open) } == (when == .someday ? 1 : 2))
            #expect(try store.repository.read { try $0.entryCount(in: .lists, visibility: .all) } == 2)
        }
    }

    @Test("The dated items of a day are those started or due by then; Today shows the arrivals first, in the same order on every backend", arguments: Backend.allCases)
    func todayByDates(backend: Backend) throws {
        let store = try backend.makeStore()
        let (home, work) = (Sample.list("Home", at: 0), Sample.list("Work", at: 1))
        try store.repository.write { try $0.insert(home); try $0.insert(work) }
        let day = Day(Sample.date(0), in: .gmt)
        // title: list, key in the list, when, deadline, key in Today, completed
        let rows: [(String, ItemList, Int64, When, Day?, Int64?, Bool)] = [
            ("Placed", home, 0, .on(day), nil, 5, false),
            ("Early", work, 10, .on(day.adding(days: -2)), nil, nil, false),
            ("Due", home, 20, .anytime, day, nil, false),
            ("Work", work, 0, .on(day), nil, nil, false),
            ("Later", home, 30, .on(day.adding(days: 1)), day.adding(days: 3), nil, false),
            ("Evening", home, 40, .on(day, evening: true), nil, 1, false),
            ("Yesterday's evening", home, 50, .on(day.adding(days: -1), evening: true), nil, 2, false),
            ("Done", home, 60, .on(day), nil, nil, true),
            ("Someday", home, 70, .someday, nil, nil, false),
            ("Someday, due", home, 80, .someday, day, nil, false),
            ("Done, placed", home, 90, .on(day), nil, 7, true),
        ]
        try store.repository.write { transaction in
            for (title, list, sortIndex, when, deadline, todayIndex, completed) in rows {
                var item = Sample.item(in: list.id, title, sortIndex: sortIndex)
                (item.when, item.deadline, item.todayIndex) = (when, deadline, todayIndex)
                if completed { item.completedAt = Sample.date(1) }
                try transaction.insert(item)
            }
        }
        let everything = try store.repository.read { try $0.items(in: home.id, visibility: .all, offset: 0, limit: 20) + $0.items(in: work.id, visibility: .all, offset: 0, limit: 20) }
        let byTitle = Dictionary(uniqueKeysWithValues: everything.map { ($0.title, $0) })
        func datedTitles(through day: Day) throws -> Set<String> {
            let standings = try store.repository.read { try $0.datedStandings(through: day) }
            // Each standing says what the item's row says.
            for standing in standings { #expect(standing == DatedStanding(try #require(everything.first { $0.id == standing.id }))) }
            #expect(Set(standings.map(\.id)).count == standings.count, "no item twice")
            // The same items, in full.
            let items = try store.repository.read { try $0.datedItems(through: day) }
            #expect(Set(items) == Set(everything.filter { item in standings.contains { $0.id == item.id } }) && items.count == standings.count)
            return Set(standings.compactMap { standing in byTitle.first { $0.value.id == standing.id }?.key })
        }
        #expect(try datedTitles(through: day) == ["Placed", "Early", "Due", "Work", "Evening", "Yesterday's evening", "Someday, due"])
        #expect(try datedTitles(through: day.adding(days: 3)).contains("Later"))

        let today = try store.repository.read { try TodayArrangement(on: day, visibility: .open, in: $0) }
        // Arrivals by the day they came, then the sidebar's order of the lists (Home, then Work), then their places.
        #expect(today.ofDay.arrivals.map(\.title) == ["Early", "Yesterday's evening", "Due", "Someday, due", "Work"])
        #expect(today.ofDay.placed.map(\.title) == ["Placed"])
        #expect(today.evening.items.map(\.title) == ["Evening"])
        #expect(today.items.count == 7)
        let tomorrow = try store.repository.read { try TodayArrangement(on: day.adding(days: 1), visibility: .open, in: $0) }
        #expect(tomorrow.ofDay.arrivals.map(\.title) == ["Early", "Yesterday's evening", "Due", "Evening", "Someday, due", "Work", "Later"])
        #expect(tomorrow.evening.items.isEmpty)

        // A page of Today is that stretch of it, read alone.
        for visibility in ItemVisibility.allCases {
            let whole = try store.repository.read { try TodayArrangement(on: day, visibility: visibility, in: $0) }
            // Under `.all` and `.openAndCompleted`, the completed item that keeps its key shows among the placed ones.
            #expect(whole.ofDay.placed.map(\.title) == (visibility == .open ? ["Placed"] : ["Placed", "Done, placed"]))
            for offset in 0...whole.items.count + 1 {
                for limit in 1...3 {
                    let page = try store.repository.read { try TodayArrangement.Page(on: day, visibility: visibility, offset: offset, limit: limit, in: $0) }
                    #expect(page.items == Array(whole.items.dropFirst(offset).prefix(limit)), "offset \(offset), limit \(limit)")
                    #expect(page.total == whole.items.count && page.eveningOffset == whole.ofDay.items.count && page.offset == offset)
                }
            }
        }
        #expect(try store.repository.read { try TodayArrangement.Page(on: day, visibility: .open, offset: -1, limit: 3, in: $0) }.items.isEmpty)
        #expect(try store.repository.read { try TodayArrangement.Page(on: day, visibility: .open, offset: 0, limit: 0, in: $0) }.items.isEmpty)
    }

    @Test("The person's marks in Today put items in it, or take them out, beside their dates, alike on every backend", arguments: Backend.allCases)
    func todayMarks(backend: Backend) throws {
        let store = try backend.makeStore()
        let home = Sample.list("Home", at: 0)
        try store.repository.write { try $0.insert(home) }
        let day = Day(Sample.date(0), in: .gmt)
        // title: when, deadline, mark, completed
        let rows: [(String, When, Day?, TodayMark?, Bool)] = [
            ("Added", .anytime, nil, .added(day), false),
            ("Added yesterday", .someday, nil, .added(day.adding(days: -1)), false),
            ("Added to the evening", .anytime, nil, .added(day, evening: true), false),
            ("Added for tomorrow", .anytime, nil, .added(day.adding(days: 1)), false),
            ("Added, started before", .on(day.adding(days: -2)), nil, .added(day), false),
            ("Added, due", .anytime, day, .added(day), false),
            ("Removed", .on(day.adding(days: -1)), nil, .removed(day), false),
            ("Removed, starts later", .on(day.adding(days: 2)), nil, .removed(day), false),
            ("Removed, due", .on(day.adding(days: -1)), day, .removed(day), false),
            ("Done, added", .anytime, nil, .added(day), true),
        ]
        try store.repository.write { transaction in
            for (index, (title, when, deadline, mark, completed)) in rows.enumerated() {
                var item = Sample.item(in: home.id, title, sortIndex: Int64(index) * 10)
                (item.when, item.deadline, item.todayMark) = (when, deadline, mark)
                if completed { item.completedAt = Sample.date(1) }
                try transaction.insert(item)
            }
        }
        let everything = try store.repository.read { try $0.items(in: home.id, visibility: .all, offset: 0, limit: 20) }
        #expect(everything.map(\.todayMark) == rows.map(\.3), "each mark is stored as it was written")
        for through in [day, day.adding(days: 2)] {
            let standings = try store.repository.read { try $0.datedStandings(through: through) }
            for standing in standings { #expect(standing == DatedStanding(try #require(everything.first { $0.id == standing.id }))) }
            #expect(Set(standings.map(\.id)).count == standings.count, "no item twice")
            let held = Set(everything.filter { !$0.isCompleted && $0.isInToday(on: through) }.map(\.id))
            #expect(held.isSubset(of: Set(standings.map(\.id))), "every item Today holds is read")
        }
        let today = try store.repository.read { try TodayArrangement(on: day, visibility: .open, in: $0) }
        // By the day each came in: a start date before the mark, the mark's day, or the deadline.
        #expect(today.ofDay.arrivals.map(\.title) == ["Added, started before", "Added yesterday", "Added", "Added, due", "Removed, due"])
        #expect(today.evening.items.map(\.title) == ["Added to the evening"])
        let later = try store.repository.read { try TodayArrangement(on: day.adding(days: 2), visibility: .open, in: $0) }
        #expect(Set(later.items.map(\.title)) == Set(today.items.map(\.title)).union(["Added for tomorrow", "Removed, starts later"]))
    }

    @Test("Item changes that name an unknown item or list are refused", arguments: Backend.allCases)
    func itemErrors(backend: Backend) throws {
        let store = try backend.makeStore()
        let (list, items) = try store.seed("Home", sortIndices: [10])
        let item = try #require(items.first)
        let nowhere = ItemList.ID()
        let stranger = Sample.item(in: list.id, "Stranger", sortIndex: 20)

        #expect(throws: StoreError.duplicateItem(item.id)) { try store.repository.write { try $0.insert(item) } }
        // A taken id is reported first, even when the list is unknown too.
        var lost = item
        lost.listID = nowhere
        #expect(throws: StoreError.duplicateItem(item.id)) { try store.repository.write { try $0.insert(lost) } }
        #expect(throws: StoreError.listNotFound(nowhere)) {
            try store.repository.write { try $0.insert(Sample.item(in: nowhere, "Lost", sortIndex: 1)) }
        }
        #expect(throws: StoreError.listNotFound(nowhere)) { try store.repository.write { try $0.update(lost) } }
        #expect(throws: StoreError.itemNotFound(stranger.id)) { try store.repository.write { try $0.update(stranger) } }
        #expect(throws: StoreError.itemNotFound(stranger.id)) {
            try store.repository.write { try $0.deleteItem(id: stranger.id) }
        }
        #expect(try store.contents() == [list: items])
    }

    @Test("Notes over Item.maximumNotesSize bytes are refused when an item is inserted or its notes change", arguments: Backend.allCases)
    func notesLimit(backend: Backend) throws {
        let store = try backend.makeStore()
        let (list, items) = try store.seed("Home", sortIndices: [10])
        let fits = String(repeating: "é", count: Item.maximumNotesSize / 2)
        let over = fits + "\n"
        let tooLarge = StoreError.validation(.notesTooLarge(size: Item.maximumNotesSize + 2, limit: Item.maximumNotesSize))

        var long = Sample.item(in: list.id, "Long", sortIndex: 20)
        long.notes = over
        #expect(throws: tooLarge) { try store.repository.write { try $0.insert(long) } }
        var changed = items[0]
        changed.notes = over
        #expect(throws: tooLarge) { try store.repository.write { store in _ = try store.item(id: changed.id); try store.update(changed) } }
        #expect(try store.contents() == [list: items], "nothing was written")

        long.notes = fits
        try store.repository.write { try $0.insert(long) }
        #expect(try store.repository.read { try $0.item(id: long.id)?.notes } == fits)
    }

    // MARK: Pages and counts

    @Test("Pages follow display order, skip and limit, and see only open items when asked", arguments: Backend.allCases)
    func pages(backend: Backend) throws {
        let store = try backend.makeStore()
        let (list, items) = try store.seed(
            "Chores", sortIndices: [100, 10, 90, 20, 80, 30, 70, 40, 60, 50], completedAt: [0, 3, 6])
        let ordered = items.sorted { $0.orderKey < $1.orderKey }
        let open = ordered.filter { !$0.isCompleted }
        try #require(open.count == 7)
        let (other, _) = try store.seed("Other", sortIndices: [15])

        try store.repository.read { store throws in
            func page(_ visibility: ItemVisibility, _ offset: Int, _ limit: Int) throws -> [Item] {
                try store.items(in: list.id, visibility: visibility, offset: offset, limit: limit)
            }
            #expect(try page(.all, 0, 100) == ordered)
            #expect(try page(.all, 0, 3) == Array(ordered[0..<3]))
            #expect(try page(.all, 8, 5) == Array(ordered[8...]))
            #expect(try page(.all, 10, 5) == [])
            #expect(try page(.open, 0, 100) == open)
            #expect(try page(.open, 2, 3) == Array(open[2..<5]))
            #expect(try page(.open, 6, 3) == [open[6]])
            #expect(try page(.open, 7, 3) == [])
            #expect(try page(.all, 0, 0) == [])
            #expect(try page(.all, 0, -1) == [])
            #expect(try page(.all, -1, 3) == [])

            #expect(try store.itemCount(in: list.id, visibility: .all) == 10)
            #expect(try store.itemCount(in: list.id, visibility: .open) == 7)
            #expect(try store.itemCount(in: other.id, visibility: .all) == 1)
            #expect(try store.itemCount(in: ItemList.ID(), visibility: .all) == 0)
            #expect(try store.items(in: ItemList.ID(), visibility: .all, offset: 0, limit: 10) == [])
        }
    }

    @Test("The Logbook reads the completed items of every list, the most recent first, then by id, in pages", arguments: Backend.allCases)
    func logbook(backend: Backend) throws {
        let store = try backend.makeStore()
        let lists = [Sample.list("Home"), Sample.list("Work")]
        // Completed at times 5, 1, 3 and 3 (a tie, told apart by id), across two lists; two open.
        let completions: [(list: Int, id: String, at: Double?)] = [(0, "c", 5), (1, "a", 1), (0, "f", 3), (1, "b", 3), (0, "d", nil), (1, "e", nil)]
        var items: [String: Item] = [:]
        try store.repository.write { store throws in
            for list in lists { try store.insert(list) }
            for (index, completion) in completions.enumerated() {
                var item = Sample.item(in: lists[completion.list].id, completion.id, sortIndex: Int64(index), id: try Sample.id(completion.id))
                item.completedAt = completion.at.map(Sample.date)
                try store.insert(item)
                items[completion.id] = item
            }
        }
        let newestFirst = ["c", "b", "f", "a"].compactMap { items[$0] }
        try store.repository.read { store throws in
            #expect(try store.completedItems(offset: 0, limit: 10) == newestFirst)
            #expect(try store.completedItems(offset: 1, limit: 2) == Array(newestFirst[1...2]))
            #expect(try store.completedItems(offset: 3, limit: 2) == [newestFirst[3]])
            #expect(try store.completedItems(offset: 4, limit: 2) == [])
            #expect(try store.completedItems(offset: 0, limit: 0) == [] && store.completedItems(offset: -1, limit: 2) == [])
            #expect(try store.completedItemCount() == 4)
        }
        // A reopened item leaves the Logbook; a newly completed one heads it.
        try store.repository.write { store throws in
            var reopened = try #require(items["c"])
            reopened.completedAt = nil
            try store.update(reopened)
            var done = try #require(items["d"])
            done.completedAt = Sample.date(9)
            try store.update(done)
        }
        try store.repository.read { store throws in
            #expect(try store.completedItems(offset: 0, limit: 2).map(\.title) == ["d", "b"])
            #expect(try store.completedItemCount() == 4)
        }
    }

    // MARK: Windows and neighbours

    @Test("Windows before and after a key return the nearest items first", arguments: Backend.allCases)
    func windows(backend: Backend) throws {
        let store = try backend.makeStore()
        let (list, items) = try store.seed("Chores", sortIndices: [50, 10, 40, 20, 30], completedAt: [2])
        let ordered = items.sorted { $0.orderKey < $1.orderKey }
        let middle = ordered[2].orderKey

        try store.repository.read { store throws in
            // Completed items count: windows are about places, not visibility.
            #expect(try store.items(in: list.id, before: middle, limit: 1) == [ordered[1]])
            #expect(try store.items(in: list.id, before: middle, limit: 5) == [ordered[1], ordered[0]])
            #expect(try store.items(in: list.id, after: middle, limit: 1) == [ordered[3]])
            #expect(try store.items(in: list.id, after: middle, limit: 5) == [ordered[3], ordered[4]])
            #expect(try store.items(in: list.id, before: middle, limit: 0) == [])
            #expect(try store.items(in: list.id, after: middle, limit: -3) == [])
            #expect(try store.items(in: list.id, before: ordered[0].orderKey, limit: 3) == [])
            #expect(try store.items(in: list.id, after: ordered[4].orderKey, limit: 3) == [])
            #expect(try store.items(in: list.id, after: .beforeAll, limit: 10) == ordered)
            #expect(try store.items(in: list.id, before: .afterAll, limit: 10) == ordered.reversed())

            // A key between two items.
            let gap = OrderKey(sortIndex: 25, id: OrderEntry.ID())
            #expect(try store.items(in: list.id, before: gap, limit: 1) == [ordered[1]])
            #expect(try store.items(in: list.id, after: gap, limit: 1) == [ordered[2]])
        }
    }

    @Test("existingItem and existingList find what exists and name what does not", arguments: Backend.allCases)
    func existing(backend: Backend) throws {
        let store = try backend.makeStore()
        let (list, items) = try store.seed("Chores", sortIndices: [30, 10, 20])
        try store.repository.read { store throws in
            #expect(try store.existingItem(id: items[1].id) == items[1])
            #expect(try store.existingList(id: list.id) == list)
        }
        let missing = Item.ID()
        #expect(throws: StoreError.itemNotFound(missing)) { try store.repository.read { try $0.existingItem(id: missing) } }
        let missingList = ItemList.ID()
        #expect(throws: StoreError.listNotFound(missingList)) { try store.repository.read { try $0.existingList(id: missingList) } }
    }

    @Test("Where an item stands, its list and key, is found as the transaction's own changes left it", arguments: Backend.allCases)
    func standing(backend: Backend) throws {
        let store = try backend.makeStore()
        let (home, items) = try store.seed("Home", sortIndices: [10, 20])
        let (work, _) = try store.seed("Work", sortIndices: [1])
        try store.repository.read { store throws in
            #expect(try store.standing(ofItem: items[1].id) == ItemStanding(list: home.id, key: items[1].orderKey))
            #expect(try store.standing(ofItem: Item.ID()) == nil)
        }
        try store.repository.write { store throws in
            // Not read before: the change alone must show.
            try store.setSortIndices([SortIndexChange(id: items[0].id.entryID, sortIndex: 5)], in: .items(work.id), updatedAt: Sample.date(50))
            let moved = ItemStanding(list: work.id, key: OrderKey(sortIndex: 5, id: items[0].id.entryID))
            #expect(try store.standing(ofItem: items[0].id) == moved)
            try store.deleteItem(id: items[1].id)
            #expect(try store.standing(ofItem: items[1].id) == nil)
        }
        try store.repository.read { store throws in
            #expect(try store.standing(ofItem: items[0].id) == ItemStanding(list: work.id, key: OrderKey(sortIndex: 5, id: items[0].id.entryID)))
            #expect(try store.standing(ofItem: items[1].id) == nil)
        }
    }

    @Test("Where an item is placed, its standing, Today key and stamp, is found as the transaction's own changes left it, whatever it read before", arguments: Backend.allCases)
    func place(backend: Backend) throws {
        let store = try backend.makeStore()
        let (home, seeded) = try store.seed("Home", sortIndices: [10, 20, 30])
        let (work, _) = try store.seed("Work", sortIndices: [1])
        var inToday = seeded[2]
        inToday.todayIndex = 7
        inToday.updatedAt = Sample.date(40)
        try store.repository.write { try $0.update(inToday) }
        let items = [seeded[0], seeded[1], inToday]
        try store.repository.read { store throws in
            #expect(try store.place(ofItem: items[2].id) == ItemPlace(standing: ItemStanding(list: home.id, key: items[2].orderKey), todayIndex: 7, updatedAt: Sample.date(40)))
            #expect(try store.place(ofItem: Item.ID()) == nil)
        }
        try store.repository.write { store throws in
            // Where each stands is read first, as a move reads it, or its row, or nothing.
            _ = try store.standing(ofItem: items[0].id)
            _ = try store.item(id: items[2].id)
            try store.setSortIndices([SortIndexChange(id: items[0].id.entryID, sortIndex: 5)], in: .items(work.id), updatedAt: Sample.date(50))
            try store.setSortIndices([SortIndexChange(id: items[1].id.entryID, sortIndex: 25)], in: .items(home.id), updatedAt: Sample.date(51))
            try store.removeFromToday([items[2].id], updatedAt: Sample.date(52))
            #expect(try store.place(ofItem: items[0].id) == ItemPlace(standing: ItemStanding(list: work.id, key: OrderKey(sortIndex: 5, id: items[0].id.entryID)), todayIndex: nil, updatedAt: Sample.date(50)))
            #expect(try store.place(ofItem: items[1].id) == ItemPlace(standing: ItemStanding(list: home.id, key: OrderKey(sortIndex: 25, id: items[1].id.entryID)), todayIndex: nil, updatedAt: Sample.date(51)))
            #expect(try store.place(ofItem: items[2].id) == ItemPlace(standing: ItemStanding(list: home.id, key: items[2].orderKey), todayIndex: nil, updatedAt: Sample.date(52)))
            try store.deleteItem(id: items[1].id)
            #expect(try store.place(ofItem: items[1].id) == nil)
        }
        try store.repository.write { store throws in
            // Where it stands known, the rest is read by the table's key on SQLite.
            #expect(try store.standing(ofItem: items[0].id) == ItemStanding(list: work.id, key: OrderKey(sortIndex: 5, id: items[0].id.entryID)))
            #expect(try store.place(ofItem: items[0].id) == ItemPlace(standing: ItemStanding(list: work.id, key: OrderKey(sortIndex: 5, id: items[0].id.entryID)), todayIndex: nil, updatedAt: Sample.date(50)))
        }
    }

    @Test("Items are found by the start of their id, across lists, in id order", arguments: Backend.allCases)
    func idPrefixes(backend: Backend) throws {
        let store = try backend.makeStore()
        let (home, work) = (Sample.list("Home"), Sample.list("Work", at: 1))
        let ids = ["3f2a9c00-1111-4000-8000-000000000001", "3f2a9c00-2222-4000-8000-000000000002",
                   "3f2a9d00-0000-4000-8000-000000000003", "ffffffff-ffff-4fff-bfff-ffffffffffff"].compactMap(Item.ID.init)
        try store.repository.write { store throws in
            try store.insert(home)
            try store.insert(work)
            for (offset, id) in ids.enumerated() {
                try store.insert(Sample.item(in: offset.isMultiple(of: 2) ? home.id : work.id, "\(offset)", sortIndex: Int64(-offset), id: id))
            }
        }
        try store.repository.read { store throws in
            let found = { (digits: String, limit: Int) in try store.items(withIDPrefix: digits, limit: limit).map(\.id) }
            #expect(try found("3f2a", 10) == Array(ids[0...2]))
            #expect(try found("3f2a9c", 10) == Array(ids[0...1]))
            #expect(try found("3f2a9c001", 10) == [ids[0]], "a prefix that crosses a dash")
            #expect(try found("3f2a9c0022224000800000000000000" + "2", 10) == [ids[1]], "all 32 digits")
            #expect(try found("3f2a", 2) == Array(ids[0...1]), "the limit")
            #expect(try found("ffff", 10) == [ids[3]])
            #expect(try found("0000", 10) == [])
            for nonsense in ["", "3g", "3f2a-9c", String(repeating: "f", count: 33)] {
                #expect(try found(nonsense, 10) == [], "\(nonsense)")
            }
        }
        try store.repository.write { store throws in
            try store.deleteItem(id: ids[0])
            try store.deleteList(id: work.id)
        }
        #expect(try store.repository.read { try $0.items(withIDPrefix: "3f2a", limit: 10).map(\.id) } == [ids[2]])
    }

    @Test("Items that share a sort index are ordered by id everywhere", arguments: Backend.allCases)
    func tieBreak(backend: Backend) throws {
        let store = try backend.makeStore()
        let list = Sample.list("Ties")
        // Ids chosen so that digits sort before letters, as the bytes do: 0…, 9…, a…, f….
        let tied = try ["f", "0", "a", "9"].map { try Sample.item(in: list.id, "Tied \($0)", sortIndex: 100, id: Sample.id($0)) }
        let before = Sample.item(in: list.id, "Before", sortIndex: 50, id: try Sample.id("ff"))
        let after = Sample.item(in: list.id, "After", sortIndex: 150, id: try Sample.id("05"))
        try store.repository.write { store throws in
            try store.insert(list)
            for item in [after] + tied + [before] { try store.insert(item) }
        }
        let byID = tied.sorted { $0.id < $1.id }
        #expect(byID.map(\.title) == ["Tied 0", "Tied 9", "Tied a", "Tied f"])

        try store.repository.read { store throws in
            #expect(try store.items(in: list.id, visibility: .all, offset: 0, limit: 10) == [before] + byID + [after])
            #expect(try store.items(in: list.id, visibility: .all, offset: 2, limit: 2) == Array(byID[1...2]))
            #expect(try store.items(in: list.id, after: byID[0].orderKey, limit: 10) == Array(byID[1...]) + [after])
            #expect(try store.items(in: list.id, before: byID[3].orderKey, limit: 10) == byID[..<3].reversed() + [before])
            #expect(try store.item(in: list.id, after: 50) == byID[0])
            #expect(try store.item(in: list.id, before: 150) == byID[3])
            #expect(try store.itemsSharingSortIndex(in: list.id) == [byID])
        }
    }

    @Test("Sort indices at the ends of Int64 keep their order", arguments: Backend.allCases)
    func extremeSortIndices(backend: Backend) throws {
        let store = try backend.makeStore()
        let (list, items) = try store.seed("Ends", sortIndices: [.max, 0, .min, -1, 1])
        let ordered = items.sorted { $0.orderKey < $1.orderKey }
        #expect(ordered.map(\.sortIndex) == [.min, -1, 0, 1, .max])
        try store.repository.read { store throws in
            #expect(try store.items(in: list.id, visibility: .all, offset: 0, limit: 10) == ordered)
            #expect(try store.firstItem(in: list.id) == ordered.first)
            #expect(try store.lastItem(in: list.id) == ordered.last)
            #expect(try store.item(in: list.id, after: .min) == ordered[1])
            #expect(try store.item(in: list.id, before: .max) == ordered[3])
        }
    }

    @Test("Groups of items sharing a sort index come in display order", arguments: Backend.allCases)
    func sharedSortIndices(backend: Backend) throws {
        let store = try backend.makeStore()
        let (list, items) = try store.seed("Ties", sortIndices: [5, 1, 2, 5, 3, 2, 8, 5])
        let (calm, _) = try store.seed("Calm", sortIndices: [1, 2, 3])
        let byKey = items.sorted { $0.orderKey < $1.orderKey }
        #expect(try store.repository.read { try $0.itemsSharingSortIndex(in: list.id) } == [
            byKey.filter { $0.sortIndex == 2 },
            byKey.filter { $0.sortIndex == 5 },
        ])
        #expect(try store.repository.read { try $0.itemsSharingSortIndex(in: calm.id) } == [])
        #expect(try store.repository.read { try $0.itemsSharingSortIndex(in: ItemList.ID()) } == [])
    }

    // MARK: Sort index changes

    @Test("Sort indices change together with updatedAt, and nothing else changes", arguments: Backend.allCases)
    func updateSortIndices(backend: Backend) throws {
        let store = try backend.makeStore()
        let (list, items) = try store.seed("Moves", sortIndices: [10, 20, 30, 40], completedAt: [1])
        let stamp = Sample.date(600)
        try store.repository.write { store throws in
            try store.updateSortIndices([
                SortIndexChange(id: items[0].id.entryID, sortIndex: 35),
                SortIndexChange(id: items[3].id.entryID, sortIndex: 5),
            ], updatedAt: stamp)
            try store.updateSortIndices([], updatedAt: Sample.date(700))
        }
        var moved = items
        moved[0].sortIndex = 35
        moved[3].sortIndex = 5
        moved[0].updatedAt = stamp
        moved[3].updatedAt = stamp
        try #require(items[1].updatedAt != stamp)
        try store.repository.read { store throws in
            #expect(try store.items(in: list.id, visibility: .all, offset: 0, limit: 10) == [moved[3], moved[1], moved[2], moved[0]])
            #expect(try store.items(in: list.id, visibility: .open, offset: 0, limit: 10) == [moved[3], moved[2], moved[0]])
            #expect(try store.item(id: items[0].id) == moved[0])
        }

        let unknown = Item.ID()
        #expect(throws: StoreError.itemNotFound(unknown)) {
            try store.repository.write { store throws in
                try store.updateSortIndices([
                    SortIndexChange(id: items[1].id.entryID, sortIndex: 1_000),
                    SortIndexChange(id: unknown.entryID, sortIndex: 0),
                ], updatedAt: Sample.date(800))
            }
        }
        #expect(try store.contents() == [list: [moved[3], moved[1], moved[2], moved[0]]])
    }

    @Test("A transaction reads back its own changes: sort-index changes, updates from stale copies, cascades, deletes", arguments: Backend.allCases)
    func readsOwnChanges(backend: Backend) throws {
        let store = try backend.makeStore()
        let (home, items) = try store.seed("Home", sortIndices: [10, 20])
        let (work, workItems) = try store.seed("Work", sortIndices: [1])
        var expected = items[0]
        try store.repository.write { store throws in
            let stale = try store.existingItem(id: items[0].id)
            try store.updateSortIndices([SortIndexChange(id: stale.id.entryID, sortIndex: 99)], updatedAt: Sample.date(50))
            #expect(try store.item(id: stale.id)?.sortIndex == 99)
            // Saving a copy read before the change puts its sort index back, with the new title.
            var renamed = stale
            renamed.title = "Renamed"
            try store.update(renamed)
            expected = renamed
            #expect(try store.item(id: stale.id) == renamed)

            // Items read, then deleted with their list, are gone.
            #expect(try store.item(id: workItems[0].id) == workItems[0])
            #expect(try store.list(id: work.id) == work)
            try store.deleteList(id: work.id)
            #expect(try store.item(id: workItems[0].id) == nil)
            #expect(try store.list(id: work.id) == nil)
            #expect(try store.lists() == [home])

            // An item read, deleted, then inserted again under its id.
            #expect(try store.item(id: items[1].id) == items[1])
            try store.deleteItem(id: items[1].id)
            #expect(try store.item(id: items[1].id) == nil)
            var again = items[1]
            again.title = "Again"
            try store.insert(again)
            #expect(try store.item(id: items[1].id) == again)
            #expect(throws: StoreError.itemNotFound(workItems[0].id)) { try store.update(workItems[0]) }

            // A list renamed, then read by id and among all lists.
            _ = try store.lists()
            var house = home
            house.name = "House"
            try store.update(house)
            #expect(try store.list(id: home.id) == house)
            #expect(try store.lists() == [house])
        }
        var again = items[1]
        again.title = "Again"
        var house = home
        house.name = "House"
        #expect(try store.contents() == [house: [expected, again]])
    }

    // MARK: Cascade and rollback

    @Test("Items at the very ends of the key space are grouped and deleted like any other", arguments: Backend.allCases)
    func keySpaceEnds(backend: Backend) throws {
        let store = try backend.makeStore()
        let list = Sample.list("Ends")
        let lowest = Sample.item(in: list.id, "Lowest", sortIndex: .min, id: .lowest)
        let low = Sample.item(in: list.id, "Low", sortIndex: .min)
        let highest = Sample.item(in: list.id, "Highest", sortIndex: .max, id: .highest)
        try store.repository.write { store throws in
            try store.insert(list)
            for item in [lowest, low, highest] { try store.insert(item) }
        }
        try store.repository.read { store throws in
            #expect(try store.items(in: list.id, visibility: .all, offset: 0, limit: 5) == [lowest, low, highest])
            #expect(try store.itemsSharingSortIndex(in: list.id) == [[lowest, low]])
        }
        try store.repository.write { try $0.deleteList(id: list.id) }
        try store.repository.read { store throws in
            for item in [lowest, low, highest] { #expect(try store.item(id: item.id) == nil, "\(item.title)") }
        }
    }

    @Test("Deleting a list deletes its items and no others", arguments: Backend.allCases)
    func cascade(backend: Backend) throws {
        let store = try backend.makeStore()
        let (doomed, doomedItems) = try store.seed("Doomed", sortIndices: [1, 2, 3])
        let (kept, keptItems) = try store.seed("Kept", sortIndices: [1, 2])
        try store.repository.write { try $0.deleteList(id: doomed.id) }
        try store.repository.read { store throws in
            for item in doomedItems { #expect(try store.item(id: item.id) == nil) }
            #expect(try store.itemCount(in: doomed.id, visibility: .all) == 0)
            #expect(try store.firstItem(in: doomed.id) == nil)
        }
        #expect(try store.contents() == [kept: keptItems])
    }

    @Test("A write whose body throws changes nothing and rethrows the error", arguments: Backend.allCases)
    func rollback(backend: Backend) throws {
        let store = try backend.makeStore()
        let (home, homeItems) = try store.seed("Home", sortIndices: [10, 20, 30])
        try store.seed("Work", sortIndices: [1])
        let before = try store.contents()

        #expect(throws: Abort()) {
            try store.repository.write { store throws in
                let list = Sample.list("Garden", at: 9)
                try store.insert(list)
                try store.insert(Sample.item(in: list.id, "Dig", sortIndex: 1))
                try store.insert(Sample.item(in: home.id, "Sweep", sortIndex: 15))
                var renamed = home
                renamed.name = "House"
                try store.update(renamed)
                var done = homeItems[0]
                done.completedAt = Sample.date(99)
                try store.update(done)
                try store.deleteItem(id: homeItems[1].id)
                try store.updateSortIndices([SortIndexChange(id: homeItems[2].id.entryID, sortIndex: 0)], updatedAt: Sample.date(99))
                for list in try store.lists() where list.name == "Work" { try store.deleteList(id: list.id) }
                // The transaction sees its own changes before it throws.
                #expect(try store.lists().map(\.name) == ["House", "Garden"])
                #expect(try store.itemCount(in: home.id, visibility: .open) == 2)
                throw Abort()
            }
        }
        #expect(try store.contents() == before)
    }

    @Test("A store error that escapes a write rolls back the changes before it", arguments: Backend.allCases)
    func rollbackOnStoreError(backend: Backend) throws {
        let store = try backend.makeStore()
        let (list, items) = try store.seed("Home", sortIndices: [10, 20])
        let before = try store.contents()
        #expect(throws: StoreError.duplicateItem(items[0].id)) {
            try store.repository.write { store throws in
                try store.insert(Sample.item(in: list.id, "New", sortIndex: 30))
                try store.deleteItem(id: items[1].id)
                try store.insert(items[0])
            }
        }
        #expect(try store.contents() == before)
    }

    @Test("A body that catches a store error keeps the rest of its changes", arguments: Backend.allCases)
    func caughtErrorsKeepOtherChanges(backend: Backend) throws {
        let store = try backend.makeStore()
        let (list, items) = try store.seed("Home", sortIndices: [10])
        let first = Sample.item(in: list.id, "First", sortIndex: 20)
        let second = Sample.item(in: list.id, "Second", sortIndex: 30)
        try store.repository.write { store throws in
            try store.insert(first)
            #expect(throws: StoreError.duplicateItem(items[0].id)) { try store.insert(items[0]) }
            try store.insert(second)
        }
        #expect(try store.contents() == [list: items + [first, second]])
    }

    // MARK: Counts before a key

    @Test("Counting the items before a key gives their offsets under either visibility", arguments: Backend.allCases)
    func itemCountBefore(backend: Backend) throws {
        let store = try backend.makeStore()
        let (list, items) = try store.seed("Counts", sortIndices: [50, 10, 40, 20, 30, 30], completedAt: [1, 4])
        try store.seed("Other", sortIndices: [1, 2, 3])
        let ordered = items.sorted { $0.orderKey < $1.orderKey }
        try store.repository.read { store throws in
            for (offset, item) in ordered.enumerated() {
                #expect(try store.itemCount(in: list.id, visibility: .all, before: item.orderKey) == offset, "\(item.title)")
                let open = ordered.prefix(offset).count { !$0.isCompleted }
                #expect(try store.itemCount(in: list.id, visibility: .open, before: item.orderKey) == open, "\(item.title)")
            }
            #expect(try store.itemCount(in: list.id, visibility: .all, before: .beforeAll) == 0)
            #expect(try store.itemCount(in: list.id, visibility: .all, before: .afterAll) == 6)
            #expect(try store.itemCount(in: list.id, visibility: .open, before: .afterAll) == 4)
            // A key between items: 10 (completed) and 20 come before 25.
            #expect(try store.itemCount(in: list.id, visibility: .all, before: OrderKey(sortIndex: 25, id: .lowest)) == 2)
            #expect(try store.itemCount(in: list.id, visibility: .open, before: OrderKey(sortIndex: 25, id: .lowest)) == 1)
            #expect(try store.itemCount(in: ItemList.ID(), visibility: .all, before: .afterAll) == 0)
        }
    }

    // MARK: The default list

    @Test("The default list is remembered by id, replaced, rolled back, and cleared with its list", arguments: Backend.allCases)
    func defaultList(backend: Backend) throws {
        let store = try backend.makeStore()
        let (home, _) = try store.seed("Home", sortIndices: [1])
        let (work, _) = try store.seed("Work", sortIndices: [])
        let defaultListID = { try store.repository.read { try $0.defaultListID() } }
        #expect(try defaultListID() == nil)

        try store.repository.write { try $0.setDefaultListID(home.id) }
        #expect(try defaultListID() == home.id)
        var renamed = home
        renamed.name = "House"
        try store.repository.write { try $0.update(renamed) }
        #expect(try defaultListID() == home.id, "a rename keeps the default")

        try store.repository.write { store throws in
            try store.setDefaultListID(work.id)
            #expect(try store.defaultListID() == work.id, "a transaction sees its own change")
        }
        #expect(try defaultListID() == work.id)

        let unknown = ItemList.ID()
        #expect(throws: StoreError.listNotFound(unknown)) { try store.repository.write { try $0.setDefaultListID(unknown) } }
        #expect(throws: Abort()) {
            try store.repository.write { store throws in
                try store.setDefaultListID(home.id)
                throw Abort()
            }
        }
        #expect(try defaultListID() == work.id)

        let (garden, _) = try store.seed("Garden", sortIndices: [])
        try store.repository.write { try $0.deleteList(id: garden.id) }
        #expect(try defaultListID() == work.id, "deleting another list keeps the default")
        try store.repository.write { store throws in
            try store.deleteList(id: work.id)
            #expect(try store.defaultListID() == nil)
        }
        #expect(try defaultListID() == nil, "deleting the default list clears it")
    }

    @Test("A setting is kept, replaced, rolled back and forgotten", arguments: Backend.allCases)
    func settings(backend: Backend) throws {
        let store = try backend.makeStore()
        let digest = { try store.repository.read { try $0.value(of: .linkTokenDigest) } }
        #expect(try digest() == nil)
        try store.repository.write { try $0.apply(.setValue("first", of: .linkTokenDigest)) }
        #expect(try digest() == "first")
        try store.repository.write { transaction throws in
            try transaction.apply(.setValue("second", of: .linkTokenDigest))
            #expect(try transaction.value(of: .linkTokenDigest) == "second", "a transaction sees its own change")
        }
        #expect(throws: Abort()) {
            try store.repository.write { transaction throws in
                try transaction.apply(.setValue("third", of: .linkTokenDigest))
                throw Abort()
            }
        }
        #expect(try digest() == "second")
        try store.repository.write { try $0.apply(.setValue(nil, of: .linkTokenDigest)) }
        #expect(try digest() == nil)
    }

    @Test("A list's share is kept, replaced, rolled back, forgotten, and goes with its list; summaries carry it", arguments: Backend.allCases)
    func shares(backend: Backend) throws {
        let store = try backend.makeStore()
        let (groceries, _) = try store.seed("Groceries", sortIndices: [10])
        let (garden, _) = try store.seed("Garden", sortIndices: [10])
        let shares = { try store.repository.read { try $0.listShares() } }
        #expect(try shares().isEmpty)
        let mine = ListShare(list: groceries.id, role: .edit, owner: "alice", isOwned: true)
        let theirs = ListShare(list: garden.id, role: .view, owner: "bob 🌱", isOwned: false)
        try store.repository.write { transaction in
            try transaction.apply(.setListShare(mine, of: groceries.id))
            try transaction.apply(.setListShare(theirs, of: garden.id))
        }
        #expect(try shares() == [mine, theirs].sorted { $0.list < $1.list })
        try store.repository.read { transaction throws in
            #expect(try transaction.share(of: garden.id) == theirs)
            let summaries = try transaction.listSummaries()
            #expect(summaries.first { $0.id == groceries.id }?.share == mine)
            #expect(try transaction.summary(of: try transaction.existingList(id: garden.id)).share == theirs)
            #expect(summaries.filter { $0.share == nil }.count == summaries.count - 2, "the other lists are the user's own")
        }
        let promoted = ListShare(list: garden.id, role: .edit, owner: "bob 🌱", isOwned: false)
        #expect(throws: Abort()) {
            try store.repository.write { transaction throws in
                try transaction.apply(.setListShare(promoted, of: garden.id))
                #expect(try transaction.share(of: garden.id) == promoted, "a transaction sees its own change")
                throw Abort()
            }
        }
        #expect(try store.repository.read { try $0.share(of: garden.id) } == theirs)
        try store.repository.write { try $0.apply(.setListShare(promoted, of: garden.id)) }
        #expect(try store.repository.read { try $0.share(of: garden.id) } == promoted)
        try store.repository.write { try $0.apply(.setListShare(nil, of: groceries.id)) }
        #expect(try shares() == [promoted])
        try store.repository.write { try $0.deleteList(id: garden.id) }
        #expect(try shares().isEmpty, "a deleted list's share goes with it")
        #expect(throws: StoreError.listNotFound(garden.id)) {
            try store.repository.write { try $0.apply(.setListShare(promoted, of: garden.id)) }
        }
    }

    // MARK: Async access

    @Test("Async reads and writes commit, roll back and rethrow as the synchronous ones do", arguments: Backend.allCases)
    func asyncAccess(backend: Backend) async throws {
        let store = try backend.makeStore()
        let repository = store.repository
        let (list, items) = try store.seed("Home", sortIndices: [10, 20])
        let added = Sample.item(in: list.id, "Async", sortIndex: 30)
        let count = try await repository.write { store in
            try store.insert(added)
            return try store.itemCount(in: list.id, visibility: .all)
        }
        #expect(count == 3)
        #expect(try await repository.read { try $0.items(in: list.id, visibility: .all, offset: 0, limit: 10) } == items + [added])

        await #expect(throws: Abort()) {
            try await repository.write { store in
                try store.deleteItem(id: added.id)
                throw Abort()
            }
        }
        let missing = Item.ID()
        await #expect(throws: StoreError.itemNotFound(missing)) {
            try await repository.write { store in
                try store.deleteItem(id: added.id)
                try store.deleteItem(id: missing)
            }
        }
        await #expect(throws: StoreError.itemNotFound(missing)) { try await repository.read { try $0.existingItem(id: missing) } }
        #expect(try store.contents() == [list: items + [added]])
    }

    @Test("Async writes from many tasks run one at a time", arguments: Backend.allCases)
    func asyncWritesAreSerial(backend: Backend) async throws {
        let store = try backend.makeStore()
        let repository = store.repository
        let (list, _) = try store.seed("Shared", sortIndices: [])
        // Each write reads the last item, then appends after it: overlapping writes would tie.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for task in 0..<20 {
                group.addTask {
                    for round in 0..<10 {
                        try await repository.write { store in
                            let last = try store.lastItem(in: list.id)
                            try store.insert(Sample.item(in: list.id, "\(task).\(round)", sortIndex: (last?.sortIndex ?? 0) + 1))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let keys = try await repository.read { try $0.items(in: list.id, visibility: .all, offset: 0, limit: .max).map(\.sortIndex) }
        #expect(keys == Array(1...200))
    }

    @Test("An async write in a cancelled task throws CancellationError and writes nothing", arguments: Backend.allCases)
    func asyncWriteCancelled(backend: Backend) async throws {
        let store = try backend.makeStore()
        let repository = store.repository
        let list = Sample.list("Never")
        let outcome = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await repository.write { try $0.insert(list) }
        }.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(try store.contents() == [:])
    }

    // MARK: Stored values

    @Test("Text comes back byte for byte", arguments: Backend.allCases, Sample.texts)
    func text(backend: Backend, text: String) throws {
        let store = try backend.makeStore()
        let list = ItemList(name: text, createdAt: Sample.date(0))
        var item = Sample.item(in: list.id, text, sortIndex: 1)
        item.notes = "\(text)\n\(text)"
        try store.repository.write { store throws in
            try store.insert(list)
            try store.insert(item)
        }
        let (lists, stored) = try store.repository.read { store throws in
            (try store.lists(), try store.item(id: item.id))
        }
        // `==` on strings ignores the difference between é and e + ◌́; the bytes do not.
        #expect(lists.map { Array($0.name.utf8) } == [Array(text.utf8)])
        #expect(stored.map { Array($0.title.utf8) } == Array(text.utf8))
        #expect(stored.map { Array($0.notes.utf8) } == Array(item.notes.utf8))
        #expect(try store.repository.read { try $0.itemCount(in: list.id, visibility: .all) } == 1)
    }

    @Test("Dates come back exactly for test data and within a microsecond for any date", arguments: Backend.allCases)
    func dates(backend: Backend) throws {
        let store = try backend.makeStore()
        let (list, items) = try store.seed("Dates", sortIndices: [1], completedAt: [0])
        let now = Date()
        let fresh = Item(
            listID: list.id, title: "Now", sortIndex: 2, createdAt: now,
            updatedAt: now.addingTimeInterval(0.000_123_4), completedAt: now.addingTimeInterval(1e-7))
        try store.repository.write { try $0.insert(fresh) }
        #expect(try store.repository.read { try $0.item(id: items[0].id) } == items[0])
        let stored = try #require(try store.repository.read { try $0.item(id: fresh.id) })
        #expect(abs(stored.createdAt.timeIntervalSince(fresh.createdAt)) < 1e-6)
        #expect(abs(stored.updatedAt.timeIntervalSince(fresh.updatedAt)) < 1e-6)
        let completedAt = try #require(stored.completedAt)
        #expect(abs(completedAt.timeIntervalSince(now.addingTimeInterval(1e-7))) < 1e-6)
    }

    // MARK: Random changes

    @Test("After many random changes, every query agrees with a reference model", arguments: Backend.allCases)
    func randomChanges(backend: Backend) throws {
        let store = try backend.makeStore()
        var random = SeededRandomNumberGenerator(seed: 2_024)
        var model = ReferenceModel()
        let lists = [Sample.list("One"), Sample.list("Two", at: 1)]
        try store.repository.write { store throws in
            for list in lists { try store.insert(list) }
        }

        for round in 0..<20 {
            // A batch of changes in one transaction. Sort indices come from a small range, so ties are common.
            try store.repository.write { store throws in
                for _ in 0..<15 {
                    let existing = model.items.values.sorted { $0.id < $1.id }
                    let listID = lists[Int.random(in: 0..<2, using: &random)].id
                    let sortIndex = Int64.random(in: 0..<40, using: &random)
                    let completed = Bool.random(using: &random) ? Sample.date(4) : nil
                    switch (Int.random(in: 0..<10, using: &random), existing.randomElement(using: &random)) {
                    case (0..<4, _), (_, nil):
                        var item = Sample.item(in: listID, "Item", sortIndex: sortIndex)
                        item.completedAt = completed
                        try store.insert(item)
                        model.items[item.id] = item
                    case (4..<6, var item?):
                        item.listID = listID
                        item.sortIndex = sortIndex
                        item.completedAt = completed
                        try store.update(item)
                        model.items[item.id] = item
                    case (6..<8, _):
                        let moved = existing.shuffled(using: &random).prefix(4)
                        let changes = moved.map { SortIndexChange(id: $0.id.entryID, sortIndex: Int64.random(in: 0..<40, using: &random)) }
                        let stamp = Sample.date(Double(round))
                        try store.updateSortIndices(changes, updatedAt: stamp)
                        for change in changes {
                            model.items[Item.ID(entry: change.id)]?.sortIndex = change.sortIndex
                            model.items[Item.ID(entry: change.id)]?.updatedAt = stamp
                        }
                    case (_, let item?):
                        try store.deleteItem(id: item.id)
                        model.items[item.id] = nil
                    }
                }
            }

            try store.repository.read { store throws in
                for list in lists.map(\.id) {
                    let all = model.ordered(list)
                    for visibility in ItemVisibility.allCases {
                        let visible = model.ordered(list, visibility)
                        #expect(try store.itemCount(in: list, visibility: visibility) == visible.count, "round \(round)")
                        for offset in [0, 1, visible.count / 3, visible.count / 2, max(visible.count - 2, 0)] {
                            #expect(
                                try store.items(in: list, visibility: visibility, offset: offset, limit: 7)
                                    == Array(visible.dropFirst(offset).prefix(7)),
                                "round \(round), \(visibility), offset \(offset)")
                        }
                    }
                    let keys = all.map(\.orderKey) + [OrderKey(sortIndex: Int64.random(in: -1...41, using: &random), id: OrderEntry.ID())]
                    for key in keys {
                        #expect(try store.items(in: list, before: key, limit: 3) == all.before(key, limit: 3), "round \(round)")
                        #expect(try store.items(in: list, after: key, limit: 3) == all.after(key, limit: 3), "round \(round)")
                        for visibility in ItemVisibility.allCases {
                            #expect(
                                try store.itemCount(in: list, visibility: visibility, before: key)
                                    == model.ordered(list, visibility).count { $0.orderKey < key },
                                "round \(round), \(visibility)")
                        }
                    }
                    #expect(try store.itemsSharingSortIndex(in: list) == all.sharingSortIndex(), "round \(round)")
                }
                for item in model.items.values.shuffled(using: &random).prefix(5) {
                    #expect(try store.item(id: item.id) == item)
                }
            }
        }
        #expect(model.items.count > 50)
    }

    // MARK: Size

    @Test("Neighbour lookups in a list of 100,000 items", arguments: Backend.allCases)
    func largeList(backend: Backend) throws {
        let store = try backend.makeStore()
        let count = 100_000
        let list = Sample.list("Large")
        // Sort index i * 1024 for the i-th item: the expected answers follow from i.
        let items = (0..<count).map { Sample.item(in: list.id, "Item \($0)", sortIndex: Int64($0) * 1_024) }
        try store.repository.write { store throws in
            try store.insert(list)
            for item in items { try store.insert(item) }
        }

        try store.repository.read { store throws in
            #expect(try store.itemCount(in: list.id, visibility: .all) == count)
            #expect(try store.firstItem(in: list.id) == items.first)
            #expect(try store.lastItem(in: list.id) == items.last)
            for index in [1, 777, count / 2, count - 2] {
                let key = items[index].orderKey
                #expect(try store.item(in: list.id, before: key.sortIndex) == items[index - 1])
                #expect(try store.item(in: list.id, after: key.sortIndex) == items[index + 1])
                #expect(try store.items(in: list.id, before: key, limit: 3).map(\.title) == items[..<index].suffix(3).reversed().map(\.title))
                #expect(try store.items(in: list.id, after: key, limit: 3).map(\.title) == items[(index + 1)...].prefix(3).map(\.title))
            }
            #expect(try store.items(in: list.id, visibility: .all, offset: count - 2, limit: 5) == Array(items.suffix(2)))
            for index in [0, 1, 777, count / 2, count - 1] {
                #expect(try store.itemCount(in: list.id, visibility: .all, before: items[index].orderKey) == index)
            }
        }

        // SQLite must reach a neighbour through the list's order, starting at the key.
        if let sqlite = store.sqlite {
            let key = items[count / 2].orderKey
            for query in [OrderingSQL.listItems.keysBefore, OrderingSQL.listItems.keysAfter] {
                let plan = try sqlite.queryPlan(query, arguments: [list.id.text, key.sortIndex, key.id.text, 1])
                #expect(plan.count == 1, "\(query): \(plan)")
                #expect(plan.allSatisfy { $0.hasPrefix("SEARCH items USING PRIMARY KEY (list_id=? AND heading_id=? AND (sort_index,id)") }, "\(query): \(plan)")
            }
        }
    }
}
