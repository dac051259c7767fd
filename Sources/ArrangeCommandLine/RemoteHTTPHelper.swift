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

    /// Runs `body` with a transport through a helper process started for it, and ends the
    /// process after it, whether `body` returns or throws.
    ///
    /// - Throws: ``CommandLineError/unavailable(_:)`` when the helper is not installed or does
    ///   not start; what `body` throws.
    static func withTransport<Result>(_ body: (any HTTPTransport) async throws -> Result) async throws -> Result {
        let process = Process()
        process.executableURL = try executable()
        let requests = Pipe()
        let responses = Pipe()
        process.standardInput = requests
        process.standardOutput = responses
        // A helper that died must fail the write to its pipe, not end arrange with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        do {
            try process.run()
        } catch {
            throw CommandLineError.unavailable("\(name) does not start: \(error.localizedDescription).")
        }
        defer {
            try? requests.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        return try await body(PipeHTTPTransport(requests: requests.fileHandleForWriting, responses: responses.fileHandleForReading))
    }

    /// The helper beside the running `arrange` (its links resolved), else the first on `PATH`.
    private static func executable() throws(CommandLineError) -> URL {
        let files = FileManager.default
        var candidates: [URL] = []
        if let own = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(own.deletingLastPathComponent().appendingPathComponent(name))
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            candidates.append(URL(fileURLWithPath: String(folder)).appendingPathComponent(name))
        }
        guard let found = candidates.first(where: { files.isExecutableFile(atPath: $0.path) }) else {
            let beside = candidates.first.map { " (\($0.deletingLastPathComponent().path))" } ?? ""
            throw .unavailable("Syncing with a server needs \(name), which is neither beside arrange\(beside) nor on PATH; install it beside arrange.")
        }
        return found
    }
}
