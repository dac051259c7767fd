/// Undoes the newest change of the session.
///
/// An app that mirrors the history in an `UndoManager` performs this from the undo action it
/// registered for a recorded ``UndoStep``.
public struct Undo: ArrangeIntent {
    public static let title = "Undo"

    /// Creates the intent; it takes no parameters.
    public init() {}

    public func run(in context: IntentContext) throws -> HistoryResult {
        try context.stepThroughHistory(back: true)
    }
}

/// Redoes the newest undone change of the session.
public struct Redo: ArrangeIntent {
    public static let title = "Redo"

    /// Creates the intent; it takes no parameters.
    public init() {}

    public func run(in context: IntentContext) throws -> HistoryResult {
        try context.stepThroughHistory(back: false)
    }
}
