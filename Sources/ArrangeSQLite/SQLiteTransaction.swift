import ArrangeModel
import ArrangeStore
import Foundation
import GRDB

/// A query for the items of one list, as a ``SQLiteTransaction`` runs it.
enum ItemsQuery: Hashable, Sendable {
    /// A page in display order: `offset` visible items skipped, then up to `limit`.
    case page(ItemVisibility, offset: Int, limit: Int)
    /// Up to `limit` items strictly before a key, nearest first.
    case before(OrderKey, limit: Int)
    /// Up to `limit` items strictly after a key, nearest first.
    case after(OrderKey, limit: Int)

    /// Whether the query can return anything: a negative offset or a limit below one returns no items.
    var isEmpty: Bool {
        switch self {
        case .page(_, let offset, let limit): offset < 0 || limit < 1
        case .before(_, let limit), .after(_, let limit): limit < 1
        }
    }

    /// The SQL of this query; its arguments are ``arguments(in:)``.
    ///
    /// Windows compare the row value `(sort_index, id)` with the key, which SQLite answers
    /// with a range search of the index `(list_id, sort_index, id)`: it starts at the key,
    /// not at an end of the list. The text depends only on the kind of query, so each kind
    /// is prepared once per connection and then taken from its statement cache.
    var sql: String {
        switch self {
        case .page(.all, _, _): Self.pageSQL
        case .page(.open, _, _): Self.openPageSQL
        case .before: Self.beforeSQL
        case .after: Self.afterSQL
        }
    }

    private static let pageSQL = "SELECT \(ItemRecord.selection) FROM items WHERE list_id = ? ORDER BY sort_index, id LIMIT ? OFFSET ?"
    private static let openPageSQL =
        "SELECT \(ItemRecord.selection) FROM items WHERE list_id = ? AND completed_at IS NULL ORDER BY sort_index, id LIMIT ? OFFSET ?"
    private static let beforeSQL =
        "SELECT \(ItemRecord.selection) FROM items WHERE list_id = ? AND (sort_index, id) < (?, ?) ORDER BY sort_index DESC, id DESC LIMIT ?"
    private static let afterSQL =
        "SELECT \(ItemRecord.selection) FROM items WHERE list_id = ? AND (sort_index, id) > (?, ?) ORDER BY sort_index, id LIMIT ?"
    /// An item by id.
    static let itemSQL = "SELECT \(ItemRecord.selection) FROM items WHERE id = ?"

    /// The values for the placeholders of ``sql``, for the items of `list`.
    func arguments(in list: ItemList.ID) -> StatementArguments {
        switch self {
        case .page(_, let offset, let limit):
            [list.text, limit, offset]
        case .before(let key, let limit), .after(let key, let limit):
            [list.text, key.sortIndex, key.id.text, limit]
        }
    }
}

extension QueryInterfaceRequest<ItemRecord> {
    /// The items of this request that are seen under `visibility`.
    func visible(_ visibility: ItemVisibility) -> Self {
        switch visibility {
        case .all: self
        case .open: filter(ItemRecord.Columns.completedAt == nil)
        }
    }
}

/// A transaction of a ``SQLiteItemRepository``: the queries and changes of ``ItemWriting``
/// on the connection that runs the transaction.
///
/// It is valid only inside the body it was handed to. Every method reports its failures
/// as ``StoreError``.
///
/// The transaction remembers the rows it has read (by id, or in a short page or window) or
/// written, as they now are in the database, so that a row is read at most once (a move
/// reads its item and anchor, then writes them) and an update writes only the columns that
/// changed. The lists are remembered the same way. Nothing else writes to the database while the transaction
/// runs (a write transaction holds the write lock; a read sees one snapshot), so what it
/// remembers stays true as long as it keeps it up to date with its own changes, cascades
/// included.
final class SQLiteTransaction: ItemWriting {
    /// The connection, inside a transaction.
    let db: Database
    /// The database's path, for error messages.
    let path: String
    /// The item rows read by id or written, by id, as stored; `nil` for an id known to have no row.
    private var itemCache: [Item.ID: Item?] = [:]
    /// The list rows read or written, by id, as stored; `nil` for an id known to have no row.
    private var listCache: [ItemList.ID: ItemList?] = [:]
    /// Every list in ``lists()`` order, once read; `nil` until then and after any list changes.
    private var allLists: [ItemList]?

    init(db: Database, path: String) {
        self.db = db
        self.path = path
    }

    private func mapping<Result>(_ work: () throws -> Result) throws(StoreError) -> Result {
        try StoreError.mapping(path: path, work)
    }

    // MARK: Reading

    func lists() throws -> [ItemList] {
        if let allLists { return allLists }
        let lists = try mapping {
            try ListRecord
                .order(ListRecord.Columns.createdAt, ListRecord.Columns.id)
                .fetchAll(db)
                .map(\.list)
        }
        allLists = lists
        for list in lists { listCache[list.id] = list }
        return lists
    }

