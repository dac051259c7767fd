package import ArrangeModel
package import Foundation

/// The place of an operation in the one order every replica applies operations in: by clock
/// (milliseconds, then counter), then replica, then sequence number, then id.
///
/// The id only breaks a tie that a copied database can make: two files that share a replica
/// id can each make an operation with the same clock and sequence number.
package struct OperationOrder: Hashable, Comparable, Sendable {
    /// Milliseconds of the operation's hybrid logical clock.
    package var milliseconds: Int64
    /// The counter of its hybrid logical clock.
    package var counter: Int64
    /// The replica that made it.
    package var replica: UUID
    /// Its number among that replica's operations.
    package var sequence: Int64
    /// Its own id.
    package var id: UUID

    /// An order of these parts.
    package init(milliseconds: Int64, counter: Int64, replica: UUID, sequence: Int64, id: UUID) {
        self.milliseconds = milliseconds
        self.counter = counter
        self.replica = replica
        self.sequence = sequence
        self.id = id
    }

    package static func < (lhs: Self, rhs: Self) -> Bool {
        if (lhs.milliseconds, lhs.counter) != (rhs.milliseconds, rhs.counter) {
            return (lhs.milliseconds, lhs.counter) < (rhs.milliseconds, rhs.counter)
        }
        if lhs.replica != rhs.replica { return Identifier<Self>(rawValue: lhs.replica) < Identifier<Self>(rawValue: rhs.replica) }
        if lhs.sequence != rhs.sequence { return lhs.sequence < rhs.sequence }
        return Identifier<Self>(rawValue: lhs.id) < Identifier<Self>(rawValue: rhs.id)
    }
}

/// An operation as a store keeps it in its log.
///
/// The store keeps what sync hands it and orders it; what the operation means, and how to take
/// it back, is sync's to encode and read.
package struct LoggedOperation: Hashable, Sendable {
    /// Where the operation is in the total order; its `id` is the operation's.
    package var order: OperationOrder
    /// The change, as sync encodes it.
    package var change: Data
    /// How to take back what applying the operation did to the store, as sync encodes it.
    package var rewind: Data
    /// Whether the merge applied it, with the keys every replica computes, rather than the
    /// intent that made it here, with keys of its own.
    package var isReplayed: Bool
    /// When it reached this store: 1 for the first operation logged, then on without gaps
    /// until operations are folded away; a position is never given twice.
    /// The store sets it when the operation is logged.
    package var position: Int64
    /// The id of the operation this one replaces, when it is a replacement: the store finds
    /// replacements by it (``OperationLogReading/replacements(of:)``).
    package var replaces: UUID?
    /// The operation as it arrived from elsewhere, byte for byte, when that holds what sync does
    /// not read (a field, or a kind of change, of a newer version): it is passed on as it came.
    package var original: Data?
    /// Whether its change is of a kind this version does not know, so that the merge kept it
    /// without applying it (``OperationLogReading/unappliedOperations()``).
    package var isUnapplied: Bool

    /// An operation to log; the store gives it its ``position``.
    package init(
        order: OperationOrder, change: Data, rewind: Data, isReplayed: Bool, replaces: UUID? = nil,
        original: Data? = nil, isUnapplied: Bool = false, position: Int64 = 0
    ) {
        self.order = order
        self.change = change
        self.rewind = rewind
        self.isReplayed = isReplayed
        self.replaces = replaces
        self.original = original
        self.isUnapplied = isUnapplied
        self.position = position
    }

    /// The operation's id.
    package var id: UUID { order.id }
}

/// This store as a replica of sync: its id, and how far its own operations have got.
package struct ReplicaState: Hashable, Sendable {
    /// The replica's id.
    package var id: UUID
    /// The sequence number of its last operation; 0 before the first.
    package var lastSequence: Int64
    /// The milliseconds of its last operation's clock.
    package var lastMilliseconds: Int64
    /// The counter of its last operation's clock.
    package var lastCounter: Int64
    /// The milliseconds added to the system clock to tell the time by: 0 while the system clock
    /// is right, else the correction the last remote that tells the time gave. It stays with
    /// the store when the store takes a new replica id.
    package var clockOffset: Int64

    /// A replica of this id whose last operation had this sequence number and clock, on a
    /// system clock corrected by `clockOffset` milliseconds.
    package init(id: UUID, lastSequence: Int64 = 0, lastMilliseconds: Int64 = 0, lastCounter: Int64 = 0, clockOffset: Int64 = 0) {
        self.id = id
        self.lastSequence = lastSequence
        self.lastMilliseconds = lastMilliseconds
        self.lastCounter = lastCounter
        self.clockOffset = clockOffset
    }
}

