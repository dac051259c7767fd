import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import ArrangeStore
import ArrangeSync
import Foundation
import PropertyBased
import Synchronization
import Testing

private typealias Tag = ArrangeModel.Tag

/// Replicas that make random operations apart, exchange partial, duplicated and reordered
/// batches, then everything: each must end with the same lists, items, Today and keys.
@Suite("Sync: convergence of the merge")
struct ConvergenceTests {
    @Test("2 to 4 replicas with random operations of every kind converge, with rising keys and nothing to repair", arguments: StoreKind.allCases)
    func randomReplicas(kind: StoreKind) async throws {
        await propertyCheck(count: kind == .inMemory ? 40 : 15, input: Gen.int(in: 0...Int(UInt32.max)).array(of: 8...160)) { words in
            let simulation = try Simulation(replicas: 2 + words[0] % 3, kind: kind)
            for step in stride(from: 1, to: words.count - 3, by: 4) {
                try simulation.step(Array(words[step..<step + 4]))
            }
            try simulation.exchangeAll()
            try simulation.expectConvergence()
            _ = try simulation.conflicts()
        }
    }

    @Test("Long sessions of 200 steps converge, and meet every kind of conflict the rules settle", arguments: StoreKind.allCases)
    func longSessions(kind: StoreKind) throws {
        var total = ConflictCounts()
        for seed in 0..<4 {
            var random = SeededRandomNumberGenerator(seed: UInt64(seed))
            let simulation = try Simulation(replicas: 2 + seed % 3, kind: kind)
            for _ in 0..<200 {
                try simulation.step((0..<4).map { _ in Int.random(in: 0...Int(UInt32.max), using: &random) })
            }
            try simulation.exchangeAll()
            try simulation.expectConvergence()
            total.add(try simulation.conflicts())
        }
        // The checks of `conflicts()` saw each kind settled by its rule.
        #expect(total.concurrentMoves > 0 && total.deleteAgainstChange > 0 && total.goneAnchor > 0, "\(total)")
        // A list moved into a deleted area and an item under a deleted heading are rarer: `deletedGroups` makes them for sure.
        #expect(total.addToDeletedList > 0 && total.sameName > 0 && total.entryOfDeletedItem > 0, "\(total)")
        #expect(total.sameTagName > 0, "\(total)")
    }

    @Test(
        "A heading deleted on one device while another moves an item under it: the item stays, under no heading; a list moved into a deleted area goes to no area",
        arguments: StoreKind.allCases, [false, true])
    func deletedGroups(kind: StoreKind, deleteComesLater: Bool) throws {
        // The second replica's clock runs ahead: its operations come later in the total order.
        let simulation = try Simulation(replicas: 2, kind: kind)
        let (deleter, mover) = deleteComesLater ? (simulation.engines[1], simulation.engines[0]) : (simulation.engines[0], simulation.engines[1])
        let (list, other, area) = (ItemList.ID(), ItemList.ID(), Area.ID())
        let (heading, kept, gone) = (Heading.ID(), Item.ID(), Item.ID())
        let nowhere = SyncPlace(after: nil, before: nil)
        for change: SyncChange in [
            .createArea(id: area, name: "Work", place: nowhere), .createList(id: list, name: "Trip", place: nowhere),
            .createList(id: other, name: "Home", place: nowhere), .createHeading(id: heading, list: list, title: "Packing", place: nowhere),
            .addItem(id: kept, list: list, title: "Map", notes: "", place: nowhere),
            .addItem(id: gone, list: list, title: "Tent", notes: "", place: nowhere, heading: heading),
        ] { try deleter.perform(change) }
        try simulation.exchangeAll()
        // What DeleteHeading logs: the items it held, then the heading.
        try deleter.perform(.deleteItems(ids: [gone]))
        try deleter.perform(.deleteHeading(id: heading))
        try deleter.perform(.deleteArea(id: area))
        try mover.perform(.moveItems(ids: [kept], list: list, place: nowhere, heading: heading))
        try mover.perform(.moveList(id: other, place: nowhere, area: area))
        try simulation.exchangeAll()
        try simulation.expectConvergence()
        try deleter.repository.read { transaction in
            #expect(try transaction.heading(id: heading) == nil)
            #expect(try transaction.item(id: gone) == nil)
            let item = try #require(try transaction.item(id: kept))
            #expect(item.listID == list && item.heading == nil, "kept, under no heading")
            #expect(try transaction.list(id: other)?.area == nil, "in no area")
        }
    }

    @Test(
        "Tags created apart under one name merge into the one created first, which keeps its place; a move of the other applies to it; two moves that would make a cycle once merged leave one undone",
        arguments: StoreKind.allCases)
    func tagRules(kind: StoreKind) throws {
        // The second replica's clock runs ahead: its operations come later in the total order.
        let simulation = try Simulation(replicas: 2, kind: kind)
        let (first, later) = (simulation.engines[0], simulation.engines[1])
        let (home, errand, shops, work) = (Tag.ID(), Tag.ID(), Tag.ID(), Tag.ID())
        let nowhere = SyncPlace(after: nil, before: nil)
        try first.perform(.createTag(id: home, name: "Home", parent: nil, place: nowhere))
        try first.perform(.createTag(id: work, name: "Work", parent: nil, place: nowhere))
        // Apart: "home" under Work on the later device, and a child of it.
        try later.perform(.createTag(id: errand, name: "home", parent: nil, place: nowhere))
        try later.perform(.createTag(id: shops, name: "Shops", parent: errand, place: nowhere))
        try simulation.exchangeAll()
        try simulation.expectConvergence()
        try later.repository.read { transaction in
            let tags = try transaction.tags()
            #expect(tags.map(\.name) == ["Work", "Home", "Shops"], "one Home, the first created, with the other's child")
            #expect(try transaction.tag(id: errand)?.id == home, "the later id names the survivor")
            #expect(try transaction.tag(id: shops)?.parent == home)
        }
        // A change naming the merged id applies to the survivor, on every replica.
        try later.perform(.renameTag(id: errand, name: "House"))
        try simulation.exchangeAll()
        try simulation.expectConvergence()
        #expect(try first.repository.read { try $0.tag(id: home)?.name } == "House")

        // Apart: Work under House on one device, House under Work on the other.
        try first.perform(.moveTag(id: work, parent: home, place: nowhere))
        try later.perform(.moveTag(id: errand, parent: work, place: nowhere))
        try simulation.exchangeAll()
        try simulation.expectConvergence()
        try first.repository.read { transaction throws in
            // The move later in the total order would put a tag under its own child: it does nothing.
            let (homeParent, workParent) = (try transaction.tag(id: home)?.parent, try transaction.tag(id: work)?.parent)
            #expect((homeParent, workParent) == (nil, home) || (homeParent, workParent) == (work, nil), "one move applied, no cycle")
            #expect(try transaction.tags().count == 3, "every tag still reachable")
        }
    }

