import Logging
import ServiceLifecycle

/// The service that folds logs in the background, as pushes ask (``requestFold(ofLog:)``).
///
/// Each request starts a fold at once, beside those that run. On graceful shutdown the service
/// takes no more requests, starts those it was given already, and returns once every fold has
/// ended and stored what it decided.
struct FoldService: Service {
    private let database: ServerDatabase
    private let policy: FoldPolicy
    private let logger: Logger
    /// The logs to fold, in the order pushes asked.
    private let requests: AsyncStream<Int64>
    private let requestsContinuation: AsyncStream<Int64>.Continuation

    /// A service that folds logs of `database` by `policy`, and logs each fold to `logger`.
    init(database: ServerDatabase, policy: FoldPolicy, logger: Logger) {
        self.database = database
        self.policy = policy
        self.logger = logger
        (requests, requestsContinuation) = AsyncStream.makeStream()
    }

    /// Asks for a fold of a log; once the service shuts down, the request is dropped,
    /// and a later push asks again.
    func requestFold(ofLog log: Int64) {
        requestsContinuation.yield(log)
    }

    /// Folds what pushes ask for until graceful shutdown; then folds what they asked already,
    /// and returns when every fold has ended.
    func run() async {
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                for await log in requests {
                    group.addTask { await self.fold(log) }
                }
            }
        } onGracefulShutdown: {
            requestsContinuation.finish()
        }
    }

    /// Folds a log, and logs what the fold did, or that it failed.
    private func fold(_ log: Int64) async {
        do {
            let outcome = try await database.fold(log: log, policy: policy)
            logger.info("fold", metadata: ["log": "\(log)", "deleted": "\(outcome.deleted)", "retired": "\(outcome.replay.retired.count)"])
        } catch {
            logger.warning("A fold failed, and the next will try again: \(String(reflecting: error))")
        }
    }
}
