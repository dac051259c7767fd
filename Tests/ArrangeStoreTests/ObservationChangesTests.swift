import ArrangeModel
import ArrangeSQLite
@testable import ArrangeStore
import Foundation
import Testing

/// The observations that keep their items up to date from each commit's changes
/// (`observeItems(in:visibility:)`, `observeToday(visibility:)`): after every commit, on every
/// backend, they hold what a fresh read answers.
@Suite("Observations kept up to date from the changes")
struct ObservationChangesTests {
    @Test("After each of 150 random commits, every observation of a list and of Today equals a fresh read", arguments: Backend.allCases)
    func randomCommits(backend: Backend) async throws {
        try await OffPool.run {
            let store = try backend.makeStore()
            let repository = store.repository
            var random = SeededRandomNumberGenerator(seed: 2026)
            let lists = try ["A", "B", "C"].map { name in try store.seed(name, sortIndices: (0..<12).map { Int64($0 * 10) }, completedAt: [3, 7]).0 }
            let observed = lists[0].id
            let observations: [(name: String, stream: AsyncThrowingStream<[Item], any Error>, read: @Sendable (any ItemReading) throws -> [Item])] = [
                ("list A, all", repository.observeItems(in: observed, visibility: .all), { try $0.items(in: observed, visibility: .all, offset: 0, limit: .max) }),
                ("list A, open", repository.observeItems(in: observed, visibility: .open), { try $0.items(in: observed, visibility: .open, offset: 0, limit: .max) }),
                ("Today, all", repository.observeToday(visibility: .all), { try $0.todayItems(visibility: .all, offset: 0, limit: .max) }),
                ("Today, open", repository.observeToday(visibility: .open), { try $0.todayItems(visibility: .open, offset: 0, limit: .max) }),
            ]
            let recorders = observations.map { Recorder.start($0.stream) }
            defer { for recorder in recorders { recorder.cancel() } }

            for round in 0..<150 {
                let commit = try await RandomCommit.make(using: &random, lists: lists.map(\.id), in: repository, round: round)
                try await repository.write { try commit.run(on: $0) }
                for (observation, recorder) in zip(observations, recorders) {
                    let expected = try await repository.read(observation.read)
                    let values = await recorder.values(within: .seconds(10)) { $0.last == expected }
                    #expect(values.last == expected, "\(observation.name) after commit \(round): \(commit)")
                    guard values.last == expected else { return }
                }
            }
        }
    }

    @Test("On SQLite, the observer of a list gets a commit's changes with no read of the list; another connection's commit has it read")
    func noRead() async throws {
        try await OffPool.run {
            let folder = try TemporaryFolder()
            let path = folder.path("Arrange.sqlite")
            // A page of a list's whole items: the observation's read.
            let listReads = StatementCounter { $0.contains("title") && $0.contains("WHERE list_id = ? ORDER BY sort_index, id LIMIT") }
            let repository = try SQLiteItemRepository(path: path, configuration: listReads.configuration, externalCommits: .notified)
            let store = Store(repository: repository, folder: nil)
            let (list, items) = try store.seed("Home", sortIndices: [10, 20, 30])
            let recorder = Recorder.start(repository.observeItems(in: list.id, visibility: .all))
            defer { recorder.cancel() }
            #expect(await recorder.next() == items)
            #expect(listReads.value == 1)

            var retitled = items[1]
            retitled.title = "Retitled"
            try await repository.write { [retitled] in try $0.update(retitled) }
            try await repository.write { try $0.setSortIndices([SortIndexChange(id: items[0].id.entryID, sortIndex: 40)], in: .items(list.id), updatedAt: Sample.date(9)) }
            let expected = try await repository.read { try $0.items(in: list.id, visibility: .all, offset: 0, limit: .max) }
            #expect(expected.map(\.title) == ["Retitled", "Home 2", "Home 0"])
            #expect(await recorder.values(within: .seconds(10)) { $0.last == expected }.last == expected)
            #expect(listReads.value == 2, "the read just above, and none of the observation")

            // Another connection's commit is not known: the observation reads the list again.
            let other = try SQLiteItemRepository(path: path)
            try await other.write { try $0.deleteItem(id: items[2].id) }
            repository.noteExternalCommit()
            #expect(await recorder.values(within: .seconds(10)) { $0.last?.count == 2 }.last?.count == 2)
            #expect(listReads.value == 3)
        }
    }

