public import ArrangeModel
public import ArrangeSync
public import Foundation

/// An Arrange sync server (`arrange-server`) as a remote, over HTTP with ``SyncProtocol`` version 1.
///
/// ```swift
/// let remote = HTTPSyncRemote(server: URL(string: "https://sync.example.com")!, token: token)
/// let report = try await engine.sync(with: remote)
/// ```
///
/// Its requests go through a ``HTTPTransport``. An app imports `ArrangeSyncHTTP`, whose
/// `HTTPSyncRemote(server:token:)`, above, sends them with `URLSession` (`URLSessionHTTPTransport`),
/// so an app's path holds no SwiftNIO; ``init(server:token:transport:)`` takes any other.
///
/// The remote syncs the user's own log. A list shared with other people has a log of its own
/// on the server, which ``sharedList(_:)`` reaches; the sharing calls (``invite(to:as:)``,
/// ``join(code:)``, ``sharedLists()``, ``members(of:)``, ``remove(_:from:)``, ``leave(_:)``)
/// let an app offer a share sheet:
///
/// ```swift
/// let invite = try await remote.invite(to: groceries.rawValue, as: .edit)   // pass on invite.code
/// let joined = try await othersRemote.join(code: invite.code)              // on another user's device
/// ```
public struct HTTPSyncRemote: SyncRemote {
    /// The server's address.
    public let server: URL
    /// The shared list whose log the remote reads and writes; `nil` for the user's own log.
    public let list: ItemList.ID?
    /// The server's address, as the store's cursor into it is kept; a shared list's log is
    /// `SERVER/lists/ID`.
    public let identity: String
    private let token: String
    private let transport: any HTTPTransport

    /// A remote at `server`, reached with the device's `token` through `transport`.
    ///
    /// - Parameters:
    ///   - server: The server's address, `http://` or `https://`, without a path.
    ///   - token: The device's token (`arrange-server token create`, or ``pair(with:code:label:transport:)``).
    ///   - transport: What sends the requests.
    public init(server: URL, token: String, transport: any HTTPTransport) {
        self.init(server: server, token: token, list: nil, transport: transport)
    }

    private init(server: URL, token: String, list: ItemList.ID?, transport: any HTTPTransport) {
        self.server = server
        self.token = token
        self.list = list
        self.transport = transport
        let address = server.absoluteString.hasSuffix("/") ? String(server.absoluteString.dropLast()) : server.absoluteString
        identity = list.map { "\(address)/lists/\($0.rawValue.lowercasedString)" } ?? address
    }

    /// The same server and token, on the log of shared list `list`, which the user is a member of.
    public func sharedList(_ list: UUID) -> HTTPSyncRemote {
        HTTPSyncRemote(server: server, token: token, list: ItemList.ID(rawValue: list), transport: transport)
    }

    /// Exchanges a pairing code (`arrange-server pair`) for the device's own token.
    ///
    /// - Parameters:
    ///   - server: The server's address.
    ///   - code: The code, valid once and for 10 minutes.
    ///   - label: What the token is for, as the server lists it.
    ///   - transport: What sends the request.
    /// - Returns: The token, which the server shows this once.
    /// - Throws: ``SyncServerError`` with ``SyncServerError/Code/unauthorized`` for a wrong or
    ///   spent code; ``HTTPSyncError`` when the server cannot be reached or answers nonsense.
    public static func pair(with server: URL, code: String, label: String? = nil, transport: any HTTPTransport) async throws -> DeviceToken {
        let request = HTTPTransportRequest(
            method: "POST", url: server.appendingPathComponent(SyncProtocol.pairPath),
            headers: ["Content-Type": SyncProtocol.jsonMediaType],
            body: try SyncProtocol.encoder.encode(DevicePairing(code: code, label: label)))
        return try decodeJSON(DeviceToken.self, from: try await send(request, to: server, through: transport).body, server: server)
    }

    public func state(for replica: ReplicaID) async throws -> SyncRemoteState {
        let data = try await get(SyncProtocol.statePath, query: [URLQueryItem(name: "replica", value: replica.rawValue.lowercasedString)] + logQuery).body
        let state = try Self.decodeJSON(SyncServerState.self, from: data, server: server)
        return SyncRemoteState(
            held: try keyed(state.held), folded: try keyed(state.folded), foldedTips: try keyed(state.foldedTips),
            coordinatesFolding: state.coordinatesFolding, received: state.received, clock: state.serverTime)
    }

