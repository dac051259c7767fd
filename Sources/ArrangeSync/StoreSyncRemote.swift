import ArrangeModel
import ArrangeStore
import Foundation

/// Another store as a remote, as two devices that meet see each other: pulls read its log, a
/// push merges into it, and its snapshot is its rows and log.
///
/// Its cursors are positions in its log with the id of the operation found there
/// (`"17:3f2a…"`), checked before they are trusted: a copy of its file, or the file restored
/// from a backup, is read again from the start.
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
        identity = try await peer.repository.write { transaction in
            try peer.preparedReplica(in: SyncEngine.log(of: transaction)).id.uuidString.lowercased()
        }
    }

    public func state() async throws -> SyncRemoteState {
        try await peer.repository.read { transaction in
            let log = try SyncEngine.log(of: transaction)
            let lines = try peer.heldLines(in: log)
            let fold = try log.fold()
            return SyncRemoteState(
                held: Self.keyed(lines.merged), heldTips: Self.keyed(lines.tips).mapValues(SyncOperation.ID.init),
                folded: Self.keyed(fold?.covering ?? [:]), foldedTips: Self.keyed(fold?.tips ?? [:]).mapValues(SyncOperation.ID.init))
        }
    }

    public func pull(after cursor: SyncCursor?, limit: Int) async throws -> SyncPage {
        let recorded = cursor.flatMap(Self.position)
        let batch = try await peer.repository.read { transaction in
            try peer.operations(after: try SyncEngine.start(at: recorded, in: SyncEngine.log(of: transaction)), limit: limit, in: transaction)
        }
        let next = batch.operations.last.map { Self.cursor(position: batch.cursor, operation: $0.id) } ?? cursor ?? SyncCursor(rawValue: "0")
        return SyncPage(
            operations: batch.operations, cursor: next, isComplete: batch.isComplete, folded: batch.folded, foldedTips: batch.foldedTips,
            acknowledgements: batch.isComplete ? try await peer.acknowledgements() : [])
    }

    public func push(_ operations: [SyncOperation], acknowledgements: [SyncAcknowledgement]) async throws -> MergeReport? {
        try await peer.repository.write { transaction in
            let report = try peer.merge(operations, in: transaction)
            try peer.hear(acknowledgements.compactMap(\.logged), in: SyncEngine.log(of: transaction))
            return report
        }
    }

    public func snapshot() async throws -> SyncRemoteSnapshot {
        let snapshot = try await peer.snapshot()
        let last = snapshot.log.max { $0.position < $1.position }
        return SyncRemoteSnapshot(snapshot: snapshot, cursor: last.map { Self.cursor(position: $0.position, operation: SyncOperation.ID(rawValue: $0.id)) })
    }

    /// The cursor at `position` in a store's log, where `operation` is.
    static func cursor(position: Int64, operation: SyncOperation.ID) -> SyncCursor {
        SyncCursor(rawValue: "\(position):\(operation.rawValue.uuidString.lowercased())")
    }

    /// The position and operation a cursor of ``cursor(position:operation:)`` names; `nil` for other text.
    static func position(of cursor: SyncCursor) -> (position: Int64, operation: UUID?)? {
        let parts = cursor.rawValue.split(separator: ":", maxSplits: 1)
        guard let position = parts.first.flatMap({ Int64($0) }) else { return nil }
        return (position, parts.count == 2 ? UUID(uuidString: String(parts[1])) : nil)
    }

    private static func keyed<Value>(_ values: [UUID: Value]) -> [ReplicaID: Value] {
        Dictionary(uniqueKeysWithValues: values.map { (ReplicaID(rawValue: $0.key), $0.value) })
    }
}
