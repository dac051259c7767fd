import ArrangeBenchSupport
import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// How one of the earlier approaches chooses a sort key.
///
/// A policy only computes; ``KeyedStrategy`` reads the neighbours, checks that the keys
/// still tell them apart, and writes.
protocol KeyPolicy {
    associatedtype Key: Comparable

    /// The keys of a list of `count` items, first to last, or `nil` when they cannot all differ.
    mutating func initialKeys(_ count: Int) -> [Key]?

    /// `count` rising keys for items placed between two neighbours (`nil` at an end of the list).
    ///
    /// The result may fail to fit strictly between them; the strategy checks.
    mutating func keys(_ count: Int, between lower: Key?, and upper: Key?) -> [Key]?

    /// The key the last item always has, if the approach pins it.
    var pinnedBottom: Key? { get }

    /// The key as an `Int64` sort index, in the same order.
    func sortIndex(_ key: Key) -> Int64
    /// The key a sort index stands for.
    func key(_ sortIndex: Int64) -> Key
}

extension KeyPolicy {
    var pinnedBottom: Key? { nil }
}

/// A policy whose keys are `Double`s, stored through an order-preserving map to `Int64`.
///
/// A non-negative `Double`'s bit pattern already sorts like an `Int64`; a negative one's is
/// mapped to minus its magnitude bits, so every `Double` but NaN sorts right as an `Int64`.
protocol DoubleKeyPolicy: KeyPolicy where Key == Double {}

extension DoubleKeyPolicy {
    func sortIndex(_ key: Double) -> Int64 {
        let bits = Int64(bitPattern: key.bitPattern)
        return bits >= 0 ? bits : -(bits & .max)
    }

    func key(_ sortIndex: Int64) -> Double {
        sortIndex >= 0 ? Double(bitPattern: UInt64(sortIndex)) : -Double(bitPattern: UInt64(-sortIndex))
    }
}

/// The midpoint of the neighbours: append at last + 25, top at half the first.
struct MidpointKeys: DoubleKeyPolicy {
    static let step = 25.0

    func initialKeys(_ count: Int) -> [Double]? {
        (0..<count).map { Double($0 + 1) * Self.step }
    }

    func keys(_ count: Int, between lower: Double?, and upper: Double?) -> [Double]? {
        guard let upper else {
            return (1...count).map { (lower ?? 0) + Double($0) * Self.step }
        }
        let lower = lower ?? 0
        return (1...count).map { lower + (upper - lower) * Double($0) / Double(count + 1) }
    }
}

/// A random point in the middle third of the gap; append at max + random(1, 2), top at min − random(1, 2).
struct RandomDoubleKeys: DoubleKeyPolicy {
    var random: SeededRandomNumberGenerator

    init(seed: UInt64) {
        self.random = SeededRandomNumberGenerator(seed: seed ^ 0xD0)
    }

    mutating func initialKeys(_ count: Int) -> [Double]? {
        var key = 0.0
        return (0..<count).map { _ in
            key += Double.random(in: 1...2, using: &random)
            return key
        }
    }

    mutating func keys(_ count: Int, between lower: Double?, and upper: Double?) -> [Double]? {
        switch (lower, upper) {
        case (let lower, nil):
            var key = lower ?? 0
            return (0..<count).map { _ in
                key += Double.random(in: 1...2, using: &random)
                return key
            }
        case (nil, let upper?):
            var key = upper
            return (0..<count).map { _ in
                key -= Double.random(in: 1...2, using: &random)
                return key
            }.reversed()
        case (let lower?, let upper?):
            // Each item takes the middle third of its own share of the gap.
            let share = (upper - lower) / Double(count)
            return (0..<count).map { index in
                lower + share * (Double(index) + Double.random(in: 1.0 / 3...2.0 / 3, using: &random))
            }
        }
    }
}

/// A random integer between the neighbours, keys in [-99,999, 0], the bottom item pinned at 0.
struct RandomIntegerKeys: KeyPolicy {
    static let range: ClosedRange<Int64> = -99_999...0
    var random: SeededRandomNumberGenerator

    init(seed: UInt64) {
        self.random = SeededRandomNumberGenerator(seed: seed ^ 0x1E)
    }

    var pinnedBottom: Int64? { 0 }

    /// Spread evenly over the range, the last at 0, with as much room above the first item
    /// as between two items: the most room an initial list can have.
    func initialKeys(_ count: Int) -> [Int64]? {
        let span = Self.range.upperBound - Self.range.lowerBound + 1
        guard Int64(count) <= span else { return nil }
        return (0..<count).map { Self.range.lowerBound - 1 + span * Int64($0 + 1) / Int64(count) }
    }

