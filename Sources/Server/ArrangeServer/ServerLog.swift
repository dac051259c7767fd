import ArrangeModel
import ArrangeStore
import ArrangeSync
import ArrangeSyncHTTPCore
import Foundation
import Logging
import PostgresNIO

/// A position in a log, as clients hold it: opaque to them, `EPOCH:POSITION` here.
///
/// The epoch is made when the database is created, and again by `arrange-server restored`: a
/// cursor of another epoch points into another history.
struct LogCursor: Hashable, Sendable {
    /// The history of the database the cursor belongs to (``ServerDatabase/epoch()``).
    var epoch: UUID
    /// The position in the log the cursor is after.
    var position: Int64
    /// The id of the operation at ``position`` when the cursor was given: a log restored from
    /// a backup that took on other operations since holds another there.
    var operation: UUID?

    init(epoch: UUID, position: Int64, operation: UUID? = nil) {
        self.epoch = epoch
        self.position = position
        self.operation = operation
    }

    /// The cursor a text of ``syncCursor`` names: `EPOCH:POSITION[:OPERATION]`.
    init?(_ cursor: SyncCursor) {
        let parts = cursor.rawValue.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let epoch = UUID(uuidString: String(parts[0])), let position = Int64(parts[1]), position >= 0
        else { return nil }
        var operation: UUID?
        if parts.count == 3 {
            guard let id = UUID(uuidString: String(parts[2])) else { return nil }
            operation = id
        }
        self.init(epoch: epoch, position: position, operation: operation)
    }

    var syncCursor: SyncCursor {
        SyncCursor(rawValue: "\(epoch.uuidString.lowercased()):\(position)" + (operation.map { ":\($0.uuidString.lowercased())" } ?? ""))
    }
}

/// Each log of operations, a user's own or a shared list's, as devices push and pull it.
///
/// The operations are kept as they were received. Positions come from a counter in the log's
/// row, which every push updates under the row's lock, so that positions commit in order and a
/// reader never steps past one that commits late.
extension ServerDatabase {
    /// The epoch of this database's history.
    func epoch() async throws -> UUID {
        let epoch = try await query("SELECT epoch FROM arrange_server") { try await $0.decode(UUID.self).first { _ in true } }
        guard let epoch else { throw ServerError.notMigrated }
        return epoch
    }

    /// Gives the database a new epoch, after it was restored from a backup: every client's
    /// cursor is then refused, and clients pull from the start and push what the server lacks.
    func markRestored() async throws -> UUID {
        let epoch = UUID()
        try await execute("UPDATE arrange_server SET epoch = \(epoch)")
        return epoch
    }

    /// Where the log stands, for `replica`.
    func state(of account: Account, for replica: UUID?, epoch: UUID, serverTime: Int64) async throws -> SyncServerState {
        let logger = logger
        let (head, held, received, record) = try await withTransaction { connection in
            let head = try await Self.head(of: account.log, on: connection, logger: logger)
            let record = try await Self.foldRecord(of: account.log, on: connection, logger: logger)
            var held: [String: Int64] = [:]
            var received: SyncCursor?
            for try await (id, sequence, cursor) in try await connection.query(
                "SELECT replica, held, received FROM replicas WHERE log_id = \(account.log)", logger: logger
            ).decode((UUID, Int64, String?).self) {
                if sequence > 0 { held[id.uuidString.lowercased()] = sequence }
                if id == replica { received = cursor.map(SyncCursor.init) }
            }
            return (head, held, received, record)
        }
        return SyncServerState(
            head: LogCursor(epoch: epoch, position: head).syncCursor, held: held, folded: record?.folded ?? [:],
            foldedTips: record?.foldedTips ?? [:], coordinatesFolding: true, received: received, serverTime: serverTime)
    }

    /// Stores the operations of a push that the log lacks, all or nothing, in one transaction;
    /// records where the push ends in the pusher's log, and the acknowledgements it carries.
    ///
    /// - Parameters:
    ///   - push: The push, checked: every operation meets the rules, and none is stamped ahead.
    ///   - replica: The pushing replica.
    ///   - through: Where the push ends in the pusher's log; `nil` for a push that a later one
    ///     completes, which leaves the record as it was.
    /// - Throws: ``SyncServerError`` with ``SyncServerError/Code/operationConflict`` for an
    ///   operation whose id the log holds with another body, and
    ///   ``SyncServerError/Code/replicaForked`` when another device pushed as `replica`, or the
    ///   log holds another operation under one of the pusher's own sequence numbers.
    /// - Returns: The answer, and the head of the log before and after the push.
    func store(
        _ push: OperationFile.Contents, from replica: UUID, through: SyncCursor?, account: Account
    ) async throws -> (answer: SyncPushAnswer, heads: (before: Int64, after: Int64)) {
        do {
            return try await store(push, from: replica, through: through, account: account, lookingUpEveryID: false)
        } catch where Self.repeatsUniqueKey(error) {
            // An operation id the log holds under another replica's number: the push again,
            // with every id looked up, answers which operation it is.
            return try await store(push, from: replica, through: through, account: account, lookingUpEveryID: true)
        }
    }

