@testable import ArrangeHTTPPipe
import ArrangeSyncHTTPCore
import Foundation
import Testing

/// HTTP exchanges between `arrange` and `arrange-remote-http`, over two pipes in one process.
@Suite("HTTP exchanges over pipes")
struct HTTPPipeTests {
    /// A server that answers each request with what it received, or fails the ones marked so.
    struct EchoTransport: HTTPTransport {
        func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
            if request.headers["Fail"] != nil { throw URLError(.cannotConnectToHost) }
            return HTTPTransportResponse(
                status: request.method == "POST" ? 201 : 200,
                headers: request.headers.merging(["Echo-URL": request.url.absoluteString, "Echo-Timeout": "\(request.timeout)"]) { $1 },
                body: request.body)
        }
    }

    /// Runs `body` with a client transport whose requests an ``HTTPPipeServer`` answers through `server`.
    func withPipes(through server: some HTTPTransport, _ body: (PipeHTTPTransport) async throws -> Void) async throws {
        let requests = Pipe()
        let responses = Pipe()
        let serving = Task {
            try await HTTPPipeServer.serve(
                requests: requests.fileHandleForReading, responses: responses.fileHandleForWriting, through: server)
        }
        do {
            try await body(PipeHTTPTransport(requests: requests.fileHandleForWriting, responses: responses.fileHandleForReading))
        } catch {
            // The server's end of the stream, so that its task ends too.
            try? requests.fileHandleForWriting.close()
            throw error
        }
        try requests.fileHandleForWriting.close()
        try await serving.value
    }

    @Test("Requests and responses cross the pipes whole: method, URL, headers, timeout, any bytes of body, empty bodies")
    func roundTrip() async throws {
        try await withPipes(through: EchoTransport()) { transport in
            var generator = SystemRandomNumberGenerator()
            for length in [0, 1, 10, 65_535, 65_536, 65_537, 300_000] {
                // Newlines and braces in the body, which a line-oriented reader might split on.
                let body = Data((0..<length).map { index in index % 7 == 0 ? UInt8(ascii: "\n") : UInt8.random(in: 0...255, using: &generator) })
                let url = try #require(URL(string: "https://sync.example.com/v1/ops?after=a%20b&limit=\(length)"))
                let request = HTTPTransportRequest(
                    method: length.isMultiple(of: 2) ? "GET" : "POST", url: url,
                    headers: ["Authorization": "Bearer t\"o\nken", "Content-Type": "application/x-ndjson"], body: body, timeout: 12.5)
                let response = try await transport.send(request)
                #expect(response.status == (request.method == "POST" ? 201 : 200))
                #expect(response.body == body)
                #expect(response.value(forHeader: "authorization") == "Bearer t\"o\nken")
                #expect(response.value(forHeader: "ECHO-URL") == url.absoluteString)
                #expect(response.value(forHeader: "Echo-Timeout") == "12.5")
                #expect(response.value(forHeader: "Missing") == nil)
            }
        }
    }

    @Test("A request that got no response fails with the server side's reason, and the next one still goes through")
    func failurePassesThrough() async throws {
        try await withPipes(through: EchoTransport()) { transport in
            let url = try #require(URL(string: "http://127.0.0.1:9/health"))
            let reason = URLError(.cannotConnectToHost).localizedDescription
            await #expect(throws: HTTPPipeError.failed(reason)) {
                try await transport.send(HTTPTransportRequest(method: "GET", url: url, headers: ["Fail": "yes"]))
            }
            #expect(try await transport.send(HTTPTransportRequest(method: "GET", url: url)).status == 200)
        }
    }

    @Test("A helper that stops, or answers something else, fails the request with an error that says so")
    func brokenHelper() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:9/health"))
        for (answer, expected) in [
            ("", HTTPPipeError.helperStopped),
            ("{\"status\":200,\"headers\":{},\"bodyLength\":10}\nshort", .helperStopped),
            ("{\"status\":200,\"headers\":{},\"bodyLength\":-1}\n", .malformed("a length is negative")),
            ("{\"headers\":{}}\n", .malformed("a response names no status")),
            ("HTTP/1.1 200 OK\n", .malformed("a line is not a ResponseHead")),
        ] {
            let requests = Pipe()
            let responses = Pipe()
            try responses.fileHandleForWriting.write(contentsOf: Data(answer.utf8))
            try responses.fileHandleForWriting.close()
            let transport = PipeHTTPTransport(requests: requests.fileHandleForWriting, responses: responses.fileHandleForReading)
            await #expect(throws: expected) { try await transport.send(HTTPTransportRequest(method: "GET", url: url)) }
            // The pipes are out of step now: every later request fails the same way, reading nothing.
            await #expect(throws: expected) { try await transport.send(HTTPTransportRequest(method: "GET", url: url)) }
            #expect(expected.localizedDescription.contains("arrange-remote-http"))
        }
    }

    @Test("A stream of requests that breaks off inside one ends the server with an error; one that ends between requests ends it cleanly")
    func requestsBreakOff() async throws {
        let whole = try HTTPPipeFrame.encode(HTTPTransportRequest(method: "POST", url: try #require(URL(string: "http://h/x")), body: Data("12345".utf8)))
        for (input, fails) in [(Data(), false), (whole.dropLast(2), true), (whole.prefix(5), true)] {
            let requests = Pipe()
            let responses = Pipe()
            try requests.fileHandleForWriting.write(contentsOf: input)
            try requests.fileHandleForWriting.close()
            let serve = { try await HTTPPipeServer.serve(requests: requests.fileHandleForReading, responses: responses.fileHandleForWriting, through: EchoTransport()) }
            if fails {
                await #expect(throws: HTTPPipeError.helperStopped) { try await serve() }
            } else {
                try await serve()
            }
        }
    }
}
