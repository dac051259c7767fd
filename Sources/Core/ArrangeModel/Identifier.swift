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
        guard let uuid = text.withUTF8({ UUID(canonicalUTF8: UnsafeRawBufferPointer($0)) }) ?? UUID(uuidString: text) else { return nil }
        self.rawValue = uuid
    }

    /// Parses the canonical text form from its UTF-8 bytes, as a database hands them over,
    /// without making a `String` first.
    ///
    /// - Returns: `nil` unless the bytes are 8-4-4-4-12 hex digits, in either case.
    public init?(utf8 bytes: UnsafeRawBufferPointer) {
        guard let uuid = UUID(canonicalUTF8: bytes) else { return nil }
        self.rawValue = uuid
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