    @Test(
        "A thing moved to the Trash on one device and edited on another stays in the Trash, with the edit; emptying wins over a putting back for what it had seen",
        arguments: StoreKind.allCases)
    func trashRules(kind: StoreKind) throws {
        // The second replica's clock runs ahead: its operations come later in the total order.
        let simulation = try Simulation(replicas: 2, kind: kind)
        let (first, later) = (simulation.engines[0], simulation.engines[1])
        let (list, milk, eggs) = (ItemList.ID(), Item.ID(), Item.ID())
        let bottom = SyncPlace(after: nil, before: nil)
        try first.perform(.createList(id: list, name: "Groceries", place: bottom))
        try first.perform(.addItem(id: milk, list: list, title: "Milk", notes: "", place: bottom))
        try first.perform(.addItem(id: eggs, list: list, title: "Eggs", notes: "", place: SyncPlace(after: milk.entryID, before: nil)))
        try simulation.exchangeAll()

        // Apart: the later device trashes Milk and the list; the first renames Milk and completes Eggs.
        let moment = Date(timeIntervalSince1970: 1_800_000_000)
        try later.perform(.trashItems(ids: [milk], at: moment))
        try later.perform(.trashLists(ids: [list], at: moment))
        try first.perform(.editItem(id: milk, title: "Oat milk", notes: nil))
        try first.perform(.completeItems(ids: [eggs], at: moment))
        try simulation.exchangeAll()
        try simulation.expectConvergence()
        for engine in simulation.engines {
            try engine.repository.read { transaction throws in
                let item = try #require(try transaction.item(id: milk))
                #expect(item.trashedAt == moment && item.title == "Oat milk", "in the Trash, with the edit")
                #expect(try transaction.list(id: list)?.trashedAt == moment)
                #expect(try transaction.item(id: eggs)?.completedAt == moment, "in the Trash with its list, completed")
            }
        }

        // Apart: the first device puts Milk and the list back; the later one empties the Trash of what it saw.
        try first.perform(.restoreItems(ids: [milk]))
        try first.perform(.restoreLists(ids: [list]))
        try later.perform(.deleteItems(ids: [milk]))
        try later.perform(.deleteList(id: list))
        try simulation.exchangeAll()
        try simulation.expectConvergence()
        try first.repository.read { transaction throws in
            #expect(try transaction.item(id: milk) == nil && transaction.list(id: list) == nil, "the emptying wins")
        }
    }

    @Test("The result does not depend on the order operations arrive in, nor on duplicates")
    func arrivalOrder() async throws {
        await propertyCheck(count: 30, input: Gen.int(in: 0...Int(UInt32.max)).array(of: 8...80)) { words in
            let simulation = try Simulation(replicas: 3, kind: .inMemory)
            for step in stride(from: 1, to: words.count - 3, by: 4) {
                try simulation.step(Array(words[step..<step + 4]))
            }
            let operations = try simulation.allOperations()
            var random = SeededRandomNumberGenerator(seed: UInt64(words[0]))
            let reordered = (operations + operations.prefix(words[0] % (operations.count + 1))).shuffled(using: &random)
            // One batch in the total order, against the same operations one by one in a shuffled order.
            let inOrder = SyncEngine(repository: InMemoryItemRepository())
            try inOrder.merge(operations)
            let oneByOne = SyncEngine(repository: InMemoryItemRepository())
            for operation in reordered { try oneByOne.merge([operation]) }
            #expect(try Simulation.dump(oneByOne.repository) == Simulation.dump(inOrder.repository))
        }
    }
}

/// The stores the simulation runs on.
enum StoreKind: CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory
    case sqlite

    var testDescription: String { self == .inMemory ? "InMemoryItemRepository" : "SQLiteItemRepository" }

    func makeRepository() throws -> any ItemRepository {
        switch self {
        case .inMemory: InMemoryItemRepository()
        case .sqlite: try SQLiteItemRepository.inMemory()
        }
    }
}

/// A wall clock the simulation moves by hand.
final class SimulatedClock: Sendable {
    private let milliseconds: Mutex<Int64>

    init(_ start: Int64) {
        milliseconds = Mutex(start)
    }

    func read() -> Int64 { milliseconds.withLock { $0 } }
    func advance(by step: Int64) { milliseconds.withLock { $0 += step } }
}

/// The replicas of one run, each a store with its sync engine, its own wall clock, and an
/// outbox of the operations it has sent.
final class Simulation {
    let engines: [SyncEngine]
    let clocks: [SimulatedClock]
    /// For each operation made, the operations its replica had when it made it.
    private var knowledge: [SyncOperation.ID: Set<SyncOperation.ID>] = [:]
    /// How many operations merges made again as replacements, since they sorted before a fold.
    private(set) var replaced = 0
    /// Every operation any replica has logged, kept here before replicas fold them away.
    private var archive: [SyncOperation.ID: SyncOperation] = [:]