    @Test("Applying commits' changes twice, or to a value read after some of the commits, gives the value of applying them once")
    func changesSetState() throws {
        let list = ItemList.ID()
        let items = (0..<5).map { Sample.item(in: list, "Item \($0)", sortIndex: Int64($0 * 10)) }
        var moved = items[0]
        moved.sortIndex = 25
        var retitled = items[4]
        retitled.title = "Retitled"
        let added = Sample.item(in: list, "Added", sortIndex: 5)
        var first = StoreChanges()
        first.note(.replaced(old: items[0], new: moved))
        first.note(.replaced(old: nil, new: added))
        var second = StoreChanges()
        second.note(.keyed(items[1].id, list: list, sortIndex: 45, updatedAt: Sample.date(9)))
        second.note(.replaced(old: items[4], new: retitled))
        second.note(.replaced(old: items[2], new: nil))
        let patch = OrderedItemsPatch(scope: .items(list), visibility: .all)

        var once = items
        #expect(patch.apply(first, to: &once) == .changed)
        let afterFirst = once
        #expect(afterFirst == [added, items[1], items[2], moved, items[3], items[4]])
        #expect(patch.apply(second, to: &once) == .changed)
        var keyed = items[1]
        keyed.sortIndex = 45
        keyed.updatedAt = Sample.date(9)
        #expect(once == [added, moved, items[3], retitled, keyed])

        var twice = once
        #expect(patch.apply(first, to: &twice) == .unchanged)
        #expect(patch.apply(second, to: &twice) == .unchanged)
        #expect(twice == once)
        var readAfterFirst = afterFirst
        #expect(patch.apply(first, to: &readAfterFirst) == .unchanged)
        #expect(patch.apply(second, to: &readAfterFirst) == .changed)
        #expect(readAfterFirst == once)
    }

    @Test("Changes not listed, or an item that comes into Today by its key alone, leave the value untouched and ask for a read")
    func unlistedChanges() throws {
        let (list, other) = (ItemList.ID(), ItemList.ID())
        let items = (0..<3).map { Sample.item(in: list, "Item \($0)", sortIndex: Int64($0)) }
        var deleted = StoreChanges()
        deleted.note(.replaced(old: nil, new: Sample.item(in: list, "Added", sortIndex: 9)))
        deleted.noteUnlistedItems(of: other)
        var value = items
        #expect(OrderedItemsPatch(scope: .items(list), visibility: .all).apply(deleted, to: &value) == .changed, "another list's unlisted items do not matter")
        value = items
        #expect(OrderedItemsPatch(scope: .today, visibility: .all).apply(deleted, to: &value) == .needsRead)
        #expect(value == items)
        #expect(OrderedItemsPatch(scope: .items(list), visibility: .all).apply(.everything, to: &value) == .needsRead)
        #expect(value == items)

        var intoToday = StoreChanges()
        intoToday.note(.todayKeyed(items[1].id, list: list, todayIndex: 4, updatedAt: Sample.date(9)))
        var today: [Item] = []
        #expect(OrderedItemsPatch(scope: .today, visibility: .all).apply(intoToday, to: &today) == .needsRead)
        #expect(today.isEmpty)

        var many = StoreChanges()
        for index in 0...StoreChanges.listedItemChangesLimit {
            many.note(.replaced(old: nil, new: Sample.item(in: other, "Item \(index)", sortIndex: Int64(index))))
        }
        #expect(many.items.isEmpty)
        #expect(many.itemsAreUnlisted(in: other))
        #expect(!many.itemsAreUnlisted(in: list))
    }
}

