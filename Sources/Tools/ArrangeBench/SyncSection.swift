import ArrangeBenchSupport
import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import ArrangeStore
import ArrangeSync
import Foundation
import GRDB

/// Sync on SQLite database files: what logging adds to a move, how big operations are, and
/// what a merge costs against making the same changes locally.
///
/// 1. **Logging.** Two files hold the same list; the same random moves are timed in turns on
///    both, one transaction each: a plain move, and a move that also logs its operation the way
///    an intent does (`SyncEngine.recording`: the rows as they were, and the operation row).
/// 2. **Size.** The operations of the merge workloads, as `sync export` writes them, raw and
///    through `gzip -c`.
/// 3. **Merge.** Two replicas hold the same list. One makes a number of changes offline (70 %
///    moves, 20 % adds, 10 % edits, each a transaction that logs); the other then merges them
///    in one transaction. The figure is the merge's time over the time the changes took to make,
///    the median of ``mergeRuns`` runs on fresh files: one run's figure varied by half from run
///    to run, more than `--compare` allows.
struct SyncSection {
    let count: Int
    let rounds: Int
    let seed: UInt64
    let merges: [(items: Int, operations: Int)]
    let log: (String) -> Void

    /// How many times each merge is measured, on files of its own each time.
    static let mergeRuns = 3

    static let overheadTitle = "move by id that logs its operation ÷ the same move without sync"
    static let addedTitle = "what logging adds to a move ÷ a bare one-row `UPDATE`"

    struct MergeRow {
        let items: Int
        let operations: Int
        let local: Duration
        let merge: Duration
        var ratio: Double { merge / local }
    }

    struct Measurement {
        var overhead: MedianRatio
        /// The median of a bare one-row `UPDATE` on the file without sync, in nanoseconds.
        var bareUpdate: Double
        /// What logging adds to a move (the medians' difference) over a bare one-row `UPDATE`.
        var added: Double { (overhead.median - overhead.reference) / bareUpdate }
        var bytesPerOperation: Double
        var gzipBytesPerOperation: Double?
        var merges: [MergeRow]
    }

    func run(in directory: URL) throws -> Measurement {
        log("  logging: timing moves with and without sync at \(Format.count(count)) items, \(rounds) rounds…")
        let plain = try Replica(path: Backend.databasePath(in: directory, named: "sync-plain"), items: count, seed: seed, logs: false)
        let logged = try Replica(path: Backend.databasePath(in: directory, named: "sync-logged"), items: count, seed: seed, logs: true, logsTheLoad: false)
        let update = BareUpdate(plain.writer)
        let samples = try InterleavedSampler(rounds: rounds).sample([plain.moveRandomItem, logged.moveRandomItem, { try update.run(item: plain.randomItem().text, key: update.endKey()) }])
        let overhead = MedianRatio(samples[1], over: samples[0])

        var rows: [MergeRow] = []
        var exported: [SyncOperation] = []
        for (items, operations) in merges {
            log("  merge: \(Format.count(operations)) offline operations into \(Format.count(items)) items…")
            var runs: [MergeRow] = []
            for run in 1...Self.mergeRuns {
                let (row, offline) = try measureMerge(items: items, operations: operations, run: run, in: directory)
                runs.append(row)
                if offline.count > exported.count { exported = offline }
            }
            rows.append(runs.sorted { $0.ratio < $1.ratio }[runs.count / 2])
        }
        let file = try OperationFile.encode(OperationFile.Contents(operations: exported))
        let header = try OperationFile.encode(OperationFile.Contents(operations: [])).count
        let count = Double(max(1, exported.count))
        return Measurement(
            overhead: overhead,
            bareUpdate: Summary(samples[2])?.median ?? .nan,
            bytesPerOperation: Double(file.count - header) / count,
            gzipBytesPerOperation: Self.gzipSize(of: file).map { Double($0) / count },
            merges: rows)
    }

