import ArrangeChanges
import ArrangeModel
import Foundation
import Testing

/// What each change names, by the rules of a shared list: what a server checks a shared log's
/// pushes by, and a device routes its changes by.
@Suite("Sync: what a change names, for shared lists")
struct ChangeSubjectsTests {
    let list = ItemList.ID(), item = Item.ID(), other = Item.ID(), heading = Heading.ID(), entry = ChecklistItem.ID()
    let tag = Tag.ID(), area = Area.ID(), series = Series.ID()
    let moment = Date(timeIntervalSince1970: 1_790_000_000)

    var place: SyncPlace { SyncPlace(after: other.entryID, before: nil) }

    @Test("an addition makes its item, and names its list, heading and neighbours")
    func addition() {
        let subjects = SyncChange.addItem(id: item, list: list, title: "Milk", notes: "", place: place, heading: heading).subjects
        #expect(subjects == ChangeSubjects(made: [item.rawValue], named: [list.rawValue, other.rawValue, heading.rawValue]))
    }

    @Test("headings, checklist entries and series are made; lists are only named")
    func made() {
        #expect(SyncChange.createHeading(id: heading, list: list, title: "A", place: SyncPlace(after: nil, before: nil)).subjects?.made == [heading.rawValue])
        #expect(SyncChange.addChecklistItem(id: entry, item: item, title: "A", place: SyncPlace(after: nil, before: nil)).subjects
            == ChangeSubjects(made: [entry.rawValue], named: [item.rawValue]))
        #expect(SyncChange.createList(id: list, name: "Groceries", place: SyncPlace(after: nil, before: nil), area: nil).subjects
            == ChangeSubjects(named: [list.rawValue]))
    }

    @Test("a to-do made by a series makes its checklist entries, with the ids every device derives")
    func repeatMade() throws {
        let change = SyncChange.makeRepeat(RepeatMade(
            series: series, id: item, day: try Day(year: 2026, month: 12, day: 1), list: list, heading: nil, place: SyncPlace(after: nil, before: nil),
            title: "Water the plants", notes: "", tags: [], checklist: ["a", "b"], deadline: nil, reminder: nil))
        let subjects = try #require(change.subjects)
        #expect(subjects.made == [item.rawValue, Series.checklistItemID(0, of: item).rawValue, Series.checklistItemID(1, of: item).rawValue])
        #expect(subjects.named == [series.rawValue, list.rawValue])
        #expect(!subjects.isPersonal)
    }

    @Test("Today, reminders, dismissed deadlines, tags, areas, evenings and the sidebar are personal")
    func personal() throws {
        let day = try Day(year: 2026, month: 12, day: 1)
        let nowhere = SyncPlace(after: nil, before: nil)
        let personal: [SyncChange] = [
            .addToToday(ids: [item], place: nowhere), .moveInToday(ids: [item], place: nowhere), .removeFromToday(ids: [item]),
            .setReminder(ids: [item], reminder: try TimeOfDay(hour: 9, minute: 0)), .setReminder(ids: [item], reminder: nil),
            .dismissDeadlines(ids: [item], dismissed: true), .moveList(id: list, place: nowhere, area: nil),
            .changeTags(tags: [tag], items: [item], lists: [], areas: [], removing: false),
            .setWhen(ids: [item], when: .on(day, evening: true)),
            .setListWhen(id: list, when: .on(day, evening: true)),
            .createArea(id: area, name: "Home", place: nowhere), .createTag(id: tag, name: "Errand", parent: nil, place: nowhere),
            .createList(id: list, name: "Groceries", place: nowhere, area: area),
            .repairOrder(scope: .today, normalize: false), .repairOrder(scope: .lists, normalize: true),
            .repairAreas(area: nil, normalize: false), .repairTags(parent: nil, normalize: false),
        ]
        for change in personal { #expect(change.subjects?.isPersonal == true, "\(change)") }
    }

    @Test("shared changes are not personal, and name what they touch")
    func shared() throws {
        let day = try Day(year: 2026, month: 12, day: 1)
        let cases: [(SyncChange, Set<UUID>)] = [
            (.setWhen(ids: [item], when: .on(day)), [item.rawValue]),
            (.setDeadline(ids: [item, other], deadline: day), [item.rawValue, other.rawValue]),
            (.moveItems(ids: [item], list: list, place: place, heading: heading), [item.rawValue, list.rawValue, other.rawValue, heading.rawValue]),
            (.completeChecklistItems(ids: [entry], at: moment), [entry.rawValue]),
            (.repairOrder(scope: .items(list), normalize: false), [list.rawValue]),
            (.repairOrder(scope: .checklist(item), normalize: false), [item.rawValue]),
            (.renameList(id: list, name: "Shop"), [list.rawValue]),
            (.trashItems(ids: [item], at: moment), [item.rawValue]),
        ]
        for (change, named) in cases {
            #expect(change.subjects == ChangeSubjects(named: named), "\(change)")
        }
    }

    @Test("a replica's retirement names nothing; an unknown kind cannot be told")
    func replicasAndUnknown() {
        #expect(SyncChange.retireReplica(id: ReplicaID()).subjects == ChangeSubjects())
        #expect(SyncChange.unknown(kind: "shareCursor", json: Data("{}".utf8)).subjects == nil)
    }

    @Test("a replacement names what the change it carries names")
    func replacement() throws {
        let original = SyncOperation(
            id: SyncOperation.ID(rawValue: UUID()), replica: ReplicaID(), sequence: 1, clock: HLCTimestamp(milliseconds: 1, counter: 0),
            change: .removeFromToday(ids: [item]))
        let change = SyncChange.replacement(of: OperationReference(original), change: .editItem(id: item, title: "Bread", notes: nil))
        #expect(change.subjects == ChangeSubjects(named: [item.rawValue]))
    }

    @Test("every kind's changes can be told, and the kinds that say they are personal are", arguments: 0..<20)
    func everyKind(seed: Int) {
        var random = SeededRandomNumberGenerator(seed: UInt64(seed))
        for change in LogJSONTests.changes(&random) {
            guard case .unknown = change else {
                let subjects = change.subjects
                #expect(subjects != nil, "\(change)")
                if let kind = change.kind, type(of: kind).isPersonal { #expect(subjects?.isPersonal == true, "\(change)") }
                continue
            }
        }
    }
}
