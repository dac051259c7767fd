import ArrangeBenchSupport
import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import ArrangeStore
import Benchmark
import Foundation

// Micro-benchmarks of the ordering hot paths, for comparing a change against a saved baseline:
//
//     swift package benchmark baseline update main
//     swift package benchmark baseline compare main
//
// Each benchmark loads its list once, in its setup, straight through the repository.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        maxDuration: .seconds(2),
        maxIterations: 100_000)

    measure("Key choice: add into a free gap, rolled back", items: 1_000, on: .inMemory) { list in
        try list.rolledBack { transaction in
            try list.service.add(list.newItem(), at: .after(list.randomItem()), visibility: .all, in: transaction)
        }
    }

    for backend in BenchmarkList.Backend.allCases {
        measure("Neighbour lookup: the entry before a key", items: 100_000, on: backend) { list in
            let key = OrderKey(sortIndex: Int64.random(in: 0...(100_000 << 32), using: &list.random), id: .lowest)
            blackHole(try list.repository.read { try $0.keys(in: .items(list.list), before: key, limit: 1) })
        }
        measure("Move: one item before another, by id", items: 100_000, on: backend) { list in
            let (item, anchor) = list.twoRandomItems()
            try list.service.move([item], to: .before(anchor))
        }
    }

    // Keys one end gap apart, but for a run of 64 items keyed 1 apart in the middle: an add
    // into that run finds its gap full and re-spreads a window of about the run's size.
    let cramped = 500..<564
    let crampedKeys: @Sendable (Int) -> Int64 = { index in
        index < cramped.lowerBound ? BulkLoad.appendedKey(index)
            : index < cramped.upperBound ? BulkLoad.appendedKey(cramped.lowerBound) + Int64(index - cramped.lowerBound)
            : BulkLoad.appendedKey(index - cramped.count + 1)
    }
    measure("Re-spread: add into a run of 64 items keyed 1 apart, rolled back", items: 1_000, on: .inMemory, keys: crampedKeys) { list in
        try list.rolledBack { transaction in
            let anchor = list.ids[Int.random(in: cramped.dropLast(), using: &list.random)]
            let report = try list.service.add(list.newItem(), at: .after(anchor), visibility: .all, in: transaction)
            precondition(report.rowsRespread > 0, "the gap was not full")
        }
    }
}

/// Registers a benchmark that runs `body` once an iteration on a list of `count` items that
/// its setup loads (keyed by `keys`, as the ordering service appends by default).
func measure(
    _ name: String, items count: Int, on backend: BenchmarkList.Backend, keys: @escaping (Int) -> Int64 = BulkLoad.appendedKey,
    _ body: @escaping (BenchmarkList) throws -> Void
) {
    Benchmark("\(name) (\(backend.rawValue), \(count.withThousandsSeparators) items)") { benchmark, list in
        for _ in benchmark.scaledIterations { try body(list) }
    } setup: {
        try BenchmarkList(count: count, on: backend, keys: keys)
    } teardown: {
        try backend.removeFiles()
    }
}

/// A bulk-loaded list, the ordering service over it, and a seeded source of random choices.
final class BenchmarkList {
    /// Where the list lives.
    enum Backend: String, CaseIterable {
        case inMemory = "in-memory"
        case sqlite = "SQLite file, WAL"

        /// The folder of this backend's database files, one per process.
        var folder: URL {
            FileManager.default.temporaryDirectory.appendingPathComponent("arrange-benchmarks-\(ProcessInfo.processInfo.processIdentifier)")
        }

        func makeRepository() throws -> any ItemRepository {
            switch self {
            case .inMemory:
                return InMemoryItemRepository()
            case .sqlite:
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                return try SQLiteItemRepository(path: folder.appendingPathComponent("\(UUID().uuidString).sqlite").path)
            }
        }

        func removeFiles() throws {
            if self == .sqlite, FileManager.default.fileExists(atPath: folder.path) {
                try FileManager.default.removeItem(at: folder)
            }
        }
    }

    /// Thrown to roll a write transaction back after the measured work.
    private struct Rollback: Error {}

    let repository: any ItemRepository
    let service: OrderingService
    let list: ItemList.ID
    let ids: [Item.ID]
    var random: SeededRandomNumberGenerator

    init(count: Int, on backend: Backend, keys: (Int) -> Int64 = BulkLoad.appendedKey) throws {
        repository = try backend.makeRepository()
        list = try BulkLoad.makeList(named: "Benchmark", in: repository).id
        var random = SeededRandomNumberGenerator(seed: 42)
        ids = (0..<count).map { _ in Item.ID(using: &random) }
        self.random = random
        try BulkLoad.fill(list, ids: ids, keys: keys, in: repository)
        service = try OrderingService(repository: repository, random: SeededRandomNumberGenerator(seed: 7), now: { BulkLoad.epoch })
    }

    func randomItem() -> Item.ID {
        ids[Int.random(in: 0..<ids.count, using: &random)]
    }

    /// Two different random items.
    func twoRandomItems() -> (Item.ID, Item.ID) {
        let first = randomItem()
        var second = first
        while second == first { second = randomItem() }
        return (first, second)
    }

    func newItem() -> Item {
        BulkLoad.item(Item.ID(using: &random), number: ids.count, in: list, sortIndex: 0)
    }

    /// Runs `body` in a write transaction and rolls it back, so every iteration starts from the same list.
    func rolledBack(_ body: (any ItemWriting) throws -> Void) throws {
        do {
            try repository.write { transaction in
                try body(transaction)
                throw Rollback()
            }
        } catch is Rollback {}
    }
}