/// One random write of ``ObservationChangesTests/randomCommits(backend:)``: one to three
/// changes to the items of three lists and Today, as the intents and sync make them.
private struct RandomCommit: Sendable, CustomStringConvertible {
    enum Step: Sendable {
        case insert(Item)
        case update(Item)
        case delete(Item.ID)
        case setKeys([SortIndexChange], OrderScope)
        case removeFromToday([Item.ID])
    }

    var steps: [Step]
    var stamp: Date

    var description: String {
        steps.map { step in
            switch step {
            case .insert(let item): "insert \(item.title)"
            case .update(let item): "update \(item.title)"
            case .delete: "delete"
            case .setKeys(let changes, let scope): "\(changes.count) keys in \(scope)"
            case .removeFromToday(let ids): "\(ids.count) out of Today"
            }
        }.joined(separator: ", ")
    }

    func run(on store: any ItemWriting) throws {
        for step in steps {
            switch step {
            case .insert(let item): try store.insert(item)
            case .update(let item): try store.update(item)
            case .delete(let id): try store.deleteItem(id: id)
            case .setKeys(let changes, let scope): try store.setSortIndices(changes, in: scope, updatedAt: stamp)
            case .removeFromToday(let ids): try store.removeFromToday(ids, updatedAt: stamp)
            }
        }
    }

    /// A commit of one to three steps on the items as they are now, and every fortieth one of
    /// more inserts than a commit lists.
    static func make(
        using random: inout SeededRandomNumberGenerator, lists: [ItemList.ID], in repository: any ItemRepository, round: Int
    ) async throws -> RandomCommit {
        let items = try await repository.read { reader in
            try lists.flatMap { try reader.items(in: $0, visibility: .all, offset: 0, limit: .max) }
        }
        let stamp = Sample.date(Double(100 + round))
        if round % 40 == 39 {
            // More changes than a commit lists: the observations of the list read it again.
            let list = lists.randomElement(using: &random) ?? lists[0]
            let inserts = (0...StoreChanges.listedItemChangesLimit).map { index in
                Step.insert(Item(listID: list, title: "Bulk \(round).\(index)", sortIndex: Int64(index), createdAt: stamp, todayIndex: index % 9 == 0 ? Int64(index) : nil))
            }
            return RandomCommit(steps: inserts, stamp: stamp)
        }
        let count = Int.random(in: 1...3, using: &random)
        var steps: [Step] = []
        var touched = Set<Item.ID>()
        for _ in 0..<count {
            guard let item = items.filter({ !touched.contains($0.id) }).randomElement(using: &random) else { break }
            let key = Int64.random(in: -50...200, using: &random)
            let list = lists.randomElement(using: &random) ?? item.listID
            touched.insert(item.id)
            switch Int.random(in: 0..<9, using: &random) {
            case 0:
                let new = Item(listID: list, title: "New \(round)", sortIndex: key, createdAt: stamp, todayIndex: Bool.random(using: &random) ? key : nil)
                steps.append(.insert(new))
            case 1:
                var edited = item
                edited.title = "Edited \(round)"
                edited.notes = "Notes \(round)"
                edited.updatedAt = stamp
                steps.append(.update(edited))
            case 2:
                var toggled = item
                toggled.completedAt = item.isCompleted ? nil : stamp
                toggled.updatedAt = stamp
                steps.append(.update(toggled))
            case 3:
                var moved = item
                moved.listID = list
                moved.sortIndex = key
                moved.updatedAt = stamp
                steps.append(.update(moved))
            case 4:
                steps.append(.delete(item.id))
            case 5, 6:
                steps.append(.setKeys([SortIndexChange(id: item.id.entryID, sortIndex: key)], .items(Bool.random(using: &random) ? item.listID : list)))
            case 7:
                steps.append(.setKeys([SortIndexChange(id: item.id.entryID, sortIndex: key)], .today))
            default:
                steps.append(item.isInToday ? .removeFromToday([item.id]) : .setKeys([SortIndexChange(id: item.id.entryID, sortIndex: key % 7)], .today))
            }
        }
        return RandomCommit(steps: steps, stamp: stamp)
    }
}
