import ArrangeSync
import ArrangeSyncHTTP
import Foundation
import Synchronization
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a server test could not set up what it needs. The tests fail then; they never skip.
enum ServerTestSetup: Error, CustomStringConvertible {
    case noCluster
    case noExecutable
    case commandFailed([String], String)
    case serverDidNotStart(String)
    case noServer(URL)

    var description: String {
        switch self {
        case .noCluster: "ARRANGE_TEST_DATABASE_URL names no PostgreSQL cluster: run the tests through scripts/test, which starts one."
        case .noExecutable: "arrange-server was not built next to the tests: run swift build --build-tests."
        case .commandFailed(let arguments, let error): "arrange-server \(arguments.joined(separator: " ")) failed: \(error)"
        case .serverDidNotStart(let output): "arrange-server serve did not start: \(output)"
        case .noServer(let address): "No arrange-server serve of the fixture runs at \(address)."
        }
    }
}

/// A database of its own on the test cluster, migrated, and `arrange-server` processes serving it.
final class ServerFixture: @unchecked Sendable {
    /// The built `arrange-server`, next to the test bundle.
    static let executable: URL? = {
        let bundle = Bundle.main.bundleURL
        return [
            bundle.appendingPathComponent("arrange-server"),
            bundle.deletingLastPathComponent().appendingPathComponent("arrange-server"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("arrange-server"),
        ].first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Numbers the databases of one test process.
    private static let databases = Atomic<Int>(0)
    /// Numbers the server logs that ARRANGE_TEST_SERVER_LOG asks for.
    private static let serverLogs = Atomic<Int>(0)

    /// The URL of this fixture's database.
    let databaseURL: String
    /// The `serve` processes it started, and the address each listens on, once it said.
    private var servers: [(address: URL?, process: Process)] = []

    /// Makes a database of its own on the cluster, and migrates it.
    init() throws {
        guard let cluster = ProcessInfo.processInfo.environment["ARRANGE_TEST_DATABASE_URL"],
              var components = URLComponents(string: cluster)
        else { throw ServerTestSetup.noCluster }
        let name = "arrange_test_\(getpid())_\(Self.databases.add(1, ordering: .relaxed).newValue)"
        try Self.runCommand(["psql", cluster, "-q", "-c", "DROP DATABASE IF EXISTS \(name)", "-c", "CREATE DATABASE \(name)"])
        components.path = "/\(name)"
        databaseURL = components.string ?? cluster
        try run(["migrate"])
    }

    deinit {
        for (_, server) in servers where server.isRunning { server.terminate() }
    }

    /// Runs an `arrange-server` command on the fixture's database, and answers its standard output.
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        guard let executable = Self.executable else { throw ServerTestSetup.noExecutable }
        return try Self.runCommand([executable.path] + arguments, environment: ["DATABASE_URL": databaseURL])
    }

    /// Runs one SQL query on the fixture's database, and answers its single value.
    func value(_ query: String) throws -> String {
        try Self.runCommand(["psql", databaseURL, "-tAq", "-c", query]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Writes a backup of the fixture's database to `file`, as `pg_dump` does.
    func backUp(to file: URL) throws {
        try Self.runCommand(["pg_dump", "--format=custom", "--file", file.path, databaseURL])
    }

    /// Puts the database back as `backUp(to:)` wrote it, as an operator restores a backup.
    func restore(from file: URL) throws {
        try Self.runCommand(["pg_restore", "--clean", "--if-exists", "--no-owner", "--dbname", databaseURL, file.path])
    }

    /// Stops every server process the fixture started, and waits for each to end.
    func stopServers() {
        for (_, server) in servers where server.isRunning {
            server.terminate()
            server.waitUntilExit()
        }
        servers.removeAll()
    }

    /// Adds a user and answers a token of theirs.
    func user(_ name: String) throws -> String {
        try run(["user", "add", name])
        return try run(["token", "create", "--user", name]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts an `arrange-server serve` process on a free port, and answers its address.
    ///
    /// - Parameters:
    ///   - options: More options of `serve`; a free port unless they name one.
    ///   - environment: More variables of its environment.
    func startServer(_ options: [String] = [], environment: [String: String] = [:]) throws -> URL {
        guard let executable = Self.executable else { throw ServerTestSetup.noExecutable }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve"] + (options.contains("--port") ? [] : ["--port", "0"]) + options
        process.environment = ProcessInfo.processInfo.environment.merging(environment.merging(["DATABASE_URL": databaseURL]) { $1 }) { $1 }
        let output = Pipe()
        process.standardOutput = output
        // ARRANGE_TEST_SERVER_LOG=PREFIX keeps each server's log, in PREFIX0, PREFIX1 and on.
        if let prefix = ProcessInfo.processInfo.environment["ARRANGE_TEST_SERVER_LOG"] {
            let path = "\(prefix)\(Self.serverLogs.add(1, ordering: .relaxed).oldValue)"
            // A file that cannot be made is reported by the handle that opens it, next.
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        servers.append((nil, process))
        // The first line it prints names its address.
        var line = Data()
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty {
            if byte == Data("\n".utf8) { break }
            line += byte
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "http://"), let url = URL(string: String(text[range.lowerBound...])) else {
            throw ServerTestSetup.serverDidNotStart(text)
        }
        servers[servers.count - 1].address = url
        return url
    }

    /// How a server process ended.
    struct ServerExit: CustomStringConvertible {
        /// Its exit status, or the signal that ended it.
        var status: Int32
        var reason: Process.TerminationReason
        /// How long it ran on after SIGTERM; `nil` when it was still running at the end of the
        /// wait, and was killed.
        var after: Duration?

        var description: String {
            let how = reason == .exit ? "exited with status \(status)" : "was ended by signal \(status)"
            return "\(how) " + (after.map { "\($0) after SIGTERM" } ?? "only when killed")
        }
    }

    /// Sends SIGTERM to the server listening at `server`, as a service manager stops it, and
    /// waits for it to end; kills it if it still runs after `limit`.
    ///
    /// - Throws: ``ServerTestSetup/noServer(_:)`` when no server of the fixture runs there.
    func terminateServer(at server: URL, waitingAtMost limit: Duration) async throws -> ServerExit {
        guard let process = servers.last(where: { $0.address == server && $0.process.isRunning })?.process else {
            throw ServerTestSetup.noServer(server)
        }
        let clock = ContinuousClock()
        let signalled = clock.now
        kill(process.processIdentifier, SIGTERM)
        while process.isRunning, signalled.duration(to: clock.now) < limit {
            try await Task.sleep(for: .milliseconds(10))
        }
        var after: Duration? = signalled.duration(to: clock.now)
        if process.isRunning {
            after = nil
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        return ServerExit(status: process.terminationStatus, reason: process.terminationReason, after: after)
    }

    /// Kills the server process at `server` with SIGKILL, as a crash does, and waits for it to end.
    ///
    /// - Throws: ``ServerTestSetup/noServer(_:)`` when no server of the fixture runs there.
    func killServer(at server: URL) throws {
        guard let process = servers.last(where: { $0.address == server && $0.process.isRunning })?.process else {
            throw ServerTestSetup.noServer(server)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Runs `pg_ctl ACTION` on the test cluster (`stop -m immediate`, `start`), as the cluster's
    /// owner, and waits for it to finish, up to 90 s: a start after an immediate stop recovers
    /// from the write-ahead log first, which takes long on a machine that builds beside it.
    static func cluster(_ action: [String]) throws {
        let environment = ProcessInfo.processInfo.environment
        guard let bin = environment["ARRANGE_TEST_POSTGRES_BIN"], let data = environment["ARRANGE_TEST_POSTGRES_DATA"] else {
            throw ServerTestSetup.noCluster
        }
        let pgCtl = ["\(bin)/pg_ctl", "-D", data, "-l", "\(data)/../log", "-w", "-t", "90"] + action
        let arguments = getuid() == 0 ? ["runuser", "-u", "postgres", "--"] + pgCtl : pgCtl
        // Spawned and waited for here: Foundation's Process waits for what the server that
        // pg_ctl starts keeps open, and would never see pg_ctl end.
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
            posix_spawn_file_actions_addopen(&fileActions, descriptor, "/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
        }
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        argv.append(nil)
        var child = pid_t()
        guard let program = argv[0], posix_spawnp(&child, program, &fileActions, nil, argv, environ) == 0 else {
            throw ServerTestSetup.commandFailed(action, "pg_ctl could not be started")
        }
        var status: Int32 = 0
        while waitpid(child, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else { throw ServerTestSetup.commandFailed(action, "pg_ctl \(action.joined(separator: " ")) failed with status \(status)") }
    }

    /// ``cluster(_:)`` on a thread of its own, so that the tasks of a test go on meanwhile.
    static func clusterInBackground(_ action: [String]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async { continuation.resume(with: Result { try cluster(action) }) }
        }
    }

    /// Runs a command to its end, and answers its standard output; throws with its standard
    /// error when it fails.
    @discardableResult
    static func runCommand(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        guard run.status == 0 else { throw ServerTestSetup.commandFailed(Array(arguments.dropFirst()), run.error) }
        return run.output
    }

    /// Runs an executable to its end, in `environment`; answers its status, standard output and standard error.
    static func runProcess(_ executable: URL, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let (output, error) = (Pipe(), Pipe())
        (process.standardOutput, process.standardError) = (output, error)
        try process.run()
        // Standard error is small; standard output is read first, to its end, so that a full pipe cannot stall the child.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self))
    }
}

/// A raw HTTP exchange with a server, for the tests of what it refuses.
struct RawClient: Sendable {
    let server: URL
    let token: String?
    /// The session of the requests; the shared one holds only a few connections to a server at once.
    var session = URLSession.shared

    struct Answer {
        var status: Int
        var body: Data
        var headers: [String: String]

        /// The refusal the body holds, if it holds one.
        var refusal: SyncServerError? { try? JSONDecoder().decode(SyncServerError.Body.self, from: body).error }
    }

    func send(_ method: String, _ path: String, query: String? = nil, body: Data? = nil, contentType: String? = nil) async throws -> Answer {
        var components = URLComponents(url: server.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        components?.percentEncodedQuery = query
        var request = URLRequest(url: try #require(components?.url))
        request.httpMethod = method
        request.httpBody = body
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        return Answer(status: http.statusCode, body: data, headers: headers)
    }

    /// Pushes operations as `replica`, in a body of the protocol, to the user's own log, or
    /// with `query` (`list=ID`) to a shared list's.
    func push(
        _ operations: [SyncOperation], from replica: ReplicaID, through: String = "1:00000000-0000-0000-0000-000000000000", query: String? = nil,
        acknowledgements: [SyncAcknowledgement] = []
    ) async throws -> Answer {
        let body = try OperationFile.encode(OperationFile.Contents(
            operations: operations, acknowledgements: acknowledgements, replica: replica, through: SyncCursor(rawValue: through)))
        return try await send("POST", SyncProtocol.pushPath, query: query, body: body, contentType: SyncProtocol.operationsMediaType)
    }
}