    /// A page of the server's operations after `cursor`.
    ///
    /// - Throws: `SyncError.missingFoldedOperations` when the server folded away operations
    ///   after `cursor` (``SyncServerError/Code/snapshotRequired``), so that the engine takes
    ///   its snapshot; `SyncError.unknownCursor` when the server no longer holds the history
    ///   `cursor` points into (``SyncServerError/Code/cursorInvalid``), so that it pulls from
    ///   the start; ``SyncServerError`` for another refusal, ``HTTPSyncError`` for a server
    ///   out of reach or an answer that is not the protocol's.
    public func pull(after cursor: SyncCursor?, limit: Int) async throws -> SyncPage {
        var query = [URLQueryItem(name: "limit", value: String(max(1, min(limit, SyncProtocol.maximumPageSize))))] + logQuery
        if let cursor { query.append(URLQueryItem(name: "after", value: cursor.rawValue)) }
        let data: Data
        do {
            data = try await get(SyncProtocol.operationsPath, query: query).body
        } catch let refusal as SyncServerError where refusal.code == .snapshotRequired {
            throw SyncError.missingFoldedOperations
        } catch let refusal as SyncServerError where refusal.code == .cursorInvalid {
            throw SyncError.unknownCursor
        }
        let page = try Self.decodeOperations(data, server: server)
        guard let next = page.cursor else { throw HTTPSyncError.badAnswer(server: server, reason: "a page of operations names no cursor") }
        return SyncPage(
            operations: page.operations, cursor: next, isComplete: page.isComplete ?? true, folded: page.folded, foldedTips: page.foldedTips,
            acknowledgements: page.acknowledgements)
    }

    /// Sends operations in as many requests as the server's limits take (``SyncProtocol/maximumBodyBytes``,
    /// ``SyncProtocol/maximumOperationsPerPush``), each all or nothing. Only the last names
    /// `through`, so the server records where the push ended once it holds every operation. The
    /// server merges nothing, so there is no report.
    ///
    /// - Throws: `SyncError.replicaInUse` when the server says another database syncs as
    ///   `replica` (``SyncServerError/Code/replicaForked``), so that the engine takes a new
    ///   replica id; `SyncError.clockAhead` when operations are stamped too far ahead of the
    ///   server's clock (``SyncServerError/Code/clockSkew``), so that the engine corrects its
    ///   clock and stamps them again; ``SyncServerError`` for another refusal, ``HTTPSyncError`` for a server
    ///   out of reach or an answer that is not the protocol's.
    public func push(
        _ operations: [SyncOperation], from replica: ReplicaID, through: SyncCursor, acknowledgements: [SyncAcknowledgement]
    ) async throws -> MergeReport? {
        let batches = try Self.batches(of: operations)
        for (index, batch) in batches.enumerated() {
            let isLast = index == batches.count - 1
            var request = request("POST", SyncProtocol.pushPath, query: logQuery)
            request.headers["Content-Type"] = SyncProtocol.operationsMediaType
            request.body = try OperationFile.encode(OperationFile.Contents(
                operations: batch, acknowledgements: isLast ? acknowledgements : [], replica: replica, through: isLast ? through : nil))
            do {
                let response = try await Self.send(request, to: server, through: transport)
                _ = try Self.decodeJSON(SyncPushAnswer.self, from: response.body, server: server)
            } catch let refusal as SyncServerError where refusal.code == .replicaForked {
                throw SyncError.replicaInUse
            } catch let refusal as SyncServerError where refusal.code == .clockSkew {
                guard let serverTime = refusal.serverTime else { throw refusal }
                throw SyncError.clockAhead(remoteClock: serverTime)
            }
        }
        return nil
    }

    /// The operations in batches that each fit one push, in order; one empty batch for none.
    static func batches(of operations: [SyncOperation]) throws -> [[SyncOperation]] {
        // Room for the header, its acknowledgements and the trailer.
        let budget = SyncProtocol.maximumBodyBytes * 3 / 4
        var batches: [[SyncOperation]] = [[]]
        var bytes = 0
        for operation in operations {
            let size = try operation.json().count + 1
            if let last = batches.last, !last.isEmpty, last.count == SyncProtocol.maximumOperationsPerPush || bytes + size > budget {
                batches.append([])
                bytes = 0
            }
            batches[batches.count - 1].append(operation)
            bytes += size
        }
        return batches
    }

    public func snapshot() async throws -> SyncRemoteSnapshot {
        let response = try await get(SyncProtocol.snapshotPath, query: logQuery)
        let snapshot: SyncSnapshot
        do {
            snapshot = try SnapshotFile.decode(response.body)
        } catch {
            throw HTTPSyncError.badAnswer(server: server, reason: error.localizedDescription)
        }
        return SyncRemoteSnapshot(snapshot: snapshot, cursor: response.value(forHeader: SyncProtocol.cursorHeader).map(SyncCursor.init))
    }

