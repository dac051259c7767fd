import ArrangeModel
import ArrangeStore
@testable import ArrangeSQLite
import Foundation
import GRDB
import Synchronization
import Testing

/// A backend the conformance suite runs against.
enum Backend: CaseIterable, Sendable, CustomTestStringConvertible {
    /// ``InMemoryItemRepository``, the persistent treaps.
    case inMemory
    /// ``SQLiteItemRepository`` on a database in memory.
    case sqliteInMemory
    /// ``SQLiteItemRepository`` on a database file in a temporary folder.
    case sqliteFile
    /// ``SQLiteItemRepository/singleConnection(path:busyTimeout:)`` on a database file.
    case sqliteFileSingleConnection

    var testDescription: String {
        switch self {
        case .inMemory: "InMemoryItemRepository"
        case .sqliteInMemory: "SQLiteItemRepository :memory:"
        case .sqliteFile: "SQLiteItemRepository file"
        case .sqliteFileSingleConnection: "SQLiteItemRepository file, one connection"
        }
    }

    /// A new, empty repository of this kind.
    func makeStore() throws -> Store {
        switch self {
        case .inMemory:
            return Store(repository: InMemoryItemRepository(), folder: nil)
        case .sqliteInMemory:
            return Store(repository: try SQLiteItemRepository.inMemory(), folder: nil)
        case .sqliteFile:
            let folder = try TemporaryFolder()
            return Store(repository: try SQLiteItemRepository(path: folder.path("Arrange.sqlite")), folder: folder)
        case .sqliteFileSingleConnection:
            let folder = try TemporaryFolder()
            return Store(repository: try SQLiteItemRepository.singleConnection(path: folder.path("Arrange.sqlite")), folder: folder)
        }
    }
}

/// A repository under test, with the folder of its database file when it has one.
struct Store {
    let repository: any ItemRepository
    let folder: TemporaryFolder?

    /// The repository as a SQLite one, or `nil` for the in-memory backend.
    var sqlite: SQLiteItemRepository? { repository as? SQLiteItemRepository }

    /// Adds a list with items at the given sort indices, in that order, and returns them.
    @discardableResult
    func seed(_ name: String, sortIndices: [Int64], completedAt completed: Set<Int> = []) throws -> (ItemList, [Item]) {
        let list = Sample.list(name)
        let items = sortIndices.enumerated().map { offset, sortIndex in
            Sample.item(in: list.id, "\(name) \(offset)", sortIndex: sortIndex, completed: completed.contains(offset))
        }
        try repository.write { store throws in
            try store.insert(list)
            for item in items { try store.insert(item) }
        }
        return (list, items)
    }

    /// Every list and every item, in display order: what a rollback must leave as it was.
    func contents() throws -> [ItemList: [Item]] {
        try repository.read { store throws in
            var contents: [ItemList: [Item]] = [:]
            for list in try store.lists() {
                contents[list] = try store.items(in: list.id, visibility: .all, offset: 0, limit: .max)
            }
            return contents
        }
    }
}

/// A folder in the temporary directory, removed with everything in it when released.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "ArrangeStoreTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of a file in the folder.
    func path(_ name: String) -> String {
        url.appending(path: name).path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Test data that every backend stores exactly.
enum Sample {
    /// 2025-06-15 15:06:40 UTC. Dates made from seconds since 1970 in this era round-trip exactly.
    static let epoch: TimeInterval = 1_750_000_000

    /// A date `seconds` after ``epoch``.
    static func date(_ seconds: Double) -> Date {
        Date(timeIntervalSince1970: epoch + seconds)
    }

    /// Texts that must come back byte for byte: emoji, a combining accent, right-to-left
    /// text, an injection attempt, and quotes.
    static let texts = [
        "🥛 Milk 👨‍👩‍👧‍👦",
        "e\u{301}clair",
        "שלום עולם",
        "'); DROP TABLE items;--",
        #"Robert "Bobby" O'Brien \ 100%_"#,
    ]

    /// A list created `seconds` after ``epoch``, whose place among the lists follows that time.
    static func list(_ name: String, at seconds: Double = 0) -> ItemList {
        ItemList(name: name, createdAt: date(seconds), sortIndex: Int64(seconds * 1_000))
    }

    static func item(
        in list: ItemList.ID, _ title: String, sortIndex: Int64, completed: Bool = false, id: Item.ID = Item.ID()
    ) -> Item {
        Item(
            id: id, listID: list, title: title, notes: "Notes for \(title)", sortIndex: sortIndex,
            createdAt: date(1.25), updatedAt: date(2.5), completedAt: completed ? date(3.125) : nil)
    }

    /// An id whose text is `prefix` followed by zeros, to control the order of ids.
    static func id(_ prefix: String) throws -> Item.ID {
        let hex = (prefix + String(repeating: "0", count: 32)).prefix(32)
        let text = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4),
                    hex.dropFirst(16).prefix(4), hex.dropFirst(20)].joined(separator: "-")
        return try #require(Item.ID(text))
    }
}

