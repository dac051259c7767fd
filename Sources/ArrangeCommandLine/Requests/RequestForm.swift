public import ArrangeIntents
import ArrangeStore
import Foundation

/// How one intent is asked for by text: its name in JSON requests and as a subcommand, its
/// summary, its parameters, and how their values become the typed intent.
///
/// A form is the front end's whole mapping of an intent. The subcommand that runs it lives
/// beside it and takes its names and help from it.
///
/// ```swift
/// enum RenameItemRequest: RequestForm {
///     static let name = "rename"
///     static let summary = "Give an item a new title."
///     static let item = Parameter<ItemReference>("item", required: true, help: "The item to rename.")
///     static let title = Parameter<String>("title", required: true, help: "The item's new title.")
///     static let list = Parameter<ListReference>("list", help: "The list whose open items #N counts.")
///     static let parameters: [any AnyParameter] = [item, title, list]
///
///     static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> RenameItem {
///         let item = try resolve.item(try fields.value(item), numberedIn: try resolve.numbering(fields[list]))
///         return RenameItem(item: item.id, title: try fields.value(title))
///     }
/// }
/// ```
public protocol RequestForm: SendableMetatype {
    /// The intent the form asks for.
    associatedtype Intent: ArrangeIntent

    /// The intent's name in JSON requests: camelCase (`createList`, `move`).
    static var name: String { get }
    /// One sentence that says what the intent does.
    static var summary: String { get }
    /// The parameters, in the order a command line takes them.
    static var parameters: [any AnyParameter] { get }
    /// For a second form under the same name, the parameter whose presence selects it
    /// (`fromOffsets` for the offset form of `move`); `nil` for the main form.
    static var selector: String? { get }

    /// Whether a request with these fields only reads.
    static func readsOnly(_ fields: RequestFields) -> Bool

    /// The intent these fields ask for, with every reference resolved in the transaction that
    /// will run it.
    ///
    /// - Throws: ``ReferenceError`` for a reference that names nothing; what the intent's
    ///   own checks throw.
    static func intent(_ fields: RequestFields, _ resolve: ReferenceResolver) throws -> Intent
}

extension RequestForm {
    public static var selector: String? { nil }

    public static func readsOnly(_ fields: RequestFields) -> Bool { false }

    /// The name as a subcommand: kebab-case (`create-list`).
    static var commandName: String {
        name.reduce(into: "") { result, character in
            if character.isUppercase { result += "-" + character.lowercased() } else { result.append(character) }
        }
    }

    /// The parameter named `name`.
    static func parameter(named name: String) -> (any AnyParameter)? {
        parameters.first { $0.name == name }
    }

    /// Resolves the fields and runs the intent in one transaction of the session's environment.
    ///
    /// - Returns: The intent's result and the undo step it recorded.
    static func perform(_ fields: RequestFields, in session: CommandSession) async throws -> Performed<Intent.Result> {
        let (currentList, countsToday) = (session.currentList, session.isUsingToday)
        return try await session.environment.perform(readOnly: readsOnly(fields)) { transaction in
            try intent(fields, ReferenceResolver(transaction, currentList: currentList, countsToday: countsToday))
        }
    }

    /// ``perform(_:in:)`` with the result as a value to encode, for a caller that holds the form as a type of forms.
    static func performEncodable(_ fields: RequestFields, in session: CommandSession) async throws -> any Encodable & Sendable {
        try await perform(fields, in: session).result
    }
}

/// The values of a request's parameters, by name: read from a JSON line, or set by a subcommand.
public struct RequestFields: Sendable {
    private var values: [String: any Sendable] = [:]

    public init() {}

    /// The value of `parameter`, or `nil` when the request does not give it.
    public subscript<Value>(parameter: Parameter<Value>) -> Value? {
        get { values[parameter.name] as? Value }
        set { values[parameter.name] = newValue }
    }

    /// The value of a parameter the request must give.
    ///
    /// - Throws: An ``IntentFailure`` with code `missingField` when it is missing.
    public func value<Value>(_ parameter: Parameter<Value>) throws(IntentFailure) -> Value {
        guard let value = self[parameter] else {
            throw .missingField(parameter, in: "The request")
        }
        return value
    }

    /// Sets the value of the parameter named `name`, as decoded by ``AnyParameter/decodeValue(from:)``.
    mutating func setValue(_ value: any Sendable, forParameterNamed name: String) {
        values[name] = value
    }
}

extension RequestFields {
    /// These fields with `value` for `parameter`; a `nil` value leaves the parameter out.
    func with<Value>(_ parameter: Parameter<Value>, _ value: Value?) -> RequestFields {
        var fields = self
        fields[parameter] = value
        return fields
    }
}
