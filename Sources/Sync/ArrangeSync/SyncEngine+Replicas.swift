public import ArrangeModel
public import ArrangeStore
import Foundation

/// A replica a store knows of: itself, one whose operations it holds, or one it has heard of
/// through an acknowledgement.
public struct ReplicaSummary: Hashable, Sendable {
    /// The replica's id.
    public var id: ReplicaID
    /// Whether it is this store: its own replica, or its replica of a list shared with it
    /// (``SyncEngine/sharedReplica(of:under:)``).
    public var isThisDatabase: Bool
    /// The latest clock heard of it: its latest operation held here, or its last
    /// acknowledgement, whichever is later; `nil` when this store has neither.
    public var lastHeard: HLCTimestamp?
    /// What it said it held when it last acknowledged: for each replica, the sequence number up
    /// to which it held all of that replica's operations; `nil` when it never did.
    public var acknowledged: [ReplicaID: Int64]?
    /// Whether it keeps this store from folding operations away: it is another replica, not
    /// forgotten, and has not acknowledged every operation this store holds of its log, the
    /// user's own or a shared list's (or never acknowledged at all).
    public var holdsCompactionBack: Bool
    /// Whether it was forgotten (``SyncEngine/forget(_:)``), here or on a device this store heard from.
    public var isForgotten: Bool

    /// A summary of these parts.
    public init(
        id: ReplicaID, isThisDatabase: Bool, lastHeard: HLCTimestamp?, acknowledged: [ReplicaID: Int64]?, holdsCompactionBack: Bool,
        isForgotten: Bool = false
    ) {
        self.id = id
        self.isThisDatabase = isThisDatabase
        self.lastHeard = lastHeard
        self.acknowledged = acknowledged
        self.holdsCompactionBack = holdsCompactionBack
        self.isForgotten = isForgotten
    }
}

extension SyncEngine {
    /// Every replica this store knows of, this store first, then by id.
    ///
    /// - Complexity: O(n) for n logged operations.
    public func replicas() async throws -> [ReplicaSummary] {
        try await repository.read { try self.replicas(in: $0) }
    }

    /// Every replica the store of `transaction` knows of, this store first, then by id.
    public func replicas(in transaction: any ItemReading) throws -> [ReplicaSummary] {
        let log = try Self.log(of: transaction)
        let own = try log.replicaState()
        let logs = try ReplicaLogs(in: log)
        let held = try merged(in: log)
        var heard: [UUID: HLCTimestamp] = [:]
        func hear(_ replica: UUID, _ clock: HLCTimestamp) { heard[replica] = max(heard[replica] ?? clock, clock) }
        if let own { hear(own.id, own.lastClock) }
        let progresses = try log.replicaProgresses()
        for progress in progresses where progress.milliseconds > 0 || progress.counter > 0 {
            hear(progress.replica, HLCTimestamp(milliseconds: progress.milliseconds, counter: UInt32(clamping: progress.counter)))
        }
        let forgotten = Set(progresses.filter(\.isRetired).map(\.replica))
        var acknowledgements: [UUID: Acknowledgement] = [:]
        for acknowledgement in try log.acknowledgements() {
            acknowledgements[acknowledgement.replica] = acknowledgement
            hear(acknowledgement.replica, HLCTimestamp(milliseconds: acknowledgement.milliseconds, counter: UInt32(clamping: acknowledgement.counter)))
        }
        var known = Set(heard.keys).union(held.keys).union(forgotten)
        for acknowledgement in acknowledgements.values { known.formUnion(acknowledgement.merged.keys) }
        return known.map { replica in
            let acknowledgement = acknowledgements[replica]
            let isThis = logs.isThisStore(replica)
            // Of what its own log holds: a member of a shared list holds nothing of the user's own.
            let log = logs.list(of: replica)
            let lacking = acknowledgement.map { said in held.contains { logs.list(of: $0.key) == log && said.merged[$0.key, default: 0] < $0.value } } ?? true
            return ReplicaSummary(
                id: ReplicaID(rawValue: replica), isThisDatabase: isThis, lastHeard: heard[replica],
                acknowledged: acknowledgement.map { Dictionary(uniqueKeysWithValues: $0.merged.map { (ReplicaID(rawValue: $0.key), $0.value) }) },
                holdsCompactionBack: !isThis && !forgotten.contains(replica) && lacking, isForgotten: forgotten.contains(replica))
        }
        .sorted { ($0.id.rawValue == own?.id ? 0 : $0.isThisDatabase ? 1 : 2, $0.id) < ($1.id.rawValue == own?.id ? 0 : $1.isThisDatabase ? 1 : 2, $1.id) }
    }

    /// Forgets a replica that is gone (a lost phone, a database retired after a restore or a
    /// copy), so that it no longer holds compaction back: logs an operation that retires it, which
    /// every replica learns as it learns any other. Its operations stay. Should it come back, it
    /// is taken for a replica that returns after a fold: it takes a snapshot where it lacks what
    /// was folded, its late changes are made again, and it carries on under a new id.
    ///
    /// - Parameter replica: The replica, one ``replicas()`` lists.
    /// - Returns: The operation logged, or `nil` when the replica was forgotten already.
    /// - Throws: ``SyncError/cannotForgetThisDatabase`` for this store's own replica,
    ///   ``SyncError/unknownReplica`` for one this store does not know of.
    @discardableResult
    public func forget(_ replica: ReplicaID) async throws -> SyncOperation? {
        let listed = try await replicas()
        guard let summary = listed.first(where: { $0.id == replica }) else { throw SyncError.unknownReplica }
        guard !summary.isThisDatabase else { throw SyncError.cannotForgetThisDatabase }
        guard !summary.isForgotten else { return nil }
        return try await repository.write { try self.perform(.retireReplica(id: replica), in: $0) }
    }
}