    mutating func keys(_ count: Int, between lower: Int64?, and upper: Int64?) -> [Int64]? {
        let low = (lower ?? Self.range.lowerBound - 1) + 1
        let high = (upper ?? Self.range.upperBound + 1) - 1
        guard count > 0 else { return [] }
        guard low <= high, high - low + 1 >= Int64(count) else { return nil }
        var keys = Set<Int64>()
        while keys.count < count { keys.insert(Int64.random(in: low...high, using: &random)) }
        return keys.sorted()
    }

    func sortIndex(_ key: Int64) -> Int64 { key }
    func key(_ sortIndex: Int64) -> Int64 { sortIndex }
}

/// An approach that stores one key per row and places the moved block between its new
/// neighbours, as ``KeyPolicy`` says.
///
/// It reads what it needs through the repository by offset, as an app would, checks that
/// every new key lies strictly between its neighbours, and fails (``StrategyFailure/noRoom``)
/// before writing anything when one does not.
final class KeyedStrategy<Policy: KeyPolicy>: OrderingStrategy {
    private var policy: Policy
    let repository: any ItemRepository
    let list: ItemList.ID

    init(_ policy: Policy, repository: any ItemRepository, list: ItemList.ID, ids: [Item.ID]) throws {
        self.policy = policy
        self.repository = repository
        self.list = list
        guard let keys = self.policy.initialKeys(ids.count) else { throw StrategyFailure.cannotLayOut(count: ids.count) }
        let layout = self.policy
        try BulkLoad.fill(list, ids: ids, keys: { layout.sortIndex(keys[$0]) }, in: repository)
    }

    func perform(_ context: OperationContext) throws -> Outcome {
        try repository.write { transaction in
            let changes = try keyChanges(context, in: transaction)
            let newItem = context.geometry.inserts ? context.ids[context.ids.count - 1] : nil
            try transaction.setSortIndices(changes.filter { $0.id != newItem?.entryID }, in: .items(list), updatedAt: BulkLoad.epoch)
            if let newItem, let key = changes.first(where: { $0.id == newItem.entryID })?.sortIndex {
                try transaction.insert(BulkLoad.item(newItem, number: context.ids.count - 1, in: list, sortIndex: key))
            }
            return Outcome(rowsWritten: changes.count)
        }
    }

    func storedOrder() throws -> StoredOrder? {
        try storedOrderByKey(of: list, in: repository)
    }

    /// The rows to write for one operation, the new item's included.
    private func keyChanges(_ context: OperationContext, in transaction: any ItemReading) throws -> [SortIndexChange] {
        let geometry = context.geometry
        func stored(atNewOffset offset: Int) throws -> Item? {
            guard let original = geometry.stayingOriginal(atNewOffset: offset) else { return nil }
            return try transaction.items(in: list, visibility: .all, offset: original, limit: 1).first
        }
        let block: [Item.ID] = try geometry.inserts
            ? [context.ids[context.ids.count - 1]]
            : geometry.sources.map { try transaction.items(in: list, visibility: .all, offset: $0, limit: 1)[0].id }
        let end = geometry.landing + geometry.blockSize
        var lower = try stored(atNewOffset: geometry.landing - 1)
        let upper = try stored(atNewOffset: end)
        var placed = block
        var pinned: Policy.Key?
        if let bottom = policy.pinnedBottom, upper == nil {
            // The block lands at the bottom: its last item takes the pinned key, and the old
            // bottom item, if it stays, gives it up and moves into the gap with the others.
            pinned = bottom
            placed.removeLast()
            if let old = lower, policy.key(old.sortIndex) == bottom {
                placed.insert(old.id, at: 0)
                lower = try stored(atNewOffset: geometry.landing - 2)
            }
        }
        let lowerKey = lower.map { policy.key($0.sortIndex) }
        let upperKey = upper.map { policy.key($0.sortIndex) } ?? pinned
        let keys = placed.isEmpty ? [] : policy.keys(placed.count, between: lowerKey, and: upperKey) ?? []
        guard keys.count == placed.count, Self.rise(strictly: [lowerKey] + keys.map(Optional.some) + [upperKey]) else {
            throw StrategyFailure.noRoom
        }
        var changes = zip(placed, keys).map { SortIndexChange(id: $0.entryID, sortIndex: policy.sortIndex($1)) }
        if let pinned {
            changes.append(SortIndexChange(id: block[block.count - 1].entryID, sortIndex: policy.sortIndex(pinned)))
        } else if let bottom = policy.pinnedBottom, geometry.sources.last == geometry.count - 1,
                  let newBottom = try stored(atNewOffset: geometry.countAfter - 1) {
            // The bottom item moved away: the new bottom item takes the pinned key.
            changes.append(SortIndexChange(id: newBottom.id.entryID, sortIndex: policy.sortIndex(bottom)))
        }
        return changes
    }

    /// Whether the keys that are present rise strictly.
    private static func rise(strictly keys: [Policy.Key?]) -> Bool {
        let present = keys.compactMap { $0 }
        return zip(present, present.dropFirst()).allSatisfy { $0 < $1 }
    }
}
