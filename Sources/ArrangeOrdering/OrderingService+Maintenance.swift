public import ArrangeModel
public import ArrangeStore

extension OrderingService {
    /// Checks a list's keys and, with `repair`, fixes what it finds.
    ///
    /// It looks for items that share a `sortIndex` (after an import, a sync or a hand edit
    /// of the file), which ``checkUniqueness(list:in:)`` resolves, and for neighbouring keys
    /// closer than the configured minimum gap, whose windows ``recalculateBounds(around:and:inserting:in:excluding:in:)``
    /// re-spreads. The displayed order never changes.
    ///
    /// - Returns: What was found, and the rows written by the repair.
    /// - Complexity: O(n) rows read; only the tied and cramped items and a few neighbours are written.
    public func validate(list: ItemList.ID, repair: Bool) throws -> ValidationReport {
        repair
            ? try repository.write { try validate(list: list, repair: true, in: $0) }
            : try repository.read { try validationReport(list: list, in: $0) }
    }

    /// What ``validate(list:repair:)`` finds, inside a read transaction of the caller's; nothing is repaired.
    public func validationReport(list: ItemList.ID, in transaction: any ItemReading) throws -> ValidationReport {
        try inspect(list: list, in: transaction).report
    }

    /// ``validate(list:repair:)`` inside a transaction of the caller's.
    public func validate(list: ItemList.ID, repair: Bool, in transaction: any ItemWriting) throws -> ValidationReport {
        let inspection = try inspect(list: list, in: transaction)
        guard repair, !inspection.report.isHealthy else { return inspection.report }
        var report = inspection.report
        report.rowsWritten = try checkUniqueness(list: list, in: transaction).rowsWritten
        for (lower, upper) in inspection.crampedPairs {
            report.rowsWritten += try respreadIfCramped(lower, upper, in: list, transaction: transaction)
        }
        report.repaired = true
        return report
    }

    /// Gives every item that shares its `sortIndex` with another a key of its own, keeping
    /// the displayed order (`sortIndex`, then id).
    ///
    /// In each group of tied items the first keeps its key and the others take keys in the
    /// gap after it; only when that gap is too small is a window of neighbours re-spread.
    ///
    /// - Returns: The items given new keys, and the rows written.
    /// - Complexity: O(n) to find the groups, then O(k log n) for k tied items.
    @discardableResult
    public func checkUniqueness(list: ItemList.ID, in transaction: any ItemWriting) throws -> OrderingReport {
        var report = OrderingReport()
        for group in try transaction.itemsSharingSortIndex(in: list) {
            // An earlier group's re-spread may have reached into this one: look again.
            let current = try group.map { try transaction.existingItem(id: $0.id) }.sorted { $0.orderKey < $1.orderKey }
            for tied in current.chunked(by: { $0.sortIndex == $1.sortIndex }) where tied.count > 1 {
                let (first, rest) = (tied[0], Array(tied.dropFirst()))
                let excluded = Set(rest.map(\.id))
                let upper = try Neighbours(list: list, excluding: excluded, transaction: transaction).after(first.orderKey)
                let placement = try keys(for: rest.count, in: Gap(lower: first, upper: upper), list: list, excluding: excluded, in: transaction)
                try transaction.updateSortIndices(
                    placement.respread + zip(rest, placement.keys).map { SortIndexChange(id: $0.id, sortIndex: $1) }, updatedAt: now())
                report.placed += try rest.map { try transaction.existingItem(id: $0.id) }
                report.rowsWritten += rest.count + placement.respread.count
                report.rowsRespread += placement.respread.count
            }
        }
        return report
    }

    /// Renumbers a whole list evenly, centred on 0, one end gap apart (closer when the list is
    /// too long for that), as explicit maintenance. Items already at their new key are not written.
    ///
    /// - Returns: The rows written.
    /// - Complexity: O(n).
    @discardableResult
    public func normalize(list: ItemList.ID) throws -> OrderingReport {
        try repository.write { try normalize(list: list, in: $0) }
    }

    /// ``normalize(list:)`` inside a transaction of the caller's.
    @discardableResult
    public func normalize(list: ItemList.ID, in transaction: any ItemWriting) throws -> OrderingReport {
        _ = try transaction.existingList(id: list)
        let items = try allItems(of: list, in: transaction)
        let step = min(Int128(configuration.endGap), (KeyLayout.ceiling - KeyLayout.floor - 1) / Int128(items.count + 1))
        let first = -step * Int128(items.count - 1) / 2
        let changes = items.enumerated().compactMap { index, item -> SortIndexChange? in
            let key = Int64(first + step * Int128(index))
            return key == item.sortIndex ? nil : SortIndexChange(id: item.id, sortIndex: key)
        }
        try transaction.updateSortIndices(changes, updatedAt: now())
        return OrderingReport(rowsWritten: changes.count, rowsRespread: changes.count)
    }

    // MARK: Inspection

    /// What one pass over a list found.
    private struct Inspection {
        var report = ValidationReport()
        var crampedPairs: [(Item, Item)] = []
    }

    private func inspect(list: ItemList.ID, in transaction: any ItemReading) throws -> Inspection {
        _ = try transaction.existingList(id: list)
        var inspection = Inspection()
        let items = try allItems(of: list, in: transaction)
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
    private func respreadIfCramped(_ lower: Item, _ upper: Item, in list: ItemList.ID, transaction: any ItemWriting) throws -> Int {
        let (lower, upper) = (try transaction.existingItem(id: lower.id), try transaction.existingItem(id: upper.id))
        let next = try transaction.items(in: list, after: lower.orderKey, limit: 1).first
        guard next?.id == upper.id, Int128(upper.sortIndex) - Int128(lower.sortIndex) < Int128(configuration.minimumGap) else { return 0 }
        let placement = try recalculateBounds(around: lower, and: upper, inserting: 0, in: list, excluding: [], in: transaction)
        try transaction.updateSortIndices(placement.respread, updatedAt: now())
        return placement.respread.count
    }

    /// Every item of a list in display order, read a page at a time.
    private func allItems(of list: ItemList.ID, in transaction: any ItemReading) throws -> [Item] {
        var items: [Item] = []
        while true {
            let page = try transaction.items(in: list, after: items.last?.orderKey ?? .beforeAll, limit: 1_024)
            items += page
            if page.count < 1_024 { return items }
        }
    }
}
