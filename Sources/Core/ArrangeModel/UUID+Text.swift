public import Foundation

extension UUID {
    /// The lowercase canonical text form (`3f2a9c00-…`), as Arrange stores and shows ids.
    ///
    /// Written digit by digit rather than through `uuidString` and `lowercased()`: Foundation
    /// formats a UUID through `printf`, and every query that names a row or an operation binds
    /// this text.
    public var lowercasedString: String {
        String(unsafeUninitializedCapacity: 36) { text in
            guard let start = text.baseAddress else { return 0 }
            writeLowercasedUTF8(to: start)
            return 36
        }
    }

    /// Appends the UTF-8 bytes of ``lowercasedString`` to `bytes`, without making a string:
    /// for writers of JSON that name many ids.
    public func appendLowercasedUTF8(to bytes: inout [UInt8]) {
        let end = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: 36))
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return }
            writeLowercasedUTF8(to: start + end)
        }
    }

    /// Calls `body` with the UTF-8 bytes of ``lowercasedString``, written on the stack: for
    /// binding an id to a statement without making a string.
    public func withLowercasedUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { buffer in
            if let start = buffer.baseAddress { writeLowercasedUTF8(to: start) }
            return try body(UnsafeBufferPointer(buffer))
        }
    }

    /// Writes the 36 UTF-8 bytes of ``lowercasedString`` from `start` on: for writers that
    /// hold a buffer of their own.
    ///
    /// Each half-byte indexes a table of the hex digits, and the groups are written in turn,
    /// with no test for where a dash goes: ids are written for every row of a listing's JSON
    /// and bound for every query that names one.
    ///
    /// - Parameter start: Where the first byte goes; the 35 after it must be there to write too.
    public func writeLowercasedUTF8(to start: UnsafeMutablePointer<UInt8>) {
        let hexDigits: StaticString = "0123456789abcdef"
        hexDigits.withUTF8Buffer { hexDigits in
            withUnsafeBytes(of: uuid) { bytes in
                var text = start
                func write(_ group: Range<Int>) {
                    for index in group {
                        text[0] = hexDigits[Int(bytes[index] >> 4)]
                        text[1] = hexDigits[Int(bytes[index] & 0x0F)]
                        text += 2
                    }
                }
                func dash() {
                    text[0] = UInt8(ascii: "-")
                    text += 1
                }
                write(0..<4)
                dash()
                write(4..<6)
                dash()
                write(6..<8)
                dash()
                write(8..<10)
                dash()
                write(10..<16)
            }
        }
    }

    /// Reads the canonical text form (8-4-4-4-12 hex digits, in either case) from its UTF-8
    /// bytes, without Foundation's general parser, which dominated the cost of reading rows:
    /// eight digits at a time, in the bits of a `UInt64`.
    ///
    /// - Returns: `nil` unless `bytes` hold exactly that form.
    init?(canonicalUTF8 bytes: UnsafeRawBufferPointer) {
        let dash = UInt8(ascii: "-")
        guard bytes.count == 36, bytes[8] == dash, bytes[13] == dash, bytes[18] == dash, bytes[23] == dash else { return nil }
        func eight(at offset: Int) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        func four(at offset: Int) -> UInt64 { UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
        guard let first = Self.value(ofHexDigits: eight(at: 0)), let second = Self.value(ofHexDigits: four(at: 9) | four(at: 14) << 32),
              let third = Self.value(ofHexDigits: four(at: 19) | four(at: 24) << 32), let fourth = Self.value(ofHexDigits: eight(at: 28))
        else { return nil }
        let bigEndian = ((UInt64(first) << 32 | UInt64(second)).bigEndian, (UInt64(third) << 32 | UInt64(fourth)).bigEndian)
        self = withUnsafeBytes(of: bigEndian) { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }

    /// The value of eight hex digits, in either case, held one per byte in `chunk`, the first
    /// digit in its lowest byte; `nil` unless all eight bytes are hex digits.
    ///
    /// Each test runs on the eight bytes at once: adding `0x80 - a` to a byte below `0x80` sets
    /// its high bit exactly when the byte is `a` or more, and no sum carries into the next byte.
    @inline(__always)
    private static func value(ofHexDigits chunk: UInt64) -> UInt32? {
        let highBits: UInt64 = 0x8080_8080_8080_8080
        guard chunk & highBits == 0 else { return nil }
        // '0' is 0x30 and '9' 0x39; setting the 0x20 bits lowers capitals, and 'a' is 0x61, 'f' 0x66.
        let isDigit = (chunk &+ 0x5050_5050_5050_5050) & ~(chunk &+ 0x4646_4646_4646_4646) & highBits
        let lowered = chunk | 0x2020_2020_2020_2020
        let isLetter = (lowered &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(lowered &+ 0x1919_1919_1919_1919) & highBits
        guard isDigit | isLetter == highBits else { return nil }
        // A digit's low four bits are its value; a letter's, its value less 9. The first digit
        // goes to the highest byte, then each step packs pairs of neighbours together.
        var nibbles = ((chunk & 0x0F0F_0F0F_0F0F_0F0F) &+ (isLetter >> 7) &* 9).byteSwapped
        nibbles = (nibbles | nibbles >> 4) & 0x00FF_00FF_00FF_00FF
        nibbles = (nibbles | nibbles >> 8) & 0x0000_FFFF_0000_FFFF
        nibbles = (nibbles | nibbles >> 16) & 0x0000_0000_FFFF_FFFF
        return UInt32(truncatingIfNeeded: nibbles)
    }
}
