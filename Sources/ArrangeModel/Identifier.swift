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

    /// Creates a new random identifier.
    public init() {
        self.rawValue = UUID()
    }

    /// Parses the canonical text form (`3f2a…`, either case).
    ///
    /// - Returns: `nil` when `text` is not a UUID.
    public init?(_ text: String) {
        guard let uuid = UUID(uuidString: text) else { return nil }
        self.rawValue = uuid
    }

    /// The lowercase canonical text form, as stored and shown.
    public var text: String { rawValue.uuidString.lowercased() }

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
