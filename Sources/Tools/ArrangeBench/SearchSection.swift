import ArrangeBenchSupport
import ArrangeIntents
import ArrangeModel
import ArrangeSQLite
import ArrangeStore
import Foundation
import GRDB

/// Quick Find on SQLite (a database file in WAL mode), over `count` items in ten lists: titles of
/// 3 to 8 words drawn from a vocabulary of 5,000 made-up words, notes of 0 to 200 characters of
/// the same words.
///
/// 1. **Search.** `Search` for the first three letters of a word of the vocabulary, its first 20
///    items in Quick Find's ranking, over ``bareSQL``: the statement, written by hand, that asks
///    the same index for the same 20 ids in the same order. Timed in turns, each query a read of
///    its own; the run checks that both answer the same ids.
/// 2. **Add.** `AddItem` of a random title and notes over the same add in a copy of the database
///    whose index (its tables and triggers) is dropped: what keeping the index costs a write,
///    the medians, and the means, which count the batches in which the FTS5 index takes the
///    texts that wait for it.
struct SearchSection {
    let count: Int
    let rounds: Int
    let seed: UInt64
    let log: (String) -> Void

    /// How many words the vocabulary holds.
    static let vocabularySize = 5_000

    struct Measurement {
        /// `Search` over the bare statement.
        var search: MedianRatio
        /// How many items the queries matched, the median: what both rank.
        var matches: Int
        /// `AddItem` with the index over without: the medians.
        var add: MedianRatio
        /// The same, of the means: every 64th add hands the waiting texts to the FTS5 index.
        var addMeans: Double
    }

    /// The statement written by hand: the items whose index matches the word, those whose
    /// title starts with it first, then those whose title holds it, then the rest; within each,
    /// by the lists' order in the sidebar (all in no area here), then by place.
    static let bareSQL = """
        SELECT items.id FROM search_index
        JOIN search_text ON search_text.id = search_index.rowid
        JOIN items ON items.id = search_text.item_id
        JOIN lists ON lists.id = items.list_id
        WHERE search_index MATCH ? AND items.completed_at IS NULL
        ORDER BY CASE WHEN substr(search_text.title, 1, 5) = char(1, 1) || ? THEN 0 WHEN instr(search_text.title, ?) > 0 THEN 1 ELSE 2 END,
          lists.sort_index, lists.id, items.sort_index, items.id
        LIMIT 20
        """

    func run(in directory: URL) async throws -> Measurement {
        var random = SeededRandomNumberGenerator(seed: seed ^ 0x5EA_4C4)
        let vocabulary = (0..<Self.vocabularySize).map { _ in
            String((0..<Int.random(in: 4...10, using: &random)).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement(using: &random)! })
        }
        func words(_ count: Int) -> String { (0..<count).map { _ in vocabulary.randomElement(using: &random)! }.joined(separator: " ") }
        func notes() -> String { String(words(40).prefix(Int.random(in: 0...200, using: &random))) }

        log("  loading \(Format.count(count)) items")
        let pool = try Backend.openPool(in: directory, named: "search")
        let repository = try SQLiteItemRepository(writer: pool)
        let lists = (0..<10).map { ItemList(name: "List \($0)", createdAt: BulkLoad.epoch, sortIndex: Int64($0) << 32) }
        let items = lists.flatMap { list in
            (0..<(count / 10)).map { index in
                Item(
                    id: Item.ID(using: &random), listID: list.id, title: words(Int.random(in: 3...8, using: &random)), notes: notes(),
                    sortIndex: BulkLoad.appendedKey(index), createdAt: BulkLoad.epoch)
            }
        }
        try await repository.write { transaction in
            for list in lists { try transaction.insert(list) }
            for item in items { try transaction.insert(item) }
        }
        // Items until none waits for the index's next batch, so that the bare statement, which
        // asks the FTS5 index alone, sees them all.
        while try await pool.read({ db in try Int.fetchOne(db, sql: "SELECT count(*) FROM search_pending") ?? 0 }) > 0 {
            let filler = Item(
                id: Item.ID(using: &random), listID: lists[9].id, title: words(Int.random(in: 3...8, using: &random)), notes: notes(),
                sortIndex: BulkLoad.appendedKey(count + 1), createdAt: BulkLoad.epoch)
            try await repository.write { try $0.insert(filler) }
        }
        let environment = try IntentEnvironment(repository: repository)
        let queries = (0..<rounds).map { _ in String(vocabulary.randomElement(using: &random)!.prefix(3)) }

