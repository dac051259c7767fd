import ArrangeModel
public import Foundation

/// The tunable parts of how keys are chosen.
public struct OrderingConfiguration: Hashable, Sendable, Codable {
    /// How far past the first or last item a key at the top or the bottom steps.
    ///
    /// The default, 2^32, leaves room for about two billion inserts at either end.
    public var endGap: Int64
    /// The smallest distance allowed between two neighbouring keys. A gap smaller than
    /// twice this is full: an insert there re-spreads its neighbours first.
    public var minimumGap: Int64
    /// Whether a new key falls at a random point of the middle third of its gap (and an
    /// end step varies by up to a third), so that two devices inserting into the same gap
    /// at once rarely choose the same key.
    public var jitter: Bool

    /// Creates a configuration; the defaults are those of `Configs/arrange.json`.
    public init(endGap: Int64 = 1 << 32, minimumGap: Int64 = 1, jitter: Bool = false) {
        self.endGap = endGap
        self.minimumGap = minimumGap
        self.jitter = jitter
    }

    /// Why a configuration cannot be used.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// The end gap is under 2, or under twice the minimum gap.
        case endGapTooSmall(Int64)
        /// The minimum gap is under 1.
        case minimumGapTooSmall(Int64)

        /// What is wrong, in a sentence.
        public var description: String {
            switch self {
            case .endGapTooSmall(let gap): "The end gap must be at least 2 and at least twice the minimum gap; it is \(gap)."
            case .minimumGapTooSmall(let gap): "The minimum gap must be at least 1; it is \(gap)."
            }
        }
    }

    /// Throws when the values cannot work together.
    public func validate() throws(Problem) {
        guard minimumGap >= 1 else { throw .minimumGapTooSmall(minimumGap) }
        guard endGap >= 2, endGap / 2 >= minimumGap else { throw .endGapTooSmall(endGap) }
    }
}

extension OrderingConfiguration.Problem: LocalizedError {
    /// What is wrong, in the app's language.
    public var errorDescription: String? {
        switch self {
        case .endGapTooSmall(let gap): MessageTable.ordering.message("OrderingConfiguration.Problem.endGapTooSmall", ["gap": "\(gap)"])
        case .minimumGapTooSmall(let gap): MessageTable.ordering.message("OrderingConfiguration.Problem.minimumGapTooSmall", ["gap": "\(gap)"])
        }
    }
}
