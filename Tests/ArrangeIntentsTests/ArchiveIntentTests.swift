import ArrangeArchive
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("Export and import")
struct ArchiveIntentTests {
    /// A store with two lists in a hand-made order, completed items and Today.
    private func filled() async throws -> Session {
        let session = try await Session(lists: ["Inbox", "Work"])
        let inbox = try await session.add("Milk", "Eggs", "Bread")
        let work = try await session.add("Report", "Call", to: "Work")
        try await session.run(MoveList(try session.list("Work"), to: .top))
        try await session.run(CompleteItems([inbox[1].id]))
        try await session.run(AddToToday([work[1].id, inbox[0].id]))
        try await session.run(MoveItems([inbox[2].id], to: .top))
        for title in ["Oat", "Whole"] { try await session.run(AddChecklistItem(title: title, to: inbox[0].id, at: .top)) }
        let oat = try #require(try await session.run(ShowItem(item: inbox[0].id)).item.checklist.last).id
        try await session.run(CompleteChecklistItems([oat]))
        return session
    }

    @Test("Export, import into an empty store, export again: the same bytes; the same lists, items, orders, Today and default list")
    func roundTrip() async throws {
        let source = try await filled()
        let first = try await source.run(ExportArchive())
        #expect(first.lists.map(\.name) == ["Work", "Inbox"])
        #expect(first.lists[1].items.map(\.title) == ["Bread", "Milk", "Eggs"])
        #expect(first.lists[1].items[1].checklist?.map(\.title) == ["Whole", "Oat"] && first.lists[1].items[1].checklist?[1].completedAt != nil)
        #expect(first.defaultList == (try source.list("Inbox")))

        let target = try await Session(lists: ["Inbox"], firstID: 1_000)
        let result = try await target.run(ImportArchive(try Archive(jsonData: try first.jsonData())))
        #expect(result == { var expected = ImportResult(); expected.listsAdded = 2; expected.itemsAdded = 5; return expected }())
        let second = try await target.run(ExportArchive())
        #expect(try second.jsonData() == (try first.jsonData()))
        #expect(try await target.run(ShowToday()).items.map(\.title) == ["Call", "Milk"])
        #expect(try await target.run(GetLists()).lists.map(\.name) == ["Work", "Inbox"])
        #expect(try await target.run(ShowToday()).items.last?.checklist.map(\.title) == ["Whole", "Oat"])

        // A finished list goes out and comes back finished, byte for byte, in the Logbook.
        try await source.run(CancelList(list: try source.list("Work"), items: .keep))
        let finished = try await source.run(ExportArchive())
        #expect(finished.version == 8)
        let third = try await Session(lists: ["Inbox"], firstID: 2_000)
        try await third.run(ImportArchive(try Archive(jsonData: try finished.jsonData())))
        #expect(try await third.run(ExportArchive()).jsonData() == (try finished.jsonData()))
        #expect(try await third.run(GetLists()).lists.map(\.name) == ["Inbox"])
        #expect(try await third.run(ShowLogbook()).lists.map { "\($0.name) \($0.status)" } == ["Work canceled"])
    }

