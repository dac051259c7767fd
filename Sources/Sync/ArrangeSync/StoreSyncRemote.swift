public import ArrangeModel
import ArrangeStore
import Foundation

/// Another store as a remote, as two devices that meet see each other: pulls read its log, a
/// push merges into it, and its snapshot is its rows and log.
///
/// Its cursors are positions in its log with the id of the operation found there
/// (`"17:3f2a…"`), checked before they are trusted: a copy of its file, or the file restored
/// from a backup, is read again from the start. It keeps, for each store that pushes to it,
/// where it is in that store's log, as a cursor of its own for that store: each side keeps
/// the cursor into the other's log, whichever starts the next exchange.
public struct StoreSyncRemote: SyncRemote {
    /// The other store's engine.
    public let peer: SyncEngine
    /// The other store's replica id, as text: what the store that syncs with it keeps its
    /// cursors under.
    public let identity: String

    /// The store of `peer` as a remote.
    ///
    /// - Throws: ``SyncError/noOperationLog`` when its backend keeps no operation log, and
    ///   `StoreError` from the store.
    public init(_ peer: SyncEngine) async throws {
        self.peer = peer
        identity = Self.identity(of: try await peer.repository.write { transaction in
            ReplicaID(rawValue: try peer.preparedReplica(in: SyncEngine.log(of: transaction)).id)
        })
    }

    public func state(for replica: ReplicaID) async throws -> SyncRemoteState {
        try await peer.repository.read { transaction in
            let log = try SyncEngine.log(of: transaction)
            let lines = try peer.heldLines(in: log)
            let fold = try log.fold()
            return SyncRemoteState(
                held: Self.keyed(lines.merged), heldTips: Self.keyed(lines.tips).mapValues(SyncOperation.ID.init),
                folded: Self.keyed(fold?.covering ?? [:]), foldedTips: Self.keyed(fold?.tips ?? [:]).mapValues(SyncOperation.ID.init),
                received: try log.remoteRecord(of: Self.identity(of: replica))?.pullCursor.map(SyncCursor.init))
        }
    }

    /// A page of the peer's own log: the operations of the lists shared with it stay there, for
    /// their members alone (see ``SyncEngine/sharedReplica(of:under:)``).
    public func pull(after cursor: SyncCursor?, limit: Int) async throws -> SyncPage {
        let batch = try await peer.repository.read { transaction in
            let log = try SyncEngine.log(of: transaction)
            var batch = try peer.operations(after: try SyncEngine.start(at: cursor.flatMap(SyncEngine.position), in: log), limit: limit, in: transaction)
            // A page of the peer's log that held only shared lists' operations is read past.
            while batch.operations.isEmpty, !batch.isComplete {
                let previous = batch
                batch = try peer.operations(after: previous.cursor, limit: limit, in: transaction)
                batch.lastRead = batch.lastRead ?? previous.lastRead
            }
            return batch
        }
        let next = batch.lastRead.map { SyncEngine.cursor(position: batch.cursor, operation: $0) } ?? cursor ?? SyncEngine.cursor(position: 0, operation: nil)
        return SyncPage(
            operations: batch.operations, cursor: next, isComplete: batch.isComplete, folded: batch.folded, foldedTips: batch.foldedTips,
            acknowledgements: batch.isComplete ? try await peer.acknowledgements() : [])
    }

    /// Merges the operations into the peer, hears the acknowledgements, and records in the
    /// peer, as its cursor into the pushing store's log, where they end: the peer reads that
    /// log from there when it syncs with that store.
    public func push(
        _ operations: [SyncOperation], from replica: ReplicaID, through: SyncCursor, acknowledgements: [SyncAcknowledgement]
    ) async throws -> MergeReport? {
        try await peer.repository.write { transaction in
            let log = try SyncEngine.log(of: transaction)
            let report = try peer.merge(operations, in: transaction)
            try peer.hear(acknowledgements.compactMap(\.logged), in: log)
            try SyncEngine.updateRecord(of: Self.identity(of: replica), in: log) { $0.pullCursor = through.rawValue }
            return report
        }
    }

    public func snapshot() async throws -> SyncRemoteSnapshot {
        let snapshot = try await peer.snapshot()
        let last = snapshot.log.max { $0.position < $1.position }
        return SyncRemoteSnapshot(snapshot: snapshot, cursor: last.map { SyncEngine.cursor(position: $0.position, operation: SyncOperation.ID(rawValue: $0.id)) })
    }

    /// The identity a store gives the store of `replica` as a remote: its replica id, as text.
    static func identity(of replica: ReplicaID) -> String {
        replica.rawValue.lowercasedString
    }

    private static func keyed<Value>(_ values: [UUID: Value]) -> [ReplicaID: Value] {
        Dictionary(uniqueKeysWithValues: values.map { (ReplicaID(rawValue: $0.key), $0.value) })
    }
}
