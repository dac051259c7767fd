import ArrangeModel
import ArrangeStore
import Foundation
import GRDB
import GRDBSQLite

/// A value read by column position from the row a statement stands on.
protocol StatementRow {
    /// Reads the row `statement` stands on.
    ///
    /// - Parameters:
    ///   - statement: A statement that has just stepped onto a row.
    ///   - table: The table the row comes from, for the error.
    /// - Throws: ``RowDecodingError`` when a column does not hold what the value needs.
    init(sqliteStatement statement: SQLiteStatement, table: String) throws
}

/// The rows of a statement, each read by position straight from SQLite.
///
/// GRDB's row cursors hand out a `Row` that maps every column name to its index, made anew
/// for each query, and its `StatementArguments` convert every value through generic code: for
/// a point read by id, both cost more than SQLite's own work. Reads that every move makes (an
/// item by id, an ordering's neighbours) come here instead, with their values bound as they
/// are. Stepping still goes through GRDB's `DatabaseCursor`, so the connection sees the
/// statement run as it sees any other.
final class StatementRowCursor<Element: StatementRow>: DatabaseCursor {
    let _statement: Statement
    var _isDone = false
    private let table: String

    /// Resets `statement`, binds `values` to its parameters in order, and reads the rows
    /// from `table` as `Element`s.
    ///
    /// - Throws: `DatabaseError` when the values do not fit the statement's parameters.
    init(_ statement: Statement, binding values: [DatabaseValue], table: String) throws {
        _statement = statement
        self.table = table
        try statement.bindAfresh(values)
    }

    deinit {
        // A cursor may stop before the last row: the statement then lets go of the snapshot.
        sqlite3_reset(_statement.sqliteStatement)
    }

    func _element(sqliteStatement: SQLiteStatement) throws -> Element {
        try Element(sqliteStatement: sqliteStatement, table: table)
    }
}

/// The steps of an update, which returns no rows.
private final class UpdateCursor: DatabaseCursor {
    typealias Element = Void
    let _statement: Statement
    var _isDone = false

    init(_ statement: Statement, binding values: [DatabaseValue]) throws {
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
    func execute(binding values: [DatabaseValue]) throws {
        try UpdateCursor(self, binding: values).forEach {}
    }

    /// Resets the statement and binds `values` to its parameters in order.
    ///
    /// - Throws: `DatabaseError` when the values do not fit the statement's parameters.
    fileprivate func bindAfresh(_ values: [DatabaseValue]) throws {
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

extension OrderEntry: StatementRow {
    /// Reads a row selected as `id, key, open`.
    init(sqliteStatement statement: SQLiteStatement, table: String) throws {
        guard let id = OrderEntry.ID(sqliteStatement: statement, index: 0) else {
            throw RowDecodingError(table: table, sqliteStatement: statement)
        }
        self.init(id: id, sortIndex: sqlite3_column_int64(statement, 1), isOpen: sqlite3_column_int64(statement, 2) != 0)
    }
}
