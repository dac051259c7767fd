import ArrangeArchive
@testable import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import ArrangeSync
import Foundation
import Testing

private typealias Tag = ArrangeModel.Tag

/// Every intent, run where sync is on, logs exactly what it writes: a replica that merges the
/// log from nothing ends with what the intent left, and an intent that writes logs something.
@Suite("Sync: every intent logs what it writes")
struct EveryIntentLogsTests {
    @Test("Every intent, undo and redo included, logs exactly what it writes", arguments: StoreKind.allCases)
    func everyIntent(kind: StoreKind) async throws {
        for sample in try await IntentSample.catalogue(kind: kind) {
            let problems = try await sample.problems()
            #expect(problems.isEmpty, "\(sample.name): \(problems.joined(separator: "; "))")
        }
    }

    @Test("An environment without sync, on a store that syncs, reads it and refuses every change", arguments: StoreKind.allCases)
    func withoutSync(kind: StoreKind) async throws {
        let fixture = try await IntentSample.fixture(kind: kind)
        let repository = fixture.replica.engine.repository
        let plain = try IntentEnvironment(repository: repository)
        #expect(try await ListItems(list: fixture.groceries, visibility: .all).perform(in: plain).items.map(\.title) == ["Milk", "Eggs", "Bread"])
        let before = try Simulation.dump(repository)
        await #expect(throws: StoreError.unloggedChange) { try await AddItem(title: "Butter", list: fixture.groceries).perform(in: plain) }
        await #expect(throws: StoreError.unloggedChange) { try await DeleteList(list: fixture.work).perform(in: plain) }
        #expect(try Simulation.dump(repository) == before, "nothing was changed")
    }

    @Test("A change of many items is logged as operations that each fit in 16 KiB, and they replay to the same", arguments: StoreKind.allCases)
    func manyItems(kind: StoreKind) async throws {
        let fixture = try await IntentSample.fixture(kind: kind)
        let environment = fixture.replica.environment
        var ids: [Item.ID] = []
        for index in 0..<600 { ids.append(try await AddItem(title: "Item \(index)", list: fixture.groceries).perform(in: environment).items[0].id) }
        let samples = [
            IntentSample(replica: fixture.replica, intent: MoveItems(ids.reversed(), to: .top, into: fixture.work, visibility: .all)),
            IntentSample(replica: fixture.replica, intent: AddToToday(ids, placement: .top)),
            IntentSample(replica: fixture.replica, intent: CancelItems(ids)),
            IntentSample(replica: fixture.replica, intent: ReopenItems(ids)),
            IntentSample(replica: fixture.replica, intent: CompleteItems(ids)),
            IntentSample(replica: fixture.replica, intent: DeleteItems(ids)),
        ]
        for sample in samples {
            let before = try fixture.replica.operations().count
            let problems = try await sample.problems()
            #expect(problems.isEmpty, "\(sample.name): \(problems)")
            let logged = try fixture.replica.operations().dropFirst(before)
            // AddToToday logs the items' start dates too, in runs of their own.
            #expect(logged.count == (sample.intent is AddToToday ? 6 : 3), "\(sample.name): 600 items in runs of at most 256")
            let file = try OperationFile.encode(OperationFile.Contents(operations: Array(logged)))
            _ = try OperationFile.decode(file)  // every line within 16 KiB, under the current rules
        }
    }

    @Test("A store that had checklists before it synced logs them with its lists and items, and merges keep them on both sides", arguments: StoreKind.allCases)
    func checklistsBeforeSync(kind: StoreKind) async throws {
        let repository = try kind.makeRepository()
        let plain = try IntentEnvironment(repository: repository)
        let trip = try await AddItem(title: "Trip").perform(in: plain).items[0].id
        for title in ["Passport", "Charger"] { _ = try await AddChecklistItem(title: title, to: trip).perform(in: plain) }
        let mine = SyncEngine(repository: repository)
        let other = try IntentReplica(kind: kind)
        _ = try await AddItem(title: "Elsewhere").perform(in: other.environment)
        _ = try await mine.exchange(with: other.engine)
        _ = try await other.engine.exchange(with: mine)
        let expected = try Simulation.dump(repository, keys: false)
        #expect(expected.filter { $0.contains("entry") }.count == 2, "\(expected)")
        #expect(try Simulation.dump(other.engine.repository, keys: false) == expected)
    }

