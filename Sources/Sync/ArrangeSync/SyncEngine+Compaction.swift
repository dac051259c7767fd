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
/// A replica that was forgotten (`SyncChange.retireReplica(id:)`) holds nothing back. A
/// replica id that one line of its history left on finding another
/// (`SyncChange.leaveForkedReplica(id:)`) holds folds back until the other line leaves it too,
/// or for ``forkedReplicaGrace``. An operation a line of a forked id made, and that a new id
/// restated in place (`SyncChange.renumbering(of:change:)`), holds folds back until every
/// replica holds the renumbering: a store that had folded past its place when it took the
/// renumbering in makes it again later instead, and the others must still be able to take it
/// out of the order then.
///
/// What the operations did stays in the rows, with the tombstones; only the operations go.
/// A store that syncs with a remote that coordinates folding, as a server does, folds no
/// further than the remote announced it folded (``SyncRemoteState/coordinatesFolding``).
///
/// ## What comes later
/// An operation that sorts before what a store has folded away, from a replica no one had heard
/// of, cannot be slotted in there. The store makes its change again, after everything, as a
/// replacement of its own (`SyncChange.replacement(of:change:)`), and every replica applies the
/// replacement instead of the original; of several replacements of one operation, the first.
/// A store that lacks operations a peer has folded away takes the peer's snapshot: its rows and
/// log, into which it merges its own operations again (``adoptSnapshot(of:)``, ``adopt(_:)``).
extension SyncEngine {
    /// For each replica whose operations this store holds, the sequence number up to which it
    /// holds all of them, folded ones included.
    ///
    /// - Complexity: O(n) for n logged operations.
    public func merged(in transaction: any ItemReading) throws -> [UUID: Int64] {
        try heldLines(in: try Self.log(of: transaction)).merged
    }

    /// For each replica whose operations this store holds, the sequence number up to which it
    /// holds all of them, folded ones included, and the id of the operation it holds there.
    ///
    /// Where two databases that shared the replica id (a copy, a restored backup) made
    /// different operations under one sequence number and neither is replaced yet, the
    /// replica's line is told only up to the sequence number before.
    ///
    /// - Complexity: O(n) for n logged operations.
    func heldLines(in transaction: any LogReading) throws -> (merged: [UUID: Int64], tips: [UUID: UUID]) {
        let fold = try transaction.fold()
        var merged = try heldSequences(in: transaction)
        var tips: [UUID: UUID] = [:]
        for (replica, sequence) in merged where sequence > 0 {
            var through = sequence
            for forked in try transaction.forkedSequences(of: replica, above: 0) where forked <= through {
                guard try transaction.operationIDs(of: replica, at: forked).filter({ try !Self.isOffLine($0, in: transaction) }).count > 1 else { continue }
                through = forked - 1
                break
            }
            merged[replica] = through
            if let tip = try Self.lineOperation(of: replica, at: through, fold: fold, in: transaction) { tips[replica] = tip }
        }
        return (merged, tips)
    }

    /// For each replica whose operations this store holds, the sequence number up to which it
    /// holds an operation at every number, folded ones included, whichever line of the
    /// replica's history each is on.
    ///
    /// - Complexity: O(n) for n logged operations.
    func heldSequences(in transaction: any LogReading) throws -> [UUID: Int64] {
        var merged = try Self.merged(
            folded: try transaction.fold()?.covering ?? [:], replicas: try transaction.loggedReplicas(), sequences: transaction.loggedSequences(of:above:))
        // An operation kept without being applied is not held yet: nothing from it on is
        // acknowledged, and so nothing from it on is folded away anywhere.
        for logged in try transaction.unappliedOperations() {
            merged[logged.order.replica] = min(merged[logged.order.replica, default: 0], logged.order.sequence - 1)
        }
        return merged
    }

