import ArrangeModel
import Foundation
import Testing

@Suite("UUID.random()")
struct RandomUUIDTests {
    @Test("It makes version 4 UUIDs of the RFC 4122 variant, each different, whose text parses back")
    func versionFour() throws {
        let uuids = (0..<2_000).map { _ in UUID.random() }
        #expect(Set(uuids).count == uuids.count)
        for uuid in uuids {
            let text = uuid.uuidString
            #expect(Array(text)[14] == "4", "version: \(text)")
            #expect("89AB".contains(Array(text)[19]), "variant: \(text)")
            #expect(UUID(uuidString: text) == uuid)
        }
        // Every other bit varies: a bit stuck at one value in 2,000 draws would be a bug.
        let varying = uuids.dropFirst().reduce(into: (UInt64(0), UInt64(0))) { varying, uuid in
            let (first, this) = (Self.halves(uuids[0]), Self.halves(uuid))
            varying.0 |= first.0 ^ this.0
            varying.1 |= first.1 ^ this.1
        }
        #expect(varying.0 == 0xFFFF_FFFF_FFFF_0FFF)
        #expect(varying.1 == 0x3FFF_FFFF_FFFF_FFFF)
    }

    static func halves(_ uuid: UUID) -> (UInt64, UInt64) {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            (bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self).bigEndian, bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self).bigEndian)
        }
    }
}

@Suite("UUID.lowercasedString")
struct LowercasedUUIDTextTests {
    @Test("It is Foundation's text in lower case, for every hex digit in every place")
    func matchesFoundation() {
        var random = SeededRandomNumberGenerator(seed: 7)
        let edges = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255))]
        let drawn = (0..<500).map { _ in
            withUnsafeBytes(of: (random.next() as UInt64, random.next() as UInt64)) { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        }
        for uuid in edges + drawn {
            #expect(uuid.lowercasedString == uuid.uuidString.lowercased())
            #expect(uuid.withLowercasedUTF8 { String(decoding: $0, as: UTF8.self) } == uuid.uuidString.lowercased())
        }
    }
}

extension LowercasedUUIDTextTests {
    @Test("Its UTF-8 bytes append after what is there, the same text")
    func appendsUTF8() {
        var bytes = Array("id:".utf8)
        let uuids = [UUID.random(), UUID.random()]
        for uuid in uuids { uuid.appendLowercasedUTF8(to: &bytes) }
        #expect(String(decoding: bytes, as: UTF8.self) == "id:" + uuids.map(\.lowercasedString).joined())
    }
}

@Suite("Identifier(utf8:)")
struct IdentifierParsingTests {
    @Test("It reads the canonical form in either case as Foundation does, and refuses anything else, whichever byte of the text is changed to whatever value")
    func matchesFoundation() {
        var random = SeededRandomNumberGenerator(seed: 11)
        let uuids = (0..<12).map { _ in
            withUnsafeBytes(of: (random.next() as UInt64, random.next() as UInt64)) { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        }
        let parse = { (bytes: [UInt8]) in bytes.withUnsafeBytes { Item.ID(utf8: $0)?.rawValue } }
        let hexDigits = Set("0123456789abcdefABCDEF".utf8)
        for (index, uuid) in uuids.enumerated() {
            let text = index.isMultiple(of: 2) ? uuid.uuidString : uuid.uuidString.lowercased()
            #expect(parse(Array(text.utf8)) == uuid)
            for offset in 0..<36 {
                for value in UInt8.min...UInt8.max {
                    var bytes = Array(text.utf8)
                    bytes[offset] = value
                    // Canonical: a dash at 8, 13, 18 and 23, a hex digit everywhere else.
                    let isCanonical = bytes.indices.allSatisfy { [8, 13, 18, 23].contains($0) ? bytes[$0] == UInt8(ascii: "-") : hexDigits.contains(bytes[$0]) }
                    let expected = isCanonical ? UUID(uuidString: String(decoding: bytes, as: UTF8.self)) : nil
                    #expect(parse(bytes) == expected && (expected != nil) == isCanonical, "\(offset): \(value)")
                }
            }
        }
        #expect(parse(Array("3f2a".utf8)) == nil && parse([]) == nil)
    }
}
