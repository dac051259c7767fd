public import ArgumentParser
import ArrangeSync
import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// `arrange-server`: devices sync through PostgreSQL.
public struct ArrangeServerCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "arrange-server",
        abstract: "Devices sync their Arrange lists through this server, which keeps each user's log in PostgreSQL.",
        discussion: """
            Any number of server processes can share one database. The database comes from
            --database-url or DATABASE_URL: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, or
            postgres://USER@/DATABASE?host=/socket/folder for a Unix socket.
            """,
        subcommands: [Serve.self, Migrate.self, User.self, Token.self, Pair.self, Fold.self, Restored.self]
    )

    public init() {}

    /// Parses the process's arguments and runs the command they name; exits on an error, with
    /// its message on one line.
    public static func runFromCommandLine() async -> Never {
        do {
            var command = try parseAsRoot()
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
            Foundation.exit(0)
        } catch {
            exit(withError: ServerError.readable(error))
        }
    }
}

/// The database to work on.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("database-url"), help: "The PostgreSQL database (default: DATABASE_URL).")
    var databaseURL: String?

    /// The database the options name, its pool not yet running.
    ///
    /// - Parameters:
    ///   - connections: The most connections to the database the process opens.
    ///   - leaseLimit: How long a query waits for a connection before it gives up.
    ///   - workLimit: How long the work on a connection may take.
    /// - Throws: ``ServerError/missingDatabaseURL`` when neither the option nor `DATABASE_URL`
    ///   names one; ``ServerError/badDatabaseURL(_:)`` when it is not a database URL.
    func database(connections: Int = ServerDatabase.standardConnections, leaseLimit: Duration = .seconds(10), workLimit: Duration = .seconds(600)) throws -> ServerDatabase {
        guard let url = databaseURL ?? ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else { throw ServerError.missingDatabaseURL }
        var logger = Logger(label: "arrange-server")
        logger.logLevel = .error
        return try ServerDatabase(url: url, connections: connections, leaseLimit: leaseLimit, workLimit: workLimit, logger: logger)
    }

    /// Runs `body` on the database, migrated unless `migrated` is false, for a command that
    /// ends: the pool runs as long as `body`.
    func run<Result: Sendable>(migrated: Bool = true, _ body: @Sendable (ServerDatabase) async throws -> Result) async throws -> Result {
        try await database().withRunningPool { database in
            if migrated { try await database.checkSchema() }
            return try await body(database)
        }
    }
}

/// When a user's log is folded, and which devices stop holding folding back.
struct FoldOptions: ParsableArguments {
    @Option(help: "Fold a user's log in the background each time it grows by this many operations; 0 never.")
    var foldEvery: Int64 = FoldPolicy.standard.every
    @Option(help: ArgumentHelp(
        "Days a device may go unseen before a fold retires it.",
        discussion: "A retired device, or one whose token is revoked, no longer holds folding back; should it return, it takes a snapshot."))
    var retireAfterDays: Double = Double(FoldPolicy.standard.retireUnseenSeconds) / 86_400

    func validate() throws {
        guard foldEvery >= 0 else { throw ValidationError("--fold-every is 0 or more.") }
        guard retireAfterDays >= 0, retireAfterDays <= 36_500 else { throw ValidationError("--retire-after-days is from 0 to 36500.") }
    }

    var policy: FoldPolicy { FoldPolicy(every: foldEvery, retireUnseenSeconds: Int64(retireAfterDays * 86_400)) }
}

extension ArrangeServerCommand {
    struct Fold: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Folds a user's log now: what every active device holds leaves the log, for the snapshot.")

