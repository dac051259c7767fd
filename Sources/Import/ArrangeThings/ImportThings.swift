import ArrangeModel
public import ArrangeIntents
import ArrangeArchive
public import Foundation

/// Brings a Things 3 library into the store: what an app's "Import from Things…" does.
///
/// The library is mapped by ``ThingsLibrary/importPlan(today:)`` and merged as
/// `ImportArchive` merges an archive: Things' Inbox goes into the store's default list, and
/// since ids come from Things' uuids, importing the same library again updates what the last
/// import made and never duplicates it.
public struct ImportThings: ArrangeIntent {
    /// "Import from Things".
    public static let title = "Import from Things"

    public static var localizedTitle: String { MessageTable.things.message("Action.ImportThings") }

    /// The library, read with ``ThingsLibrary/init(contentsOf:)``.
    public var library: ThingsLibrary
    /// The day of the import, which decides Today: Things' rules, applied on that day.
    public var today: Date
    /// The calendar whose time zone tells which day `today` is.
    public var calendar: Calendar

    /// Imports `library` as Things would show it on the day of `today` in `calendar`.
    public init(_ library: ThingsLibrary, today: Date = Date(), calendar: Calendar = .current) {
        self.library = library
        self.today = today
        self.calendar = calendar
    }

    /// Maps the library and merges it into the store, in the context's transaction.
    public func run(in context: IntentContext) throws -> ThingsImportResult {
        let plan = library.importPlan(today: ThingsDay.packed(today, in: calendar))
        let merged = try ImportArchive(plan.archive, defaultListStandIn: ThingsImportPlan.inboxID).run(in: context)
        return ThingsImportResult(summary: plan.summary, merged: merged)
    }
}

/// What ``ImportThings`` brought, left out and changed.
public struct ThingsImportResult: Hashable, Sendable, Codable {
    /// What the library held and what was left out.
    public var summary: ThingsImportSummary
    /// How it merged into the store.
    public var merged: ImportResult

    /// Creates the result from its parts.
    public init(summary: ThingsImportSummary, merged: ImportResult) {
        self.summary = summary
        self.merged = merged
    }
}