    /// - Parameter pageSize: How many operations an exchange merges in one transaction.
    init(replicas count: Int, kind: StoreKind, pageSize: Int = 1_000) throws {
        // One replica's wall clock runs 4 minutes ahead: within the drift the others take in at
        // once. (A clock further ahead is held back: `FaultSimulationTests`, `ClockTests`.)
        clocks = (0..<count).map { SimulatedClock(1_000_000 + ($0 == count - 1 ? 4 * 60 * 1_000 : 0)) }
        engines = try clocks.map { clock in try SyncEngine(repository: kind.makeRepository(), wallClock: { clock.read() }, pageSize: pageSize) }
    }

    /// The replicas that make changes but exchange nothing, as devices that are away.
    var away: Set<Int> = []

    /// One random step: a replica makes an operation, or two replicas exchange a batch.
    func step(_ words: [Int]) throws {
        for clock in clocks { clock.advance(by: Int64(words[3] % 3)) }
        let index = words[0] % engines.count
        if words[1] % 4 == 0 {
            let other = (index + 1 + words[2] % (engines.count - 1)) % engines.count
            guard !away.contains(index), !away.contains(other) else { return }
            let known = try operations(of: index)
            var random = SeededRandomNumberGenerator(seed: UInt64(words[2]))
            let batch = known.filter { _ in Bool.random(using: &random) } + known.suffix(words[3] % 3)
            try merge(batch.shuffled(using: &random), into: engines[other])
            return
        }
        guard let change = try Self.change(from: words, in: engines[index].repository) else { return }
        let known = Set(try operations(of: index).map(\.id))
        knowledge[try engines[index].perform(change).id] = known
    }

    /// Merges a batch, and checks that the merge did not reorder items that none of the
    /// operations it applied touched.
    func merge(_ batch: [SyncOperation], into engine: SyncEngine) throws {
        let before = try Self.itemOrders(engine.repository)
        let replayedFrom = try engine.repository.readLog { transaction throws -> OperationOrder? in
            let unreplayed = try transaction.firstUnreplayedOperation()
            let new = try batch.filter { try transaction.loggedOperation(id: $0.id.rawValue) == nil }.map(\.order).min()
            return [unreplayed, new].compactMap { $0 }.min()
        }
        replaced += try engine.merge(batch).replaced
        guard let replayedFrom else { return }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let applied = try engine.repository.readLog { try $0.loggedOperations(from: replayedFrom, limit: .max) }
            .map { try decoder.decode(SyncChange.self, from: $0.change) }
        let touched = Set(applied.flatMap(\.touchedEntries).map { Item.ID(rawValue: $0.rawValue) })
        let after = try Self.itemOrders(engine.repository)
        for (list, order) in before {
            let untouched = order.filter { !touched.contains($0) }
            let kept = Set(untouched)
            #expect((after[list] ?? []).filter(kept.contains) == untouched.filter(Set(after[list] ?? []).contains), "a merge reordered items nobody moved")
        }
    }

