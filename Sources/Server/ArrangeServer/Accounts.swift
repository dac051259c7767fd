import Crypto
import Foundation
import Logging
import PostgresNIO

/// A user whose token a request carried, and the log the request reads and writes.
struct Account: Sendable, Hashable {
    /// The user's id.
    var user: Int64
    /// The id of the token: the device.
    var token: UUID
    /// The log the request reads and writes: the user's own, unless it names a shared list the
    /// user is a member of (``ServerDatabase/sharedLog(_:for:)``).
    var log: Int64
    /// The shared list whose log ``log`` is; `nil` for the user's own.
    var list: UUID? = nil
    /// Whether the device may push operations to ``log``: not in a list the user only views.
    var mayEdit = true
}

/// A token as `token list` shows it: never the token itself.
struct TokenSummary: Sendable, Hashable {
    var id: UUID
    var label: String
    var createdAt: Date
    var lastUsedAt: Date?
    var revokedAt: Date?
}

/// Users, their tokens and pairing codes.
///
/// A token is 256 random bits, shown once, and stored as its SHA-256: nothing is left to guess
/// offline. A pairing code is short, for a person to type into a phone; it is valid once, for
/// 10 minutes, and is stored as its SHA-256 too.
extension ServerDatabase {
    /// How long a pairing code is valid.
    static let pairingLifetime: Duration = .seconds(600)

    func addUser(_ name: String) async throws {
        guard (1...100).contains(name.count) else { throw ServerError.badUserName }
        do {
            try await execute("WITH added AS (INSERT INTO users (name) VALUES (\(name)) RETURNING id) INSERT INTO logs (owner_id) SELECT id FROM added")
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw ServerError.userExists(name)
        }
    }

    func userID(named name: String) async throws -> Int64 {
        let id = try await query("SELECT id FROM users WHERE name = \(name)") { rows in
            try await rows.decode(Int64.self).first { _ in true }
        }
        guard let id else { throw ServerError.unknownUser(name) }
        return id
    }

    /// The id of the log of the user's own lists.
    ///
    /// - Throws: ``ServerError/unknownUser(_:)`` when no user has this name.
    func ownLog(ofUser name: String) async throws -> Int64 {
        let id = try await query("SELECT l.id FROM users u JOIN logs l ON l.owner_id = u.id AND l.list IS NULL WHERE u.name = \(name)") { rows in
            try await rows.decode(Int64.self).first { _ in true }
        }
        guard let id else { throw ServerError.unknownUser(name) }
        return id
    }

    /// Makes a token for a user.
    ///
    /// - Returns: The token, to show once, and its id.
    func createToken(forUser user: Int64, label: String) async throws -> (token: String, id: UUID) {
        let token = Self.randomToken()
        let id = UUID()
        try await execute("INSERT INTO tokens (id, user_id, hash, label) VALUES (\(id), \(user), \(Self.digest(token)), \(label))")
        return (token, id)
    }

    func tokens(ofUser user: Int64) async throws -> [TokenSummary] {
        try await query("SELECT id, label, created_at, last_used_at, revoked_at FROM tokens WHERE user_id = \(user) ORDER BY created_at, id") {
            rows in
            var tokens: [TokenSummary] = []
            for try await (id, label, created, used, revoked) in rows.decode((UUID, String, Date, Date?, Date?).self) {
                tokens.append(TokenSummary(id: id, label: label, createdAt: created, lastUsedAt: used, revokedAt: revoked))
            }
            return tokens
        }
    }

    /// Revokes a token; revoking it again changes nothing.
    func revokeToken(_ id: UUID) async throws {
        let found = try await query("UPDATE tokens SET revoked_at = coalesce(revoked_at, now()) WHERE id = \(id) RETURNING id") { rows in
            try await rows.decode(UUID.self).first { _ in true } != nil
        }
        guard found else { throw ServerError.unknownToken(id.uuidString.lowercased()) }
    }

    /// The account of a token that is not revoked, or `nil`. Its last use is recorded to the
    /// minute: a request within a minute of the last recorded one writes nothing, so that it
    /// waits for no commit to reach the disk.
    func account(ofToken token: String) async throws -> Account? {
        let logger = logger
        return try await withConnection { connection in
            try await connection.execute(AccountOfToken(digest: Self.digest(token)), logger: logger).first { _ in true }.map { Account(user: $0.0, token: $0.1, log: $0.2) }
        }
    }

    /// Makes a pairing code for a user, valid once for ``pairingLifetime``.
    func createPairingCode(forUser user: Int64) async throws -> String {
        let code = Self.randomPairingCode()
        let seconds = Int(Self.pairingLifetime.components.seconds)
        try await execute(
            """
            INSERT INTO pairing_codes (hash, user_id, expires_at)
            VALUES (\(Self.digest(Self.normalizedPairingCode(code))), \(user), now() + make_interval(secs => \(seconds)))
            """)
        return code
    }

    /// Spends a pairing code on a new token for its user.
    ///
    /// - Returns: The token and its id, or `nil` for a code that is wrong, spent or expired: the
    ///   answer does not tell which, nor whether a user exists.
    func pair(code: String, label: String) async throws -> (token: String, id: UUID)? {
        let hash = Self.digest(Self.normalizedPairingCode(code))
        let logger = logger
        return try await withTransaction { connection in
            let rows = try await connection.query(
                """
                UPDATE pairing_codes SET used_at = now()
                WHERE hash = \(hash) AND used_at IS NULL AND expires_at > now()
                RETURNING user_id
                """, logger: logger)
            var user: Int64?
            for try await found in rows.decode(Int64.self) { user = found }
            guard let user else { return nil }
            let token = Self.randomToken()
            let id = UUID()
            try await connection.query(
                "INSERT INTO tokens (id, user_id, hash, label) VALUES (\(id), \(user), \(Self.digest(token)), \(label))", logger: logger)
            return (token, id)
        }
    }

    // MARK: Secrets

    /// 256 random bits, in base64url without padding: 43 characters.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The letters of a pairing code: Crockford's base 32, which leaves out I, L, O and U.
    private static let pairingAlphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// Eight letters of ``pairingAlphabet`` (40 bits), as `XXXX-XXXX`.
    static func randomPairingCode() -> String {
        randomCode(groups: 2)
    }

    /// Groups of four random letters of ``pairingAlphabet`` (20 bits each), joined by dashes.
    static func randomCode(groups: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<groups).map { _ in
            String((0..<4).map { _ in pairingAlphabet[Int.random(in: 0..<pairingAlphabet.count, using: &generator)] })
        }.joined(separator: "-")
    }

    /// A code as typed, in capitals without dashes or spaces.
    static func normalizedPairingCode(_ code: String) -> String {
        code.uppercased().filter { $0 != "-" && $0 != " " }
    }

    /// The SHA-256 of a secret, as it is stored.
    static func digest(_ secret: String) -> Data {
        Data(SHA256.hash(data: Data(secret.utf8)))
    }
}
