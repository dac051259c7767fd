import Foundation
import PostgresNIO

// The statements of the requests that devices make most, prepared once on each connection of
// the pool, so that PostgreSQL plans them once rather than at every request. Each holds its
// values in the order of its parameters.

/// The user, device and own log of a token that is not revoked, noting its use at most once a minute.
struct AccountOfToken: PostgresPreparedStatement {
    static let sql = """
        WITH found AS (SELECT id, user_id, last_used_at FROM tokens WHERE hash = $1 AND revoked_at IS NULL),
        touched AS (
            UPDATE tokens SET last_used_at = now() FROM found
            WHERE tokens.id = found.id AND (found.last_used_at IS NULL OR found.last_used_at < now() - interval '1 minute')
        )
        SELECT found.user_id, found.id, logs.id FROM found JOIN logs ON logs.owner_id = found.user_id AND logs.list IS NULL
        """
    typealias Row = (Int64, UUID, Int64)

    /// The SHA-256 digest of the token.
    var digest: Data

    func makeBindings() throws -> PostgresBindings {
        try PostgresBindings(digest)
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// Under the lock of the log's row until the transaction ends, as a push takes it: the head of
/// the log, the device (token) that `replica` syncs under, and the most the log holds of
/// each of `replicas`, as two arrays in the same order (a replica it holds nothing of left out).
///
/// The lock is `FOR NO KEY UPDATE`: pushes to the log wait for each other, but not for the key
/// share that a row referring to the log takes (a shared log's things, recorded before it).
struct LockedLog: PostgresPreparedStatement {
    static let sql = """
        SELECT l.head,
            (SELECT r.token_id FROM replicas r JOIN tokens t ON t.id = r.token_id
             WHERE r.log_id = l.id AND r.replica = $2 AND t.revoked_at IS NULL),
            ARRAY(SELECT r.replica FROM replicas r WHERE r.log_id = l.id AND r.replica = ANY($3) ORDER BY r.replica),
            ARRAY(SELECT r.held FROM replicas r WHERE r.log_id = l.id AND r.replica = ANY($3) ORDER BY r.replica)
        FROM logs l WHERE l.id = $1 FOR NO KEY UPDATE OF l
        """
    typealias Row = (Int64, UUID?, [UUID], [Int64])

    var log: Int64
    var replica: UUID
    var replicas: [UUID]

    func makeBindings() throws -> PostgresBindings {
        try PostgresBindings(log, replica, replicas)
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// The operations of the log among `ids`, each with its body.
struct HeldOperations: PostgresPreparedStatement {
    static let sql = "SELECT id, body FROM operations WHERE log_id = $1 AND id = ANY($2)"
    typealias Row = (UUID, String)

    var log: Int64
    var ids: [UUID]

    func makeBindings() throws -> PostgresBindings {
        try PostgresBindings(log, ids)
    }

    func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
}

/// What a push stores, in one statement: its new operations at their positions, the log's new
/// head, and the replicas' rows; announced on ``PushSignals/channel`` at the commit when it
/// stored any.
///
/// Each replica's row holds the most the log holds of it, and when it last brought news; the
/// pusher's row also the device it syncs under, where its push ends, and when it last pushed.
struct StoredPush: PostgresPreparedStatement {
    static let sql = """
        WITH stored AS (
            INSERT INTO operations (log_id, position, id, replica, sequence, body, digest)
            SELECT $1, p, i, r, s, b, sha256(convert_to(b, 'UTF8'))
            FROM unnest($2::bigint[], $3::uuid[], $4::uuid[], $5::bigint[], $6::text[]) AS t(p, i, r, s, b)
        ), moved AS (
            UPDATE logs SET head = $7 WHERE id = $1 AND head <> $7
        ), seen AS (
            INSERT INTO replicas (log_id, replica, held, token_id, received, last_seen_at)
            SELECT $1, r, max(s), NULL::uuid, NULL::text, now()
            FROM unnest($4::uuid[], $5::bigint[]) AS t(r, s) WHERE r <> $8 GROUP BY r
            UNION ALL
            SELECT $1, $8, coalesce(max(s), 0), $9::uuid, $10::text, now()
            FROM unnest($4::uuid[], $5::bigint[]) AS t(r, s) WHERE r = $8
            ON CONFLICT (log_id, replica) DO UPDATE SET
                held = greatest(replicas.held, excluded.held),
                token_id = coalesce(excluded.token_id, replicas.token_id),
                received = coalesce(excluded.received, replicas.received),
                last_seen_at = CASE WHEN excluded.token_id IS NOT NULL OR excluded.held > replicas.held THEN now() ELSE replicas.last_seen_at END
        )
        SELECT pg_notify($11, $1::text) WHERE cardinality($2::bigint[]) > 0
        """
    typealias Row = Void

    var log: Int64
    /// The new operations' positions, ids, replicas, sequence numbers and bodies, one each.
    var positions: [Int64]
    var ids: [UUID]
    var replicas: [UUID]
    var sequences: [Int64]
    var bodies: [String]
    /// The log's head after the push.
    var head: Int64
    /// The pushing replica, the device it pushes under, and where its push ends.
    var pusher: UUID
    var token: UUID
    var through: String?

    func makeBindings() throws -> PostgresBindings {
        try PostgresBindings(log, positions, ids, replicas, sequences, bodies, head, pusher, token, through, PushSignals.channel)
    }

    func decodeRow(_ row: PostgresRow) throws -> Row {}
}

extension PostgresBindings {
    /// The values of a statement's parameters, in their order; `nil` binds `NULL`.
    init<each Value: PostgresThrowingDynamicTypeEncodable>(_ values: repeat (each Value)?) throws {
        self.init()
        repeat try append(each values)
    }
}
