import ArrangeModel
import ArrangeStore
import GRDB
import GRDBSQLite

/// What the last write transaction of a repository read, carried to the next one, so that it
/// need not read it again from the rows: the replica's state (``ReplicaStateCarry``), the lists'
/// shares.
///
/// It holds while nothing else wrote to the file in between: SQLite's data version of the file
/// (`SQLITE_FCNTL_DATA_VERSION`), which changes with every change to it, through this
/// connection or any other, is the one the transaction left. A transaction that rolls back
/// leaves nothing to carry.
final class CommitCarry<Value: Sendable>: Sendable {
    /// What one transaction hands the next: what it left, and the file's data version once it
    /// committed.
    private struct Carried: Sendable {
        var leftover: Value
        var dataVersion: UInt32
    }

    private let carried = Locked<Carried?>(nil)

    /// What the last transaction left, for a transaction that holds the write lock of `db`;
    /// `nil` when nothing is carried or the file changed since.
    func take(on db: Database) -> Value? {
        let last = carried.withLock { carried in
            defer { carried = nil }
            return carried
        }
        guard let last, let version = Self.dataVersion(of: db), version == last.dataVersion else { return nil }
        return last.leftover
    }

    /// Keeps what a transaction that committed on `db` leaves; nothing for `nil`.
    func keep(_ leftover: Value?, on db: Database) {
        let kept = leftover.flatMap { leftover in Self.dataVersion(of: db).map { Carried(leftover: leftover, dataVersion: $0) } }
        carried.withLock { $0 = kept }
    }

    /// The data version of the main database of `db`, which changes whenever the file changes;
    /// `nil` when SQLite cannot tell.
    static func dataVersion(of db: Database) -> UInt32? {
        var version: UInt32 = 0
        let status = withUnsafeMutablePointer(to: &version) { sqlite3_file_control(db.sqliteConnection, "main", SQLITE_FCNTL_DATA_VERSION, $0) }
        return status == SQLITE_OK ? version : nil
    }
}

/// The replica's state as the last write transaction of a repository left it, carried to the
/// next one (``CommitCarry``) with the position its next operation takes, so that a change that
/// logs need not read either again from the rows.
enum ReplicaStateCarry {
    /// What a transaction that committed leaves the next one.
    struct Leftover: Sendable {
        /// The replica's state (`nil` for a store that has none) as `replicaState()` reads it.
        var state: ReplicaState?
        /// Whether the replica's row may lag behind the last operation logged.
        var rowMayLag: Bool
        /// The position the next operation logged takes, when the transaction knew it.
        var nextLogPosition: Int64?
    }
}
