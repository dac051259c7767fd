import ArrangeModel
import ArrangeSyncHTTPCore
import Foundation
import Hummingbird

/// How many requests a server process takes, and a device.
struct RequestLimits: Sendable, Hashable {
    /// Requests a second each device token may make, on average.
    var perToken: Double = 50
    /// Requests each device token may make at once after a quiet spell.
    var tokenBurst: Double = 150
    /// Requests a second the process takes, from every device together.
    var perProcess: Double = 5_000
    /// Requests the process takes at once after a quiet spell.
    var processBurst: Double = 10_000
    /// The most long polls (`GET /v1/ops?wait=S`) that wait at once in the process.
    var waitingPolls = 10_000
}

/// Counts requests against a rate, as a bucket of tokens for each key that fills at `rate` a
/// second up to `burst`, and that each request takes one from.
final class RateLimiter<Key: Hashable & Sendable>: Sendable {
    /// Requests a second, on average.
    let rate: Double
    /// Requests at once after a quiet spell.
    let burst: Double

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let buckets = Locked<[Key: Bucket]>([:])
    /// Past this many keys, the buckets that are full again are forgotten.
    private let keptKeys = 10_000

    init(rate: Double, burst: Double) {
        self.rate = rate
        self.burst = max(1, burst)
    }

    /// Takes a request of `key`.
    ///
    /// - Returns: `nil` when it may go on; else in how many whole seconds a request may come again.
    func admit(_ key: Key, at now: ContinuousClock.Instant = .now) -> Int? {
        buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: burst, updated: now)
            let elapsed = bucket.updated.duration(to: now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            bucket.tokens = min(burst, bucket.tokens + seconds * rate)
            bucket.updated = now
            defer {
                buckets[key] = bucket
                if buckets.count > keptKeys { forgetFull(in: &buckets, at: now) }
            }
            guard bucket.tokens >= 1 else { return max(1, Int(((1 - bucket.tokens) / rate).rounded(.up))) }
            bucket.tokens -= 1
            return nil
        }
    }

    private func forgetFull(in buckets: inout [Key: Bucket], at now: ContinuousClock.Instant) {
        let refill = Duration.seconds(burst / rate)
        buckets = buckets.filter { $0.value.updated.duration(to: now) < refill }
    }
}

/// Refuses a request over a rate with ``SyncServerError/Code/rateLimited`` (429, with `Retry-After`).
struct RateLimitMiddleware<Key: Hashable & Sendable>: RouterMiddleware {
    let limiter: RateLimiter<Key>
    /// The key a request counts under; `nil` lets it through uncounted.
    let key: @Sendable (ServerContext) -> Key?
    /// Whose rate it is, as the refusal says.
    let whose: String

    func handle(_ request: Request, context: ServerContext, next: (Request, ServerContext) async throws -> Response) async throws -> Response {
        if let key = key(context), let seconds = limiter.admit(key) {
            throw SyncServerError(.rateLimited, "\(whose) makes too many requests; try again in \(seconds) s.", retryAfter: seconds)
        }
        return try await next(request, context)
    }
}
