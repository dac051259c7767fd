import ArrangeModel
import ArrangeStore
import Foundation
import Synchronization

/// An ``ItemRepository`` in front of another that counts the rows each write
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

    func observeItems(in list: ItemList.ID, visibility: ItemVisibility) -> AsyncThrowingStream<[Item], any Error> {
        base.observeItems(in: list, visibility: visibility)
    }

    func observeLists() -> AsyncThrowingStream<[ItemList], any Error> {
        base.observeLists()
    }

    func observeToday(visibility: ItemVisibility) -> AsyncThrowingStream<[Item], any Error> {
        base.observeToday(visibility: visibility)
    }
}

/// A write transaction that remembers which rows, of items and of lists, it wrote.
private final class CountingTransaction: ItemWriting {
    let base: any ItemWriting
    private(set) var written: Set<OrderEntry.ID> = []

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

    func todayItems(visibility: ItemVisibility, offset: Int, limit: Int) throws -> [Item] {
        try base.todayItems(visibility: visibility, offset: offset, limit: limit)
    }

    func entry(id: OrderEntry.ID, in scope: OrderScope) throws -> OrderEntry? { try base.entry(id: id, in: scope) }

    func entries(in scope: OrderScope, visibility: ItemVisibility, offset: Int, limit: Int) throws -> [OrderEntry] {
        try base.entries(in: scope, visibility: visibility, offset: offset, limit: limit)
    }

    func entryCount(in scope: OrderScope, visibility: ItemVisibility) throws -> Int {
        try base.entryCount(in: scope, visibility: visibility)
    }

    func entryCount(in scope: OrderScope, visibility: ItemVisibility, before key: OrderKey) throws -> Int {
        try base.entryCount(in: scope, visibility: visibility, before: key)
    }

    func entries(in scope: OrderScope, before key: OrderKey, limit: Int) throws -> [OrderEntry] {
        try base.entries(in: scope, before: key, limit: limit)
    }

    func entries(in scope: OrderScope, after key: OrderKey, limit: Int) throws -> [OrderEntry] {
        try base.entries(in: scope, after: key, limit: limit)
    }

    func entriesSharingSortIndex(in scope: OrderScope) throws -> [[OrderEntry]] { try base.entriesSharingSortIndex(in: scope) }
    func items(withIDPrefix hexDigits: String, limit: Int) throws -> [Item] { try base.items(withIDPrefix: hexDigits, limit: limit) }
    func defaultListID() throws -> ItemList.ID? { try base.defaultListID() }

    func insert(_ list: ItemList) throws {
        try base.insert(list)
        written.insert(list.id.entryID)
    }

    func update(_ list: ItemList) throws {
        try base.update(list)
        written.insert(list.id.entryID)
    }

    func deleteList(id: ItemList.ID) throws { try base.deleteList(id: id) }

    func insert(_ item: Item) throws {
        try base.insert(item)
        written.insert(item.id.entryID)
    }

    func update(_ item: Item) throws {
        try base.update(item)
        written.insert(item.id.entryID)
    }

    func deleteItem(id: Item.ID) throws {
        try base.deleteItem(id: id)
        written.insert(id.entryID)
    }

    func setSortIndices(_ changes: [SortIndexChange], in scope: OrderScope, updatedAt: Date) throws {
        try base.setSortIndices(changes, in: scope, updatedAt: updatedAt)
        written.formUnion(changes.map(\.id))
    }

    func removeFromToday(_ ids: [Item.ID], updatedAt: Date) throws {
        try base.removeFromToday(ids, updatedAt: updatedAt)
        written.formUnion(ids.map(\.entryID))
    }

    func setDefaultListID(_ id: ItemList.ID) throws { try base.setDefaultListID(id) }
}
