import ArrangeModel
import ArrangeStore
import Foundation

/// An ``ItemRepository`` in front of another that counts the rows each write
/// transaction writes, so that every strategy's rows are counted the same way, at the
/// repository, rather than taken from its own report.
///
/// A row counts once per transaction however often it is written (a re-spread that
/// touches a row the move then writes again is still one row).
final class CountingRepository: ItemRepository {
    let base: any ItemRepository
    private let count = Locked(0)

    init(_ base: any ItemRepository) {
        self.base = base
    }

    /// The rows, of items and of lists, written by the write transactions committed since the last call.
    func takeRowsWritten() -> Int {
        count.withLock { count in
            defer { count = 0 }
            return count
        }
    }

    func read<Result>(_ body: (any ItemReading) throws -> Result) throws -> Result {
        try base.read(body)
    }

    func write<Result>(_ body: (any ItemWriting) throws -> Result) throws -> Result {
        var rows = 0
        let result = try base.write { transaction in
            let (result, written) = try CountingTransaction.run(body, on: transaction)
            rows = written
            return result
        }
        count.withLock { $0 += rows }
        return result
    }

    func read<R: Sendable>(_ body: @Sendable (any ItemReading) throws -> R) async throws -> R {
        try await base.read(body)
    }

    func write<R: Sendable>(_ body: @Sendable (any ItemWriting) throws -> R) async throws -> R {
        let (result, rows) = try await base.write { transaction in try CountingTransaction.run(body, on: transaction) }
        count.withLock { $0 += rows }
        return result
    }

    func values<Value: Equatable & Sendable>(of observation: StoreObservation<Value>) -> AsyncThrowingStream<Value, any Error> {
        base.values(of: observation)
    }
}

/// A write transaction that remembers which rows, of items, lists, checklist entries, areas and headings, it wrote.
private final class CountingTransaction: ForwardingTransaction {
    private(set) var written: Set<OrderEntry.ID> = []

    /// Runs `body` on a counting transaction in front of `transaction`; returns its result and the rows it wrote.
    static func run<Result>(_ body: (any ItemWriting) throws -> Result, on transaction: any ItemWriting) throws -> (Result, Int) {
        let counting = CountingTransaction(transaction)
        let result = try body(counting)
        return (result, counting.written.count)
    }

    override func apply(_ change: RowChange) throws {
        try super.apply(change)
        switch change {
        case .insert(let row), .update(let row): written.insert(row.entryID)
        case .delete(.item(let id)): written.insert(id.entryID)
        case .delete(.checklistItem(let id)): written.insert(id.entryID)
        case .delete(.list), .delete(.area), .delete(.heading), .delete(.tag), .delete(.series), .setDefaultList, .mergeTag, .unmergeTag, .setValue, .setListShare: break
        case .setSortIndices(let changes, _, _): written.formUnion(changes.map(\.id))
        case .removeFromToday(let ids, _): written.formUnion(ids.map(\.entryID))
        }
    }
}
