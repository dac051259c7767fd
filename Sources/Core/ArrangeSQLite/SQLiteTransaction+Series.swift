import ArrangeModel
import ArrangeStore
import Foundation
import GRDB
import GRDBSQLite

/// A row of the `series` table (from v29): a repeating series, its rule and its template.
///
/// The rule and the checklist are stored as the JSON their `Codable` forms write: a rule is
/// read whole, and never searched. Rows are read by position and written by id, with cached
/// statements, as items are: a new day reads and writes one a to-do it makes.
enum SeriesRecord {
    static let databaseTableName = "series"

    /// The columns, in the order every read selects them and every write binds them.
    enum Columns: String, CaseIterable {
        case id, rule, start
        case madeThrough = "made_through"
        case madeCount = "made_count"
        case paused
        case listID = "list_id"
        case heading = "heading_id"
        case title, notes
        case tags = "tag_ids"
        case checklist, reminder
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// The columns every read of a series selects, in the order of ``Columns``.
    static let selection = Columns.allCases.map(\.rawValue).joined(separator: ", ")
    /// Every series, oldest first.
    static let allSQL = "SELECT \(selection) FROM series ORDER BY created_at, id"
    /// The series with an id.
    static let withIDSQL = "SELECT \(selection) FROM series WHERE id = ?"
    /// `INSERT INTO series (id, rule, …) VALUES (?, ?, …)`, from the columns.
    static let insertSQL = "INSERT INTO series (\(selection)) VALUES (\(Columns.allCases.map { _ in "?" }.joined(separator: ", ")))"
    /// `UPDATE series SET rule = ?, … WHERE id = ?`: every column but the id, then the id.
    static let updateSQL = "UPDATE series SET \(Columns.allCases.dropFirst().map { "\($0.rawValue) = ?" }.joined(separator: ", ")) WHERE id = ?"
    /// The update of what making a to-do changes: the dates made and the stamp.
    static let updateMadeSQL = "UPDATE series SET made_through = ?, made_count = ?, updated_at = ? WHERE id = ?"

    /// Whether `series` differs from `known`, as the store holds it, only in what making a
    /// to-do changes (``updateMadeSQL``), as a new day's to-dos and a completion change it.
    static func differsInMadeDatesOnly(_ series: Series, from known: Series) -> Bool {
        var made = known
        (made.madeThrough, made.madeCount, made.updatedAt) = (series.madeThrough, series.madeCount, series.updatedAt)
        return made == series
    }

    /// The arguments of ``updateMadeSQL``.
    static func madeArguments(of series: Series) -> [SQLiteArgument] {
        [
            series.madeThrough.map { .value($0.description.databaseValue) } ?? .value(.null), .integer(Int64(series.madeCount)),
            .real(series.updatedAt.timeIntervalSince1970), .id(series.id),
        ]
    }

    /// Each rule read or written, by its text, and its text: `JSONDecoder` and `JSONEncoder` cost
    /// more than the rest of a series' row, and a store holds few rules, read again and again.
    private static let rules = Locked<[String: RepeatRule]>([:])
    private static let texts = Locked<[RepeatRule: String]>([:])

    /// Keeps `rule` and its text for the next read or write, up to a thousand of each.
    private static func remember(_ rule: RepeatRule, as text: String) {
        rules.withLock { if $0.count >= 1_000 { $0 = [:] }; $0[text] = rule }
        texts.withLock { if $0.count >= 1_000 { $0 = [:] }; $0[rule] = text }
    }

