public import ArrangeModel
import ArrangeStore
import Foundation

// Clocks that are wrong: the rules are in `SyncEngine`'s documentation, "Clocks that are wrong".
extension SyncEngine {
    /// The wall clock now, corrected by `offset` milliseconds (the store's
    /// `ReplicaState/clockOffset`), and the latest clock, in milliseconds, an operation of
    /// another replica may be stamped with to be taken in now: the wall clock plus
    /// ``HybridLogicalClock/maximumDrift``.
    func wallClockAndHorizon(correctedBy offset: Int64) -> (wall: Int64, horizon: Int64) {
        let wall = wallClock() + offset
        return (wall, wall + HybridLogicalClock.maximumDrift)
    }

    /// The system clock corrected by `offset` milliseconds, for a ``HybridLogicalClock``.
    func wallClock(correctedBy offset: Int64) -> @Sendable () -> Int64 {
        let system = wallClock
        return { system() + offset }
    }

    /// Recovers this store, in one write transaction, when its clock went past the wall clock by
    /// more than ``HybridLogicalClock/maximumDrift`` and is right again: before it sends its
    /// operations anywhere, say. Every write recovers first anyway; this tells what was done.
    ///
    /// - Returns: What the recovery did; `nil` when the clock is right.
    /// - Throws: ``SyncError/noOperationLog``, and `StoreError` from the store.
    @discardableResult
    public func recoverClock() async throws -> ClockRecovery? {
        try await repository.write { try self.recoverClock(in: Self.log(of: $0)) }
    }

    /// Recovers a store whose clock went past the wall clock by more than the drift, as the
    /// extension's documentation says; does nothing when the clock is right.
    ///
    /// - Returns: What the recovery did; `nil` when there was nothing to recover from.
    /// - Complexity: One read of the replica's state when the clock is right; else O(k log n)
    ///   for the k operations logged from the wall clock on, and O(k·a) for a acknowledgements.
    func recoverClock(in transaction: any LogWriting) throws -> ClockRecovery? {
        guard let state = try transaction.replicaState() else { return nil }
        return try recoverClock(of: state, in: transaction)
    }

    /// Recovers the store of replica `state` as ``recoverClock(in:)`` does.
    ///
    /// - Returns: What the recovery did; `nil` when the clock is right.
    func recoverClock(of state: ReplicaState, in transaction: any LogWriting) throws -> ClockRecovery? {
        let (wall, horizon) = wallClockAndHorizon(correctedBy: state.clockOffset)
        guard state.lastMilliseconds > horizon else { return nil }
        let recent = try transaction.loggedOperations(from: .earliest(atMilliseconds: wall), limit: .max)
        let ahead = recent.filter { $0.order.milliseconds > horizon }
        // What every other replica holds stays where it is: it may have been folded away.
        let retired = Set(try transaction.replicaProgresses().filter(\.isRetired).map(\.replica))
        let others = try transaction.acknowledgements().filter { $0.replica != state.id && !retired.contains($0.replica) }
        // An acknowledgement speaks for this store's line of a replica's operations only when it
        // ends at an operation this store holds: a copy of a database acknowledges its own line.
        // It never speaks for an operation off the line, renumbered or replaced: another
        // operation under the same number may be what it counted.
        func isHeldEverywhere(_ order: OperationOrder) throws -> Bool {
            guard try !Self.isOffLine(order.id, in: transaction) else { return false }
            return try !others.isEmpty && others.allSatisfy { acknowledgement in
                guard acknowledgement.merged[order.replica, default: 0] >= order.sequence else { return false }
                guard let tip = acknowledgement.tips[order.replica] else { return true }
                return try Self.holds(tip, in: transaction) && !Self.isOffLine(tip, in: transaction)
            }
        }
        // Its own, and those it took in while its clock was ahead: those of another line of its
        // replica id that it renumbered, or of another device ahead too. Of several replacements
        // of one operation only the first applies, so every device that does so agrees.
        let restated = try ahead
            .filter { try !isHeldEverywhere($0.order) }
            .filter { try !Self.isReplacedInEffect($0.id, in: transaction) }
            .map(SyncOperation.init)
            .filter(\.change.isRestatable)
        // After the latest operation not ahead; one from before the wall clock is behind it anyway.
        let inTime = recent.last { $0.order.milliseconds <= horizon }
        let start = max(HLCTimestamp(milliseconds: wall, counter: 0), inTime.map { HLCTimestamp($0.order) } ?? .zero)
        try leaveReplica(state.id, reaching: state.lastSequence, restartingAt: start, forked: false, in: transaction)
        let replacements = restated.map { SyncChange.replacement(of: OperationReference($0), change: $0.change.effect) }
        _ = try log(replacements, of: try preparedReplica(in: transaction), rewind: Rewind(), in: transaction)
        return ClockRecovery(
            leftReplica: ReplicaID(rawValue: state.id), aheadByMilliseconds: state.lastMilliseconds - wall, restated: replacements.count)
    }
}