/// What a store keeps for a remote it syncs with (another store, a server): how far it has
/// read the remote's operations, how far the remote has taken this store's, and, for a remote
/// that coordinates folding, how far the remote has folded.
///
/// Positions come with the id of the operation found there, so that sync can check a cursor
/// before it trusts it: a copy of a file, or a file restored from a backup, holds another
/// operation at the position, or none.
package struct RemoteRecord: Hashable, Sendable {
    /// The remote's identity, as it names itself.
    package var remote: String
    /// Where the next read of the remote's operations starts: the remote's own cursor, which
    /// only it reads; `nil` for the start.
    package var pullCursor: String?
    /// The position in this store's log of the last operation the remote has taken, 0 for none.
    package var pushPosition: Int64
    /// The id of the operation at ``pushPosition``.
    package var pushOperation: UUID?
    /// For a remote that coordinates folding, for each replica, the sequence number up to which
    /// the remote announced it folded: this store folds no further. `nil` for another remote.
    package var foldLimit: [UUID: Int64]?
    /// The shared list whose log the remote holds; `nil` for the user's own log. Its
    /// ``foldLimit`` holds for that log's replicas alone.
    package var list: ItemList.ID?

    /// A record of `remote`, read from the start both ways.
    package init(
        remote: String, pullCursor: String? = nil, pushPosition: Int64 = 0, pushOperation: UUID? = nil, foldLimit: [UUID: Int64]? = nil,
        list: ItemList.ID? = nil
    ) {
        self.remote = remote
        self.pullCursor = pullCursor
        self.pushPosition = pushPosition
        self.pushOperation = pushOperation
        self.foldLimit = foldLimit
        self.list = list
    }
}

/// What a replica said of itself when it last met another: its clock then, and how far it had
/// merged each replica's operations.
package struct Acknowledgement: Hashable, Sendable {
    /// The replica that said it.
    package var replica: UUID
    /// The milliseconds of its hybrid logical clock then: every operation it makes after
    /// comes later.
    package var milliseconds: Int64
    /// The counter of its clock then.
    package var counter: Int64
    /// For each replica it knew of, the sequence number up to which it held every one of that
    /// replica's operations.
    package var merged: [UUID: Int64]
    /// For each replica in ``merged``, the id of the operation it held at that sequence number:
    /// two databases that share a replica id (a copy, a restored backup) make different
    /// operations under one sequence number, and the id tells which one was held. Missing in
    /// what a replica said before ids were recorded.
    package var tips: [UUID: UUID]

    /// What `replica` said at the clock `milliseconds` and `counter`, having merged `merged`
    /// up to the operations `tips`.
    package init(replica: UUID, milliseconds: Int64, counter: Int64, merged: [UUID: Int64], tips: [UUID: UUID] = [:]) {
        self.replica = replica
        self.milliseconds = milliseconds
        self.counter = counter
        self.merged = merged
        self.tips = tips
    }
}

/// The operations a store has folded away: operations up to ``through``, in the total order,
/// of a replica named in ``covering``, up to the sequence number it gives.
///
/// What they did stays in the store's rows; of each operation, only who it was stays
/// (``FoldedOperation``), so that another operation under the same replica and sequence
/// number, from a copied or restored database, is still told apart from it.
package struct Fold: Hashable, Sendable {
    /// The last operation folded, in the total order.
    package var through: OperationOrder
    /// For each replica, the sequence number up to which its operations are folded.
    package var covering: [UUID: Int64]
    /// For each replica in ``covering``, the id of its operation folded at that sequence number.
    package var tips: [UUID: UUID]
    /// For each replica, the sequence number up to which operations were folded before folds
    /// kept who each operation was (migration v8): those are told by sequence number alone.
    package var bySequence: [UUID: Int64]
    /// How many operations have been folded, all folds together.
    package var count: Int64

    /// A fold up to `through` of the operations `covering` names, ending at `tips`, `count` in all.
    package init(through: OperationOrder, covering: [UUID: Int64], tips: [UUID: UUID] = [:], bySequence: [UUID: Int64] = [:], count: Int64) {
        self.through = through
        self.covering = covering
        self.tips = tips
        self.bySequence = bySequence
        self.count = count
    }

    /// Whether an operation was folded before folds kept who each operation was, as far as
    /// its order tells: the store keeps no ``FoldedOperation`` for those.
    package func coversBySequence(_ order: OperationOrder) -> Bool {
        order <= through && order.sequence <= bySequence[order.replica, default: 0]
    }
}

