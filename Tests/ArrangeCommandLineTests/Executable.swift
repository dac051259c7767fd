import Foundation
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built `arrange` executable, run in a home folder of its own.
///
/// `swift build --build-tests` builds it, since this test target depends on its target; it
/// lies next to the test bundle in the build products folder.
struct Executable {
    /// Where `arrange` is, or `nil` when it was not built.
    static let url: URL? = {
        let bundle = Bundle.main.bundleURL
        let candidates = [
            bundle.appendingPathComponent("arrange"),
            bundle.deletingLastPathComponent().appendingPathComponent("arrange"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("arrange"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// The home folder the runs use; the default database goes under it.
    let home: URL

    /// What one run did.
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    /// The environment of a run: a home of its own, no XDG or ARRANGE_ variables of the user's.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ARRANGE_") && !$0.key.hasPrefix("XDG_") }
        environment["HOME"] = home.path
        return environment.merging(extra) { $1 }
    }

    /// Runs `arrange` with `arguments` and `input` on standard input, and waits for it.
    @discardableResult
    func run(_ arguments: [String], input: String = "", environment extra: [String: String] = [:]) throws -> Run {
        guard let executable = Self.url else { throw Missing.executable }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment(extra)
        let (stdin, stdout, stderr) = (Pipe(), Pipe(), Pipe())
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        try writeAll(Data(input.utf8), to: stdin.fileHandleForWriting)
        try stdin.fileHandleForWriting.close()
        // Read both pipes to the end before waiting, so that a full pipe cannot stall the child.
        let errorData = Mutex(Data())
        let errorRead = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let data = stderr.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
            errorRead.signal()
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        errorRead.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
            error: errorData.withLock { String(decoding: $0, as: UTF8.self) })
    }
}

/// Writes all of `data` to a pipe, retrying when a signal interrupts the write.
///
/// `FileHandle.write(_:)` traps on `EINTR`, which the tests meet whenever another test's
/// child process exits (SIGCHLD) during a write. A closed pipe throws rather than raising
/// SIGPIPE, which would end the test process.
func writeAll(_ data: Data, to handle: FileHandle) throws {
    signal(SIGPIPE, SIG_IGN)
    try data.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(handle.fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                guard errno == EINTR else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                continue
            }
            offset += written
        }
    }
}

/// Why a test cannot go on.
enum Missing: Error {
    /// `arrange` was not built next to the tests.
    case executable
    /// A line of output is not a JSON object.
    case jsonObject(String)
}

/// The JSON object on a line of output.
func jsonObject(_ text: String) throws -> [String: Any] {
    guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
        throw Missing.jsonObject(text)
    }
    return object
}

/// A running `arrange` with pipes on both ends, for a conversation line by line.
final class Conversation {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()

    init(_ executable: Executable, arguments: [String], environment extra: [String: String] = [:]) throws {
        guard let url = Executable.url else { throw Missing.executable }
        process.executableURL = url
        process.arguments = arguments
        process.environment = executable.environment(extra)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    /// Sends one line and returns at once, without reading its answer.
    func sendWithoutWaiting(_ line: String) throws {
        try writeAll(Data((line + "\n").utf8), to: input.fileHandleForWriting)
    }

    /// Sends one line and waits, at most `timeout` seconds, for one line of answer.
    func send(_ line: String, timeout: Double = 10) throws -> String {
        try sendWithoutWaiting(line)
        let descriptor = output.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                defer { buffer.removeSubrange(...newline) }
                return String(decoding: buffer[..<newline], as: UTF8.self)
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow) * 1_000)
            guard poll(&poller, 1, remaining) > 0 else { throw ConversationError.noAnswer(line) }
            var chunk = [UInt8](repeating: 0, count: 4_096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { throw ConversationError.noAnswer(line) }
            buffer += chunk[..<count]
        }
    }

    /// Closes standard input and waits for the exit status.
    func finish() throws -> Int32 {
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        return process.terminationStatus
    }

    enum ConversationError: Error {
        case noAnswer(String)
    }
}
