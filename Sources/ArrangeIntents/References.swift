public import ArrangeModel

/// How a person or a program names an item: `#N`, a full id, or the start of one.
///
/// - `#N` is the N-th open item (1-based) of a list, as ``ListItems`` numbers it.
/// - A full id is the item's UUID, in either case.
/// - A prefix is at least ``minimumPrefixLength`` hex digits of an id (dashes may be
///   left out or kept), and must match one item only.
///
/// ```swift
/// try ItemReference("#5").form          // .position(5)
/// try ItemReference("3F2A91").form      // .prefix("3f2a91")
/// try ItemReference("3f2").form         // throws IntentError.prefixTooShort("3f2")
/// ```
public struct ItemReference: TextReference {
    /// The fewest hex digits a prefix must have.
    public static let minimumPrefixLength = 4

    /// The reference as it was written.
    public var text: String

    public init(_ text: String) {
        self.text = text
    }

    /// What a reference names, once read.
    public enum Form: Hashable, Sendable {
        /// The N-th open item of a list, 1-based.
        case position(Int)
        /// The item with this id.
        case id(Item.ID)
        /// The one item whose id, without dashes, starts with these lowercase hex digits.
        case prefix(String)
    }

    /// Reads the reference.
    ///
    /// - Throws: ``IntentError/invalidItemReference(_:)``, ``IntentError/prefixTooShort(_:)``.
    public var form: Form {
        get throws(IntentError) {
            let trimmed = text.trimmingWhitespace()
            if trimmed.first == "#" {
                let digits = trimmed.dropFirst()
                guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let position = Int(digits) else {
                    throw .invalidItemReference(text)
                }
                return .position(position)
            }
            if let id = Item.ID(trimmed) {
                return .id(id)
            }
            let lowered = trimmed.lowercased()
            guard !lowered.isEmpty, lowered.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
                throw .invalidItemReference(text)
            }
            let hex = lowered.filter(\.isHexDigit)
            guard hex.count >= Self.minimumPrefixLength else { throw .prefixTooShort(text) }
            return .prefix(hex)
        }
    }
}

/// How a list is named: its name, ignoring case, or its id.
public struct ListReference: TextReference {
    /// The name or id as it was written.
    public var text: String

    public init(_ text: String) {
        self.text = text
    }
}

/// A reference written as text: a string literal in Swift, a string in JSON.
public protocol TextReference: Hashable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The reference as it was written.
    var text: String { get }

    init(_ text: String)
}

extension TextReference {
    public init(stringLiteral text: String) {
        self.init(text)
    }

    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    public var description: String { text }
}

/// Where an item goes, with its anchor named by an ``ItemReference``.
///
/// In JSON it is `"top"`, `"bottom"`, `{"before": REF}`, `{"after": REF}` or `{"offset": N}`,
/// where N is 0-based among the list's open items.
public enum PlacementReference: Hashable, Sendable {
    case top
    case bottom
    case before(ItemReference)
    case after(ItemReference)
    /// A 0-based offset among the open items, counted once the placed items are out of the way.
    case offset(Int)
}

extension PlacementReference: Codable {
    private enum CodingKeys: String, CodingKey, CaseIterable {
        case before, after, offset
    }

    private static let expected = #"a placement is "top", "bottom", {"before": REF}, {"after": REF} or {"offset": N}"#

    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer(), let word = try? single.decode(String.self) {
            switch word {
            case "top": self = .top
            case "bottom": self = .bottom
            default: throw DecodingError.dataCorruptedError(in: single, debugDescription: "'\(word)' is not a placement; \(Self.expected).")
            }
            return
        }
        guard let container = try? decoder.container(keyedBy: CodingKeys.self), container.allKeys.count == 1,
              let key = container.allKeys.first
        else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "Not a placement; \(Self.expected)."))
        }
        switch key {
        case .before: self = .before(try container.decode(ItemReference.self, forKey: key))
        case .after: self = .after(try container.decode(ItemReference.self, forKey: key))
        case .offset: self = .offset(try container.decode(Int.self, forKey: key))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .top, .bottom:
            var container = encoder.singleValueContainer()
            try container.encode(self == .top ? "top" : "bottom")
        case .before(let reference):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(reference, forKey: .before)
        case .after(let reference):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(reference, forKey: .after)
        case .offset(let offset):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(offset, forKey: .offset)
        }
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    /// The string without surrounding white space.
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
              let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
