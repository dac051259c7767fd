public import ArrangeModel
import Foundation

/// Somewhere a store syncs with: a server, another store, any transport that keeps operations
/// for other stores. ``SyncEngine/sync(with:)`` pulls what the remote holds, pushes what it may
/// lack, and keeps its cursors for the remote in the store.
///
/// A remote holds the operations of every replica that reached it, its own or relayed: a laptop
/// that met the phone through a file passes the phone's changes on to the server. It answers
/// pulls from an opaque cursor of its own, takes pushes all or nothing, and may hand out a
/// snapshot to a store that lacks what it folded away.
///
/// Each side keeps the cursor into the other's operations: the store keeps where it is in the
/// remote's, and the remote keeps, for each replica that pushes to it, where it is in that
/// store's log (``SyncRemoteState/received``), as the store said with its last push. So a
/// remote restored from a backup, or a copy of a store's file, says it took less, and is
/// given again what it lacks.
///
/// ## Implementation requirements
/// - ``identity`` names the remote for good: the store keeps its cursors under it.
/// - A page's cursor moves past the operations it holds; a page that is not the last holds at
///   least one operation. (A store ends a pull on a page that brings nothing or leaves the
///   cursor where it was, so a remote that breaks this only delays its operations.)
/// - A push may hold operations the remote has already, and the same batch may come again
///   after a timeout: the remote keeps each operation once, by its id. It records the push's
///   `through` for the pushing replica with the operations, in the same transaction, and
///   answers it as ``SyncRemoteState/received``.
/// - An operation goes out as it came in, byte for byte where it holds what this version does
///   not read (`SyncOperation.json()`).
///
/// ```swift
/// struct Server: SyncRemote {
///     var identity: String { "https://sync.example.com/" }
///     func state(for replica: ReplicaID) async throws -> SyncRemoteState { … }  // GET /v1/state
///     func pull(after cursor: SyncCursor?, limit: Int) async throws -> SyncPage { … }
///     func push(_ operations: [SyncOperation], from replica: ReplicaID, through: SyncCursor,
///               acknowledgements: [SyncAcknowledgement]) async throws -> MergeReport? { … }
///     func snapshot() async throws -> SyncRemoteSnapshot { … }
/// }
/// let report = try await engine.sync(with: Server())
/// ```
public protocol SyncRemote: Sendable {
    /// The name the store keeps its cursors for this remote under: the same on every launch,
    /// and different for each remote.
    var identity: String { get }

    /// What the remote holds now, and how far it took the log of the store of `replica`.
    func state(for replica: ReplicaID) async throws -> SyncRemoteState

    /// A page of at most `limit` operations the remote holds after `cursor`, in the order it
    /// took them in.
    ///
    /// - Parameters:
    ///   - cursor: `nil` for the first page, else the ``SyncPage/cursor`` of a page before.
    ///   - limit: The most operations to return, at least 1.
    /// - Throws: ``SyncError/missingFoldedOperations`` when the remote folded away operations
    ///   after `cursor` that the store may lack: the store takes the remote's snapshot, and
    ///   pulls after the snapshot's cursor; ``SyncError/unknownCursor`` when the remote no
    ///   longer holds the history `cursor` points into (it was restored from a backup): the
    ///   store pulls from the start.
    func pull(after cursor: SyncCursor?, limit: Int) async throws -> SyncPage

    /// Gives the remote operations it may lack, those it holds already included, with the
    /// acknowledgements the store knows of, its own first. The remote keeps all of them or
    /// none, and with them `through` for `replica`.
    ///
    /// - Parameters:
    ///   - operations: Operations of the store's log, in its order.
    ///   - replica: The pushing store's replica.
    ///   - through: Where in the store's log these operations end: the remote answers it as
    ///     ``SyncRemoteState/received`` until the next push.
    ///   - acknowledgements: What the store and those it heard of said they hold.
    /// - Returns: What the remote's merge did, for a remote that merges (another store); `nil`
    ///   for one that only keeps operations.
    /// - Throws: ``SyncError/replicaInUse`` when another database pushed under `replica`: the
    ///   store takes a new replica id, and pushes again.
    func push(
        _ operations: [SyncOperation], from replica: ReplicaID, through: SyncCursor, acknowledgements: [SyncAcknowledgement]
    ) async throws -> MergeReport?

    /// The remote's snapshot, for a store that lacks operations the remote folded away.
    func snapshot() async throws -> SyncRemoteSnapshot

    /// The shared list whose log the remote holds, which the store syncs that list alone with;
    /// `nil`, the default, for a remote of the user's own log: a server's account, another
    /// store, a file.
    var list: ItemList.ID? { get }
}

extension SyncRemote {
    /// `nil`: a remote of the user's own log.
    public var list: ItemList.ID? { nil }
}

/// A position in a remote's operations, which only the remote reads.
public struct SyncCursor: RawRepresentable, Codable, Hashable, Sendable {
    /// The remote's text for the position.
    public var rawValue: String

    /// The cursor `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }
}

