public import ArrangeModel
import Foundation
import HashTreeCollections
import Synchronization

/// An ``ItemRepository`` that keeps everything in memory.
///
/// It is a real backend, not a mock: it passes the same conformance suite as the SQLite
/// backend, rollback included, and the tests of the layers above run on it.
///
/// Each list's order lives in a persistent treap, and the items in a persistent hash
/// map, so a snapshot for a reader or a transaction costs O(1), and an insert, a move
/// or a neighbour lookup costs O(log n). A write holds a lock for its whole body, so
/// writes from several tasks run one at a time, as in SQLite. The `async` twins run their
/// bodies on serial dispatch queues of the repository's own, one for reads and one for
/// writes, so a write waiting for the lock never blocks a thread of the cooperative pool.
///
/// Observations (``observeItems(in:visibility:)``, ``observeLists()``) wake at once after
/// each commit: only this repository can change its state.
public final class InMemoryItemRepository: ItemRepository {
    private let state = Mutex(InMemoryState())
    /// Wakes the observations after each commit.
    private let commits = CommitNotifier()
    /// Where the async reads run.
    private let readQueue = DispatchQueueWorker(label: "InMemoryItemRepository.read")
    /// Where the async writes run, and wait for the lock.
    private let writeQueue = DispatchQueueWorker(label: "InMemoryItemRepository.write")

    /// Creates an empty repository.
    public init() {}

    public func read<Result>(_ body: (any ItemReading) throws -> Result) throws -> Result {
        let snapshot = state.withLock { $0 }
        return try body(InMemoryTransaction(state: snapshot))
    }

    public func write<Result>(_ body: (any ItemWriting) throws -> Result) throws -> Result {
        let result = try state.withLock { committed in
            let transaction = InMemoryTransaction(state: committed)
            let result = try body(transaction)
            committed = transaction.state
            return result
        }
        commits.signal()
        return result
    }

    public func read<R: Sendable>(_ body: @Sendable (any ItemReading) throws -> R) async throws -> R {
        try await readQueue.run { try self.read(body) }
    }

    public func write<R: Sendable>(_ body: @Sendable (any ItemWriting) throws -> R) async throws -> R {
        try await writeQueue.run { try self.write(body) }
    }

    public func observeItems(in list: ItemList.ID, visibility: ItemVisibility) -> AsyncThrowingStream<[Item], any Error> {
        commits.values { try await self.read { try $0.items(in: list, visibility: visibility, offset: 0, limit: .max) } }
    }

    public func observeLists() -> AsyncThrowingStream<[ItemList], any Error> {
        commits.values { try await self.read { try $0.lists() } }
    }
}

/// Everything an ``InMemoryItemRepository`` holds; a value, cheap to copy.
struct InMemoryState: Sendable {
    var lists = TreeDictionary<ItemList.ID, ItemList>()
    var items = TreeDictionary<Item.ID, Item>()
    var orders = TreeDictionary<ItemList.ID, OrderTree>()
    /// Every item's id in id order, for lookups by id prefix: keys whose `sortIndex` is 0.
    var ids = OrderTree()
    /// The default list's id; deleting the list clears it.
    var defaultListID: ItemList.ID?
}

/// A transaction of an ``InMemoryItemRepository``: it works on its own copy of the state,
/// which the repository keeps only when the transaction's body returns.
final class InMemoryTransaction: ItemWriting {
    private(set) var state: InMemoryState

    init(state: InMemoryState) {
        self.state = state
    }

    // MARK: Reading

