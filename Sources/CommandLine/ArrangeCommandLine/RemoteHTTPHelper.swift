import ArrangeHTTPPipe
import ArrangeSyncHTTPCore
import Foundation

/// The `arrange-remote-http` process that sends a sync's HTTP requests, so that `arrange` does
/// not load `URLSession` (on Linux, libcurl and some thirty libraries) at every start: a
/// command that does not sync starts in about half the time.
///
/// It is started for one sync and ended after it: ``withTransport(_:)``.
enum RemoteHTTPHelper {
    /// The helper's file name.
    static let name = "arrange-remote-http"
    /// How long the helper has to end once its standard input is closed, before it is stopped.
    static let exitTimeLimit: Duration = .seconds(5)

    /// Runs `body` with a transport through a helper process started for it, and ends the
    /// process after it, whether `body` returns or throws.
    ///
    /// - Parameter body: What sends requests through the transport.
    /// - Returns: What `body` returns.
    /// - Throws: ``CommandLineError/unavailable(_:)`` when the helper is not installed, does
    ///   not start, or ends in failure before `body` is done (it could not load its libraries,
    ///   say); otherwise what `body` throws.
    static func withTransport<Result>(_ body: (any HTTPTransport) async throws -> Result) async throws -> Result {
        let process = Process()
        process.executableURL = try executable()
        let requests = Pipe()
        let responses = Pipe()
        let errors = Pipe()
        process.standardInput = requests
        process.standardOutput = responses
        process.standardError = errors
        let (exited, exit) = AsyncStream<Never>.makeStream()
        process.terminationHandler = { _ in exit.finish() }
        // A helper that died must fail the write to its pipe, not end arrange with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        do {
            try process.run()
        } catch {
            throw CommandLineError.unavailable("\(name) does not start: \(error.localizedDescription).")
        }
        let outcome: Swift.Result<Result, any Error>
        do {
            outcome = .success(try await body(PipeHTTPTransport(requests: requests.fileHandleForWriting, responses: responses.fileHandleForReading)))
        } catch {
            outcome = .failure(error)
        }
        try? requests.fileHandleForWriting.close()
        try? responses.fileHandleForReading.close()
        if !(await ended(exited, within: exitTimeLimit)) {
            process.terminate()
            process.waitUntilExit()
        }
        if case .failure = outcome, process.terminationReason == .uncaughtSignal || process.terminationStatus != 0 {
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .split(separator: "\n").first.map { ": \($0)" } ?? ""
            throw CommandLineError.unavailable(
                "\(name) ended with status \(process.terminationStatus) before it answered\(said); reinstall it beside arrange.")
        }
        return try outcome.get()
    }

    /// Whether the stream finishes within `limit`.
    private static func ended(_ exited: AsyncStream<Never>, within limit: Duration) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in exited {}
                return !Task.isCancelled
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// The helper beside the running `arrange` (its links resolved), else the first on `PATH`.
    private static func executable() throws(CommandLineError) -> URL {
        let files = FileManager.default
        let beside = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates = beside.map { [$0.appendingPathComponent(name)] } ?? []
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(URL(fileURLWithPath: String(folder)).appendingPathComponent(name))
        }
        let found = candidates.first { candidate in
            var isFolder: ObjCBool = false
            return files.fileExists(atPath: candidate.path, isDirectory: &isFolder) && !isFolder.boolValue
                && files.isExecutableFile(atPath: candidate.path)
        }
        guard let found else {
            let folder = beside.map { " (\($0.path))" } ?? ""
            throw .unavailable("Syncing with a server needs \(name), which is neither beside arrange\(folder) nor on PATH; install it beside arrange.")
        }
        return found
    }
}
