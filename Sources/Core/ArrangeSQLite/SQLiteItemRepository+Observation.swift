import ArrangeModel
public import ArrangeStore
import Foundation
import GRDB

extension SQLiteItemRepository {
    /// How often a repository on a database file looks for the commits of other connections
    /// and processes when it polls (``ExternalCommitDetection/polling(every:)``, and
    /// ``ExternalCommitDetection/fileEvents`` where the file cannot be watched): one
    /// `PRAGMA data_version` on the repository's writing connection, for all of its
    /// observations, while at least one runs.
    public static let externalChangePollingInterval: Duration = .milliseconds(150)

    /// How a repository on a database file learns of the commits that other connections and
    /// processes make to the file, for its observations. Its own commits wake them at once,
    /// whichever it is.
    ///
    /// By default (``fileEvents``) the repository watches its own `-wal` file while
    /// observations run, which every commit writes to: Dispatch's file-system source on Apple
    /// platforms, inotify on Linux. Idle observations cost nothing then. Where the file cannot
    /// be watched, it polls.
    ///
    /// Polling needs nothing from the platform, and costs a wake-up an interval while
    /// observations run. An app that hears of other processes' commits by events of its own (a
    /// Darwin notification its extensions post, say) says so with ``notified``, and passes
    /// each event on with ``SQLiteItemRepository/noteExternalCommit()``:
    ///
    /// ```swift
    /// // Apple platforms only: Dispatch's file-system events
    /// let repository = try SQLiteItemRepository(path: sharedPath, configuration: configuration, externalCommits: .notified)
    /// let wal = open(sharedPath + "-wal", O_EVTONLY)
    /// let events = DispatchSource.makeFileSystemObjectSource(fileDescriptor: wal, eventMask: [.write, .extend], queue: .global(qos: .utility))
    /// events.setEventHandler { repository.noteExternalCommit() }
    /// events.resume()
    /// ```
    ///
    /// Every commit to a file in WAL mode writes to its `-wal` file, so an event on it, from
    /// the app's own commits too, is a fine note: the repository reads `PRAGMA data_version`
    /// to tell another connection's commit from its own. A Darwin notification that the app's
    /// extensions post after they write serves as well.
    public enum ExternalCommitDetection: Sendable, Hashable {
        /// Reads `PRAGMA data_version` every `interval` while at least one observation runs, for
        /// all of them: another connection's commit reaches an observation at most about
        /// `interval` after it lands, plus one read of the observed value.
        case polling(every: Duration)
        /// Reads `PRAGMA data_version` only after the app calls
        /// ``SQLiteItemRepository/noteExternalCommit()``, 15 ms later and once for all the notes
        /// of that time, and never while nothing happens.
        case notified
        /// Reads `PRAGMA data_version` after each write to the database's `-wal` file, 15 ms
        /// later and once for all the writes of that time, as ``notified`` does after a note,
        /// while at least one observation runs; polls every
        /// ``SQLiteItemRepository/externalChangePollingInterval`` where the file cannot be watched.
        case fileEvents

        /// Events of the `-wal` file where the platform has them (``fileEvents``).
        public static let `default` = fileEvents

        /// How long the repository waits between two polls, when it polls; `nil` when it never does.
        var pollingInterval: Duration? {
            switch self {
            case .polling(let interval): interval
            case .notified: nil
            case .fileEvents: SQLiteItemRepository.externalChangePollingInterval
            }
        }
    }

    /// Tells the repository that another connection or process may have committed to its
    /// file: while observations run, it reads `PRAGMA data_version` shortly after (15 ms), once
    /// for all the notes of that time, and wakes them all if another connection did commit.
    ///
    /// Call it from whatever the app hears other processes' commits by; see
    /// ``ExternalCommitDetection``. Under polling it reads at once instead of at the next
    /// interval. On a database in memory it does nothing.
    ///
    /// - Complexity: At most one hop onto the writing connection per 15 ms while observations
    ///   run, however many notes come; a lock otherwise.
    public func noteExternalCommit() {
        otherConnections?.note()
    }

    /// The values an observation reads: now, and again after every committed change that may
    /// alter them, whoever commits it.
    ///
    /// A commit of this repository that changes what the read looks at wakes the observation
    /// at once; the observation of a list's items or of Today keeps them up to date from the
    /// changes of such a commit, as it signals them, with no read. A commit of another
    /// connection or process on the file is seen at the next poll or note
    /// (``ExternalCommitDetection``), and then every observation reads again: what it changed
    /// is not known. On a database in memory, only this repository commits.
    ///
    /// - Parameter observation: What to read, and how to keep it up to date.
    /// - Complexity: A commit that changes what the read looks at costs one run of the read and
    ///   a comparison, or the work of its changes for an observation that applies them; while
    ///   observations run, polling costs one `PRAGMA data_version` per interval, for all of
    ///   them, and a note one each.
    public func values<Value: Equatable & Sendable>(of observation: StoreObservation<Value>) -> AsyncThrowingStream<Value, any Error> {
        values(of: observation, through: commits, watching: otherConnections)
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