    /// The items of every list, in order, by list.
    static func itemOrders(_ repository: any ItemRepository) throws -> [ItemList.ID: [Item.ID]] {
        try repository.read { transaction in
            Dictionary(uniqueKeysWithValues: try transaction.lists().map { list in
                (list.id, try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max).map(\.id))
            })
        }
    }

    /// Whether two operations were made apart: by different replicas, neither knowing the other.
    func concurrent(_ first: SyncOperation, _ second: SyncOperation) -> Bool {
        first.replica != second.replica
            && !(knowledge[first.id]?.contains(second.id) ?? true) && !(knowledge[second.id]?.contains(first.id) ?? true)
    }

    /// How often the run met each kind of conflict the rules settle, and checks of how they were settled.
    func conflicts() throws -> ConflictCounts {
        let operations = Array(Set(try allOperations())).sorted { $0.order < $1.order }
        var counts = ConflictCounts()
        let state = engines[0].repository
        let items = try state.read { transaction in try transaction.lists().flatMap { try transaction.items(in: $0.id, visibility: .all, offset: 0, limit: .max) } }
        let present = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        let lists = Set(try state.read { try $0.lists() }.map(\.id))
        for (index, first) in operations.enumerated() {
            for second in operations[(index + 1)...] where concurrent(first, second) {
                counts.count(first, second)
                counts.count(second, first)
            }
        }
        for (index, operation) in operations.enumerated() {
            // A delete beats the changes before it: the item is gone (unless it was made after, by the total order).
            if case .deleteItems(let deleted) = operation.change {
                for id in deleted.ids where operations[..<index].contains(where: { $0.change.adds(id) }) {
                    #expect(present[id] == nil, "a deleted item is back")
                }
            }
        }
        // The latest operation decides an item's list, when that list is still there and was
        // made before it. (A list made on a device whose clock is more than the clamp ahead can
        // come after a move into it in the total order; the move then goes to the default list.)
        for item in items {
            guard let latest = operations.lastIndex(where: { $0.change.places(item.id) != nil }),
                  let list = operations[latest].change.places(item.id) else { continue }
            let madeBefore = operations[..<latest].contains { if case .createList(let created) = $0.change { created.id == list } else { false } }
            if lists.contains(list), madeBefore {
                #expect(item.listID == list, "the latest operation decides the list")
            }
        }
        return counts
    }

    func operations(of index: Int) throws -> [SyncOperation] {
        let engine = engines[index]
        return try engine.repository.read { try engine.operations(after: 0, in: $0).operations }
    }

    /// Every operation the replicas hold, and every one they held before folding it away.
    func allOperations() throws -> [SyncOperation] {
        try archiveLogs()
        return archive.values.sorted { $0.order < $1.order }
    }

    /// Keeps every operation the replicas' logs hold now, so that the one merge of everything
    /// still has them once replicas fold them away.
    func archiveLogs() throws {
        for operation in try engines.indices.flatMap(operations) { archive[operation.id] = operation }
    }

    /// Every replica gets every operation.
    func exchangeAll() throws {
        let all = try allOperations()
        for engine in engines { try engine.merge(all) }
    }

    func expectConvergence() throws {
        let dumps = try engines.map { try Self.dump($0.repository, creations: true) }
        #expect(Set(dumps.map { "\($0)" }).count == 1, "replicas differ")
        // Merged a little at a time, each replica ends where one merge of everything does.
        let fresh = SyncEngine(repository: InMemoryItemRepository())
        try fresh.merge(try allOperations())
        #expect(try Self.dump(fresh.repository, creations: true) == dumps[0], "incremental merges end as one merge of everything")
        try Self.expectSoundOrder(engines[0].repository)
    }

    /// Keys rise strictly in every ordering, `validate` finds nothing, and list names are unique.
    static func expectSoundOrder(_ state: any ItemRepository) throws {
        let service = try OrderingService(repository: state)
        var scopes: [OrderScope] = [.lists, .today]
        scopes += try state.read { try $0.lists() }.map { OrderScope.items($0.id) }
        scopes += try state.read { transaction in try transaction.lists().flatMap { try [.headings($0.id)] + transaction.sections(of: $0.id).dropFirst() } }
        for scope in scopes {
            #expect(try service.validate(scope, repair: false).isHealthy, "\(scope)")
            let keys = try state.read { try $0.entries(in: scope, visibility: .all, offset: 0, limit: .max) }.map(\.sortIndex)
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, "keys rise in \(scope)")
        }
        let names = try state.read { try $0.lists() }.map { ItemList.nameKey($0.name) }
        #expect(Set(names).count == names.count, "list names are unique")
    }

    /// ` trashed` and the moment for a thing in the Trash itself; nothing out of it, so that a
    /// dump of a store without the Trash reads as before it.
    private static func trashed(_ moment: Date?) -> String {
        moment.map { " trashed \(String(describing: $0))" } ?? ""
    }

    /// Everything a store holds, in order; with `keys`, the keys and the moments of the last
    /// changes too; with `creations`, the moments lists and items were created.
    static func dump(_ repository: any ItemRepository, keys: Bool = true, creations: Bool = false) throws -> [String] {
        try repository.read { transaction in
            var lines = try transaction.areas().map { "area \($0.id) \($0.name)" + ($0.tags.isEmpty ? "" : " tags \($0.tags.sorted())") + (keys ? " \($0.sortIndex)" : "") }
            for list in try transaction.lists() {
                lines.append(
                    "list \(list.id) \(list.name) in \(String(describing: list.area))" + (list.isFinished ? " \(list.status) \(String(describing: list.completedAt))" : "")
                        + (list.tags.isEmpty ? "" : " tags \(list.tags.sorted())") + trashed(list.trashedAt)
                        + (list.when == .anytime && list.deadline == nil ? "" : " \(list.when) due \(String(describing: list.deadline))")
                        + (list.notes.isEmpty ? "" : " notes \(list.notes)")
                        + (keys ? " \(list.sortIndex)" : "") + (creations ? " created \(list.createdAt.timeIntervalSince1970)" : ""))
                lines += try transaction.headings(in: list.id).map { "  heading \($0.id) \($0.title)" + trashed($0.trashedAt) + (keys ? " \($0.sortIndex)" : "") }
                for item in try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max) {
                    let stored = (keys ? " \(item.sortIndex) \(String(describing: item.todayIndex)) \(item.updatedAt.timeIntervalSince1970)" : "")
                        + (creations ? " created \(item.createdAt.timeIntervalSince1970)" : "")
                    lines.append(
                        "  item \(item.id) under \(String(describing: item.heading)) \(item.title) \(item.notes) \(String(describing: item.completedAt)) \(item.isKeyedInToday)"
                            + (item.tags.isEmpty ? "" : " tags \(item.tags.sorted())") + trashed(item.trashedAt) + (item.series.map { " series \($0) from \(String(describing: item.when.startDate))" } ?? "")
                            + (item.todayMark.map { " today \($0)" } ?? "") + stored)
                    for entry in try transaction.checklist(of: item.id) {
                        lines.append("    entry \(entry.id) \(entry.title) \(String(describing: entry.completedAt))" + (keys ? " \(entry.sortIndex)" : ""))
                    }
                }
            }
            lines += try transaction.todayItems(visibility: .all, offset: 0, limit: .max).map { "today \($0.id)" }
            lines += try transaction.tags().map { "tag \($0.id) \($0.name) under \(String(describing: $0.parent))" + (keys ? " \($0.sortIndex)" : "") }
            lines += try transaction.allSeries().map { "series \($0.id) \($0.title) through \(String(describing: $0.madeThrough)) made \($0.madeCount)" + ($0.isPaused ? " paused" : "") }
            return lines
        }
    }

    /// A change of the repeating series of `item`, whose id every replica derives from the item's.
    static func repeatChange(of item: Item, word: Int, day: Day) -> SyncChange? {
        let rules = [try? RepeatRule(.fixed, every: 1, .day), try? RepeatRule(.fixed, every: 1, .week), nil]
        let series = Series(
            id: Series.ID(rawValue: UUID(named: "series", in: item.id.rawValue)), rule: rules[0] ?? rules[1]!, start: day, madeThrough: day,
            listID: item.listID, title: item.title, createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        switch word % 4 {
        case 0: return .setRepeat(series, rule: rules[(word >> 2) % 3])
        case 1: return .makeRepeat(series, id: series.itemID(on: day.adding(days: 1 + (word >> 2) % 3)), day: day.adding(days: 1 + (word >> 2) % 3), place: SyncPlace(after: nil, before: nil))
        case 2: return .pauseRepeat(series: series.id, paused: (word >> 2) % 2 == 0)
        default: return .setSeries(ids: [item.id], series: (word >> 2) % 2 == 0 ? series.id : nil)
        }
    }

    /// A random change, against what the replica sees: its lists, items and Today. New lists and
    /// items take their ids from `newID`.
    static func change(from words: [Int], in state: any ItemRepository, newID: () -> UUID = UUID.init) throws -> SyncChange? {
        try state.read { transaction throws in
            let lists = try transaction.lists()
            let items = try lists.flatMap { try transaction.items(in: $0.id, visibility: .all, offset: 0, limit: .max) }
            let today = try transaction.todayItems(visibility: .all, offset: 0, limit: .max)
            let checklists = try transaction.checklists(of: items.map(\.id))
            let entries = items.flatMap { checklists[$0.id] ?? [] }
            let areas = try transaction.areas()
            let headings = try lists.flatMap { try transaction.headings(in: $0.id) }
            let tags = try transaction.tags()
            let names = ["Groceries", "Work", "Home"]
            func pick<T>(_ values: [T], _ word: Int) -> T? { values.isEmpty ? nil : values[word % values.count] }
            func place(after entry: OrderEntry.ID?, among order: [OrderEntry.ID]) -> SyncPlace {
                guard let entry, let index = order.firstIndex(of: entry) else { return SyncPlace(after: nil, before: order.first) }
                return SyncPlace(after: entry, before: index + 1 < order.count ? order[index + 1] : nil)
            }
            let (word, other) = (words[2], words[3])
            // Areas and headings more often than the rest: their conflicts need both to exist first.
            switch words[1] % 42 {
            case 0, 19:
                return .createList(id: ItemList.ID(rawValue: newID()), name: names[word % names.count], place: place(after: pick(lists, other)?.id.entryID, among: lists.map(\.id.entryID)))
            case 1:
                guard let list = pick(lists, word) else { return nil }
                // Now and then a finish or a reopening instead, at one of two moments, or new dates.
                let day = Day(Date(timeIntervalSince1970: 1_800_000_000 + Double(other % 3) * 86_400), in: .gmt)
                switch other % 10 {
                case 8: return .setListCreatedAt(id: list.id, at: Date(timeIntervalSince1970: 13 + Double(other % 2)))
                case 9: return .setListNotes(id: list.id, notes: ["", "n", "m"][(other / 10) % 3])
                case 4: return list.isFinished ? .reopenList(id: list.id) : .finishList(id: list.id, at: Date(timeIntervalSince1970: 11), canceled: false)
                case 5: return list.isFinished ? .reopenList(id: list.id) : .finishList(id: list.id, at: Date(timeIntervalSince1970: 12), canceled: true)
                case 6: return .setListWhen(id: list.id, when: [When.anytime, .someday, .on(day), .on(day, evening: true)][(other / 8) % 4])
                case 7: return .setListDeadline(id: list.id, deadline: other % 16 < 8 ? day : nil)
                default: return .renameList(id: list.id, name: names[other % names.count])
                }
            case 2:
                guard let list = pick(lists, word) else { return nil }
                let order = lists.filter { $0.area == list.area && $0.id != list.id }.map(\.id.entryID)
                return .moveList(id: list.id, place: place(after: pick(order, other), among: order), area: list.area)
            case 3:
                return pick(lists, word).map { .deleteList(id: $0.id) }
            case 4, 5, 6:
                let list = pick(lists, word)?.id ?? ItemList.firstDefaultListID
                let order = items.filter { $0.listID == list }.map(\.id.entryID)
                return .addItem(id: Item.ID(rawValue: newID()), list: list, title: "t\(word % 100)", notes: "", place: place(after: pick(order, other), among: order))
            case 7:
                // Now and then a creation date instead, at one of two moments.
                return pick(items, word).map { item in
                    other % 5 == 4 ? .setItemCreatedAt(id: item.id, at: Date(timeIntervalSince1970: 9 + Double(other % 2)))
                        : .editItem(id: item.id, title: "e\(other % 100)", notes: other % 2 == 0 ? "n" : nil)
                }
            case 8:
                return pick(items, word).map { item in
                    if item.isCompleted { return .reopenItems(ids: [item.id]) }
                    return other % 3 == 0 ? .cancelItems(ids: [item.id], at: Date(timeIntervalSince1970: 8)) : .completeItems(ids: [item.id], at: Date(timeIntervalSince1970: 7))
                }
            case 9:
                return pick(items, word).map { .deleteItems(ids: [$0.id]) }
            case 10, 13, 14:
                guard let first = pick(items, word), let list = pick(lists, other)?.id else { return nil }
                let moving = [first.id] + (pick(items, other).map { $0.id == first.id ? [] : [$0.id] } ?? [])
                let order = items.filter { $0.listID == list && !moving.contains($0.id) }.map(\.id.entryID)
                return .moveItems(ids: moving, list: list, place: place(after: pick(order, word >> 3), among: order))
            case 11:
                guard let item = pick(items, word) else { return nil }
                let order = today.filter { $0.id != item.id }.map(\.id.entryID)
                return .addToToday(ids: [item.id], place: place(after: pick(order, other), among: order))
            case 15, 16:
                guard let item = pick(items, word) else { return nil }
                let order = (checklists[item.id] ?? []).map(\.id.entryID)
                return .addChecklistItem(id: ChecklistItem.ID(rawValue: newID()), item: item.id, title: "c\(word % 100)", place: place(after: pick(order, other), among: order))
            case 17:
                guard let entry = pick(entries, word) else { return nil }
                let order = (checklists[entry.itemID] ?? []).filter { $0.id != entry.id }.map(\.id.entryID)
                return .moveChecklistItems(ids: [entry.id], item: entry.itemID, place: place(after: pick(order, other), among: order))
            case 18:
                guard let entry = pick(entries, word) else { return nil }
                switch other % 4 {
                case 0: return .editChecklistItem(id: entry.id, title: "r\(other % 100)")
                case 1: return .deleteChecklistItems(ids: [entry.id])
                default:
                    if entry.isCompleted { return .reopenChecklistItems(ids: [entry.id]) }
                    return other % 3 == 0
                        ? .cancelChecklistItems(ids: [entry.id], at: Date(timeIntervalSince1970: 10))
                        : .completeChecklistItems(ids: [entry.id], at: Date(timeIntervalSince1970: 9))
                }
            case 20, 24, 28:
                let area = pick(areas, word)
                switch other % 4 {
                case 0: return .createArea(id: Area.ID(rawValue: newID()), name: names[word % names.count], place: place(after: area?.id.entryID, among: areas.map(\.id.entryID)))
                case 1: return area.map { .renameArea(id: $0.id, name: names[other % names.count]) }
                case 2:
                    guard let area else { return nil }
                    let order = areas.filter { $0.id != area.id }.map(\.id.entryID)
                    return .moveArea(id: area.id, place: place(after: pick(order, other >> 2), among: order))
                default: return area.map { .deleteArea(id: $0.id) }
                }
            case 21, 25, 29:
                // A list into an area, or out of any.
                guard let list = pick(lists, word) else { return nil }
                let target = pick([nil] + areas.map(\.id), other) ?? nil
                let order = lists.filter { $0.area == target && $0.id != list.id }.map(\.id.entryID)
                return .moveList(id: list.id, place: place(after: pick(order, other >> 2), among: order), area: target)
            case 22, 26, 30, 32:
                let heading = pick(headings, word)
                switch other % 6 {
                case 0, 1:
                    guard let list = pick(lists, word >> 2) else { return nil }
                    let order = headings.filter { $0.listID == list.id }.map(\.id.entryID)
                    return .createHeading(id: Heading.ID(rawValue: newID()), list: list.id, title: "h\(word % 10)", place: place(after: pick(order, other >> 3), among: order))
                case 2: return heading.map { .renameHeading(id: $0.id, title: "g\(other % 10)") }
                case 3:
                    // Within its list, or to another, with its items.
                    guard let heading, let list = pick(lists, other >> 3) else { return nil }
                    let order = headings.filter { $0.listID == list.id && $0.id != heading.id }.map(\.id.entryID)
                    return .moveHeading(id: heading.id, list: list.id, place: place(after: pick(order, word >> 3), among: order))
                default:
                    guard let heading else { return nil }
                    let held = items.filter { $0.heading == heading.id }.map(\.id)
                    return held.isEmpty || other % 2 == 0 ? .deleteHeading(id: heading.id) : .deleteItems(ids: held)
                }
            case 23, 27, 31, 33:
                // Items under a heading of a list, or out of one.
                guard let first = pick(items, word), let list = pick(lists, other) else { return nil }
                let listHeadings = headings.filter { $0.listID == list.id }.map(\.id)
                let heading = other % 3 == 0 ? nil : pick(listHeadings, other >> 2)
                let order = items.filter { $0.listID == list.id && $0.heading == heading && $0.id != first.id }.map(\.id.entryID)
                return .moveItems(ids: [first.id], list: list.id, place: place(after: pick(order, word >> 3), among: order), heading: heading)
            case 34:
                // A day of a few, so that devices set the same one too.
                guard let first = pick(items, word) else { return nil }
                let ids = [first.id] + (pick(items, other).map { $0.id == first.id ? [] : [$0.id] } ?? [])
                let day = Day(Date(timeIntervalSince1970: 1_800_000_000 + Double(other % 3) * 86_400), in: .gmt)
                return .setWhen(ids: ids, when: [When.anytime, .someday, .on(day), .on(day, evening: true)][(other >> 2) % 4])
            case 35:
                guard let item = pick(items, word) else { return nil }
                let day = Day(Date(timeIntervalSince1970: 1_800_000_000 + Double(other % 3) * 86_400), in: .gmt)
                // Now and then the deadline's dismissal from Today instead, or its return.
                if other % 8 == 7 { return .dismissDeadlines(ids: [item.id], dismissed: other % 16 == 7) }
                // Or a reminder at one of two times, or none.
                if other % 8 == 6 { return .setReminder(ids: [item.id], reminder: [nil, try? TimeOfDay(hour: 9, minute: 0), try? TimeOfDay(hour: 18, minute: 30)][(other >> 3) % 3]) }
                // Or the item's series, one per item so that devices reach the same one: its rule
                // set, changed or taken off, a pause, a to-do made on one of a few days, or the item joining it.
                if other % 8 == 5 { return Self.repeatChange(of: item, word: other >> 3, day: day) }
                return .setDeadline(ids: [item.id], deadline: other % 4 == 0 ? nil : day)
            case 36, 37:
                // A few names, so that devices create the same one apart, and the tags merge.
                let parent = other % 3 == 0 ? nil : pick(tags, other >> 2)?.id
                let order = tags.filter { $0.parent == parent }.map(\.id.entryID)
                return .createTag(id: Tag.ID(rawValue: newID()), name: names[word % names.count], parent: parent, place: place(after: pick(order, other >> 4), among: order))
            case 38:
                // Under any tag, its own descendants too: a cycle does nothing, made here or merged.
                guard let tag = pick(tags, word) else { return nil }
                let parent = other % 4 == 0 ? nil : pick(tags, other >> 2)?.id
                let order = tags.filter { $0.parent == parent && $0.id != tag.id }.map(\.id.entryID)
                return .moveTag(id: tag.id, parent: parent, place: place(after: pick(order, other >> 4), among: order))
            case 39:
                guard let tag = pick(tags, word) else { return nil }
                switch other % 6 {
                case 0: return .deleteTag(id: tag.id)
                case 1: return .renameTag(id: tag.id, name: names[other % names.count])
                default:
                    // On an item, or now and then on a list or an area, or off it.
                    let removing = other % 6 == 5
                    if other % 4 == 0, let list = pick(lists, other >> 3) { return .changeTags(tags: [tag.id], lists: [list.id], removing: removing) }
                    if other % 4 == 1, let area = pick(areas, other >> 3) { return .changeTags(tags: [tag.id], areas: [area.id], removing: removing) }
                    return pick(items, other >> 3).map { .changeTags(tags: [tag.id], items: [$0.id], removing: removing) }
                }
            case 40:
                // To the Trash, at one of two moments, or back; the edits of the other cases go on meanwhile.
                guard let item = pick(items, word) else { return nil }
                let moment = Date(timeIntervalSince1970: 20 + Double(other % 2))
                return item.trashedAt == nil || other % 3 == 0 ? .trashItems(ids: [item.id], at: moment) : .restoreItems(ids: [item.id])
            case 41:
                let moment = Date(timeIntervalSince1970: 20 + Double(other % 2))
                if other % 2 == 0, let heading = pick(headings, word) {
                    return heading.trashedAt == nil ? .trashHeadings(ids: [heading.id], at: moment) : .restoreHeadings(ids: [heading.id])
                }
                guard let list = pick(lists, word) else { return nil }
                return list.trashedAt == nil ? .trashLists(ids: [list.id], at: moment) : .restoreLists(ids: [list.id])
            default:
                guard let item = pick(today, word) else { return nil }
                if other % 3 == 0 { return .removeFromToday(ids: [item.id]) }
                let order = today.filter { $0.id != item.id }.map(\.id.entryID)
                return .moveInToday(ids: [item.id], place: place(after: pick(order, other >> 2), among: order))
            }
        }
    }
}

