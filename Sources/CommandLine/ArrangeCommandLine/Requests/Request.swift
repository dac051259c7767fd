public import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation

/// One request of a front end: a typed value that a JSON line and a command's arguments both
/// make, and that asks for one intent.
///
/// A request's fields are declared once, in ``fields``: each row names a field as JSON requests
/// spell it, says what it means, and points at the stored property that holds its value, whose
/// type tells the field's JSON form and whether a request must give it (an optional property is
/// a field a request may leave out). Everything else follows from that table: reading a JSON
/// line (``RunRequest``) and the answers to a bad one, the check of every reference's form,
/// the help of the command that makes the request (its options take their help from the rows),
/// and Tab completion.
///
/// ```swift
/// struct RenameRequest: Request {
///     static let name = "rename"
///     static let summary = "Give an item a new title."
///     var item: ItemReference = ""
///     var title = ""
///     var list: ListReference?
///
///     static let fields: [RequestField<Self>] = [
///         .init("item", \.item, help: "The item to rename: #N, an id, or at least 4 characters of one."),
///         .init("title", \.title, help: "The item's new title."),
///         .init("list", \.list, help: Help.countingList),
///     ]
///
///     func intent(_ resolve: ReferenceResolver) throws -> RenameItem {
///         RenameItem(item: try resolve.item(item, numberedIn: try resolve.numbering(list)).id, title: title)
///     }
/// }
/// ```
///
/// The command that makes the request spells its fields for the command line, which may
/// differ (words joined into a title, `--top` for a placement), and takes each option's help
/// from the request: `@Option(help: ArgumentHelp(RenameRequest.help(\.list)))`.
public protocol Request<Result>: Hashable, Sendable {
    /// What the request's intent returns.
    associatedtype Result: Codable & Sendable
    /// The intent the request asks for.
    associatedtype Intent: ArrangeIntent where Intent.Result == Result

    /// The intent's name in JSON requests: camelCase (`createList`, `move`).
    static var name: String { get }
    /// One sentence that says what the intent does.
    static var summary: String { get }
    /// For a second request under the same name, the field whose presence selects it
    /// (`fromOffsets` for the offset form of `move`); `nil` for the main form.
    static var selector: String? { get }

    /// The request's fields, in the order help and the JSON protocol's messages list them.
    static var fields: [RequestField<Self>] { get }

    /// The request with every field at its default value: what a JSON line's fields are read
    /// into. A line that leaves out a required field is refused before its default is read.
    init()

    /// Whether the request only reads. The default is `false`.
    var readsOnly: Bool { get }

    /// The intent the request asks for, with every reference resolved in the transaction that
    /// will run it.
    ///
    /// - Throws: ``ReferenceError`` for a reference that names nothing; what the intent's
    ///   own checks throw.
    func intent(_ resolve: ReferenceResolver) throws -> Intent
}

extension Request {
    public static var selector: String? { nil }

    public var readsOnly: Bool { false }

    /// The name as a subcommand: kebab-case (`create-list`).
    static var commandName: String {
        name.reduce(into: "") { result, character in
            if character.isUppercase { result += "-" + character.lowercased() } else { result.append(character) }
        }
    }

    /// What the field held by `property` means, for the help of a command's option.
    ///
    /// A request whose fields a protocol declares for several (``ItemsRequest``) names them by
    /// key paths through the protocol's requirements, which are not those of its stored
    /// properties: ask for their help in a context generic over the protocol
    /// (``ItemsArguments``), or share a constant of ``Help``.
    static func help(_ property: PartialKeyPath<Self>) -> String {
        guard let field = fields.first(where: { $0.property == property }) else {
            preconditionFailure("\(Self.self) has no field at \(property): every property a command asks help for is one of its fields.")
        }
        return field.help
    }

    /// The JSON names of the fields whose values are of one of `types`: the options Tab completes.
    static func fieldNames(holding types: [any RequestValue.Type]) -> [String] {
        fields.filter { field in types.contains { $0 == field.valueType } }.map(\.name)
    }

    /// Checks the form of every reference the request holds (`#N`, an id or a prefix), with
    /// no store: what a command's arguments and a JSON line's fields go through before a
    /// database is opened.
    ///
    /// - Throws: ``ReferenceError`` for the first malformed reference.
    func checkForm() throws(ReferenceError) {
        for field in Self.fields {
            try field.checkForm(of: self)
        }
    }

    /// Reads the request from a JSON line, field by field as ``fields`` declares them.
    ///
    /// - Parameter keys: The keys of the line's object, but `intent`.
    ///
    /// - Throws: An ``IntentFailure`` with code `unknownField`, `missingField` or
    ///   `invalidField`, or that of the ``ReferenceError`` of a malformed reference.
    static func read(_ line: Data, keys: some Collection<String>) throws(IntentFailure) -> Self {
        if let unknown = keys.sorted().first(where: { key in !fields.contains { $0.name == key } }) {
            let names = fields.map(\.name)
            throw IntentFailure(
                code: "unknownField",
                message: "\(name) has no field '\(unknown)'; " + (names.isEmpty ? "it takes none." : "its fields are \(names.joined(separator: ", "))."))
        }
        if let missing = fields.first(where: { $0.isRequired && !keys.contains($0.name) }) {
            var otherForms: [String] = []
            for form in RequestCatalogue.requests where form.name == name {
                if let other = form.selector, other != selector { otherForms.append(other) }
            }
            let other = otherForms.isEmpty ? "" : "; or '\(otherForms.joined(separator: "' or '"))', for its other form"
            throw IntentFailure(code: "missingField", message: "\(name) needs the field '\(missing.name)', which must be \(missing.jsonForm)\(other).")
        }
        do {
            return try JSONDecoder().decode(FieldReader<Self>.self, from: line).request
        } catch let failure as IntentFailure {
            throw failure
        } catch let error as ReferenceError {
            throw IntentFailure(error)
        } catch {
            throw IntentFailure(code: "invalidRequest", message: "The request cannot be read as \(name): \(error.localizedDescription)")
        }
    }

