import ArrangeModel
import ArrangeStore
import ArrangeSync
import ArrangeSyncHTTPCore
import Foundation
import Logging
import PostgresNIO

/// When the server folds a log, and which devices stop holding folding back.
struct FoldPolicy: Sendable {
    /// A fold starts in the background each time a log grows past a multiple of this
    /// many operations; 0 for never.
    var every: Int64
    /// How long a replica may go unheard of, in seconds, before a fold retires it.
    var retireUnseenSeconds: Int64

    /// Every 1,000 operations; a replica unheard of for 60 days is retired.
    static let standard = FoldPolicy(every: 1_000, retireUnseenSeconds: 60 * 86_400)

    /// Whether a push that took the log's head from `old` to `new` starts a fold.
    func isDue(from old: Int64, to new: Int64) -> Bool {
        every > 0 && new / every > old / every
    }
}

/// What the server keeps of a log's store between folds: its own replica in the log's
/// history, and the snapshot of the store at the last fold.
struct FoldRecord: Sendable {
    /// The server's replica: it logs what it decides (a replica retired, a change made again
    /// after a fold), as any device does.
    var replica: ReplicaState
    /// The store at the last fold (a `SnapshotFile`); `nil` before the first.
    var snapshot: Data?
    /// For each replica, the sequence number up to which its operations were folded away.
    var folded: [String: Int64]
    /// For each replica in ``folded``, the id of its operation folded there.
    var foldedTips: [String: SyncOperation.ID]
    /// The highest position of an operation folded away: a device that pulls from before it
    /// may lack one.
    var foldedPosition: Int64
    /// How many folds were stored before: a fold stores what it decided only when no other
    /// stored in the meantime.
    var generation: Int64
    /// The epoch of the database when the fold was stored; `nil` for a fold of version 2.
    var epoch: UUID?
}

/// A log replayed with ArrangeSync, as a device replays it, and folded as far as every
/// device's acknowledgement allows.
struct LogReplay: Sendable {
    /// The engine on the replayed store, in memory.
    let engine: SyncEngine
    /// The replayed store, after the fold.
    let snapshot: SyncSnapshot
    /// The head of the log the replay read: the snapshot holds every operation up to it.
    let head: Int64
    /// The record the replay started from.
    let previous: FoldRecord?
    /// The server's replica after the replay.
    let replica: ReplicaState
    /// The operations the server's replica made in the replay, which the log lacks.
    let made: [SyncOperation]
    /// The ids of the operations of the log that the replay folded away.
    let foldedAway: [UUID]
    /// What the server's replica says it holds.
    let acknowledgement: SyncAcknowledgement?
    /// The replicas the replay retired.
    let retired: [UUID]
    /// The epoch of the database when the replay read the log.
    let epoch: UUID
}

/// What one fold of a log did.
struct FoldOutcome: Sendable {
    var replay: LogReplay
    /// How many operations of the log were deleted, folded away.
    var deleted: Int
    /// Whether what the replay decided was stored; a fold that lost a race to another stores nothing.
    var stored: Bool
}

extension ServerDatabase {
    /// The record of the log's last fold, read on `connection`; `nil` before the first.
    static func foldRecord(of log: Int64, on connection: PostgresConnection, logger: Logger) async throws -> FoldRecord? {
        let rows = try await connection.query(
            """
            SELECT replica, last_sequence, last_milliseconds, last_counter, snapshot, folded, folded_tips, folded_position, generation, epoch
            FROM folds WHERE log_id = \(log)
            """, logger: logger)
        for try await (replica, sequence, milliseconds, counter, snapshot, folded, tips, position, generation, epoch) in rows.decode(
            (UUID, Int64, Int64, Int64, ByteBuffer?, String, String, Int64, Int64, UUID?).self)
        {
            return FoldRecord(
                replica: ReplicaState(id: replica, lastSequence: sequence, lastMilliseconds: milliseconds, lastCounter: counter),
                snapshot: snapshot.map { Data($0.readableBytesView) },
                folded: try SyncProtocol.decoder.decode([String: Int64].self, from: Data(folded.utf8)),
                foldedTips: try SyncProtocol.decoder.decode([String: SyncOperation.ID].self, from: Data(tips.utf8)),
                foldedPosition: position, generation: generation, epoch: epoch)
        }
        return nil
    }

    /// Folds a log: replays it (``replay(of:policy:)``), then stores what the replay
    /// decided (``store(_:of:)``), again when another fold stored first.
    ///
    /// - Returns: What the last attempt did.
    @discardableResult
    func fold(log: Int64, policy: FoldPolicy) async throws -> FoldOutcome {
        var attempt = 1
        while true {
            let replay = try await replay(of: log, policy: policy)
            await Failpoint.foldPausesBeforeStore.reached()
            let deleted = try await store(replay, of: log)
            if deleted != nil || attempt == 3 { return FoldOutcome(replay: replay, deleted: deleted ?? 0, stored: deleted != nil) }
            attempt += 1
        }
    }

