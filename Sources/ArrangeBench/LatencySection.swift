import ArrangeBenchSupport
import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import Foundation
import GRDB

/// Latency on SQLite (a database file in WAL mode): each operation's median time, its own
/// transaction included, over the median of the smallest write transaction on the same
/// database, timed in turns in the same run.
///
/// `SQLiteItemRepository` offers no raw SQL, so the smallest write transaction it can run is
/// `write { try $0.updateSortIndices([one change], updatedAt: …) }`: one `UPDATE items SET
/// sort_index = ?, updated_at = ? WHERE id = ?` in an `IMMEDIATE` transaction on the
/// repository's own connection. That is
/// the denominator. A bare `UPDATE` through GRDB on a second connection to the same file is
/// timed too, in a block of its own: timed in turns with the repository, the two connections
/// would empty each other's page cache at every write.
struct LatencySection {
    let count: Int
    let rounds: Int
    let seed: UInt64
    let log: (String) -> Void

    /// One operation's median over the one-row write's.
    struct Row {
        let operation: String
        let isMove: Bool
        let ratio: MedianRatio
    }

    /// What the section measured.
    struct Measurement {
        var rows: [Row]
        /// The median of the repository's one-row write transaction, in nanoseconds.
        var oneRowWrite: Double
        /// The median of a bare one-row `UPDATE` transaction on a second connection, in nanoseconds.
        var bareUpdate: Double
        /// `PRAGMA synchronous` on the second connection (1 is NORMAL, as GRDB sets it in WAL mode).
        var synchronous: Int
    }

    func run(in directory: URL) throws -> Measurement {
        let path = Backend.databasePath(in: directory, named: "latency")
        let repository = try SQLiteItemRepository(path: path)
        var random = SeededRandomNumberGenerator(seed: seed ^ 0x1A7E)
        log("  loading \(Format.count(count)) items into \(path)…")
        let list = try TimedList(count: count, named: "Latency", in: repository, random: &random)
        let operations: [(title: String, isMove: Bool, body: () throws -> Void)] = [
            (TimedList.byIDTitle, true, list.moveByID),
            (TimedList.byOffsetTitle, true, list.moveByOffset),
            ("add at the bottom", false, list.addAtBottom),
            ("add after a random item", false, list.addAfterRandomItem),
            ("read the first page of 50 items", false, list.readFirstPage),
            // Context for the ratios: what a transaction and a single query cost on their own.
            ("*context:* an empty write transaction", false, list.writeNothing),
            ("*context:* read one item by id, in a write transaction", false, list.readOneItemInWrite),
        ]
        log("  timing \(rounds) rounds…")
        let samples = try InterleavedSampler(rounds: rounds).sample([list.writeOneRow] + operations.map(\.body))
        let baseline = Summary(samples[0])!.median
        let rows = zip(operations, samples.dropFirst()).map { operation, sample in
            Row(operation: operation.title, isMove: operation.isMove, ratio: MedianRatio(sample, over: samples[0]))
        }
        log("  timing a bare UPDATE on a second connection…")
        let (bareUpdate, synchronous) = try timeBareUpdates(path: path, ids: list.ids.map(\.text), random: &random)
        return Measurement(rows: rows, oneRowWrite: baseline, bareUpdate: bareUpdate, synchronous: synchronous)
    }

    /// The median of `rounds` one-row `UPDATE` transactions through GRDB on a connection of
    /// its own, configured as the repository's (WAL, so `synchronous = NORMAL`).
    private func timeBareUpdates(path: String, ids: [String], random: inout SeededRandomNumberGenerator) throws -> (Double, Int) {
        var configuration = Configuration()
        configuration.journalMode = .wal
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        let synchronous = try queue.read { try Int.fetchOne($0, sql: "PRAGMA synchronous") } ?? -1
        var key: Int64 = 1 << 62
        var generator = random
        let samples = try InterleavedSampler(rounds: rounds).sample([{
            key += 1 << 32
            let id = ids[Int.random(in: 0..<ids.count, using: &generator)]
            try queue.writeWithoutTransaction { db in
                try db.inTransaction(.immediate) {
                    try db.cachedStatement(sql: "UPDATE items SET sort_index = ?, updated_at = ? WHERE id = ?")
                        .execute(arguments: [key, BulkLoad.epoch.timeIntervalSince1970, id])
                    return .commit
                }
            }
        }])
        random = generator
        return (Summary(samples[0])!.median, synchronous)
    }

    func text(_ measurement: Measurement) -> String {
        var table = MarkdownTable(["operation (one transaction each)", "median", "÷ one-row write"], rightAligned: [1, 2])
        table.append(["one-row write: `updateSortIndices([one change])`", Format.microseconds(measurement.oneRowWrite), "1.00×"])
        for row in measurement.rows {
            table.append([row.operation, Format.microseconds(row.ratio.median), "**\(Format.ratio(row.ratio.value))**"])
        }
        let overhead = measurement.oneRowWrite / measurement.bareUpdate
        return table.text + "\n\n"
            + "A bare `UPDATE items SET sort_index = ? WHERE id = ?` in an `IMMEDIATE` transaction through GRDB, on a second connection "
            + "(`PRAGMA synchronous` = \(measurement.synchronous)), timed in a block of its own: median \(Format.microseconds(measurement.bareUpdate)); "
            + "the repository's one-row write takes \(Format.ratio(overhead)) that. Against the bare UPDATE the move ratios would be "
            + measurement.rows.filter(\.isMove).map { "\(Format.ratio($0.ratio.median / measurement.bareUpdate)) (\($0.operation))" }.joined(separator: " and ")
            + ". Times are for context only; the ratios are the figures."
    }
}
