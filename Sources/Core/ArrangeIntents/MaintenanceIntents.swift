public import ArrangeModel
import ArrangeChanges
import ArrangeOrdering
import ArrangeStore

/// Checks the keys of an ordering for ties and cramped gaps, and repairs them when asked.
///
/// A repair changes keys but never the order people see, so it is not a step of the history.
/// A check alone only reads, so it never waits for another process's write lock.
public struct ValidateList: ArrangeIntent {
    public static let title = "Validate List"

    /// The ordering; `nil` for the items of the default list.
    public var scope: OrderScope?
    /// Whether to repair what the check finds.
    public var repair: Bool

    /// Checks the items of `list` (the default list for `nil`) under no heading (a heading's are checked with `.heading(id)`), and repairs them when `repair` is true.
    public init(list: ItemList.ID? = nil, repair: Bool = false) {
        self.init(list.map(OrderScope.items), repair: repair)
    }

    /// Checks an ordering (the items of the default list for `nil`), and repairs it when `repair` is true.
    ///
    /// ```swift
    /// try await ValidateList(.lists, repair: true).perform(in: environment)
    /// ```
    public init(_ scope: OrderScope?, repair: Bool = false) {
        self.scope = scope
        self.repair = repair
    }

    public var isReadOnly: Bool { !repair }

    public func run(in context: IntentContext) throws -> ValidationResult {
        let (scope, list) = try context.resolve(scope)
        let report = repair
            ? try context.ordering.validate(scope, repair: true, in: try context.writing(Self.title))
            : try context.ordering.validationReport(scope, in: context.transaction)
        if report.repaired { try context.record(.keysRepaired(scope, normalized: false)) }
        return ValidationResult(scope: OrderingKind(scope), list: try list.map(context.summary(of:)), report: report)
    }
}

/// Renumbers the keys of an ordering evenly, as explicit maintenance.
///
/// It changes keys but never the order people see, so it is not a step of the history.
public struct NormalizeList: ArrangeIntent {
    public static let title = "Normalize List"

    /// The ordering; `nil` for the items of the default list.
    public var scope: OrderScope?

    /// Renumbers the items of `list` (the default list for `nil`) under no heading.
    public init(list: ItemList.ID? = nil) {
        self.init(list.map(OrderScope.items))
    }

    /// Renumbers an ordering (the items of the default list for `nil`).
    public init(_ scope: OrderScope?) {
        self.scope = scope
    }

    public func run(in context: IntentContext) throws -> NormalizeResult {
        let transaction = try context.writing(Self.title)
        let (scope, list) = try context.resolve(scope)
        let report = try context.ordering.normalize(scope, in: transaction)
        try context.record(.keysRepaired(scope, normalized: true))
        return NormalizeResult(scope: OrderingKind(scope), list: try list.map(context.summary(of:)), rowsWritten: report.rowsWritten)
    }
}
