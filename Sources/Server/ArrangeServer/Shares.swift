import ArrangeChanges
import ArrangeModel
import ArrangeSync
import ArrangeSyncHTTPCore
import Foundation
import Logging
import PostgresNIO

/// Shared lists: each has a log of its own, owned by the user who shared it, with its members
/// and their roles, the invites that join new ones, and the things its log holds.
///
/// An invite code is 60 random bits (`XXXX-XXXX-XXXX`), valid once for ``inviteLifetime``,
/// and stored as its SHA-256, as pairing codes are. The log holds the list, and the items,
/// headings, checklist entries and series its operations made (`log_entities`): a push to it
/// may touch only those (``checkShared(_:in:on:logger:)``).
extension ServerDatabase {
    /// How long an invite code is valid.
    static let inviteLifetime: Duration = .seconds(7 * 86_400)

    /// The account with the log of shared list `list` as the one its request reads and writes.
    ///
    /// - Throws: ``SyncServerError/Code/forbidden`` when the user is not a member of the list,
    ///   or there is no such list: the answer does not tell which.
    func sharedLog(_ list: UUID, for account: Account) async throws -> Account {
        let found = try await query(
            "SELECT l.id, m.role FROM logs l JOIN memberships m ON m.log_id = l.id AND m.user_id = \(account.user) WHERE l.list = \(list)"
        ) { try await $0.decode((Int64, String).self).first { _ in true } }
        guard let (log, role) = found else { throw Self.notMember(of: list) }
        var scoped = account
        (scoped.log, scoped.list, scoped.mayEdit) = (log, list, role == ShareRole.edit.rawValue)
        return scoped
    }

    /// Makes an invite code to `list`, sharing the list first when it is not yet: its owner is
    /// then the user, and its log a new one.
    ///
    /// - Throws: ``SyncServerError/Code/forbidden`` when another user shared the list, or the
    ///   user is a member who does not own it.
    func invite(to list: UUID, as role: ShareRole, by account: Account) async throws -> ShareInvite {
        let code = Self.randomInviteCode()
        let hash = Self.digest(Self.normalizedPairingCode(code))
        let seconds = Int(Self.inviteLifetime.components.seconds)
        let logger = logger
        let expiresAt = try await withTransaction { connection in
            var log: Int64?
            for try await (id, owner) in try await connection.query(
                "SELECT id, owner_id FROM logs WHERE list = \(list) FOR UPDATE", logger: logger
            ).decode((Int64, Int64).self) {
                guard owner == account.user else {
                    throw SyncServerError(.forbidden, "Only the owner of shared list \(list.uuidString.lowercased()) invites people to it.")
                }
                log = id
            }
            if log == nil {
                for try await id in try await connection.query(
                    "INSERT INTO logs (owner_id, list) VALUES (\(account.user), \(list)) RETURNING id", logger: logger
                ).decode(Int64.self) {
                    log = id
                }
                guard let log else { throw ServerError.notMigrated }
                try await connection.query(
                    "INSERT INTO memberships (log_id, user_id, role) VALUES (\(log), \(account.user), \(ShareRole.edit.rawValue))", logger: logger)
                try await connection.query("INSERT INTO log_entities (id, log_id) VALUES (\(list), \(log))", logger: logger)
            }
            guard let log else { throw ServerError.notMigrated }
            for try await expiresAt in try await connection.query(
                """
                INSERT INTO invites (hash, log_id, role, created_by, expires_at)
                VALUES (\(hash), \(log), \(role.rawValue), \(account.user), now() + make_interval(secs => \(seconds)))
                RETURNING expires_at
                """, logger: logger).decode(Date.self) {
                return expiresAt
            }
            throw ServerError.notMigrated
        }
        return ShareInvite(code: code, expiresAt: expiresAt, role: role)
    }

