public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// Checks a list's keys for ties and cramped gaps, and repairs them when asked.
///
/// A repair changes keys but never the order people see, so it is not a step of the history.
/// A check alone only reads, so it never waits for another process's write lock.
public struct ValidateList: ArrangeIntent {
    public static let title = "Validate List"

    /// The list; `nil` for the default list.
    public var list: ItemList.ID?
    /// Whether to repair what the check finds.
    public var repair: Bool

    /// Checks `list` (the default list for `nil`), and repairs it when `repair` is true.
    public init(list: ItemList.ID? = nil, repair: Bool = false) {
        self.list = list
        self.repair = repair
    }

    public var isReadOnly: Bool { !repair }

    public func run(in context: IntentContext) throws -> ValidationResult {
        let list = try context.list(self.list)
        let report = repair
            ? try context.ordering.validate(list: list.id, repair: true, in: try context.writing(Self.title))
            : try context.ordering.validationReport(list: list.id, in: context.transaction)
        return ValidationResult(list: try context.summary(of: list), report: report)
    }
}

/// Renumbers a list's keys evenly, as explicit maintenance.
///
/// It changes keys but never the order people see, so it is not a step of the history.
public struct NormalizeList: ArrangeIntent {
    public static let title = "Normalize List"

    /// The list; `nil` for the default list.
    public var list: ItemList.ID?

    /// Renumbers `list` (the default list for `nil`).
    public init(list: ItemList.ID? = nil) {
        self.list = list
    }

    public func run(in context: IntentContext) throws -> NormalizeResult {
        let transaction = try context.writing(Self.title)
        let list = try context.list(self.list)
        let report = try context.ordering.normalize(list: list.id, in: transaction)
        return NormalizeResult(list: try context.summary(of: list), rowsWritten: report.rowsWritten)
    }
}
