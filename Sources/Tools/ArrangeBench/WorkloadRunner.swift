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
/// (and when a strategy fails). The rows each operation writes are counted at the
/// repository (``CountingRepository``) and must match what the strategy reports.
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
        let kinds = workload.runsBaselines ? strategies : strategies.filter(\.isArrange)
        var results = kinds.map { WorkloadResult(workload: workload, count: count, strategy: $0) }
        var running: [Running] = []
        for (index, kind) in kinds.enumerated() {
            let repository = CountingRepository(InMemoryItemRepository())
            let list = try BulkLoad.makeList(named: "Bench", in: repository)
            do {
                let strategy = try kind.make(
                    repository: repository, list: list.id, ids: ids, jitter: workload == .jitteredRandomMoves,
                    seed: seed, denseRowBudget: denseRowBudget)
                _ = repository.takeRowsWritten()
                running.append(Running(index: index, strategy: strategy, repository: repository))
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
        for running in running {
            let index = running.index
            results[index].onlyCounted = running.strategy.onlyCounted
            if let stored = try running.strategy.storedOrder(), let problem = orderProblem(stored, expected: expected) {
                results[index].problem = "wrong order after the last operation: \(problem)"
                results[index].isDefect = true
            }
        }
        return results
    }

    /// A strategy still running, and the repository that counts its rows.
    private struct Running {
        let index: Int
        let strategy: any OrderingStrategy
        let repository: CountingRepository
    }

    /// Performs one operation on every running strategy and returns those still running.
    ///
    /// The rows a strategy says it wrote must be the rows its repository saw written, unless
    /// it only counts them (dense renumbering past its budget).
    private func perform(_ number: Int, _ context: OperationContext, on running: [Running], results: inout [WorkloadResult]) throws -> [Running] {
        try running.filter { running in
            let (index, strategy) = (running.index, running.strategy)
            do {
                let outcome = try strategy.perform(context)
                let seen = running.repository.takeRowsWritten()
                guard strategy.onlyCounted || seen == outcome.rowsWritten else {
                    throw VerificationFailure(message: "it reports \(outcome.rowsWritten) rows written, the repository saw \(seen)")
                }
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
