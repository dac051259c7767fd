import ArrangeModel
import ArrangeStore
import ArrangeSync
import ArrangeSyncHTTPCore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import PostgresNIO

/// The context of a request: the account its token belongs to, once checked.
struct ServerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var account: Account? {
        didSet { identified.account.withLock { $0 = account } }
    }
    /// The account, as ``RequestLogMiddleware`` reads it back after the request.
    let identified = Identified()

    /// Who made a request, once known.
    final class Identified: Sendable {
        let account = Locked<Account?>(nil)
    }

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
    }

    var maxUploadSize: Int { SyncProtocol.maximumBodyBytes }

    /// The account, which ``TokenMiddleware`` set.
    func requireAccount() throws -> Account {
        guard let account else { throw SyncServerError(.unauthorized, "This request needs a device token.") }
        return account
    }
}

/// A refusal as the server answers it: `{"error":{"code":…,"message":…}}` and its status.
struct Refusal: HTTPResponseError {
    let error: SyncServerError

    init(_ error: SyncServerError) {
        self.error = error
    }

    var status: HTTPResponse.Status { .init(code: error.code.status) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = Response.body(try SyncProtocol.encoder.encode(SyncServerError.Body(error: error)), type: SyncProtocol.jsonMediaType, status: status)
        if let seconds = error.retryAfter { response.headers[.retryAfter] = String(seconds) }
        if error.code == .methodNotAllowed { response.headers[.allow] = SyncProtocol.methods[request.uri.path] }
        return response
    }
}

/// Logs one line for each request once it is answered: its method, path, status, duration,
/// and the user and device that made it. Never a token, a cursor or anything of a body.
///
/// It also answers every failure in the protocol's form (``RefusalMiddleware``), so that the
/// line has the status the client gets.
struct RequestLogMiddleware: RouterMiddleware {
    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        func log(_ status: HTTPResponse.Status, refusal: SyncServerError.Code? = nil) {
            let elapsed = start.duration(to: .now)
            var metadata: Logger.Metadata = [
                "method": "\(request.method)", "path": "\(request.uri.path)", "status": "\(status.code)",
                "ms": "\(elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000)",
            ]
            if let account = context.identified.account.withLock({ $0 }) {
                metadata["user"] = "\(account.user)"
                metadata["device"] = "\(account.token.uuidString.lowercased())"
            }
            if let refusal { metadata["refusal"] = "\(refusal.rawValue)" }
            context.logger.info("request", metadata: metadata)
        }
        do {
            let response = try await RefusalMiddleware().handle(request, context: context, next: next)
            log(response.status)
            return response
        } catch let refusal as Refusal {
            log(refusal.status, refusal: refusal.error.code)
            throw refusal
        } catch {
            log(.internalServerError)
            throw error
        }
    }
}

/// Answers every failure in the protocol's form: a refusal as it is, the database out of reach
/// as ``SyncServerError/Code/unavailable``, and the router's own errors by their status.
struct RefusalMiddleware: RouterMiddleware {
    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            if let refusal = Self.refusal(for: error, at: request.uri.path) { throw Refusal(refusal) }
            context.logger.error("The request failed: \(String(reflecting: error))")
            throw error
        }
    }

    /// The refusal that answers `error`, or `nil` for a failure of the server's own.
    static func refusal(for error: any Error, at path: String) -> SyncServerError? {
        switch error {
        case let error as SyncServerError: error
        case ServerError.databaseUnreachable: unavailable
        case let error as PostgresTransactionError:
            error.closureError.flatMap { refusal(for: $0, at: path) }
                ?? [error.beginError, error.closureError, error.commitError, error.rollbackError].lazy.compactMap { $0.flatMap(unavailable) }.first
        case let error as PSQLError: unavailable(error)
        case _ where error is NIOTooManyBytesError || (error as? HTTPError)?.status == .contentTooLarge:
            SyncServerError(.payloadTooLarge, "The body is over \(SyncProtocol.maximumBodyBytes) bytes; send fewer operations at once.")
        case let error as HTTPError where error.status == .notFound:
            if let method = SyncProtocol.methods[path] {
                SyncServerError(.methodNotAllowed, "\(path) takes \(method) requests only.")
            } else {
                SyncServerError(.notFound, "There is nothing at \(path).")
            }
        default: nil
        }
    }

    /// The database out of reach, or too slow: ``SyncServerError/Code/unavailable``; another
    /// database error is the server's own.
    private static func unavailable(_ error: any Error) -> SyncServerError? {
        guard let error = error as? PSQLError else { return nil }
        // 57014: a statement ran past its time; 55P03: a lock did not come in time;
        // 57P01 to 57P03: the database shuts down or starts up.
        let slowOrRestarting = ["57014", "55P03", "57P01", "57P02", "57P03"].contains(error.serverInfo?[.sqlState] ?? "")
        guard ServerError.connectionLost.contains(error.code) || slowOrRestarting else { return nil }
        return unavailable
    }

    private static let unavailable = SyncServerError(.unavailable, "The server cannot reach its database; try again shortly.", retryAfter: 1)
}