    /// ``perform(in:)`` with the result as a value to encode, for a request of any kind.
    func performForEncoding(in session: CommandSession) async throws -> any Encodable & Sendable {
        try await perform(in: session).result
    }

    /// Resolves the request and runs its intent in one transaction of the session's environment.
    ///
    /// - Returns: The intent's result and the undo step it recorded.
    /// - Throws: What ``intent(_:)`` and the intent throw; nothing is written then.
    func perform(in session: CommandSession) async throws -> Performed<Result> {
        let (currentList, countsToday, environment) = (session.currentList, session.isUsingToday, session.environment)
        return try await environment.perform(readOnly: readsOnly) { transaction in
            // Today by the environment's clock and time zone, as the intents tell it.
            let today = Day(environment.clock(), in: environment.timeZone)
            return try intent(ReferenceResolver(transaction, currentList: currentList, countsToday: countsToday, today: today))
        }
    }
}

/// One field of a ``Request``, declared once: its name in JSON requests, what it means, and the
/// stored property that holds its value.
///
/// The property's type gives the rest: its JSON form (a ``RequestValue``), and whether a
/// request must give the field (an optional property is one it may leave out).
public struct RequestField<Owner: Request>: Sendable {
    /// The field's key in JSON requests (`fromOffsets`).
    public let name: String
    /// What the field means, in a sentence for help texts.
    public let help: String
    /// Whether a request must give it.
    public let isRequired: Bool
    /// The type of its value.
    public let valueType: any RequestValue.Type
    /// The stored property that holds its value.
    let property: any PartialKeyPath<Owner> & Sendable
    /// Reads the field's value from a JSON object into a request.
    private let readValue: @Sendable (KeyedDecodingContainer<AnyKey>, inout Owner) throws -> Void
    /// Checks the form of the references the field's value holds.
    private let checkValue: @Sendable (Owner) throws(ReferenceError) -> Void

    /// A field a request must give.
    public init<Value: RequestValue>(_ name: String, _ property: any WritableKeyPath<Owner, Value> & Sendable, help: String) {
        (self.name, self.help, isRequired, valueType, self.property) = (name, help, true, Value.self, property)
        readValue = { container, request in
            request[keyPath: property] = try Self.decode(Value.self, named: name, from: container)
        }
        checkValue = { request throws(ReferenceError) in try request[keyPath: property].checkForm() }
    }

    /// A field a request may leave out. JSON's `null` leaves it out too, unless its type gives
    /// `null` a meaning of its own (``RequestValue/null``: no heading, no area, no deadline).
    public init<Value: RequestValue>(_ name: String, _ property: any WritableKeyPath<Owner, Value?> & Sendable, help: String) {
        (self.name, self.help, isRequired, valueType, self.property) = (name, help, false, Value.self, property)
        readValue = { container, request in
            let key = AnyKey(stringValue: name)
            guard container.contains(key) else { return }
            request[keyPath: property] = try container.decodeNil(forKey: key) ? Value.null : Self.decode(Value.self, named: name, from: container)
        }
        checkValue = { request throws(ReferenceError) in try request[keyPath: property]?.checkForm() }
    }

    /// How the value is written in JSON, for error messages and help: "a string".
    public var jsonForm: String { valueType.jsonForm }

    /// Reads the field's value from `container` into `request`, and checks its form.
    ///
    /// - Throws: An ``IntentFailure`` with code `invalidField`; a ``ReferenceError`` for a
    ///   malformed reference.
    func read(from container: KeyedDecodingContainer<AnyKey>, into request: inout Owner) throws {
        try readValue(container, &request)
        try checkValue(request)
    }

    /// Checks the form of the references the field's value in `request` holds.
    func checkForm(of request: Owner) throws(ReferenceError) {
        try checkValue(request)
    }

    /// The value of the field `name`, which `container` holds: ``RequestValue/null`` for a
    /// `null` where the type gives it a meaning.
    ///
    /// - Throws: An ``IntentFailure`` with code `invalidField` that says what the value must be.
    private static func decode<Value: RequestValue>(_ type: Value.Type, named name: String, from container: KeyedDecodingContainer<AnyKey>) throws -> Value {
        do {
            let key = AnyKey(stringValue: name)
            if let null = Value.null, try container.decodeNil(forKey: key) { return null }
            return try container.decode(Value.self, forKey: key)
        } catch {
            let failure = "The field '\(name)' of \(Owner.name) must be \(Value.jsonForm)"
            guard case DecodingError.dataCorrupted(let context) = error, case .invalid(let reason)? = context.underlyingError as? RequestValueError else {
                throw IntentFailure(code: "invalidField", message: failure + ".")
            }
            throw IntentFailure(code: "invalidField", message: failure + ": " + reason)
        }
    }
}

/// A request read from a JSON object, field by field as its ``Request/fields`` declare them.
private struct FieldReader<Owner: Request>: Decodable {
    var request = Owner()

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        for field in Owner.fields {
            try field.read(from: container, into: &request)
        }
    }
}

/// Shared help texts of the fields that mean the same in several requests.
enum Help {
    /// The `list` field of the requests that name items by `#N`.
    static let countingList = "The list whose open items #N counts; the current list when not given."
    /// The `items` field of the requests that act on several items.
    static let items = "The items: #N (as `list` numbers them), ids, or at least 4 characters of an id."
}