/// Who an operation that a store folded away was: enough to know it again, and what it replaced.
package struct FoldedOperation: Hashable, Sendable {
    /// The operation's id.
    package var id: UUID
    /// The replica that made it.
    package var replica: UUID
    /// Its number among that replica's operations.
    package var sequence: Int64
    /// The id of the operation it replaced, when it was a replacement.
    package var replaces: UUID?

    /// The operation `id`, number `sequence` of `replica`, which replaced `replaces`.
    package init(id: UUID, replica: UUID, sequence: Int64, replaces: UUID? = nil) {
        self.id = id
        self.replica = replica
        self.sequence = sequence
        self.replaces = replaces
    }
}

/// How far this store holds another replica's operations: every one up to ``sequence`` is
/// logged here or folded away, and ``milliseconds`` and ``counter`` are the clock of the latest
/// it holds. The merge keeps it, so that it knows at once which operations come after a gap.
package struct ReplicaProgress: Hashable, Sendable {
    /// The replica.
    package var replica: UUID
    /// The sequence number up to which this store holds every one of the replica's operations.
    package var sequence: Int64
    /// The milliseconds of the clock of the latest of its operations held here.
    package var milliseconds: Int64
    /// The counter of that clock.
    package var counter: Int64
    /// Whether the replica was forgotten: it no longer holds compaction back.
    package var isRetired: Bool
    /// The shared list whose log holds the replica's operations; `nil` for the user's own log.
    ///
    /// Sync learns it from where the replica's operations and acknowledgements came from, and
    /// sets it for this store's own replicas of its shared lists, so that each operation goes
    /// back only to its own log.
    package var list: ItemList.ID?

    /// Every operation of `replica` up to `sequence` held, the latest at this clock, in the log
    /// of the shared `list` or the user's own.
    package init(replica: UUID, sequence: Int64, milliseconds: Int64, counter: Int64, isRetired: Bool = false, list: ItemList.ID? = nil) {
        self.replica = replica
        self.sequence = sequence
        self.milliseconds = milliseconds
        self.counter = counter
        self.isRetired = isRetired
        self.list = list
    }
}

/// Where an entry was in an ordering when it last left it.
package struct Tombstone: Hashable, Sendable {
    /// The entry.
    package var entry: OrderEntry.ID
    /// The ordering it left.
    package var scope: OrderScope
    /// Its key there.
    package var sortIndex: Int64

    /// `entry` left `scope` from `sortIndex`.
    package init(entry: OrderEntry.ID, scope: OrderScope, sortIndex: Int64) {
        self.entry = entry
        self.scope = scope
        self.sortIndex = sortIndex
    }
}

/// A read of the operations a store keeps: those in its log, and those held back after a gap.
package enum OperationRequest: Hashable, Sendable {
    /// The logged operation with this id.
    case withID(UUID)
    /// Up to `limit` logged operations from this order on (the order included), in the total order.
    case from(OperationOrder, limit: Int)
    /// Up to `limit` logged operations that reached this store after this position, in the order they reached it.
    case afterPosition(Int64, limit: Int)
    /// The logged operations of a replica at a sequence number: more than one when databases
    /// that shared the replica id made different operations.
    case numbered(UUID, sequence: Int64)
    /// The logged operations whose change the merge kept without applying it, in the total order.
    case unapplied
    /// The operations held back because an operation of their replica before them is missing,
    /// in no particular order: kept, neither logged nor applied, until the gap is filled.
    case held
}

/// A read of the places of logged operations in the total order, which a backend may answer
/// from its index of that order alone.
package enum OperationOrderRequest: Hashable, Sendable {
    /// The last logged operation in the total order.
    case last
    /// The earliest logged operation, in the total order, that the merge has not replayed.
    ///
    /// The operations the merge has not replayed are the last ones logged: a merge replays
    /// every operation it does not take back, so stores may look for them from the end.
    case firstUnreplayed
    /// The logged operations that replace the operation with this id, in the total order.
    case replacing(UUID)
    /// For each replica with operations in the log, its logged operation with the highest
    /// sequence number, in no particular order.
    case latestOfEachReplica
}

