import ArrangeStore
import GRDB
import Synchronization

/// The replica's state as the last write transaction of a repository left it, carried to the
/// next one, so that a change that logs need not read it again from the rows.
///
/// It holds while nothing else wrote to the file in between: no other connection committed
/// (SQLite's `PRAGMA data_version` is unchanged) and the repository's own connection changed no
/// row outside its transactions (`sqlite3_total_changes` is unchanged). A transaction that
/// rolls back leaves nothing to carry.
final class ReplicaStateCarry: Sendable {
    /// What one transaction hands the next.
    struct Carried {
        /// The replica's state (`nil` for a store that has none) as `replicaState()` reads it.
        var state: ReplicaState?
        /// Whether the replica's row may lag behind the last operation logged.
        var rowMayLag: Bool
        /// The connection's `PRAGMA data_version` while the transaction held the write lock.
        var dataVersion: Int64
        /// The connection's count of rows changed, after the transaction committed.
        var totalChanges: Int
    }

    private let carried = Mutex<Carried?>(nil)

    /// What the last transaction left, for a transaction that starts with the connection's
    /// count of rows changed at `totalChanges`; `nil` when nothing is carried or this
    /// connection changed rows since.
    func take(atTotalChanges totalChanges: Int) -> Carried? {
        carried.withLock { carried in
            defer { carried = nil }
            return carried.flatMap { $0.totalChanges == totalChanges ? $0 : nil }
        }
    }

    /// Keeps what a transaction that committed leaves.
    func keep(_ leftover: Carried?) {
        carried.withLock { $0 = leftover }
    }
}
