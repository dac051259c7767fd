import ArrangeBenchSupport
import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// A bulk-loaded list and the operations the latency and scaling sections time on it, each
/// one write (or read) transaction of its own, on random items.
final class TimedList {
    static let byIDTitle = "move one item before another, by id"
    static let byOffsetTitle = "move one item by offsets (SwiftUI)"
    static let pageTitle = "read the first page of 50 items"

    let repository: any ItemRepository
    let service: OrderingService
    let list: ItemList.ID
    /// The items loaded at the start; the adds' items are not among them.
    let ids: [Item.ID]
    private var random: SeededRandomNumberGenerator
    private var added = 0
    private var oneRowKey: Int64 = -(1 << 62)

    init(count: Int, named name: String, in repository: any ItemRepository, random: inout SeededRandomNumberGenerator) throws {
        let loaded = try BulkLoad.appendedList(named: name, count: count, in: repository, random: &random)
        self.repository = repository
        self.list = loaded.list.id
        self.ids = loaded.ids
        self.random = SeededRandomNumberGenerator(seed: random.next())
        self.service = try OrderingService(repository: repository, random: SeededRandomNumberGenerator(seed: random.next()), now: { BulkLoad.epoch })
    }

    /// Moves a random item before another random item.
    func moveByID() throws {
        let item = randomItem()
        var anchor = item
        while anchor == item { anchor = randomItem() }
        try service.move([item], to: .before(anchor))
    }

    /// A key at a random place among the loaded items' keys, in a gap between two of them.
    func randomPlaceKey() -> Int64 {
        BulkLoad.appendedKey(Int.random(in: 0..<ids.count, using: &random)) + Int64.random(in: 1..<(1 << 32), using: &random)
    }

    /// Moves the item at a random offset to a random other place, as SwiftUI's onMove does.
    func moveByOffset() throws {
        let count = ids.count + added
        let source = Int.random(in: 0..<count, using: &random)
        let pick = Int.random(in: 0..<(count - 1), using: &random)
        try service.move(fromOffsets: [source], toOffset: pick < source ? pick : pick + 2, in: .items(list))
    }

    /// Adds a new item at the bottom.
    func addAtBottom() throws {
        try service.add(newItem(), at: .bottom)
    }

    /// Adds a new item right after a random item.
    func addAfterRandomItem() throws {
        try service.add(newItem(), at: .after(randomItem()))
    }

    /// Reads the first page of 50 items.
    func readFirstPage() throws {
        _ = try repository.read { try $0.items(in: list, visibility: .all, offset: 0, limit: 50) }
    }

    /// The smallest write transaction the repository offers: one `sortIndex` of one row, by id.
    ///
    /// The item takes a fresh key far above the top, one end gap after the last such key, so
    /// every call really changes a row and leaves the gaps as wide as the ordering service's.
    func writeOneRow() throws {
        oneRowKey += 1 << 32
        let change = SortIndexChange(id: randomItem().entryID, sortIndex: oneRowKey)
        try repository.write { try $0.setSortIndices([change], in: .items(list), updatedAt: BulkLoad.epoch) }
    }

    /// A write transaction that does nothing.
    func writeNothing() throws {
        try repository.write { _ in }
    }

    /// A write transaction that reads one item by id, as the ordering service does several times a move.
    func readOneItemInWrite() throws {
        let id = randomItem()
        _ = try repository.write { try $0.item(id: id) }
    }

    /// A random item of those loaded at the start.
    func randomItem() -> Item.ID {
        ids[Int.random(in: 0..<ids.count, using: &random)]
    }

    private func newItem() -> Item {
        added += 1
        return BulkLoad.item(Item.ID(using: &random), number: ids.count + added, in: list, sortIndex: 0)
    }
}