/// What a remote holds: for each replica, how far it holds that replica's operations, and how
/// far it folded them away.
public struct SyncRemoteState: Codable, Hashable, Sendable {
    /// For each replica, the sequence number up to which the remote holds all of its
    /// operations, folded ones included.
    public var held: [ReplicaID: Int64]
    /// For each replica in ``held``, the id of the operation the remote holds there: two
    /// databases that share a replica id (a copy, a restored backup) make different operations
    /// under one number.
    public var heldTips: [ReplicaID: SyncOperation.ID]
    /// For each replica, the sequence number up to which the remote folded its operations
    /// away: a store must hold those to merge what the remote sends, or take its snapshot.
    public var folded: [ReplicaID: Int64]
    /// For each replica in ``folded``, the id of its operation folded there.
    public var foldedTips: [ReplicaID: SyncOperation.ID]
    /// Whether the remote decides what is folded away, as a server does: a store that syncs
    /// with it folds no further than the remote has.
    public var coordinatesFolding: Bool
    /// Where in the asking store's log the remote took its operations up to: the `through` of
    /// its last push the remote kept; `nil` when it holds none. The store pushes what follows,
    /// or everything when its log holds another operation there.
    public var received: SyncCursor?
    /// The remote's clock when it answered, in milliseconds since 1970, for a remote that tells
    /// the time (a server); `nil` for one that does not. A store whose system clock is off from
    /// it by more than ``SyncEngine/clockTolerance`` tells the time by it from then on.
    public var clock: Int64?

    /// A state of these parts.
    public init(
        held: [ReplicaID: Int64], heldTips: [ReplicaID: SyncOperation.ID] = [:], folded: [ReplicaID: Int64] = [:],
        foldedTips: [ReplicaID: SyncOperation.ID] = [:], coordinatesFolding: Bool = false, received: SyncCursor? = nil, clock: Int64? = nil
    ) {
        self.held = held
        self.heldTips = heldTips
        self.folded = folded
        self.foldedTips = foldedTips
        self.coordinatesFolding = coordinatesFolding
        self.received = received
        self.clock = clock
    }
}

/// A page of a remote's operations.
public struct SyncPage: Sendable {
    /// The operations, in the order the remote took them in.
    public var operations: [SyncOperation]
    /// Where the next page starts.
    public var cursor: SyncCursor
    /// Whether no page follows this one now.
    public var isComplete: Bool
    /// For each replica, the sequence number up to which the remote had folded its operations
    /// away: the store must hold those to merge these.
    public var folded: [ReplicaID: Int64]
    /// For each replica in ``folded``, the id of its operation folded there.
    public var foldedTips: [ReplicaID: SyncOperation.ID]
    /// What the replicas the remote heard from said they hold; the last page at least carries them.
    public var acknowledgements: [SyncAcknowledgement]

    /// A page of these parts.
    public init(
        operations: [SyncOperation], cursor: SyncCursor, isComplete: Bool, folded: [ReplicaID: Int64] = [:],
        foldedTips: [ReplicaID: SyncOperation.ID] = [:], acknowledgements: [SyncAcknowledgement] = []
    ) {
        self.operations = operations
        self.cursor = cursor
        self.isComplete = isComplete
        self.folded = folded
        self.foldedTips = foldedTips
        self.acknowledgements = acknowledgements
    }
}

/// A remote's snapshot, and where to pull from after it.
public struct SyncRemoteSnapshot: Sendable {
    /// The snapshot (``SyncSnapshot``).
    public var snapshot: SyncSnapshot
    /// The cursor after the last operation the snapshot holds; `nil` to pull from the start.
    public var cursor: SyncCursor?

    /// `snapshot`, to pull after `cursor`.
    public init(snapshot: SyncSnapshot, cursor: SyncCursor?) {
        self.snapshot = snapshot
        self.cursor = cursor
    }
}

/// What ``SyncEngine/sync(with:)`` did.
public struct SyncReport: Hashable, Sendable {
    /// The merge here of what the remote sent, page by page, added up.
    public var received = MergeReport(received: 0)
    /// How many operations this store pushed.
    public var pushed = 0
    /// What the remote's merges of them did, for a remote that merges (another store).
    public var sent: MergeReport?
    /// When this store lacked operations the remote had folded away and took its snapshot:
    /// the merge of this store's own operations into it.
    public var adoption: MergeReport?
    /// When this store's clock had run ahead and was right again: what it did first.
    public var clockRecovery: ClockRecovery?
    /// The replica id this store left for a new one, after the remote said another database
    /// syncs under it (``SyncError/replicaInUse``); `nil` when it kept its id.
    public var replicaLeft: ReplicaID?
    /// How many of this store's operations it stated again under its new replica id, when it
    /// left one (``replicaLeft``).
    public var renumbered = 0
    /// The correction of this store's clock, in milliseconds, that this sync set, when it
    /// changed it: the remote's clock less the system clock, or 0 when the system clock is
    /// right again (see ``SyncEngine/clockTolerance``); `nil` when it stayed as it was.
    public var clockCorrection: Int64?

    /// A report of nothing done yet.
    public init() {}
}
