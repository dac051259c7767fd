import NIOCore
import NIOHTTP1
import NIOPosix

/// One request of a load run: everything but the host, which the connection adds.
struct LoadRequest: Sendable {
    var method: HTTPMethod
    var uri: String
    var token: String?
    var contentType: String?
    var body: ByteBuffer?
}

/// An answer, as much of it as a load run reads.
struct LoadAnswer: Sendable {
    var status: HTTPResponseStatus
    var body: ByteBuffer
}

/// A keep-alive HTTP/1.1 connection that sends one request at a time and waits for its answer:
/// one device, or one `wrk` connection.
struct LoadConnection {
    private let outbound: NIOAsyncChannelOutboundWriter<HTTPClientRequestPart>
    private var inbound: NIOAsyncChannelInboundStream<HTTPClientResponsePart>.AsyncIterator
    private let host: String

    /// Connects to `host`:`port`, runs `body` on the connection, and closes it.
    static func with<Result: Sendable>(
        host: String, port: Int, group: any EventLoopGroup, _ body: (inout LoadConnection) async throws -> Result
    ) async throws -> Result {
        let channel = try await ClientBootstrap(group: group)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var connection = LoadConnection(outbound: outbound, inbound: inbound.makeAsyncIterator(), host: "\(host):\(port)")
            return try await body(&connection)
        }
    }

    /// Sends `request` and reads its whole answer.
    ///
    /// - Throws: `LoadError.closed` when the server closes the connection before it answers.
    mutating func send(_ request: LoadRequest) async throws -> LoadAnswer {
        var headers = HTTPHeaders([("Host", host), ("Content-Length", String(request.body?.readableBytes ?? 0))])
        if let token = request.token { headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let contentType = request.contentType { headers.add(name: "Content-Type", value: contentType) }
        try await outbound.write(.head(HTTPRequestHead(version: .http1_1, method: request.method, uri: request.uri, headers: headers)))
        if let body = request.body { try await outbound.write(.body(.byteBuffer(body))) }
        try await outbound.write(.end(nil))
        var status: HTTPResponseStatus?
        var body = ByteBuffer()
        while let part = try await inbound.next() {
            switch part {
            case .head(let head): status = head.status
            case .body(var chunk): body.writeBuffer(&chunk)
            case .end:
                guard let status else { throw LoadError.closed }
                return LoadAnswer(status: status, body: body)
            }
        }
        throw LoadError.closed
    }
}

/// Why a load run stopped.
enum LoadError: Error, CustomStringConvertible {
    case closed
    case refused(String)

    var description: String {
        switch self {
        case .closed: "the server closed a connection before it answered"
        case .refused(let reason): reason
        }
    }
}