    /// Spends an invite code: the user becomes a member of its list, in the role it gives.
    ///
    /// - Throws: ``SyncServerError/Code/inviteInvalid`` for a code that is unknown, spent or
    ///   expired, saying which; ``SyncServerError/Code/alreadyMember`` when the user is in the
    ///   list already, its owner included, which leaves the code unspent.
    func join(code: String, account: Account, epoch: UUID) async throws -> SharedList {
        let hash = Self.digest(Self.normalizedPairingCode(code))
        let logger = logger
        return try await withTransaction { connection in
            var found: (log: Int64, role: String, expired: Bool, used: Bool, list: UUID?, owner: String, head: Int64)?
            for try await row in try await connection.query(
                """
                SELECT i.log_id, i.role, i.expires_at <= now(), i.used_at IS NOT NULL, l.list, o.name, l.head
                FROM invites i JOIN logs l ON l.id = i.log_id JOIN users o ON o.id = l.owner_id
                WHERE i.hash = \(hash) FOR UPDATE OF i
                """, logger: logger).decode((Int64, String, Bool, Bool, UUID?, String, Int64).self) {
                found = row
            }
            guard let found, let list = found.list, let role = ShareRole(rawValue: found.role) else {
                throw SyncServerError(.inviteInvalid, "There is no invite with this code; check it, or ask for a new one.")
            }
            guard !found.used else { throw SyncServerError(.inviteInvalid, "This invite code was used already; ask for a new one.") }
            guard !found.expired else { throw SyncServerError(.inviteInvalid, "This invite code has expired; ask for a new one.") }
            for try await isOwner in try await connection.query(
                """
                SELECT l.owner_id = m.user_id FROM memberships m JOIN logs l ON l.id = m.log_id
                WHERE m.log_id = \(found.log) AND m.user_id = \(account.user)
                """, logger: logger).decode(Bool.self) {
                throw SyncServerError(
                    .alreadyMember, isOwner ? "You own this shared list; the invite is for someone else." : "You are in this shared list already.")
            }
            try await connection.query(
                "UPDATE invites SET used_at = now(), used_by = \(account.user) WHERE hash = \(hash)", logger: logger)
            try await connection.query(
                "INSERT INTO memberships (log_id, user_id, role) VALUES (\(found.log), \(account.user), \(role.rawValue))", logger: logger)
            return SharedList(list: list, role: role, owner: found.owner, owned: false, head: LogCursor(epoch: epoch, position: found.head).syncCursor)
        }
    }

    /// The shared lists the user is a member of, those they own included, by list id.
    func sharedLists(of account: Account, epoch: UUID) async throws -> [SharedList] {
        try await query(
            """
            SELECT l.list, m.role, o.name, o.id = m.user_id, l.head, h.id FROM memberships m
            JOIN logs l ON l.id = m.log_id JOIN users o ON o.id = l.owner_id
            LEFT JOIN operations h ON h.log_id = l.id AND h.position = l.head
            WHERE m.user_id = \(account.user) AND l.list IS NOT NULL ORDER BY l.list
            """
        ) { rows in
            var lists: [SharedList] = []
            for try await (list, role, owner, owned, head, operation) in rows.decode((UUID, String, String, Bool, Int64, UUID?).self) {
                guard let role = ShareRole(rawValue: role) else { continue }
                // The cursor a pull that reached the head answers, the operation there included.
                let cursor = LogCursor(epoch: epoch, position: head, operation: operation).syncCursor
                lists.append(SharedList(list: list, role: role, owner: owner, owned: owned, head: cursor))
            }
            return lists
        }
    }

    /// The members of a shared list the user is a member of: its owner first, then by name.
    ///
    /// - Throws: ``SyncServerError/Code/forbidden`` when the user is not a member.
    func members(of list: UUID, for account: Account) async throws -> [ShareMember] {
        let log = try await sharedLog(list, for: account).log
        return try await query(
            """
            SELECT u.name, m.role, u.id = l.owner_id FROM memberships m
            JOIN users u ON u.id = m.user_id JOIN logs l ON l.id = m.log_id
            WHERE m.log_id = \(log) ORDER BY u.id = l.owner_id DESC, u.name
            """
        ) { rows in
            var members: [ShareMember] = []
            for try await (name, role, owner) in rows.decode((String, String, Bool).self) {
                guard let role = ShareRole(rawValue: role) else { continue }
                members.append(ShareMember(user: name, role: role, owner: owner))
            }
            return members
        }
    }

    /// Removes a member from a shared list the user owns: their devices get nothing of it
    /// from then on, and may push nothing to it.
    ///
    /// - Throws: ``SyncServerError/Code/forbidden`` when the user does not own the list, or
    ///   names themselves; ``SyncServerError/Code/notFound`` when `name` is no member.
    /// - Returns: The members left.
    func remove(_ name: String, from list: UUID, by account: Account) async throws -> [ShareMember] {
        let log = try await sharedLog(list, for: account).log
        let logger = logger
        try await withTransaction { connection in
            var owner: Int64?
            for try await id in try await connection.query("SELECT owner_id FROM logs WHERE id = \(log) FOR UPDATE", logger: logger).decode(Int64.self) {
                owner = id
            }
            guard owner == account.user else { throw SyncServerError(.forbidden, "Only the owner of this shared list removes its members.") }
            var removed: [Int64] = []
            for try await id in try await connection.query(
                """
                DELETE FROM memberships m USING users u
                WHERE m.log_id = \(log) AND m.user_id = u.id AND u.name = \(name) AND u.id <> \(account.user)
                RETURNING u.id
                """, logger: logger).decode(Int64.self) {
                removed.append(id)
            }
            guard removed.isEmpty else { return }
            for try await id in try await connection.query("SELECT id FROM users WHERE name = \(name)", logger: logger).decode(Int64.self)
            where id == account.user {
                throw SyncServerError(.forbidden, "The owner cannot be removed from their shared list; deleting the list ends it for everyone.")
            }
            throw SyncServerError(.notFound, "'\(name)' is not a member of this shared list.")
        }
        return try await members(of: list, for: account)
    }

