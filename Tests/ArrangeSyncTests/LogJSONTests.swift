import ArrangeModel
@testable import ArrangeSync
import Foundation
import Testing

/// The hand-written JSON of the log reads back through `JSONDecoder` as the values it wrote.
@Suite("Sync: the JSON of the log")
struct LogJSONTests {
    static let awkward = ["", "plain", "quote \" and \\ backslash", "line\nbreak\ttab\r", "\u{01}\u{1F} control", "émoji 🧺 and 日本"]

    static func changes(_ random: inout SeededRandomNumberGenerator) -> [SyncChange] {
        let (list, item, other) = (ItemList.ID(), Item.ID(), Item.ID())
        let (entry, otherEntry) = (ChecklistItem.ID(), ChecklistItem.ID())
        let text = { (random: inout SeededRandomNumberGenerator) in awkward.randomElement(using: &random)! }
        let places = [SyncPlace(after: nil, before: nil), SyncPlace(after: item.entryID, before: nil), SyncPlace(after: nil, before: other.entryID), SyncPlace(after: item.entryID, before: other.entryID)]
        let place = places.randomElement(using: &random)!
        let moment = Date(timeIntervalSince1970: Double(Int64.random(in: 0...4_000_000_000, using: &random)) + 0.125)
        let original = OperationReference(SyncOperation(
            id: SyncOperation.ID(rawValue: UUID()), replica: ReplicaID(rawValue: UUID()), sequence: Int64.random(in: 1...1_000, using: &random),
            clock: HLCTimestamp(milliseconds: 1_790_000_000_000, counter: UInt32.random(in: 0...9, using: &random)), change: .deleteList(id: list)))
        let area = Area.ID(rawValue: UUID())
        let day = Day(Date(timeIntervalSince1970: Double.random(in: -1e10...1e10, using: &random)), in: .gmt)
        return [
            .createList(id: list, name: text(&random), place: place),
            .createList(id: list, name: text(&random), place: place, area: area),
            .renameList(id: list, name: text(&random)),
            .setListWhen(id: list, when: .on(Day(Date(timeIntervalSince1970: 1_800_000_000), in: .gmt), evening: true)),
            .setListWhen(id: list, when: .someday),
            .setListDeadline(id: list, deadline: Day(Date(timeIntervalSince1970: 1_800_000_000), in: .gmt)),
            .setListDeadline(id: list, deadline: nil),
            .setListCreatedAt(id: list, at: moment),
            .setListNotes(id: list, notes: text(&random)),
            .moveList(id: list, place: place),
            .moveList(id: list, place: place, area: area),
            .createArea(id: area, name: text(&random), place: SyncPlace(after: Area.ID(rawValue: UUID()).entryID, before: nil)),
            .renameArea(id: area, name: text(&random)),
            .moveArea(id: area, place: SyncPlace(after: nil, before: Area.ID(rawValue: UUID()).entryID)),
            .deleteArea(id: area),
            .repairAreas(area: Bool.random(using: &random) ? area : nil, normalize: Bool.random(using: &random)),
            .deleteList(id: list),
            .addItem(id: item, list: list, title: text(&random), notes: text(&random), place: place),
            .editItem(id: item, title: Bool.random(using: &random) ? text(&random) : nil, notes: Bool.random(using: &random) ? text(&random) : nil),
            .completeItems(ids: [item, other], at: moment),
            .setItemCreatedAt(id: item, at: moment),
            .reopenItems(ids: [item]),
            .deleteItems(ids: []),
            .moveItems(ids: [other, item], list: list, place: place),
            .addToToday(ids: [item], place: place),
            .removeFromToday(ids: [item, other]),
            .moveInToday(ids: [other], place: place),
            .setWhen(ids: [item, other], when: [When.anytime, .someday, .on(day), .on(day, evening: true)].randomElement(using: &random)!),
            .setDeadline(ids: [item], deadline: Bool.random(using: &random) ? day : nil),
            .dismissDeadlines(ids: [item, other], dismissed: Bool.random(using: &random)),
            .repairOrder(scope: [OrderScope.lists, .today, .items(list), .checklist(item), .areas, .area(area)].randomElement(using: &random)!, normalize: Bool.random(using: &random)),
            .addChecklistItem(id: entry, item: item, title: text(&random), place: SyncPlace(after: otherEntry.entryID, before: nil)),
            .editChecklistItem(id: entry, title: text(&random)),
            .moveChecklistItems(ids: [otherEntry, entry], item: item, place: SyncPlace(after: nil, before: entry.entryID)),
            .completeChecklistItems(ids: [entry], at: moment),
            .reopenChecklistItems(ids: [entry, otherEntry]),
            .deleteChecklistItems(ids: [otherEntry]),
            .repairChecklist(item: item, normalize: Bool.random(using: &random)),
            .retireReplica(id: ReplicaID(rawValue: UUID())),
            .leaveForkedReplica(id: ReplicaID(rawValue: UUID())),
            .replacement(of: original, change: .renameList(id: list, name: text(&random))),
            .renumbering(of: original, change: .replacement(of: original, change: .deleteItems(ids: [item]))),
        ]
    }

    @Test("Every kind of change, with awkward text, reads back as written", arguments: 0..<20)
    func changes(seed: Int) throws {
        var random = SeededRandomNumberGenerator(seed: UInt64(seed))
        for change in Self.changes(&random) {
            let data = LogJSON.encode { $0.change(change) }
            #expect(try SyncCoding.decoder.decode(SyncChange.self, from: data) == change, "\(String(decoding: data, as: UTF8.self))")
        }
    }

