import ArrangeModel
import Foundation
import GRDB
import GRDBSQLite

/// The rows of a statement, each read by position straight from SQLite.
///
/// GRDB's row cursors hand out a `Row` that maps every column name to its index, made anew
/// for each query, and its `StatementArguments` convert every value through generic code: for
/// a point read by id, both cost more than SQLite's own work. The reads of items and of an
/// ordering's entries come here instead, with their values bound as they are. Stepping still
/// goes through GRDB's `DatabaseCursor`, so the connection sees the statement run as it sees
/// any other.
final class StatementRowCursor<Element>: DatabaseCursor {
    let _statement: Statement
    var _isDone = false
    private let read: (SQLiteStatement) throws -> Element

    /// Resets `statement`, binds `values` to its parameters in order, and reads each row with `read`.
    ///
    /// - Parameters:
    ///   - statement: A cached statement of the connection.
    ///   - values: One value for each parameter.
    ///   - read: Reads the row the statement stands on.
    /// - Throws: `DatabaseError` when the values do not fit the statement's parameters.
    init(_ statement: Statement, binding values: [SQLiteArgument], read: @escaping (SQLiteStatement) throws -> Element) throws {
        _statement = statement
        self.read = read
        try statement.bindAfresh(values)
    }

    deinit {
        // A cursor may stop before the last row: the statement then lets go of the snapshot.
        sqlite3_reset(_statement.sqliteStatement)
    }

    func _element(sqliteStatement: SQLiteStatement) throws -> Element {
        try read(sqliteStatement)
    }
}

/// The steps of an update, which returns no rows.
private final class UpdateCursor: DatabaseCursor {
    typealias Element = Void
    let _statement: Statement
    var _isDone = false

    init(_ statement: Statement, binding values: [SQLiteArgument]) throws {
        _statement = statement
        try statement.bindAfresh(values)
    }

    func _element(sqliteStatement: SQLiteStatement) {}
}

extension Statement {
    /// Executes an update with `values` bound to its parameters in order: `execute(arguments:)`
    /// without converting them through `StatementArguments`, for the updates every move makes.
    ///
    /// - Throws: `DatabaseError` when the values do not fit or SQLite fails.
    func execute(binding values: [SQLiteArgument]) throws {
        try UpdateCursor(self, binding: values).forEach {}
    }

    /// Resets the statement and binds `values` to its parameters in order.
    ///
    /// - Throws: `DatabaseError` when the values do not fit the statement's parameters.
    fileprivate func bindAfresh(_ values: [SQLiteArgument]) throws {
        sqlite3_reset(sqliteStatement)
        sqlite3_clear_bindings(sqliteStatement)
        guard sqlite3_bind_parameter_count(sqliteStatement) == values.count else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments: \(values.count)", sql: sql)
        }
        for (index, value) in zip(CInt(1)..., values) {
            let code = value.bind(to: sqliteStatement, at: index)
            guard code == SQLITE_OK else {
                throw DatabaseError(
                    resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(sqliteStatement))), sql: sql)
            }
        }
    }
}

/// A value to bind to a statement's parameter, as the reads and writes of every move bind
/// them: an id as its text, written on the stack, and a number as it is, with no `String` or
/// `DatabaseValue` made for either.
enum SQLiteArgument {
    case integer(Int64)
    case real(Double)
    /// A UUID, bound as the tables store ids: its lowercase text.
    case uuid(UUID)
    /// Text already in UTF-8 bytes, such as the log's JSON: bound as text, with no `String` made.
    case utf8(Data)
    /// Any other value, bound as GRDB binds it.
    case value(DatabaseValue)

    /// An identifier, bound as the tables store it: its lowercase text.
    static func id<Subject>(_ identifier: Identifier<Subject>) -> SQLiteArgument {
        .uuid(identifier.rawValue)
    }

    /// Binds the value to the parameter at `index` (from 1) of `statement`.
    ///
    /// - Returns: SQLite's result code.
    func bind(to statement: SQLiteStatement, at index: CInt) -> CInt {
        switch self {
        case .integer(let value):
            sqlite3_bind_int64(statement, index, value)
        case .real(let value):
            sqlite3_bind_double(statement, index, value)
        case .uuid(let uuid):
            uuid.withLowercasedUTF8 { text in
                text.withMemoryRebound(to: CChar.self) { text in
                    sqlite3_bind_text(statement, index, text.baseAddress, CInt(text.count), sqliteTransient)
                }
            }
        case .utf8(let text):
            text.withUnsafeBytes { bytes in
                // SQLite binds a null pointer as NULL: empty text is bound as an empty string.
                guard let start = bytes.baseAddress else { return sqlite3_bind_text(statement, index, "", 0, nil) }
                return sqlite3_bind_text(statement, index, start.assumingMemoryBound(to: CChar.self), CInt(bytes.count), sqliteTransient)
            }
        case .value(let value):
            value.bind(to: statement, at: index)
        }
    }
}

/// SQLite's `SQLITE_TRANSIENT`: SQLite copies the value before the bind returns, as a value
/// written on the stack needs.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension RowDecodingError {
    /// The error for the row `statement` stands on, with its values as GRDB would show them.
    init(table: String, sqliteStatement statement: SQLiteStatement) {
        let values = (0..<sqlite3_column_count(statement)).map { index in
            let name = String(cString: sqlite3_column_name(statement, index))
            return "\(name):\(DatabaseValue(sqliteStatement: statement, index: index))"
        }
        self.init(table: table, row: "[\(values.joined(separator: " "))]")
    }
}

extension OrderKey {
    /// Reads a row selected as `id, key` from `table`.
    ///
    /// - Throws: ``RowDecodingError`` when the id is not a UUID.
    init(sqliteStatement statement: SQLiteStatement, table: String) throws {
        guard let id = OrderEntry.ID(sqliteStatement: statement, index: 0) else {
            throw RowDecodingError(table: table, sqliteStatement: statement)
        }
        self.init(sortIndex: sqlite3_column_int64(statement, 1), id: id)
    }
}

extension OrderEntry {
    /// Reads a row selected as `id, key, open, trashed` from `table`.
    ///
    /// - Throws: ``RowDecodingError`` when the id is not a UUID.
    init(sqliteStatement statement: SQLiteStatement, table: String) throws {
        guard let id = OrderEntry.ID(sqliteStatement: statement, index: 0) else {
            throw RowDecodingError(table: table, sqliteStatement: statement)
        }
        self.init(
            id: id, sortIndex: sqlite3_column_int64(statement, 1), isOpen: sqlite3_column_int64(statement, 2) != 0,
            isTrashed: sqlite3_column_int64(statement, 3) != 0)
    }
}