    @Test("Undoing a move that another client took back meanwhile writes and logs nothing; redoing a removal from Today whose key another device took already passes", arguments: StoreKind.allCases)
    func undoOfWhatIsAlreadySo(kind: StoreKind) async throws {
        let fixture = try await IntentSample.fixture(kind: kind)
        let environment = fixture.replica.environment
        // Another client on the same store, with a history of its own.
        let other = try IntentEnvironment(repository: fixture.replica.engine.repository, historyLimit: 20, sync: fixture.replica.engine)
        let (milk, eggs) = (try #require(fixture.items["Milk"]), try #require(fixture.items["Eggs"]))
        _ = try await MoveItems([milk], to: .after(eggs)).perform(in: environment)
        _ = try await MoveItems([milk], to: .before(eggs)).perform(in: other)
        let logged = try fixture.replica.operations().count
        _ = try await Undo().perform(in: environment)
        #expect(try fixture.replica.operations().count == logged, "nothing to put back, nothing logged")
        let order = try await ListItems(list: fixture.groceries).perform(in: environment).items.map(\.title)
        #expect(order == ["Milk", "Eggs"])

        _ = try await RemoveFromToday([milk]).perform(in: environment)
        _ = try await Undo().perform(in: environment)
        // Another device took its key in Today away, and nothing else.
        _ = try fixture.replica.engine.perform(.removeFromToday(ids: [milk]))
        _ = try await Redo().perform(in: environment)
        #expect(try await ShowToday().perform(in: environment).items.map(\.title) == ["Report"])
    }

    @Test("The catalogue holds every intent of ArrangeIntents")
    func catalogueIsComplete() async throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "../../Sources/Core/ArrangeIntents").standardized
        let files = try FileManager.default.contentsOfDirectory(at: sources, includingPropertiesForKeys: nil).filter { $0.pathExtension == "swift" }
        var declared = Set<String>()
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: /public struct (\w+): ArrangeIntent/) { declared.insert(String(match.1)) }
        }
        #expect(declared.count > 20, "the scan found the intents")
        let samples = try await IntentSample.catalogue(kind: .inMemory)
        let covered = Set(samples.map(\.name))
        #expect(declared.subtracting(covered).isEmpty, "intents the catalogue leaves out: \(declared.subtracting(covered).sorted())")
        // Each has a title of its own in the table, which undo steps and App Intents show.
        for sample in samples {
            let title = type(of: sample.intent).localizedTitle
            #expect(!title.hasPrefix("Action."), "\(sample.name) has no title in Messages.strings")
        }
    }

    @Test("The check fails on an intent that writes and records nothing, and on one that records half of what it writes", arguments: StoreKind.allCases)
    func brokenOnPurpose(kind: StoreKind) async throws {
        let silent = try await IntentSample.fixture(kind: kind)
        let silentProblems = try await IntentSample(name: "WritesUnrecorded", replica: silent.replica, intent: WritesUnrecorded(list: silent.groceries)).problems()
        #expect(silentProblems.contains { $0.contains("unrecordedChange") || $0.contains("without being recorded") }, "\(silentProblems)")

        let half = try await IntentSample.fixture(kind: kind)
        let halfProblems = try await IntentSample(name: "RecordsHalf", replica: half.replica, intent: RecordsHalf(list: half.groceries)).problems()
        #expect(halfProblems.contains { $0.contains("replay") }, "\(halfProblems)")
    }
}

/// One intent to run on a replica that syncs, after what prepares it.
struct IntentSample {
    /// The intent's type name.
    let name: String
    let replica: IntentReplica
    let prepare: [any ArrangeIntent]
    let intent: any ArrangeIntent

    init(name: String? = nil, replica: IntentReplica, prepare: [any ArrangeIntent] = [], intent: any ArrangeIntent) {
        self.name = name ?? String(describing: type(of: intent))
        self.replica = replica
        self.prepare = prepare
        self.intent = intent
    }

    /// What goes wrong when the intent runs: nothing, when the log tells exactly what it wrote.
    func problems() async throws -> [String] {
        for step in prepare { _ = try await step.perform(in: replica.environment) }
        let before = try Simulation.dump(replica.engine.repository, keys: false)
        let loggedBefore = try replica.operations().count
        do {
            _ = try await intent.perform(in: replica.environment)
        } catch {
            return ["it threw \(error) (\(error.localizedDescription))"]
        }
        var problems: [String] = []
        let after = try Simulation.dump(replica.engine.repository, keys: false)
        let operations = try replica.operations()
        if after != before, operations.count == loggedBefore { problems.append("it changed the store and logged nothing") }
        let fresh = SyncEngine(repository: InMemoryItemRepository())
        try await fresh.merge(operations)
        if try Simulation.dump(fresh.repository, keys: false) != after { problems.append("the replay of the log differs from what it did") }
        return problems
    }

