public import ArrangeStore

/// Logs the changes of a store that syncs through its sync engine, and leaves a store that has
/// never synced free of sync.
///
/// A front end that shares a file with others, as the command line shares it with an app,
/// gives its environment this log in place of the engine itself. A file that has never synced
/// stays a plain file, which an app without sync keeps writing to; once the file syncs (a first
/// exchange, a first file of operations, or an app that turns sync on), every change is logged,
/// as the engine logs it.
///
/// ```swift
/// let environment = try IntentEnvironment(repository: repository, sync: SyncedStoreChangeLog(SyncEngine(repository: repository)))
/// ```
///
/// The first sync carries everything the store holds: a store without a replica id logs its
/// lists, items and the rest as operations that create them before anything else.
public struct SyncedStoreChangeLog: ChangeLog {
    /// The engine that logs the changes of a store that syncs.
    public let engine: SyncEngine

    /// A log that logs through `engine` once its store syncs.
    public init(_ engine: SyncEngine) {
        self.engine = engine
    }

    /// Runs an intent's `body`, and logs what it records when the store syncs.
    ///
    /// - Throws: What `body` throws, and what ``SyncEngine/recording(in:_:)`` throws in a
    ///   store that syncs.
    /// - Complexity: One read of the replica's row, besides what the engine does.
    public func recording<Result>(in transaction: any ItemWriting, _ body: (ChangeJournal) throws -> Result) throws -> Result {
        guard let log = transaction.operationLog, try log.replicaState() != nil else {
            return try body(ChangeJournal(transaction: transaction) { _ in })
        }
        return try engine.recording(in: transaction, body)
    }
}