/// Takes the account of the request's `Authorization: Bearer TOKEN`, or refuses it.
struct TokenMiddleware: RouterMiddleware {
    let database: ServerDatabase

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        let prefix = "Bearer "
        guard let header = request.headers[.authorization], header.hasPrefix(prefix),
              let account = try await database.account(ofToken: String(header.dropFirst(prefix.count)))
        else { throw SyncServerError(.unauthorized, "The device token is missing, unknown or revoked; pair the device again.") }
        var context = context
        context.account = account
        return try await next(request, context)
    }
}

/// The server's endpoints, protocol version 1 (``SyncProtocol``).
struct ServerRoutes: Sendable {
    let database: ServerDatabase
    /// The epoch of the database's history, read when the server started.
    let epoch: UUID
    /// The server's clock, in milliseconds since 1970.
    let clock: @Sendable () -> Int64
    /// What wakes long polls.
    let signals: PushSignals
    /// The pages that woken long polls read, each encoded, by device, cursor and size.
    private let wokenReads = SharedReads<WokenRead, Data>()
    /// What folds a user's log in the background, when a push makes one due.
    let folds: FoldService
    /// When a user's log is folded.
    let folding: FoldPolicy
    private let processRate: RateLimiter<Bool>
    private let tokenRate: RateLimiter<UUID>

    /// The endpoints of a process that serves `database`, within `limits`, waking long polls
    /// through `signals`, and folding each user's log by `folding` through `folds`.
    init(
        database: ServerDatabase, epoch: UUID, clock: @escaping @Sendable () -> Int64, limits: RequestLimits, signals: PushSignals, folds: FoldService,
        folding: FoldPolicy
    ) {
        self.database = database
        self.epoch = epoch
        self.clock = clock
        self.signals = signals
        self.folds = folds
        self.folding = folding
        processRate = RateLimiter(rate: limits.perProcess, burst: limits.processBurst)
        tokenRate = RateLimiter(rate: limits.perToken, burst: limits.tokenBurst)
    }