    /// Whether `error` is PostgreSQL refusing a row that repeats a unique key (SQLSTATE 23505),
    /// within a transaction or not.
    static func repeatsUniqueKey(_ error: any Error) -> Bool {
        switch error {
        case let error as PostgresTransactionError: error.closureError.map(repeatsUniqueKey) ?? false
        case let error as PSQLError: error.serverInfo?[.sqlState] == "23505"
        default: false
        }
    }

    /// Stores a push as ``store(_:from:through:account:)`` does.
    ///
    /// Unless `lookingUpEveryID`, it looks up in the log only the operations numbered at or
    /// below the most the log holds of their replica: any other is new, or reuses an id, which
    /// the log's uniqueness of ids refuses (SQLSTATE 23505).
    private func store(
        _ push: OperationFile.Contents, from replica: UUID, through: SyncCursor?, account: Account, lookingUpEveryID: Bool
    ) async throws -> (answer: SyncPushAnswer, heads: (before: Int64, after: Int64)) {
        let operations = push.operations
        let bodies = try operations.map { String(decoding: try $0.json(), as: UTF8.self) }
        let pushedReplicas = Array(Set(operations.map(\.replica.rawValue)).union([replica]))
        let logger = logger
        let heads = try await withTransaction { connection in
            // A shared log's rules first, before its lock: what a log holds only grows, and a
            // thing another push makes meanwhile meets this one's at the unique key.
            if account.list != nil {
                try await Self.checkShared(operations.enumerated().map { (index: $0.offset, operation: $0.element) }, in: account.log, on: connection, logger: logger)
            }
            // Under the lock of the log's row: its head, the device the pushing replica
            // syncs under, and how far the log holds each replica of the push.
            var (head, owner, mostHeld): (Int64, UUID?, [UUID: Int64]) = (0, nil, [:])
            for try await (logHead, device, heldReplicas, heldSequences) in try await connection.execute(
                LockedLog(log: account.log, replica: replica, replicas: pushedReplicas), logger: logger) {
                (head, owner, mostHeld) = (logHead, device, Dictionary(zip(heldReplicas, heldSequences), uniquingKeysWith: max))
            }
            let before = head
            let ownHeld = mostHeld[replica]

            // A replica pushes under one device's token; another device that pushes as it is a copy.
            if let owner, owner != account.token {
                throw SyncServerError(
                    .replicaForked,
                    "Another device syncs as this database's replica \(replica.uuidString.lowercased()): this database is a copy, or a backup restored; take a new replica id and sync again.")
            }

            // What the log holds already: the same operation again, or another under its id.
            let mayBeHeld = operations.filter { lookingUpEveryID || $0.sequence <= mostHeld[$0.replica.rawValue] ?? 0 }
            var held: [UUID: String] = [:]
            if !mayBeHeld.isEmpty {
                for try await (id, body) in try await connection.execute(HeldOperations(log: account.log, ids: mayBeHeld.map(\.id.rawValue)), logger: logger) {
                    held[id] = body
                }
            }
            for (index, operation) in operations.enumerated() {
                guard let body = held[operation.id.rawValue], body != bodies[index] else { continue }
                guard let stored = try? SyncOperation(json: Data(body.utf8)), let pushed = try? SyncOperation(json: Data(bodies[index].utf8)),
                      stored.isSame(as: pushed)
                else {
                    throw SyncServerError(
                        .operationConflict,
                        "Operation \(operation.id.rawValue.uuidString.lowercased()) is held here with another body; no operation id stands for two changes.",
                        index: index)
                }
            }

            // The pusher's own operations under numbers the log holds under other ids: a fork.
            // Numbers past the most the log holds of the replica are free.
            let own = operations.enumerated().filter {
                $0.element.replica.rawValue == replica && $0.element.sequence <= ownHeld ?? 0 && held[$0.element.id.rawValue] == nil
            }
            if !own.isEmpty {
                let sequences = own.map(\.element.sequence)
                for try await (sequence, id) in try await connection.query(
                    """
                    SELECT sequence, id FROM operations
                    WHERE log_id = \(account.log) AND replica = \(replica) AND sequence = ANY(\(sequences))
                    """, logger: logger).decode((Int64, UUID).self) {
                    guard let index = own.first(where: { $0.element.sequence == sequence && $0.element.id.rawValue != id })?.offset else { continue }
                    throw SyncServerError(
                        .replicaForked,
                        "Another database made operation \(sequence) of this database's replica \(replica.uuidString.lowercased()): this database is a copy, or a backup restored; take a new replica id and sync again.",
                        index: index)
                }
            }

            var seen = Set(held.keys)
            var positions: [Int64] = []
            var newIDs: [UUID] = []
            var replicas: [UUID] = []
            var sequences: [Int64] = []
            var newBodies: [String] = []
            for (index, operation) in operations.enumerated() where seen.insert(operation.id.rawValue).inserted {
                head += 1
                positions.append(head)
                newIDs.append(operation.id.rawValue)
                replicas.append(operation.replica.rawValue)
                sequences.append(operation.sequence)
                newBodies.append(bodies[index])
            }
            let stored = StoredPush(
                log: account.log, positions: positions, ids: newIDs, replicas: replicas, sequences: sequences, bodies: newBodies, head: head,
                pusher: replica, token: account.token, through: through?.rawValue)
            for try await _ in try await connection.execute(stored, logger: logger) {}
            for acknowledgement in push.acknowledgements {
                let json = String(decoding: try SyncProtocol.encoder.encode(acknowledgement), as: UTF8.self)
                let (milliseconds, counter) = (acknowledgement.clock.milliseconds, Int64(acknowledgement.clock.counter))
                try await connection.query(
                    """
                    INSERT INTO replicas (log_id, replica, acknowledgement, acknowledged_milliseconds, acknowledged_counter)
                    VALUES (\(account.log), \(acknowledgement.replica.rawValue), \(json), \(milliseconds), \(counter))
                    ON CONFLICT (log_id, replica) DO UPDATE SET
                        acknowledgement = excluded.acknowledgement,
                        acknowledged_milliseconds = excluded.acknowledged_milliseconds,
                        acknowledged_counter = excluded.acknowledged_counter, last_seen_at = now()
                    WHERE replicas.acknowledgement IS NULL
                        OR (replicas.acknowledged_milliseconds, replicas.acknowledged_counter) < (excluded.acknowledged_milliseconds, excluded.acknowledged_counter)
                    """, logger: logger)
            }
            await Failpoint.pushPausesBeforeCommit.reached()
            await Failpoint.pushBeforeCommit.reached()
            return (before, head)
        }
        await Failpoint.pushAfterCommit.reached()
        return (SyncPushAnswer(accepted: operations.count, received: through), heads)
    }