    @Test("Areas go out and come back with their lists in them, byte for byte; merged by id or name, never duplicated")
    func areasRoundTrip() async throws {
        let source = try await filled()
        let office = try await source.run(CreateArea(name: "Office")).area.id
        try await source.run(CreateArea(name: "Home", placement: .top))
        try await source.run(MoveList(try source.list("Work"), to: .top, in: .area(office)))
        let first = try await source.run(ExportArchive())
        // Version 5 for the start dates that Today gives its items; areas alone would take 3.
        #expect(first.version == 5 && first.areas?.map(\.name) == ["Home", "Office"])
        #expect(first.lists.map(\.name) == ["Inbox", "Work"] && first.lists.map(\.area) == [nil, office])
        let alone = try await source.run(ExportArchive(list: try source.list("Work")))
        #expect(alone.version == 5 && alone.areas == nil && alone.lists.map(\.area) == [nil], "one list goes without its area")

        let target = try await Session(lists: ["Inbox"], firstID: 1_000)
        let result = try await target.run(ImportArchive(try Archive(jsonData: try first.jsonData())))
        #expect(result.areasAdded == 2 && result.listsAdded == 2)
        #expect(try await target.run(ExportArchive()).jsonData() == (try first.jsonData()))

        // Into a store with an area of the same name and lists of its own: merged, nothing twice.
        let other = try await Session(lists: ["Inbox", "Errands"], firstID: 2_000)
        let home = try await other.run(CreateArea(name: "home")).area.id
        try await other.run(MoveList(try other.list("Errands"), to: .top, in: .area(home)))
        let merged = try await other.run(ImportArchive(try Archive(jsonData: try first.jsonData())))
        #expect(merged.areasMerged == 1 && merged.areasAdded == 1)
        let again = try await other.run(ImportArchive(try Archive(jsonData: try first.jsonData())))
        #expect(again.areasMerged == 2 && again.areasAdded == 0 && again.listsAdded == 0)
        #expect(try await other.run(GetAreas()).areas.map { "\($0.name): " + $0.lists.map(\.name).joined(separator: ", ") } == ["home: Errands", "Office: Work"])
        // An archive that says nothing of areas (one list's) leaves the lists in their areas.
        _ = try await other.run(ImportArchive(alone))
        #expect(try await other.run(GetAreas()).areas.map { $0.lists.map(\.name) } == [["Errands"], ["Work"]])
    }

    @Test("Headings go out and come back with their items under them, byte for byte; merged by id, never duplicated")
    func headingsRoundTrip() async throws {
        let source = try await filled()
        let inbox = try source.list("Inbox")
        let bakery = try await source.run(CreateHeading(title: "Bakery", in: inbox)).heading.id
        try await source.run(CreateHeading(title: "Empty", in: inbox, placement: .top))
        try await source.run(MoveItems([try source.item(1)], to: .top, section: .heading(bakery)))
        let first = try await source.run(ExportArchive())
        #expect(first.version == 5 && first.lists[1].headings?.map(\.title) == ["Empty", "Bakery"])
        #expect(first.lists[1].items.map(\.heading) == [nil, nil, bakery])

        let target = try await Session(lists: ["Inbox"], firstID: 1_000)
        _ = try await target.run(ImportArchive(try Archive(jsonData: try first.jsonData())))
        #expect(try await target.run(ExportArchive()).jsonData() == (try first.jsonData()))

        // Merged again into the source, and into a store that has the list by name: nothing twice.
        let again = try await source.run(ImportArchive(try Archive(jsonData: try first.jsonData())))
        #expect(again.itemsAdded == 0 && again.listsAdded == 0)
        #expect(try await source.run(ListItems(list: inbox, visibility: .all)).headings.map(\.title) == ["Empty", "Bakery"])
        let other = try await Session(lists: ["Inbox", "Work"], firstID: 2_000)
        _ = try await other.run(ImportArchive(try Archive(jsonData: try first.jsonData())))
        let merged = try await other.run(ListItems(list: try other.list("Inbox"), visibility: .all))
        #expect(merged.headings.map(\.title) == ["Empty", "Bakery"])
        #expect(merged.items.filter { $0.heading == bakery }.map(\.title) == [first.lists[1].items[2].title])
    }