/// A record a store keeps beside its operations, for sync.
package enum LogRecord: Hashable, Sendable {
    /// This store as a replica.
    case replicaState(ReplicaState)
    /// What this store keeps for a remote it syncs with.
    case remote(RemoteRecord)
    /// A replica's latest acknowledgement.
    case acknowledgement(Acknowledgement)
    /// How far this store holds another replica's operations.
    case progress(ReplicaProgress)
    /// Where an entry was in an ordering when it last left it.
    case tombstone(Tombstone)
    /// The operations folded away.
    case fold(Fold)
    /// Who an operation folded away was.
    case folded(FoldedOperation)
}

/// A read of the records a store keeps beside its operations, in no particular order.
package enum LogRecordRequest: Hashable, Sendable {
    /// This store as a replica, once sync has given it an id.
    case replicaState
    /// What this store keeps for every remote it has synced with.
    case remotes
    /// What this store keeps for the remote with this name.
    case remote(String)
    /// The latest acknowledgement of each replica this store has heard from, itself included.
    case acknowledgements
    /// How far this store holds each other replica's operations.
    case progresses
    /// How far this store holds the operations of this replica, another than itself.
    case progress(UUID)
    /// Every tombstone.
    case tombstones
    /// The tombstone of an entry in an ordering.
    case tombstone(OrderEntry.ID, in: OrderScope)
    /// The operations folded away, once any have been.
    case fold
    /// Every operation folded away that this store knows by id (since migration v8).
    case foldedOperations
    /// The operation folded away with this id.
    case foldedOperation(UUID)
    /// The operations folded away that replaced the operation with this id.
    case foldedReplacements(of: UUID)
    /// The operations folded away of a replica at a sequence number.
    case foldedNumbered(UUID, sequence: Int64)
}

/// A read of a replica's sequence numbers, ascending, each once.
package enum SequenceRequest: Hashable, Sendable {
    /// The sequence numbers above `sequence` of a replica's logged operations.
    case logged(UUID, above: Int64)
    /// The sequence numbers above `sequence` at which a replica has more than one operation,
    /// logged or folded away.
    case forked(UUID, above: Int64)
}

/// One write to the records of the log: what ``OperationLogWriting/write(_:)`` does.
package enum LogChange: Hashable, Sendable {
    /// Records this store as a replica, in place of what was recorded.
    case replicaState(ReplicaState)
    /// Records how an operation was applied: how to take it back, whether the merge applied
    /// it, and whether it kept it without applying it (a change of a kind this version does
    /// not know).
    case rewind(Data, isReplayed: Bool, isUnapplied: Bool, ofOperation: UUID)
    /// Remembers the key an entry had in an ordering it left, or forgets it (`nil`).
    case tombstone(Int64?, of: OrderEntry.ID, in: OrderScope)
    /// Records what this store keeps for a remote, in place of what was recorded for it.
    case remote(RemoteRecord)
    /// Records a replica's acknowledgement, in place of what was recorded for it.
    case acknowledgement(Acknowledgement)
    /// Records how far this store holds another replica's operations, in place of what was recorded.
    case progress(ReplicaProgress)
    /// Keeps an operation held back after a gap; one held already is kept as it is.
    case hold(LoggedOperation)
    /// Forgets held operations, once they are logged.
    case release([UUID])
    /// Replaces what this store keeps of the operations it folded away: for a store that takes
    /// another store's snapshot, and its fold with it.
    case replaceFolded([FoldedOperation])
}

/// What sync reads of a store in a transaction: this store as a replica, its log of
/// operations, and where entries that left an ordering were.
///
/// The log is a capability a backend's transactions adopt on top of ``ItemReading``, and sync
/// finds it by asking a transaction for it (``ItemWriting/operationLog``). Every backend that
/// adopts it passes the log's conformance suite.
///
/// As ``ItemReading`` does, it requires a few reads that take a request value, one for each
/// kind of answer; the queries sync calls (``loggedOperation(id:)``, ``replicaState()``,
/// ``tombstone(of:in:)``…) are built on them in an extension, once for every backend. A
/// backend answers each request its own fastest way, in its `switch` over the request.
package protocol OperationLogReading: ItemReading {
    /// The operations a request describes, in the order it gives.
    ///
    /// - Complexity: From an order, O(log n + k) for k operations returned.
    func operations(_ request: OperationRequest) throws -> [LoggedOperation]

    /// The orders of the logged operations a request describes, in the order it gives.
    ///
    /// - Complexity: O(log n) for the last, and the first not replayed once the k operations
    ///   logged after the last one replayed are scanned.
    func orders(_ request: OperationOrderRequest) throws -> [OperationOrder]

    /// The records a request describes, in no particular order.
    func records(_ request: LogRecordRequest) throws -> [LogRecord]

    /// The sequence numbers a request describes, ascending, each once.
    func sequences(_ request: SequenceRequest) throws -> [Int64]
}

