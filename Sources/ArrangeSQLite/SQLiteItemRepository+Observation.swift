import ArrangeModel
public import ArrangeStore
import Foundation
import GRDB

extension SQLiteItemRepository {
    /// How often a repository on a database file looks for the commits of other connections
    /// and processes, while at least one of its observations runs: one `PRAGMA data_version`
    /// on the repository's writing connection, for all of its observations.
    ///
    /// A commit of another repository or process on the same file therefore reaches an
    /// observation at most about this long after it lands, plus the time of one read of the
    /// observed value. A commit of this repository wakes its observations at once.
    public static let externalChangePollingInterval: Duration = .milliseconds(150)

    /// Any value read from the store: now, and again after every committed change that may
    /// alter it, whoever commits it.
    ///
    /// A commit of this repository that changes what the read looks at wakes the observation
    /// at once. A commit of another connection or process on the file is seen within
    /// ``externalChangePollingInterval``, and then every observation reads again: what it
    /// changed is not known. On a database in memory, only this repository commits.
    ///
    /// - Parameter read: Reads the value, in a read transaction of its own each time.
    /// - Complexity: A commit that changes what the read looks at costs one run of `read` and
    ///   a comparison; while observations run, polling costs one `PRAGMA data_version` per
    ///   interval, for all of them.
    public func observe<Value: Equatable & Sendable>(_ read: @escaping @Sendable (any ItemReading) throws -> Value) -> AsyncThrowingStream<Value, any Error> {
        commits.values(of: { try await self.readNotingRegions(read) }, watching: otherConnections)
    }
}

/// The `PRAGMA data_version` of a repository's writing connection, which changes whenever
/// another connection, of this process or another, commits to the file; the repository's
/// own commits leave it as it is.
struct DataVersionCounter: ChangeCounter {
    let writer: any DatabaseWriter
    let path: String

    func changeCount() async throws -> Int64 {
        do {
            return try await writer.writeWithoutTransaction { db in try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        } catch let error as DatabaseError {
            throw StoreError(error, path: path)
        }
    }
}
