public import ArrangeSyncHTTPCore
public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTP exchanges carried over a pair of pipes, between `arrange` and `arrange-remote-http`.
///
/// `arrange` does not link `URLSession`: on Linux it brings libcurl and some thirty libraries
/// that every start would load, for the one command that talks to a server. As git hands
/// `https://` remotes to `git-remote-https`, `arrange` hands each request to the helper
/// process (``PipeHTTPTransport``), which sends it and writes back the response
/// (``HTTPPipeServer``).
///
/// Each message is a line of JSON, then as many bytes of body as the line says:
///
/// ```text
/// {"method":"GET","url":"https://sync.example.com/v1/state?replica=…","headers":{…},"timeout":30,"bodyLength":0}
/// {"status":200,"headers":{…},"bodyLength":312}
/// …312 bytes…
/// ```
///
/// A request that got no response is answered `{"failure":"why"}`.
enum HTTPPipeFrame {
    /// What precedes a request's body.
    struct RequestHead: Codable {
        var method: String
        var url: URL
        var headers: [String: String]
        var timeout: Double
        var bodyLength: Int
    }

    /// What precedes a response's body, or says why there is none.
    struct ResponseHead: Codable {
        var status: Int?
        var headers: [String: String]?
        var bodyLength: Int?
        var failure: String?
    }

    /// A request's head line and body.
    static func encode(_ request: HTTPTransportRequest) throws -> Data {
        let head = RequestHead(
            method: request.method, url: request.url, headers: request.headers, timeout: request.timeout, bodyLength: request.body.count)
        return try line(head) + request.body
    }

    /// A response's head line and body.
    static func encode(_ response: HTTPTransportResponse) throws -> Data {
        try line(ResponseHead(status: response.status, headers: response.headers, bodyLength: response.body.count)) + response.body
    }

    /// The line that says a request got no response, and why.
    static func encode(failure: String) throws -> Data {
        try line(ResponseHead(failure: failure))
    }

    /// Reads the next request, or `nil` at the end of the stream before one starts.
    static func readRequest(from reader: PipeReader) throws(HTTPPipeError) -> HTTPTransportRequest? {
        guard let line = try reader.line() else { return nil }
        let head = try decode(RequestHead.self, from: line)
        let body = try reader.bytes(head.bodyLength)
        return HTTPTransportRequest(method: head.method, url: head.url, headers: head.headers, body: body, timeout: head.timeout)
    }

    /// Reads the response to the request just written.
    static func readResponse(from reader: PipeReader) throws(HTTPPipeError) -> HTTPTransportResponse {
        guard let line = try reader.line() else { throw .helperStopped }
        let head = try decode(ResponseHead.self, from: line)
        if let failure = head.failure { throw .failed(failure) }
        guard let status = head.status, let bodyLength = head.bodyLength else { throw .malformed("a response names no status") }
        return HTTPTransportResponse(status: status, headers: head.headers ?? [:], body: try reader.bytes(bodyLength))
    }

    private static func line(_ head: some Encodable) throws -> Data {
        var data = try JSONEncoder().encode(head)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    private static func decode<Head: Decodable>(_ type: Head.Type, from line: Data) throws(HTTPPipeError) -> Head {
        do {
            return try JSONDecoder().decode(type, from: line)
        } catch {
            throw .malformed("a line is not a \(type)")
        }
    }
}

/// Why an exchange over the pipes failed.
public enum HTTPPipeError: Error, Hashable, Sendable, LocalizedError {
    /// The helper process ended before it answered.
    case helperStopped
    /// The request got no response: the helper says why (the server is out of reach, the
    /// request timed out).
    case failed(String)
    /// What came down a pipe is not this format: the helper is of another version, or not it.
    case malformed(String)
    /// A pipe could not be read or written.
    case pipe(String)

