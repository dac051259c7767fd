import ArrangeModel
import Foundation
import Logging
import PostgresNIO

/// The server's PostgreSQL database: a pool of connections, and the schema's migrations.
///
/// The pool takes queries only while its client runs: a command that ends runs it for as long
/// as its work (``withRunningPool(_:)``), and `serve` runs it as a service of its group
/// (``client`` is a `Service`).
struct ServerDatabase: Sendable {
    let client: PostgresClient
    let logger: Logger
    /// How long a query waits for a connection of the pool before it gives up with
    /// ``ServerError/databaseUnreachable``.
    let leaseLimit: Duration
    /// How long the work on a connection may take, its wait for the connection included,
    /// before it gives up with ``ServerError/databaseUnreachable``.
    let workLimit: Duration

    /// The most connections a process opens to the database, unless told otherwise: PostgreSQL
    /// takes 100 by default, so that five processes fit.
    static let standardConnections = 20

    /// A pool on the database at `url`, not yet running.
    ///
    /// - Parameters:
    ///   - url: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, or with `?host=/socket/folder`
    ///     (and `&port=PORT`) for a Unix socket.
    ///   - connections: The most connections the pool opens.
    ///   - leaseLimit: How long a query waits for a connection before it gives up.
    ///   - workLimit: How long the work on a connection may take.
    ///   - logger: Where the pool logs what happens in the background.
    /// - Throws: ``ServerError/badDatabaseURL(_:)`` when `url` is not a database URL.
    init(url: String, connections: Int = standardConnections, leaseLimit: Duration, workLimit: Duration, logger: Logger) throws {
        var configuration = try Self.configuration(of: url)
        configuration.options.maximumConnections = connections
        configuration.options.connectTimeout = .seconds(1)
        // No statement outlives a request, nor waits long for a user's log, nor holds it locked
        // when its client is gone.
        configuration.options.additionalStartupParameters = [
            ("statement_timeout", "5s"), ("lock_timeout", "5s"), ("idle_in_transaction_session_timeout", "10s"),
            ("application_name", "arrange-server"),
        ]
        client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.logger = logger
        self.leaseLimit = leaseLimit
        self.workLimit = workLimit
    }