        @Option(help: "The user whose log to fold.") var user: String
        @OptionGroup var folding: FoldOptions
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let (user, policy) = (user, folding.policy)
            let outcome = try await database.run { try await $0.fold(log: try await $0.ownLog(ofUser: user), policy: policy) }
            let retired = outcome.replay.retired.map { $0.uuidString.lowercased() }
            print("Folded \(outcome.deleted) operations of \(user)'s log away; \(outcome.replay.snapshot.foldedCount) in all so far.")
            if !retired.isEmpty { print("Retired \(retired.count) replicas: \(retired.joined(separator: ", ")).") }
        }
    }

    struct Migrate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Creates the schema, or brings it up to this version; it only ever adds.")

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let ran = try await database.run(migrated: false) { try await $0.migrate() }
            print(ran.isEmpty ? "The schema is up to date." : ran.map { "Ran \($0)." }.joined(separator: "\n"))
        }
    }

    struct User: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Manages users: each has a log of their own.", subcommands: [Add.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Adds a user.")

            @Argument(help: "The user's name, 1 to 100 characters.") var name: String
            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                try await database.run { try await $0.addUser(name) }
                print("Added user \(name).")
            }
        }
    }

    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Manages device tokens: a token is a device.", subcommands: [Create.self, List.self, Revoke.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Makes a token for a device, and prints it alone on its line, this once.")

            @Option(help: "The user the device syncs for.") var user: String
            @Option(help: "What the token is for, as 'token list' shows it.") var label: String = ""
            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                let token = try await database.run { try await $0.createToken(forUser: try await $0.userID(named: user), label: label).token }
                print(token)
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Lists a user's tokens: id, label, last use and state, never the token.")

            @Option(help: "The user whose tokens to list.") var user: String
            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                let tokens = try await database.run { try await $0.tokens(ofUser: try await $0.userID(named: user)) }
                guard !tokens.isEmpty else {
                    print("\(user) has no tokens.")
                    return
                }
                let format = Date.ISO8601FormatStyle()
                for token in tokens {
                    let state = token.revokedAt.map { "revoked \(format.format($0))" } ?? "active"
                    let used = token.lastUsedAt.map { "last used \(format.format($0))" } ?? "never used"
                    print("\(token.id.uuidString.lowercased())  \(token.label.isEmpty ? "-" : token.label)  \(used)  \(state)")
                }
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Revokes a token: its device can no longer sync.")

            @Argument(help: "The token's id, as 'token list' shows it.") var tokenID: String
            @OptionGroup var database: DatabaseOptions

            func run() async throws {
                guard let id = UUID(uuidString: tokenID) else { throw ServerError.unknownToken(tokenID) }
                try await database.run { try await $0.revokeToken(id) }
                print("Revoked token \(id.uuidString.lowercased()).")
            }
        }
    }

    struct Pair: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Prints a pairing code, valid once for 10 minutes, that a device exchanges for a token of its own.")

        @Option(help: "The user the device syncs for.") var user: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            print(try await database.run { try await $0.createPairingCode(forUser: try await $0.userID(named: user)) })
        }
    }

    struct Restored: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Marks the database as restored from a backup: devices pull from the start again, and push what it lacks.")

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let epoch = try await database.run { try await $0.markRestored() }
            print("The database starts epoch \(epoch.uuidString.lowercased()); restart the server processes.")
        }
    }

    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serves the sync protocol, version 1, over HTTP.",
            discussion: """
                On SIGTERM or SIGINT it stops taking connections, answers the long polls that wait with no new \
                operations, finishes the pushes and the folds under way, and exits with status 0. What still runs \
                \(shutdownLimit.components.seconds) s after the signal is cancelled: a push not yet answered was not acknowledged.
                """)

        @Option(help: "The address to listen on; keep it on loopback, behind a TLS proxy.") var host = "127.0.0.1"
        @Option(help: "The port to listen on; 0 picks a free one.") var port = 8080
        @Option(help: "Requests a second each device may make, on average.") var tokenRate: Double = RequestLimits().perToken
        @Option(help: "Requests a second this process takes from every device together.") var processRate: Double = RequestLimits().perProcess
        @Option(help: "The most long polls that wait at once in this process.") var waitingPolls = RequestLimits().waitingPolls
        @Option(help: ArgumentHelp(
            "The most connections to PostgreSQL this process opens.",
            discussion: "Every process of a deployment opens its own: keep their sum under PostgreSQL's max_connections (100 by default)."))
        var databaseConnections = ServerDatabase.standardConnections
        @OptionGroup var folding: FoldOptions
        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard tokenRate > 0, processRate > 0 else { throw ValidationError("A rate is a number of requests a second above 0.") }
            guard waitingPolls >= 0 else { throw ValidationError("--waiting-polls is 0 or more.") }
            guard databaseConnections > 0 else { throw ValidationError("--database-connections is 1 or more.") }
        }

        func run() async throws {
            var limits = RequestLimits()
            (limits.perToken, limits.tokenBurst) = (tokenRate, tokenRate * 3)
            (limits.perProcess, limits.processBurst) = (processRate, processRate * 2)
            limits.waitingPolls = waitingPolls
            // Answered within 1 s when the database is down, and within 10 s whatever it does.
            let database = try database.database(connections: databaseConnections, leaseLimit: .milliseconds(800), workLimit: .seconds(9))
            var logger = Logger(label: "arrange-server")
            logger.logLevel = .info
            let signals = PushSignals(capacity: limits.waitingPolls)
            let folds = FoldService(database: database, policy: folding.policy, logger: logger)
            let server = SyncServer(
                database: database, signals: signals, folds: folds, limits: limits, folding: folding.policy, host: host, port: port, logger: logger)
            // The services start together, and shut down one at a time from the last: the long
            // polls are answered, the server answers the requests it took and stops, the folds
            // that pushes asked for end, and the pool closes.
            var services = ServiceGroupConfiguration(
                services: [database.client, folds, server, PushListener(signals: signals, database: database)],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            services.maximumGracefulShutdownDuration = Self.shutdownLimit
            try await ServiceGroup(configuration: services).run()
        }

        /// How long a shutdown may take before what still runs is cancelled: a push not yet
        /// answered is then not acknowledged, and a fold not yet stored leaves the log as it was.
        static let shutdownLimit: Duration = .seconds(4)
    }
}
