import ArrangeModel
import Foundation
import GRDB

/// A record whose dates are stored as seconds since 1970-01-01 00:00:00 UTC, a `REAL`.
///
/// The number keeps any `Date` to within a microsecond, and a `Date` made from seconds since
/// 1970 (`Date(timeIntervalSince1970:)`) between 1985 and 2031 comes back exactly. It sorts
/// as time does and reads in SQL as `datetime(created_at, 'unixepoch', 'subsec')`.
protocol UnixTimeDates: EncodableRecord, FetchableRecord {}

extension UnixTimeDates {
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSince1970
    }

    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .timeIntervalSince1970
    }
}

/// A row of the `lists` table.
///
/// Records stay inside this module: the repository hands out ``ItemList`` values, never records.
struct ListRecord: Hashable {
    var id: ItemList.ID
    var name: String
    var createdAt: Date
}

extension ListRecord: Codable, FetchableRecord, PersistableRecord, UnixTimeDates {
    static let databaseTableName = "lists"

    enum CodingKeys: String, CodingKey {
        case id
        case name
        case createdAt = "created_at"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let createdAt = Column(CodingKeys.createdAt)
    }
}

extension ListRecord {
    /// The row that stores `list`.
    init(_ list: ItemList) {
        self.init(id: list.id, name: list.name, createdAt: list.createdAt)
    }

    /// The row as it reads back once written: its date through the stored number of seconds.
    var stored: ListRecord {
        ListRecord(id: id, name: name, createdAt: Date(timeIntervalSince1970: createdAt.timeIntervalSince1970))
    }

    /// The list this row stores.
    var list: ItemList {
        ItemList(id: id, name: name, createdAt: createdAt)
    }
}

/// A row of the `items` table.
struct ItemRecord: Hashable {
    var id: Item.ID
    var listID: ItemList.ID
    var title: String
    var notes: String
    var sortIndex: Int64
    var createdAt: Date
    var updatedAt: Date
    var completedAt: Date?
}

extension ItemRecord: Codable, FetchableRecord, PersistableRecord, UnixTimeDates {
    static let databaseTableName = "items"

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id
        case listID = "list_id"
        case title
        case notes
        case sortIndex = "sort_index"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case completedAt = "completed_at"
    }

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let listID = Column(CodingKeys.listID)
        static let title = Column(CodingKeys.title)
        static let notes = Column(CodingKeys.notes)
        static let sortIndex = Column(CodingKeys.sortIndex)
        static let createdAt = Column(CodingKeys.createdAt)
        static let updatedAt = Column(CodingKeys.updatedAt)
        static let completedAt = Column(CodingKeys.completedAt)
    }
}

extension ItemRecord {
    /// The columns every query of an item selects, in the order of ``CodingKeys``:
    /// `id, list_id, title, …`. Rows are read by these positions.
    static let selection = CodingKeys.allCases.map(\.stringValue).joined(separator: ", ")

    /// The query interface selects the same columns, in the same order.
    static var databaseSelection: [any SQLSelectable] { CodingKeys.allCases.map { Column($0) } }

    /// Reads a row selected as ``selection``, by position and without the cost of `Decodable`
    /// or of looking columns up by name: every read of an item comes here, and a page of 50
    /// items should cost little more than one write.
    ///
    /// - Throws: ``RowDecodingError`` when the row has other columns or an id is not a UUID.
    init(row: Row) throws {
        guard row.count == CodingKeys.allCases.count,
              let id = try row.withUnsafeData(atIndex: 0, { $0?.withUnsafeBytes(Item.ID.init(utf8:)) }),
              let listID = try row.withUnsafeData(atIndex: 1, { $0?.withUnsafeBytes(ItemList.ID.init(utf8:)) })
        else {
            throw RowDecodingError(table: Self.databaseTableName, row: row.description)
        }
        self.init(
            id: id, listID: listID, title: row[2], notes: row[3], sortIndex: row[4],
            createdAt: Date(timeIntervalSince1970: row[5]),
            updatedAt: Date(timeIntervalSince1970: row[6]),
            completedAt: (row[7] as Double?).map(Date.init(timeIntervalSince1970:)))
    }

    /// The row that stores `item`.
    init(_ item: Item) {
        self.init(
            id: item.id, listID: item.listID, title: item.title, notes: item.notes, sortIndex: item.sortIndex,
            createdAt: item.createdAt, updatedAt: item.updatedAt, completedAt: item.completedAt)
    }

    /// The item this row stores.
    var item: Item {
        Item(
            id: id, listID: listID, title: title, notes: notes, sortIndex: sortIndex,
            createdAt: createdAt, updatedAt: updatedAt, completedAt: completedAt)
    }