/// How many pairs of operations made apart met each kind of conflict.
struct ConflictCounts: CustomStringConvertible {
    /// Two moves of one item.
    var concurrentMoves = 0
    /// A delete of an item, and a change of it.
    var deleteAgainstChange = 0
    /// A placement after an entry that the other deleted or moved away.
    var goneAnchor = 0
    /// An add or move into a list that the other deleted.
    var addToDeletedList = 0
    /// Two lists given one name.
    var sameName = 0
    /// A checklist entry added to, or moved in, the checklist of an item that the other deleted.
    var entryOfDeletedItem = 0
    /// A list moved into an area that the other deleted.
    var listToDeletedArea = 0
    /// An item moved under a heading that the other deleted.
    var itemToDeletedHeading = 0
    /// Two tags created apart under one name, which merge.
    var sameTagName = 0
    /// Two moves of tags, each under the other.
    var tagCycle = 0

    var description: String {
        "moves \(concurrentMoves), delete/change \(deleteAgainstChange), gone anchor \(goneAnchor), to a deleted list \(addToDeletedList), "
            + "same name \(sameName), entry of a deleted item \(entryOfDeletedItem), list to a deleted area \(listToDeletedArea), "
            + "item to a deleted heading \(itemToDeletedHeading), same tag name \(sameTagName), tag cycle \(tagCycle)"
    }

