import Foundation

/// A hybrid logical clock (Kulkarni et al., 2014): each event gets a timestamp later than every
/// event this replica has made or seen, and close to the wall clock.
///
/// A remote timestamp more than ``maximumDrift`` ahead of this replica's wall clock is not
/// trusted: ``receive(_:)`` clamps it to the wall clock plus the drift before it moves the
/// clock, so that one device with a wrong date cannot drag every replica's clock into the future.
///
/// ```swift
/// var clock = HybridLogicalClock()
/// let local = clock.tick()                  // a change made here
/// let merged = clock.receive(remote.clock)  // a change that arrived from another replica
/// ```
public struct HybridLogicalClock: Sendable {
    /// How far ahead of this replica's wall clock a remote timestamp is trusted: 5 minutes.
    public static let maximumDrift: Int64 = 5 * 60 * 1_000

    /// The latest timestamp this clock has given or seen.
    public private(set) var latest: HLCTimestamp
    /// The wall clock, in milliseconds since 1970.
    private let wallClock: @Sendable () -> Int64

    /// A clock that starts after `latest` (the newest timestamp a replica has stored).
    ///
    /// - Parameters:
    ///   - latest: The newest timestamp given or seen before, so that a restarted replica never goes back.
    ///   - wallClock: Milliseconds since 1970; the system clock by default.
    public init(latest: HLCTimestamp = .zero, wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMilliseconds) {
        self.latest = latest
        self.wallClock = wallClock
    }

    /// The system clock in milliseconds since 1970.
    public static let systemMilliseconds: @Sendable () -> Int64 = { Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down)) }

    /// The timestamp of a local event: later than every timestamp before it, even when the
    /// wall clock has gone back.
    public mutating func tick() -> HLCTimestamp {
        advance(to: latest, wall: wallClock())
    }

    /// Takes in the timestamp of an event from another replica, and returns the timestamp this
    /// replica records for it: later than `remote` (once clamped) and than everything before.
    public mutating func receive(_ remote: HLCTimestamp) -> HLCTimestamp {
        let wall = wallClock()
        return advance(to: max(latest, Self.clamped(remote, wall: wall)), wall: wall)
    }

    /// `remote`, or the wall clock plus ``maximumDrift`` when it is further ahead than that.
    public static func clamped(_ remote: HLCTimestamp, wall: Int64) -> HLCTimestamp {
        let limit = wall + maximumDrift
        return remote.milliseconds > limit ? HLCTimestamp(milliseconds: limit, counter: 0) : remote
    }

    private mutating func advance(to floor: HLCTimestamp, wall: Int64) -> HLCTimestamp {
        let next = wall > floor.milliseconds
            ? HLCTimestamp(milliseconds: wall, counter: 0)
            : floor.counter == .max
                ? HLCTimestamp(milliseconds: floor.milliseconds + 1, counter: 0)
                : HLCTimestamp(milliseconds: floor.milliseconds, counter: floor.counter + 1)
        latest = next
        return next
    }
}