    /// Times `operations` offline changes on one replica, then their merge into another, on
    /// files named for the `run`.
    private func measureMerge(items: Int, operations: Int, run: Int, in directory: URL) throws -> (MergeRow, [SyncOperation]) {
        let name = "sync-\(items)-\(operations)-\(run)"
        let home = try Replica(path: Backend.databasePath(in: directory, named: "\(name)-home"), items: items, seed: seed, logs: true, logsTheLoad: true)
        // The list reaches the other replica as operations: the home replica logs its contents, then both replay them.
        _ = try home.engine.merge([])
        let away = try Replica(joining: home, path: Backend.databasePath(in: directory, named: "\(name)-away"), seed: seed)
        let cursor = try away.repository.read { try away.engine.operations(after: 0, in: $0).cursor }

        let clock = ContinuousClock()
        let local = try clock.measure {
            for _ in 0..<operations { try away.changeSomething() }
        }
        let offline = try away.repository.read { try away.engine.operations(after: cursor, in: $0).operations }
        let merge = try clock.measure { _ = try home.engine.merge(offline) }
        // Both end the same: the away replica replays its own changes as the home replica did.
        _ = try away.engine.merge([])
        let (homeOrder, awayOrder) = try (home.order(), away.order())
        guard homeOrder == awayOrder else { throw SyncBenchError.diverged(items: items, operations: operations) }
        return (MergeRow(items: items, operations: operations, local: local, merge: merge), offline)
    }

    /// The size of `data` through `gzip -c`, or `nil` when gzip cannot be run.
    static func gzipSize(of data: Data) -> Int? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-c"]
        let (input, output) = (Pipe(), Pipe())
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            return nil
        }
        // Write on another thread, so that a full output pipe cannot stall the child.
        Thread.detachNewThread {
            input.fileHandleForWriting.write(data)
            try? input.fileHandleForWriting.close()
        }
        let compressed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? compressed.count : nil
    }

    func text(_ measurement: Measurement) -> String {
        var lines = [
            "| figure | this run |",
            "|---|---|",
            "| \(Self.addedTitle) | **\(Format.ratio(measurement.added))** (target ≤ 0.75×; \(Format.microseconds(measurement.overhead.median - measurement.overhead.reference)) added, a bare `UPDATE` \(Format.microseconds(measurement.bareUpdate))) |",
            "| \(Self.overheadTitle) | \(Format.ratio(measurement.overhead.value)) (\(Format.microseconds(measurement.overhead.median)) over \(Format.microseconds(measurement.overhead.reference))) |",
            "| bytes per operation, JSON Lines as `sync export` writes them | \(Format.figure(measurement.bytesPerOperation)) |",
            "| bytes per operation through gzip | \(measurement.gzipBytesPerOperation.map(Format.figure) ?? "gzip not available") |",
            "",
            "| list | offline operations | merge ÷ making them locally | *context:* made locally, merged |",
            "|---|---|---|---|",
        ]
        for row in measurement.merges {
            lines.append("| \(Format.count(row.items)) items | \(Format.count(row.operations)) | **\(Format.ratio(row.ratio))** | \(Format.milliseconds(row.local)), \(Format.milliseconds(row.merge)) |")
        }
        return lines.joined(separator: "\n")
    }
}

enum SyncBenchError: Error, CustomStringConvertible {
    case diverged(items: Int, operations: Int)

    var description: String {
        switch self {
        case .diverged(let items, let operations): "After merging \(operations) operations into \(items) items, the two replicas differ."
        }
    }
}

/// One replica of the sync section: a database file with one list, its sync engine, and the
/// changes a person makes on it, each a transaction that logs as an intent does.
private final class Replica {
    let repository: SQLiteItemRepository
    /// The repository's connection pool, which a bare `UPDATE` shares.
    let writer: DatabasePool
    let engine: SyncEngine
    let service: OrderingService
    let list: ItemList.ID
    private let logs: Bool
    private var ids: [Item.ID]
    private var random: SeededRandomNumberGenerator
    private var added = 0

