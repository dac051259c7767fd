public import ArrangeModel
public import ArrangeOrdering
public import ArrangeStore

/// Where entries went in an ordering: between the visible neighbours they were dropped between.
/// A missing neighbour is an end.
public struct SyncPlace: Codable, Hashable, Sendable {
    /// The entry just before, or `nil` at the top.
    public var after: OrderEntry.ID?
    /// The entry just after, or `nil` at the bottom.
    public var before: OrderEntry.ID?

    /// A place between `after` and `before`.
    public init(after: OrderEntry.ID?, before: OrderEntry.ID?) {
        self.after = after
        self.before = before
    }

    /// Where an ordering service placed entries: between the neighbours its report names.
    public init(_ report: OrderingReport) {
        self.init(after: report.predecessor, before: report.successor)
    }

    /// Where a run of entries is now in an ordering: between the entry just before the first
    /// and the entry just after the last.
    ///
    /// - Parameters:
    ///   - entries: The run, with their keys as they are now; not empty.
    ///   - scope: The ordering the run is in.
    ///   - transaction: The store as it is now.
    public init(of entries: [OrderEntry], in scope: OrderScope, transaction: any ItemReading) throws {
        let keys = entries.map(\.key).sorted()
        guard let first = keys.first, let last = keys.last else {
            self.init(after: nil, before: nil)
            return
        }
        self.init(
            after: try transaction.keys(in: scope, before: first, limit: 1).first?.id,
            before: try transaction.keys(in: scope, after: last, limit: 1).first?.id)
    }
}
