import ArrangeBenchSupport
import ArrangeModel
import ArrangeStore

/// Keys 0..n-1, renumbered after each change: every row whose offset changes is written.
///
/// It never fails, but the rows it writes grow with the distance an item moves, and an
/// insert rewrites every row after it. Those rows depend only on the offsets, so the strategy
/// counts them exactly from the operation. It also writes them through the repository until
/// it has written `rowBudget` rows in one run; past that it checks the stored order once and
/// only counts, since writing tens of millions of rows would say nothing new.
final class DenseStrategy: OrderingStrategy {
    let repository: any ItemRepository
    let list: ItemList.ID
    let rowBudget: Int
    private var rowsStored = 0
    private var storing = true

    init(repository: any ItemRepository, list: ItemList.ID, ids: [Item.ID], rowBudget: Int) throws {
        self.repository = repository
        self.list = list
        self.rowBudget = rowBudget
        try BulkLoad.fill(list, ids: ids, keys: { Int64($0) }, in: repository)
    }

    func perform(_ context: OperationContext) throws -> Outcome {
        let rows = Self.rowsRenumbered(by: context.geometry)
        if storing, rowsStored + rows > rowBudget {
            storing = false
            try checkStoredOrder(against: context)
        }
        if storing {
            try write(context)
            rowsStored += rows
        }
        return Outcome(rowsWritten: rows)
    }

    var onlyCounted: Bool { !storing }

    func storedOrder() throws -> StoredOrder? {
        storing ? try storedOrderByKey(of: list, in: repository) : nil
    }

    /// The rows whose offset changes, the new one included.
    ///
    /// Within ``ChangeGeometry/window`` no staying item keeps its offset, so only the moved
    /// items that happen to land on their own offset are spared.
    static func rowsRenumbered(by geometry: ChangeGeometry) -> Int {
        if geometry.inserts { return geometry.count - geometry.landing + 1 }
        let unchanged = geometry.sources.enumerated().count { $0.element == geometry.landing + $0.offset }
        return geometry.window.count - unchanged
    }

    private func write(_ context: OperationContext) throws {
        let geometry = context.geometry
        try repository.write { transaction in
            if geometry.inserts {
                let shifted = (geometry.landing..<geometry.count).map { SortIndexChange(id: context.id(at: $0).entryID, sortIndex: Int64($0 + 1)) }
                try transaction.setSortIndices(shifted, in: .items(list), updatedAt: BulkLoad.epoch)
                let id = context.id(of: .new)
                try transaction.insert(BulkLoad.item(id, number: context.ids.count - 1, in: list, sortIndex: Int64(geometry.landing)))
            } else {
                let changes = geometry.window.compactMap { offset -> SortIndexChange? in
                    let new = geometry.newOffset(ofOriginal: offset)
                    return new == offset ? nil : SortIndexChange(id: context.id(at: offset).entryID, sortIndex: Int64(new))
                }
                try transaction.setSortIndices(changes, in: .items(list), updatedAt: BulkLoad.epoch)
            }
        }
    }

    private func checkStoredOrder(against context: OperationContext) throws {
        let stored = try storedOrderByKey(of: list, in: repository)
        let expected = context.order.map { context.ids[Int($0)] }
        if let problem = orderProblem(stored, expected: expected) {
            throw VerificationFailure(message: "dense renumbering, before it stopped writing: \(problem)")
        }
    }
}

/// The store disagrees with the order the operations should have produced.
struct VerificationFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// What is wrong with a stored order, or `nil` when it is the expected one with rising keys.
func orderProblem(_ stored: StoredOrder, expected: [Item.ID]) -> String? {
    if let problem = stored.keyProblem { return problem }
    guard stored.ids.count == expected.count else {
        return "the store holds \(stored.ids.count) items, \(expected.count) expected"
    }
    guard let offset = stored.ids.indices.first(where: { stored.ids[$0] != expected[$0] }) else { return nil }
    return "the order differs first at offset \(offset)"
}