    /// A replica with two areas, Office (with Work in it) and Home (empty), and two lists:
    /// Groceries, in no area (Milk in Today, with a checklist of Oat, Whole done, and Skim; Eggs;
    /// Bread completed) and Work (Report in Today, Slides).
    static func fixture(
        kind: StoreKind
    ) async throws -> (
        replica: IntentReplica, groceries: ItemList.ID, work: ItemList.ID, items: [String: Item.ID], entries: [String: ChecklistItem.ID], areas: [String: Area.ID]
    ) {
        let replica = try IntentReplica(kind: kind)
        let environment = replica.environment
        var areas: [String: Area.ID] = [:]
        for name in ["Office", "Home"] { areas[name] = try await CreateArea(name: name).perform(in: environment).area.id }
        let groceries = try await CreateList(name: "Groceries").perform(in: environment).list.id
        let work = try await CreateList(name: "Work", in: .area(try #require(areas["Office"]))).perform(in: environment).list.id
        var items: [String: Item.ID] = [:]
        for (title, list) in [("Milk", groceries), ("Eggs", groceries), ("Bread", groceries), ("Report", work), ("Slides", work)] {
            items[title] = try await AddItem(title: title, list: list).perform(in: environment).items[0].id
        }
        _ = try await AddToToday([items["Milk"], items["Report"]].compactMap { $0 }).perform(in: environment)
        _ = try await CompleteItems([items["Bread"]].compactMap { $0 }).perform(in: environment)
        let milk = try #require(items["Milk"])
        var entries: [String: ChecklistItem.ID] = [:]
        for title in ["Oat", "Whole", "Skim"] {
            entries[title] = try await AddChecklistItem(title: title, to: milk).perform(in: environment).changed.first
        }
        _ = try await CompleteChecklistItems([entries["Whole"]].compactMap { $0 }).perform(in: environment)
        return (replica, groceries, work, items, entries, areas)
    }

    /// One sample of every intent of ArrangeIntents, each on a fixture of its own.
    static func catalogue(kind: StoreKind) async throws -> [IntentSample] {
        var samples: [IntentSample] = []
        func add(_ make: (_ lists: (ItemList.ID, ItemList.ID), _ items: [String: Item.ID]) throws -> (prepare: [any ArrangeIntent], intent: any ArrangeIntent)) async throws {
            let fixture = try await fixture(kind: kind)
            let (prepare, intent) = try make((fixture.groceries, fixture.work), fixture.items)
            samples.append(IntentSample(replica: fixture.replica, prepare: prepare, intent: intent))
        }
        func addOnChecklist(
            _ make: (_ items: [String: Item.ID], _ entries: [String: ChecklistItem.ID]) throws -> (prepare: [any ArrangeIntent], intent: any ArrangeIntent)
        ) async throws {
            let fixture = try await fixture(kind: kind)
            let (prepare, intent) = try make(fixture.items, fixture.entries)
            samples.append(IntentSample(replica: fixture.replica, prepare: prepare, intent: intent))
        }
        func addOnAreas(
            _ make: (_ lists: (ItemList.ID, ItemList.ID), _ areas: [String: Area.ID]) throws -> (prepare: [any ArrangeIntent], intent: any ArrangeIntent)
        ) async throws {
            let fixture = try await fixture(kind: kind)
            let (prepare, intent) = try make((fixture.groceries, fixture.work), fixture.areas)
            samples.append(IntentSample(replica: fixture.replica, prepare: prepare, intent: intent))
        }
        func id<Subject>(_ ids: [String: Identifier<Subject>], _ title: String) throws -> Identifier<Subject> { try #require(ids[title]) }
        /// On the fixture, Groceries gets the headings Dairy (with Eggs and Bread under it) and Bakery (empty).
        func addOnHeadings(
            _ make: (_ lists: (ItemList.ID, ItemList.ID), _ items: [String: Item.ID], _ headings: [String: Heading.ID]) throws
                -> (prepare: [any ArrangeIntent], intent: any ArrangeIntent)
        ) async throws {
            let fixture = try await fixture(kind: kind)
            let environment = fixture.replica.environment
            var headings: [String: Heading.ID] = [:]
            for title in ["Dairy", "Bakery"] {
                headings[title] = try await CreateHeading(title: title, in: fixture.groceries).perform(in: environment).heading.id
            }
            let dairy = try id(headings, "Dairy")
            _ = try await MoveItems([try id(fixture.items, "Eggs"), try id(fixture.items, "Bread")], to: .top, section: .heading(dairy)).perform(in: environment)
            let (prepare, intent) = try make((fixture.groceries, fixture.work), fixture.items, headings)
            samples.append(IntentSample(replica: fixture.replica, prepare: prepare, intent: intent))
        }
        /// On the fixture, the tags Errand (with Shops under it) and Home.
        func addOnTags(
            _ make: (_ tags: [String: Tag.ID], _ items: [String: Item.ID], _ lists: (ItemList.ID, ItemList.ID), _ areas: [String: Area.ID]) throws
                -> (prepare: [any ArrangeIntent], intent: any ArrangeIntent)
        ) async throws {
            let fixture = try await fixture(kind: kind)
            let environment = fixture.replica.environment
            let errand = try await CreateTag(name: "Errand").perform(in: environment).tag.id
            let shops = try await CreateTag(name: "Shops", in: .children(of: errand)).perform(in: environment).tag.id
            let home = try await CreateTag(name: "Home").perform(in: environment).tag.id
            let (prepare, intent) = try make(["Errand": errand, "Shops": shops, "Home": home], fixture.items, (fixture.groceries, fixture.work), fixture.areas)
            samples.append(IntentSample(replica: fixture.replica, prepare: prepare, intent: intent))
        }
        /// A sample on a fixture whose Milk repeats by `rule`, given the series.
        func addOnSeries(
            _ rule: RepeatRule, _ make: (_ series: Series.ID, _ items: [String: Item.ID]) throws -> (prepare: [any ArrangeIntent], intent: any ArrangeIntent)
        ) async throws {
            let fixture = try await fixture(kind: kind)
            let milk = try id(fixture.items, "Milk")
            let repeating = try await SetRepeat(item: milk, repeat: rule, day: try Day(parsing: "2026-12-01")).perform(in: fixture.replica.environment)
            let (prepare, intent) = try make(try #require(repeating.item.series), fixture.items)
            samples.append(IntentSample(replica: fixture.replica, prepare: prepare, intent: intent))
        }
        let archive = Archive(defaultList: nil, lists: [ArchivedList(ItemList(name: "Imported", createdAt: Date(timeIntervalSince1970: 0)), items: [])])

        try await add { lists, _ in ([], AddItem(title: "Butter", list: lists.0, placement: .top)) }
        try await add { _, items in ([], RenameItem(item: try id(items, "Milk"), title: "Oat milk")) }
        try await add { _, items in ([], EditItem(try id(items, "Eggs"), title: "Free-range eggs", notes: "A dozen")) }
        try await add { _, items in ([], EditItem(try id(items, "Eggs"), notes: "")) }
        try await add { _, items in ([], CompleteItems([try id(items, "Milk"), try id(items, "Eggs")])) }
        try await add { _, items in ([], ReopenItems([try id(items, "Bread")])) }
        try await add { _, items in ([], CancelItems([try id(items, "Milk"), try id(items, "Bread")])) }
        try await add { _, items in ([CancelItems([try id(items, "Milk")])], ReopenItems([try id(items, "Milk"), try id(items, "Bread")])) }
        let day = try Day(parsing: "2026-12-01")
        try await add { _, items in ([], SetWhen([try id(items, "Milk"), try id(items, "Eggs")], to: .on(day, evening: true))) }
        try await add { _, items in ([], SetWhen([try id(items, "Bread")], to: .someday)) }
        try await add { _, items in ([SetWhen([try id(items, "Milk")], to: .on(day))], SetWhen([try id(items, "Milk"), try id(items, "Eggs")], to: .anytime)) }
        try await add { _, items in ([], SetDeadline([try id(items, "Milk")], to: day)) }
        try await add { _, items in ([SetDeadline([try id(items, "Milk")], to: day)], SetDeadline([try id(items, "Milk")], to: nil)) }
        try await add { _, items in ([], SetReminder([try id(items, "Milk")], at: try TimeOfDay(parsing: "09:00"), day: day)) }
        try await add { lists, _ in ([], SetListWhen(list: lists.1, to: .someday)) }
        try await add { lists, _ in ([SetListWhen(list: lists.1, to: .someday)], SetListWhen(list: lists.1, to: .on(day, evening: true))) }
        try await add { lists, _ in ([], SetListDeadline(list: lists.1, to: day)) }
        try await add { lists, _ in ([SetListDeadline(list: lists.1, to: day)], SetListDeadline(list: lists.1, to: nil)) }
        let past = Date(timeIntervalSince1970: 1_700_000_000.5)
        try await add { _, items in ([], SetItemCreationDate(item: try id(items, "Milk"), to: past)) }
        try await add { lists, _ in ([], SetListCreationDate(list: lists.1, to: past)) }
        try await add { lists, _ in ([], SetListNotes(list: lists.1, notes: "Quarterly\nReport")) }
        try await add { lists, _ in ([SetListNotes(list: lists.1, notes: "Quarterly")], SetListNotes(list: lists.1, notes: "")) }
        try await add { _, _ in ([], MakeLinkToken()) }
        let link = try ThingsLink(#"things:///json?data=[{"type":"project","attributes":{"title":"Party","area":"Home","tags":["Fun"],"creation-date":"2026-01-01T00:00:00Z","items":[{"type":"heading","attributes":{"title":"Food"}},{"type":"to-do","attributes":{"title":"Cake","when":"tomorrow@9","tags":["Fun","Errand"],"completed":true,"completion-date":"2026-02-01T00:00:00Z","creation-date":"2026-01-15T00:00:00Z","checklist-items":[{"type":"checklist-item","attributes":{"title":"Eggs","canceled":true}}]}}]}},{"type":"to-do","attributes":{"title":"Call","list":"Groceries","deadline":"2027-01-01"}}]"#)
        try await add { _, _ in ([], OpenThingsLink(link)) }
        try await add { _, items in ([SetReminder([try id(items, "Milk")], at: try TimeOfDay(parsing: "09:00"), day: day)], GetReminders()) }
        let weekly = try RepeatRule(.fixed, every: 1, .week, deadlineOffset: 1, reminder: try TimeOfDay(parsing: "08:00"))
        let afterDone = try RepeatRule(.afterCompletion, every: 3, .day)
        try await add { _, items in ([AddChecklistItem(title: "Oat", to: try id(items, "Eggs"))], SetRepeat(item: try id(items, "Eggs"), repeat: weekly, day: day)) }
        try await addOnSeries(weekly) { _, items in ([], SetRepeat(item: try id(items, "Milk"), repeat: afterDone)) }
        try await addOnSeries(weekly) { _, items in ([], SetRepeat(item: try id(items, "Milk"), repeat: nil)) }
        try await addOnSeries(weekly) { series, _ in ([], PauseRepeat(series: series)) }
        try await addOnSeries(weekly) { series, _ in ([PauseRepeat(series: series)], ResumeRepeat(series: series)) }
        try await addOnSeries(weekly) { _, _ in ([], GetRepeats()) }
        try await addOnSeries(weekly) { _, _ in ([], MakeDueRepeats(day: try Day(parsing: "2026-12-16"))) }
        try await addOnSeries(afterDone) { _, items in ([], CompleteItems([try id(items, "Milk")], day: try Day(parsing: "2026-12-02"))) }
        try await addOnSeries(afterDone) { _, items in ([CompleteItems([try id(items, "Milk")], day: day)], Undo()) }
        try await add { _, items in ([SetWhen([try id(items, "Milk")], to: .on(day)), SetDeadline([try id(items, "Eggs")], to: day)], Undo()) }
        try await add { _, items in ([SetWhen([try id(items, "Milk")], to: .someday), Undo()], Redo()) }
        try await add { _, items in ([], DeleteItems([try id(items, "Milk"), try id(items, "Slides")])) }
        try await add { _, _ in ([], GetTrash()) }
        try await add { _, items in ([DeleteItems([try id(items, "Milk"), try id(items, "Eggs")])], RestoreFromTrash(items: [try id(items, "Milk")])) }
        try await add { _, items in ([DeleteItems([try id(items, "Milk"), try id(items, "Eggs")])], EmptyTrash(items: [try id(items, "Eggs")])) }
        try await add { lists, items in ([DeleteItems([try id(items, "Milk")]), DeleteList(list: lists.1)], EmptyTrash()) }
        try await add { lists, _ in ([DeleteList(list: lists.1)], RestoreFromTrash(lists: [lists.1])) }
        try await add { lists, items in ([DeleteItems([try id(items, "Milk")]), DeleteList(list: lists.1)], Undo()) }
        try await addOnChecklist { items, _ in ([], AddChecklistItem(title: "Soy", to: try id(items, "Milk"), at: .top)) }
        try await addOnChecklist { items, _ in ([], AddChecklistItem(title: "Free-range", to: try id(items, "Eggs"))) }
        try await addOnChecklist { _, entries in ([], EditChecklistItem(try id(entries, "Oat"), title: "Oat, barista")) }
        try await addOnChecklist { _, entries in ([], MoveChecklistItems([try id(entries, "Skim"), try id(entries, "Oat")], to: .after(try id(entries, "Whole")))) }
        try await addOnChecklist { items, _ in ([], MoveChecklistItemsAtOffsets(fromOffsets: [2], toOffset: 0, in: try id(items, "Milk"))) }
        try await addOnChecklist { _, entries in ([], CompleteChecklistItems([try id(entries, "Oat"), try id(entries, "Whole")])) }
        try await addOnChecklist { _, entries in ([], ReopenChecklistItems([try id(entries, "Whole")])) }
        try await addOnChecklist { _, entries in ([], CancelChecklistItems([try id(entries, "Oat"), try id(entries, "Whole")])) }
        try await addOnChecklist { _, entries in ([CancelChecklistItems([try id(entries, "Oat")])], ReopenChecklistItems([try id(entries, "Oat")])) }
        try await addOnChecklist { _, entries in ([], DeleteChecklistItems([try id(entries, "Skim"), try id(entries, "Oat")])) }
        try await addOnChecklist { _, entries in ([DeleteChecklistItems([try id(entries, "Whole")])], Undo()) }
        try await addOnChecklist { _, entries in ([CompleteChecklistItems([try id(entries, "Skim")]), Undo()], Redo()) }
        try await addOnChecklist { items, _ in ([DeleteItems([try id(items, "Milk")])], Undo()) }
        try await addOnChecklist { items, _ in ([], ValidateList(.checklist(try id(items, "Milk")), repair: true)) }
        try await addOnChecklist { items, _ in ([], NormalizeList(.checklist(try id(items, "Milk")))) }
        try await add { lists, _ in ([], ListItems(list: lists.0, visibility: .all)) }
        try await add { _, items in ([], ShowItem(item: try id(items, "Eggs"))) }
        try await add { lists, items in ([], MoveItems([try id(items, "Eggs"), try id(items, "Milk")], to: .top, into: lists.1, visibility: .all)) }
        try await add { lists, _ in ([], MoveItemsAtOffsets(fromOffsets: [0], toOffset: 2, in: lists.0, visibility: .all)) }
        try await add { _, _ in ([], CreateList(name: "Home", placement: .top)) }
        try await add { lists, _ in ([], MoveList(lists.1, to: .top)) }
        try await add { _, _ in ([CreateList(name: "Home")], MoveListsAtOffsets(fromOffsets: [1], toOffset: 0)) }
        try await add { lists, _ in ([], RenameList(list: lists.1, name: "Office")) }
        try await add { lists, _ in ([], DeleteList(list: lists.1)) }
        try await add { _, _ in ([], GetLists()) }
        try await add { _, _ in ([], Search(query: "mil")) }
        try await add { lists, _ in ([], CompleteList(list: lists.1)) }
        try await add { lists, _ in ([], CancelList(list: lists.1, items: .keep)) }
        try await add { lists, _ in ([CancelList(list: lists.1)], ReopenList(list: lists.1)) }
        try await add { lists, _ in ([CompleteList(list: lists.1, items: .cancel)], Undo()) }
        try await addOnAreas { _, _ in ([], CreateArea(name: "Errands", placement: .top)) }
        try await addOnAreas { _, areas in ([], RenameArea(area: try id(areas, "Home"), name: "House")) }
        try await addOnAreas { _, areas in ([], MoveArea(try id(areas, "Home"), to: .top)) }
        try await addOnAreas { _, _ in ([], MoveAreasAtOffsets(fromOffsets: [0], toOffset: 2)) }
        try await addOnAreas { _, areas in ([], DeleteArea(area: try id(areas, "Office"))) }
        try await addOnAreas { _, _ in ([], GetAreas()) }
        try await addOnAreas { lists, areas in ([], MoveList(lists.0, to: .top, in: .area(try id(areas, "Office")))) }
        try await addOnAreas { lists, _ in ([], MoveList(lists.1, to: .bottom, in: .noArea)) }
        try await addOnAreas { _, areas in
            ([CreateList(name: "Plans", in: .area(try id(areas, "Office")))], MoveListsAtOffsets(fromOffsets: [1], toOffset: 0, in: .area(try id(areas, "Office"))))
        }
        try await addOnAreas { _, areas in ([], CreateList(name: "Garden", in: .area(try id(areas, "Home")))) }
        try await addOnAreas { _, areas in ([DeleteArea(area: try id(areas, "Office"))], Undo()) }
        try await addOnAreas { _, areas in ([DeleteArea(area: try id(areas, "Office")), Undo()], Redo()) }
        try await addOnAreas { lists, _ in ([DeleteList(list: lists.1)], Undo()) }
        try await addOnAreas { _, _ in ([], ValidateList(.areas, repair: true)) }
        try await addOnAreas { _, areas in ([], NormalizeList(.area(try id(areas, "Office")))) }
        try await addOnTags { _, _, _, _ in ([], GetTags()) }
        try await addOnTags { tags, _, _, _ in ([], CreateTag(name: "Bakery", placement: .before(try id(tags, "Shops")), in: .children(of: try id(tags, "Errand")))) }
        try await addOnTags { tags, _, _, _ in ([], RenameTag(tag: try id(tags, "Home"), name: "House")) }
        try await addOnTags { tags, _, _, _ in ([], MoveTag(try id(tags, "Home"), to: .top)) }
        try await addOnTags { tags, _, _, _ in ([], MoveTag(try id(tags, "Home"), to: .bottom, in: .children(of: try id(tags, "Shops")))) }
        try await addOnTags { tags, _, _, _ in ([], MoveTag(try id(tags, "Shops"), to: .top, in: .topLevel)) }
        try await addOnTags { _, _, _, _ in ([], MoveTagsAtOffsets(in: .topLevel, fromOffsets: [1], toOffset: 0)) }
        try await addOnTags { tags, _, _, _ in ([], DeleteTag(tag: try id(tags, "Errand"))) }
        try await addOnTags { tags, _, _, _ in ([DeleteTag(tag: try id(tags, "Errand"))], Undo()) }
        try await addOnTags { tags, _, _, _ in ([DeleteTag(tag: try id(tags, "Errand")), Undo()], Redo()) }
        try await addOnTags { tags, _, _, _ in ([MoveTag(try id(tags, "Shops"), to: .top, in: .topLevel)], Undo()) }
        try await addOnTags { _, _, _, _ in ([], ValidateList(.tags(nil), repair: true)) }
        try await addOnTags { tags, _, _, _ in ([], NormalizeList(.tags(try id(tags, "Errand")))) }
        try await addOnTags { tags, items, _, _ in ([], AddTags([try id(tags, "Errand"), try id(tags, "Home")], to: .items([try id(items, "Milk"), try id(items, "Eggs")]))) }
        try await addOnTags { tags, _, lists, _ in ([], AddTags([try id(tags, "Shops")], to: .list(lists.0))) }
        try await addOnTags { tags, _, _, areas in ([], AddTags([try id(tags, "Home")], to: .area(try id(areas, "Home")))) }
        try await addOnTags { tags, items, _, _ in
            ([AddTags([try id(tags, "Errand"), try id(tags, "Home")], to: .items([try id(items, "Milk")]))], RemoveTags([try id(tags, "Errand")], from: .items([try id(items, "Milk")])))
        }
        try await addOnTags { tags, items, lists, areas in
            let errand = try id(tags, "Errand")
            return ([AddTags([errand], to: .items([try id(items, "Milk")])), AddTags([try id(tags, "Shops")], to: .list(lists.0)), AddTags([errand], to: .area(try id(areas, "Office")))], DeleteTag(tag: errand))
        }
        try await addOnTags { tags, items, lists, _ in
            let errand = try id(tags, "Errand")
            return ([AddTags([errand, try id(tags, "Home")], to: .items([try id(items, "Milk")])), AddTags([try id(tags, "Shops")], to: .list(lists.0)), DeleteTag(tag: errand)], Undo())
        }
        try await addOnTags { tags, items, _, _ in ([AddTags([try id(tags, "Shops")], to: .items([try id(items, "Eggs")]))], Undo()) }
        try await addOnHeadings { lists, _, _ in ([], CreateHeading(title: "Frozen", in: lists.0, placement: .top)) }
        try await addOnHeadings { _, _, headings in ([], RenameHeading(heading: try id(headings, "Dairy"), title: "Dairy and eggs")) }
        try await addOnHeadings { _, _, headings in ([], MoveHeading(try id(headings, "Bakery"), to: .top)) }
        try await addOnHeadings { lists, _, headings in ([], MoveHeading(try id(headings, "Dairy"), to: .bottom, in: lists.1)) }
        try await addOnHeadings { lists, _, _ in ([], MoveHeadingsAtOffsets(fromOffsets: [1], toOffset: 0, in: lists.0)) }
        try await addOnHeadings { _, _, headings in ([], DeleteHeading(heading: try id(headings, "Dairy"))) }
        try await addOnHeadings { _, _, headings in ([DeleteHeading(heading: try id(headings, "Dairy"))], Undo()) }
        try await addOnHeadings { _, _, headings in ([DeleteHeading(heading: try id(headings, "Dairy")), Undo()], Redo()) }
        try await addOnHeadings { _, _, headings in ([DeleteHeading(heading: try id(headings, "Dairy"))], RestoreFromTrash(headings: [try id(headings, "Dairy")])) }
        try await addOnHeadings { _, _, headings in ([DeleteHeading(heading: try id(headings, "Dairy"))], EmptyTrash()) }
        try await addOnHeadings { lists, _, headings in ([MoveHeading(try id(headings, "Dairy"), to: .top, in: lists.1)], Undo()) }
        try await addOnHeadings { lists, _, _ in ([DeleteList(list: lists.0)], Undo()) }
        try await addOnHeadings { _, items, headings in ([], MoveItems([try id(items, "Milk")], to: .top, section: .heading(try id(headings, "Bakery")))) }
        try await addOnHeadings { _, items, _ in ([], MoveItems([try id(items, "Eggs")], to: .bottom, section: .noHeading, visibility: .all)) }
        try await addOnHeadings { lists, items, headings in ([], MoveItems([try id(items, "Report")], to: .top, into: lists.0, section: .heading(try id(headings, "Dairy")))) }
        try await addOnHeadings { lists, _, headings in
            ([], MoveItemsAtOffsets(fromOffsets: [1], toOffset: 0, in: lists.0, section: .heading(try id(headings, "Dairy")), visibility: .all))
        }
        try await addOnHeadings { lists, items, headings in
            let shown = [try id(items, "Milk")]
            return ([], MoveItemsAtOffsets(fromOffsets: [0], toOffset: 0, in: lists.0, destination: .heading(try id(headings, "Bakery")), shown: shown, destinationShown: []))
        }
        try await addOnHeadings { lists, _, headings in
            ([], MoveItemsAtOffsets(fromOffsets: [0], toOffset: 1, in: lists.0, section: .heading(try id(headings, "Dairy")), destination: .noHeading, visibility: .all))
        }
        try await addOnHeadings { lists, _, _ in ([], ValidateList(.headings(lists.0), repair: true)) }
        try await addOnHeadings { _, _, headings in ([], NormalizeList(.heading(try id(headings, "Dairy")))) }
        try await addOnHeadings { lists, _, _ in ([], ListItems(list: lists.0, visibility: .all)) }
        try await addOnHeadings { lists, items, headings in
            // A heading new to the store, in a new list, and one it has, with an item moved under it.
            let camp = ItemList(name: "Camp", createdAt: Date(timeIntervalSince1970: 0))
            let gear = Heading(listID: camp.id, title: "Gear", createdAt: Date(timeIntervalSince1970: 0))
            var tent = Item(listID: camp.id, title: "Tent", sortIndex: 0, createdAt: Date(timeIntervalSince1970: 0))
            tent.heading = gear.id
            let bakery = Heading(id: try id(headings, "Bakery"), listID: lists.0, title: "Bakery goods", createdAt: Date(timeIntervalSince1970: 0))
            var milk = Item(id: try id(items, "Milk"), listID: lists.0, title: "Milk", sortIndex: 0, createdAt: Date(timeIntervalSince1970: 0))
            milk.heading = bakery.id
            let groceries = ItemList(id: lists.0, name: "Groceries", createdAt: Date(timeIntervalSince1970: 0))
            return ([], ImportArchive(Archive(defaultList: nil, lists: [
                ArchivedList(camp, headings: [ArchivedHeading(gear)], items: [ArchivedItem(tent)]),
                ArchivedList(groceries, headings: [ArchivedHeading(bakery)], items: [ArchivedItem(milk)]),
            ])))
        }
        try await add { _, _ in ([], ShowToday(visibility: .all)) }
        try await add { _, _ in ([], ShowLogbook(offset: 0, limit: 10)) }
        try await add { _, items in ([SetWhen([try id(items, "Milk")], to: .on(day))], ShowUpcoming(day: day.adding(days: -1))) }
        try await add { _, items in ([SetWhen([try id(items, "Milk")], to: .on(day))], ShowAnytime()) }
        try await add { _, items in ([SetWhen([try id(items, "Milk")], to: .someday)], ShowSomeday()) }
        try await add { _, items in ([], AddToToday([try id(items, "Eggs"), try id(items, "Report")], placement: .top)) }
        try await add { _, items in ([], MoveInToday([try id(items, "Report")], to: .top, visibility: .all)) }
        try await add { _, _ in ([], MoveInTodayAtOffsets(fromOffsets: [1], toOffset: 0, visibility: .all)) }
        try await add { _, items in ([], RemoveFromToday([try id(items, "Milk")])) }
        try await add { lists, _ in ([], ValidateList(list: lists.0, repair: true)) }
        try await add { lists, _ in ([], NormalizeList(list: lists.0)) }
        try await add { _, _ in ([], ExportArchive()) }
        try await add { _, _ in ([], ImportArchive(archive)) }
        try await addOnAreas { _, areas in
            let home = ArchivedArea(Area(id: try id(areas, "Home"), name: "Home", createdAt: Date(timeIntervalSince1970: 0)))
            let garden = Area(name: "Garden", createdAt: Date(timeIntervalSince1970: 0))
            let lists = [
                ArchivedList(ItemList(name: "Seeds", createdAt: Date(timeIntervalSince1970: 0), area: home.id), items: []),
                ArchivedList(ItemList(name: "Tools", createdAt: Date(timeIntervalSince1970: 0), area: garden.id), items: []),
            ]
            return ([], ImportArchive(Archive(defaultList: nil, areas: [home, ArchivedArea(garden)], lists: lists)))
        }
        try await add { _, items in ([DeleteItems([try id(items, "Milk")])], Undo()) }
        try await add { lists, items in ([MoveItems([try id(items, "Milk")], to: .bottom, into: lists.1), Undo()], Redo()) }
        return samples
    }
}

/// Writes an item and records nothing: broken on purpose.
private struct WritesUnrecorded: ArrangeIntent {
    static let title = "Write Unrecorded"
    let list: ItemList.ID

    func run(in context: IntentContext) throws -> Bool {
        try context.writing(Self.title).insert(Item(listID: list, title: "Unrecorded", sortIndex: 1 << 40, createdAt: Date()))
        return true
    }
}

/// Writes two items and records only the first: broken on purpose.
private struct RecordsHalf: ArrangeIntent {
    static let title = "Record Half"
    let list: ItemList.ID

    func run(in context: IntentContext) throws -> Bool {
        let transaction = try context.writing(Self.title)
        let recorded = Item(listID: list, title: "Recorded", sortIndex: -(1 << 62), createdAt: Date())
        try transaction.insert(recorded)
        try context.record(made: SyncChange.creation(of: recorded, at: SyncPlace(after: nil, before: nil)))
        try transaction.insert(Item(listID: list, title: "Unrecorded", sortIndex: 1 << 41, createdAt: Date()))
        return true
    }
}
