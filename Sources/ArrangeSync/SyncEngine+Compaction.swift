import ArrangeModel
public import ArrangeStore
public import Foundation

/// Compaction: the operations every known replica holds are folded away, and a store that lacks
/// some of them takes a snapshot instead.
///
/// ## When operations are folded
/// When two stores exchange operations, each records an `Acknowledgement`: its
/// clock, and for each replica the sequence number up to which it holds all of that replica's
/// operations. They pass on every acknowledgement they have heard, newest per replica. A store
/// folds away a prefix of its log, in the total order, once:
/// - it knows of at least one replica besides itself, and has an acknowledgement from every
///   replica it knows of (those whose operations it holds, or that an acknowledgement names);
/// - it holds every operation any of them said it holds;
/// - every folded operation is held by every one of them, was replayed here, and has a clock no
///   later than any of their acknowledgements, so that each one's next operation comes after it.
///
/// What the operations did stays in the rows, with the tombstones; only the operations go.
///
/// ## What comes later
/// An operation that sorts before what a store has folded away, from a replica no one had heard
/// of, cannot be slotted in there. The store makes its change again, after everything, as a
/// replacement of its own (``SyncChange/replacement(of:change:)``), and every replica applies the
/// replacement instead of the original; of several replacements of one operation, the first.
/// A store that lacks operations a peer has folded away takes the peer's snapshot: its rows and
/// log, into which it merges its own operations again (``adoptSnapshot(of:)``, ``adopt(_:)``).
extension SyncEngine {
    /// For each replica whose operations this store holds, the sequence number up to which it
    /// holds all of them, folded ones included.
    ///
    /// - Complexity: O(n) for n logged operations.
    public func merged(in transaction: any ItemReading) throws -> [UUID: Int64] {
        let transaction = try Self.log(of: transaction)
        var merged = try Self.merged(folded: try transaction.fold()?.covering ?? [:], replicas: try transaction.loggedReplicas(), sequences: transaction.loggedSequences(of:above:))
        // An operation kept without being applied is not held yet: nothing from it on is
        // acknowledged, and so nothing from it on is folded away anywhere.
        for logged in try transaction.unappliedOperations() {
            merged[logged.order.replica] = min(merged[logged.order.replica, default: 0], logged.order.sequence - 1)
        }
        return merged
    }

    /// For each replica, the sequence number up to which a fold `covering` these and a log hold
    /// all of its operations.
    ///
    /// - Parameters:
    ///   - covering: For each replica, the sequence number up to which its operations were folded.
    ///   - replicas: The replicas whose operations the log holds.
    ///   - sequences: The sequence numbers above a number of a replica's logged operations,
    ///     ascending, each once.
    static func merged(folded covering: [UUID: Int64], replicas: some Sequence<UUID>, sequences: (UUID, Int64) throws -> [Int64]) rethrows -> [UUID: Int64] {
        var merged = covering
        for replica in Set(replicas).union(covering.keys) {
            var through = merged[replica, default: 0]
            for sequence in try sequences(replica, through) {
                guard sequence == through + 1 else { break }
                through = sequence
            }
            merged[replica] = through
        }
        return merged
    }

    /// Records what this store says of itself now: its clock, and what it holds.
    func acknowledge(in transaction: any LogWriting) throws -> Acknowledgement {
        let replica = try preparedReplica(in: transaction)
        let acknowledgement = Acknowledgement(
            replica: replica.id, milliseconds: replica.lastMilliseconds, counter: replica.lastCounter, merged: try merged(in: transaction))
        try transaction.setAcknowledgement(acknowledgement)
        return acknowledgement
    }

    /// Records the acknowledgements another store has heard that are newer than this store's,
    /// except those in this store's own name, which only it makes.
    func hear(_ acknowledgements: [Acknowledgement], in transaction: any LogWriting) throws {
        let replica = try transaction.replicaState()?.id
        var known: [UUID: Acknowledgement] = [:]
        for acknowledgement in try transaction.acknowledgements() { known[acknowledgement.replica] = acknowledgement }
        for acknowledgement in acknowledgements where acknowledgement.replica != replica {
            if let old = known[acknowledgement.replica], (old.milliseconds, old.counter) >= (acknowledgement.milliseconds, acknowledgement.counter) { continue }
            try transaction.setAcknowledgement(acknowledgement)
        }
    }

    /// Folds away the operations that every replica this store knows of holds, as far as the
    /// rules of compaction allow (see the extension's documentation).
    ///
    /// - Returns: How many operations were folded away.
    /// - Complexity: O(k) for the k operations after the last fold, up to the first that cannot be folded.
    public func compact(in transaction: any ItemWriting) throws -> Int {
        let transaction = try Self.log(of: transaction)
        let own = try acknowledge(in: transaction)
        var acknowledgements: [UUID: Acknowledgement] = [:]
        for acknowledgement in try transaction.acknowledgements() { acknowledgements[acknowledgement.replica] = acknowledgement }
        var known = Set(acknowledgements.keys).union(own.merged.keys)
        for acknowledgement in acknowledgements.values { known.formUnion(acknowledgement.merged.keys) }
        // A replica that was forgotten holds nothing back; its operations still count as held
        // only when every other replica holds them.
        known.subtract(try transaction.replicaProgresses().filter(\.isRetired).map(\.replica))
        // Alone, a store has met no other: what it folded, a replica it meets later could not merge.
        guard known.count > 1 else { return 0 }
        var heldByAll = own.merged
        var horizon = HLCTimestamp(milliseconds: .max, counter: .max)
        for replica in known {
            guard let acknowledgement = acknowledgements[replica] else { return 0 }
            for (other, sequence) in acknowledgement.merged where own.merged[other, default: 0] < sequence { return 0 }
            for other in Set(heldByAll.keys).union(known) {
                heldByAll[other] = min(heldByAll[other, default: 0], acknowledgement.merged[other, default: 0])
            }
            horizon = min(horizon, HLCTimestamp(milliseconds: acknowledgement.milliseconds, counter: UInt32(clamping: acknowledgement.counter)))
        }

        let previous = try transaction.fold()
        var covering = previous?.covering ?? [:]
        var through: OperationOrder?
        var count: Int64 = 0
        walk: while true {
            // From the last order taken, which comes back first.
            let batch = try transaction.loggedOperations(from: through ?? .lowest, limit: 512)
            for logged in batch where logged.order != through {
                let order = logged.order
                guard logged.isReplayed, HLCTimestamp(order) <= horizon, order.sequence <= heldByAll[order.replica, default: 0] else { break walk }
                through = order
                covering[order.replica] = max(covering[order.replica, default: 0], order.sequence)
                count += 1
            }
            if batch.count < 512 { break }
        }
        guard let through else { return 0 }
        return try transaction.fold(Fold(through: through, covering: covering, count: (previous?.count ?? 0) + count), removingThrough: through)
    }

    /// Folds away what every known replica holds, in one write transaction, without blocking
    /// the caller's thread.
    ///
    /// - Returns: How many operations were folded away.
    public func compact() async throws -> Int {
        try await repository.write { try self.compact(in: $0) }
    }
}

extension OperationOrder {
    /// The first order of all.
    static let lowest: OperationOrder = {
        let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        return OperationOrder(milliseconds: .min, counter: .min, replica: zero, sequence: .min, id: zero)
    }()
}
