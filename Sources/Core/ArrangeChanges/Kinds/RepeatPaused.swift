public import ArrangeModel
package import ArrangeStore

/// A repeating series stopped making to-dos for now (`paused`), or started again.
public struct RepeatPaused: ChangeKind {
    package static let name: StaticString = "pauseRepeat"

    /// The series.
    public var series: Series.ID
    /// Whether it is paused.
    public var paused: Bool

    /// The change of these parts.
    public init(series: Series.ID, paused: Bool) { (self.series, self.paused) = (series, paused) }

    package var change: SyncChange { .pauseRepeat(self) }

    package static let members: ChangeMembers<Self> = [.member("series") { $0.series }, .member("paused") { $0.paused }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(series: try members.value("series"), paused: try members.value("paused"))
    }

    package func apply(in context: ChangeContext) throws {
        guard var series = try context.transaction.series(id: series), series.isPaused != paused else { return }
        (series.isPaused, series.updatedAt) = (paused, context.stamp)
        try context.transaction.update(series)
    }
}

extension RepeatPaused: ReversibleChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        guard let old = try store.series(id: series), old.isPaused != paused else { return [] }
        return [RepeatPaused(series: series, paused: old.isPaused)]
    }

    /// None: pausing a series taken off since does nothing.
    package func conflict(in store: any ItemReading) throws -> ChangeConflict? { nil }

    /// A pause or a resumption, when it differs from `old`, or the series is new and paused.
    static func changes(from old: Series?, to series: Series) -> [Self] {
        (old?.isPaused ?? false) == series.isPaused ? [] : [RepeatPaused(series: series.id, paused: series.isPaused)]
    }
}

extension SyncChange {
    /// A change of the kind ``RepeatPaused``, of these parts.
    public static func pauseRepeat(series: Series.ID, paused: Bool) -> SyncChange {
        .pauseRepeat(RepeatPaused(series: series, paused: paused))
    }
}