    mutating func add(_ other: ConflictCounts) {
        concurrentMoves += other.concurrentMoves
        deleteAgainstChange += other.deleteAgainstChange
        goneAnchor += other.goneAnchor
        addToDeletedList += other.addToDeletedList
        sameName += other.sameName
        entryOfDeletedItem += other.entryOfDeletedItem
        listToDeletedArea += other.listToDeletedArea
        itemToDeletedHeading += other.itemToDeletedHeading
        sameTagName += other.sameTagName
        tagCycle += other.tagCycle
    }

    /// Counts what `first` met in `second`, made apart from it.
    mutating func count(_ first: SyncOperation, _ second: SyncOperation) {
        switch (first.change, second.change) {
        case (.moveItems(let moved), .moveItems(let other)) where !Set(moved.ids).isDisjoint(with: other.ids):
            concurrentMoves += 1
        case (.deleteItems(let deleted), let change) where !Set(deleted.ids).isDisjoint(with: change.touchedEntries.map { Item.ID(rawValue: $0.rawValue) }):
            deleteAgainstChange += 1
        case (.deleteList(let deleted), .addItem(let added)) where deleted.id == added.list:
            addToDeletedList += 1
        case (.deleteList(let deleted), .moveItems(let moved)) where deleted.id == moved.list:
            addToDeletedList += 1
        case (.createList(let created), .createList(let other)) where ItemList.nameKey(created.name) == ItemList.nameKey(other.name):
            sameName += 1
        case (.deleteItems(let deleted), .addChecklistItem(let added)) where deleted.ids.contains(added.item):
            entryOfDeletedItem += 1
        case (.deleteItems(let deleted), .moveChecklistItems(let moved)) where deleted.ids.contains(moved.item):
            entryOfDeletedItem += 1
        case (.deleteArea(let deleted), .moveList(let moved)) where moved.area == deleted.id:
            listToDeletedArea += 1
        case (.deleteHeading(let deleted), .moveItems(let moved)) where moved.heading == deleted.id:
            itemToDeletedHeading += 1
        case (.createTag(let created), .createTag(let other)) where Tag.nameKey(created.name) == Tag.nameKey(other.name):
            sameTagName += 1
        case (.moveTag(let moved), .moveTag(let other)) where moved.parent == other.id && other.parent == moved.id:
            tagCycle += 1
        default:
            break
        }
        if let anchor = second.change.place?.after, first.change.removes.contains(anchor) { goneAnchor += 1 }
    }
}

