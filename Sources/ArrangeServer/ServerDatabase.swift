import Foundation
import Logging
import PostgresNIO

/// The server's PostgreSQL database: a pool of connections, and the schema's migrations.
///
/// The pool runs in a task of its own for as long as ``run(_:)`` runs its body.
struct ServerDatabase: Sendable {
    let client: PostgresClient
    let logger: Logger

    /// Opens a pool on the database at `url`, runs `body` with it, and closes it.
    ///
    /// - Parameters:
    ///   - url: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, or with `?host=/socket/folder`
    ///     (and `&port=PORT`) for a Unix socket.
    ///   - connections: The most connections the pool opens.
    static func run<Result: Sendable>(
        url: String, connections: Int = 20, logger: Logger, _ body: @Sendable (ServerDatabase) async throws -> Result
    ) async throws -> Result {
        var configuration = try configuration(of: url)
        configuration.options.maximumConnections = connections
        configuration.options.connectTimeout = .seconds(1)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(ServerDatabase(client: client, logger: logger))
        }
    }

    /// The configuration of a database URL.
    ///
    /// - Throws: ``ServerError/badDatabaseURL(_:)`` when the URL is not one.
    static func configuration(of url: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
              let user = components.user, !user.isEmpty
        else { throw ServerError.badDatabaseURL(url) }
        let database = String(components.path.drop { $0 == "/" })
        let password = components.password?.removingPercentEncoding
        if let socketFolder = components.queryItems?.first(where: { $0.name == "host" })?.value, socketFolder.hasPrefix("/") {
            let port = components.port ?? components.queryItems?.first(where: { $0.name == "port" })?.value.flatMap { Int($0) } ?? 5432
            return PostgresClient.Configuration(
                unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password, database: database.isEmpty ? nil : database)
        }
        guard let host = components.host, !host.isEmpty else { throw ServerError.badDatabaseURL(url) }
        return PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: password, database: database.isEmpty ? nil : database,
            tls: .disable)
    }

    // MARK: Migrations

    /// The schema's migrations, in order. Only ever appended: a database records which it ran.
    static let migrations: [(name: String, statements: [String])] = [
        (
            "v1: users, tokens, pairing codes, the log",
            [
                """
                CREATE TABLE arrange_server (
                    singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
                    epoch uuid NOT NULL
                )
                """,
                "INSERT INTO arrange_server (epoch) VALUES (gen_random_uuid())",
                """
                CREATE TABLE users (
                    id bigserial PRIMARY KEY,
                    name text NOT NULL UNIQUE,
                    head bigint NOT NULL DEFAULT 0,
                    created_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                """
                CREATE TABLE tokens (
                    id uuid PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    hash bytea NOT NULL UNIQUE,
                    label text NOT NULL DEFAULT '',
                    created_at timestamptz NOT NULL DEFAULT now(),
                    last_used_at timestamptz,
                    revoked_at timestamptz
                )
                """,
                """
                CREATE TABLE pairing_codes (
                    hash bytea PRIMARY KEY,
                    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    expires_at timestamptz NOT NULL,
                    used_at timestamptz
                )
                """,
                """
                CREATE TABLE operations (
                    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    position bigint NOT NULL,
                    id uuid NOT NULL,
                    replica uuid NOT NULL,
                    sequence bigint NOT NULL,
                    body text NOT NULL,
                    digest bytea NOT NULL,
                    PRIMARY KEY (user_id, position),
                    UNIQUE (user_id, id)
                )
                """,
                "CREATE INDEX operations_by_replica ON operations (user_id, replica, sequence)",
                """
                CREATE TABLE replicas (
                    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    replica uuid NOT NULL,
                    token_id uuid REFERENCES tokens (id) ON DELETE SET NULL,
                    held bigint NOT NULL DEFAULT 0,
                    received text,
                    acknowledgement text,
                    acknowledged_milliseconds bigint,
                    acknowledged_counter bigint,
                    last_seen_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (user_id, replica)
                )
                """,
            ]
        ),
    ]

    /// Runs the migrations this database has not run yet, each in a transaction of its own,
    /// under a lock so that two processes never run one twice.
    ///
    /// - Returns: The names of the migrations it ran.
    @discardableResult
    func migrate() async throws -> [String] {
        try await client.withConnection { connection in
            try await connection.query(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now()
                )
                """, logger: logger)
            var ran: [String] = []
            for (index, migration) in Self.migrations.enumerated() {
                let version = index + 1
                let applied = try await connection.withTransaction(logger: logger) { connection in
                    try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
                    let rows = try await connection.query("SELECT 1 FROM schema_migrations WHERE version = \(version)", logger: logger)
                    for try await _ in rows { return false }
                    for statement in migration.statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
                    try await connection.query("INSERT INTO schema_migrations (version, name) VALUES (\(version), \(migration.name))", logger: logger)
                    return true
                }
                if applied { ran.append(migration.name) }
            }
            return ran
        }
    }

    /// Throws ``ServerError/notMigrated`` unless every migration has run, and
    /// ``ServerError/newerSchema`` when the database has run migrations this server lacks.
    func checkSchema() async throws {
        var version = 0
        do {
            let rows = try await client.query("SELECT coalesce(max(version), 0) FROM schema_migrations", logger: logger)
            for try await found in rows.decode(Int.self) { version = found }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P01" {
            throw ServerError.notMigrated
        }
        guard version >= Self.migrations.count else { throw ServerError.notMigrated }
        guard version == Self.migrations.count else { throw ServerError.newerSchema(version) }
    }

    /// The key of the advisory lock that migrations hold.
    private static let migrationLock: Int64 = 0x4172_7261_6E67_6501
}