    /// Runs the pool while `body` runs, and closes it after: for a command that ends.
    func withRunningPool<Result: Sendable>(_ body: @Sendable (ServerDatabase) async throws -> Result) async throws -> Result {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await body(self)
        }
    }

    /// Runs `body` on a connection of the pool.
    ///
    /// The caller is answered in time whatever the database does: it does not wait for a
    /// connection past ``leaseLimit``, nor for `body` past ``workLimit``. Work that runs over is
    /// cancelled, and left to end on its own.
    ///
    /// - Throws: ``ServerError/databaseUnreachable`` when no connection comes within
    ///   ``leaseLimit`` (the database is down, or every connection busy), or `body` does not end
    ///   within ``workLimit``; what `body` throws.
    func withConnection<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        let answer = Answer<Result>()
        let (client, logger, leaseLimit, workLimit) = (client, logger, leaseLimit, workLimit)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                answer.start(continuation)
                let work = Task {
                    do {
                        answer.give(.success(try await client.withConnection { connection in
                            answer.leased()
                            return try await body(connection)
                        }))
                    } catch {
                        answer.give(.failure(error))
                    }
                }
                let timer = Task {
                    try await Task.sleep(for: leaseLimit)
                    guard answer.isLeased else {
                        return answer.give(.failure(ServerError.databaseUnreachable)) { work.cancel() }
                    }
                    try await Task.sleep(for: workLimit - leaseLimit)
                    answer.give(.failure(ServerError.databaseUnreachable)) {
                        logger.warning("Work on a database connection ran past its time, and was cancelled")
                        work.cancel()
                    }
                }
                answer.onGiven(cancelWork: { work.cancel() }, stopTimer: { timer.cancel() })
            }
        } onCancel: {
            answer.give(.failure(CancellationError()))
        }
    }

    /// Runs `body` in a transaction on a connection of the pool: committed when it returns,
    /// rolled back when it throws.
    ///
    /// - Throws: What `body` throws, and what ``withConnection(_:)`` throws.
    func withTransaction<Result: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> Result) async throws -> Result {
        try await withConnection { connection in try await connection.withTransaction(logger: logger) { try await body($0) } }
    }

    /// Runs a statement, and decodes its rows with `decode`.
    func query<Row: Sendable>(
        _ query: PostgresQuery, decoding decode: @escaping @Sendable (PostgresRowSequence) async throws -> Row
    ) async throws -> Row {
        try await withConnection { connection in try await decode(try await connection.query(query, logger: logger)) }
    }

    /// Runs a statement whose rows do not matter.
    func execute(_ query: PostgresQuery) async throws {
        try await withConnection { connection in _ = try await connection.query(query, logger: logger) }
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
        (
            "v2: folds",
            [
                """
                CREATE TABLE folds (
                    user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
                    replica uuid NOT NULL,
                    last_sequence bigint NOT NULL DEFAULT 0,
                    last_milliseconds bigint NOT NULL DEFAULT 0,
                    last_counter bigint NOT NULL DEFAULT 0,
                    snapshot bytea,
                    folded text NOT NULL DEFAULT '{}',
                    folded_tips text NOT NULL DEFAULT '{}',
                    folded_position bigint NOT NULL DEFAULT 0,
                    folded_count bigint NOT NULL DEFAULT 0,
                    folded_at timestamptz,
                    generation bigint NOT NULL DEFAULT 0
                )
                """,
            ]
        ),
        (
            "v3: the epoch of each fold",
            ["ALTER TABLE folds ADD COLUMN epoch uuid"]
        ),
        (
            "v4: logs of their own, shared lists, members and invites",
            [
                // Every user's log becomes a row of its own, under the user's id; a shared list's
                // log is a row too, owned by the user who shared it.
                """
                CREATE TABLE logs (
                    id bigserial PRIMARY KEY,
                    owner_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    list uuid UNIQUE,
                    head bigint NOT NULL DEFAULT 0,
                    created_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE UNIQUE INDEX logs_of_users ON logs (owner_id) WHERE list IS NULL",
                "INSERT INTO logs (id, owner_id, head) SELECT id, id, head FROM users",
                "SELECT setval(pg_get_serial_sequence('logs', 'id'), coalesce((SELECT max(id) FROM logs), 0) + 1, false)",
                "ALTER TABLE users DROP COLUMN head",
                "ALTER TABLE operations RENAME COLUMN user_id TO log_id",
                "ALTER TABLE operations DROP CONSTRAINT operations_user_id_fkey",
                "ALTER TABLE operations ADD FOREIGN KEY (log_id) REFERENCES logs (id) ON DELETE CASCADE",
                "ALTER TABLE replicas RENAME COLUMN user_id TO log_id",
                "ALTER TABLE replicas DROP CONSTRAINT replicas_user_id_fkey",
                "ALTER TABLE replicas ADD FOREIGN KEY (log_id) REFERENCES logs (id) ON DELETE CASCADE",
                "ALTER TABLE folds RENAME COLUMN user_id TO log_id",
                "ALTER TABLE folds DROP CONSTRAINT folds_user_id_fkey",
                "ALTER TABLE folds ADD FOREIGN KEY (log_id) REFERENCES logs (id) ON DELETE CASCADE",
                """
                CREATE TABLE memberships (
                    log_id bigint NOT NULL REFERENCES logs (id) ON DELETE CASCADE,
                    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    role text NOT NULL CHECK (role IN ('edit', 'view')),
                    joined_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (log_id, user_id)
                )
                """,
                "CREATE INDEX memberships_of_users ON memberships (user_id)",
                """
                CREATE TABLE invites (
                    hash bytea PRIMARY KEY,
                    log_id bigint NOT NULL REFERENCES logs (id) ON DELETE CASCADE,
                    role text NOT NULL CHECK (role IN ('edit', 'view')),
                    created_by bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                    expires_at timestamptz NOT NULL,
                    used_at timestamptz,
                    used_by bigint REFERENCES users (id) ON DELETE SET NULL
                )
                """,
                // What each shared log holds: its list, and the items, headings, checklist
                // entries and series made in it. A thing is of one log only. No foreign key: a
                // push records its things before it takes its log's lock, and a key share of the
                // log's row by every push at once costs PostgreSQL a MultiXact each time.
                """
                CREATE TABLE log_entities (
                    id uuid PRIMARY KEY,
                    log_id bigint NOT NULL
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
        let logger = logger
        return try await withConnection { connection in
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
        let version: Int
        do {
            version = try await query("SELECT coalesce(max(version), 0) FROM schema_migrations") { try await $0.decode(Int.self).first { _ in true } ?? 0 }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P01" {
            throw ServerError.notMigrated
        }
        guard version >= Self.migrations.count else { throw ServerError.notMigrated }
        guard version == Self.migrations.count else { throw ServerError.newerSchema(version) }
    }

    /// The answer of ``withConnection(_:)``: given once, by the work, its time running out, or
    /// the caller's cancellation, whichever comes first.
    private final class Answer<Value: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Value, any Error>?
            var early: Swift.Result<Value, any Error>?
            var isLeased = false
            var isGiven = false
            var cancelWork: (@Sendable () -> Void)?
            var stopTimer: (@Sendable () -> Void)?
        }

        private let state = Locked(State())

        var isLeased: Bool { state.withLock { $0.isLeased } }

        func leased() {
            state.withLock { $0.isLeased = true }
        }

        func start(_ continuation: CheckedContinuation<Value, any Error>) {
            let early = state.withLock { state in
                state.continuation = continuation
                return state.early
            }
            if let early { continuation.resume(with: early) }
        }

        /// Registers what ends the work, on a failure given, and its timer, on any answer; runs
        /// both now when an answer was given already.
        func onGiven(cancelWork: @escaping @Sendable () -> Void, stopTimer: @escaping @Sendable () -> Void) {
            let isGiven = state.withLock { state in
                (state.cancelWork, state.stopTimer) = (cancelWork, stopTimer)
                return state.isGiven
            }
            if isGiven {
                cancelWork()
                stopTimer()
            }
        }

        /// Gives `result`, and runs `then`, unless an answer was given already.
        func give(_ result: Swift.Result<Value, any Error>, then: () -> Void = {}) {
            let taken: State? = state.withLock { state in
                guard !state.isGiven else { return nil }
                defer { state.isGiven = true }
                if state.continuation == nil { state.early = result }
                return state
            }
            guard let taken else { return }
            taken.continuation?.resume(with: result)
            taken.stopTimer?()
            if case .failure = result { taken.cancelWork?() }
            then()
        }
    }

    /// The key of the advisory lock that migrations hold.
    private static let migrationLock: Int64 = 0x4172_7261_6E67_6501
}