extension SyncEngine {
    /// How far, in milliseconds, the system clock may be off from a remote's that tells the time
    /// (``SyncRemoteState/clock``) before a store tells the time by the remote's: 30 seconds,
    /// far beyond a slow network's round trip, and well within ``HybridLogicalClock/maximumDrift``.
    public static let clockTolerance: Int64 = 30_000

    /// Corrects this store's clock by a remote's, in one write transaction: from now on the
    /// store tells the time by the system clock plus the difference, or by the system clock
    /// alone when it is within ``clockTolerance`` of the remote's. A store whose clock is then
    /// found to have run ahead recovers (``recoverClock()``).
    ///
    /// - Parameters:
    ///   - remoteClock: The remote's clock, in milliseconds since 1970.
    ///   - askedAt: The system clock when the remote was asked; the remote's clock is taken to
    ///     be for halfway between the question and the answer.
    ///   - answeredAt: The system clock when the answer came.
    ///   - report: Takes the new correction and the recovery.
    /// - Returns: The store's new replica id when it recovered its clock; `nil` when it did not.
    func correctClock(toRemoteClock remoteClock: Int64, askedAt: Int64, answeredAt: Int64, report: inout SyncReport) async throws -> ReplicaID? {
        let difference = remoteClock - (askedAt + (answeredAt - askedAt) / 2)
        let offset = abs(difference) > Self.clockTolerance ? difference : 0
        let outcome: (recovery: ClockRecovery?, replica: UUID)? = try await repository.write { transaction in
            let log = try Self.log(of: transaction)
            guard var state = try log.replicaState(), abs(offset - state.clockOffset) > Self.clockTolerance else { return nil }
            state.clockOffset = offset
            try log.setReplicaState(state)
            let recovery = try self.recoverClock(in: log)
            return (recovery, try log.replicaState()?.id ?? state.id)
        }
        guard let outcome else { return nil }
        report.clockCorrection = offset
        guard let recovery = outcome.recovery else { return nil }
        report.clockRecovery = recovery
        return ReplicaID(rawValue: outcome.replica)
    }
}

/// What a store did on finding that its own clock had run ahead of the wall clock, and was
/// right again (see ``SyncEngine``, "Clocks that are wrong").
public struct ClockRecovery: Hashable, Sendable, Codable {
    /// The replica id the store left, under which it had stamped operations ahead.
    public var leftReplica: ReplicaID
    /// How far ahead of the wall clock the store's clock had run, in milliseconds.
    public var aheadByMilliseconds: Int64
    /// How many operations stamped ahead, which not every other replica held yet, it made again
    /// with the right stamps: its own, and those it took in while its clock was ahead.
    public var restated: Int

    /// A recovery that left `leftReplica`, whose clock had run `aheadByMilliseconds` ahead, and
    /// made `restated` operations again.
    public init(leftReplica: ReplicaID, aheadByMilliseconds: Int64, restated: Int) {
        self.leftReplica = leftReplica
        self.aheadByMilliseconds = aheadByMilliseconds
        self.restated = restated
    }
}

extension SyncEngine {
    /// The order of the last logged operation not stamped ahead of the admission horizon, within
    /// the drift of the wall clock or before: the latest a change made here must come after.
    /// (One further back than the drift is behind the wall clock, which comes first anyway.)
    ///
    /// - Complexity: O(log n) when nothing logged is stamped ahead; else O(k log n) for the k
    ///   operations logged within the drift of the wall clock or after it.
    func latestOrderInTime(in transaction: any LogReading) throws -> OperationOrder? {
        let horizon = wallClockAndHorizon(correctedBy: try transaction.replicaState()?.clockOffset ?? 0).horizon
        let last = try transaction.lastOperationOrder()
        guard let last, last.milliseconds > horizon else { return last }
        let recent = try transaction.loggedOperations(from: .earliest(atMilliseconds: horizon - 2 * HybridLogicalClock.maximumDrift), limit: .max)
        return recent.last { $0.order.milliseconds <= horizon }?.order
    }
}

extension SyncChange {
    /// Whether the change does something that its place in the order decides, so that an
    /// operation stamped ahead is made again with the right stamp: not a renumbering, a
    /// retirement or a leave, which change no rows.
    var isRestatable: Bool {
        switch self {
        case .renumbering, .retireReplica, .leaveForkedReplica: false
        default: true
        }
    }
}

extension OperationOrder {
    /// The first order at a clock of `milliseconds`.
    static func earliest(atMilliseconds milliseconds: Int64) -> OperationOrder {
        var order = OperationOrder.lowest
        (order.milliseconds, order.counter) = (milliseconds, 0)
        return order
    }
}
