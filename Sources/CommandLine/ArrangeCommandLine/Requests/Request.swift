public import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation

/// One request of a front end: a typed value that a JSON line decodes and a command's
/// arguments fill alike, and that asks for one intent.
///
/// The request's stored properties are its fields, named by its `CodingKeys`; an optional
/// property is a field a request may leave out. Help, completion and the checks of the JSON
/// protocol all read the fields from the type itself (``fields``).
///
/// ```swift
/// struct RenameRequest: Request {
///     static let name = "rename"
///     static let summary = "Give an item a new title."
///     var item: ItemReference
///     var title: String
///     var list: ListReference?
///
///     enum CodingKeys: String, CodingKey { case item, title, list }
///
///     static func help(_ field: CodingKeys) -> String {
///         switch field {
///         case .item: "The item to rename: #N, an id, or at least 4 characters of one."
///         case .title: "The item's new title."
///         case .list: Help.countingList
///         }
///     }
///
///     func intent(_ resolve: ReferenceResolver) throws -> RenameItem {
///         RenameItem(item: try resolve.item(item, numberedIn: try resolve.numbering(list)).id, title: title)
///     }
/// }
/// ```
public protocol Request<Result>: Codable, Hashable, Sendable {
    /// What the request's intent returns.
    associatedtype Result: Codable & Sendable
    /// The intent the request asks for.
    associatedtype Intent: ArrangeIntent where Intent.Result == Result
    /// The request's fields, as JSON names them.
    associatedtype Field: CodingKey

    /// The intent's name in JSON requests: camelCase (`createList`, `move`).
    static var name: String { get }
    /// One sentence that says what the intent does.
    static var summary: String { get }
    /// For a second request under the same name, the field whose presence selects it
    /// (`fromOffsets` for the offset form of `move`); `nil` for the main form.
    static var selector: String? { get }

    /// What a field means, in a sentence for help texts.
    static func help(_ field: Field) -> String

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

    /// The request's fields, in the order of its stored properties, read from its `Decodable`
    /// conformance; none when a field's value is not a ``RequestValue``.
    public static var fields: [RequestField] {
        (try? RequestShape.fields(of: Self.self)) ?? []
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

/// One field of a ``Request``, as help, completion and the JSON protocol's errors describe it.
public struct RequestField: Sendable {
    /// The field's key in JSON requests (`fromOffsets`).
    public let name: String
    /// What the field means, in a sentence for help texts.
    public let help: String
    /// Whether a request must give it.
    public let isRequired: Bool
    /// The type of its value.
    public let valueType: any RequestValue.Type

    /// How the value is written in JSON, for error messages and help: "a string".
    public var jsonForm: String { valueType.jsonForm }
}

/// Shared help texts of the fields that mean the same in several requests.
enum Help {
    /// The `list` field of the requests that name items by `#N`.
    static let countingList = "The list whose open items #N counts; the current list when not given."
    /// The `items` field of the requests that act on several items.
    static let items = "The items: #N (as `list` numbers them), ids, or at least 4 characters of an id."
}