    func router() -> Router<ServerContext> {
        let router = Router(context: ServerContext.self)
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: RateLimitMiddleware(limiter: processRate, key: { _ in true }, whose: "Every device together"))
        router.get(RouterPath(SyncProtocol.healthPath)) { _, _ in try await health() }
        router.post(RouterPath(SyncProtocol.pairPath)) { request, _ in try await pair(request) }
        let authorized = router.group()
            .add(middleware: TokenMiddleware(database: database))
            .add(middleware: RateLimitMiddleware(limiter: tokenRate, key: { $0.account?.token }, whose: "This device"))
        authorized.get(RouterPath(SyncProtocol.statePath)) { request, context in try await state(request, context: context) }
        authorized.post(RouterPath(SyncProtocol.pushPath)) { request, context in try await push(request, context: context) }
        authorized.get(RouterPath(SyncProtocol.operationsPath)) { request, context in try await operations(request, context: context) }
        authorized.get(RouterPath(SyncProtocol.snapshotPath)) { request, context in try await snapshot(request, context: context) }
        authorized.get(RouterPath(SyncProtocol.digestPath)) { request, context in try await digest(request, context: context) }
        authorized.post(RouterPath(SyncProtocol.invitePath)) { request, context in try await invite(request, context: context) }
        authorized.post(RouterPath(SyncProtocol.joinPath)) { request, context in try await join(request, context: context) }
        authorized.get(RouterPath(SyncProtocol.sharesPath)) { _, context in try await shares(context: context) }
        authorized.get(RouterPath(SyncProtocol.membersPath)) { request, context in try await members(request, context: context) }
        authorized.post(RouterPath(SyncProtocol.removePath)) { request, context in try await remove(request, context: context) }
        authorized.post(RouterPath(SyncProtocol.leavePath)) { request, context in try await leave(request, context: context) }
        return router
    }

    // MARK: Endpoints

    func health() async throws -> Response {
        do {
            try await database.execute("SELECT 1")
            return try json(["status": "ok"])
        } catch {
            throw SyncServerError(.unavailable, "The server cannot reach its database.", retryAfter: 1)
        }
    }

    func pair(_ request: Request) async throws -> Response {
        let pairing = try await Self.body(DevicePairing.self, of: request, form: #"{"code":"XXXX-XXXX","label":"…"}"#)
        guard let (token, id) = try await database.pair(code: pairing.code, label: pairing.label ?? "") else {
            throw SyncServerError(.unauthorized, "The pairing code is wrong, used or expired; ask for a new one.")
        }
        return try json(DeviceToken(token: token, tokenID: id.uuidString.lowercased()))
    }

    func state(_ request: Request, context: ServerContext) async throws -> Response {
        let replica = try request.uri.queryParameters.get("replica").map { text in
            guard let id = UUID(uuidString: text) else { throw SyncServerError(.invalidBody, "'\(text)' is not a replica id.") }
            return id
        }
        return try json(try await database.state(of: try await account(of: request, context: context), for: replica, epoch: epoch, serverTime: clock()))
    }

    func push(_ request: Request, context: ServerContext) async throws -> Response {
        let account = try await account(of: request, context: context)
        guard request.headers[.contentType]?.hasPrefix(SyncProtocol.operationsMediaType) == true else {
            throw SyncServerError(.unsupportedMediaType, "A push is JSON Lines, of type \(SyncProtocol.operationsMediaType).")
        }
        let body = try await request.body.collect(upTo: SyncProtocol.maximumBodyBytes)
        let contents: OperationFile.Contents
        do {
            contents = try OperationFile.decode(relaying: Data(body.readableBytesView))
        } catch {
            throw Self.refusal(of: error)
        }
        guard let replica = contents.replica else {
            throw SyncServerError(.invalidBody, "The header of a push names the pushing replica (\"replica\").")
        }
        guard contents.operations.count <= SyncProtocol.maximumOperationsPerPush else {
            throw SyncServerError(.payloadTooLarge, "A push carries at most \(SyncProtocol.maximumOperationsPerPush) operations; this one carries \(contents.operations.count).")
        }
        if !account.mayEdit, !contents.operations.isEmpty {
            throw SyncServerError(.forbidden, "You view this shared list and cannot change it; ask its owner for an invite to edit.")
        }
        let now = clock()
        // Only the pushing replica can stamp its operations again. Those of other replicas it
        // relays as they are, as a device does; each device holds them back by its own clock
        // (a device that corrected its clock relays those it first stamped ahead, which the
        // replacements it made follow).
        if let index = contents.operations.firstIndex(where: { $0.replica == replica && $0.clock.milliseconds > now + SyncProtocol.maximumClockSkew }) {
            let ahead = (contents.operations[index].clock.milliseconds - now) / 1_000
            throw SyncServerError(
                .clockSkew, "Operation \(index) is stamped \(ahead) s ahead of the server's clock; set the device's clock right and sync again.",
                index: index, serverTime: now)
        }
        let (answer, heads) = try await database.store(contents, from: replica.rawValue, through: contents.through, account: account)
        if folding.isDue(from: heads.before, to: heads.after) {
            // In the background: the push is answered, and the fold takes the log's lock only to store.
            folds.requestFold(ofLog: account.log)
        }
        return try json(answer)
    }

    func operations(_ request: Request, context: ServerContext) async throws -> Response {
        let account = try await account(of: request, context: context)
        let cursor = try request.uri.queryParameters.get("after").map { text in
            guard let cursor = LogCursor(SyncCursor(rawValue: text)) else {
                throw SyncServerError(.cursorInvalid, "'\(text)' is not a cursor this server gave; pull from the start.")
            }
            return cursor
        }
        let limit = try Self.number("limit", of: request, in: 1...Int.max) ?? SyncProtocol.maximumPageSize
        let wait = try Self.number("wait", of: request, in: 0...SyncProtocol.maximumWait) ?? 0
        let read: @Sendable () async throws -> LogPage = { try await database.page(of: account, after: cursor, limit: min(limit, SyncProtocol.maximumPageSize), epoch: epoch) }
        guard wait > 0 else { return operationsResponse(try await read().encoded()) }
        // Registered before the read, so that a push that commits after it still wakes the poll.
        guard let ticket = await signals.register(for: account.log) else {
            throw SyncServerError(.rateLimited, "Too many requests wait for changes on this server; try again shortly.", retryAfter: 1)
        }
        let page: LogPage
        do {
            page = try await read()
        } catch {
            await signals.cancel(ticket)
            throw error
        }
        // A page that moved the cursor past folded operations answers at once, though it holds none.
        let unmoved = page.contents.cursor.flatMap(LogCursor.init)?.position == (cursor?.position ?? 0)
        if page.operations.isEmpty, unmoved, await signals.wait(ticket, atMost: .seconds(wait)) {
            let key = WokenRead(token: account.token, log: account.log, cursor: cursor, limit: limit)
            return operationsResponse(try await wokenReads.value(of: key) { try await read().encoded() })
        }
        await signals.cancel(ticket)
        return operationsResponse(try page.encoded())
    }

    /// What a page that a woken long poll reads depends on.
    private struct WokenRead: Hashable, Sendable {
        var token: UUID
        var log: Int64
        var cursor: LogCursor?
        var limit: Int
    }

    /// The whole number that the query parameter `name` holds, or `nil` when there is none.
    ///
    /// - Throws: ``SyncServerError/Code/invalidBody`` when it is not a whole number in `range`.
    private static func number(_ name: String, of request: Request, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = request.uri.queryParameters.get(name) else { return nil }
        guard let number = Int(text), range.contains(number) else {
            let bounds = range.upperBound == .max ? "from \(range.lowerBound)" : "from \(range.lowerBound) to \(range.upperBound)"
            throw SyncServerError(.invalidBody, "'\(name)' must be a whole number \(bounds); it is '\(text)'.")
        }
        return number
    }

    /// The log's store, replayed and folded now: a snapshot, and the cursor after the log it holds.
    func snapshot(_ request: Request, context: ServerContext) async throws -> Response {
        let replay = try await foldNow(try await account(of: request, context: context))
        var response = operationsResponse(try SnapshotFile.encode(replay.snapshot))
        if let name = HTTPField.Name(SyncProtocol.cursorHeader) {
            response.headers[name] = LogCursor(epoch: epoch, position: replay.head).syncCursor.rawValue
        }
        return response
    }

    /// The digest of the log's store, replayed now, and the cursor after the log it holds.
    func digest(_ request: Request, context: ServerContext) async throws -> Response {
        let replay = try await foldNow(try await account(of: request, context: context))
        return try json(SyncStateDigest(cursor: LogCursor(epoch: epoch, position: replay.head).syncCursor, digest: replay.snapshot.stateDigest))
    }

    /// Folds the account's log now, and answers the replay.
    ///
    /// - Throws: ``SyncServerError/Code/unavailable`` when other folds kept storing first, and
    ///   this one made operations it could not store: its store holds what no one else does.
    private func foldNow(_ account: Account) async throws -> LogReplay {
        let outcome = try await database.fold(log: account.log, policy: folding)
        guard outcome.stored || outcome.replay.made.isEmpty else {
            throw SyncServerError(.unavailable, "The log is being folded; try again shortly.", retryAfter: 1)
        }
        return outcome.replay
    }

    // MARK: Shared lists

    func invite(_ request: Request, context: ServerContext) async throws -> Response {
        let invitation = try await Self.body(ShareInvitation.self, of: request, form: #"{"list":"UUID","role":"edit"|"view"}"#)
        return try json(try await database.invite(to: invitation.list, as: invitation.role, by: try context.requireAccount()))
    }

    func join(_ request: Request, context: ServerContext) async throws -> Response {
        let joining = try await Self.body(ShareJoining.self, of: request, form: #"{"code":"XXXX-XXXX-XXXX"}"#)
        return try json(try await database.join(code: joining.code, account: try context.requireAccount(), epoch: epoch))
    }

    func shares(context: ServerContext) async throws -> Response {
        try json(SharedLists(lists: try await database.sharedLists(of: try context.requireAccount(), epoch: epoch)))
    }

    func members(_ request: Request, context: ServerContext) async throws -> Response {
        guard let list = try Self.list(of: request) else {
            throw SyncServerError(.invalidBody, "Name the shared list: ?\(SyncProtocol.listParameter)=ID.")
        }
        return try json(ShareMembers(members: try await database.members(of: list, for: try context.requireAccount())))
    }

    func remove(_ request: Request, context: ServerContext) async throws -> Response {
        let removal = try await Self.body(ShareRemoval.self, of: request, form: #"{"list":"UUID","user":"NAME"}"#)
        return try json(ShareMembers(members: try await database.remove(removal.user, from: removal.list, by: try context.requireAccount())))
    }

    func leave(_ request: Request, context: ServerContext) async throws -> Response {
        let leaving = try await Self.body(ShareLeaving.self, of: request, form: #"{"list":"UUID"}"#)
        return try json(SharedLists(lists: try await database.leave(leaving.list, account: try context.requireAccount(), epoch: epoch)))
    }

    /// The account of the request, with the log it names: a shared list's, with
    /// ``SyncProtocol/listParameter``, or else the user's own.
    ///
    /// - Throws: ``SyncServerError/Code/invalidBody`` for a list that is no id, and
    ///   ``SyncServerError/Code/forbidden`` for a list the user is not a member of.
    private func account(of request: Request, context: ServerContext) async throws -> Account {
        let account = try context.requireAccount()
        guard let list = try Self.list(of: request) else { return account }
        return try await database.sharedLog(list, for: account)
    }

    /// The shared list that the request names, or `nil`.
    private static func list(of request: Request) throws -> UUID? {
        try request.uri.queryParameters.get(SyncProtocol.listParameter).map { text in
            guard let id = UUID(uuidString: text) else { throw SyncServerError(.invalidBody, "'\(text)' is not a list id.") }
            return id
        }
    }

    /// The request's JSON body, as `Body`.
    ///
    /// - Throws: ``SyncServerError/Code/invalidBody`` when it is not, naming its `form`.
    private static func body<Body: Decodable>(_ type: Body.Type, of request: Request, form: String) async throws -> Body {
        let body = try await request.body.collect(upTo: 4_096)
        guard let value = try? SyncProtocol.decoder.decode(Body.self, from: Data(body.readableBytesView)) else {
            throw SyncServerError(.invalidBody, "The body must be \(form).")
        }
        return value
    }

    // MARK: Answers

    private func json(_ value: some Encodable) throws -> Response {
        .body(try SyncProtocol.encoder.encode(value), type: SyncProtocol.jsonMediaType)
    }

    private func operationsResponse(_ body: Data) -> Response {
        .body(body, type: SyncProtocol.operationsMediaType)
    }

    /// The refusal of a body that is not a whole, valid push: the operation's 0-based index in
    /// the batch where one line is at fault (its line number less 2).
    static func refusal(of error: OperationFileError) -> SyncServerError {
        switch error {
        case .refusedOperation(let line, let problem):
            SyncServerError(.invalidOperation, "Operation \(line - 2) is refused: \(problem.reason(naming: { "operation \($0 - 2)" }))", index: line - 2)
        case .badLine(let line, _) where line >= 2:
            SyncServerError(.invalidOperation, error.debugDescription, index: line - 2)
        default:
            SyncServerError(.invalidBody, error.debugDescription)
        }
    }
}

extension Response {
    /// A response of `status` whose body is `body`, of media type `type`.
    static func body(_ body: Data, type: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = type
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
