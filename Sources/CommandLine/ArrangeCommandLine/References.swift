public import ArgumentParser
public import ArrangeModel
public import ArrangeOrdering
import Foundation

/// How a person or a program names an item: `#N`, a full id, or the start of one.
///
/// - `#N` is the N-th open item (1-based) of a list, as `arrange list` numbers it.
/// - A full id is the item's UUID, in either case.
/// - A prefix is at least ``minimumPrefixLength`` hex digits of an id (dashes may be
///   left out or kept), and must match one item only.
///
/// ```swift
/// try ItemReference("#5").form          // .position(5)
/// try ItemReference("3F2A91").form      // .prefix("3f2a91")
/// try ItemReference("3f2").form         // throws ReferenceError.prefixTooShort("3f2")
/// ```
public struct ItemReference: TextReference {
    /// The fewest hex digits a prefix must have.
    public static let minimumPrefixLength = 4

    /// The reference as it was written.
    public let text: String
    /// What the text names, read once, when the reference is made.
    private let parsed: Result<Form, ReferenceError>

    public init(_ text: String) {
        self.text = text
        parsed = Result { () throws(ReferenceError) in try Self.form(of: text) }
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

    /// What the reference names.
    ///
    /// - Throws: ``ReferenceError/invalidItemReference(_:)``, ``ReferenceError/prefixTooShort(_:)``.
    public var form: Form {
        get throws(ReferenceError) { try parsed.get() }
    }

    /// Reads `text` as a reference.
    private static func form(of text: String) throws(ReferenceError) -> Form {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.first == "#" {
            let digits = trimmed.dropFirst()
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let position = Int(digits) else {
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
        guard hex.count >= minimumPrefixLength else { throw .prefixTooShort(text) }
        return .prefix(hex)
    }
}

/// How a person or a program names an entry of an item's checklist: `#N`, or its full id.
///
/// `#N` is the N-th entry (1-based) of the checklist, ticked off or not, as `arrange checklist
/// show` numbers them.
public struct ChecklistItemReference: TextReference {
    /// The reference as it was written.
    public var text: String

    public init(_ text: String) {
        self.text = text
    }

    /// What a reference names, once read.
    public enum Form: Hashable, Sendable {
        /// The N-th entry of a checklist, 1-based.
        case position(Int)
        /// The entry with this id.
        case id(ChecklistItem.ID)
    }

    /// Reads the reference.
    ///
    /// - Throws: ``ReferenceError/invalidChecklistItemReference(_:)``.
    public var form: Form {
        get throws(ReferenceError) {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.first == "#", case let digits = trimmed.dropFirst(), !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
               let position = Int(digits) {
                return .position(position)
            }
            guard let id = ChecklistItem.ID(trimmed) else { throw .invalidChecklistItemReference(text) }
            return .id(id)
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

/// How an area is named: its name, ignoring case, or its id.
public struct AreaReference: TextReference {
    /// The name or id as it was written.
    public var text: String

    public init(_ text: String) {
        self.text = text
    }
}

/// How a tag is named: its name, ignoring case, or its id.
public struct TagReference: TextReference {
    /// The name or id as it was written.
    public var text: String

    public init(_ text: String) {
        self.text = text
    }
}

/// How a repeating series is named: its id, or the title of its to-dos when no other series
/// has it, ignoring case.
public struct SeriesReference: TextReference {
    /// The id or title as it was written.
    public var text: String

    public init(_ text: String) {
        self.text = text
    }
}

/// How a heading is named: its title, ignoring case, among the headings of a list, or its id.
public struct HeadingReference: TextReference {
    /// The title or id as it was written.
    public var text: String

    public init(_ text: String) {
        self.text = text
    }
}

/// A reference written as text: a string literal in Swift, a string in JSON, a word on the command line.
public protocol TextReference: Hashable, Sendable, ExpressibleByStringLiteral, ExpressibleByArgument, CustomStringConvertible {
    /// The reference as it was written.
    var text: String { get }

    init(_ text: String)
}

extension TextReference {
    public init(stringLiteral text: String) {
        self.init(text)
    }

    public init?(argument: String) {
        self.init(argument)
    }

    public var description: String { text }
}

/// Where items go, with an anchor named by an ``ItemReference``.
///
/// In JSON it is `"top"`, `"bottom"`, `{"before": REF}`, `{"after": REF}` or `{"offset": N}`,
/// where N is 0-based among the open items, counted once the placed items are out of the way.
public typealias PlacementReference = Placement<ItemReference>

/// Where a checklist entry goes in its checklist, with an anchor named by a ``ChecklistItemReference``.
///
/// In JSON it is `"top"`, `"bottom"`, `{"before": REF}`, `{"after": REF}` or `{"offset": N}`,
/// where N is 0-based among every entry of the checklist.
public typealias ChecklistPlacementReference = Placement<ChecklistItemReference>

/// Where a list goes among the lists, with an anchor named by a ``ListReference``.
public typealias ListPlacementReference = Placement<ListReference>

/// Where an area goes among the areas, with an anchor named by an ``AreaReference``.
public typealias AreaPlacementReference = Placement<AreaReference>

/// Where a tag goes among its siblings, with an anchor named by a ``TagReference``.
public typealias TagPlacementReference = Placement<TagReference>

/// Where a heading goes among the headings of its list, with an anchor named by a ``HeadingReference``.
public typealias HeadingPlacementReference = Placement<HeadingReference>
