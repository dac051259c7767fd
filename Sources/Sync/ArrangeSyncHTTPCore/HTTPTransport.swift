public import Foundation

/// What sends ``HTTPSyncRemote``'s requests: one HTTP exchange at a time, a request out and its
/// response back, whatever the status.
///
/// `ArrangeSyncHTTP` sends them with `URLSession` (`URLSessionHTTPTransport`). A program that
/// must not load `URLSession` at start (on Linux it brings libcurl and some thirty libraries
/// with it) can hand the exchanges to another process instead, as the `arrange` command does.
public protocol HTTPTransport: Sendable {
    /// Sends `request` and answers the server's response.
    ///
    /// - Parameter request: The request, its URL absolute.
    /// - Returns: The response, whatever its status.
    /// - Throws: Any error when no response came: the server is out of reach, the request
    ///   timed out. ``HTTPSyncRemote`` reports it as ``HTTPSyncError/unreachable(server:reason:)``
    ///   with the error's `localizedDescription`.
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse
}

/// One HTTP request, as a ``HTTPTransport`` sends it.
public struct HTTPTransportRequest: Hashable, Sendable {
    /// The method: `GET` or `POST`.
    public var method: String
    /// The absolute URL, its query included.
    public var url: URL
    /// The header fields, by name.
    public var headers: [String: String]
    /// The body; empty for none.
    public var body: Data
    /// How long to wait for the response, in seconds.
    public var timeout: Double

    /// A request.
    ///
    /// - Parameters:
    ///   - method: The method: `GET` or `POST`.
    ///   - url: The absolute URL, its query included.
    ///   - headers: The header fields, by name.
    ///   - body: The body; empty for none.
    ///   - timeout: How long to wait for the response, in seconds.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data = Data(), timeout: Double = 30) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}

/// One HTTP response, as a ``HTTPTransport`` answers it.
public struct HTTPTransportResponse: Hashable, Sendable {
    /// The status code.
    public var status: Int
    /// The header fields, by name as the server spelled it.
    public var headers: [String: String]
    /// The body; empty for none.
    public var body: Data

    /// A response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: The header fields, by name.
    ///   - body: The body; empty for none.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of a header field, its name matched without regard to case as HTTP's are.
    ///
    /// - Parameter name: The field's name.
    /// - Returns: Its value, or `nil` when the response has no such field.
    public func value(forHeader name: String) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
