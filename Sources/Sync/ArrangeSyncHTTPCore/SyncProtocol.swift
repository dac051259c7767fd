public import ArrangeModel
public import ArrangeSync
public import Foundation

/// Version 1 of the protocol between a device and an Arrange sync server (`arrange-server`).
///
/// Bodies of operations are JSON Lines in `OperationFile`'s format, header and trailer
/// included; a snapshot is a `SnapshotFile`. Every other body is JSON. Every request but
/// ``pairPath`` carries `Authorization: Bearer TOKEN`.
///
/// | request | does |
/// |---|---|
/// | `GET /health` | 200 when the server reaches its database, 503 when it can't |
/// | `GET /v1/state?replica=ID` | the user's log: ``SyncServerState`` |
/// | `POST /v1/devices` | a pairing code in (``DevicePairing``), a device token out (``DeviceToken``) |
/// | `POST /v1/push` | operations the server lacks, with the pusher's acknowledgement: ``SyncPushAnswer`` |
/// | `GET /v1/ops?after=CURSOR&limit=N&wait=S` | a page of operations after a cursor; with `wait`, when there are none yet, it waits up to `S` seconds (at most ``maximumWait``) for a push |
/// | `GET /v1/snapshot` | a snapshot, and in ``cursorHeader`` the cursor to pull after it |
/// | `GET /v1/digest` | the digest of what the server holds (``SyncStateDigest``) |
/// | `POST /v1/shares/invite` | a list to share in (``ShareInvitation``), an invite code out (``ShareInvite``) |
/// | `POST /v1/shares/join` | an invite code in (``ShareJoining``), the list joined out (``SharedList``) |
/// | `GET /v1/shares` | the shared lists the user is in (``SharedLists``) |
/// | `GET /v1/shares/members?list=ID` | a shared list's members (``ShareMembers``) |
/// | `POST /v1/shares/remove` | its owner removes a member (``ShareRemoval``); the members left (``ShareMembers``) |
/// | `POST /v1/shares/leave` | a member leaves (``ShareLeaving``); the lists still shared (``SharedLists``) |
///
/// The user's own log is every endpoint's by default. `GET /v1/state`, `POST /v1/push`,
/// `GET /v1/ops`, `GET /v1/snapshot` and `GET /v1/digest` read and write a shared list's log
/// instead when they name it: `?list=ID` (``listParameter``). A push there is refused with
/// ``SyncServerError/Code/forbidden`` for a member who only views, and with
/// ``SyncServerError/Code/invalidOperation`` for an operation that touches anything but that
/// list, its items, headings, checklist entries and series, or that touches what is one
/// person's own (Today, an evening, a reminder, tags, areas, the sidebar).
///
/// A refusal is `{"error":{"code":…,"message":…}}` (``SyncServerError``).
public enum SyncProtocol {
    /// The version this code speaks.
    public static let version = 1
    /// The media type of a body of operations or of a snapshot: JSON Lines.
    public static let operationsMediaType = "application/x-ndjson"
    /// The media type of every other body.
    public static let jsonMediaType = "application/json"
    /// The response header that carries the cursor to pull after a snapshot.
    public static let cursorHeader = "Arrange-Cursor"

    /// The path of each endpoint.
    public static let healthPath = "/health"
    public static let statePath = "/v1/state"
    public static let pairPath = "/v1/devices"
    public static let pushPath = "/v1/push"
    public static let operationsPath = "/v1/ops"
    public static let snapshotPath = "/v1/snapshot"
    public static let digestPath = "/v1/digest"
    public static let invitePath = "/v1/shares/invite"
    public static let joinPath = "/v1/shares/join"
    public static let sharesPath = "/v1/shares"
    public static let membersPath = "/v1/shares/members"
    public static let removePath = "/v1/shares/remove"
    public static let leavePath = "/v1/shares/leave"
    /// The query parameter that names the shared list whose log a request reads or writes.
    public static let listParameter = "list"
    /// The one method each endpoint takes, by path; another gets
    /// ``SyncServerError/Code/methodNotAllowed``.
    public static let methods: [String: String] = [
        healthPath: "GET", statePath: "GET", pairPath: "POST", pushPath: "POST", operationsPath: "GET", snapshotPath: "GET",
        digestPath: "GET", invitePath: "POST", joinPath: "POST", sharesPath: "GET", membersPath: "GET", removePath: "POST", leavePath: "POST",
    ]

    /// The most bytes a request body may hold.
    public static let maximumBodyBytes = 1 << 20
    /// The most operations one push may carry.
    public static let maximumOperationsPerPush = 1_000
    /// The most operations one page holds, whatever `limit` asks.
    public static let maximumPageSize = 1_000
    /// The longest a long poll (`GET /v1/ops?wait=S`) waits for a push, in seconds.
    public static let maximumWait = 25
    /// How far ahead of the server's clock an operation may be stamped, in milliseconds.
    public static let maximumClockSkew = HybridLogicalClock.maximumDrift

    /// The encoder of JSON bodies: sorted keys, so that the same answer is the same bytes.
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// The decoder of JSON bodies.
    public static let decoder = JSONDecoder()
}

/// What `GET /v1/state` answers: where the user's log stands on the server.
public struct SyncServerState: Codable, Hashable, Sendable {
    /// The cursor after the newest operation the server holds.
    public var head: SyncCursor
    /// For each replica, the highest sequence number the server holds of it.
    public var held: [String: Int64]
    /// For each replica, the sequence number up to which the server folded its operations away.
    public var folded: [String: Int64]
    /// For each replica in ``folded``, the id of its operation folded there.
    public var foldedTips: [String: SyncOperation.ID]
    /// Whether devices fold no further than the server announces.
    public var coordinatesFolding: Bool
    /// Where the asking replica's last push ended in its own log: the cursor it gave as `through`.
    public var received: SyncCursor?
    /// The server's clock, in milliseconds since 1970.
    public var serverTime: Int64
    /// The protocol versions the server speaks.
    public var versions: [Int]

