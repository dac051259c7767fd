import ArrangeBenchSupport
import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import ArrangeStore
import Foundation
import GRDB

/// Latency on SQLite (a database file in WAL mode), in two blocks, each timed in turns:
///
/// 1. Every operation, each one transaction of its own, over the smallest write transaction the
///    repository offers: `write { try $0.setSortIndices([one change], in: .items(list), updatedAt:) }`.
/// 2. The two latency targets, without the offset moves of block 1, whose scans of the order
///    index empty the page cache every round: a move by id over a bare one-row `UPDATE … SET
///    sort_index = ?, updated_at = ? WHERE id = ?` in an `IMMEDIATE` transaction through GRDB
///    on the same connection (the benchmark owns the `DatabasePool` and hands it to
///    `SQLiteItemRepository(writer:)`), and a read of the first page of 50 items over the
///    repository's one-row write.
/// 3. Today's first page of 50, in a database of its own (``todayShape``), over the first page
///    of 50 of one of its lists.
struct LatencySection {
    let count: Int
    let rounds: Int
    let seed: UInt64
    let log: (String) -> Void

    /// One operation's median over its reference's.
    struct Row {
        let operation: String
        let isMove: Bool
        let ratio: MedianRatio
    }

    /// A latency target and how this run did.
    struct Target {
        let operation: String
        let reference: String
        let ratio: MedianRatio
        let limit: Double
    }

    /// What the section measured.
    struct Measurement {
        /// Block 1: every operation over the one-row write.
        var rows: [Row]
        /// The median of the repository's one-row write transaction in block 1, in nanoseconds.
        var oneRowWrite: Double
        /// Block 2: the targets.
        var targets: [Target]
        /// Block 2: a move by id over a bare `UPDATE` that writes its row to a random place in
        /// the list, as a move does, instead of at its end.
        var moveOverUpdateToRandomPlace: MedianRatio
        /// Block 2: the median of the bare `UPDATE`, in nanoseconds: how fast the machine ran.
        var bareUpdate: Double
        /// Block 3: the items of Today's first page read by id, in one query, over the first
        /// page of one list: the least that any read of Today's page pays once it knows which
        /// items the page shows, scattered as they are across lists.
        var todayPageItemsByID: MedianRatio
    }

    static let bareUpdateTitle = "bare one-row `UPDATE` through GRDB, same connection"
    static let oneRowWriteTitle = "one-row write: `setSortIndices([one change], in: .items(list))`"

    func run(in directory: URL) throws -> Measurement {
        let path = Backend.databasePath(in: directory, named: "latency")
        let pool = try Backend.openPool(in: directory, named: "latency")
        defer { try? pool.close() }
        let repository = try SQLiteItemRepository(writer: pool)
        var random = SeededRandomNumberGenerator(seed: seed ^ 0x1A7E)
        log("  loading \(Format.count(count)) items into \(path)…")
        let list = try TimedList(count: count, named: "Latency", in: repository, random: &random)
        let operations: [(title: String, isMove: Bool, body: () throws -> Void)] = [
            (TimedList.byIDTitle, true, list.moveByID),
            (TimedList.byOffsetTitle, true, list.moveByOffset),
            ("add at the bottom", false, list.addAtBottom),
            ("add after a random item", false, list.addAfterRandomItem),
            (TimedList.pageTitle, false, list.readFirstPage),
            // Right after the read before it, not after a write: what the page costs when SQLite
            // need not reload its page cache, which any commit of another connection discards.
            ("*context:* the same page again, at once", false, list.readFirstPage),
            // Context for the ratios: what a transaction and a single query cost on their own.
            ("*context:* an empty write transaction", false, list.writeNothing),
            ("*context:* read one item by id, in a write transaction", false, list.readOneItemInWrite),
        ]
        log("  block 1: timing every operation, \(rounds) rounds…")
        let samples = try InterleavedSampler(rounds: rounds).sample([list.writeOneRow] + operations.map(\.body))
        let rows = zip(operations, samples.dropFirst()).map { operation, sample in
            Row(operation: operation.title, isMove: operation.isMove, ratio: MedianRatio(sample, over: samples[0]))
        }

        log("  block 2: timing the targets, \(rounds) rounds…")
        let update = BareUpdate(pool)
        let bareUpdate = { try update.run(item: list.randomItem().text, key: update.endKey()) }
        let bareUpdateToRandomPlace = { try update.run(item: list.randomItem().text, key: list.randomPlaceKey()) }
        let block = try InterleavedSampler(rounds: rounds).sample([bareUpdate, list.writeOneRow, list.moveByID, list.readFirstPage, bareUpdateToRandomPlace])
        let (today, todayPageItemsByID) = try todayPage(in: directory, random: &random)
        let targets = [
            Target(operation: TimedList.byIDTitle, reference: Self.bareUpdateTitle, ratio: MedianRatio(block[2], over: block[0]), limit: 1.5),
            Target(operation: TimedList.pageTitle, reference: "the one-row write", ratio: MedianRatio(block[3], over: block[1]), limit: 1.5),
            today,
        ]
        return Measurement(
            rows: rows, oneRowWrite: Summary(samples[0])?.median ?? .nan, targets: targets,
            moveOverUpdateToRandomPlace: MedianRatio(block[2], over: block[4]), bareUpdate: Summary(block[0])?.median ?? .nan,
            todayPageItemsByID: todayPageItemsByID)
    }