    /// The id of a replica's operation at a sequence number on the line this store holds: the
    /// one operation there, or the one not replaced.
    static func lineOperation(of replica: UUID, at sequence: Int64, fold: Fold?, in transaction: any LogReading) throws -> UUID? {
        let ids = try transaction.operationIDs(of: replica, at: sequence)
        guard ids.count > 1 else { return ids.first ?? (fold?.covering[replica] == sequence ? fold?.tips[replica] : nil) }
        let live = try ids.filter { try !isOffLine($0, in: transaction) }
        return live.count == 1 ? live[0] : nil
    }

    /// Whether an operation is off its replica's line: replaced, by a replacement logged or
    /// folded away, or renumbered (`SyncChange.renumbering(of:change:)`).
    static func isOffLine(_ id: UUID, in transaction: any LogReading) throws -> Bool {
        try !transaction.replacements(of: id).isEmpty || !transaction.foldedReplacements(of: id).isEmpty
    }

    /// The orders of the logged operations that replace an operation, first first: with
    /// `renumbering` false those that apply its change in their own place instead
    /// (`SyncChange.replacement(of:change:)`), with `renumbering` true its renumberings.
    static func replacements(of id: UUID, renumbering: Bool, in transaction: any LogReading) throws -> [OperationOrder] {
        try transaction.replacements(of: id).filter { order in
            guard let logged = try transaction.loggedOperation(id: order.id) else { return false }
            return try isRenumbering(logged) == renumbering
        }
    }

    /// Whether an operation was replaced by one that applies its change in its own place, logged
    /// or folded away. Renumberings are never folded away (``compact(in:)``), so a folded one is such.
    static func isReplacedInEffect(_ id: UUID, in transaction: any LogReading) throws -> Bool {
        try !replacements(of: id, renumbering: false, in: transaction).isEmpty || !transaction.foldedReplacements(of: id).isEmpty
    }

    /// Whether a logged operation is a renumbering.
    static func isRenumbering(_ logged: LoggedOperation) throws -> Bool {
        guard logged.replaces != nil else { return false }
        if case .renumbering = try SyncChange.decoding(logged.change) { return true }
        return false
    }

    /// Whether this store holds the operation `id`, logged or folded away.
    static func holds(_ id: UUID, in transaction: any LogReading) throws -> Bool {
        try transaction.loggedOperation(id: id) != nil || transaction.foldedOperation(id: id) != nil
    }

    /// Whether this store folded away the operation of `order`: it keeps who it was, or it was
    /// folded before folds kept that and its order is covered.
    static func isFolded(_ order: OperationOrder, fold: Fold?, in transaction: any LogReading) throws -> Bool {
        guard let fold else { return false }
        return try fold.coversBySequence(order) || transaction.foldedOperation(id: order.id) != nil
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
        let lines = try heldLines(in: transaction)
        let acknowledgement = Acknowledgement(
            replica: replica.id, milliseconds: replica.lastMilliseconds, counter: replica.lastCounter, merged: lines.merged, tips: lines.tips)
        try transaction.setAcknowledgement(acknowledgement)
        return acknowledgement
    }

