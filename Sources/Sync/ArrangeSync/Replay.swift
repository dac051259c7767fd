import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

extension SyncOperation {
    /// Applies the operation to a store by the rules of the merge, with keys that depend on the
    /// store and the operation alone (jitter off), stamped with the operation's clock.
    func replay(in transaction: RewindRecorder, repository: any ItemRepository) throws {
        let context = try ChangeContext(
            transaction, log: transaction.log, tombstones: transaction, at: clock.date, ordering: OrderingConfiguration(jitter: false), repository: repository)
        try change.apply(in: context)
    }
}
