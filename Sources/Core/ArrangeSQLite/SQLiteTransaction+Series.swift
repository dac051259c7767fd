import ArrangeModel
import ArrangeStore
import Foundation
import GRDB

/// A row of the `series` table (from v29): a repeating series, its rule and its template.
///
/// The rule and the checklist are stored as the JSON their `Codable` forms write: a rule is
/// read whole, and never searched.
struct SeriesRecord: Hashable {
    var series: Series
}

extension SeriesRecord: FetchableRecord, PersistableRecord {
    static let databaseTableName = "series"

    /// The columns, in the order the table declares them.
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

    init(row: Row) throws {
        func value<Value: DatabaseValueConvertible>(_ column: Columns) throws -> Value {
            guard let value = Value.fromDatabaseValue(row[column.rawValue]) else {
                throw RowDecodingError(table: Self.databaseTableName, row: "\(column.rawValue) of \(String(describing: row["id"] as String?))")
            }
            return value
        }
        func json<Value: Decodable>(_ column: Columns, as type: Value.Type) throws -> Value {
            let text: String = try value(column)
            do {
                return try JSONDecoder().decode(type, from: Data(text.utf8))
            } catch {
                throw RowDecodingError(table: Self.databaseTableName, row: text)
            }
        }
        func day(_ text: String) throws -> Day {
            guard let day = try? Day(parsing: text) else { throw RowDecodingError(table: Self.databaseTableName, row: text) }
            return day
        }
        let reminder: String? = row[Columns.reminder.rawValue]
        series = Series(
            id: try value(.id), rule: try json(.rule, as: RepeatRule.self), start: try day(try value(.start)),
            madeThrough: try (row[Columns.madeThrough.rawValue] as String?).map(day), madeCount: try value(.madeCount),
            isPaused: try value(.paused), listID: try value(.listID),
            heading: row[Columns.heading.rawValue] as Heading.ID?, title: try value(.title), notes: try value(.notes),
            tags: (row[Columns.tags.rawValue] as String?).flatMap(TagIDs.tags) ?? [], checklist: try json(.checklist, as: [String].self),
            reminder: try reminder.map { text in
                guard let time = try? TimeOfDay(parsing: text) else { throw RowDecodingError(table: Self.databaseTableName, row: text) }
                return time
            },
            createdAt: Date(timeIntervalSince1970: try value(.createdAt)), updatedAt: Date(timeIntervalSince1970: try value(.updatedAt)))
    }

    func encode(to container: inout PersistenceContainer) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        container[Columns.id.rawValue] = series.id
        container[Columns.rule.rawValue] = String(decoding: try encoder.encode(series.rule), as: UTF8.self)
        container[Columns.start.rawValue] = series.start.description
        container[Columns.madeThrough.rawValue] = series.madeThrough?.description
        container[Columns.madeCount.rawValue] = series.madeCount
        container[Columns.paused.rawValue] = series.isPaused
        container[Columns.listID.rawValue] = series.listID
        container[Columns.heading.rawValue] = series.heading
        container[Columns.title.rawValue] = series.title
        container[Columns.notes.rawValue] = series.notes
        container[Columns.tags.rawValue] = TagIDs.text(series.tags)
        container[Columns.checklist.rawValue] = String(decoding: try encoder.encode(series.checklist), as: UTF8.self)
        container[Columns.reminder.rawValue] = series.reminder?.description
        container[Columns.createdAt.rawValue] = series.createdAt.timeIntervalSince1970
        container[Columns.updatedAt.rawValue] = series.updatedAt.timeIntervalSince1970
    }
}

extension SQLiteTransaction {
    func series(_ request: SeriesRequest) throws -> [Series] {
        try mapping {
            switch request {
            case .all: try SeriesRecord.fetchAll(db, sql: "SELECT * FROM series ORDER BY created_at, id").map(\.series)
            case .withID(let id): try SeriesRecord.fetchOne(db, key: id.text).map { [$0.series] } ?? []
            }
        }
    }
}