    /// The row as it reads back once written: each date through its stored number of seconds,
    /// which may differ from the `Date` in its last bits.
    var stored: ItemRecord {
        let stored = { (date: Date) in Date(timeIntervalSince1970: date.timeIntervalSince1970) }
        return ItemRecord(
            id: id, listID: listID, title: title, notes: notes, sortIndex: sortIndex,
            createdAt: stored(createdAt), updatedAt: stored(updatedAt), completedAt: completedAt.map(stored))
    }
}

extension ItemRecord {
    /// Inserts the row with one cached statement.
    ///
    /// `insert(_:)` of `PersistableRecord` runs the same SQL, but through GRDB's generic
    /// persistence path, which takes three times as long in a debug build; a bulk insert
    /// (an import, the tests' list of 100,000 items) runs this once an item.
    func insertRow(_ db: Database) throws {
        try db.cachedStatement(sql: Self.insertSQL).execute(arguments: StatementArguments(namedValues))
    }

    /// Saves every column of the row from a cached statement.
    ///
    /// - Throws: `RecordError.recordNotFound` when no row has the id.
    func updateRow(_ db: Database) throws {
        try updateRow(db, columns: Self.valueColumns)
    }

    /// Saves some columns of the row, from a statement cached for that set of columns.
    ///
    /// - Parameter columns: The columns to write, in ``CodingKeys`` order, not the id.
    /// - Throws: `RecordError.recordNotFound` when no row has the id.
    func updateRow(_ db: Database, columns: [CodingKeys]) throws {
        let values = namedValues
        var arguments: [String: (any DatabaseValueConvertible)?] = [CodingKeys.id.stringValue: values[CodingKeys.id.stringValue] ?? nil]
        for column in columns { arguments[column.stringValue] = values[column.stringValue] ?? nil }
        try db.cachedStatement(sql: Self.updateSQL(columns)).execute(arguments: StatementArguments(arguments))
        guard db.changesCount == 1 else { throw RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: ["id": id.text.databaseValue]) }
    }

    /// The columns whose stored values differ between this row and `original`, the same
    /// item's row as it was, in ``CodingKeys`` order; empty when the rows are alike.
    func columns(changedFrom original: ItemRecord) -> [CodingKeys] {
        let (new, old) = (namedValues, original.namedValues)
        return Self.valueColumns.filter { column in
            let key = column.stringValue
            return ((new[key] ?? nil)?.databaseValue ?? .null) != ((old[key] ?? nil)?.databaseValue ?? .null)
        }
    }

    /// Every column but the id, in ``CodingKeys`` order.
    private static let valueColumns = CodingKeys.allCases.filter { $0 != .id }

    /// `UPDATE items SET list_id = :list_id, … WHERE id = :id` for these columns. The text
    /// depends only on the set of columns, so each set is prepared once per connection.
    private static func updateSQL(_ columns: [CodingKeys]) -> String {
        let assignments = columns.map { "\($0.stringValue) = :\($0.stringValue)" }
        return "UPDATE \(databaseTableName) SET \(assignments.joined(separator: ", ")) WHERE id = :id"
    }

    /// `INSERT INTO items (id, list_id, …) VALUES (:id, :list_id, …)`, from the coding keys.
    private static let insertSQL: String = {
        let columns = CodingKeys.allCases.map(\.stringValue)
        let values = columns.map { ":" + $0 }
        return "INSERT INTO \(databaseTableName) (\(columns.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))"
    }()

    /// The row's values by column name, dates as ``UnixTimeDates`` stores them. A missing
    /// name makes the statement throw, so this cannot drift from the columns silently.
    private var namedValues: [String: (any DatabaseValueConvertible)?] {
        [
            CodingKeys.id.stringValue: id.text,
            CodingKeys.listID.stringValue: listID.text,
            CodingKeys.title.stringValue: title,
            CodingKeys.notes.stringValue: notes,
            CodingKeys.sortIndex.stringValue: sortIndex,
            CodingKeys.createdAt.stringValue: createdAt.timeIntervalSince1970,
            CodingKeys.updatedAt.stringValue: updatedAt.timeIntervalSince1970,
            CodingKeys.completedAt.stringValue: completedAt?.timeIntervalSince1970,
        ]
    }
}

/// A row whose values do not fit its record: an id that is not a UUID, say.
struct RowDecodingError: Error, CustomStringConvertible {
    var table: String
    var row: String

    var description: String { "a row of \(table) holds a value of the wrong form: \(row)" }
}