    /// A state of these parts.
    public init(
        head: SyncCursor, held: [String: Int64], folded: [String: Int64], foldedTips: [String: SyncOperation.ID], coordinatesFolding: Bool,
        received: SyncCursor?, serverTime: Int64, versions: [Int] = [SyncProtocol.version]
    ) {
        self.head = head
        self.held = held
        self.folded = folded
        self.foldedTips = foldedTips
        self.coordinatesFolding = coordinatesFolding
        self.received = received
        self.serverTime = serverTime
        self.versions = versions
    }
}

/// What `GET /v1/digest` answers: the digest of the store that the server's log makes, as a
/// device that holds every operation up to ``cursor`` computes it (`SyncSnapshot.stateDigest`).
public struct SyncStateDigest: Codable, Hashable, Sendable {
    /// The cursor after the last operation the digest takes in.
    public var cursor: SyncCursor
    /// The SHA-256 digest, in 64 lowercase hex digits.
    public var digest: String

    /// A digest of these parts.
    public init(cursor: SyncCursor, digest: String) {
        self.cursor = cursor
        self.digest = digest
    }
}

/// What `POST /v1/push` answers. A retry of the same push gets the same answer.
public struct SyncPushAnswer: Codable, Hashable, Sendable {
    /// How many operations the push carried; the server holds every one of them now.
    public var accepted: Int
    /// Where the push ended in the pusher's log, as the server records it; `nil` for a push
    /// that named no end, which a later one completes.
    public var received: SyncCursor?

    /// An answer of these parts.
    public init(accepted: Int, received: SyncCursor?) {
        self.accepted = accepted
        self.received = received
    }
}

/// What `POST /v1/devices` takes: a pairing code, and a label for the new device's token.
public struct DevicePairing: Codable, Hashable, Sendable {
    /// The code `arrange-server pair` printed.
    public var code: String
    /// What the token is for, as `token list` shows it; empty by default.
    public var label: String?

    /// A pairing of this code.
    public init(code: String, label: String? = nil) {
        self.code = code
        self.label = label
    }
}

/// What `POST /v1/devices` answers: the device's own token, shown this once.
public struct DeviceToken: Codable, Hashable, Sendable {
    /// The token, to send as `Authorization: Bearer TOKEN`.
    public var token: String
    /// The token's id, as `token list` and `token revoke` name it.
    public var tokenID: String

    /// A token of these parts.
    public init(token: String, tokenID: String) {
        self.token = token
        self.tokenID = tokenID
    }
}

/// A refusal by the server: `{"error":{"code":…,"message":…}}`, with the HTTP status of its code.
public struct SyncServerError: Error, Codable, Hashable, Sendable {
    /// Why, as a program reads it. The codes are a contract.
    public enum Code: String, Codable, Hashable, Sendable, CaseIterable {
        case unauthorized, notFound, payloadTooLarge, unsupportedMediaType, invalidBody, invalidOperation, clockSkew, operationConflict,
            replicaForked, snapshotRequired, cursorInvalid, rateLimited, unavailable, methodNotAllowed, forbidden, inviteInvalid,
            alreadyMember

        /// The HTTP status the server answers with.
        public var status: Int {
            switch self {
            case .unauthorized: 401
            case .forbidden: 403
            case .notFound: 404
            case .methodNotAllowed: 405
            case .payloadTooLarge: 413
            case .unsupportedMediaType: 415
            case .invalidBody: 400
            case .invalidOperation: 422
            case .clockSkew, .operationConflict, .replicaForked, .cursorInvalid, .alreadyMember: 409
            case .snapshotRequired, .inviteInvalid: 410
            case .rateLimited: 429
            case .unavailable: 503
            }
        }
    }

    /// Why, as a program reads it.
    public var code: Code
    /// What happened, in a sentence a person can act on.
    public var message: String
    /// The 0-based index in the batch of the operation refused, where one was.
    public var index: Int?
    /// The server's clock, in milliseconds since 1970, with ``Code/clockSkew``.
    public var serverTime: Int64?
    /// In how many seconds to try again, with ``Code/rateLimited`` and ``Code/unavailable``, as
    /// the `Retry-After` header says too.
    public var retryAfter: Int?

    /// A refusal of these parts.
    public init(_ code: Code, _ message: String, index: Int? = nil, serverTime: Int64? = nil, retryAfter: Int? = nil) {
        self.code = code
        self.message = message
        self.index = index
        self.serverTime = serverTime
        self.retryAfter = retryAfter
    }

    /// The body the server answers with.
    public struct Body: Codable, Hashable, Sendable {
        public var error: SyncServerError

        public init(error: SyncServerError) {
            self.error = error
        }
    }
}

extension SyncServerError: LocalizedError {
    /// What the refusal means for the person, in the app's language; the server's own
    /// ``message`` is in ``debugDescription``.
    public var errorDescription: String? { MessageTable.syncHTTP.message("SyncServerError.\(code.rawValue)") }
}

extension SyncServerError: CustomStringConvertible, CustomDebugStringConvertible {
    /// The server's message, in English; a person sees ``errorDescription``.
    public var description: String { debugDescription }

    /// The server's message, in English.
    public var debugDescription: String { message }
}