    /// Replays a log in memory from the last fold's snapshot, with what every device
    /// acknowledged, retires the replicas of revoked devices and of those unheard of for
    /// longer than the policy allows, and folds what every other replica holds.
    ///
    /// A record restored from a backup (the database's epoch changed since, or the log holds
    /// operations of the server's replica that the record does not know it made) would number
    /// new operations as others already are: the replay leaves that replica for a new one, and
    /// retires it at once, as the server knows that line is gone (a device cannot tell a
    /// restore from a copy, and leaves its id with `SyncChange.leaveForkedReplica(id:)`).
    ///
    /// The log is read in one short transaction; the replay runs outside it, so pushes go on.
    func replay(of log: Int64, policy: FoldPolicy) async throws -> LogReplay {
        let logger = logger
        let epoch = try await epoch()
        let (head, record, bodies, acknowledgements, unseen) = try await withTransaction { connection in
            let head = try await Self.head(of: log, on: connection, logger: logger)
            let record = try await Self.foldRecord(of: log, on: connection, logger: logger)
            var bodies: [String] = []
            for try await body in try await connection.query(
                "SELECT body FROM operations WHERE log_id = \(log) AND position <= \(head) ORDER BY position", logger: logger
            ).decode(String.self) {
                bodies.append(body)
            }
            var acknowledgements: [String] = []
            for try await json in try await connection.query(
                "SELECT acknowledgement FROM replicas WHERE log_id = \(log) AND acknowledgement IS NOT NULL", logger: logger
            ).decode(String.self) {
                acknowledgements.append(json)
            }
            var unseen: [UUID] = []
            for try await replica in try await connection.query(
                """
                SELECT r.replica FROM replicas r JOIN logs l ON l.id = r.log_id LEFT JOIN tokens t ON t.id = r.token_id
                WHERE r.log_id = \(log)
                    AND (t.revoked_at IS NOT NULL OR r.last_seen_at < now() - make_interval(secs => \(Double(policy.retireUnseenSeconds)))
                        OR (l.list IS NOT NULL AND t.id IS NOT NULL
                            AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.log_id = l.id AND m.user_id = t.user_id)))
                """, logger: logger).decode(UUID.self) {
                unseen.append(replica)
            }
            return (head, record, bodies, acknowledgements, unseen)
        }

        let operations = try bodies.map { try SyncOperation(json: Data($0.utf8)) }
        var replica = record?.replica ?? ReplicaState(id: UUID())
        var left: [UUID] = []
        if let record, record.epoch.map({ $0 != epoch }) ?? false
            || operations.contains(where: { $0.replica.rawValue == record.replica.id && $0.sequence > record.replica.lastSequence })
        {
            left = [record.replica.id]
            replica = ReplicaState(id: UUID())
        }
        let engine = SyncEngine(repository: InMemoryItemRepository())
        try await engine.restore(try record?.snapshot.map(SnapshotFile.decode), as: replica)
        try await engine.merge(operations)
        try await engine.hear(try acknowledgements.map { try SyncProtocol.decoder.decode(SyncAcknowledgement.self, from: Data($0.utf8)) })
        var retired: [UUID] = []
        let known = Dictionary(uniqueKeysWithValues: try await engine.replicas().map { ($0.id.rawValue, $0) })
        for id in left + unseen where id != replica.id {
            guard let summary = known[id], !summary.isForgotten, !summary.isThisDatabase else { continue }
            if try await engine.forget(summary.id) != nil { retired.append(id) }
        }
        _ = try await engine.compact()

        let snapshot = try await engine.snapshot()
        let inLog = Set(operations.map(\.id))
        let made = try snapshot.operations().filter { $0.replica.rawValue == replica.id && $0.sequence > replica.lastSequence && !inLog.contains($0.id) }
        let ownAcknowledgement = try await engine.acknowledgements().first { $0.replica.rawValue == replica.id }
        let logged = Set(snapshot.log.map(\.id))
        let foldedIDs = Set(snapshot.foldedOperations.map(\.id))
        let foldedAway = operations.map(\.id.rawValue).filter { !logged.contains($0) && foldedIDs.contains($0) }
        var after = replica
        after.lastSequence = max(replica.lastSequence, made.map(\.sequence).max() ?? 0)
        if let ownAcknowledgement {
            (after.lastMilliseconds, after.lastCounter) = (ownAcknowledgement.clock.milliseconds, Int64(ownAcknowledgement.clock.counter))
        }
        return LogReplay(
            engine: engine, snapshot: snapshot, head: head, previous: record, replica: after, made: made, foldedAway: foldedAway,
            acknowledgement: ownAcknowledgement, retired: retired, epoch: epoch)
    }

