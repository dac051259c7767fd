/// Undoes the newest change of the session.
///
/// An app that mirrors the history in an `UndoManager` performs this from the undo action it
/// registered for a recorded ``UndoStep``, with that step's id, so that it can never undo
/// another change:
///
/// ```swift
/// let performed = try await environment.perform(MoveItems([milk], to: .top))
/// if let step = performed.undoStep {
///     undoManager.registerUndo(withTarget: model) { model in
///         model.run(Undo(expecting: step.id))
///     }
///     undoManager.setActionName(step.actionName)
/// }
/// ```
public struct Undo: ArrangeIntent {
    public static let title = "Undo"

    /// The step to undo, when the caller knows which; `nil` undoes the newest, whichever it is.
    public var expected: UndoStep.ID?

    /// Undoes the newest step; when `step` is given, only if it is that one.
    ///
    /// - Parameter step: The step the caller means to undo: its ``UndoStep/id``.
    public init(expecting step: UndoStep.ID? = nil) {
        self.expected = step
    }

    /// Undoes the step in the intent's transaction.
    ///
    /// - Throws: ``IntentError/nothingToUndo`` when there is none;
    ///   ``IntentError/historyConflict(action:reason:)`` when the newest step is not the one
    ///   expected, or the store changed so that it no longer fits.
    public func run(in context: IntentContext) throws -> HistoryResult {
        try context.stepThroughHistory(back: true, expecting: expected)
    }
}

/// Redoes the newest undone change of the session.
public struct Redo: ArrangeIntent {
    public static let title = "Redo"

    /// The step to redo, when the caller knows which; `nil` redoes the newest undone, whichever it is.
    public var expected: UndoStep.ID?

    /// Redoes the newest undone step; when `step` is given, only if it is that one.
    ///
    /// - Parameter step: The step the caller means to redo: its ``UndoStep/id``, which undoing kept.
    public init(expecting step: UndoStep.ID? = nil) {
        self.expected = step
    }

    /// Redoes the step in the intent's transaction.
    ///
    /// - Throws: ``IntentError/nothingToRedo`` when there is none;
    ///   ``IntentError/historyConflict(action:reason:)`` when the newest undone step is not the
    ///   one expected, or the store changed so that it no longer fits.
    public func run(in context: IntentContext) throws -> HistoryResult {
        try context.stepThroughHistory(back: false, expecting: expected)
    }
}