    func list(id: ItemList.ID) throws -> ItemList? {
        if let known = listCache[id] { return known }
        // Every list is known once `lists()` has been read: then this one does not exist.
        guard allLists == nil else { return nil }
        let list = try mapping {
            let statement = try db.cachedStatement(sql: "SELECT * FROM lists WHERE id = ?")
            return try ListRecord.fetchOne(statement, arguments: [id.text])?.list
        }
        listCache[id] = list
        return list
    }

    func item(id: Item.ID) throws -> Item? {
        if let known = itemCache[id] { return known }
        let item = try mapping {
            let statement = try db.cachedStatement(sql: ItemsQuery.itemSQL)
            return try ItemRecord.fetchOne(statement, arguments: [id.text])?.item
        }
        itemCache[id] = item
        return item
    }

    func items(in list: ItemList.ID, visibility: ItemVisibility, offset: Int, limit: Int) throws -> [Item] {
        try items(in: list, .page(visibility, offset: offset, limit: limit))
    }

    func itemCount(in list: ItemList.ID, visibility: ItemVisibility) throws -> Int {
        try mapping {
            try ItemRecord.filter(ItemRecord.Columns.listID == list.text).visible(visibility).fetchCount(db)
        }
    }

    func itemCount(in list: ItemList.ID, visibility: ItemVisibility, before key: OrderKey) throws -> Int {
        try mapping {
            let statement = try db.cachedStatement(sql: Self.countBeforeSQL(visibility))
            return try Int.fetchOne(statement, arguments: [list.text, key.sortIndex, key.id.text]) ?? 0
        }
    }

    /// Counts the items of a list before a key: a range of the order index, as the windows read it.
    static func countBeforeSQL(_ visibility: ItemVisibility) -> String {
        switch visibility {
        case .all: "SELECT COUNT(*) FROM items WHERE list_id = ? AND (sort_index, id) < (?, ?)"
        case .open: "SELECT COUNT(*) FROM items WHERE list_id = ? AND (sort_index, id) < (?, ?) AND completed_at IS NULL"
        }
    }

    func items(in list: ItemList.ID, before key: OrderKey, limit: Int) throws -> [Item] {
        try items(in: list, .before(key, limit: limit))
    }

    func items(in list: ItemList.ID, after key: OrderKey, limit: Int) throws -> [Item] {
        try items(in: list, .after(key, limit: limit))
    }

    func items(withIDPrefix hexDigits: String, limit: Int) throws -> [Item] {
        guard let textPrefix = Item.ID.textPrefix(forHexDigits: hexDigits), limit > 0 else { return [] }
        return try mapping {
            // "~" sorts after every character of an id, so the range holds exactly the ids that
            // begin with the prefix, and SQLite searches the primary key's index for it.
            let statement = try db.cachedStatement(sql: Self.itemsByIDPrefixSQL)
            return try ItemRecord.fetchAll(statement, arguments: [textPrefix, textPrefix + "~", limit]).map(\.item)
        }
    }

    /// The items whose ids lie in a range `[from, to)`, in id order, up to a limit.
    static let itemsByIDPrefixSQL = "SELECT \(ItemRecord.selection) FROM items WHERE id >= ? AND id < ? ORDER BY id LIMIT ?"

    func itemsSharingSortIndex(in list: ItemList.ID) throws -> [[Item]] {
        let sortIndex = ItemRecord.Columns.sortIndex
        let inList = ItemRecord.Columns.listID == list.text
        let sharedIndices = ItemRecord.select(sortIndex).filter(inList).group(sortIndex).having(count(sortIndex) > 1)
        let tied = try mapping {
            try ItemRecord
                .filter(inList)
                .filter(sharedIndices.contains(sortIndex))
                .order(sortIndex, ItemRecord.Columns.id)
                .fetchAll(db)
        }
        // Grouping keeps the order of each group's items: by id.
        return Dictionary(grouping: tied.map(\.item), by: \.sortIndex)
            .sorted { $0.key < $1.key }
            .map(\.value)
    }

    func defaultListID() throws -> ItemList.ID? {
        try mapping {
            let statement = try db.cachedStatement(sql: "SELECT list_id FROM \(Schema.defaultListTable) WHERE id = 1")
            guard let text = try String.fetchOne(statement) else { return nil }
            guard let id = ItemList.ID(text) else { throw RowDecodingError(table: Schema.defaultListTable, row: text) }
            return id
        }
    }

    /// Remembers the rows of a page or window of at most this many items: a move reads the
    /// item `#N` names and its new neighbours one or two at a time, then writes them. A longer
    /// read (a page a view shows, a window to re-spread) is not kept: it would cost more to
    /// remember than it could save.
    static let rememberedWindow = 4

