import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// Checks a list's keys, and repairs them when asked.
///
/// A repair changes keys but never the order people see, so it is not a step of the history.
public struct ValidateList: ArrangeIntent {
    public static let title = "Validate List"
    public static let description = IntentDescription(
        name: "validate", title: title, summary: "Check a list for tied or cramped sort keys, and repair them when asked; the order never changes.",
        parameters: [
            IntentParameter("list", .list, help: "The list to check; the current list when not given."),
            IntentParameter("repair", .flag, help: "Repair what the check finds."),
        ])

    public var list: ListReference?
    public var repair: Bool

    public init(list: ListReference? = nil, repair: Bool = false) {
        self.list = list
        self.repair = repair
    }

    private enum CodingKeys: String, CodingKey {
        case list, repair
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            list: try container.decodeIfPresent(ListReference.self, forKey: .list),
            repair: try container.decodeIfPresent(Bool.self, forKey: .repair) ?? false)
    }

    public func perform(in environment: IntentEnvironment) async throws -> ValidationResult {
        guard repair else {
            // A check alone only reads, so it never waits for another process's write lock.
            return try environment.read { resolve in
                let list = try resolve.list(self.list)
                let report = try environment.ordering.validationReport(list: list.id, in: resolve.transaction)
                return ValidationResult(list: try resolve.summary(of: list), report: report)
            }
        }
        return try environment.write(Self.title) { transaction, resolve in
            let list = try resolve.list(self.list)
            let report = try environment.ordering.validate(list: list.id, repair: true, in: transaction)
            return (ValidationResult(list: try resolve.summary(of: list), report: report), nil)
        }
    }
}

/// Renumbers a list's keys evenly.
///
/// It changes keys but never the order people see, so it is not a step of the history.
public struct NormalizeList: ArrangeIntent {
    public static let title = "Normalize List"
    public static let description = IntentDescription(
        name: "normalize", title: title, summary: "Renumber a list's sort keys evenly; the order never changes.",
        parameters: [IntentParameter("list", .list, help: "The list to renumber; the current list when not given.")])

    public var list: ListReference?

    public init(list: ListReference? = nil) {
        self.list = list
    }

    public func perform(in environment: IntentEnvironment) async throws -> NormalizeResult {
        try environment.write(Self.title) { transaction, resolve in
            let list = try resolve.list(self.list)
            let report = try environment.ordering.normalize(list: list.id, in: transaction)
            return (NormalizeResult(list: try resolve.summary(of: list), rowsWritten: report.rowsWritten), nil)
        }
    }
}
