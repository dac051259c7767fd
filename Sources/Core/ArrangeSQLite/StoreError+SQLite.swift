import ArrangeStore
import GRDB

extension StoreError {
    /// The store error that stands for an error of SQLite about the database at `path`.
    ///
    /// | SQLite result | Store error |
    /// | --- | --- |
    /// | `SQLITE_NOTADB`, `SQLITE_CORRUPT`, `SQLITE_CANTOPEN` | ``StoreError/unusableDatabase(path:reason:)`` |
    /// | `SQLITE_READONLY`, `SQLITE_BUSY`, `SQLITE_LOCKED`, `SQLITE_FULL`, `SQLITE_IOERR`, others | ``StoreError/database(reason:)`` |
    ///
    /// Constraint failures that have a case of their own (a taken id, a missing list) are
    /// mapped where the statement runs, which knows the id; this is the fallback.
    init(_ error: DatabaseError, path: String) {
        let detail = Self.oneLine(error.message ?? "no message")
        switch error.resultCode {
        case .SQLITE_NOTADB:
            self = .unusableDatabase(path: path, reason: "the file is not a SQLite database.")
        case .SQLITE_CORRUPT:
            self = .unusableDatabase(path: path, reason: "the file is damaged (\(detail)).")
        case .SQLITE_CANTOPEN:
            self = .unusableDatabase(path: path, reason: "the file cannot be opened (\(detail)).")
        case .SQLITE_READONLY:
            self = .database(reason: "\(path) is read-only, so nothing can be saved (\(detail)).")
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            self = .database(
                reason: "\(path) stayed locked by another connection for longer than the busy timeout; try again.")
        case .SQLITE_FULL:
            self = .database(reason: "the disk that holds \(path) is full.")
        case .SQLITE_IOERR:
            self = .database(reason: "reading or writing \(path) failed (\(detail)).")
        case .SQLITE_PERM, .SQLITE_AUTH:
            self = .database(reason: "access to \(path) was denied (\(detail)).")
        case .SQLITE_CONSTRAINT:
            self = .database(reason: "a change broke a rule of the database at \(path) (\(detail)).")
        default:
            self = .database(reason: "SQLite error \(error.extendedResultCode.rawValue) on \(path) (\(detail)).")
        }
    }

    /// Runs `work`, turning the errors of SQLite and GRDB into store errors.
    ///
    /// Use it around code that throws only errors of the database: it maps every error
    /// that is not a ``StoreError`` already. An error that is neither a store error nor
    /// an error of SQLite is a row that does not decode, so the file is unusable.
    static func mapping<Result>(path: String, _ work: () throws -> Result) throws(StoreError) -> Result {
        do {
            return try work()
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw StoreError(error, path: path)
        } catch {
            throw .unusableDatabase(path: path, reason: "a row cannot be read (\(oneLine(String(describing: error)))).")
        }
    }

    /// `text` on one line, at most 200 characters long.
    static func oneLine(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count <= 200 ? line : line.prefix(199) + "…"
    }
}