    /// Reads the series of a row selected as ``selection``, by position.
    ///
    /// - Throws: ``RowDecodingError`` when a column does not hold what the table's rules say.
    static func series(sqliteStatement statement: SQLiteStatement) throws -> Series {
        func fail() -> RowDecodingError { RowDecodingError(table: databaseTableName, sqliteStatement: statement) }
        func text(_ index: CInt) -> String? {
            sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : String(sqliteStatement: statement, index: index)
        }
        func json<Value: Decodable>(_ text: String, as type: Value.Type) throws -> Value {
            guard let value = try? JSONDecoder().decode(type, from: Data(text.utf8)) else { throw fail() }
            return value
        }
        guard let id = Series.ID(sqliteStatement: statement, index: 0), let ruleText = text(1), let listID = ItemList.ID(sqliteStatement: statement, index: 6),
              case let hasHeading = sqlite3_column_type(statement, 7) != SQLITE_NULL,
              case let heading = hasHeading ? Heading.ID(sqliteStatement: statement, index: 7) : nil, heading != nil || !hasHeading,
              let start = try ItemRecord.day(statement, 2)
        else { throw fail() }
        let rule = try rules.withLock { $0[ruleText] } ?? json(ruleText, as: RepeatRule.self)
        remember(rule, as: ruleText)
        let checklist = text(11) ?? "[]"
        return Series(
            id: id, rule: rule, start: start, madeThrough: try ItemRecord.day(statement, 3), madeCount: Int(sqlite3_column_int64(statement, 4)),
            isPaused: sqlite3_column_int64(statement, 5) != 0, listID: listID, heading: heading, title: text(8) ?? "", notes: text(9) ?? "",
            tags: try text(10).map { text in
                guard let tags = TagIDs.tags(text) else { throw fail() }
                return tags
            } ?? [],
            checklist: checklist == "[]" ? [] : try json(checklist, as: [String].self), reminder: try ItemRecord.reminder(statement, 12),
            createdAt: Date(timeIntervalSince1970: sqlite3_column_double(statement, 13)), updatedAt: Date(timeIntervalSince1970: sqlite3_column_double(statement, 14)))
    }

    /// `series` as it reads back once written: its dates through their stored seconds.
    static func stored(_ series: Series) -> Series {
        var stored = series
        (stored.createdAt, stored.updatedAt) = (Date(timeIntervalSince1970: series.createdAt.timeIntervalSince1970), Date(timeIntervalSince1970: series.updatedAt.timeIntervalSince1970))
        return stored
    }

    /// The values of `series`' columns, in the order of ``Columns``.
    static func arguments(of series: Series) throws -> [SQLiteArgument] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let ruleText = try texts.withLock { $0[series.rule] } ?? String(decoding: try encoder.encode(series.rule), as: UTF8.self)
        remember(series.rule, as: ruleText)
        let text = { (value: String?) in SQLiteArgument.value(value?.databaseValue ?? .null) }
        return Columns.allCases.map { column in
            switch column {
            case .id: .id(series.id)
            case .rule: text(ruleText)
            case .start: text(series.start.description)
            case .madeThrough: text(series.madeThrough?.description)
            case .madeCount: .integer(Int64(series.madeCount))
            case .paused: .integer(series.isPaused ? 1 : 0)
            case .listID: .id(series.listID)
            case .heading: series.heading.map { .id($0) } ?? .value(.null)
            case .title: text(series.title)
            case .notes: text(series.notes)
            case .tags: text(TagIDs.text(series.tags))
            case .checklist: text(series.checklist.isEmpty ? "[]" : (try? encoder.encode(series.checklist)).map { String(decoding: $0, as: UTF8.self) } ?? "[]")
            case .reminder: text(series.reminder?.description)
            case .createdAt: .real(series.createdAt.timeIntervalSince1970)
            case .updatedAt: .real(series.updatedAt.timeIntervalSince1970)
            }
        }
    }
}

extension SQLiteTransaction {
    func series(_ request: SeriesRequest) throws -> [Series] {
        switch request {
        case .all:
            let every = try mapping { try Array(StatementRowCursor(db.cachedStatement(sql: SeriesRecord.allSQL), binding: [], read: SeriesRecord.series)) }
            for series in every { seriesCache[series.id] = series }
            return every
        case .withID(let id):
            if let known = seriesCache[id] { return known.map { [$0] } ?? [] }
            let read = try mapping { try Array(StatementRowCursor(db.cachedStatement(sql: SeriesRecord.withIDSQL), binding: [.id(id)], read: SeriesRecord.series)) }
            seriesCache[id] = .some(read.first)
            return read
        }
    }
}