    func lists() -> [ItemList] {
        state.lists.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    func list(id: ItemList.ID) -> ItemList? {
        state.lists[id]
    }

    func item(id: Item.ID) -> Item? {
        state.items[id]
    }

    func items(in list: ItemList.ID, visibility: ItemVisibility, offset: Int, limit: Int) -> [Item] {
        items(for: order(of: list).keys(visibility, offset: offset, limit: limit))
    }

    func itemCount(in list: ItemList.ID, visibility: ItemVisibility) -> Int {
        order(of: list).count(visibility)
    }

    func itemCount(in list: ItemList.ID, visibility: ItemVisibility, before key: OrderKey) -> Int {
        order(of: list).count(visibility, before: key)
    }

    func items(in list: ItemList.ID, before key: OrderKey, limit: Int) -> [Item] {
        items(for: order(of: list).keys(before: key, limit: limit))
    }

    func items(in list: ItemList.ID, after key: OrderKey, limit: Int) -> [Item] {
        items(for: order(of: list).keys(after: key, limit: limit))
    }

    func items(withIDPrefix hexDigits: String, limit: Int) -> [Item] {
        guard let textPrefix = Item.ID.textPrefix(forHexDigits: hexDigits), let lowest = Item.ID.lowest(withHexDigits: hexDigits) else { return [] }
        let keys = state.ids.keys(from: OrderKey(sortIndex: 0, id: lowest), limit: limit).prefix { $0.id.text.hasPrefix(textPrefix) }
        return items(for: keys)
    }

    func itemsSharingSortIndex(in list: ItemList.ID) -> [[Item]] {
        let keys = order(of: list).allKeys()
        return keys.chunked { $0.sortIndex == $1.sortIndex }
            .filter { $0.count > 1 }
            .map { items(for: $0) }
    }

    func defaultListID() -> ItemList.ID? {
        state.defaultListID
    }

    private func order(of list: ItemList.ID) -> OrderTree {
        state.orders[list] ?? OrderTree()
    }

    private func items(for keys: some Sequence<OrderKey>) -> [Item] {
        keys.compactMap { state.items[$0.id] }
    }

    // MARK: Writing

    func insert(_ list: ItemList) throws {
        guard state.lists[list.id] == nil else { throw StoreError.duplicateList(list.id) }
        try ensureListNameIsFree(list.name)
        state.lists[list.id] = list
    }

    func update(_ list: ItemList) throws {
        guard state.lists[list.id] != nil else { throw StoreError.listNotFound(list.id) }
        try ensureListNameIsFree(list.name, except: list.id)
        state.lists[list.id] = list
    }

    func deleteList(id: ItemList.ID) throws {
        guard state.lists.removeValue(forKey: id) != nil else { throw StoreError.listNotFound(id) }
        if state.defaultListID == id { state.defaultListID = nil }
        for key in state.orders.removeValue(forKey: id)?.allKeys() ?? [] {
            state.items.removeValue(forKey: key.id)
            state.ids.remove(Self.idKey(key.id))
        }
    }

    func insert(_ item: Item) throws {
        guard state.items[item.id] == nil else { throw StoreError.duplicateItem(item.id) }
        guard state.lists[item.listID] != nil else { throw StoreError.listNotFound(item.listID) }
        place(item)
        state.ids.insert(Self.idKey(item.id), isOpen: true)
    }

    func update(_ item: Item) throws {
        guard let old = state.items[item.id] else { throw StoreError.itemNotFound(item.id) }
        guard state.lists[item.listID] != nil else { throw StoreError.listNotFound(item.listID) }
        unplace(old)
        place(item)
    }

    func deleteItem(id: Item.ID) throws {
        guard let old = state.items[id] else { throw StoreError.itemNotFound(id) }
        unplace(old)
        state.items.removeValue(forKey: id)
        state.ids.remove(Self.idKey(id))
    }

    /// An item's key in ``InMemoryState/ids``.
    private static func idKey(_ id: Item.ID) -> OrderKey {
        OrderKey(sortIndex: 0, id: id)
    }

    func updateSortIndices(_ changes: [SortIndexChange], updatedAt: Date) throws {
        for change in changes {
            guard var item = state.items[change.id] else { throw StoreError.itemNotFound(change.id) }
            unplace(item)
            item.sortIndex = change.sortIndex
            item.updatedAt = updatedAt
            place(item)
        }
    }

    func setDefaultListID(_ id: ItemList.ID) throws {
        guard state.lists[id] != nil else { throw StoreError.listNotFound(id) }
        state.defaultListID = id
    }

    private func place(_ item: Item) {
        state.items[item.id] = item
        state.orders[item.listID, default: OrderTree()].insert(item.orderKey, isOpen: !item.isCompleted)
    }

    private func unplace(_ item: Item) {
        state.orders[item.listID]?.remove(item.orderKey)
    }
}

extension Array {
    /// Splits the array into runs of neighbours for which `belongTogether` holds.
    package func chunked(by belongTogether: (Element, Element) -> Bool) -> [[Element]] {
        var runs: [[Element]] = []
        for element in self {
            if let previous = runs.last?.last, belongTogether(previous, element) {
                runs[runs.count - 1].append(element)
            } else {
                runs.append([element])
            }
        }
        return runs
    }
}
