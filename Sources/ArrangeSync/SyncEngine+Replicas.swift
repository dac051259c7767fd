public import ArrangeModel
public import ArrangeStore
import Foundation

/// A replica a store knows of: itself, one whose operations it holds, or one it has heard of
/// through an acknowledgement.
public struct ReplicaSummary: Hashable, Sendable {
    /// The replica's id.
    public var id: ReplicaID
    /// Whether it is this store.
    public var isThisDatabase: Bool
    /// The latest clock heard of it: its latest operation held here, or its last
    /// acknowledgement, whichever is later; `nil` when this store has neither.
    public var lastHeard: HLCTimestamp?
    /// What it said it held when it last acknowledged: for each replica, the sequence number up
    /// to which it held all of that replica's operations; `nil` when it never did.
    public var acknowledged: [ReplicaID: Int64]?
    /// Whether it keeps this store from folding operations away: it is another replica, and has
    /// not acknowledged every operation this store holds (or never acknowledged at all).
    public var holdsCompactionBack: Bool

    /// A summary of these parts.
    public init(id: ReplicaID, isThisDatabase: Bool, lastHeard: HLCTimestamp?, acknowledged: [ReplicaID: Int64]?, holdsCompactionBack: Bool) {
        self.id = id
        self.isThisDatabase = isThisDatabase
        self.lastHeard = lastHeard
        self.acknowledged = acknowledged
        self.holdsCompactionBack = holdsCompactionBack
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
        let held = try merged(in: log)
        var heard: [UUID: HLCTimestamp] = [:]
        func hear(_ replica: UUID, _ clock: HLCTimestamp) { heard[replica] = max(heard[replica] ?? clock, clock) }
        if let own { hear(own.id, own.lastClock) }
        for progress in try log.replicaProgresses() {
            hear(progress.replica, HLCTimestamp(milliseconds: progress.milliseconds, counter: UInt32(clamping: progress.counter)))
        }
        var acknowledgements: [UUID: Acknowledgement] = [:]
        for acknowledgement in try log.acknowledgements() {
            acknowledgements[acknowledgement.replica] = acknowledgement
            hear(acknowledgement.replica, HLCTimestamp(milliseconds: acknowledgement.milliseconds, counter: UInt32(clamping: acknowledgement.counter)))
        }
        var known = Set(heard.keys).union(held.keys)
        for acknowledgement in acknowledgements.values { known.formUnion(acknowledgement.merged.keys) }
        return known.map { replica in
            let acknowledgement = acknowledgements[replica]
            let isThis = replica == own?.id
            let lacking = acknowledgement.map { said in held.contains { said.merged[$0.key, default: 0] < $0.value } } ?? true
            return ReplicaSummary(
                id: ReplicaID(rawValue: replica), isThisDatabase: isThis, lastHeard: heard[replica],
                acknowledged: acknowledgement.map { Dictionary(uniqueKeysWithValues: $0.merged.map { (ReplicaID(rawValue: $0.key), $0.value) }) },
                holdsCompactionBack: !isThis && lacking)
        }
        .sorted { ($0.isThisDatabase ? 0 : 1, $0.id) < ($1.isThisDatabase ? 0 : 1, $1.id) }
    }
}
