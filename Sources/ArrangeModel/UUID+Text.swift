public import Foundation

extension UUID {
    /// The lowercase canonical text form (`3f2a9c00-…`), as Arrange stores and shows ids.
    ///
    /// Written digit by digit rather than through `uuidString` and `lowercased()`: Foundation
    /// formats a UUID through `printf`, and every query that names a row or an operation binds
    /// this text.
    public var lowercasedString: String {
        String(unsafeUninitializedCapacity: 36) { Self.writeLowercased(uuid, into: $0) }
    }

    /// Appends the UTF-8 bytes of ``lowercasedString`` to `bytes`, without making a string:
    /// for writers of JSON that name many ids.
    public func appendLowercasedUTF8(to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: 36))
        bytes.withUnsafeMutableBufferPointer { buffer in
            _ = Self.writeLowercased(uuid, into: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Writes the 36 bytes of the text form at the start of `text`, and returns their count.
    private static func writeLowercased(_ uuid: uuid_t, into text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        withUnsafeBytes(of: uuid) { bytes in
            func digit(_ nibble: UInt8) -> UInt8 { nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10 }
            var count = 0
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[count] = UInt8(ascii: "-")
                    count += 1
                }
                text[count] = digit(byte >> 4)
                text[count + 1] = digit(byte & 0x0F)
                count += 2
            }
            return count
        }
    }
}