        log("  search: \(rounds) queries, in turns with the bare statement")
        var matches: [Int] = []
        var (searchTimes, bareTimes): ([Double], [Double]) = ([], [])
        let clock = ContinuousClock()
        let warmUp = max(2, rounds / 10)
        for (round, query) in queries.enumerated() {
            let searchStart = clock.now
            let found = try await Search(query: query).perform(in: environment)
            let searched = clock.now - searchStart
            let bareStart = clock.now
            let bare = try await pool.read { db in try String.fetchAll(db, sql: Self.bareSQL, arguments: ["\"\(query)\"", query, query]) }
            let read = clock.now - bareStart
            guard found.items.map(\.item.id.text) == bare else {
                throw VerificationFailure(message: "Quick Find and the bare statement answer \(query) differently.")
            }
            matches.append(found.total)
            // The first rounds warm the caches up.
            if round >= warmUp {
                searchTimes.append(searched.nanoseconds)
                bareTimes.append(read.nanoseconds)
            }
        }

        log("  add: \(rounds) items with the index and without, in turns")
        let copyPath = Backend.databasePath(in: directory, named: "search-without-index")
        try await pool.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [copyPath]) }
        let bare = try DatabasePool(path: copyPath)
        try await bare.write { db in
            for trigger in ["items_search_insert", "items_search_update", "items_search_delete", "checklist_search_insert", "checklist_search_update", "checklist_search_delete"] {
                try db.execute(sql: "DROP TRIGGER \(trigger)")
            }
            try db.execute(sql: "DROP TABLE search_index; DROP TABLE search_indexed; DROP TABLE search_pending; DROP TABLE search_text")
        }
        let without = try IntentEnvironment(repository: try SQLiteItemRepository(writer: bare))
        let adds = (0..<rounds).map { _ in (title: words(Int.random(in: 3...8, using: &random)), notes: notes(), list: lists.randomElement(using: &random)!.id) }
        var (indexed, unindexed): ([Double], [Double]) = ([], [])
        for (round, add) in adds.enumerated() {
            for (target, times) in [(environment, 0), (without, 1)] {
                let start = clock.now
                _ = try await AddItem(title: add.title, list: add.list, notes: add.notes).perform(in: target)
                let elapsed = (clock.now - start).nanoseconds
                if round >= warmUp { if times == 0 { indexed.append(elapsed) } else { unindexed.append(elapsed) } }
            }
        }
        return Measurement(
            search: MedianRatio(searchTimes, over: bareTimes), matches: Int(Summary(matches.map(Double.init))?.median ?? 0),
            add: MedianRatio(indexed, over: unindexed), addMeans: (Summary(indexed)?.mean ?? .nan) / (Summary(unindexed)?.mean ?? .nan))
    }

    func text(_ measurement: Measurement) -> String {
        """
        | figure | ratio | target |
        |---|---|---|
        | `search` for a 3-letter word prefix, first 20 in Quick Find's ranking ÷ the bare statement on the same index (median \(Format.count(measurement.matches)) items matched; \(Format.figure(measurement.search.median / 1_000)) µs ÷ \(Format.figure(measurement.search.reference / 1_000)) µs) | \(Format.figure(measurement.search.value)) | ≤ 2 |
        | an `add` with the search index kept ÷ the same `add` with the index's tables and triggers dropped (\(Format.figure(measurement.add.median / 1_000)) µs ÷ \(Format.figure(measurement.add.reference / 1_000)) µs) | \(Format.figure(measurement.add.value)) | ≤ 1.3 |
        | the same, the means: every 64th add hands the texts waiting to the FTS5 index | \(Format.figure(measurement.addMeans)) | — |
        """
    }
}
