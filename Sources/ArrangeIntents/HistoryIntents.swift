/// Undoes the newest change of the session.
public struct Undo: ArrangeIntent {
    public static let title = "Undo"
    public static let description = IntentDescription(
        name: "undo", title: title, summary: "Undo the newest change made in this session.")

    public init() {}

    public func perform(in environment: IntentEnvironment) async throws -> HistoryResult {
        try environment.step(back: true)
    }
}

/// Redoes the newest undone change of the session.
public struct Redo: ArrangeIntent {
    public static let title = "Redo"
    public static let description = IntentDescription(
        name: "redo", title: title, summary: "Redo the change undone last in this session.")

    public init() {}

    public func perform(in environment: IntentEnvironment) async throws -> HistoryResult {
        try environment.step(back: false)
    }
}
