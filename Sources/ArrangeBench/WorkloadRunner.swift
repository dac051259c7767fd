import ArrangeBenchSupport
import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// What one strategy did on one workload.
struct WorkloadResult {
    let workload: Workload
    let count: Int
    let strategy: StrategyKind
    /// Rows written by each operation that succeeded.
    var rowsWritten: [Int] = []
    /// Rows read to find offsets, by each operation that succeeded.
    var rowsRead: [Int] = []
    /// The 1-based operation at which the strategy failed (0: it could not lay out the list).
    var failedAt: Int?
    /// Why it failed, or what was wrong with its stored order.
    var problem: String?
    /// Whether the problem is a bug (an error or a wrong order) rather than the approach running out of keys.
    var isDefect = false
    /// Whether the strategy only counted the rows of the later operations instead of writing them.
    var onlyCounted = false
}

/// Runs a workload against several strategies in lockstep: each operation goes to every
/// strategy still running, each over its own in-memory repository, and then to the
/// benchmark's own copy of the order, against which every store is checked at the end
/// (and when a strategy fails).
struct WorkloadRunner {
    let operations: Int
    let seed: UInt64
    let strategies: [StrategyKind]
    let denseRowBudget: Int
    let log: (String) -> Void

    func run(_ workload: Workload, count: Int) throws -> [WorkloadResult] {
        var random = SeededRandomNumberGenerator(seed: seed &+ UInt64(count) &* 0x9E37 &+ UInt64(Workload.allCases.firstIndex(of: workload)!))
        var ids = (0..<count).map { _ in Item.ID(using: &random) }
        var order = (0..<count).map { Int32($0) }
        let kinds = workload.runsBaselines ? strategies : strategies.filter { $0 == .arrange }
        var results = kinds.map { WorkloadResult(workload: workload, count: count, strategy: $0) }
        var running: [(index: Int, strategy: any OrderingStrategy)] = []
        for (index, kind) in kinds.enumerated() {
            let repository = InMemoryItemRepository()
            let list = try BulkLoad.makeList(named: "Bench", in: repository)
            do {
                let strategy = try kind.make(
                    repository: repository, list: list.id, ids: ids, jitter: workload == .jitteredRandomMoves,
                    seed: seed, denseRowBudget: denseRowBudget)
                running.append((index, strategy))
            } catch let failure as StrategyFailure {
                results[index].failedAt = 0
                results[index].problem = failure.description
            }
        }
        var previousInsert: Int?
        for number in 1...operations {
            guard !running.isEmpty else { break }
            let operation = workload.nextOperation(count: order.count, previousInsert: previousInsert, random: &random)
            let geometry = ChangeGeometry(operation, count: order.count)
            if geometry.inserts { ids.append(Item.ID(using: &random)) }
            running = try perform(number, OperationContext(operation: operation, geometry: geometry, order: order, ids: ids), on: running, results: &results)
            geometry.apply(to: &order, new: Int32(ids.count - 1))
            previousInsert = geometry.inserts ? geometry.landing : nil
        }
        let expected = order.map { ids[Int($0)] }
        for (index, strategy) in running {
            results[index].onlyCounted = strategy.onlyCounted
            if let stored = try strategy.storedOrder(), let problem = orderProblem(stored, expected: expected) {
                results[index].problem = "wrong order after the last operation: \(problem)"
                results[index].isDefect = true
            }
        }
        return results
    }

    /// Performs one operation on every running strategy and returns those still running.
    private func perform(
        _ number: Int, _ context: OperationContext, on running: [(index: Int, strategy: any OrderingStrategy)],
        results: inout [WorkloadResult]
    ) throws -> [(index: Int, strategy: any OrderingStrategy)] {
        try running.filter { index, strategy in
            do {
                let outcome = try strategy.perform(context)
                results[index].rowsWritten.append(outcome.rowsWritten)
                results[index].rowsRead.append(outcome.rowsRead)
                return true
            } catch StrategyFailure.noRoom {
                results[index].failedAt = number
                results[index].problem = StrategyFailure.noRoom.description
                // Nothing was written: the store must still hold the order from before.
                if let stored = try strategy.storedOrder(),
                   let problem = orderProblem(stored, expected: context.order.map { context.ids[Int($0)] }) {
                    results[index].problem = "wrong order when it failed: \(problem)"
                    results[index].isDefect = true
                }
                return false
            } catch {
                results[index].failedAt = number
                results[index].problem = "\(error)"
                results[index].isDefect = true
                log("  \(results[index].strategy.rawValue) failed at operation \(number): \(error)")
                return false
            }
        }
    }
}
