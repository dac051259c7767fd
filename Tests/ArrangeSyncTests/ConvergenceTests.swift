import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import ArrangeSync
import Foundation
import PropertyBased
import Testing

/// Replicas that make random operations apart, exchange partial, duplicated and reordered
/// batches, then everything: each must end with the same lists, items, Today and keys.
@Suite("Sync: convergence of the replay")
struct ConvergenceTests {
    @Test("2 to 4 replicas with random operations of every kind converge, with rising keys and nothing to repair")
    func randomReplicas() async throws {
        await propertyCheck(count: 40, input: Gen.int(in: 0...Int(UInt32.max)).array(of: 8...120)) { words in
            var simulation = try Simulation(replicas: 2 + words[0] % 3)
            for step in stride(from: 1, to: words.count - 3, by: 4) {
                try simulation.step(Array(words[step..<step + 4]))
            }
            try simulation.exchangeAll()
            try simulation.expectConvergence()
        }
    }

    @Test("The result does not depend on the order operations arrive in, nor on duplicates")
    func arrivalOrder() async throws {
        await propertyCheck(count: 30, input: Gen.int(in: 0...Int(UInt32.max)).array(of: 8...80)) { words in
            var simulation = try Simulation(replicas: 3)
            for step in stride(from: 1, to: words.count - 3, by: 4) {
                try simulation.step(Array(words[step..<step + 4]))
            }
            let operations = simulation.replicas.flatMap(\.known)
            var random = SeededRandomNumberGenerator(seed: UInt64(words[0]))
            let reordered = (operations + operations.prefix(words[0] % (operations.count + 1))).shuffled(using: &random)
            #expect(try Simulation.dump(SyncReplay.rebuild(from: reordered)) == Simulation.dump(SyncReplay.rebuild(from: operations)))
        }
    }
}

/// The replicas of one run: what each knows, its clock and its next sequence number.
struct Simulation {
    struct Replica {
        let id = ReplicaID()
        var known: [SyncOperation] = []
        var clock: HybridLogicalClock
        var sequence: Int64 = 0
    }

    var replicas: [Replica]
    var wall: Int64 = 1_000_000

    init(replicas count: Int) throws {
        let start: Int64 = 1_000_000
        replicas = (0..<count).map { _ in Replica(clock: HybridLogicalClock(wallClock: { start })) }
    }

    /// One random step: a replica makes an operation, or two replicas exchange a batch.
    mutating func step(_ words: [Int]) throws {
        let index = words[0] % replicas.count
        if words[1] % 4 == 0 {
            let other = (index + 1 + words[2] % (replicas.count - 1)) % replicas.count
            let batch = replicas[index].known.filter { _ in Bool.random() } + replicas[index].known.suffix(words[3] % 3)
            receive(batch.shuffled(), at: other)
            return
        }
        let state = try SyncReplay.rebuild(from: replicas[index].known)
        guard let change = try Self.change(from: words, in: state) else { return }
        replicas[index].sequence += 1
        let operation = SyncOperation(replica: replicas[index].id, sequence: replicas[index].sequence, clock: replicas[index].clock.tick(), change: change)
        replicas[index].known.append(operation)
    }

    mutating func receive(_ batch: [SyncOperation], at index: Int) {
        for operation in batch {
            _ = replicas[index].clock.receive(operation.clock)
            replicas[index].known.append(operation)
        }
    }

    /// Every replica gets every operation.
    mutating func exchangeAll() throws {
        let all = replicas.flatMap(\.known)
        for index in replicas.indices { receive(all, at: index) }
    }

