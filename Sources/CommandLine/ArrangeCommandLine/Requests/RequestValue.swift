import Foundation
public import ArrangeOrdering

/// A value a request's field takes: `Decodable` as the JSON protocol writes it, and described
/// for help and for error messages.
public protocol RequestValue: Decodable, Sendable {
    /// How the value is written in JSON, for error messages and help: "a string".
    static var jsonForm: String { get }

    /// How an array of such values is written in JSON: "an array of strings".
    static var arrayJSONForm: String { get }

    /// What JSON's `null` means for a field of this type that a request may leave out: `nil`
    /// (the default), as if the field were left out, or a value of its own (no heading).
    static var null: Self? { get }

    /// Checks that the value is well formed, as far as it can tell without a store: that an
    /// item reference is `#N`, an id or an id prefix. The default checks nothing.
    ///
    /// - Throws: ``ReferenceError`` for a malformed reference.
    func checkForm() throws(ReferenceError)
}

extension RequestValue {
    public static var null: Self? { nil }

    public func checkForm() throws(ReferenceError) {}

    public static var arrayJSONForm: String {
        let noun = jsonForm.hasPrefix("an ") ? jsonForm.dropFirst(3) : jsonForm.hasPrefix("a ") ? jsonForm.dropFirst(2) : Substring(jsonForm)
        return "an array of \(noun)s"
    }
}

/// Why a JSON value does not fit a field, beyond its type: the underlying error of the
/// `DecodingError` a ``RequestValue`` throws.
public enum RequestValueError: Error, Sendable {
    /// The value has the right type but says something that cannot be, for this reason.
    case invalid(String)
}

extension DecodingError {
    /// The error for a value of the right JSON type that says something that cannot be.
    static func invalidValue(_ reason: String, at decoder: any Decoder) -> DecodingError {
        .dataCorrupted(Context(codingPath: decoder.codingPath, debugDescription: reason, underlyingError: RequestValueError.invalid(reason)))
    }
}

extension String: RequestValue {
    public static var jsonForm: String { "a string" }
}

extension Bool: RequestValue {
    public static var jsonForm: String { "true or false" }
}

extension Int: RequestValue {
    public static var jsonForm: String { "a whole number" }
}

extension Array: RequestValue where Element: RequestValue {
    public static var jsonForm: String { Element.arrayJSONForm }

    public func checkForm() throws(ReferenceError) {
        for element in self {
            try element.checkForm()
        }
    }
}

extension ItemReference: RequestValue {
    public static var jsonForm: String { "an item reference (a string: \"#N\", an id, or an id prefix)" }
    public static var arrayJSONForm: String { "an array of item references (strings)" }

    public func checkForm() throws(ReferenceError) {
        _ = try form
    }
}

extension ChecklistItemReference: RequestValue {
    public static var jsonForm: String { "a checklist entry reference (a string: \"#N\" or an id)" }
    public static var arrayJSONForm: String { "an array of checklist entry references (strings)" }

    public func checkForm() throws(ReferenceError) {
        _ = try form
    }
}

extension ListReference: RequestValue {
    public static var jsonForm: String { "a list name or id (a string)" }
}

extension AreaReference: RequestValue {
    public static var jsonForm: String { "an area name or id (a string)" }
}

extension TagReference: RequestValue {
    public static var jsonForm: String { "a tag name or id (a string)" }
}

extension HeadingReference: RequestValue {
    public static var jsonForm: String { "a heading's title or id (a string)" }
}

extension TextReference {
    /// Reads the reference from a JSON string.
    public init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode(String.self))
    }
}

/// A placement in JSON: `"top"`, `"bottom"`, or an object of one key.
extension Placement: Decodable, RequestValue where Anchor: TextReference & RequestValue {
    public static var jsonForm: String { #""top", "bottom", {"before": REF}, {"after": REF} or {"offset": N}"# }

    public func checkForm() throws(ReferenceError) {
        switch self {
        case .before(let anchor), .after(let anchor): try anchor.checkForm()
        case .top, .bottom, .offset: break
        }
    }

    private enum Key: String, CodingKey {
        case before, after, offset
    }

    public init(from decoder: any Decoder) throws {
        if let word = try? decoder.singleValueContainer().decode(String.self) {
            switch word {
            case "top": self = .top
            case "bottom": self = .bottom
            default: throw DecodingError.invalidValue("'\(word)' is not a placement; a placement is \(Self.jsonForm).", at: decoder)
            }
            return
        }
        let container = try decoder.container(keyedBy: AnyKey.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.typeMismatch(Self.self, .init(codingPath: decoder.codingPath, debugDescription: Self.jsonForm))
        }
        switch Key(rawValue: key.stringValue) {
        case .before: self = .before(try container.decode(Anchor.self, forKey: key))
        case .after: self = .after(try container.decode(Anchor.self, forKey: key))
        case .offset: self = .offset(try container.decode(Int.self, forKey: key))
        case nil: throw DecodingError.invalidValue("'\(key.stringValue)' is not a placement; a placement is \(Self.jsonForm).", at: decoder)
        }
    }
}

/// A coding key of any name: the keys of a JSON object read as they come.
struct AnyKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}

/// Any JSON value: what a request line holds before its fields are read.
public enum JSONValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
