public import ArrangeModel
public import GRDB
import GRDBSQLite

/// An identifier is stored as Arrange's tables store it: its lowercase canonical text
/// (`3f2a9c00-…`), not the 16-byte blob that GRDB gives a `UUID`.
///
/// An app's own tables that point at Arrange's rows can store and fetch ids directly:
///
/// ```swift
/// try db.execute(sql: "INSERT INTO tag (item_id, name) VALUES (?, ?)", arguments: [item.id, "errand"])
/// let tagged = try Item.ID.fetchAll(db, sql: "SELECT item_id FROM tag WHERE name = ?", arguments: ["errand"])
/// ```
extension Identifier: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue { text.databaseValue }

    /// The identifier a database value holds, when it is the text form of a UUID.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Identifier? {
        String.fromDatabaseValue(dbValue).flatMap(Identifier.init)
    }
}

/// A row's identifier is read from the statement's text in place: no `String`, no `Data`.
/// Reading ids dominated the cost of a page of items before.
extension Identifier: StatementColumnConvertible {
    /// Reads the text of the column at `index`, and fails unless it is a UUID in the canonical form.
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let text = sqlite3_column_text(sqliteStatement, index) else { return nil }
        let count = Int(sqlite3_column_bytes(sqliteStatement, index))
        self.init(utf8: UnsafeRawBufferPointer(start: text, count: count))
    }
}
