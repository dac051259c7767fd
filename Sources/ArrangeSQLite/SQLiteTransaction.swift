import ArrangeModel
import ArrangeStore
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

    /// The request for this query on the items of `list`.
    ///
    /// Windows compare the row value `(sort_index, id)` with the key, which SQLite answers
    /// with a range search of the index `(list_id, sort_index, id)`: it starts at the key,
    /// not at an end of the list.
    func request(in list: ItemList.ID) -> QueryInterfaceRequest<ItemRecord> {
        let sortIndex = ItemRecord.Columns.sortIndex
        let id = ItemRecord.Columns.id
        let items = ItemRecord.filter(ItemRecord.Columns.listID == list.text)
        switch self {
        case .page(let visibility, let offset, let limit):
            return items.visible(visibility).order(sortIndex, id).limit(limit, offset: offset)
        case .before(let key, let limit):
            return items
                .filter(literal: "(\(sortIndex), \(id)) < (\(key.sortIndex), \(key.id.text))")
                .order(sortIndex.desc, id.desc)
                .limit(limit)
        case .after(let key, let limit):
            return items
                .filter(literal: "(\(sortIndex), \(id)) > (\(key.sortIndex), \(key.id.text))")
                .order(sortIndex, id)
                .limit(limit)
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
struct SQLiteTransaction: ItemWriting {
    /// The connection, inside a transaction.
    let db: Database
    /// The database's path, for error messages.
    let path: String

    private func mapping<Result>(_ work: () throws -> Result) throws(StoreError) -> Result {
        try StoreError.mapping(path: path, work)
    }

    // MARK: Reading

    func lists() throws -> [ItemList] {
        try mapping {
            try ListRecord
                .order(ListRecord.Columns.createdAt, ListRecord.Columns.id)
                .fetchAll(db)
                .map(\.list)
        }
    }

    func list(id: ItemList.ID) throws -> ItemList? {
        try mapping { try ListRecord.fetchOne(db, key: id.text)?.list }
    }

    func item(id: Item.ID) throws -> Item? {
        try mapping { try ItemRecord.fetchOne(db, key: id.text)?.item }
    }

    func items(in list: ItemList.ID, visibility: ItemVisibility, offset: Int, limit: Int) throws -> [Item] {
        try items(in: list, .page(visibility, offset: offset, limit: limit))
    }

    func itemCount(in list: ItemList.ID, visibility: ItemVisibility) throws -> Int {
        try mapping {
            try ItemRecord.filter(ItemRecord.Columns.listID == list.text).visible(visibility).fetchCount(db)
        }
    }

    func items(in list: ItemList.ID, before key: OrderKey, limit: Int) throws -> [Item] {
        try items(in: list, .before(key, limit: limit))
    }

    func items(in list: ItemList.ID, after key: OrderKey, limit: Int) throws -> [Item] {
        try items(in: list, .after(key, limit: limit))
    }

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

    private func items(in list: ItemList.ID, _ query: ItemsQuery) throws -> [Item] {
        guard !query.isEmpty else { return [] }
        return try mapping { try query.request(in: list).fetchAll(db).map(\.item) }
    }

    // MARK: Writing

    func insert(_ list: ItemList) throws {
        guard try self.list(id: list.id) == nil else { throw StoreError.duplicateList(list.id) }
        try ensureStorable(["name": list.name], of: "the list \(list.id)")
        try ensureListNameIsFree(list.name)
        try mapping { try ListRecord(list).insert(db) }
    }

    func update(_ list: ItemList) throws {
        guard try self.list(id: list.id) != nil else { throw StoreError.listNotFound(list.id) }
        try ensureStorable(["name": list.name], of: "the list \(list.id)")
        try ensureListNameIsFree(list.name, except: list.id)
        try mapping { try ListRecord(list).update(db) }
    }

    func deleteList(id: ItemList.ID) throws {
        // The items go with it: `items.list_id` cascades.
        guard try mapping({ try ListRecord.deleteOne(db, key: id.text) }) else { throw StoreError.listNotFound(id) }
    }

    func insert(_ item: Item) throws {
        try save(item) { try $0.insertRow(db) }
    }

    func update(_ item: Item) throws {
        try save(item) { try $0.update(db) }
    }

    /// Inserts or updates the row of `item` with `write`, and reports a taken id, a missing
    /// row or a missing list as the store error that names the item or the list.
    private func save(_ item: Item, with write: (ItemRecord) throws -> Void) throws {
        try ensureStorable(["title": item.title, "notes": item.notes], of: "the item \(item.id)")
        try mapping {
            do {
                try write(ItemRecord(item))
            } catch DatabaseError.SQLITE_CONSTRAINT_PRIMARYKEY {
                throw StoreError.duplicateItem(item.id)
            } catch RecordError.recordNotFound {
                throw StoreError.itemNotFound(item.id)
            } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
                throw StoreError.listNotFound(item.listID)
            }
        }
    }

    func deleteItem(id: Item.ID) throws {
        guard try mapping({ try ItemRecord.deleteOne(db, key: id.text) }) else { throw StoreError.itemNotFound(id) }
    }

    func updateSortIndices(_ changes: [SortIndexChange]) throws {
        for change in changes {
            let changed = try mapping {
                try ItemRecord
                    .filter(key: change.id.text)
                    .updateAll(db, ItemRecord.Columns.sortIndex.set(to: change.sortIndex))
            }
            guard changed == 1 else { throw StoreError.itemNotFound(change.id) }
        }
    }

    /// Throws when a text holds U+0000 (NUL): GRDB hands SQLite C strings, so SQLite would keep
    /// only the part before it. Refusing is better than losing the rest without a word.
    private func ensureStorable(_ texts: KeyValuePairs<String, String>, of subject: String) throws(StoreError) {
        for (field, text) in texts where text.utf8.contains(0) {
            throw .database(reason: "SQLite cannot store U+0000 (NUL), found in the \(field) of \(subject); remove it.")
        }
    }
}