extension SyncChange {
    /// The items and lists the change adds, moves, changes or deletes.
    var touchedEntries: [OrderEntry.ID] {
        switch self {
        case .createList(let change): [change.id.entryID]
        case .renameList(let change): [change.id.entryID]
        case .moveList(let change): [change.id.entryID]
        case .deleteList(let change): [change.id.entryID]
        case .finishList(let change): [change.id.entryID]
        case .setListWhen(let change): [change.id.entryID]
        case .setListDeadline(let change): [change.id.entryID]
        case .setListCreatedAt(let change): [change.id.entryID]
        case .setListNotes(let change): [change.id.entryID]
        case .setItemCreatedAt(let change): [change.id.entryID]
        case .createTag(let change): [change.id.entryID]
        case .renameTag(let change): [change.id.entryID]
        case .moveTag(let change): [change.id.entryID]
        case .deleteTag(let change): [change.id.entryID]
        case .changeTags(let change): change.items.map(\.entryID) + change.lists.map(\.entryID) + change.areas.map(\.entryID)
        case .reopenList(let change): [change.id.entryID]
        case .createArea(let change): [change.id.entryID]
        case .renameArea(let change): [change.id.entryID]
        case .moveArea(let change): [change.id.entryID]
        case .deleteArea(let change): [change.id.entryID]
        case .createHeading(let change): [change.id.entryID]
        case .renameHeading(let change): [change.id.entryID]
        case .moveHeading(let change): [change.id.entryID]
        case .deleteHeading(let change): [change.id.entryID]
        case .addItem(let change): [change.id.entryID]
        case .editItem(let change): [change.id.entryID]
        case .completeItems(let change): change.ids.map(\.entryID)
        case .reopenItems(let change): change.ids.map(\.entryID)
        case .cancelItems(let change): change.ids.map(\.entryID)
        case .deleteItems(let change): change.ids.map(\.entryID)
        case .trashItems(let change): change.ids.map(\.entryID)
        case .restoreItems(let change): change.ids.map(\.entryID)
        case .trashLists(let change): change.ids.map(\.entryID)
        case .restoreLists(let change): change.ids.map(\.entryID)
        case .trashHeadings(let change): change.ids.map(\.entryID)
        case .restoreHeadings(let change): change.ids.map(\.entryID)
        case .moveItems(let change): change.ids.map(\.entryID)
        case .addToToday(let change): change.ids.map(\.entryID)
        case .removeFromToday(let change): change.ids.map(\.entryID)
        case .moveInToday(let change): change.ids.map(\.entryID)
        case .setWhen(let change): change.ids.map(\.entryID)
        case .setDeadline(let change): change.ids.map(\.entryID)
        case .setReminder(let change): change.ids.map(\.entryID)
        case .setSeries(let change): change.ids.map(\.entryID)
        case .makeRepeat(let change): [change.id.entryID]
        case .setRepeat, .pauseRepeat: []
        case .dismissDeadlines(let change): change.ids.map(\.entryID)
        case .markToday(let change): change.ids.map(\.entryID)
        case .addChecklistItem(let change): [change.id.entryID]
        case .editChecklistItem(let change): [change.id.entryID]
        case .moveChecklistItems(let change): change.ids.map(\.entryID)
        case .completeChecklistItems(let change): change.ids.map(\.entryID)
        case .reopenChecklistItems(let change): change.ids.map(\.entryID)
        case .cancelChecklistItems(let change): change.ids.map(\.entryID)
        case .deleteChecklistItems(let change): change.ids.map(\.entryID)
        case .repairOrder, .repairChecklist, .repairAreas, .repairHeadings, .repairTags, .unknown, .retireReplica, .leaveForkedReplica: []
        case .replacement(_, let change), .renumbering(_, let change): change.touchedEntries
        }
    }

