import ArgumentParser
import Foundation
import NIOHTTP1
import NIOPosix

/// The load client of the server benchmark (`scripts/bench-server`), and the bare Hummingbird
/// endpoint it measures as a ceiling.
@main
struct ServerBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "arrange-server-bench",
        abstract: "Load arrange-server on loopback, and measure what it does against the ceilings.",
        discussion: """
            scripts/bench-server runs every figure of BENCHMARKS.md's server section with it: it \
            starts a PostgreSQL cluster and the servers, and calls these. Each load run prints \
            one line of JSON: requests, operations, seconds, rates, latency percentiles in \
            milliseconds, errors and the statuses answered.
            """,
        subcommands: [ServeBare.self, Push.self, Pull.self, LongPolls.self, IdlePulls.self])
}

/// A user's device, as a line of the tokens file gives it: `TOKEN`, or `TOKEN LIST` for a
/// device whose pushes and polls go to the log of shared list LIST.
struct LoadUser: Sendable {
    var token: String
    var list: UUID?

    /// `?list=ID` for a shared list's log, or nothing.
    var logQuery: String { list.map { "?list=\($0.uuidString.lowercased())" } ?? "" }
}

/// Where to send load, and as whom.
struct LoadTarget: ParsableArguments {
    @Option(help: "The server's address, on loopback.") var server: String = "http://127.0.0.1:8080"
    @Option(help: "A file of device tokens, one per line: TOKEN, or TOKEN LIST for a device that works in shared list LIST.") var tokens: String

    /// The server's host and port.
    func address() throws -> (host: String, port: Int) {
        guard let url = URL(string: server), url.scheme == "http", let host = url.host, let port = url.port else {
            throw ValidationError("--server takes http://HOST:PORT; '\(server)' is not one.")
        }
        return (host, port)
    }

    /// The devices of the file, one a line.
    func users() throws -> [LoadUser] {
        let users = try String(contentsOfFile: tokens, encoding: .utf8).split(whereSeparator: \.isNewline).map { line in
            let fields = line.split(separator: " ")
            guard let token = fields.first, fields.count <= 2 else { throw ValidationError("'\(line)' is not TOKEN or TOKEN LIST.") }
            guard let list = fields.dropFirst().first else { return LoadUser(token: String(token)) }
            guard let id = UUID(uuidString: String(list)) else { throw ValidationError("'\(list)' is not a list id.") }
            return LoadUser(token: String(token), list: id)
        }
        guard !users.isEmpty else { throw ValidationError("\(tokens) holds no token.") }
        return users
    }
}

extension ServerBench {
    struct Push: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Push batches of new operations, each connection for its own users, one request at a time.")

        @OptionGroup var target: LoadTarget
        @Option(help: "Connections sending at once.") var connections = 16
        @Option(help: "Operations per push.") var batch = 50
        @Option(help: "Seconds to push for.") var duration = 60.0
        @Option(help: "The most operations to make ready beforehand; the run ends early once it has pushed them all.")
        var operations = 2_000_000

        func validate() throws {
            guard connections > 0, batch > 0, duration > 0, operations >= batch else {
                throw ValidationError("--connections, --batch and --duration must be positive, and --operations at least --batch.")
            }
        }

        func run() async throws {
            let (host, port) = try target.address()
            let users = try PushingUser.make(users: try target.users(), pushes: operations / batch, batch: batch)
            let figures = try await LoadRun.run(
                "push", connections: connections, host: host, port: port, duration: duration, users: users
            ) { user in
                guard let body = user.nextPush() else { return nil }
                return (
                    LoadRequest(method: .POST, uri: "/v1/push\(user.device.logQuery)", token: user.device.token, contentType: "application/x-ndjson", body: body),
                    batch
                )
            } count: { _, _ in 0 }
            print(try figures.json())
        }
    }

    struct Pull: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pull pages of each user's log from the start, again and again, each connection for its own users.")

        @OptionGroup var target: LoadTarget
        @Option(help: "Connections pulling at once.") var connections = 16
        @Option(help: "Operations per page.") var page = 500
        @Option(help: "Seconds to pull for.") var duration = 30.0

        func validate() throws {
            guard connections > 0, page > 0, duration > 0 else { throw ValidationError("--connections, --page and --duration must be positive.") }
        }

        func run() async throws {
            let (host, port) = try target.address()
            let users = try target.users().map { PullingUser(token: $0.token) }
            let figures = try await LoadRun.run(
                "pull", connections: connections, host: host, port: port, duration: duration, users: users
            ) { user in
                (LoadRequest(method: .GET, uri: user.nextURI(limit: page), token: user.token), 0)
            } count: { user, answer in
                user.read(answer)
            }
            print(try figures.json())
        }
    }

    struct LongPolls: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open many idle long polls, read the server's memory, then push once and time how soon each poll answers.",
            discussion: "The polls take the devices of the tokens file in turn; the first device pushes.")

        @OptionGroup var target: LoadTarget
        @Option(help: "Long polls waiting at once.") var polls = 1_000
        @Option(help: "The server's process id, to read its resident memory; 0 reads none.") var serverPid = 0
        @Option(help: "Seconds the polls wait idle before the push.") var idle = 3.0

        func run() async throws {
            let (host, port) = try target.address()
            let figures = try await LongPollRun(host: host, port: port, devices: try target.users(), polls: polls, serverPID: serverPid, idle: idle).run()
            print(try figures.json())
        }
    }

    struct IdlePulls: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "idle-pulls",
            abstract: "Pull with nothing new, again and again: the shared lists' heads (GET /v1/shares), then the user's own log after its head.",
            discussion: "Each pull is the two requests a device makes to learn that nothing is new, in its own log or any shared list it is in.")

        @OptionGroup var target: LoadTarget
        @Option(help: "Connections pulling at once.") var connections = 16
        @Option(help: "Seconds to pull for.") var duration = 30.0

        func run() async throws {
            let (host, port) = try target.address()
            let users = try await IdleUser.make(users: try target.users(), host: host, port: port)
            let figures = try await LoadRun.run(
                "idle-pulls", connections: connections, host: host, port: port, duration: duration, users: users
            ) { user in
                (user.nextRequest(), 0)
            } count: { user, _ in
                user.answered()
            }
            print(try figures.json())
        }
    }

    struct ServeBare: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve-bare",
            abstract: "Serve the ceiling: a bare Hummingbird endpoint that reads a push and answers it, and answers a pull with a page made once.")

        @Option(help: "The port to listen on, on 127.0.0.1.") var port = 8081
        @Option(help: "Operations in the page a pull gets.") var page = 500

        func run() async throws {
            try await BareServer(port: port, pageOperations: page).run()
        }
    }
}

/// The event loops every load run shares: one thread, as `wrk -t1`.
let loadEventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
