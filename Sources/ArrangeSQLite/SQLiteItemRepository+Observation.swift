public import ArrangeModel
public import ArrangeStore
import Foundation
import GRDB

extension SQLiteItemRepository {
    /// How often an observation of a database file looks for the commits of other
    /// connections and processes: each observation polls `PRAGMA data_version` on a read-only
    /// connection of its own this often.
    ///
    /// A commit of another repository or process on the same file therefore reaches an
    /// observation at most about this long after it lands, plus the time of one read of the
    /// observed value. A commit of this repository wakes its observations at once.
    public static let externalChangePollingInterval: Duration = .milliseconds(100)

    /// The items of a list seen under `visibility`, in display order: now, and again after
    /// every committed change that alters them.
    ///
    /// On a database file, the observation also sees the commits of other repositories and
    /// processes on the file, within ``externalChangePollingInterval`` plus a read; it holds a
    /// read-only connection to the file of its own, closed when the observation ends. On a
    /// database in memory, only this repository commits, and its commits are seen at once.
    ///
    /// - Complexity: Each commit costs one read of the whole list, O(n), and a comparison;
    ///   polling costs one `PRAGMA data_version` per interval.
    public func observeItems(in list: ItemList.ID, visibility: ItemVisibility) -> AsyncThrowingStream<[Item], any Error> {
        observe { try $0.items(in: list, visibility: visibility, offset: 0, limit: .max) }
    }

    /// Every list, in their order: now, and again after every committed change that alters
    /// them, whoever commits it, as ``observeItems(in:visibility:)`` sees changes.
    public func observeLists() -> AsyncThrowingStream<[ItemList], any Error> {
        observe { try $0.lists() }
    }

    /// The items in Today seen under `visibility`, in Today's order: now, and again after every
    /// committed change that alters them, whoever commits it, as ``observeItems(in:visibility:)`` sees changes.
    public func observeToday(visibility: ItemVisibility) -> AsyncThrowingStream<[Item], any Error> {
        observe { try $0.todayItems(visibility: visibility, offset: 0, limit: .max) }
    }

    /// Any value read from the store: now, and again after every committed change, whoever
    /// commits it, as ``observeItems(in:visibility:)`` sees changes; yielded when it differs
    /// from the last one yielded.
    ///
    /// - Parameter read: Reads the value, in a read transaction of its own each time.
    /// - Complexity: Each commit costs one run of `read` and a comparison; polling costs one
    ///   `PRAGMA data_version` per interval.
    public func observe<Value: Equatable & Sendable>(_ read: @escaping @Sendable (any ItemReading) throws -> Value) -> AsyncThrowingStream<Value, any Error> {
        commits.values(of: { try await self.read(read) }, polling: polling)
    }

    /// How an observation sees commits that this repository's notifier does not: for a file,
    /// a data-version counter on a connection of its own; for a database in memory, none.
    private var polling: ChangePolling? {
        guard isFile else { return nil }
        let path = path
        return ChangePolling(interval: Self.externalChangePollingInterval) { try DataVersionCounter(path: path) }
    }
}

/// The `PRAGMA data_version` of a read-only connection to a database file, which changes
/// whenever any other connection, of this process or another, commits to the file.
///
/// The connection never writes, so every commit is another connection's and changes the
/// count. Reading it is a small query in a read transaction of its own.
final class DataVersionCounter: ChangeCounter {
    private let queue: DatabaseQueue
    private let path: String

    /// Opens a read-only connection to the file at `path`.
    ///
    /// - Throws: ``StoreError`` when the file cannot be opened.
    init(path: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "Arrange.observation"
        self.path = path
        self.queue = try StoreError.mapping(path: path) { try DatabaseQueue(path: path, configuration: configuration) }
    }

    func changeCount() async throws -> Int64 {
        do {
            return try await queue.read { db in try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        } catch let error as DatabaseError {
            throw StoreError(error, path: path)
        }
    }

    func close() {
        // Closing fails only while statements are running, and the observation has ended.
        try? queue.close()
    }
}
