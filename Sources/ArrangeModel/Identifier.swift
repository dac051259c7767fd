public import Foundation

/// A typed, UUID-backed identifier.
///
/// The phantom `Subject` keeps the identifiers of different kinds of values apart:
/// an `Item.ID` cannot be passed where an `ItemList.ID` is expected.
///
/// Identifiers compare by their 16 bytes, which is also the order of their lowercase
/// text form, so a database that sorts the text agrees with Swift.
public struct Identifier<Subject>: RawRepresentable, Hashable, Comparable, Sendable {
    /// The UUID this identifier wraps.
    public var rawValue: UUID

    /// Wraps an existing UUID.
    public init(rawValue: UUID) {
        self.rawValue = rawValue
    }

    /// Creates a new random identifier (`UUID.random()`).
    public init() {
        self.rawValue = UUID.random()
    }

    /// Parses the canonical text form (`3f2a…`, either case).
    ///
    /// - Returns: `nil` when `text` is not a UUID.
    public init?(_ text: String) {
        var text = text
        guard let uuid = text.withUTF8({ Self.parse(UnsafeRawBufferPointer($0)) }) ?? UUID(uuidString: text) else { return nil }
        self.rawValue = uuid
    }

    /// Parses the canonical text form from its UTF-8 bytes, as a database hands them over,
    /// without making a `String` first.
    ///
    /// - Returns: `nil` unless the bytes are 8-4-4-4-12 hex digits, in either case.
    public init?(utf8 bytes: UnsafeRawBufferPointer) {
        guard let uuid = Self.parse(bytes) else { return nil }
        self.rawValue = uuid
    }

    /// Reads the canonical form (8-4-4-4-12 hex digits) without Foundation's general parser,
    /// which dominates the cost of reading rows; anything else is left to `UUID(uuidString:)`.
    private static func parse(_ bytes: UnsafeRawBufferPointer) -> UUID? {
        guard bytes.count == 36 else { return nil }
        var halves: (UInt64, UInt64) = (0, 0)
        var digits = 0
        for offset in 0..<36 {
            let character = bytes[offset]
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard character == UInt8(ascii: "-") else { return nil }
                continue
            }
            let nibble: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = character &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = character &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = character &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            if digits < 16 { halves.0 = halves.0 << 4 | UInt64(nibble) } else { halves.1 = halves.1 << 4 | UInt64(nibble) }
            digits += 1
        }
        let (high, low) = (halves.0.bigEndian, halves.1.bigEndian)
        return withUnsafeBytes(of: (high, low)) { raw in
            UUID(uuid: raw.loadUnaligned(as: uuid_t.self))
        }
    }

    /// The start of the text form shared by every identifier whose 32 hex digits begin with
    /// `hexPrefix`: the digits in lowercase, with the dashes of the canonical form put back.
    ///
    /// ```swift
    /// Item.ID.textPrefix(forHexDigits: "3F2A9C001")  // "3f2a9c00-1"
    /// Item.ID.textPrefix(forHexDigits: "3g")         // nil
    /// ```
    ///
    /// - Returns: `nil` unless `hexPrefix` is 1 to 32 hex digits.
    public static func textPrefix(forHexDigits hexPrefix: String) -> String? {
        let digits = hexPrefix.lowercased()
        guard (1...32).contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        var text = ""
        for (offset, digit) in digits.enumerated() {
            if [8, 12, 16, 20].contains(offset) { text.append("-") }
            text.append(digit)
        }
        return text
    }

    /// The smallest identifier whose 32 hex digits begin with `hexPrefix`, or `nil` unless it is 1 to 32 hex digits.
    public static func lowest(withHexDigits hexPrefix: String) -> Self? {
        guard hexPrefix.count <= 32 else { return nil }
        return textPrefix(forHexDigits: hexPrefix + String(repeating: "0", count: 32 - hexPrefix.count)).flatMap(Self.init)
    }

    /// The lowercase canonical text form, as stored and shown (`UUID.lowercasedString`).
    public var text: String { rawValue.lowercasedString }

    /// The 128 bits as two big-endian halves; they order identifiers.
    public var halves: (high: UInt64, low: UInt64) {
        let bytes = rawValue.uuid
        let high = [bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5, bytes.6, bytes.7]
            .reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = [bytes.8, bytes.9, bytes.10, bytes.11, bytes.12, bytes.13, bytes.14, bytes.15]
            .reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return (high, low)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        let (left, right) = (lhs.halves, rhs.halves)
        return (left.high, left.low) < (right.high, right.low)
    }
}

extension Identifier: CustomStringConvertible {
    /// A short form for messages and logs.
    public var description: String { text }
}

extension Identifier: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let identifier = Identifier(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "'\(text)' is not a UUID.")
        }
        self = identifier
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