/// An error a test throws out of a write body, to make it roll back.
struct Abort: Error, Equatable {}

extension SQLiteItemRepository {
    /// The details of the plan SQLite picks to run `sql`, one line per step.
    func queryPlan(_ sql: String, arguments: [any DatabaseValueConvertible]) throws -> [String] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: StatementArguments(arguments))
                .map { row in row["detail"] ?? "" }
        }
    }
}

/// What a repository should answer, worked out the slow, obvious way from every item.
struct ReferenceModel {
    var items: [Item.ID: Item] = [:]

    /// The items of `list` under `visibility`, in display order.
    func ordered(_ list: ItemList.ID, _ visibility: ItemVisibility = .all) -> [Item] {
        items.values
            .filter { $0.listID == list && visibility.includes($0) }
            .sorted { $0.orderKey < $1.orderKey }
    }
}

extension [Item] {
    /// Up to `limit` of these items (in display order) strictly before `key`, nearest first.
    func before(_ key: OrderKey, limit: Int) -> [Item] {
        Array(filter { $0.orderKey < key }.reversed().prefix(limit))
    }

    /// Up to `limit` of these items (in display order) strictly after `key`, nearest first.
    func after(_ key: OrderKey, limit: Int) -> [Item] {
        Array(filter { $0.orderKey > key }.prefix(limit))
    }

    /// The groups of these items (in display order) that share a sort index.
    func sharingSortIndex() -> [[Item]] {
        let sortIndices = map(\.sortIndex)
        let shared = Set(sortIndices.filter { index in sortIndices.count { $0 == index } > 1 })
        return shared.sorted().map { index in filter { $0.sortIndex == index } }
    }
}

/// Neighbour lookups the tests read lists with, in terms of the repository's window queries.
extension ItemReading {
    /// The first item of a list in display order, or `nil` when the list is empty.
    func firstItem(in list: ItemList.ID) throws -> Item? {
        try items(in: list, after: .beforeAll, limit: 1).first
    }

    /// The last item of a list in display order, or `nil` when the list is empty.
    func lastItem(in list: ItemList.ID) throws -> Item? {
        try items(in: list, before: .afterAll, limit: 1).first
    }

    /// The item just before `sortIndex`: the last one whose `sortIndex` is smaller.
    func item(in list: ItemList.ID, before sortIndex: Int64) throws -> Item? {
        try items(in: list, before: OrderKey(sortIndex: sortIndex, id: .lowest), limit: 1).first
    }

    /// The item just after `sortIndex`: the first one whose `sortIndex` is larger.
    func item(in list: ItemList.ID, after sortIndex: Int64) throws -> Item? {
        try items(in: list, after: OrderKey(sortIndex: sortIndex, id: .highest), limit: 1).first
    }
}

/// The queries of one list's items, as the conformance tests ask them: through the entries of
/// ``OrderScope/items(_:)``, turned back into items.
extension ItemReading {
    func items(in list: ItemList.ID, before key: OrderKey, limit: Int) throws -> [Item] {
        try keys(in: .items(list), before: key, limit: limit).map { try existingItem(id: Item.ID(entry: $0.id)) }
    }

    func items(in list: ItemList.ID, after key: OrderKey, limit: Int) throws -> [Item] {
        try keys(in: .items(list), after: key, limit: limit).map { try existingItem(id: Item.ID(entry: $0.id)) }
    }

    func itemCount(in list: ItemList.ID, visibility: ItemVisibility, before key: OrderKey) throws -> Int {
        try entryCount(in: .items(list), visibility: visibility, before: key)
    }

    func itemsSharingSortIndex(in list: ItemList.ID) throws -> [[Item]] {
        try entriesSharingSortIndex(in: .items(list)).map { group in try group.map { try existingItem(id: Item.ID(entry: $0.id)) } }
    }
}

extension ItemWriting {
    /// Sets the keys of items in their own lists.
    func updateSortIndices(_ changes: [SortIndexChange], updatedAt: Date) throws {
        for change in changes {
            guard let item = try item(id: Item.ID(entry: change.id)) else { throw StoreError.itemNotFound(Item.ID(entry: change.id)) }
            try setSortIndices([change], in: .items(item.listID), updatedAt: updatedAt)
        }
    }
}

/// Counts the statements whose SQL matches a condition, on every connection opened with its
/// ``configuration``.
final class StatementCounter: Sendable {
    private let count = Mutex(0)
    private let matches: @Sendable (String) -> Bool

    init(matching matches: @escaping @Sendable (String) -> Bool) {
        self.matches = matches
    }

    /// How many matching statements ran so far.
    var value: Int { count.withLock { $0 } }

    /// A configuration whose connections count the matching statements they run.
    var configuration: Configuration {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.trace { event in
                if case .statement(let statement) = event, self.matches(statement.sql) { self.count.withLock { $0 += 1 } }
            }
        }
        return configuration
    }
}