    /// The digest of the store that the server's log makes, and the cursor after the last
    /// operation it takes in. A store that pulled up to that cursor and has nothing left to
    /// push holds exactly what the server holds when its own digest
    /// (`try await engine.snapshot().stateDigest`) is the same.
    ///
    /// - Throws: ``SyncServerError`` for a refusal, ``HTTPSyncError`` for a server out of reach
    ///   or an answer that is not the protocol's.
    public func stateDigest() async throws -> SyncStateDigest {
        try Self.decodeJSON(SyncStateDigest.self, from: try await get(SyncProtocol.digestPath, query: logQuery).body, server: server)
    }

    // MARK: Sharing

    /// An invite code to `list`, valid once for 7 days, for one person to join it as `role`.
    /// The first invite shares the list, with the user as its owner; only the owner invites.
    ///
    /// - Throws: ``SyncServerError`` with ``SyncServerError/Code/forbidden`` when another user
    ///   owns the list; ``HTTPSyncError`` when the server cannot be reached or answers nonsense.
    public func invite(to list: UUID, as role: ShareRole = .edit) async throws -> ShareInvite {
        try await post(SyncProtocol.invitePath, ShareInvitation(list: list, role: role), answer: ShareInvite.self)
    }

    /// Spends an invite code: the user becomes a member of its list.
    ///
    /// - Throws: ``SyncServerError`` with ``SyncServerError/Code/inviteInvalid`` for a code
    ///   that is unknown, used or expired, and ``SyncServerError/Code/alreadyMember`` when the
    ///   user is in the list already, or owns it.
    public func join(code: String) async throws -> SharedList {
        try await post(SyncProtocol.joinPath, ShareJoining(code: code), answer: SharedList.self)
    }

    /// The shared lists the user is a member of, those they own included.
    public func sharedLists() async throws -> [SharedList] {
        try Self.decodeJSON(SharedLists.self, from: try await get(SyncProtocol.sharesPath).body, server: server).lists
    }

    /// The members of shared list `list`: its owner first, then by name.
    ///
    /// - Throws: ``SyncServerError`` with ``SyncServerError/Code/forbidden`` when the user is
    ///   not a member.
    public func members(of list: UUID) async throws -> [ShareMember] {
        let query = [URLQueryItem(name: SyncProtocol.listParameter, value: list.lowercasedString)]
        return try Self.decodeJSON(ShareMembers.self, from: try await get(SyncProtocol.membersPath, query: query).body, server: server).members
    }

    /// Removes member `user` from shared list `list`, which the user owns.
    ///
    /// - Returns: The members left.
    /// - Throws: ``SyncServerError`` with ``SyncServerError/Code/forbidden`` when the user does
    ///   not own the list, or names themselves; ``SyncServerError/Code/notFound`` when `user`
    ///   is no member.
    public func remove(_ user: String, from list: UUID) async throws -> [ShareMember] {
        try await post(SyncProtocol.removePath, ShareRemoval(list: list, user: user), answer: ShareMembers.self).members
    }

    /// Leaves shared list `list`.
    ///
    /// - Returns: The shared lists the user is still in.
    /// - Throws: ``SyncServerError`` with ``SyncServerError/Code/forbidden`` when the user owns
    ///   the list, which they end for everyone by deleting it, or is no member.
    public func leave(_ list: UUID) async throws -> [SharedList] {
        try await post(SyncProtocol.leavePath, ShareLeaving(list: list), answer: SharedLists.self).lists
    }

    // MARK: Requests

    private func request(_ method: String, _ path: String, query: [URLQueryItem] = []) -> HTTPTransportRequest {
        var components = URLComponents(url: server.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.queryItems = query }
        return HTTPTransportRequest(
            method: method, url: components?.url ?? server.appendingPathComponent(path), headers: ["Authorization": "Bearer \(token)"])
    }

    private func get(_ path: String, query: [URLQueryItem] = []) async throws -> HTTPTransportResponse {
        try await Self.send(request("GET", path, query: query), to: server, through: transport)
    }

    /// Posts `body` as JSON to `path`, and decodes the answer as `Answer`.
    private func post<Answer: Decodable>(_ path: String, _ body: some Encodable, answer: Answer.Type) async throws -> Answer {
        var request = request("POST", path)
        request.headers["Content-Type"] = SyncProtocol.jsonMediaType
        request.body = try SyncProtocol.encoder.encode(body)
        return try Self.decodeJSON(Answer.self, from: try await Self.send(request, to: server, through: transport).body, server: server)
    }