    /// What went wrong, in English; ``HTTPSyncError`` carries it as its reason.
    public var errorDescription: String? {
        switch self {
        case .helperStopped: "arrange-remote-http stopped before it answered"
        case .failed(let reason): reason
        case .malformed(let reason): "arrange-remote-http answered something other than an HTTP exchange (\(reason)); it may be of another version"
        case .pipe(let reason): "the pipe to arrange-remote-http failed (\(reason))"
        }
    }
}

/// Reads lines and runs of bytes from a pipe, through a buffer. Its reads block, so it is used
/// only on its ``queue``, which is serial, never on the cooperative pool.
final class PipeReader: @unchecked Sendable {
    // @unchecked: the buffer is touched only on `queue`.
    /// Where the reads run.
    let queue = DispatchQueue(label: "arrange.http-pipe")
    private let handle: FileHandle
    private var buffer = Data()
    private var ended = false
    /// The longest head line taken, far above any the format writes.
    private static let longestLine = 1 << 20

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    /// Runs `work`, which may block on the pipes, on ``queue``, and answers what it answers.
    func onQueue<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result(catching: work)) }
        }
    }

    /// The next line, without its newline; `nil` when the stream ends before a line starts.
    func line() throws(HTTPPipeError) -> Data? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[(newline + 1)...])
                return Data(line)
            }
            guard buffer.count <= Self.longestLine else { throw .malformed("a line is longer than \(Self.longestLine) bytes") }
            if !(try fill()) {
                guard buffer.isEmpty else { throw .helperStopped }
                return nil
            }
        }
    }

    /// The next `count` bytes.
    func bytes(_ count: Int) throws(HTTPPipeError) -> Data {
        guard count >= 0 else { throw .malformed("a length is negative") }
        while buffer.count < count {
            guard try fill() else { throw .helperStopped }
        }
        let bytes = Data(buffer.prefix(count))
        buffer = Data(buffer.dropFirst(count))
        return bytes
    }

    /// Reads what the pipe holds, once some is there, into the buffer; `false` at the end of
    /// the stream. (`FileHandle.read(upToCount:)` would wait for the whole count.)
    private func fill() throws(HTTPPipeError) -> Bool {
        guard !ended else { return false }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.append(contentsOf: chunk[..<count])
                return true
            }
            if count == 0 {
                ended = true
                return false
            }
            guard errno == EINTR else { throw .pipe(String(cString: strerror(errno))) }
        }
    }
}

/// A ``HTTPTransport`` that writes each request down one pipe and reads its response from
/// another: the side of `arrange`. Requests are sent one at a time, in the order they come.
///
/// Reads and writes block, so they run on a serial queue of their own, never on the
/// caller's thread or the cooperative pool. Once an exchange breaks off part-way (the helper
/// stopped, or wrote something else than this format), the pipes are out of step, and every
/// later request fails with the same error.
public final class PipeHTTPTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `broken` is touched only on the reader's queue, which is serial.
    private let output: FileHandle
    private let reader: PipeReader
    private var broken: HTTPPipeError?

    /// A transport that writes requests to `requests` and reads responses from `responses`.
    ///
    /// - Parameters:
    ///   - requests: Where requests are written: the helper's standard input.
    ///   - responses: Where responses are read: the helper's standard output.
    public init(requests: FileHandle, responses: FileHandle) {
        output = requests
        reader = PipeReader(responses)
    }

    /// Writes `request` down the pipe and waits for its response.
    ///
    /// - Parameter request: The request, its URL absolute.
    /// - Returns: The response, whatever its status.
    /// - Throws: ``HTTPPipeError``: the helper's reason when the request got no response, or
    ///   what went wrong with the pipes.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        let frame = try HTTPPipeFrame.encode(request)
        return try await reader.onQueue { [self] in
            if let broken { throw broken }
            do {
                do {
                    try output.write(contentsOf: frame)
                } catch {
                    throw HTTPPipeError.helperStopped
                }
                return try HTTPPipeFrame.readResponse(from: reader)
            } catch let error as HTTPPipeError {
                if case .failed = error {} else { broken = error }
                throw error
            }
        }
    }
}

/// Answers requests read from one pipe through a transport, and writes the responses to
/// another: the side of `arrange-remote-http`.
public enum HTTPPipeServer {
    /// Serves requests until the stream of requests ends.
    ///
    /// - Parameters:
    ///   - requests: Where requests are read: standard input.
    ///   - responses: Where responses are written: standard output.
    ///   - transport: What sends each request.
    /// - Throws: ``HTTPPipeError`` when the stream of requests breaks off inside one, or is
    ///   not this format; the error of a write to `responses`.
    public static func serve(requests: FileHandle, responses: FileHandle, through transport: any HTTPTransport) async throws {
        let reader = PipeReader(requests)
        while let request = try await reader.onQueue({ try HTTPPipeFrame.readRequest(from: reader) }) {
            let frame: Data
            do {
                frame = try HTTPPipeFrame.encode(try await transport.send(request))
            } catch {
                frame = try HTTPPipeFrame.encode(failure: error.localizedDescription)
            }
            try responses.write(contentsOf: frame)
        }
    }
}