    @Test("Importing into a store with data merges by id and by list name, never duplicates, and resolves tied keys")
    func merge() async throws {
        let source = try await filled()
        var archive = try await source.run(ExportArchive())
        let target = try await Session(lists: ["Inbox", "Errands"], firstID: 1_000)
        try await target.add("Stamps", to: "Errands")
        try await target.add("Old milk")
        // The archive's Inbox has another id: it merges by name.
        let first = try await target.run(ImportArchive(archive))
        #expect(first.listsAdded == 1 && first.listsMerged == 1 && first.itemsAdded == 5 && first.itemsUpdated == 0)
        #expect(try await target.run(GetLists()).lists.map(\.name).sorted() == ["Errands", "Inbox", "Work"])
        let merged = try await target.run(ListItems(list: try target.list("Inbox"), visibility: .all)).items.map(\.title)
        #expect(merged.sorted() == ["Bread", "Eggs", "Milk", "Old milk"])
        #expect(merged.filter { $0 != "Old milk" } == ["Bread", "Milk", "Eggs"], "the archive's order holds among its items")

        // Again, with a title changed and an entry added: updated in place, the entry after the checklist's own.
        archive.lists[1].items[0].title = "Rye bread"
        let milk = archive.lists[1].items[1].id
        archive.lists[1].items[1].checklist?.insert(ArchivedChecklistItem(ChecklistItem(itemID: milk, title: "Soy", sortIndex: .min)), at: 0)
        let second = try await target.run(ImportArchive(archive))
        #expect(second.listsAdded == 0 && second.itemsAdded == 0 && second.itemsUpdated == 5)
        let titles = try await target.titles()
        #expect(titles.contains("Rye bread") && !titles.contains("Bread "), "\(titles)")
        #expect(try await target.run(ListItems(list: try target.list("Inbox"), visibility: .all)).items.count == 4)
        for scope in [OrderScope.lists, .today, .items(try target.list("Inbox")), .items(try target.list("Work"))] {
            #expect(try await target.run(ValidateList(scope)).report.tiedGroups == 0, "\(scope)")
        }
        #expect(try await target.run(ShowToday()).items.map(\.title) == ["Call", "Milk"])
        #expect(try await target.run(ShowItem(item: milk)).item.checklist.map(\.title) == ["Whole", "Oat", "Soy"], "merged by id, never duplicated")

        // An export that puts an entry under another item: the entry stays in its own checklist.
        var moved = archive
        let whole = try #require(moved.lists[1].items[1].checklist?.first)
        moved.lists[1].items[1].checklist?.removeFirst()
        moved.lists[1].items[2].checklist = [whole]
        try await target.run(ImportArchive(moved))
        #expect(try await target.run(ShowItem(item: milk)).item.checklist.map(\.title) == ["Whole", "Oat", "Soy"])
        #expect(try await target.run(ShowItem(item: moved.lists[1].items[2].id)).item.checklist.isEmpty)
    }

    @Test("A list's when and deadline go out and come back; importing into a store that has the list gives it the archive's dates, as its items take theirs")
    func scheduledLists() async throws {
        let session = try await Session(lists: ["Inbox", "Garden", "Novel"])
        let (garden, novel) = (try session.list("Garden"), try session.list("Novel"))
        let start = Day(Session.start, in: session.environment.timeZone).adding(days: 9)
        try await session.run(SetListWhen(list: garden, to: .on(start, evening: true)))
        try await session.run(SetListDeadline(list: garden, to: start.adding(days: 5)))
        try await session.run(SetListWhen(list: novel, to: .someday))
        let archive = try await session.run(ExportArchive())
        #expect(archive.version == 13)

        let fresh = try await Session(lists: [], firstID: 1_000)
        try await fresh.run(ImportArchive(archive))
        #expect(try await fresh.run(ExportArchive()).jsonData() == archive.jsonData(), "byte for byte")

        // The store changes them; the archive, imported again, puts them back.
        try await session.run(SetListWhen(list: garden, to: .anytime))
        try await session.run(SetListDeadline(list: garden, to: nil))
        try await session.run(SetListWhen(list: novel, to: .on(start)))
        let result = try await session.run(ImportArchive(archive))
        #expect(result.listsAdded == 0 && result.listsMerged == 3)
        let lists = try await session.repository.read { try $0.lists() }
        #expect(lists.first { $0.id == garden }.map { ($0.when, $0.deadline) } ?? (.anytime, nil) == (.on(start, evening: true), start.adding(days: 5)))
        #expect(lists.first { $0.id == novel }?.when == .someday)
    }

    @Test("A list exports alone, without the default list")
    func oneList() async throws {
        let session = try await filled()
        let work = try await session.run(ExportArchive(list: try session.list("Work")))
        #expect(work.lists.map(\.name) == ["Work"] && work.defaultList == nil)
        #expect(work.markdown() == "# Work\n\n- [ ] Report\n- [ ] Call\n")
    }
}
