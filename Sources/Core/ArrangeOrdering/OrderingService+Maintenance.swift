public import ArrangeModel
public import ArrangeStore

extension OrderingService {
    /// Checks the keys of an ordering and, with `repair`, fixes what it finds.
    ///
    /// It looks for entries that share a `sortIndex` (after an import, a sync or a hand edit
    /// of the file), which ``checkUniqueness(_:in:)`` resolves, and for neighbouring keys
    /// closer than the configured minimum gap, whose windows `recalculateBounds(around:and:inserting:in:excluding:in:)`
    /// re-spreads. The displayed order never changes.
    ///
    /// - Returns: What was found, and the rows written by the repair.
    /// - Complexity: O(n) rows read; only the tied and cramped entries and a few neighbours are written.
    public func validate(_ scope: OrderScope, repair: Bool) throws -> ValidationReport {
        repair
            ? try repository.write { try validate(scope, repair: true, in: $0) }
            : try repository.read { try validationReport(scope, in: $0) }
    }

    /// What ``validate(_:repair:)`` finds, inside a read transaction of the caller's; nothing is repaired.
    public func validationReport(_ scope: OrderScope, in transaction: any ItemReading) throws -> ValidationReport {
        try inspect(scope, in: transaction).report
    }

    /// ``validate(_:repair:)`` inside a transaction of the caller's.
    public func validate(_ scope: OrderScope, repair: Bool, in transaction: any ItemWriting) throws -> ValidationReport {
        let inspection = try inspect(scope, in: transaction)
        guard repair, !inspection.report.isHealthy else { return inspection.report }
        var report = inspection.report
        report.rowsWritten = try checkUniqueness(scope, in: transaction).rowsWritten
        for (lower, upper) in inspection.crampedPairs {
            report.rowsWritten += try respreadIfCramped(lower, upper, in: scope, transaction: transaction)
        }
        report.repaired = true
        return report
    }

    /// Gives every entry that shares its `sortIndex` with another a key of its own, keeping
    /// the displayed order (`sortIndex`, then id).
    ///
    /// In each group of tied entries the first keeps its key and the others take keys in the
    /// gap after it; only when that gap is too small is a window of neighbours re-spread.
    ///
    /// - Returns: The entries given new keys, and the rows written.
    /// - Complexity: O(n) to find the groups, then O(k log n) for k tied entries.
    @discardableResult
    public func checkUniqueness(_ scope: OrderScope, in transaction: any ItemWriting) throws -> OrderingReport {
        var report = OrderingReport()
        for group in try transaction.entriesSharingSortIndex(in: scope) {
            // An earlier group's re-spread may have reached into this one: look again.
            let current = try group.compactMap { try transaction.entry(id: $0.id, in: scope) }.sorted { $0.key < $1.key }
            for tied in current.chunked(by: { $0.sortIndex == $1.sortIndex }) where tied.count > 1 {
                let (first, rest) = (tied[0], Array(tied.dropFirst()))
                let excluded = Set(rest.map(\.id))
                let upper = try Neighbours(scope: scope, excluding: excluded, transaction: transaction).after(first.key)
                let placement = try keys(for: rest.count, in: Gap(lower: first.key, upper: upper), scope: scope, excluding: excluded, in: transaction)
                try transaction.setSortIndices(
                    placement.respread + zip(rest, placement.keys).map { SortIndexChange(id: $0.id, sortIndex: $1) }, in: scope, updatedAt: now())
                report.placed += try rest.compactMap { try transaction.entry(id: $0.id, in: scope)?.key }
                report.rowsWritten += rest.count + placement.respread.count
                report.rowsRespread += placement.respread.count
            }
        }
        return report
    }

    /// Renumbers a whole ordering evenly, centred on 0, one end gap apart (closer when it is
    /// too long for that), as explicit maintenance. Entries already at their new key are not written.
    ///
    /// - Returns: The rows written.
    /// - Complexity: O(n).
    @discardableResult
    public func normalize(_ scope: OrderScope) throws -> OrderingReport {
        try repository.write { try normalize(scope, in: $0) }
    }

    /// ``normalize(_:)`` inside a transaction of the caller's.
    @discardableResult
    public func normalize(_ scope: OrderScope, in transaction: any ItemWriting) throws -> OrderingReport {
        let items = try allKeys(of: scope, in: transaction)
        let step = min(Int128(configuration.endGap), (KeyLayout.ceiling - KeyLayout.floor - 1) / Int128(items.count + 1))
        let first = -step * Int128(items.count - 1) / 2
        let changes = items.enumerated().compactMap { index, item -> SortIndexChange? in
            let key = Int64(first + step * Int128(index))
            return key == item.sortIndex ? nil : SortIndexChange(id: item.id, sortIndex: key)
        }
        try transaction.setSortIndices(changes, in: scope, updatedAt: now())
        return OrderingReport(rowsWritten: changes.count, rowsRespread: changes.count)
    }

    // MARK: Inspection

    /// What one pass over an ordering found.
    private struct Inspection {
        var report = ValidationReport()
        var crampedPairs: [(OrderKey, OrderKey)] = []
    }

    private func inspect(_ scope: OrderScope, in transaction: any ItemReading) throws -> Inspection {
        var inspection = Inspection()
        let items = try allKeys(of: scope, in: transaction)
        inspection.report.itemCount = items.count
        for run in items.chunked(by: { $0.sortIndex == $1.sortIndex }) where run.count > 1 {
            inspection.report.tiedGroups += 1
            inspection.report.tiedItems += run.count
        }
        inspection.crampedPairs = zip(items, items.dropFirst()).filter { lower, upper in
            let distance = Int128(upper.sortIndex) - Int128(lower.sortIndex)
            return distance > 0 && distance < Int128(configuration.minimumGap)
        }
        inspection.report.crampedGaps = inspection.crampedPairs.count
        return inspection
    }

    /// Re-spreads around two neighbours if they are still neighbours and still too close.
    private func respreadIfCramped(_ lower: OrderKey, _ upper: OrderKey, in scope: OrderScope, transaction: any ItemWriting) throws -> Int {
        guard let lower = try transaction.entry(id: lower.id, in: scope), let upper = try transaction.entry(id: upper.id, in: scope) else { return 0 }
        let next = try transaction.keys(in: scope, after: lower.key, limit: 1).first
        guard next?.id == upper.id, Int128(upper.sortIndex) - Int128(lower.sortIndex) < Int128(configuration.minimumGap) else { return 0 }
        let placement = try recalculateBounds(around: lower.key, and: upper.key, inserting: 0, in: scope, excluding: [], in: transaction)
        try transaction.setSortIndices(placement.respread, in: scope, updatedAt: now())
        return placement.respread.count
    }

    /// The keys of every entry of an ordering, in order, read a page at a time.
    ///
    /// - Throws: ``StoreError/listNotFound(_:)`` for the items of an unknown list.
    private func allKeys(of scope: OrderScope, in transaction: any ItemReading) throws -> [OrderKey] {
        try checkExists(scope, in: transaction)
        var keys: [OrderKey] = []
        while true {
            let page = try transaction.keys(in: scope, after: keys.last ?? .beforeAll, limit: 1_024)
            keys += page
            if page.count < 1_024 { return keys }
        }
    }
}
