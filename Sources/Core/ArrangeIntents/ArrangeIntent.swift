import ArrangeModel
/// One thing a person can do with their lists, shaped like an App Intent.
///
/// An intent is a small `Sendable` value: a ``title`` (a verb and a noun, "Move Items"),
/// typed parameters that name lists and items by id, and a typed result. It knows nothing of
/// text: a front end that lets people name things otherwise resolves those names into ids
/// (inside the transaction, with ``IntentEnvironment/perform(readOnly:_:)``) and formats the
/// result itself. An Apple client wraps each intent in an `AppIntent`
/// whose `perform()` calls ``perform(in:)``.
///
/// ```swift
/// let environment = try IntentEnvironment(repository: InMemoryItemRepository())
/// let groceries = try await CreateList(name: "Groceries").perform(in: environment).list
/// let added = try await AddItem(title: "Milk", list: groceries.id).perform(in: environment)
/// _ = try await MoveItems([added.items[0].id], to: .top).perform(in: environment)
/// ```
///
/// ## Implementation requirements
/// ``run(in:)`` does all its work in the transaction of the ``IntentContext`` it is given, so
/// that an error leaves the store as it was, and tells the context how to undo what it did.
/// An intent that only reads says so with ``isReadOnly``; it then runs in a read transaction,
/// which never waits for another connection's write lock.
public protocol ArrangeIntent: Sendable {
    /// What the intent returns.
    associatedtype Result: Codable & Sendable

    /// A verb and a noun, as a person would read it in a menu or an undo item: "Move Items".
    static var title: String { get }

    /// The title in the app's language, as an undo item names the step: "Move Items", in
    /// "Undo Move Items". It is the ``UndoStep/actionName`` of the steps the intent records.
    ///
    /// The default reads the titles of Arrange's own intents from its message table, and
    /// answers ``ArrangeIntent/title`` for any other: an app whose intent has a localized title
    /// returns it here.
    static var localizedTitle: String { get }

    /// Whether the intent only reads. The default is `false`.
    var isReadOnly: Bool { get }

    /// Does the intent's work in the transaction of `context`.
    ///
    /// Call ``perform(in:)`` instead; an environment calls this inside the transaction it opened.
    ///
    /// - Throws: ``IntentError``, or the model's, store's and ordering's errors. Nothing is
    ///   written when it throws.
    func run(in context: IntentContext) throws -> Result
}

extension ArrangeIntent {
    public var isReadOnly: Bool { false }

    public static var localizedTitle: String {
        let name = String(reflecting: Self.self)
        let module = "ArrangeIntents."
        guard name.hasPrefix(module) else { return title }
        return MessageTable.intents.message("Action.\(name.dropFirst(module.count))")
    }

    /// Runs the intent in one transaction of `environment`'s store.
    ///
    /// - Returns: The intent's typed result.
    /// - Throws: ``IntentError``, `TitleError`, `StoreError` or `OrderingError`, each a
    ///   `LocalizedError` whose message a person can act on. Nothing is written when it throws.
    @discardableResult
    public func perform(in environment: IntentEnvironment) async throws -> Result {
        try await environment.perform(self).result
    }
}

/// What running an intent gave: its result, and the step it recorded in the history.
public struct Performed<Result: Sendable>: Sendable {
    /// The intent's result.
    public var result: Result
    /// The step the run added to the environment's undo history, or `nil` when it recorded
    /// none: it changed nothing, it cannot be undone (a repair, undo itself), or the
    /// environment keeps no history. An app mirrors a recorded step in its `UndoManager`.
    public var undoStep: UndoStep?

    /// A result and the step recorded with it.
    public init(result: Result, undoStep: UndoStep?) {
        self.result = result
        self.undoStep = undoStep
    }
}