    func expectConvergence() throws {
        let states = try replicas.map { try SyncReplay.rebuild(from: $0.known) }
        let dumps = try states.map(Self.dump)
        #expect(Set(dumps.map { "\($0)" }).count == 1, "replicas differ")
        let state = try #require(states.first)
        let service = try OrderingService(repository: state)
        var scopes: [OrderScope] = [.lists, .today]
        scopes += try state.read { try $0.lists() }.map { OrderScope.items($0.id) }
        for scope in scopes {
            #expect(try service.validate(scope, repair: false).isHealthy, "\(scope)")
            let keys = try state.read { try $0.entries(in: scope, visibility: .all, offset: 0, limit: .max) }.map(\.sortIndex)
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, "keys rise in \(scope)")
        }
        let names = try state.read { try $0.lists() }.map { ItemList.nameKey($0.name) }
        #expect(Set(names).count == names.count, "list names are unique")
    }

    /// Everything a store holds, in order, keys included.
    static func dump(_ repository: InMemoryItemRepository) throws -> [String] {
        try repository.read { transaction in
            var lines: [String] = []
            for list in try transaction.lists() {
                lines.append("list \(list.id) \(list.name) \(list.sortIndex)")
                for item in try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max) {
                    lines.append("  item \(item.id) \(item.title) \(item.notes) \(item.sortIndex) \(String(describing: item.completedAt)) \(String(describing: item.todayIndex))")
                }
            }
            lines += try transaction.todayItems(visibility: .all, offset: 0, limit: .max).map { "today \($0.id)" }
            return lines
        }
    }

    /// A random change, against what the replica sees: its lists, items and Today.
    static func change(from words: [Int], in state: InMemoryItemRepository) throws -> SyncChange? {
        try state.read { transaction in
            let lists = try transaction.lists()
            let items = try lists.flatMap { try transaction.items(in: $0.id, visibility: .all, offset: 0, limit: .max) }
            let today = try transaction.todayItems(visibility: .all, offset: 0, limit: .max)
            let names = ["Groceries", "Work", "Home"]
            func pick<T>(_ values: [T], _ word: Int) -> T? { values.isEmpty ? nil : values[word % values.count] }
            func place(after entry: OrderEntry.ID?, among order: [OrderEntry.ID]) -> SyncPlace {
                guard let entry, let index = order.firstIndex(of: entry) else { return SyncPlace(after: nil, before: order.first) }
                return SyncPlace(after: entry, before: index + 1 < order.count ? order[index + 1] : nil)
            }
            let (word, other) = (words[2], words[3])
            switch words[1] % 13 {
            case 0:
                return .createList(id: ItemList.ID(), name: names[word % names.count], place: place(after: pick(lists, other)?.id.entryID, among: lists.map(\.id.entryID)))
            case 1:
                return pick(lists, word).map { .renameList(id: $0.id, name: names[other % names.count]) }
            case 2:
                return pick(lists, word).map { list in .moveList(id: list.id, place: place(after: pick(lists.filter { $0.id != list.id }, other)?.id.entryID, among: lists.filter { $0.id != list.id }.map(\.id.entryID))) }
            case 3:
                return pick(lists, word).map { .deleteList(id: $0.id) }
            case 4, 5, 6:
                let list = pick(lists, word)?.id ?? SyncReplay.defaultListID
                let order = items.filter { $0.listID == list }.map(\.id.entryID)
                return .addItem(id: Item.ID(), list: list, title: "t\(word % 100)", notes: "", place: place(after: pick(order, other), among: order))
            case 7:
                return pick(items, word).map { .editItem(id: $0.id, title: "e\(other % 100)", notes: other % 2 == 0 ? "n" : nil) }
            case 8:
                return pick(items, word).map { $0.isCompleted ? .reopenItems(ids: [$0.id]) : .completeItems(ids: [$0.id], at: Date(timeIntervalSince1970: 7)) }
            case 9:
                return pick(items, word).map { .deleteItems(ids: [$0.id]) }
            case 10:
                guard let first = pick(items, word), let list = pick(lists, other)?.id else { return nil }
                let moving = [first.id] + (pick(items, other).map { $0.id == first.id ? [] : [$0.id] } ?? [])
                let order = items.filter { $0.listID == list && !moving.contains($0.id) }.map(\.id.entryID)
                return .moveItems(ids: moving, list: list, place: place(after: pick(order, word >> 3), among: order))
            case 11:
                guard let item = pick(items, word) else { return nil }
                let order = today.filter { $0.id != item.id }.map(\.id.entryID)
                return .addToToday(ids: [item.id], place: place(after: pick(order, other), among: order))
            default:
                guard let item = pick(today, word) else { return nil }
                if other % 3 == 0 { return .removeFromToday(ids: [item.id]) }
                let order = today.filter { $0.id != item.id }.map(\.id.entryID)
                return .moveInToday(ids: [item.id], place: place(after: pick(order, other >> 2), among: order))
            }
        }
    }
}
