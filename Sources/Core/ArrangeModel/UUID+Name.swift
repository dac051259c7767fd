public import Foundation

extension UUID {
    /// The name-based (version 5) UUID of `name` in the namespace `namespace`, as RFC 9562
    /// makes it: the first 16 bytes of the SHA-1 of the namespace's bytes and the name's UTF-8,
    /// with the version and the variant set.
    ///
    /// Every device that names the same thing in the same namespace gets the same id: a
    /// repeating series makes the to-do of a date under one id wherever it is made.
    ///
    /// ```swift
    /// UUID(named: "python.org", in: UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!)
    /// // 886313e1-3b8a-5372-9b90-0c9aee199e5d
    /// ```
    public init(named name: String, in namespace: UUID) {
        let space = withUnsafeBytes(of: namespace.uuid) { Array($0) }
        var digest = SHA1.digest(of: space + Array(name.utf8))
        digest[6] = digest[6] & 0x0F | 0x50
        digest[8] = digest[8] & 0x3F | 0x80
        self = digest.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }
}

/// SHA-1, for name-based UUIDs alone: Foundation offers no hash on Linux, and the ids need
/// the one RFC 9562 names. It is not used where a secure hash is needed.
private enum SHA1 {
    /// The 20-byte digest of `message`.
    static func digest(of message: [UInt8]) -> [UInt8] {
        var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
        var padded = message + [0x80]
        padded += [UInt8](repeating: 0, count: (64 - (padded.count + 8) % 64) % 64)
        padded += withUnsafeBytes(of: (UInt64(message.count) * 8).bigEndian) { Array($0) }
        var words = [UInt32](repeating: 0, count: 80)
        for block in stride(from: 0, to: padded.count, by: 64) {
            for index in 0..<16 {
                words[index] = padded[block + 4 * index..<block + 4 * index + 4].reduce(0) { $0 << 8 | UInt32($1) }
            }
            for index in 16..<80 {
                words[index] = rotate(words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16], by: 1)
            }
            var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
            for index in 0..<80 {
                let (f, k): (UInt32, UInt32) = switch index {
                case 0..<20: (b & c | ~b & d, 0x5A82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (b & c | b & d | c & d, 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
                let next = rotate(a, by: 5) &+ f &+ e &+ k &+ words[index]
                (e, d, c, b, a) = (d, c, rotate(b, by: 30), a, next)
            }
            for (index, value) in [a, b, c, d, e].enumerated() { state[index] &+= value }
        }
        return state.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * $0)) } }
    }

    private static func rotate(_ value: UInt32, by count: UInt32) -> UInt32 {
        value << count | value >> (32 - count)
    }
}
