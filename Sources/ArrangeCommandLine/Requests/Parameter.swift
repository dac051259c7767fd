import ArgumentParser
import Foundation
public import ArrangeOrdering

/// One parameter of a request, declared once: its key in JSON requests, its help, and the
/// type of its value. The JSON decoder, the subcommand's arguments and the help texts all
/// read this one declaration.
public struct Parameter<Value: RequestValue>: AnyParameter {
    /// The parameter's key in JSON requests (`fromOffsets`).
    public let name: String
    /// What the parameter means, in a sentence for help texts.
    public let help: String
    /// Whether a request must give it.
    public let isRequired: Bool

    /// Declares a parameter named `name` in requests.
    public init(_ name: String, required isRequired: Bool = false, help: String) {
        self.name = name
        self.help = help
        self.isRequired = isRequired
    }

    public var jsonForm: String { Value.jsonForm }
    public var valueType: any RequestValue.Type { Value.self }

    public func decodeValue(from json: JSONValue) throws(RequestValueError) -> any Sendable {
        try Value(json: json)
    }
}

/// A parameter of any value type, as a catalogue lists it.
public protocol AnyParameter: Sendable {
    var name: String { get }
    var help: String { get }
    var isRequired: Bool { get }
    /// How the value is written in JSON, for error messages and help: "a string".
    var jsonForm: String { get }
    var valueType: any RequestValue.Type { get }
    /// Reads a value of the parameter's type from JSON.
    func decodeValue(from json: JSONValue) throws(RequestValueError) -> any Sendable
}

extension ArgumentHelp {
    /// The help of a request's parameter, for the subcommand's argument that gives it.
    init(_ parameter: any AnyParameter, valueName: String? = nil) {
        self.init(parameter.help, valueName: valueName)
    }
}

/// A value a parameter takes, read from a JSON request.
public protocol RequestValue: Sendable {
    /// How the value is written in JSON, for error messages and help: "a string".
    static var jsonForm: String { get }

    /// How an array of such values is written in JSON: "an array of strings".
    static var arrayJSONForm: String { get }

    /// Reads the value from JSON.
    ///
    /// - Throws: ``RequestValueError`` when the JSON does not fit.
    init(json: JSONValue) throws(RequestValueError)
}

extension RequestValue {
    public static var arrayJSONForm: String {
        let noun = jsonForm.hasPrefix("an ") ? jsonForm.dropFirst(3) : jsonForm.hasPrefix("a ") ? jsonForm.dropFirst(2) : Substring(jsonForm)
        return "an array of \(noun)s"
    }
}

/// Why a JSON value does not fit a parameter.
public enum RequestValueError: Error, Sendable {
    /// The value has the wrong JSON type.
    case wrongType
    /// The value has the right type but says something that cannot be, for this reason.
    case invalid(String)
}

extension String: RequestValue {
    public static var jsonForm: String { "a string" }

    public init(json: JSONValue) throws(RequestValueError) {
        guard case .string(let text) = json else { throw .wrongType }
        self = text
    }
}

extension Bool: RequestValue {
    public static var jsonForm: String { "true or false" }

    public init(json: JSONValue) throws(RequestValueError) {
        guard case .bool(let value) = json else { throw .wrongType }
        self = value
    }
}

extension Int: RequestValue {
    public static var jsonForm: String { "a whole number" }

    public init(json: JSONValue) throws(RequestValueError) {
        guard case .number(let number) = json, number.rounded() == number, abs(number) < 1e15 else { throw .wrongType }
        self = Int(number)
    }
}

extension Array: RequestValue where Element: RequestValue {
    public static var jsonForm: String { Element.arrayJSONForm }

    public init(json: JSONValue) throws(RequestValueError) {
        guard case .array(let elements) = json else { throw .wrongType }
        self = try elements.map { element throws(RequestValueError) in try Element(json: element) }
    }
}

extension ItemReference: RequestValue {
    public static var jsonForm: String { "an item reference (a string: \"#N\", an id, or an id prefix)" }
    public static var arrayJSONForm: String { "an array of item references (strings)" }

    public init(json: JSONValue) throws(RequestValueError) {
        self.init(try String(json: json))
    }
}


extension ListReference: RequestValue {
    public static var jsonForm: String { "a list name or id (a string)" }

    public init(json: JSONValue) throws(RequestValueError) {
        self.init(try String(json: json))
    }
}

extension Placement: RequestValue where Anchor: TextReference & RequestValue {
    public static var jsonForm: String { #""top", "bottom", {"before": REF}, {"after": REF} or {"offset": N}"# }

    public init(json: JSONValue) throws(RequestValueError) {
        switch json {
        case .string("top"): self = .top
        case .string("bottom"): self = .bottom
        case .string(let word): throw .invalid("'\(word)' is not a placement; a placement is \(Self.jsonForm).")
        case .object(let fields) where fields.count == 1:
            let (key, value) = (fields.keys.first ?? "", fields.values.first ?? .null)
            switch key {
            case "before": self = .before(try Anchor(json: value))
            case "after": self = .after(try Anchor(json: value))
            case "offset": self = .offset(try Int(json: value))
            default: throw .invalid("'\(key)' is not a placement; a placement is \(Self.jsonForm).")
            }
        default: throw .wrongType
        }
    }
}

/// Any JSON value: what a request line holds before its fields are read.
public enum JSONValue: Decodable, Equatable, Sendable {
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