    /// Stores what a replay decided, in one transaction under the lock of the log: the
    /// operations the server's replica made join the log, those folded away leave it, and
    /// the snapshot and the server's acknowledgement are kept.
    ///
    /// - Returns: How many operations left the log; `nil` when another fold stored first, and
    ///   nothing was stored.
    func store(_ replay: LogReplay, of log: Int64) async throws -> Int? {
        let folded = replay.snapshot.fold
        // A replay that decided nothing new stores nothing.
        guard !replay.made.isEmpty || !replay.foldedAway.isEmpty || (replay.previous != nil && replay.acknowledgement != nil) else { return 0 }
        let logger = logger
        let snapshot = try SnapshotFile.encode(replay.snapshot)
        let bodies = try replay.made.map { String(decoding: try $0.json(), as: UTF8.self) }
        let acknowledgement = try replay.acknowledgement.map { String(decoding: try SyncProtocol.encoder.encode($0), as: UTF8.self) }
        let foldedJSON = String(decoding: try SyncProtocol.encoder.encode(
            Dictionary(uniqueKeysWithValues: (folded?.covering ?? [:]).map { ($0.key.uuidString.lowercased(), $0.value) })), as: UTF8.self)
        let tipsJSON = String(decoding: try SyncProtocol.encoder.encode(
            Dictionary(uniqueKeysWithValues: (folded?.tips ?? [:]).map { ($0.key.uuidString.lowercased(), SyncOperation.ID(rawValue: $0.value)) })), as: UTF8.self)
        let count = folded?.count ?? 0
        return try await withTransaction { connection in
            var head = try await Self.head(of: log, on: connection, locking: true, logger: logger)
            let current = try await Self.foldRecord(of: log, on: connection, logger: logger)
            guard current?.generation == replay.previous?.generation else { return nil }
            if !replay.made.isEmpty {
                let positions = replay.made.indices.map { head + 1 + Int64($0) }
                head += Int64(replay.made.count)
                try await connection.query(
                    """
                    INSERT INTO operations (log_id, position, id, replica, sequence, body, digest)
                    SELECT \(log), p, i, \(replay.replica.id), s, b, sha256(convert_to(b, 'UTF8'))
                    FROM unnest(\(positions)::bigint[], \(replay.made.map(\.id.rawValue))::uuid[], \(replay.made.map(\.sequence))::bigint[], \(bodies)::text[]) AS t(p, i, s, b)
                    """, logger: logger)
                try await connection.query("UPDATE logs SET head = \(head) WHERE id = \(log)", logger: logger)
                try await connection.query("SELECT pg_notify(\(PushSignals.channel), \(String(log)))", logger: logger)
            }
            var deleted = 0
            var foldedPosition = current?.foldedPosition ?? 0
            if !replay.foldedAway.isEmpty {
                for try await position in try await connection.query(
                    "DELETE FROM operations WHERE log_id = \(log) AND id = ANY(\(replay.foldedAway)) RETURNING position", logger: logger
                ).decode(Int64.self) {
                    deleted += 1
                    foldedPosition = max(foldedPosition, position)
                }
            }
            try await connection.query(
                """
                INSERT INTO folds (log_id, replica, last_sequence, last_milliseconds, last_counter, snapshot, folded, folded_tips,
                    folded_position, folded_count, folded_at, generation, epoch)
                VALUES (\(log), \(replay.replica.id), \(replay.replica.lastSequence), \(replay.replica.lastMilliseconds),
                    \(replay.replica.lastCounter), \(ByteBuffer(bytes: snapshot)), \(foldedJSON), \(tipsJSON), \(foldedPosition), \(count), now(), 1,
                    \(replay.epoch))
                ON CONFLICT (log_id) DO UPDATE SET
                    replica = excluded.replica, epoch = excluded.epoch, last_sequence = excluded.last_sequence, last_milliseconds = excluded.last_milliseconds,
                    last_counter = excluded.last_counter, snapshot = excluded.snapshot, folded = excluded.folded,
                    folded_tips = excluded.folded_tips, folded_position = excluded.folded_position,
                    folded_count = excluded.folded_count, folded_at = excluded.folded_at, generation = folds.generation + 1
                """, logger: logger)
            if let acknowledgement, let clock = replay.acknowledgement?.clock {
                try await connection.query(
                    """
                    INSERT INTO replicas (log_id, replica, held, acknowledgement, acknowledged_milliseconds, acknowledged_counter)
                    VALUES (\(log), \(replay.replica.id), \(replay.replica.lastSequence), \(acknowledgement), \(clock.milliseconds), \(Int64(clock.counter)))
                    ON CONFLICT (log_id, replica) DO UPDATE SET
                        held = greatest(replicas.held, excluded.held), acknowledgement = excluded.acknowledgement,
                        acknowledged_milliseconds = excluded.acknowledged_milliseconds,
                        acknowledged_counter = excluded.acknowledged_counter, last_seen_at = now()
                    """, logger: logger)
            }
            return deleted
        }
    }
}