    /// Records the acknowledgements another store has heard that are newer than this store's,
    /// except those in this store's own names (its replica, and its replicas of shared lists),
    /// which only it makes.
    func hear(_ acknowledgements: [Acknowledgement], in transaction: any LogWriting) throws {
        guard !acknowledgements.isEmpty else { return }
        let logs = try ReplicaLogs(in: transaction)
        var known: [UUID: Acknowledgement] = [:]
        for acknowledgement in try transaction.acknowledgements() { known[acknowledgement.replica] = acknowledgement }
        for acknowledgement in acknowledgements where !logs.isThisStore(acknowledgement.replica) {
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
        // Each log folds by its own replicas: the user's devices for the user's own log, and the
        // members' devices for a shared list's. This store speaks for its replicas in each.
        let logs = try ReplicaLogs(in: transaction)
        var acknowledgements: [UUID: Acknowledgement] = [:]
        for acknowledgement in try transaction.acknowledgements() { acknowledgements[acknowledgement.replica] = acknowledgement }
        var known = Set(acknowledgements.keys).union(own.merged.keys)
        for acknowledgement in acknowledgements.values { known.formUnion(acknowledgement.merged.keys) }
        // A replica that was forgotten holds nothing back; its operations still count as held
        // only when every other replica holds them. One that a line of its history left holds
        // folds back until a second leave or a retirement, or for the grace.
        let leaves = try Self.forkedLeaves(in: transaction)
        try retireLeftReplicas(leaves, in: transaction)
        let retired = Set(try transaction.replicaProgresses().filter(\.isRetired).map(\.replica))
        known.subtract(retired)
        let others = known.filter { !logs.isThisStore($0) }
        // Alone, a store has met no other: what it folded, a replica it meets later could not merge.
        guard !others.isEmpty else { return 0 }
        let previous = try transaction.fold()
        var heldByAll = own.merged
        var horizons: [ItemList.ID?: HLCTimestamp] = [:]
        for replica in others {
            guard let acknowledgement = acknowledgements[replica] else { return 0 }
            let log = logs.list(of: replica)
            for (other, sequence) in acknowledgement.merged where logs.list(of: other) == log && own.merged[other, default: 0] < sequence { return 0 }
            let clock = HLCTimestamp(milliseconds: acknowledgement.milliseconds, counter: UInt32(clamping: acknowledgement.counter))
            horizons[log] = min(horizons[log] ?? clock, clock)
        }
        for replica in Set(heldByAll.keys).union(known) {
            let log = logs.list(of: replica)
            // A log no other replica holds folds nothing more.
            guard horizons[log] != nil else {
                heldByAll[replica] = min(heldByAll[replica, default: 0], previous?.covering[replica] ?? 0)
                continue
            }
            for holder in others where logs.list(of: holder) == log {
                guard let acknowledgement = acknowledgements[holder] else { continue }
                heldByAll[replica] = min(heldByAll[replica, default: 0], try vouched(by: acknowledgement, for: replica, fold: previous, in: transaction))
            }
        }
        // A remote that coordinates folding (a server) decides how far its log goes: no further than it folded.
        for record in try transaction.remoteRecords() {
            guard let limit = record.foldLimit else { continue }
            for replica in heldByAll.keys where logs.list(of: replica) == record.list {
                heldByAll[replica] = min(heldByAll[replica, default: 0], limit[replica, default: 0])
            }
        }

        var forked: [UUID: Set<Int64>] = [:]
        for replica in try transaction.loggedReplicas() { forked[replica] = Set(try transaction.forkedSequences(of: replica, above: 0)) }
        var covering = previous?.covering ?? [:]
        var tips = previous?.tips ?? [:]
        var kept = Set<UUID>()
        var through: OperationOrder?
        var count: Int64 = 0
        walk: while true {
            // From the last order taken, which comes back first.
            let batch = try transaction.loggedOperations(from: through ?? .lowest, limit: 512)
            for logged in batch where logged.order != through {
                let order = logged.order
                guard logged.isReplayed, let horizon = horizons[logs.list(of: order.replica)], HLCTimestamp(order) <= horizon else { break walk }
                // Of two operations under one replica and sequence number, the one replaced is off
                // the replica's line: no acknowledgement speaks for it, so it stays logged.
                // A renumbering stays logged, as does the operation it renumbered where this store
                // knows the replica was left: no acknowledgement speaks for them, and each
                // carries the other's change to where it is missing.
                let isForked = forked[order.replica]?.contains(order.sequence) == true
                let isLeft = retired.contains(order.replica) || leaves[order.replica] != nil
                let isRenumbered = try isLeft && !Self.replacements(of: order.id, renumbering: true, in: transaction).isEmpty
                if try Self.isRenumbering(logged) || isRenumbered
                    || isForked && Self.isOffLine(order.id, in: transaction)
                    && Self.lineOperation(of: order.replica, at: order.sequence, fold: previous, in: transaction) != order.id {
                    // A renumbered operation in effect here: a store that takes its renumbering
                    // in with the operation sorting before its own fold makes it again later
                    // instead. That replacement takes it out of the order here, which needs
                    // what follows it logged: no fold passes it before every replica holds a
                    // renumbering of it.
                    if try !Self.isRenumbering(logged), try !Self.isReplacedInEffect(order.id, in: transaction),
                       try !Self.replacements(of: order.id, renumbering: true, in: transaction).contains(where: { $0.sequence <= heldByAll[$0.replica, default: 0] }) {
                        break walk
                    }
                    kept.insert(order.id)
                    through = order
                    continue
                }
                guard order.sequence <= heldByAll[order.replica, default: 0] else { break walk }
                through = order
                if order.sequence >= covering[order.replica, default: 0] {
                    covering[order.replica] = order.sequence
                    tips[order.replica] = order.id
                }
                count += 1
            }
            if batch.count < 512 { break }
        }
        guard let through, count > 0 else { return 0 }
        let fold = Fold(through: through, covering: covering, tips: tips, bySequence: previous?.bySequence ?? [:], count: (previous?.count ?? 0) + count)
        return try transaction.fold(fold, removingThrough: through, keeping: kept)
    }

    /// Retires, in this store alone, each replica id that lines of its history left on finding
    /// each other (`SyncChange.leaveForkedReplica(id:)`): one that two leaves name, or that
    /// one left ``forkedReplicaGrace`` ago or more, by this store's clock, the other line being
    /// gone or not having synced since.
    ///
    /// - Parameter leaves: The leaves logged (``forkedLeaves(in:)``).
    /// - Complexity: One read and at most one write of each left replica's progress.
    private func retireLeftReplicas(_ leaves: [UUID: ForkedLeaves], in transaction: any LogWriting) throws {
        let now = wallClockAndHorizon(correctedBy: try transaction.replicaState()?.clockOffset ?? 0).wall
        for (replica, leave) in leaves where leave.leavers.count > 1 || now - leave.since >= Self.forkedReplicaGrace {
            var progress = try transaction.replicaProgress(of: replica) ?? ReplicaProgress(replica: replica, sequence: 0, milliseconds: 0, counter: 0)
            guard !progress.isRetired else { continue }
            progress.isRetired = true
            try transaction.setReplicaProgress(progress)
        }
    }

    /// How long, in milliseconds, a replica id that one line of its history left on finding
    /// another (`SyncChange.leaveForkedReplica(id:)`) holds folds back at most: 30 days.
    ///
    /// The other line leaves the id as soon as it learns of the leave, and folds go on. A
    /// database restored from a backup leaves its id on finding what it had synced before; that
    /// other line is gone for good, and holds folds back for this long. A copy that syncs with
    /// no one for longer may find that others folded what it lacks: it takes a snapshot then,
    /// and nothing it made is lost. The time counts from the leave's clock, so a leave stamped
    /// ahead holds folds back that much longer.
    public static let forkedReplicaGrace: Int64 = 30 * 86_400_000

    /// The sequence number up to which an acknowledgement shows that its replica holds
    /// `replica`'s operations that this store holds: what it says, when this store holds the
    /// operation it names there on the same line; else no further than this store folded.
    private func vouched(by acknowledgement: Acknowledgement, for replica: UUID, fold: Fold?, in transaction: any LogReading) throws -> Int64 {
        let sequence = acknowledgement.merged[replica, default: 0]
        let folded = min(sequence, fold?.covering[replica] ?? 0)
        guard sequence > folded, let tip = acknowledgement.tips[replica] else { return folded }
        return try Self.lineOperation(of: replica, at: sequence, fold: fold, in: transaction) == tip ? sequence : folded
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