    private func items(in list: ItemList.ID, _ query: ItemsQuery) throws -> [Item] {
        guard !query.isEmpty else { return [] }
        let items = try mapping {
            try ItemRecord.fetchAll(db.cachedStatement(sql: query.sql), arguments: query.arguments(in: list)).map(\.item)
        }
        if items.count <= Self.rememberedWindow {
            for item in items { itemCache[item.id] = item }
        }
        return items
    }

    // MARK: Writing

    func insert(_ list: ItemList) throws {
        guard try self.list(id: list.id) == nil else { throw StoreError.duplicateList(list.id) }
        try ensureStorable(["name": list.name], of: "the list \(list.id)")
        try ensureListNameIsFree(list.name)
        let record = ListRecord(list)
        try mapping { try record.insert(db) }
        remember(record)
    }

    func update(_ list: ItemList) throws {
        guard try self.list(id: list.id) != nil else { throw StoreError.listNotFound(list.id) }
        try ensureStorable(["name": list.name], of: "the list \(list.id)")
        try ensureListNameIsFree(list.name, except: list.id)
        let record = ListRecord(list)
        try mapping { try record.update(db) }
        remember(record)
    }

    /// Remembers a list row just written; the order of all lists must be read again.
    private func remember(_ record: ListRecord) {
        listCache[record.id] = record.stored.list
        allLists = nil
    }

    func deleteList(id: ItemList.ID) throws {
        // The items go with it, and the default list's row when it names this list: both cascade.
        guard try mapping({ try ListRecord.deleteOne(db, key: id.text) }) else { throw StoreError.listNotFound(id) }
        listCache[id] = .some(nil)
        allLists = nil
        itemCache = itemCache.filter { _, item in item.map { $0.listID != id } ?? true }
    }

    func insert(_ item: Item) throws {
        try save(item) { try $0.insertRow(db) }
    }

    /// Writes only the columns that differ from the row as this transaction last read or
    /// wrote it, and nothing when none does; a row it does not know gets every column written.
    func update(_ item: Item) throws {
        let original = itemCache[item.id].flatMap { $0 }.map(ItemRecord.init)
        try save(item) { try $0.updateRow(db, changedFrom: original) }
    }

    /// Inserts or updates the row of `item` with `write`, reports a taken id, a missing row
    /// or a missing list as the store error that names the item or the list, and remembers
    /// the row as written.
    private func save(_ item: Item, with write: (ItemRecord) throws -> Void) throws {
        try ensureStorable(["title": item.title, "notes": item.notes], of: "the item \(item.id)")
        let record = ItemRecord(item)
        try mapping {
            do {
                try write(record)
            } catch DatabaseError.SQLITE_CONSTRAINT_PRIMARYKEY {
                throw StoreError.duplicateItem(item.id)
            } catch RecordError.recordNotFound {
                throw StoreError.itemNotFound(item.id)
            } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
                throw StoreError.listNotFound(item.listID)
            }
        }
        itemCache[item.id] = record.stored.item
    }

    func deleteItem(id: Item.ID) throws {
        guard try mapping({ try ItemRecord.deleteOne(db, key: id.text) }) else { throw StoreError.itemNotFound(id) }
        itemCache[id] = .some(nil)
    }

    func updateSortIndices(_ changes: [SortIndexChange], updatedAt: Date) throws {
        let stamp = updatedAt.timeIntervalSince1970
        for change in changes {
            let changed = try mapping {
                let statement = try db.cachedStatement(sql: "UPDATE items SET sort_index = ?, updated_at = ? WHERE id = ?")
                try statement.execute(arguments: [change.sortIndex, stamp, change.id.text])
                return db.changesCount
            }
            guard changed == 1 else { throw StoreError.itemNotFound(change.id) }
            if case var item?? = itemCache[change.id] {
                item.sortIndex = change.sortIndex
                item.updatedAt = Date(timeIntervalSince1970: stamp)
                itemCache[change.id] = item
            }
        }
    }

    func setDefaultListID(_ id: ItemList.ID) throws {
        guard try list(id: id) != nil else { throw StoreError.listNotFound(id) }
        try mapping {
            let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO \(Schema.defaultListTable) (id, list_id) VALUES (1, ?)")
            try statement.execute(arguments: [id.text])
        }
    }

    /// Throws when a text holds U+0000 (NUL): GRDB hands SQLite C strings, so SQLite would keep
    /// only the part before it. Refusing is better than losing the rest without a word.
    private func ensureStorable(_ texts: KeyValuePairs<String, String>, of subject: @autoclosure () -> String) throws(StoreError) {
        for (field, text) in texts where text.utf8.contains(0) {
            throw .database(reason: "SQLite cannot store U+0000 (NUL), found in the \(field) of \(subject()); remove it.")
        }
    }
}
