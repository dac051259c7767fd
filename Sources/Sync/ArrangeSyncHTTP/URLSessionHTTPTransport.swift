@_exported public import ArrangeSyncHTTPCore
public import Foundation
#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// A `HTTPTransport` on `URLSession`: what an app syncs through.
public struct URLSessionHTTPTransport: HTTPTransport {
    /// The session that sends the requests.
    public let session: URLSession

    /// A transport that sends its requests with `session`.
    ///
    /// - Parameter session: The session that sends the requests.
    public init(session: URLSession = .shared) {
        self.session = session
    }

    /// Sends `request` with the session, and answers its response, whatever the status.
    ///
    /// - Parameter request: The request, its URL absolute.
    /// - Returns: The response, whatever its status.
    /// - Throws: `URLSession`'s error when no response came; `URLError(.badServerResponse)`
    ///   when the response is not HTTP.
    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        var urlRequest = URLRequest(url: request.url, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        if !request.body.isEmpty { urlRequest.httpBody = request.body }
        let (body, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for case (let name as String, let value as String) in http.allHeaderFields { headers[name] = value }
        return HTTPTransportResponse(status: http.statusCode, headers: headers, body: body)
    }
}

extension HTTPSyncRemote {
    /// A remote at `server`, reached with the device's `token` through `URLSession`.
    ///
    /// - Parameters:
    ///   - server: The server's address, `http://` or `https://`, without a path.
    ///   - token: The device's token (`arrange-server token create`, or ``pair(with:code:label:session:)``).
    ///   - session: The session that sends the requests.
    public init(server: URL, token: String, session: URLSession = .shared) {
        self.init(server: server, token: token, transport: URLSessionHTTPTransport(session: session))
    }

    /// Exchanges a pairing code (`arrange-server pair`) for the device's own token, through `URLSession`.
    ///
    /// - Parameters:
    ///   - server: The server's address.
    ///   - code: The code, valid once and for 10 minutes.
    ///   - label: What the token is for, as the server lists it.
    ///   - session: The session that sends the request.
    /// - Returns: The token, which the server shows this once.
    /// - Throws: `SyncServerError` with `SyncServerError.Code.unauthorized` for a wrong or
    ///   spent code; `HTTPSyncError` when the server cannot be reached or answers nonsense.
    public static func pair(with server: URL, code: String, label: String? = nil, session: URLSession = .shared) async throws -> DeviceToken {
        try await pair(with: server, code: code, label: label, transport: URLSessionHTTPTransport(session: session))
    }
}