    /// Lists, items per list, items that arrived in Today by their dates, and items placed in
    /// Today by hand, of the Today block.
    static let todayShape = (lists: 100, items: 100, arrivals: 300, placed: 100)
    static let todayPageTitle = "read the first page of 50 items of Today (10,000 items across 100 lists, 300 arrivals, 100 placed)"

    /// Block 3: the first page of 50 of Today, whose arrivals are ordered by the sidebar, over
    /// the first page of 50 of one of its lists, in a database of their own, timed in turns with
    /// the page's items read by id (``Measurement/todayPageItemsByID``).
    private func todayPage(in directory: URL, random: inout SeededRandomNumberGenerator) throws -> (Target, itemsByID: MedianRatio) {
        let pool = try Backend.openPool(in: directory, named: "today")
        defer { try? pool.close() }
        let repository = try SQLiteItemRepository(writer: pool)
        let shape = Self.todayShape
        log("  block 3: loading Today, \(Format.count(shape.lists * shape.items)) items across \(shape.lists) lists…")
        let day = Day(BulkLoad.epoch, in: .gmt)
        let lists = try (0..<shape.lists).map { try BulkLoad.makeList(named: "List \($0)", in: repository) }
        var items = lists.flatMap { list in
            (0..<shape.items).map { BulkLoad.item(Item.ID(using: &random), number: $0, in: list.id, sortIndex: BulkLoad.appendedKey($0)) }
        }
        items.shuffle(using: &random)
        for index in 0..<shape.arrivals { items[index].when = .on(day.adding(days: -(index % 3))) }
        for index in shape.arrivals..<(shape.arrivals + shape.placed) {
            items[index].when = .on(day.adding(days: -3))
            items[index].todayIndex = BulkLoad.appendedKey(index)
        }
        try repository.write { transaction in
            for item in items { try transaction.insert(item) }
        }
        let firstList = lists[0].id
        let readPage = { try TodayArrangement.Page(on: day, visibility: .open, offset: 0, limit: 50, in: $0) }
        let pageItems = try repository.read(readPage).items.map(\.id)
        log("  block 3: timing Today's first page and a list's, \(rounds) rounds…")
        let samples = try InterleavedSampler(rounds: rounds).sample([
            { _ = try repository.read { try $0.items(in: firstList, visibility: .open, offset: 0, limit: 50) } },
            { _ = try repository.read(readPage) },
            { _ = try repository.read { try $0.items(withIDs: pageItems) } },
        ])
        let target = Target(
            operation: Self.todayPageTitle, reference: "the first page of 50 items of one of its lists", ratio: MedianRatio(samples[1], over: samples[0]), limit: 2)
        return (target, MedianRatio(samples[2], over: samples[0]))
    }

    func text(_ measurement: Measurement) -> String {
        var table = MarkdownTable(["operation (one transaction each)", "median", "÷ one-row write"], rightAligned: [1, 2])
        table.append([Self.oneRowWriteTitle, Format.microseconds(measurement.oneRowWrite), "1.00×"])
        for row in measurement.rows {
            table.append([row.operation, Format.microseconds(row.ratio.median), "**\(Format.ratio(row.ratio.value))**"])
        }
        var targets = MarkdownTable(["operation", "median", "reference", "its median", "ratio", "target"], rightAligned: [1, 3, 4, 5])
        for target in measurement.targets {
            targets.append([
                target.operation, Format.microseconds(target.ratio.median), target.reference,
                Format.microseconds(target.ratio.reference), "**\(Format.ratio(target.ratio.value))**", "≤ \(Format.ratio(target.limit))",
            ])
        }
        return "Block 1, every operation in turns:\n\n" + table.text + "\n\n"
            + "Block 2, the latency targets, timed in turns without the offset moves (whose index scans empty the page cache); "
            + "the last, Today's page, is block 3, timed in turns with the page of one list, in a database of its own:\n\n"
            + targets.text + "\n\n*Context:* \(TimedList.byIDTitle) ÷ a bare one-row `UPDATE` that writes its row to a random place in the list, "
            + "as a move does, where the bare `UPDATE` above writes it at the end of the list, always the same page of a table stored in list order: "
            + "**\(Format.ratio(measurement.moveOverUpdateToRandomPlace.value))** (\(Format.microseconds(measurement.moveOverUpdateToRandomPlace.median)) ÷ "
            + "\(Format.microseconds(measurement.moveOverUpdateToRandomPlace.reference))).\n\n*Context:* the 50 items of Today's first page read by id "
            + "(`items(withIDs:)`, one query) ÷ the first page of one list: "
            + "**\(Format.ratio(measurement.todayPageItemsByID.value))** (\(Format.microseconds(measurement.todayPageItemsByID.median)) ÷ "
            + "\(Format.microseconds(measurement.todayPageItemsByID.reference))), the least a read of Today's page pays once it knows which items "
            + "it shows, scattered across lists as they are.\n\nTimes are for context only; the ratios are the figures."
    }
}