    /// The operations after `cursor`, at most `limit`, in the order the log took them in, with
    /// what the log folded away.
    ///
    /// - Throws: ``SyncServerError/Code/cursorInvalid`` for a cursor of another epoch, or past
    ///   the log's head; ``SyncServerError/Code/snapshotRequired`` for a cursor before an
    ///   operation folded away, unless the asking device acknowledged holding every one.
    func page(of account: Account, after cursor: LogCursor?, limit: Int, epoch: UUID) async throws -> LogPage {
        let logger = logger
        return try await withTransaction { connection in
            let head = try await Self.head(of: account.log, on: connection, logger: logger)
            let after = cursor?.position ?? 0
            if let cursor, try await !Self.holds(cursor, of: account.log, epoch: epoch, head: head, on: connection, logger: logger) {
                throw SyncServerError(
                    .cursorInvalid,
                    "The cursor points into a history this server no longer holds (it was restored from a backup): pull from the start, and push what the server lacks.")
            }
            let record = try await Self.foldRecord(of: account.log, on: connection, logger: logger)
            if let record, after < record.foldedPosition,
               try await !Self.device(account.token, of: account.log, holds: record.folded, on: connection, logger: logger) {
                throw SyncServerError(
                    .snapshotRequired,
                    "Operations after this cursor were folded away: take the snapshot, and pull after the cursor that comes with it.")
            }
            var operations: [ByteBufferView] = []
            var lastRow: PostgresRandomAccessRow?
            var isComplete = true
            for try await row in try await connection.query(
                """
                SELECT body, position, id FROM operations
                WHERE log_id = \(account.log) AND position > \(after)
                ORDER BY position LIMIT \(limit + 1)
                """, logger: logger) {
                guard operations.count < limit else {
                    isComplete = false
                    break
                }
                // As received: checked when it was pushed, and sent on as the bytes the row holds,
                // without being read again, nor made a string. Only the last row's cursor counts.
                let cells = row.makeRandomAccess()
                operations.append(try cells[0].decode(ByteBuffer.self).readableBytesView)
                lastRow = cells
            }
            var last = LogCursor(epoch: epoch, position: after, operation: cursor?.operation)
            if let lastRow {
                last = LogCursor(epoch: epoch, position: try lastRow[1].decode(Int64.self), operation: try lastRow[2].decode(UUID.self))
            }
            // Past the last operation left, up to the head: a fold may have taken those after it.
            if isComplete, last.position < head { last = LogCursor(epoch: epoch, position: head) }
            var acknowledgements: [SyncAcknowledgement] = []
            if isComplete {
                for try await json in try await connection.query(
                    "SELECT acknowledgement FROM replicas WHERE log_id = \(account.log) AND acknowledgement IS NOT NULL ORDER BY replica",
                    logger: logger).decode(String.self) {
                    acknowledgements.append(try SyncProtocol.decoder.decode(SyncAcknowledgement.self, from: Data(json.utf8)))
                }
            }
            let contents = OperationFile.Contents(
                operations: [], folded: Self.keyed(record?.folded ?? [:]), foldedTips: Self.keyed(record?.foldedTips ?? [:]),
                acknowledgements: acknowledgements, cursor: last.syncCursor, isComplete: isComplete)
            return LogPage(contents: contents, operations: operations)
        }
    }