    /// The entries the change takes out of an ordering: deleted, moved to another list, or out of Today.
    var removes: Set<OrderEntry.ID> {
        switch self {
        case .deleteItems(let change): Set(change.ids.map(\.entryID))
        case .removeFromToday(let change): Set(change.ids.map(\.entryID))
        case .moveItems(let change): Set(change.ids.map(\.entryID))
        case .deleteChecklistItems(let change): Set(change.ids.map(\.entryID))
        case .deleteList(let change): [change.id.entryID]
        case .deleteArea(let change): [change.id.entryID]
        case .deleteHeading(let change): [change.id.entryID]
        default: []
        }
    }

    /// Where the change places its entries.
    var place: SyncPlace? {
        switch self {
        case .createList(let change): change.place
        case .moveList(let change): change.place
        case .createArea(let change): change.place
        case .moveArea(let change): change.place
        case .addItem(let change): change.place
        case .moveItems(let change): change.place
        case .addToToday(let change): change.place
        case .moveInToday(let change): change.place
        case .addChecklistItem(let change): change.place
        case .moveChecklistItems(let change): change.place
        default: nil
        }
    }

    /// Whether the change adds the item.
    func adds(_ id: Item.ID) -> Bool {
        if case .addItem(let added) = self { return added.id == id }
        return false
    }

    /// The list the change puts the item in, when it places it.
    func places(_ id: Item.ID) -> ItemList.ID? {
        switch self {
        case .addItem(let added) where added.id == id: added.list
        case .moveItems(let moved) where moved.ids.contains(id): moved.list
        default: nil
        }
    }
}