    @Test("A rewind of every kind of row reads back as written", arguments: 0..<20)
    func rewinds(seed: Int) throws {
        var random = SeededRandomNumberGenerator(seed: UInt64(seed))
        let list = ItemList(name: Self.awkward.randomElement(using: &random)!, createdAt: Date(timeIntervalSince1970: 1_800_000_000.25), sortIndex: .min)
        var item = Item(listID: list.id, title: Self.awkward.randomElement(using: &random)!, notes: Self.awkward.randomElement(using: &random)!, sortIndex: .max, createdAt: Date(timeIntervalSince1970: 0.1))
        if Bool.random(using: &random) {
            item.completedAt = Date(timeIntervalSince1970: 1_900_000_000.5)
            item.todayIndex = Int64.random(in: .min ... .max, using: &random)
        }
        if Bool.random(using: &random) {
            let day = Day(Date(timeIntervalSince1970: Double.random(in: 0...4e9, using: &random)), in: .gmt)
            item.when = [When.someday, .on(day), .on(day, evening: true)].randomElement(using: &random)!
            item.deadline = day.adding(days: 3)
        }
        var rewind = Rewind()
        let area = Area(name: Self.awkward.randomElement(using: &random)!, createdAt: Date(timeIntervalSince1970: 1_800_000_000.5), sortIndex: -7)
        var inArea = list
        (inArea.id, inArea.area) = (ItemList.ID(), area.id)
        // Now and then finished, completed or canceled, and now and then scheduled.
        if Bool.random(using: &random) { (inArea.completedAt, inArea.isCanceled) = (Date(timeIntervalSince1970: 1_900_000_001.25), Bool.random(using: &random)) }
        if Bool.random(using: &random) {
            let day = Day(Date(timeIntervalSince1970: Double.random(in: 0...4e9, using: &random)), in: .gmt)
            inArea.when = [When.someday, .on(day), .on(day, evening: true)].randomElement(using: &random)!
            inArea.deadline = Bool.random(using: &random) ? day.adding(days: 3) : nil
        }
        if Bool.random(using: &random) { inArea.notes = Self.awkward.randomElement(using: &random)! }
        rewind.lists = [Rewind.ListImage(id: list.id, list: list), Rewind.ListImage(id: ItemList.ID(), list: nil), Rewind.ListImage(id: inArea.id, list: inArea)]
        rewind.areas = [Rewind.AreaImage(id: area.id, area: area), Rewind.AreaImage(id: Area.ID(), area: nil)]
        rewind.items = [Rewind.ItemImage(id: item.id, item: item), Rewind.ItemImage(id: Item.ID(), item: nil)]
        let completedAt = Bool.random(using: &random) ? Date(timeIntervalSince1970: 1_900_000_000.75) : nil
        let entry = ChecklistItem(itemID: item.id, title: Self.awkward.randomElement(using: &random)!, sortIndex: .min, completedAt: completedAt)
        rewind.checklistItems = [Rewind.ChecklistImage(id: entry.id, entry: entry), Rewind.ChecklistImage(id: ChecklistItem.ID(), entry: nil)]
        rewind.defaultList = Rewind.DefaultListImage(id: Bool.random(using: &random) ? list.id : nil)
        rewind.tombstones = [
            Rewind.TombstoneImage(entry: item.id.entryID, scope: .items(list.id), sortIndex: 5), Rewind.TombstoneImage(entry: list.id.entryID, scope: .lists, sortIndex: nil),
            Rewind.TombstoneImage(entry: entry.id.entryID, scope: .checklist(item.id), sortIndex: 7),
            Rewind.TombstoneImage(entry: area.id.entryID, scope: .areas, sortIndex: 8), Rewind.TombstoneImage(entry: inArea.id.entryID, scope: .area(area.id), sortIndex: 9),
        ]

        let decoded = try SyncCoding.decoder.decode(Rewind.self, from: LogJSON.encode { $0.rewind(rewind) })
        #expect(decoded.lists.map(\.id) == rewind.lists.map(\.id))
        #expect(decoded.lists.map(\.list) == rewind.lists.map(\.list))
        #expect(decoded.areas.map(\.id) == rewind.areas.map(\.id) && decoded.areas.map(\.area) == rewind.areas.map(\.area))
        #expect(decoded.items.map(\.item) == rewind.items.map(\.item))
        #expect(decoded.checklistItems.map(\.id) == rewind.checklistItems.map(\.id))
        #expect(decoded.checklistItems.map(\.entry) == rewind.checklistItems.map(\.entry))
        #expect(decoded.defaultList?.id == rewind.defaultList?.id)
        #expect(decoded.tombstones.map(\.scope) == rewind.tombstones.map(\.scope))
        #expect(decoded.tombstones.map(\.sortIndex) == rewind.tombstones.map(\.sortIndex))
        let empty = try SyncCoding.decoder.decode(Rewind.self, from: LogJSON.encode { $0.rewind(Rewind()) })
        #expect(empty.lists.isEmpty && empty.items.isEmpty && empty.checklistItems.isEmpty && empty.areas.isEmpty && empty.defaultList == nil && empty.tombstones.isEmpty)
    }
}
