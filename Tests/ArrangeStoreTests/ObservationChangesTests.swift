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
    @Test("After each of 200 random commits, every observation of a list and of Today equals a fresh read", arguments: Backend.allCases)
    func randomCommits(backend: Backend) async throws {
        try await OffPool.run {
            let store = try backend.makeStore()
            let repository = store.repository
            var random = SeededRandomNumberGenerator(seed: 2026)
            let observed = try ["A", "B", "C"].map { name in try store.seed(name, sortIndices: (0..<12).map { Int64($0 * 10) }, completedAt: [3, 7]).0 }[0].id
            let orderings: [(name: String, ordering: ItemOrdering, visibility: ItemVisibility)] = [
                ("list A, all", .list(observed), .all), ("list A, open", .list(observed), .open), ("Today, all", .today, .all), ("Today, open", .today, .open),
            ]
            let recorders = orderings.map { ordering in
                Recorder.start(ordering.ordering == .today
                    ? repository.observeToday(visibility: ordering.visibility)
                    : repository.observeItems(in: observed, visibility: ordering.visibility))
            }
            defer { for recorder in recorders { recorder.cancel() } }

            for round in 0..<200 {
                let commit = try await RandomCommit.make(using: &random, keeping: observed, in: repository, round: round)
                try await repository.write { try commit.run(on: $0) }
                for (ordering, recorder) in zip(orderings, recorders) {
                    let expected = try await repository.read { try ordering.ordering.items(visibility: ordering.visibility, in: $0) }
                    let held = await recorder.values(within: .seconds(10)) { $0.last == expected }.last
                    #expect(held == expected, "\(ordering.name) after commit \(round) (\(commit)): \(held?.map(\.title) ?? []), read \(expected.map(\.title))")
                    guard held == expected else { return }
                }
            }
        }
    }

    @Test("A value read while commits landed has them applied before it is yielded, and no state in between is yielded")
    func catchUp() async throws {
        let list = ItemList.ID()
        let items = (0..<3).map { Sample.item(in: list, "Item \($0)", sortIndex: Int64($0)) }
        var edited = items[1]
        edited.title = "Edited"
        var first = StoreChanges()
        first.note(.updated(from: items[1], to: edited))
        var second = StoreChanges()
        second.note(.deleted(edited))
        let notifier = CommitNotifier()
        let patch = OrderedItemsPatch(ordering: .list(list), visibility: .all)
        let reads = Locked(0)
        // The read sees both commits, which land after the observation took its count.
        let recorder = Recorder.start(notifier.values(
            of: { [first, second] in
                reads.withLock { $0 += 1 }
                // Once the consumer waits: a value yielded now would reach it, not a buffer.
                try await Task.sleep(for: .milliseconds(50))
                notifier.signal(first)
                notifier.signal(second)
                return ([items[0], items[2]], patch.regions)
            },
            applying: { patch.apply($1, to: &$0) }))
        defer { recorder.cancel() }
        #expect(await recorder.next() == [items[0], items[2]])
        try await Task.sleep(for: .milliseconds(100))
        #expect(recorder.values == [[items[0], items[2]]], "the edited item, deleted since, is never yielded")
        #expect(reads.withLock { $0 } == 1)

        var moved = items[0]
        moved.sortIndex = 9
        var third = StoreChanges()
        third.note(.updated(from: items[0], to: moved))
        notifier.signal(third)
        #expect(await recorder.next() == [items[2], moved])
        #expect(reads.withLock { $0 } == 1)
    }

    @Test("One commit that takes an item out of Today and back, completes then re-keys it, or moves it away and back, is applied as a read finds it")
    func itemChangedTwiceInOneCommit() throws {
        let (list, other) = (ItemList.ID(), ItemList.ID())
        var items = (0..<3).map { Sample.item(in: list, "Item \($0)", sortIndex: Int64($0 * 10)) }
        for index in items.indices { items[index].todayIndex = Int64(index) }
        let stamp = Sample.date(9)
        let today = OrderedItemsPatch(ordering: .today, visibility: .open)

        var outAndBack = StoreChanges()
        outAndBack.note(.todayKeyed(items[0].id, list: list, todayIndex: nil, updatedAt: stamp))
        outAndBack.note(.todayKeyed(items[0].id, list: list, todayIndex: 5, updatedAt: stamp))
        var value = items
        #expect(today.apply(outAndBack, to: &value) == .changed)
        var back = items[0]
        (back.todayIndex, back.updatedAt) = (5, stamp)
        #expect(value == [items[1], items[2], back])

        var completed = items[1]
        (completed.completedAt, completed.updatedAt) = (stamp, stamp)
        var completeThenKey = StoreChanges()
        completeThenKey.note(.updated(from: items[1], to: completed))
        completeThenKey.note(.todayKeyed(items[1].id, list: list, todayIndex: 7, updatedAt: stamp))
        value = items
        #expect(today.apply(completeThenKey, to: &value) == .changed)
        #expect(value == [items[0], items[2]], "a completed item stays out of the open items of Today")

        var away = items[2]
        (away.listID, away.sortIndex) = (other, 1)
        var home = away
        (home.listID, home.sortIndex) = (list, 15)
        var awayAndBack = StoreChanges()
        awayAndBack.note(.updated(from: items[2], to: away))
        awayAndBack.note(.updated(from: away, to: home))
        value = items
        #expect(OrderedItemsPatch(ordering: .list(list), visibility: .all).apply(awayAndBack, to: &value) == .changed)
        #expect(value == [items[0], items[1], home])
        _ = OrderedItemsPatch(ordering: .list(list), visibility: .all).apply(awayAndBack, to: &value)
        #expect(value == [items[0], items[1], home], "applied again to a value that holds it")
    }

    @Test("On SQLite, the observer of a list gets a commit's changes with no read of the list; another connection's commit has it read")
    func noRead() async throws {
        try await OffPool.run {
            let folder = try TemporaryFolder()
            let path = folder.path("Arrange.sqlite")
            // A page of a list's whole items: the observation's read.
            let listReads = StatementCounter { $0.contains("title") && $0.contains("WHERE list_id = ?1 AND heading_id = '' ORDER BY sort_index, id LIMIT") }
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
        first.note(.updated(from: items[0], to: moved))
        first.note(.inserted(added))
        var second = StoreChanges()
        second.note(.keyed(items[1].id, list: list, heading: nil, sortIndex: 45, oldSortIndex: 10, updatedAt: Sample.date(9)))
        second.note(.updated(from: items[4], to: retitled))
        second.note(.deleted(items[2]))
        let patch = OrderedItemsPatch(ordering: .list(list), visibility: .all)

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
        deleted.note(.inserted(Sample.item(in: list, "Added", sortIndex: 9)))
        deleted.noteUnlistedItems(of: other)
        var value = items
        #expect(OrderedItemsPatch(ordering: .list(list), visibility: .all).apply(deleted, to: &value) == .changed, "another list's unlisted items do not matter")
        value = items
        #expect(OrderedItemsPatch(ordering: .today, visibility: .all).apply(deleted, to: &value) == .needsRead)
        #expect(value == items)
        #expect(OrderedItemsPatch(ordering: .list(list), visibility: .all).apply(.everything, to: &value) == .needsRead)
        #expect(value == items)

        var intoToday = StoreChanges()
        intoToday.note(.todayKeyed(items[1].id, list: list, todayIndex: 4, updatedAt: Sample.date(9)))
        var today: [Item] = []
        #expect(OrderedItemsPatch(ordering: .today, visibility: .all).apply(intoToday, to: &today) == .needsRead)
        #expect(today.isEmpty)

        var many = StoreChanges()
        for index in 0...StoreChanges.listedItemChangesLimit {
            many.note(.inserted(Sample.item(in: other, "Item \(index)", sortIndex: Int64(index))))
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
        case replaceList(ItemList.ID, with: ItemList)
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
            case .replaceList: "delete a list, add one"
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
            case .replaceList(let id, let list):
                try store.deleteList(id: id)
                try store.insert(list)
            }
        }
    }

    /// A commit of one to three steps on the lists and items as they are now, which may change
    /// one item twice; every fortieth one of more inserts than a commit lists, and now and
    /// then one that deletes a list other than `observed` and adds another.
    static func make(
        using random: inout SeededRandomNumberGenerator, keeping observed: ItemList.ID, in repository: any ItemRepository, round: Int
    ) async throws -> RandomCommit {
        let (lists, items) = try await repository.read { reader in
            let lists = try reader.lists().map(\.id)
            return (lists, try lists.flatMap { try reader.items(in: $0, visibility: .all, offset: 0, limit: .max) })
        }
        let stamp = Sample.date(Double(100 + round))
        let list = { (random: inout SeededRandomNumberGenerator) in lists.randomElement(using: &random) ?? observed }
        if round % 40 == 39 {
            // More changes than a commit lists: the observations of the list read it again.
            let bulk = list(&random)
            let inserts = (0...StoreChanges.listedItemChangesLimit).map { index in
                Step.insert(Item(listID: bulk, title: "Bulk \(round).\(index)", sortIndex: Int64(index), createdAt: stamp, todayIndex: index % 9 == 0 ? Int64(index) : nil))
            }
            return RandomCommit(steps: inserts, stamp: stamp)
        }
        if round % 25 == 12, let doomed = lists.filter({ $0 != observed }).randomElement(using: &random) {
            return RandomCommit(steps: [.replaceList(doomed, with: Sample.list("List \(round)", at: Double(round)))], stamp: stamp)
        }
        var steps: [Step] = []
        var deleted = Set<Item.ID>()
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            guard let item = items.filter({ !deleted.contains($0.id) }).randomElement(using: &random) else { break }
            let key = Int64.random(in: -50...200, using: &random)
            let target = list(&random)
            switch Int.random(in: 0..<9, using: &random) {
            case 0:
                steps.append(.insert(Item(listID: target, title: "New \(round)", sortIndex: key, createdAt: stamp, todayIndex: Bool.random(using: &random) ? key : nil)))
            case 1:
                var edited = item
                (edited.title, edited.notes, edited.updatedAt) = ("Edited \(round)", "Notes \(round)", stamp)
                steps.append(.update(edited))
            case 2:
                var toggled = item
                (toggled.completedAt, toggled.updatedAt) = (item.isCompleted ? nil : stamp, stamp)
                steps.append(.update(toggled))
            case 3:
                var moved = item
                (moved.listID, moved.sortIndex, moved.updatedAt) = (target, key, stamp)
                steps.append(.update(moved))
            case 4:
                steps.append(.delete(item.id))
                deleted.insert(item.id)
            case 5, 6:
                steps.append(.setKeys([SortIndexChange(id: item.id.entryID, sortIndex: key)], .items(Bool.random(using: &random) ? item.listID : target)))
            case 7:
                steps.append(.setKeys([SortIndexChange(id: item.id.entryID, sortIndex: key)], .today))
            default:
                steps.append(item.isKeyedInToday ? .removeFromToday([item.id]) : .setKeys([SortIndexChange(id: item.id.entryID, sortIndex: key % 7)], .today))
            }
        }
        return RandomCommit(steps: steps, stamp: stamp)
    }
}
