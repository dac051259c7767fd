import ArrangeBenchSupport
import Foundation
import GRDB

/// The floor a move is measured against: a bare one-row `UPDATE` of an item's key and stamp, in
/// an `IMMEDIATE` transaction of its own, through GRDB on the connection the repository uses.
final class BareUpdate {
    private let writer: any DatabaseWriter
    /// The next key written: far from the loaded keys, and new every time, so that every
    /// update writes its page.
    private var key: Int64 = 1 << 61

    /// Updates through `writer`, the repository's own.
    init(_ writer: any DatabaseWriter) {
        self.writer = writer
    }

    /// A new key past every loaded key: the row goes to the end of the list, always the same
    /// page of the table, which is stored in list order.
    func endKey() -> Int64 {
        key += 1 << 32
        return key
    }

    /// Gives the item with this id `key`, and commits.
    func run(item id: String, key: Int64) throws {
        try writer.writeWithoutTransaction { db in
            try db.inTransaction(.immediate) {
                try db.cachedStatement(sql: "UPDATE items SET sort_index = ?, updated_at = ? WHERE id = ?")
                    .execute(arguments: [key, BulkLoad.epoch.timeIntervalSince1970, id])
                return .commit
            }
        }
    }
}