/// What sync writes to a store, in the transaction of the change it records.
///
/// ``write(_:)`` takes every write to the log's records as a ``LogChange``; ``setReplicaState(_:)``,
/// ``setTombstone(_:of:in:)`` and the others are built on it in an extension.
///
/// ## Implementation requirements
/// A store that has a replica id (``OperationLogReading/replicaState()``) syncs, and none of its
/// lists and items may change without being logged: a write transaction that changes them and
/// was never told ``markChangesLogged()`` is refused when it would commit, with
/// ``StoreError/unloggedChange``, and rolls back. Writes to the log alone, and the default
/// list (a setting of each store), need no mark.
package protocol OperationLogWriting: OperationLogReading, ItemWriting {
    /// Says that the changes of this transaction are logged, so that it may commit in a store
    /// that syncs.
    func markChangesLogged()

    /// Adds an operation to the log and returns its ``LoggedOperation/position``.
    ///
    /// - Throws: ``StoreError/duplicateOperation(_:)`` when an operation with its id is logged already.
    func log(_ operation: LoggedOperation) throws -> Int64

    /// Removes the logged operations up to `order` in the total order, `order` included,
    /// except those `kept`, keeps who each removed operation was (``FoldedOperation``), and
    /// records `fold` as what has been folded. Positions of removed operations are not given again.
    ///
    /// - Returns: How many operations were removed.
    func fold(_ fold: Fold, removingThrough order: OperationOrder, keeping kept: Set<UUID>) throws -> Int

    /// Writes one change to the log's records.
    ///
    /// - Throws: ``StoreError/operationNotFound(_:)`` for the rewind of an operation not logged.
    func write(_ change: LogChange) throws
}

extension OperationLogReading {
    /// This store as a replica, once sync has given it an id.
    package func replicaState() throws -> ReplicaState? {
        try records(.replicaState).lazy.compactMap(\.replicaState).first
    }

    /// The logged operation with this id.
    package func loggedOperation(id: UUID) throws -> LoggedOperation? {
        try operations(.withID(id)).first
    }

    /// Logged operations from `order` on (`order` included), in the total order.
    ///
    /// - Complexity: O(log n + k) for k operations returned.
    package func loggedOperations(from order: OperationOrder, limit: Int) throws -> [LoggedOperation] {
        try operations(.from(order, limit: limit))
    }

    /// Logged operations that reached this store after `position`, in the order they reached it.
    package func loggedOperations(afterPosition position: Int64, limit: Int) throws -> [LoggedOperation] {
        try operations(.afterPosition(position, limit: limit))
    }

    /// The order of the last operation in the total order.
    package func lastOperationOrder() throws -> OperationOrder? {
        try orders(.last).first
    }

    /// The earliest operation, in the total order, that the merge has not replayed.
    package func firstUnreplayedOperation() throws -> OperationOrder? {
        try orders(.firstUnreplayed).first
    }

    /// The logged operations that replace the operation `id`, in the total order.
    package func replacements(of id: UUID) throws -> [OperationOrder] {
        try orders(.replacing(id))
    }

    /// The replicas whose operations are in the log.
    package func loggedReplicas() throws -> [UUID] {
        try orders(.latestOfEachReplica).map(\.replica)
    }

    /// The operations whose change the merge kept without applying it, in the total order.
    package func unappliedOperations() throws -> [LoggedOperation] {
        try operations(.unapplied)
    }

    /// The operations held back because an operation of their replica before them is missing,
    /// in no particular order: kept, neither logged nor applied, until the gap is filled.
    package func heldOperations() throws -> [LoggedOperation] {
        try operations(.held)
    }