    /// The user leaves a shared list: their devices get nothing of it from then on.
    ///
    /// - Throws: ``SyncServerError/Code/forbidden`` when the user owns the list, which they
    ///   end for everyone by deleting it, or is no member.
    /// - Returns: The shared lists the user is still in.
    func leave(_ list: UUID, account: Account, epoch: UUID) async throws -> [SharedList] {
        let log = try await sharedLog(list, for: account).log
        let logger = logger
        try await withTransaction { connection in
            for try await owner in try await connection.query("SELECT owner_id FROM logs WHERE id = \(log)", logger: logger).decode(Int64.self)
            where owner == account.user {
                throw SyncServerError(.forbidden, "You own this shared list, so you cannot leave it; deleting it ends it for everyone.")
            }
            try await connection.query("DELETE FROM memberships WHERE log_id = \(log) AND user_id = \(account.user)", logger: logger)
        }
        return try await sharedLists(of: account, epoch: epoch)
    }

    /// Checks a push's operations against the things shared log `log` holds, on the connection
    /// of the push's transaction, before the log's lock; records the new things they make.
    ///
    /// Each operation must be of a kind this server knows, touch nothing personal, make
    /// nothing another log holds, and name only what the log holds or an operation before it
    /// made. An operation the log holds already passes again: what a log holds only grows. A
    /// thing that another push makes meanwhile meets this one's at the table's unique key.
    ///
    /// - Parameter operations: The push's operations, each with its index in the push.
    /// - Throws: ``SyncServerError/Code/invalidOperation`` with the index of the first
    ///   operation that breaks a rule.
    static func checkShared(
        _ operations: [(index: Int, operation: SyncOperation)], in log: Int64, on connection: PostgresConnection, logger: Logger
    ) async throws {
        var subjects: [ChangeSubjects] = []
        for (index, operation) in operations {
            guard let told = operation.change.subjects else {
                throw SyncServerError(
                    .invalidOperation,
                    "Operation \(index) is of a kind this server does not know; a shared list takes only changes the server can check; update arrange-server.",
                    index: index)
            }
            guard !told.isPersonal else {
                throw SyncServerError(
                    .invalidOperation,
                    "Operation \(index) changes what is one person's own (Today, an evening, a reminder, tags, areas or the sidebar); it belongs in the member's own log, not the shared list's.",
                    index: index)
            }
            subjects.append(told)
        }
        let ids = Array(subjects.reduce(into: Set<UUID>()) { $0.formUnion($1.all) })
        guard !ids.isEmpty else { return }
        var ours: Set<UUID> = [], theirs: Set<UUID> = []
        for try await (id, owner) in try await connection.query(
            "SELECT id, log_id FROM log_entities WHERE id = ANY(\(ids))", logger: logger
        ).decode((UUID, Int64).self) {
            if owner == log { ours.insert(id) } else { theirs.insert(id) }
        }
        var made: [UUID] = []
        for ((index, _), told) in zip(operations, subjects) {
            if let stranger = told.made.first(where: theirs.contains) ?? told.named.subtracting(ours).subtracting(told.made).first {
                throw SyncServerError(
                    .invalidOperation,
                    "Operation \(index) touches \(stranger.uuidString.lowercased()), which is not of this shared list; a shared list's changes touch only its own items, headings and checklist entries.",
                    index: index)
            }
            for id in told.made where ours.insert(id).inserted { made.append(id) }
        }
        guard !made.isEmpty else { return }
        try await connection.query("INSERT INTO log_entities (id, log_id) SELECT unnest(\(made)::uuid[]), \(log)", logger: logger)
    }

    // MARK: Codes

    /// Twelve letters of the pairing codes' alphabet (60 bits), as `XXXX-XXXX-XXXX`.
    static func randomInviteCode() -> String {
        randomCode(groups: 3)
    }

    /// The refusal of a request that names a shared list the user is not a member of.
    static func notMember(of list: UUID) -> SyncServerError {
        SyncServerError(
            .forbidden,
            "You are not a member of shared list \(list.uuidString.lowercased()): join it with an invite code, or ask its owner to invite you again.")
    }
}
