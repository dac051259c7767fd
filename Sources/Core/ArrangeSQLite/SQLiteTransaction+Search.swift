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
        let byIndex = """
            SELECT search_text.item_id FROM \(SearchIndex.indexTable) JOIN \(SearchIndex.textTable) ON \(SearchIndex.textTable).id = \(SearchIndex.indexTable).rowid \
            WHERE \(SearchIndex.indexTable) MATCH ?
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
                WHERE \(open.isEmpty ? "" : "items.\(open)")\(SearchIndex.indexTable) MATCH ?
                """
        if !placed { arguments = [.value(SearchIndex.matchExpression(query.words).databaseValue)] }
        return try mapping {
            try Array(StatementRowCursor(db.makeStatement(sql: sql), binding: arguments) { try ItemRecord.item(sqliteStatement: $0) })
        }
    }

    /// A JSON array of strings that hold no character JSON escapes: ids.
    private static func jsonArray(_ ids: [String]) -> String {
        "[" + ids.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }
}
