import ArrangeModel
import ArrangeStore
import Foundation
import Synchronization

/// An ``ItemRepository`` in front of another that counts the item rows each write
/// transaction writes, so that every strategy's rows are counted the same way, at the
/// repository, rather than taken from its own report.
///
/// A row counts once per transaction however often it is written (a re-spread that
/// touches a row the move then writes again is still one row).
final class CountingRepository: ItemRepository {
    let base: any ItemRepository
    private let count = Mutex(0)

    init(_ base: any ItemRepository) {
        self.base = base
    }

    /// The item rows written by the write transactions committed since the last call.
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

    func observeItems(in list: ItemList.ID, visibility: ItemVisibility) -> AsyncThrowingStream<[Item], any Error> {
        base.observeItems(in: list, visibility: visibility)
    }

    func observeLists() -> AsyncThrowingStream<[ItemList], any Error> {
        base.observeLists()
    }
}

/// A write transaction that remembers which item rows it wrote.
private final class CountingTransaction: ItemWriting {
    let base: any ItemWriting
    private(set) var written: Set<Item.ID> = []

    init(_ base: any ItemWriting) {
        self.base = base
    }

    /// Runs `body` on a counting transaction in front of `transaction`; returns its result and the rows it wrote.
    static func run<Result>(_ body: (any ItemWriting) throws -> Result, on transaction: any ItemWriting) throws -> (Result, Int) {
        let counting = CountingTransaction(transaction)
        let result = try body(counting)
        return (result, counting.written.count)
    }

    func lists() throws -> [ItemList] { try base.lists() }
    func list(id: ItemList.ID) throws -> ItemList? { try base.list(id: id) }
    func item(id: Item.ID) throws -> Item? { try base.item(id: id) }

    func items(in list: ItemList.ID, visibility: ItemVisibility, offset: Int, limit: Int) throws -> [Item] {
        try base.items(in: list, visibility: visibility, offset: offset, limit: limit)
    }

    func itemCount(in list: ItemList.ID, visibility: ItemVisibility) throws -> Int {
        try base.itemCount(in: list, visibility: visibility)
    }

    func itemCount(in list: ItemList.ID, visibility: ItemVisibility, before key: OrderKey) throws -> Int {
        try base.itemCount(in: list, visibility: visibility, before: key)
    }

    func items(in list: ItemList.ID, before key: OrderKey, limit: Int) throws -> [Item] {
        try base.items(in: list, before: key, limit: limit)
    }

    func items(in list: ItemList.ID, after key: OrderKey, limit: Int) throws -> [Item] {
        try base.items(in: list, after: key, limit: limit)
    }

    func items(withIDPrefix hexDigits: String, limit: Int) throws -> [Item] { try base.items(withIDPrefix: hexDigits, limit: limit) }
    func itemsSharingSortIndex(in list: ItemList.ID) throws -> [[Item]] { try base.itemsSharingSortIndex(in: list) }
    func defaultListID() throws -> ItemList.ID? { try base.defaultListID() }

    func insert(_ list: ItemList) throws { try base.insert(list) }
    func update(_ list: ItemList) throws { try base.update(list) }
    func deleteList(id: ItemList.ID) throws { try base.deleteList(id: id) }

    func insert(_ item: Item) throws {
        try base.insert(item)
        written.insert(item.id)
    }

    func update(_ item: Item) throws {
        try base.update(item)
        written.insert(item.id)
    }

    func deleteItem(id: Item.ID) throws {
        try base.deleteItem(id: id)
        written.insert(id)
    }

    func updateSortIndices(_ changes: [SortIndexChange], updatedAt: Date) throws {
        try base.updateSortIndices(changes, updatedAt: updatedAt)
        written.formUnion(changes.map(\.id))
    }

    func setDefaultListID(_ id: ItemList.ID) throws { try base.setDefaultListID(id) }
}