    /// Whether the log is the history `cursor` was given in: the same epoch, a head at
    /// or past its position, and the operation it names still there, or folded away.
    static func holds(
        _ cursor: LogCursor, of log: Int64, epoch: UUID, head: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws -> Bool {
        guard cursor.epoch == epoch, cursor.position <= head else { return false }
        guard let operation = cursor.operation else { return true }
        for try await id in try await connection.query(
            "SELECT id FROM operations WHERE log_id = \(log) AND position = \(cursor.position)", logger: logger
        ).decode(UUID.self) {
            return id == operation
        }
        return true
    }

    /// Whether a device said, in the last acknowledgement of one of its replicas, that it holds
    /// every operation up to `folded`.
    static func device(
        _ token: UUID, of log: Int64, holds folded: [String: Int64], on connection: PostgresConnection, logger: Logger
    ) async throws -> Bool {
        for try await json in try await connection.query(
            "SELECT acknowledgement FROM replicas WHERE log_id = \(log) AND token_id = \(token) AND acknowledgement IS NOT NULL", logger: logger
        ).decode(String.self) {
            let said = try SyncProtocol.decoder.decode(SyncAcknowledgement.self, from: Data(json.utf8))
            if folded.allSatisfy({ said.merged[$0.key, default: 0] >= $0.value }) { return true }
        }
        return false
    }

    /// Values by replica, from values by replica id text; those of text that is no id left out.
    static func keyed<Value>(_ values: [String: Value]) -> [ReplicaID: Value] {
        Dictionary(uniqueKeysWithValues: values.compactMap { key, value in UUID(uuidString: key).map { (ReplicaID(rawValue: $0), value) } })
    }

    /// The position of the newest operation of a log; with `locking`, under the lock of
    /// the log's row until the transaction ends, as a push takes it.
    static func head(of log: Int64, on connection: PostgresConnection, locking: Bool = false, logger: Logger) async throws -> Int64 {
        let query: PostgresQuery = locking ? "SELECT head FROM logs WHERE id = \(log) FOR NO KEY UPDATE" : "SELECT head FROM logs WHERE id = \(log)"
        for try await head in try await connection.query(query, logger: logger).decode(Int64.self) { return head }
        return 0
    }
}

/// A page of a log: its header and trailer's parts, and its operations as the log keeps
/// them, JSON as they were pushed.
struct LogPage {
    /// Everything of the page but its operations.
    var contents: OperationFile.Contents
    /// The operations, each one line of JSON as the log holds it, in the order the log took them in.
    var operations: [ByteBufferView]

    /// The page as protocol version 1 sends it (JSON Lines, with its trailer).
    func encoded() throws -> Data {
        try OperationFile.encode(contents, encodedOperations: operations)
    }
}