    /// The ids of a replica's operations at a sequence number, logged or folded away: more
    /// than one when databases that shared the replica id made different operations.
    package func operationIDs(of replica: UUID, at sequence: Int64) throws -> [UUID] {
        try operations(.numbered(replica, sequence: sequence)).map(\.id)
            + records(.foldedNumbered(replica, sequence: sequence)).compactMap(\.folded?.id)
    }

    /// The sequence numbers above `sequence` of a replica's logged operations, ascending, each once.
    package func loggedSequences(of replica: UUID, above sequence: Int64) throws -> [Int64] {
        try sequences(.logged(replica, above: sequence))
    }

    /// The sequence numbers above `sequence` at which a replica has more than one operation,
    /// logged or folded away, ascending.
    package func forkedSequences(of replica: UUID, above sequence: Int64) throws -> [Int64] {
        try sequences(.forked(replica, above: sequence))
    }

    /// The key an entry had in an ordering when it last left it, deleted or moved away.
    package func tombstone(of entry: OrderEntry.ID, in scope: OrderScope) throws -> Int64? {
        try records(.tombstone(entry, in: scope)).lazy.compactMap(\.tombstone).first?.sortIndex
    }

    /// Every tombstone, in no particular order.
    package func tombstones() throws -> [Tombstone] {
        try records(.tombstones).compactMap(\.tombstone)
    }

    /// What this store keeps for the remote named `remote`, when it has synced with it.
    package func remoteRecord(of remote: String) throws -> RemoteRecord? {
        try records(.remote(remote)).lazy.compactMap(\.remote).first
    }

    /// What this store keeps for every remote it has synced with, in no particular order.
    package func remoteRecords() throws -> [RemoteRecord] {
        try records(.remotes).compactMap(\.remote)
    }

    /// The latest acknowledgement of each replica this store has heard from, itself included.
    package func acknowledgements() throws -> [Acknowledgement] {
        try records(.acknowledgements).compactMap(\.acknowledgement)
    }

    /// How far this store holds the operations of `replica`, another replica than itself.
    package func replicaProgress(of replica: UUID) throws -> ReplicaProgress? {
        try records(.progress(replica)).lazy.compactMap(\.progress).first
    }

    /// How far this store holds each other replica's operations, in no particular order.
    package func replicaProgresses() throws -> [ReplicaProgress] {
        try records(.progresses).compactMap(\.progress)
    }

    /// The operations folded away, once any have been.
    package func fold() throws -> Fold? {
        try records(.fold).lazy.compactMap(\.fold).first
    }

    /// Who the operation `id` was, when this store folded it away (since migration v8).
    package func foldedOperation(id: UUID) throws -> FoldedOperation? {
        try records(.foldedOperation(id)).lazy.compactMap(\.folded).first
    }

    /// Every operation folded away that this store knows by id, in no particular order.
    package func foldedOperations() throws -> [FoldedOperation] {
        try records(.foldedOperations).compactMap(\.folded)
    }

    /// The ids of the operations folded away that replaced the operation `id`.
    package func foldedReplacements(of id: UUID) throws -> [UUID] {
        try records(.foldedReplacements(of: id)).compactMap(\.folded?.id)
    }
}

extension OperationLogWriting {
    /// Records this store as a replica, in place of what was recorded.
    package func setReplicaState(_ state: ReplicaState) throws {
        try write(.replicaState(state))
    }

    /// Records how an operation was applied: how to take it back, whether the merge applied it,
    /// and whether it kept it without applying it (a change of a kind this version does not know).
    ///
    /// - Throws: ``StoreError/operationNotFound(_:)``.
    package func setRewind(_ rewind: Data, isReplayed: Bool, isUnapplied: Bool, ofOperation id: UUID) throws {
        try write(.rewind(rewind, isReplayed: isReplayed, isUnapplied: isUnapplied, ofOperation: id))
    }

    /// Remembers the key an entry had in an ordering it left, or forgets it (`nil`).
    package func setTombstone(_ sortIndex: Int64?, of entry: OrderEntry.ID, in scope: OrderScope) throws {
        try write(.tombstone(sortIndex, of: entry, in: scope))
    }

    /// Records what this store keeps for a remote, in place of what was recorded for it.
    package func setRemoteRecord(_ record: RemoteRecord) throws {
        try write(.remote(record))
    }