    /// A file holding a list of `items` items, bulk-loaded.
    ///
    /// - Parameters:
    ///   - logs: Whether its changes log their operations.
    ///   - logsTheLoad: Whether the list is logged, as a store's contents are the first time it
    ///     syncs; otherwise the replica takes its id before the load, which then stays unlogged.
    init(path: String, items: Int, seed: UInt64, logs: Bool, logsTheLoad: Bool = false) throws {
        let (repository, writer, engine) = try Self.open(path)
        (self.repository, self.writer, self.engine) = (repository, writer, engine)
        var random = SeededRandomNumberGenerator(seed: seed)
        let loaded = try BulkLoad.appendedList(named: "Sync", count: items, in: repository, random: &random)
        // A replica id once the list is there, so that the load is not logged; a store that
        // syncs takes no change that is not.
        if logs && !logsTheLoad { _ = try repository.write { try engine.replicaID(in: $0) } }
        (list, ids, self.logs) = (loaded.list.id, loaded.ids, logs)
        self.random = SeededRandomNumberGenerator(seed: random.next())
        service = try OrderingService(repository: repository, random: SeededRandomNumberGenerator(seed: random.next()), now: { BulkLoad.epoch })
    }

    /// A new file that receives every operation of `other`, and so holds the same list.
    init(joining other: Replica, path: String, seed: UInt64) throws {
        (repository, writer, engine) = try Self.open(path)
        let operations = try other.repository.read { try other.engine.operations(after: 0, in: $0).operations }
        _ = try engine.merge(operations)
        (list, ids, logs) = (other.list, other.ids, true)
        random = SeededRandomNumberGenerator(seed: seed ^ 0x5EED)
        service = try OrderingService(repository: repository, random: SeededRandomNumberGenerator(seed: seed), now: { BulkLoad.epoch })
    }

    private static func open(_ path: String) throws -> (SQLiteItemRepository, DatabasePool, SyncEngine) {
        let writer = try DatabasePool(path: path)
        let repository = try SQLiteItemRepository(writer: writer)
        return (repository, writer, SyncEngine(repository: repository))
    }

    func randomItem() -> Item.ID {
        ids[Int.random(in: 0..<ids.count, using: &random)]
    }

    /// Moves a random item before another, with or without logging it.
    func moveRandomItem() throws {
        let item = randomItem()
        var anchor = item
        while anchor == item { anchor = randomItem() }
        try change { transaction in
            let report = try service.move([item], to: .before(anchor), into: nil, visibility: .all, in: transaction)
            return .moveItems(ids: [item], list: list, place: SyncPlace(report))
        }
    }

    /// One change as a person makes them: mostly moves, some adds, a few edits.
    func changeSomething() throws {
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<7:
            try moveRandomItem()
        case 7, 8:
            let anchor = randomItem()
            added += 1
            let item = BulkLoad.item(Item.ID(), number: -added, in: list, sortIndex: 0)
            try change { transaction in
                let report = try service.add(item, at: .after(anchor), visibility: .all, in: transaction)
                return .addItem(id: item.id, list: list, title: item.title, notes: "", place: SyncPlace(report))
            }
            ids.append(item.id)
        default:
            let id = randomItem()
            try change { transaction in
                var item = try transaction.existingItem(id: id)
                item.title = "Edited \(Int.random(in: 0..<1_000, using: &random))"
                try transaction.update(item)
                return .editItem(id: id, title: item.title, notes: nil)
            }
        }
    }

    /// Runs a change in a write transaction; a replica that logs records it as an intent does.
    private func change(_ body: (any ItemWriting) throws -> SyncChange) throws {
        try repository.write { transaction in
            guard logs else { return _ = try body(transaction) }
            _ = try engine.recording(in: transaction, logging: { recorder in ((), [try body(recorder)]) })
        }
    }

    /// The list's items, in order.
    func order() throws -> [Item.ID] {
        try repository.read { try $0.items(in: list, visibility: .all, offset: 0, limit: .max).map(\.id) }
    }
}
