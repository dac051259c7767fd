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
    /// bytes, without Foundation's general parser, which dominated the cost of reading rows.
    ///
    /// - Returns: `nil` unless `bytes` hold exactly that form.
    init?(canonicalUTF8 bytes: UnsafeRawBufferPointer) {
        let dash = UInt8(ascii: "-")
        guard bytes.count == 36, bytes[8] == dash, bytes[13] == dash, bytes[18] == dash, bytes[23] == dash else { return nil }
        var halves: (high: UInt64, low: UInt64) = (0, 0)
        var isValid = true
        func accumulate(_ offsets: Range<Int>, into half: inout UInt64) {
            for offset in offsets {
                let character = bytes[offset]
                let decimal = character &- UInt8(ascii: "0")
                // Setting the 0x20 bit lowers an ASCII capital letter.
                let letter = (character | 0x20) &- UInt8(ascii: "a")
                let nibble: UInt8
                if decimal < 10 {
                    nibble = decimal
                } else if letter < 6 {
                    nibble = letter &+ 10
                } else {
                    isValid = false
                    return
                }
                half = half << 4 | UInt64(nibble)
            }
        }
        accumulate(0..<8, into: &halves.high)
        accumulate(9..<13, into: &halves.high)
        accumulate(14..<18, into: &halves.high)
        accumulate(19..<23, into: &halves.low)
        accumulate(24..<36, into: &halves.low)
        guard isValid else { return nil }
        let bigEndian = (halves.high.bigEndian, halves.low.bigEndian)
        self = withUnsafeBytes(of: bigEndian) { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
    }
}
