import ArgumentParser
import ArrangeBenchSupport
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

/// A way of keeping a list in its user's order: Arrange's ordering service, or one of the
/// approaches people used before it.
enum StrategyKind: String, CaseIterable, ExpressibleByArgument, Sendable {
    case arrange
    case dense
    case midpoint
    case randomDouble = "random-double"
    case randomInteger = "random-integer"
    case linkedList = "linked-list"

    /// The name in the tables.
    var title: String {
        switch self {
        case .arrange: "**Arrange**"
        case .dense: "dense 0..n-1, renumbered"
        case .midpoint: "Double midpoint"
        case .randomDouble: "Double, random in middle third"
        case .randomInteger: "random integer in [-99,999, 0]"
        case .linkedList: "doubly linked list"
        }
    }

    /// How the approach places keys, for the help text.
    var summary: String {
        switch self {
        case .arrange: "OrderingService: gapped Int64 keys, a window re-spread when a gap is full"
        case .dense: "keys 0..n-1, every row whose offset changes is renumbered"
        case .midpoint: "Double keys, the midpoint of the neighbours; append at last+25, top at half the first"
        case .randomDouble: "Double keys, a random point in the middle third of the gap; append at max + random(1, 2)"
        case .randomInteger: "a random integer between the neighbours, keys in [-99,999, 0], the bottom item pinned at 0"
        case .linkedList: "prev/next ids in every row; finding an offset walks the list from its nearer end"
        }
    }

    /// Creates the strategy over a fresh list of `ids.count` items in `repository`.
    func make(
        repository: any ItemRepository, list: ItemList.ID, ids: [Item.ID], jitter: Bool, seed: UInt64, denseRowBudget: Int
    ) throws -> any OrderingStrategy {
        switch self {
        case .arrange: try ArrangeStrategy(repository: repository, list: list, ids: ids, jitter: jitter, seed: seed)
        case .dense: try DenseStrategy(repository: repository, list: list, ids: ids, rowBudget: denseRowBudget)
        case .midpoint: try KeyedStrategy(MidpointKeys(), repository: repository, list: list, ids: ids)
        case .randomDouble: try KeyedStrategy(RandomDoubleKeys(seed: seed), repository: repository, list: list, ids: ids)
        case .randomInteger: try KeyedStrategy(RandomIntegerKeys(seed: seed), repository: repository, list: list, ids: ids)
        case .linkedList: try LinkedListStrategy(repository: repository, list: list, ids: ids)
        }
    }
}

/// What a strategy is told about one operation.
struct OperationContext {
    let operation: Operation
    let geometry: ChangeGeometry
    /// The order before the operation, as indices into ``ids``.
    let order: [Int32]
    /// Every item id made so far; for an insert, the new item's is the last.
    let ids: [Item.ID]

    /// The id of the item at `offset` before the operation.
    func id(at offset: Int) -> Item.ID { ids[Int(order[offset])] }

    /// The id of the item `slot` names.
    func id(of slot: ChangeGeometry.Slot) -> Item.ID {
        switch slot {
        case .existing(let offset): id(at: offset)
        case .new: ids[ids.count - 1]
        }
    }
}

/// The rows one operation touched.
struct Outcome {
    var rowsWritten: Int
    /// Rows read only to find where an offset is (the linked list's walk).
    var rowsRead = 0
}

/// Why a strategy stopped.
enum StrategyFailure: Error, CustomStringConvertible {
    /// Two neighbours can no longer be told apart: no key is left between them.
    case noRoom
    /// The approach cannot even lay out the list.
    case cannotLayOut(count: Int)

    var description: String {
        switch self {
        case .noRoom: "no key left between two neighbours"
        case .cannotLayOut(let count): "cannot give \(count) items distinct keys"
        }
    }
}

/// One way of keeping a list in order, run over an ``ItemRepository``.
protocol OrderingStrategy: AnyObject {
    /// Performs one operation, in one write transaction, and tells what it wrote.
    ///
    /// - Throws: ``StrategyFailure/noRoom`` before writing anything when the approach fails here.
    func perform(_ context: OperationContext) throws -> Outcome

    /// The list's order as stored, or `nil` when the store no longer follows the operations.
    func storedOrder() throws -> StoredOrder?

    /// Whether the strategy stopped writing at some point and only counted the rows it would write.
    var onlyCounted: Bool { get }
}

extension OrderingStrategy {
    var onlyCounted: Bool { false }
}

/// A list's order read back from the store.
struct StoredOrder {
    var ids: [Item.ID]
    /// A problem with the keys themselves (two that do not rise), if any.
    var keyProblem: String?
}

/// Reads every item of a list in display order, and checks that the keys rise strictly.
func storedOrderByKey(of list: ItemList.ID, in repository: any ItemRepository) throws -> StoredOrder {
    let items = try repository.read { try $0.items(in: list, visibility: .all, offset: 0, limit: .max) }
    let fall = zip(items, items.dropFirst()).enumerated().first { $0.element.0.sortIndex >= $0.element.1.sortIndex }
    return StoredOrder(
        ids: items.map(\.id),
        keyProblem: fall.map { "keys do not rise at offset \($0.offset + 1): \($0.element.0.sortIndex), \($0.element.1.sortIndex)" })
}

/// Arrange itself: every operation goes through ``OrderingService``.
final class ArrangeStrategy: OrderingStrategy {
    let service: OrderingService
    let list: ItemList.ID

    init(repository: any ItemRepository, list: ItemList.ID, ids: [Item.ID], jitter: Bool, seed: UInt64) throws {
        try BulkLoad.fill(list, ids: ids, keys: BulkLoad.appendedKey, in: repository)
        self.list = list
        self.service = try OrderingService(
            repository: repository, configuration: OrderingConfiguration(jitter: jitter),
            random: SeededRandomNumberGenerator(seed: seed), now: { BulkLoad.epoch })
    }

    func perform(_ context: OperationContext) throws -> Outcome {
        let report = switch context.operation {
        case .insert(let offset):
            try service.add(
                BulkLoad.item(context.ids[context.ids.count - 1], number: context.ids.count - 1, in: list, sortIndex: 0),
                at: .offset(offset))
        case .move(let sources, let destination):
            try service.move(fromOffsets: IndexSet(sources), toOffset: destination, in: .items(list))
        }
        return Outcome(rowsWritten: report.rowsWritten)
    }

    func storedOrder() throws -> StoredOrder? {
        try storedOrderByKey(of: list, in: service.repository)
    }
}