    /// Records a replica's acknowledgement, in place of what was recorded for it.
    package func setAcknowledgement(_ acknowledgement: Acknowledgement) throws {
        try write(.acknowledgement(acknowledgement))
    }

    /// Records how far this store holds another replica's operations, in place of what was recorded.
    package func setReplicaProgress(_ progress: ReplicaProgress) throws {
        try write(.progress(progress))
    }

    /// Keeps an operation held back after a gap (``OperationLogReading/heldOperations()``); one
    /// held already is kept as it is.
    package func hold(_ operation: LoggedOperation) throws {
        try write(.hold(operation))
    }

    /// Forgets held operations, once they are logged.
    package func release(_ ids: [UUID]) throws {
        try write(.release(ids))
    }

    /// Replaces what this store keeps of the operations it folded away with `operations`: for
    /// a store that takes another store's snapshot, and its fold with it.
    package func replaceFolded(with operations: [FoldedOperation]) throws {
        try write(.replaceFolded(operations))
    }
}

extension LogRecord {
    /// This store as a replica, when the record is that.
    package var replicaState: ReplicaState? { if case .replicaState(let state) = self { state } else { nil } }
    /// The remote's record, when the record is that.
    package var remote: RemoteRecord? { if case .remote(let record) = self { record } else { nil } }
    /// The acknowledgement, when the record is one.
    package var acknowledgement: Acknowledgement? { if case .acknowledgement(let acknowledgement) = self { acknowledgement } else { nil } }
    /// The replica's progress, when the record is that.
    package var progress: ReplicaProgress? { if case .progress(let progress) = self { progress } else { nil } }
    /// The tombstone, when the record is one.
    package var tombstone: Tombstone? { if case .tombstone(let tombstone) = self { tombstone } else { nil } }
    /// The fold, when the record is that.
    package var fold: Fold? { if case .fold(let fold) = self { fold } else { nil } }
    /// The operation folded away, when the record is one.
    package var folded: FoldedOperation? { if case .folded(let operation) = self { operation } else { nil } }
}

extension ItemReading {
    /// The operation log of the transaction's store, when its backend keeps one.
    ///
    /// An observation's read that takes it reads again after every commit that changed any
    /// row: the regions of the store do not describe the log.
    ///
    /// - Complexity: The first time in a process for each kind of transaction, the Swift
    ///   runtime searches every protocol conformance of the program for the log's: one
    ///   protocol, since the log's refines ``ItemReading``.
    package var operationLogReader: (any OperationLogReading)? {
        let transaction = (self as? RegionRecordingReader)?.readingBeyondRegions() ?? self
        return transaction as? any OperationLogReading
    }
}

extension ItemWriting {
    /// The operation log of the transaction's store, when its backend keeps one.
    ///
    /// - Complexity: As ``ItemReading/operationLogReader``, one search of the conformances
    ///   the first time.
    package var operationLog: (any OperationLogWriting)? { self as? any OperationLogWriting }
}

/// A store whose backend keeps no operation log was asked for it.
package struct NoOperationLog: Error {}

extension ItemRepository {
    /// Runs `body` in a write transaction, on the store's operation log, marked as logged: for
    /// the code of this package that writes the log directly, its tests among them.
    ///
    /// - Throws: ``NoOperationLog`` when the backend keeps none, and what `body` throws.
    package func writeLog<Result>(_ body: (any OperationLogWriting) throws -> Result) throws -> Result {
        try write { transaction in
            guard let log = transaction.operationLog else { throw NoOperationLog() }
            log.markChangesLogged()
            return try body(log)
        }
    }

    /// Runs `body` in a read transaction, on the store's operation log.
    ///
    /// - Throws: ``NoOperationLog`` when the backend keeps none, and what `body` throws.
    package func readLog<Result>(_ body: (any OperationLogReading) throws -> Result) throws -> Result {
        try read { transaction in
            guard let log = transaction.operationLogReader else { throw NoOperationLog() }
            return try body(log)
        }
    }

    /// Runs `body` in a read transaction, on the store's operation log, without blocking the caller's thread.
    ///
    /// - Throws: ``NoOperationLog`` when the backend keeps none, and what `body` throws.
    package func readLog<Result: Sendable>(_ body: @Sendable (any OperationLogReading) throws -> Result) async throws -> Result {
        try await read { transaction in
            guard let log = transaction.operationLogReader else { throw NoOperationLog() }
            return try body(log)
        }
    }
}
