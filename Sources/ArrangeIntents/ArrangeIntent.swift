/// One thing a person can do with their lists, shaped like an App Intent.
///
/// An intent is a small value: a ``title`` (a verb and a noun, "Move Items"), typed
/// parameters as stored properties, and ``perform(in:)``, which returns a typed, `Codable`
/// result and never text: each front end formats results itself. The command line, its
/// JSON Lines protocol and its REPL run intents; an Apple client can wrap each one in an
/// `AppIntent` whose `perform()` calls the same code.
///
/// ```swift
/// let environment = try IntentEnvironment(repository: InMemoryItemRepository())
/// _ = try await CreateList(name: "Inbox").perform(in: environment)
/// let added = try await AddItem(title: "Buy milk").perform(in: environment)
/// added.items[0].title  // "Buy milk"
/// ```
///
/// ## Implementation requirements
/// - An intent that changes anything does all of it in one write transaction of
///   ``IntentEnvironment/repository``, so that an error leaves the store as it was, and
///   records how to undo it with the environment.
/// - Its `Codable` form is its request in the command line's JSON Lines protocol: the keys
///   are the ``IntentDescription/parameters`` of its ``description``.
public protocol ArrangeIntent: Sendable, Codable {
    /// What the intent returns.
    associatedtype Result: Codable & Sendable

    /// A verb and a noun, as a person would read it in a menu: "Move Items".
    static var title: String { get }

    /// The intent's entry in the ``IntentCatalogue``: its name, summary and parameters.
    static var description: IntentDescription { get }

    /// Runs the intent.
    ///
    /// - Throws: ``IntentError``, or the model's, store's and ordering's errors, which
    ///   ``IntentFailure`` describes. Nothing is written when it throws.
    func perform(in environment: IntentEnvironment) async throws -> Result
}

/// An intent's entry in the ``IntentCatalogue``.
public struct IntentDescription: Hashable, Sendable {
    /// The intent's name in requests: camelCase (`createList`, `move`).
    public var name: String
    /// The intent's type's ``ArrangeIntent/title``.
    public var title: String
    /// One sentence that says what the intent does.
    public var summary: String
    /// The intent's parameters, in the order a command line takes them.
    public var parameters: [IntentParameter]
    /// For a second form of an intent under the same name, the parameter whose presence
    /// selects it (`fromOffsets` for the offset form of `move`).
    public var selector: String?

    public init(name: String, title: String, summary: String, parameters: [IntentParameter] = [], selector: String? = nil) {
        self.name = name
        self.title = title
        self.summary = summary
        self.parameters = parameters
        self.selector = selector
    }

    /// The parameter named `name`.
    public func parameter(_ name: String) -> IntentParameter? {
        parameters.first { $0.name == name }
    }

    /// The intent's name as a command: kebab-case (`create-list`).
    public var commandName: String {
        name.reduce(into: "") { result, character in
            if character.isUppercase { result += "-" + character.lowercased() } else { result.append(character) }
        }
    }
}

/// One parameter of an intent.
public struct IntentParameter: Hashable, Sendable {
    /// The parameter's key in requests (`fromOffsets`).
    public var name: String
    public var type: ParameterType
    /// Whether a request must give it.
    public var isRequired: Bool
    /// What the parameter means, in a sentence for help texts.
    public var help: String

    public init(_ name: String, _ type: ParameterType, required isRequired: Bool = false, help: String) {
        self.name = name
        self.type = type
        self.isRequired = isRequired
        self.help = help
    }
}

/// The kinds of values parameters take.
public enum ParameterType: String, Hashable, Sendable, CaseIterable {
    /// A title or a name.
    case text
    /// A ``ListReference``: a list's name or id.
    case list
    /// One ``ItemReference``.
    case item
    /// Several ``ItemReference``s.
    case items
    /// A ``PlacementReference``.
    case placement
    /// A whole number.
    case integer
    /// Several whole numbers.
    case integers
    /// `true` or `false`.
    case flag

    /// How the value is written in JSON, for error messages and help.
    public var jsonForm: String {
        switch self {
        case .text: "a string"
        case .list: "a list name or id (a string)"
        case .item: "an item reference (a string: \"#N\", an id, or an id prefix)"
        case .items: "an array of item references (strings)"
        case .placement: #""top", "bottom", {"before": REF}, {"after": REF} or {"offset": N}"#
        case .integer: "a whole number"
        case .integers: "an array of whole numbers"
        case .flag: "true or false"
        }
    }
}
