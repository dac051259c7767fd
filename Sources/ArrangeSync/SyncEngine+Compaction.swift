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
/// log, into which it merges its own operations again (``adoptSnapshot(of:)``).
extension SyncEngine {
    /// For each replica whose operations this store holds, the sequence number up to which it
    /// holds all of them, folded ones included.
    ///
    /// - Complexity: O(n) for n logged operations.
    public func merged(in transaction: any ItemReading) throws -> [UUID: Int64] {
        let transaction = try Self.log(of: transaction)
        var merged = try transaction.fold()?.covering ?? [:]
        for replica in Set(try transaction.loggedReplicas()).union(merged.keys) {
            var through = merged[replica, default: 0]
            for sequence in try transaction.loggedSequences(of: replica, above: through) {
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
        // Alone, a store has met no other: what it folded, a replica it meets later could not merge.
        guard known.count > 1 else { return 0 }
        var heldByAll = own.merged
        var horizon = HLCTimestamp(milliseconds: .max, counter: .max)
        for replica in known {
            guard let acknowledgement = acknowledgements[replica] else { return 0 }
            for (other, sequence) in acknowledgement.merged where own.merged[other, default: 0] < sequence { return 0 }
            for other in known { heldByAll[other] = min(heldByAll[other, default: 0], acknowledgement.merged[other, default: 0]) }
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

    /// Makes this store a copy of `peer`'s rows and log when the peer has folded away operations
    /// this store lacks, then merges into it again this store's own operations that the peer's
    /// fold did not take in. The replica id, the acknowledgements and the cursors stay this store's.
    ///
    /// - Returns: The merge of this store's own operations into the snapshot, when it took one.
    /// - Throws: ``SyncError/foldedApart`` when this store has itself folded away operations
    ///   the peer lacks; nothing changes then.
    public func adoptSnapshot(of peer: SyncEngine) async throws -> MergeReport? {
        guard let theirs = try await peer.repository.read({ try Self.log(of: $0).fold() }) else { return nil }
        let (ours, merged) = try await repository.read { (try Self.log(of: $0).fold(), try self.merged(in: $0)) }
        guard theirs.covering.contains(where: { merged[$0.key, default: 0] < $0.value }) else { return nil }
        if let ours {
            let theirMerged = try await peer.repository.read { try peer.merged(in: $0) }
            guard !ours.covering.contains(where: { theirMerged[$0.key, default: 0] < $0.value }) else { throw SyncError.foldedApart }
        }
        let snapshot = try await peer.repository.read { try Snapshot(of: Self.log(of: $0)) }
        return try await repository.write { try self.adopt(snapshot, in: $0) }
    }

    private func adopt(_ snapshot: Snapshot, in transaction: any ItemWriting) throws -> MergeReport {
        let transaction = try Self.log(of: transaction)
        let own = try transaction.loggedOperations(afterPosition: 0, limit: .max).filter { !snapshot.fold.covers($0.order) }.map(SyncOperation.init)
        let defaultList = try transaction.defaultListID()
        for list in try transaction.lists() { try transaction.deleteList(id: list.id) }
        for tombstone in try transaction.tombstones() { try transaction.setTombstone(nil, of: tombstone.entry, in: tombstone.scope) }
        _ = try transaction.fold(snapshot.fold, removingThrough: max(try transaction.lastOperationOrder() ?? snapshot.fold.through, snapshot.fold.through))

        for list in snapshot.lists { try transaction.insert(list) }
        for item in snapshot.items { try transaction.insert(item) }
        for tombstone in snapshot.tombstones { try transaction.setTombstone(tombstone.sortIndex, of: tombstone.entry, in: tombstone.scope) }
        for logged in snapshot.log { _ = try transaction.log(logged) }
        for candidate in [defaultList, snapshot.defaultList].compactMap({ $0 }) where try transaction.list(id: candidate) != nil {
            try transaction.setDefaultListID(candidate)
            break
        }
        return try merge(own, in: transaction, fromOwnLog: true)
    }
}

/// A store's rows and log, as another store takes them when it lacks operations this one folded away.
struct Snapshot {
    var lists: [ItemList]
    var items: [Item]
    var tombstones: [Tombstone]
    /// The log, in the order operations reached the store.
    var log: [LoggedOperation]
    var fold: Fold
    var defaultList: ItemList.ID?

    init(of transaction: any LogReading) throws {
        lists = try transaction.lists()
        items = try lists.flatMap { try transaction.items(in: $0.id, visibility: .all, offset: 0, limit: .max) }
        tombstones = try transaction.tombstones()
        log = try transaction.loggedOperations(afterPosition: 0, limit: .max)
        fold = try transaction.fold() ?? Fold(through: .lowest, covering: [:], count: 0)
        defaultList = try transaction.defaultListID()
    }
}

extension OperationOrder {
    /// The first order of all.
    static let lowest: OperationOrder = {
        let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        return OperationOrder(milliseconds: .min, counter: .min, replica: zero, sequence: .min, id: zero)
    }()
}
