import ArrangeModel

/// Arithmetic on sort keys, done in `Int128` so that bounds one past `Int64`'s range and
/// differences across the whole range never overflow.
enum KeyLayout {
    /// The exclusive lower bound of every key.
    static let floor = Int128(Int64.min) - 1
    /// The exclusive upper bound of every key.
    static let ceiling = Int128(Int64.max) + 1

    /// `count` keys spread evenly strictly between two exclusive bounds, or `nil` when
    /// two of them would come closer than `minimumGap`.
    ///
    /// With `jitter`, each key moves by up to a sixth of its slot either way, so a lone key
    /// lands in the middle third of its gap.
    ///
    /// ```swift
    /// KeyLayout.evenKeys(3, between: 0, and: 8, minimumGap: 1, jitter: false, using: &random)  // [2, 4, 6]
    /// ```
    static func evenKeys(
        _ count: Int, between lower: Int128, and upper: Int128, minimumGap: Int64,
        jitter: Bool, using random: inout some RandomNumberGenerator
    ) -> [Int64]? {
        let span = upper - lower
        let slot = span / Int128(count + 1)
        guard slot >= Int128(minimumGap) else { return nil }
        let wobble = jitter ? Int64(clamping: slot / 6) : 0
        let canWobble = wobble > 0 && slot - 2 * Int128(wobble) >= Int128(minimumGap)
        return (1...count + 1).dropLast().map { index in
            let key = lower + span * Int128(index) / Int128(count + 1)
            return Int64(canWobble ? key + Int128(Int64.random(in: -wobble...wobble, using: &random)) : key)
        }
    }

    /// Keys for `count` items laid out between two exclusive bounds after a re-spread,
    /// or `nil` when the span is too small for the density allowed at this size.
    ///
    /// The gaps on either side of the run `hot` (the items just placed) get a larger share
    /// of the room than the others, since the next insert tends to land right there; the
    /// other gaps keep at least `base`.
    ///
    /// - Parameters:
    ///   - count: The number of items in the window, the new ones included.
    ///   - hot: The positions of the new items within the window.
    ///   - base: The smallest gap to leave anywhere.
    /// - Complexity: O(count).
    static func respreadKeys(
        _ count: Int, hot: Range<Int>, between lower: Int128, and upper: Int128, leaving base: Int128
    ) -> [Int64]? {
        let gapCount = count + 1
        let span = upper - lower
        guard span >= base * Int128(gapCount) else { return nil }
        let hotGaps = Set([hot.lowerBound, hot.upperBound])
        let extra = span - base * Int128(gapCount)
        let hotShare = extra / 2 / Int128(hotGaps.count)
        let everyShare = (extra - hotShare * Int128(hotGaps.count)) / Int128(gapCount)
        var key = lower
        return (0..<count).map { position in
            key += base + everyShare + (hotGaps.contains(position) ? hotShare : 0)
            return Int64(key)
        }
    }

    /// The smallest gap a re-spread may leave between two keys of a window of `items`.
    ///
    /// Larger windows must leave larger gaps: the allowed density falls as the window grows.
    /// The gap required for m items is m^1.5 / 1.8 (and at least twice `minimumGap`), so a
    /// window of 100 items needs gaps of 555, one of 10,000 items gaps of 555,555.
    /// The inspiration is Bender et al.'s density-threshold relabelling, where a key range of
    /// size 2^i may hold (2/T)^i items, with T about 1.5.
    static func requiredGap(forItems items: Int, minimumGap: Int64) -> Int128 {
        let density = Int128(Double(items).squareRoot() * Double(items) / 1.8)
        return max(2 * Int128(minimumGap), density)
    }
}
