public import Foundation

/// A moment of a hybrid logical clock: milliseconds of wall-clock time, and a counter that
/// orders the events of one millisecond.
///
/// Timestamps order first by ``milliseconds``, then by ``counter``. With the replica, the
/// sequence number and the id of an operation they give every operation one place in a total
/// order that respects causality and roughly follows real time.
public struct HLCTimestamp: Hashable, Comparable, Codable, Sendable {
    /// Milliseconds since 1970, as the clock last saw them.
    public var milliseconds: Int64
    /// How many events before this one shared ``milliseconds``.
    public var counter: UInt32

    /// A timestamp of these parts.
    public init(milliseconds: Int64, counter: UInt32) {
        self.milliseconds = milliseconds
        self.counter = counter
    }

    /// The earliest timestamp.
    public static let zero = HLCTimestamp(milliseconds: 0, counter: 0)

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.milliseconds, lhs.counter) < (rhs.milliseconds, rhs.counter)
    }

    /// The wall-clock moment of the timestamp.
    public var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1_000) }
}