    /// The query item that names the remote's shared list, if it has one.
    private var logQuery: [URLQueryItem] {
        list.map { [URLQueryItem(name: SyncProtocol.listParameter, value: $0.rawValue.lowercasedString)] } ?? []
    }

    /// How many times a request is sent in all when the server says to try again shortly.
    static let maximumAttempts = 3
    /// The longest wait, in seconds, before trying again that a request waits out rather than fail.
    static let longestRetryAfter = 10

    /// Sends a request, and answers its body when the status is 2xx. A refusal of
    /// ``SyncServerError/Code/rateLimited`` or ``SyncServerError/Code/unavailable`` that asks
    /// for a short wait is waited out and sent again, up to ``maximumAttempts`` in all: every
    /// request of the protocol may be sent twice.
    ///
    /// - Throws: ``SyncServerError`` for a refusal, ``HTTPSyncError`` for a server out of reach
    ///   or an answer that is not the protocol's.
    private static func send(
        _ request: HTTPTransportRequest, to server: URL, through transport: any HTTPTransport
    ) async throws -> HTTPTransportResponse {
        var attempt = 1
        while true {
            let response: HTTPTransportResponse
            do {
                response = try await transport.send(request)
            } catch {
                throw HTTPSyncError.unreachable(server: server, reason: error.localizedDescription)
            }
            if (200..<300).contains(response.status) { return response }
            guard let refusal = try? SyncProtocol.decoder.decode(SyncServerError.Body.self, from: response.body).error else {
                throw HTTPSyncError.badAnswer(server: server, reason: "status \(response.status) without a refusal the protocol knows")
            }
            let retryAfter = response.value(forHeader: "Retry-After").flatMap { Int($0) } ?? refusal.retryAfter
            guard [.rateLimited, .unavailable].contains(refusal.code), attempt < maximumAttempts, let retryAfter,
                  (0...longestRetryAfter).contains(retryAfter)
            else { throw refusal }
            try await Task.sleep(for: .seconds(retryAfter))
            attempt += 1
        }
    }

    private static func decodeJSON<Value: Decodable>(_ type: Value.Type, from data: Data, server: URL) throws -> Value {
        do {
            return try SyncProtocol.decoder.decode(type, from: data)
        } catch {
            throw HTTPSyncError.badAnswer(server: server, reason: "its JSON is not a \(type)")
        }
    }

    private static func decodeOperations(_ data: Data, server: URL) throws -> OperationFile.Contents {
        do {
            return try OperationFile.decode(data)
        } catch {
            throw HTTPSyncError.badAnswer(server: server, reason: error.localizedDescription)
        }
    }

    /// Values by replica, from the answer's values by replica id text.
    private func keyed<Value>(_ values: [String: Value]) throws -> [ReplicaID: Value] {
        var keyed: [ReplicaID: Value] = [:]
        for (key, value) in values {
            guard let id = UUID(uuidString: key) else { throw HTTPSyncError.badAnswer(server: server, reason: "'\(key)' is not a replica id") }
            keyed[ReplicaID(rawValue: id)] = value
        }
        return keyed
    }
}

/// Why a sync server could not be talked to. Nothing was merged from the failed request.
public enum HTTPSyncError: Error, Hashable, Sendable {
    /// The server did not answer: it is down, or the address is wrong.
    case unreachable(server: URL, reason: String)
    /// The server answered with something that is not protocol version 1.
    case badAnswer(server: URL, reason: String)
}

extension HTTPSyncError: LocalizedError {
    /// What went wrong, in the app's language.
    public var errorDescription: String? {
        switch self {
        case .unreachable: MessageTable.syncHTTP.message("HTTPSyncError.unreachable")
        case .badAnswer: MessageTable.syncHTTP.message("HTTPSyncError.badAnswer")
        }
    }
}

extension HTTPSyncError: CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, in English, with the server's address; a person sees ``errorDescription``.
    public var description: String { debugDescription }

    /// What went wrong, in English, with the server's address.
    public var debugDescription: String {
        switch self {
        case .unreachable(let server, let reason):
            "The sync server at \(server.absoluteString) cannot be reached (\(reason)); nothing was lost, try again later."
        case .badAnswer(let server, let reason):
            "The sync server at \(server.absoluteString) answered something this version of Arrange does not understand: \(reason)."
        }
    }
}
