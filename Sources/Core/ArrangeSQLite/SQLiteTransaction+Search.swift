import ArrangeModel
import ArrangeStore
import Foundation
import GRDB

extension SQLiteTransaction {
    /// The items that match every word of `query` (``ItemRequest/matching(_:includeCompleted:)``),
    /// found through Quick Find's index (``SearchIndex``).
    ///
    /// A word matches an item in its title, notes or checklist through the index, or through
    /// the name of its list or the title of its heading, which are few and read whole: then the
    /// word finds the items of those lists and headings too.
    ///
    /// - Complexity: One FTS5 query for each word, and a read of every list and heading.
    func items(matching query: SearchQuery, includeCompleted: Bool) throws -> [Item] {
        guard !query.isEmpty else { return [] }
        let lists = try lists()
        let headings = try mapping {
            try Array(StatementRowCursor(db.cachedStatement(sql: "SELECT id, title FROM headings"), binding: []) { statement in
                (id: Heading.ID(sqliteStatement: statement, index: 0), title: String(sqliteStatement: statement, index: 1))
            })
        }
        let open = includeCompleted ? "" : "completed_at IS NULL AND "
        // The rows the FTS5 index holds as they are: not those waiting for its next batch.
        let indexed = "\(SearchIndex.indexTable).rowid NOT IN (SELECT id FROM \(SearchIndex.pendingTable))"
        let byIndex = """
            SELECT search_text.item_id FROM \(SearchIndex.indexTable) JOIN \(SearchIndex.textTable) ON \(SearchIndex.textTable).id = \(SearchIndex.indexTable).rowid \
            WHERE \(SearchIndex.indexTable) MATCH ? AND \(indexed)
            """
        var conditions: [String] = []
        var arguments: [SQLiteArgument] = []
        var placed = false
        for word in query.words {
            let inLists = lists.filter { SearchQuery.word(word, matchesAnyWordOf: $0.name) }.map(\.id.text)
            let underHeadings = headings.filter { SearchQuery.word(word, matchesAnyWordOf: $0.title) }.compactMap { $0.id?.text }
            var alternatives = ["id IN (\(byIndex))"]
            arguments.append(.value(SearchIndex.matchExpression([word]).databaseValue))
            if !inLists.isEmpty {
                alternatives.append("list_id IN (SELECT value FROM json_each(?))")
                arguments.append(.value(Self.jsonArray(inLists).databaseValue))
            }
            if !underHeadings.isEmpty {
                alternatives.append("heading_id IN (SELECT value FROM json_each(?))")
                arguments.append(.value(Self.jsonArray(underHeadings).databaseValue))
            }
            placed = placed || alternatives.count > 1
            conditions.append("(" + alternatives.joined(separator: " OR ") + ")")
        }
        // Most queries match through the index alone: one FTS5 query for every word, joined to
        // the items by the index of their ids.
        let sql = placed
            ? "SELECT \(ItemRecord.selection) FROM items WHERE \(open)\(conditions.joined(separator: " AND "))"
            : """
                SELECT \(ItemRecord.selection(of: "items")) FROM \(SearchIndex.indexTable) \
                JOIN \(SearchIndex.textTable) ON \(SearchIndex.textTable).id = \(SearchIndex.indexTable).rowid \
                JOIN items ON items.id = \(SearchIndex.textTable).item_id \
                WHERE \(open.isEmpty ? "" : "items.\(open)")\(SearchIndex.indexTable) MATCH ? AND \(indexed)
                """
        if !placed { arguments = [.value(SearchIndex.matchExpression(query.words).databaseValue)] }
        let found = try mapping {
            try Array(StatementRowCursor(db.makeStatement(sql: sql), binding: arguments) { try ItemRecord.item(sqliteStatement: $0) })
        }
        let names = Dictionary(headings.compactMap { heading in heading.id.map { ($0, heading.title) } }, uniquingKeysWith: { first, _ in first })
        let (waiting, matching) = try pendingItems(matching: query, includeCompleted: includeCompleted, listNames: lists, headingTitles: names)
        // A waiting item found through its list or heading is matched with the others waiting.
        return (waiting.isEmpty ? found : found.filter { !waiting.contains($0.id) }) + matching
    }

    /// The items whose texts wait for the FTS5 index's next batch, and match `query`: matched
    /// here, from their texts in `search_text`, by `SearchQuery`'s rule.
    ///
    /// - Complexity: O(``SearchIndex/batchSize``): at most that many wait.
    private func pendingItems(
        matching query: SearchQuery, includeCompleted: Bool, listNames lists: [ItemList], headingTitles: [Heading.ID: String]
    ) throws -> (waiting: Set<Item.ID>, matching: [Item]) {
        let waiting = try mapping {
            try Array(StatementRowCursor(db.cachedStatement(sql: Self.pendingTextsSQL), binding: []) { statement in
                (
                    id: Item.ID(sqliteStatement: statement, index: 0),
                    words: (1...3).flatMap { SearchIndex.words(ofIndexText: String(sqliteStatement: statement, index: $0)) }
                )
            })
        }
        guard !waiting.isEmpty else { return ([], []) }
        let names = Dictionary(lists.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let words = Dictionary(waiting.compactMap { row in row.id.map { ($0, row.words) } }, uniquingKeysWith: { first, _ in first })
        let matching = try items(withIDs: Array(words.keys)).filter { item in
            guard includeCompleted || !item.isCompleted else { return false }
            let place = [names[item.listID], item.heading.flatMap { headingTitles[$0] }].compactMap { $0 }.flatMap(SearchQuery.words(of:))
            return query.isMatched(byWords: (words[item.id] ?? []) + place)
        }
        return (Set(words.keys), matching)
    }

    /// The texts of the rows that wait for the FTS5 index's next batch, with their items' ids.
    static let pendingTextsSQL = """
        SELECT search_text.item_id, search_text.title, search_text.notes, search_text.checklist FROM \(SearchIndex.pendingTable) \
        JOIN \(SearchIndex.textTable) ON \(SearchIndex.textTable).id = \(SearchIndex.pendingTable).id
        """

    /// A JSON array of strings that hold no character JSON escapes: ids.
    private static func jsonArray(_ ids: [String]) -> String {
        "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }
}
