/// A small, fast, seedable random number generator (SplitMix64).
///
/// Use it to make jitter repeatable in tests and benchmarks. Its first draw also serves as
/// a well-spread 64-bit hash of the seed: the in-memory store derives each item's place in
/// its balanced tree from the item's id this way.
///
/// ```swift
/// var random = SeededRandomNumberGenerator(seed: 42)
/// random.next() == SeededRandomNumberGenerator(seed: 42).next()  // true, for the first draw
/// ```
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose draws depend on `seed` only.
    public init(seed: UInt64) {
        self.state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
