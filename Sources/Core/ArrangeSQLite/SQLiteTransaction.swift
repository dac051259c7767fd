import ArrangeModel
import ArrangeStore
import Foundation
import GRDB
import GRDBSQLite

/// A transaction of a ``SQLiteItemRepository``: the queries and changes of ``ItemWriting``
/// on the connection that runs the transaction.
///
/// It is valid only inside the body it was handed to. Every method reports its failures
/// as ``StoreError``.
///
/// The transaction remembers the rows it has read (by id, or in a short page or window) or
/// written, as they now are in the database, so that a row is read at most once and an update
/// writes only the columns that changed; of an item it may know only where it stands (a move
/// reads that of its item and anchor, then writes the item's key). The lists are remembered the same way. Nothing else writes to the database while the transaction
/// runs (a write transaction holds the write lock; a read sees one snapshot), so what it
/// remembers stays true as long as it keeps it up to date with its own changes, cascades
/// included.
final class SQLiteTransaction: ItemWriting {
    /// The connection, inside a transaction.
    let db: Database
    /// The database's path, for error messages.
    let path: String
    /// What the transaction knows of the items it read by id or wrote, by id.
    private var itemCache: [Item.ID: KnownItem] = [:]
    /// The list rows read or written, by id, as stored; `nil` for an id known to have no row.
    private var listCache: [ItemList.ID: ItemList?] = [:]
    /// Every list in ``lists()`` order, once read; `nil` until then and after any list changes.
    private var allLists: [ItemList]?
    /// The heading rows read or written, by id, as stored; `nil` for an id known to have no row.
    private var headingCache: [Heading.ID: Heading?] = [:]
    /// The series read or written, by id, as stored; `nil` for an id known to have no row: a
    /// to-do made from a series reads it two or three times.
    var seriesCache: [Series.ID: Series?] = [:]
    /// Whether the replica's row may lag behind the last operation logged, which then holds its
    /// sequence number and clock (see `replicaState()`); unknown, so `true`, when the transaction starts.
    var replicaRowMayLag = true
    /// The replica's state as `replicaState()` last found it, kept up to date by what this
    /// transaction logs; `nil` before it is read.
    var replicaStateCache: ReplicaState??
    /// The lists' shares as `listShares()` last read them, or as the repository's last write
    /// transaction left them when the file did not change since (``CommitCarry``); `nil` before
    /// they are read, and after they change.
    var sharesCache: [ListShare]?
    /// What the repository's last write transaction left of the replica's state, when the file
    /// did not change since: `replicaState()` takes it (see ``ReplicaStateCarry``).
    var carried: ReplicaStateCarry.Leftover?
    /// The position the next operation logged takes, once known: from what the last write
    /// transaction left, or found by the first operation this one logs.
    var nextLogPosition: Int64?
    /// Whether a write of this transaction has changed lists or items.
    private(set) var changesRows = false
    /// What the writes of this transaction changed, for the observations.
    private(set) var changes = StoreChanges()
    /// Whether sync logs this transaction's changes (`markChangesLogged()`).
    var changesAreLogged = false

    /// An item by id.
    static let itemByIDSQL = "SELECT \(ItemRecord.selection) FROM items WHERE id = ?"
    /// The items whose ids a JSON array holds, each found through the index of the ids.
    static let itemsByIDsSQL = "SELECT \(ItemRecord.selection) FROM items WHERE id IN (SELECT value FROM json_each(?))"
    /// An item's list, heading and key, which the index of the ids covers.
    static let standingByIDSQL = "SELECT list_id, heading_id, sort_index FROM items WHERE id = ?"
    /// Where an item is placed, found through the index of the ids.
    static let placeByIDSQL = "SELECT list_id, heading_id, sort_index, today_index, updated_at FROM items WHERE id = ?"
    /// The rest of where an item is placed, found by the table's own key from where it stands
    /// (`+id` keeps SQLite off the index of the ids).
    static let placeByKeySQL = "SELECT today_index, updated_at FROM items WHERE list_id = ? AND heading_id = ? AND sort_index = ? AND +id = ?"
    /// A page of the completed items, the most recent first, `LIMIT ? OFFSET ?`: the table of
    /// completions in its order, each item then found by id.
    static let completedItemsSQL = """
        SELECT \(ItemRecord.selection(of: "items")) FROM \(Schema.completionsTable) AS completion JOIN items ON items.id = completion.item_id \
        WHERE \(outOfTrash) ORDER BY completion.completed_at DESC, completion.item_id LIMIT ? OFFSET ?
        """
    /// The items that carry any of the tags a JSON array holds, each once: the ids from the key of
    /// `tagged_items`, each item then found through the index of the ids.
    static let taggedItemsSQL = """
        SELECT \(ItemRecord.selection) FROM items WHERE id IN \
        (SELECT item_id FROM tagged_items WHERE tag_id IN (SELECT value FROM json_each(?)))
        """
    /// The items in the Trash themselves, the most recently trashed first, from their index (v27).
    static let trashedItemsSQL = "SELECT \(ItemRecord.selection) FROM items WHERE trashed_at IS NOT NULL ORDER BY trashed_at DESC, id"
    /// The condition that a row of `items` is out of the Trash: neither it, nor its list, nor
    /// its heading is in it (v27).
    static let outOfTrash = """
        items.trashed_at IS NULL AND NOT EXISTS (SELECT 1 FROM lists WHERE lists.id = items.list_id AND lists.trashed_at IS NOT NULL) \
        AND (items.heading_id = '' OR NOT EXISTS (SELECT 1 FROM headings WHERE headings.id = items.heading_id AND headings.trashed_at IS NOT NULL))
        """
    /// What Today's order reads of the open items whose start date, deadline not dismissed, or
    /// day the person added them to Today (`today_added`) is on or before a day (`?1`): each
    /// part of the union reads its own index alone, which carries the columns (v19, v35), each
    /// leaving out what those before it read, so that no temporary table sorts out repeats.
    /// A start date the person took out of Today (`today_removed`) is read, and left out by
    /// Today's rules (`TodayDated.todaySection(on:)`).
    static let datedStandingsSQL = datedSQL(selecting: DatedStandingRecord.selection)
    /// The same items in full: each index entry leads to its row by the table's key.
    static let datedItemsSQL = datedSQL(selecting: ItemRecord.selection)

    private static func datedSQL(selecting columns: String) -> String {
        """
        SELECT \(columns) FROM items WHERE start_date <= ?1 AND completed_at IS NULL AND trashed_at IS NULL \
        UNION ALL SELECT \(columns) FROM items \
        WHERE deadline <= ?1 AND deadline_dismissed = 0 AND completed_at IS NULL AND trashed_at IS NULL AND (start_date IS NULL OR start_date > ?1) \
        UNION ALL SELECT \(columns) FROM items \
        WHERE today_added <= ?1 AND completed_at IS NULL AND trashed_at IS NULL AND (start_date IS NULL OR start_date > ?1) \
        AND (deadline IS NULL OR deadline > ?1 OR deadline_dismissed = 1)
        """
    }
    /// The items whose reminders can fire, with a start date in a range `BETWEEN ? AND ?`, from
    /// the index of the reminders (v28), each item's list and heading then looked up by key.
    static let remindersSQL = """
        SELECT \(ItemRecord.selection) FROM items WHERE reminder IS NOT NULL AND start_date IS NOT NULL AND completed_at IS NULL \
        AND start_date BETWEEN ? AND ? AND \(outOfTrash)
        """
    /// How many items are completed.
    static let completedCountSQL = "SELECT COUNT(*) FROM \(Schema.completionsTable) AS completion JOIN items ON items.id = completion.item_id WHERE \(outOfTrash)"
    /// Sets an item's key in a list, if the item is in that list under that heading (or none).
    static let setKeyInListSQL = "UPDATE items SET sort_index = ?, updated_at = ? WHERE id = ? AND list_id = ? AND heading_id = ?"
    /// Moves an item to a list, under a heading (or none), at a key.
    static let moveItemSQL = "UPDATE items SET list_id = ?, heading_id = ?, sort_index = ?, updated_at = ? WHERE id = ?"
    /// Sets a heading's key and its list; a trigger takes the items under it along.
    static let setHeadingKeySQL = "UPDATE headings SET sort_index = ?, list_id = ? WHERE id = ?"
    /// Sets a list's key and its area (`NULL` for none).
    static let setListKeySQL = "UPDATE lists SET sort_index = ?, area_id = ? WHERE id = ?"
    /// Sets a checklist entry's key, if the entry is in that item's checklist.
    static let setChecklistKeySQL = OrderingSQL.checklist.setKey + " AND item_id = ?"
    /// Sets an item's key in Today, and answers its list.
    static let setTodayKeySQL = OrderingSQL.today.setKey + " RETURNING list_id"

    init(db: Database, path: String, carried: ReplicaStateCarry.Leftover? = nil, carriedShares: [ListShare]? = nil) {
        self.db = db
        self.path = path
        self.carried = carried
        nextLogPosition = carried?.nextLogPosition
        sharesCache = carriedShares
    }

    func mapping<Result>(_ work: () throws -> Result) throws(StoreError) -> Result {
        try StoreError.mapping(path: path, work)
    }

    // MARK: Reading

    func lists(_ request: ListRequest) throws -> [ItemList] {
        switch request {
        case .all: try lists()
        case .withID(let id): try list(id: id).map { [$0] } ?? []
        case .defaultList: try defaultListID().flatMap { try list(id: $0) }.map { [$0] } ?? []
        }
    }

    func areas(_ request: AreaRequest) throws -> [Area] {
        switch request {
        case .all: try areas()
        case .withID(let id): try area(id: id).map { [$0] } ?? []
        }
    }

    func headings(_ request: HeadingRequest) throws -> [Heading] {
        switch request {
        case .inList(let list): try headings(in: list)
        case .withID(let id): try heading(id: id).map { [$0] } ?? []
        case .trashed:
            try mapping { try HeadingRecord.fetchAll(db.cachedStatement(sql: HeadingRecord.trashedSQL)).map(\.heading) }
        }
    }

    func items(_ request: ItemRequest) throws -> [Item] {
        switch request {
        case .withIDs(let ids): try items(withIDs: ids)
        case .list(let list, let visibility, let offset, let limit):
            try itemsBySection(in: list, visibility: visibility, offset: offset, limit: limit) { section, offset, limit in
                try itemPage(of: section, visibility: visibility, offset: offset, limit: limit)
            }
        case .today(let visibility, let offset, let limit): try itemPage(of: .today, visibility: visibility, offset: offset, limit: limit)
        case .dated(let day): try datedItems(through: day)
        case .completed(let offset, let limit): try completedItems(offset: offset, limit: limit)
        case .trashed:
            try mapping {
                try Array(StatementRowCursor(db.cachedStatement(sql: Self.trashedItemsSQL), binding: []) { try ItemRecord.item(sqliteStatement: $0) })
            }
        case .withIDPrefix(let hexDigits, let limit): try items(withIDPrefix: hexDigits, limit: limit)
        case .matching(let query, let includeCompleted): try items(matching: query, includeCompleted: includeCompleted)
        case .tagged(let tags): try items(taggedWithAnyOf: tags)
        case .reminders(let first, let last):
            try mapping {
                try Array(StatementRowCursor(db.cachedStatement(sql: Self.remindersSQL), binding: [.value(first.description.databaseValue), .value(last.description.databaseValue)]) {
                    try ItemRecord.item(sqliteStatement: $0)
                })
            }
        }
    }

    func entries(_ request: EntryRequest) throws -> [OrderEntry] {
        switch request {
        case .withID(let id, let scope): try entry(id: id, in: scope).map { [$0] } ?? []
        case .page(let scope, let visibility, let offset, let limit):
            offset >= 0 && limit > 0
                ? try entries(of: scope, sql: { $0.entryPage[visibility] }, arguments: [.integer(Int64(limit)), .integer(Int64(offset))]) : []
        case .sharingSortIndex(let scope): try entries(of: scope, sql: \.tiedEntries, arguments: [])
        }
    }

    func keys(in scope: OrderScope, _ bound: KeyBound, limit: Int) throws -> [OrderKey] {
        guard limit > 0 else { return [] }
        let (sql, key): (KeyPath<OrderingSQL, String>, OrderKey) = switch bound {
        case .before(let key): (\.keysBefore, key)
        case .after(let key): (\.keysAfter, key)
        }
        return try rows(of: scope, sql: { $0[keyPath: sql] }, arguments: [.integer(key.sortIndex), .id(key.id), .integer(Int64(limit))], decode: OrderKey.init)
    }

    func count(_ request: CountRequest) throws -> Int {
        switch request {
        case .entries(let scope, let visibility): try count(in: scope, sql: { $0.count[visibility] }, arguments: [])
        case .entriesBefore(let key, let scope, let visibility):
            try count(in: scope, sql: { $0.countBefore[visibility] }, arguments: [.integer(key.sortIndex), .id(key.id)])
        case .completedItems:
            try mapping {
                try StatementRowCursor(db.cachedStatement(sql: Self.completedCountSQL), binding: []) { Int(sqlite3_column_int64($0, 0)) }.next() ?? 0
            }
        }
    }

    /// One pass over the ordering in its order, which settles each key once the pass reaches
    /// it: an entry's id is read only where its `sortIndex` is the next key's, to break the tie.
    func ranks(of keys: [OrderKey], in scope: OrderScope) throws -> EntryRanks {
        let waiting = keys.indices.sorted { keys[$0] < keys[$1] }
        var ranks = EntryRanks(openBefore: Array(repeating: 0, count: keys.count), openCount: 0, keptCount: 0)
        var next = 0
        let (ordering, membership) = OrderingSQL.of(scope)
        try mapping {
            // The statement itself, standing on each row in turn: its columns are read here, as needed.
            let rows = try StatementRowCursor(db.cachedStatement(sql: ordering.entryPage.all), binding: membership + [.integer(.max), .integer(0)]) { $0 }
            while let row = try rows.next() {
                let sortIndex = sqlite3_column_int64(row, 1)
                // Settles the keys that do not come after the entry.
                while next < waiting.count, case let key = keys[waiting[next]], key.sortIndex <= sortIndex {
                    if key.sortIndex == sortIndex {
                        guard let id = OrderEntry.ID(sqliteStatement: row, index: 0) else { throw RowDecodingError(table: ordering.table, sqliteStatement: row) }
                        if id < key.id { break }
                    }
                    ranks.openBefore[waiting[next]] = ranks.openCount
                    next += 1
                }
                guard sqlite3_column_int64(row, 3) == 0 else { continue }
                ranks.keptCount += 1
                if sqlite3_column_int64(row, 2) != 0 { ranks.openCount += 1 }
            }
        }
        for index in waiting[next...] { ranks.openBefore[index] = ranks.openCount }
        return ranks
    }

    func checklistItems(_ request: ChecklistRequest) throws -> [ChecklistItem] {
        switch request {
        case .ofItems(let items): try checklistItems(of: items)
        case .withID(let id):
            try mapping {
                try Array(StatementRowCursor(db.cachedStatement(sql: ChecklistItemRecord.byIDSQL), binding: [.id(id)], read: ChecklistItemRecord.entry))
            }
        }
    }

    func lists() throws -> [ItemList] {
        if let allLists { return allLists }
        let lists = try mapping {
            try Array(StatementRowCursor(db.cachedStatement(sql: ListRecord.sidebarOrderSQL), binding: []) { try ListRecord(sqliteStatement: $0).list })
        }
        allLists = lists
        for list in lists { listCache[list.id] = list }
        return lists
    }

    func areas() throws -> [Area] {
        try mapping { try AreaRecord.fetchAll(db.cachedStatement(sql: AreaRecord.orderSQL)).map(\.area) }
    }

    func area(id: Area.ID) throws -> Area? {
        try mapping { try AreaRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM areas WHERE id = ?"), arguments: [id.text])?.area }
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

    func headings(in list: ItemList.ID) throws -> [Heading] {
        let headings = try mapping {
            try HeadingRecord.fetchAll(db.cachedStatement(sql: HeadingRecord.ofListSQL), arguments: [list.text]).map(\.heading)
        }
        for heading in headings { headingCache[heading.id] = heading }
        return headings
    }

    func heading(id: Heading.ID) throws -> Heading? {
        if let known = headingCache[id] { return known }
        let heading = try mapping {
            try HeadingRecord.fetchOne(db.cachedStatement(sql: "SELECT * FROM headings WHERE id = ?"), arguments: [id.text])?.heading
        }
        headingCache[id] = heading
        return heading
    }

    func item(id: Item.ID) throws -> Item? {
        switch itemCache[id] {
        case .row(let item): return item
        case .missing: return nil
        case .standing, nil: break
        }
        let item = try mapping {
            try StatementRowCursor(db.cachedStatement(sql: Self.itemByIDSQL), binding: [.id(id)]) { try ItemRecord.item(sqliteStatement: $0) }
                .next()
        }
        itemCache[id] = KnownItem(item)
        return item
    }

    /// One query for all the ids, through a JSON array of them: one statement to run, not one
    /// for each item.
    func items(withIDs ids: [Item.ID]) throws -> [Item] {
        guard ids.count > 1 else { return try ids.compactMap { try item(id: $0) } }
        let found = try mapping {
            try Array(StatementRowCursor(db.cachedStatement(sql: Self.itemsByIDsSQL), binding: [.value(Self.jsonArray(of: ids).databaseValue)]) {
                try ItemRecord.item(sqliteStatement: $0)
            })
        }
        let byID = Dictionary(found.map { ($0.id, $0) }) { first, _ in first }
        return ids.compactMap { byID[$0] }
    }

    /// The items that carry any of `tags`, found through `tagged_items` (from v26) in one statement.
    private func items(taggedWithAnyOf tags: Set<Tag.ID>) throws -> [Item] {
        guard let tags = TagIDs.text(tags) else { return [] }
        return try mapping {
            try Array(StatementRowCursor(db.cachedStatement(sql: Self.taggedItemsSQL), binding: [.value(tags.databaseValue)]) {
                try ItemRecord.item(sqliteStatement: $0)
            })
        }
    }

    /// Answers from the row when the transaction knows it; else reads only the columns the
    /// index of the ids holds, which spares SQLite the search of the table.
    func standing(ofItem id: Item.ID) throws -> ItemStanding? {
        if let known = itemCache[id] { return known.standing }
        let standing = try mapping {
            try StatementRowCursor(db.cachedStatement(sql: Self.standingByIDSQL), binding: [.id(id)]) { try Self.standing(ofItem: id, from: $0) }.next()
        }
        itemCache[id] = standing.map(KnownItem.standing) ?? .missing
        return standing
    }

    /// Where item `id` stands, from the first three columns of a row: `list_id, heading_id, sort_index`.
    private static func standing(ofItem id: Item.ID, from statement: SQLiteStatement) throws -> ItemStanding {
        guard let list = ItemList.ID(sqliteStatement: statement, index: 0) else {
            throw RowDecodingError(table: ItemRecord.databaseTableName, sqliteStatement: statement)
        }
        return ItemStanding(list: list, heading: try ItemRecord.heading(statement, 1), key: OrderKey(sortIndex: sqlite3_column_int64(statement, 2), id: id.entryID))
    }

    /// Answers from the row when the transaction knows it. Else reads five columns, not the
    /// item's text: by the table's own key when the transaction knows where the item stands,
    /// which spares SQLite the search of the index of the ids.
    func place(ofItem id: Item.ID) throws -> ItemPlace? {
        switch itemCache[id] {
        case .row(let item): return ItemPlace(item)
        case .missing: return nil
        case .standing(let standing): if let place = try place(ofItem: id, standingAt: standing) { return place }
        case nil: break
        }
        let place = try mapping {
            try StatementRowCursor(db.cachedStatement(sql: Self.placeByIDSQL), binding: [.id(id)]) { statement in
                ItemPlace(
                    standing: try Self.standing(ofItem: id, from: statement), todayIndex: ItemRecord.integer(statement, 3),
                    updatedAt: Date(timeIntervalSince1970: sqlite3_column_double(statement, 4)))
            }.next()
        }
        itemCache[id] = place.map { KnownItem.standing($0.standing) } ?? .missing
        return place
    }

    /// The place of an item that stands at `standing`, read by the table's own key; `nil` when
    /// no row is there.
    private func place(ofItem id: Item.ID, standingAt standing: ItemStanding) throws -> ItemPlace? {
        try mapping {
            try StatementRowCursor(
                db.cachedStatement(sql: Self.placeByKeySQL),
                binding: [.id(standing.list), ItemRecord.headingArgument(standing.heading), .integer(standing.key.sortIndex), .id(id)]
            ) { statement in
                ItemPlace(standing: standing, todayIndex: ItemRecord.integer(statement, 0), updatedAt: Date(timeIntervalSince1970: sqlite3_column_double(statement, 1)))
            }.next()
        }
    }

    /// Remembers the rows of a page of at most this many items: a move by position reads the
    /// item at that position, then writes it. A longer read (a page a view shows) is not kept:
    /// it would cost more to remember than it could save.
    static let rememberedWindow = 4

    /// The most items a page reserves room for before it reads them; a longer page grows as it reads.
    private static let pageCapacity = 256

    private func itemPage(of scope: OrderScope, visibility: ItemVisibility, offset: Int, limit: Int) throws -> [Item] {
        guard offset >= 0, limit > 0 else { return [] }
        let (sql, membership) = OrderingSQL.of(scope)
        guard let page = sql.itemPage?[visibility] else { return [] }
        let knownList: ItemList.ID? = if case .items(let list) = scope { list } else { nil }
        let items = try mapping {
            let rows = try StatementRowCursor(db.cachedStatement(sql: page), binding: membership + [.integer(Int64(limit)), .integer(Int64(offset))]) {
                try ItemRecord.item(sqliteStatement: $0, knownList: knownList)
            }
            var items: [Item] = []
            items.reserveCapacity(min(limit, Self.pageCapacity))
            while let item = try rows.next() { items.append(item) }
            return items
        }
        if items.count <= Self.rememberedWindow {
            for item in items { itemCache[item.id] = .row(item) }
        }
        return items
    }

    func datedStandings(through day: Day) throws -> [DatedStanding] {
        try mapping {
            try Array(StatementRowCursor(db.cachedStatement(sql: Self.datedStandingsSQL), binding: [.value(day.description.databaseValue)]) {
                try DatedStandingRecord.standing(sqliteStatement: $0)
            })
        }
    }

    func datedItems(through day: Day) throws -> [Item] {
        try mapping {
            try Array(StatementRowCursor(db.cachedStatement(sql: Self.datedItemsSQL), binding: [.value(day.description.databaseValue)]) {
                try ItemRecord.item(sqliteStatement: $0)
            })
        }
    }

    func completedItems(offset: Int, limit: Int) throws -> [Item] {
        guard offset >= 0, limit > 0 else { return [] }
        return try mapping {
            let rows = try StatementRowCursor(db.cachedStatement(sql: Self.completedItemsSQL), binding: [.integer(Int64(limit)), .integer(Int64(offset))]) {
                try ItemRecord.item(sqliteStatement: $0)
            }
            return try Array(rows)
        }
    }

    /// An item's or a list's entry is read through its whole row, which the transaction
    /// remembers: whatever places it reads it again, or writes it, next.
    func entry(id: OrderEntry.ID, in scope: OrderScope) throws -> OrderEntry? {
        switch scope {
        case .lists, .area: try list(id: ItemList.ID(entry: id)).flatMap { $0.scope == scope ? $0.entry : nil }
        case .areas: try area(id: Area.ID(entry: id))?.entry
        case .tags(let parent): try tag(id: Tag.ID(entry: id)).flatMap { $0.parent == parent ? $0.entry : nil }
        case .items, .today, .heading: try item(id: Item.ID(entry: id))?.entry(in: scope)
        case .checklist(let item): try checklistItem(id: ChecklistItem.ID(entry: id)).flatMap { $0.itemID == item ? $0.entry : nil }
        case .headings(let list): try heading(id: Heading.ID(entry: id)).flatMap { $0.listID == list ? $0.entry : nil }
        }
    }

    /// Runs a query of the ordering's entries: its membership values, then `arguments`.
    private func entries(
        of scope: OrderScope, sql: (OrderingSQL) -> String, arguments: [SQLiteArgument]
    ) throws -> [OrderEntry] {
        try rows(of: scope, sql: sql, arguments: arguments, decode: OrderEntry.init)
    }

    /// Runs a query of an ordering: its membership values, then `arguments`; `decode` reads
    /// each row, given the ordering's table for its errors.
    private func rows<Row>(
        of scope: OrderScope, sql: (OrderingSQL) -> String, arguments: [SQLiteArgument],
        decode: @escaping (SQLiteStatement, String) throws -> Row
    ) throws -> [Row] {
        let (ordering, membership) = OrderingSQL.of(scope)
        return try mapping {
            let statement = try db.cachedStatement(sql: sql(ordering))
            return try Array(StatementRowCursor(statement, binding: membership + arguments) { try decode($0, ordering.table) })
        }
    }

    /// Runs a `COUNT` of the ordering's entries: its membership values, then `arguments`.
    private func count(in scope: OrderScope, sql: (OrderingSQL) -> String, arguments: [SQLiteArgument]) throws -> Int {
        let (ordering, membership) = OrderingSQL.of(scope)
        return try mapping {
            try StatementRowCursor(db.cachedStatement(sql: sql(ordering)), binding: membership + arguments) { Int(sqlite3_column_int64($0, 0)) }
                .next() ?? 0
        }
    }

    func items(withIDPrefix hexDigits: String, limit: Int) throws -> [Item] {
        guard let textPrefix = Item.ID.textPrefix(forHexDigits: hexDigits), limit > 0 else { return [] }
        return try mapping {
            // "~" sorts after every character of an id, so the range holds exactly the ids that
            // begin with the prefix, and SQLite searches the index of the ids for it.
            let statement = try db.cachedStatement(sql: Self.itemsByIDPrefixSQL)
            let bounds: [SQLiteArgument] = [.value(textPrefix.databaseValue), .value((textPrefix + "~").databaseValue), .integer(Int64(limit))]
            let items = try Array(StatementRowCursor(statement, binding: bounds) { try ItemRecord.item(sqliteStatement: $0) })
            // Kept, as a read by id keeps it: the intent that a prefix named reads the row again.
            for item in items { itemCache[item.id] = .row(item) }
            return items
        }
    }

    /// The items whose ids lie in a range `[from, to)`, in id order, up to a limit.
    static let itemsByIDPrefixSQL = "SELECT \(ItemRecord.selection) FROM items WHERE id >= ? AND id < ? ORDER BY id LIMIT ?"

    /// One statement: one item's checklist, or for several items, their checklists by the
    /// items' ids handed over as one JSON array. Either way SQLite searches the table's key once
    /// for each item: the rows of a checklist sit together. A database that holds no checklist
    /// at all, as most do, answers from the first row of the table alone.
    private func checklistItems(of items: [Item.ID]) throws -> [ChecklistItem] {
        guard let first = items.first else { return [] }
        return try mapping {
            guard try StatementRowCursor(db.cachedStatement(sql: ChecklistItemRecord.anySQL), binding: [], read: { _ in true }).next() != nil else { return [] }
            let (sql, arguments): (String, [SQLiteArgument]) = items.count == 1
                ? (ChecklistItemRecord.ofItemSQL, [.id(first)])
                : (ChecklistItemRecord.ofItemsSQL, [.value(Self.jsonArray(of: items).databaseValue)])
            return try Array(StatementRowCursor(db.cachedStatement(sql: sql), binding: arguments, read: ChecklistItemRecord.entry))
        }
    }

    /// `["3f2a…","9c01…"]`: ids as a JSON array of their text, for `json_each`.
    private static func jsonArray(of ids: [Item.ID]) -> String {
        var json = "["
        json.reserveCapacity(2 + 39 * ids.count)
        for (index, id) in ids.enumerated() {
            if index > 0 { json += "," }
            json += "\"" + id.text + "\""
        }
        return json + "]"
    }

    func defaultListID() throws -> ItemList.ID? {
        try mapping {
            let statement = try db.cachedStatement(sql: "SELECT list_id FROM \(Schema.defaultListTable) WHERE id = 1")
            guard let text = try String.fetchOne(statement) else { return nil }
            guard let id = ItemList.ID(text) else { throw RowDecodingError(table: Schema.defaultListTable, row: text) }
            return id
        }
    }

    func value(of setting: StoreSetting) throws -> String? {
        try mapping {
            try String.fetchOne(db.cachedStatement(sql: "SELECT value FROM \(Schema.settingsTable) WHERE key = ?"), arguments: [setting.rawValue])
        }
    }

    func listShares() throws -> [ListShare] {
        if let sharesCache { return sharesCache }
        let shares = try mapping {
            try Row.fetchAll(db.cachedStatement(sql: "SELECT list_id, role, owner, is_owned FROM \(Schema.listSharesTable) ORDER BY list_id")).compactMap { row -> ListShare? in
                guard let role = ListShare.Role(rawValue: row["role"]) else { return nil }
                return ListShare(list: row["list_id"], role: role, owner: row["owner"], isOwned: row["is_owned"])
            }
        }
        sharesCache = shares
        return shares
    }

    // MARK: Writing

    func apply(_ change: RowChange) throws {
        switch change {
        case .insert(.list(let list)): try insert(list)
        case .insert(.area(let area)): try insert(area)
        case .insert(.heading(let heading)): try insert(heading)
        case .insert(.item(let item)): try insert(item)
        case .insert(.checklistItem(let entry)): try insert(entry)
        case .insert(.tag(let tag)): try insert(tag)
        case .insert(.series(let series)): try insert(series)
        case .update(.list(let list)): try update(list)
        case .update(.area(let area)): try update(area)
        case .update(.heading(let heading)): try update(heading)
        case .update(.item(let item)): try update(item)
        case .update(.checklistItem(let entry)): try update(entry)
        case .update(.tag(let tag)): try update(tag)
        case .update(.series(let series)): try update(series)
        case .delete(.list(let id)): try deleteList(id: id)
        case .delete(.area(let id)): try deleteArea(id: id)
        case .delete(.heading(let id)): try deleteHeading(id: id)
        case .delete(.item(let id)): try deleteItem(id: id)
        case .delete(.checklistItem(let id)): try deleteChecklistItem(id: id)
        case .delete(.tag(let id)): try deleteTag(id: id)
        case .delete(.series(let id)): try deleteSeries(id: id)
        case .setSortIndices(let changes, let scope, let updatedAt): try setSortIndices(changes, in: scope, updatedAt: updatedAt)
        case .removeFromToday(let ids, let updatedAt): try removeFromToday(ids, updatedAt: updatedAt)
        case .setDefaultList(let id): try setDefaultListID(id)
        case .setValue(let value, let setting): try setValue(value, of: setting)
        case .setListShare(let share, let list): try setShare(share, of: list)
        case .mergeTag(let id, let survivor): try mergeTag(id, into: survivor)
        case .unmergeTag(let id): try unmergeTag(id)
        }
    }

    func insert(_ list: ItemList) throws {
        changesRows = true
        guard try self.list(id: list.id) == nil else { throw StoreError.duplicateList(list.id) }
        try ensureStorable(["name": list.name, "notes": list.notes], of: "the list \(list.id)")
        try ensureListNameIsFree(list.name)
        if let area = list.area { _ = try existingArea(id: area) }
        let record = ListRecord(list)
        try mapping { try record.insert(db) }
        remember(record)
        changes.noteListsChanged()
    }

    func update(_ list: ItemList) throws {
        changesRows = true
        guard try self.list(id: list.id) != nil else { throw StoreError.listNotFound(list.id) }
        try ensureStorable(["name": list.name, "notes": list.notes], of: "the list \(list.id)")
        try ensureListNameIsFree(list.name, except: list.id)
        if let area = list.area { _ = try existingArea(id: area) }
        let record = ListRecord(list)
        try mapping { try record.update(db) }
        remember(record)
        changes.noteListsChanged()
    }

    /// Remembers a list row just written; the order of all lists must be read again.
    private func remember(_ record: ListRecord) {
        listCache[record.id] = record.stored.list
        allLists = nil
    }

    func insert(_ area: Area) throws {
        changesRows = true
        guard try self.area(id: area.id) == nil else { throw StoreError.duplicateArea(area.id) }
        try ensureStorable(["name": area.name], of: "the area \(area.id)")
        try ensureAreaNameIsFree(area.name)
        try mapping { try AreaRecord(area).insert(db) }
        changes.noteListsChanged()
    }

    func update(_ area: Area) throws {
        changesRows = true
        guard try self.area(id: area.id) != nil else { throw StoreError.areaNotFound(area.id) }
        try ensureStorable(["name": area.name], of: "the area \(area.id)")
        try ensureAreaNameIsFree(area.name, except: area.id)
        try mapping { try AreaRecord(area).update(db) }
        // The sidebar's order of the lists follows the areas'.
        allLists = nil
        changes.noteListsChanged()
    }

    func deleteArea(id: Area.ID) throws {
        changesRows = true
        // Its lists stay: the foreign key sets their `area_id` to NULL.
        guard try mapping({ try AreaRecord.deleteOne(db, key: id.text) }) else { throw StoreError.areaNotFound(id) }
        listCache = [:]
        allLists = nil
        changes.noteListsChanged()
    }

    func insert(_ tag: Tag) throws {
        changesRows = true
        guard try self.tag(id: tag.id) == nil else { throw StoreError.duplicateTag(tag.id) }
        try ensureStorable(["name": tag.name], of: "the tag \(tag.id)")
        try ensureTagNameIsFree(tag.name)
        if let parent = tag.parent { _ = try existingTag(id: parent) }
        try mapping { try TagRecord(tag).insert(db) }
        changes.noteOtherRowsChanged()
    }

    func update(_ tag: Tag) throws {
        changesRows = true
        guard try self.tag(id: tag.id) != nil else { throw StoreError.tagNotFound(tag.id) }
        try ensureStorable(["name": tag.name], of: "the tag \(tag.id)")
        try ensureTagNameIsFree(tag.name, except: tag.id)
        if let parent = tag.parent { _ = try existingTag(id: parent) }
        try mapping { try TagRecord(tag).update(db) }
        changes.noteOtherRowsChanged()
    }

    /// Deletes a tag; the foreign key deletes its children, and theirs.
    func deleteTag(id: Tag.ID) throws {
        changesRows = true
        guard try mapping({ try TagRecord.deleteOne(db, key: id.text) }) else { throw StoreError.tagNotFound(id) }
        changes.noteOtherRowsChanged()
    }

    func insert(_ series: Series) throws {
        changesRows = true
        guard try self.series(id: series.id) == nil else { throw StoreError.duplicateSeries(series.id) }
        try ensureStorable(["title": series.title], of: "the repeating to-do \(series.id)")
        try mapping { try db.cachedStatement(sql: SeriesRecord.insertSQL).execute(binding: try SeriesRecord.arguments(of: series)) }
        seriesCache[series.id] = SeriesRecord.stored(series)
        changes.noteOtherRowsChanged()
    }

    func update(_ series: Series) throws {
        changesRows = true
        let stored = SeriesRecord.stored(series)
        // Making a to-do changes three columns: only they are written then.
        let madeOnly = (seriesCache[series.id] ?? nil).map { SeriesRecord.differsInMadeDatesOnly(stored, from: $0) } ?? false
        if !madeOnly { try ensureStorable(["title": series.title], of: "the repeating to-do \(series.id)") }
        let updated = try mapping {
            if madeOnly {
                try db.cachedStatement(sql: SeriesRecord.updateMadeSQL).execute(binding: SeriesRecord.madeArguments(of: series))
            } else {
                let values = try SeriesRecord.arguments(of: series)
                try db.cachedStatement(sql: SeriesRecord.updateSQL).execute(binding: Array(values.dropFirst()) + [values[0]])
            }
            return db.changesCount == 1
        }
        guard updated else { throw StoreError.seriesNotFound(series.id) }
        seriesCache[series.id] = stored
        changes.noteOtherRowsChanged()
    }

    func deleteSeries(id: Series.ID) throws {
        changesRows = true
        let deleted = try mapping {
            try db.cachedStatement(sql: "DELETE FROM series WHERE id = ?").execute(arguments: [id.text])
            return db.changesCount == 1
        }
        guard deleted else { throw StoreError.seriesNotFound(id) }
        seriesCache[id] = .some(nil)
        changes.noteOtherRowsChanged()
    }

    /// Makes `id` stand for `survivor` (``RowChange/mergeTag(_:into:)``).
    func mergeTag(_ id: Tag.ID, into survivor: Tag.ID) throws {
        changesRows = true
        try mapping {
            try db.execute(sql: "INSERT OR REPLACE INTO tag_merges (id, tag_id) VALUES (?, ?)", arguments: [id.text, survivor.text])
        }
        changes.noteOtherRowsChanged()
    }

    /// Takes back ``mergeTag(_:into:)``.
    func unmergeTag(_ id: Tag.ID) throws {
        changesRows = true
        try mapping { try db.execute(sql: "DELETE FROM tag_merges WHERE id = ?", arguments: [id.text]) }
        changes.noteOtherRowsChanged()
    }

    func insert(_ heading: Heading) throws {
        changesRows = true
        guard try self.heading(id: heading.id) == nil else { throw StoreError.duplicateHeading(heading.id) }
        try ensureStorable(["title": heading.title], of: "the heading \(heading.id)")
        _ = try existingList(id: heading.listID)
        let record = HeadingRecord(heading)
        try mapping { try record.insert(db) }
        headingCache[heading.id] = record.heading
        changes.noteHeadingsChanged(of: heading.listID)
    }

    func update(_ heading: Heading) throws {
        changesRows = true
        guard let old = try self.heading(id: heading.id) else { throw StoreError.headingNotFound(heading.id) }
        try ensureStorable(["title": heading.title], of: "the heading \(heading.id)")
        _ = try existingList(id: heading.listID)
        let record = HeadingRecord(heading)
        // A new list: a trigger moves the items under it there.
        try mapping { try record.update(db) }
        headingCache[heading.id] = record.heading
        noteChange(of: old, to: heading.listID)
    }

    func deleteHeading(id: Heading.ID) throws {
        changesRows = true
        guard let heading = try heading(id: id) else { throw StoreError.headingNotFound(id) }
        // A trigger deletes the items under it, and theirs, their checklists.
        try mapping { _ = try HeadingRecord.deleteOne(db, key: id.text) }
        headingCache[id] = .some(nil)
        itemCache = itemCache.filter { _, known in known.standing?.heading != id }
        changes.noteHeadingsChanged(of: heading.listID)
        changes.noteUnlistedItems(of: heading.listID)
    }

    /// Notes a change to a heading that was `old`, and is now in `list`: the headings of its
    /// list; when it moved to another, the items under it, which moved along.
    private func noteChange(of old: Heading, to list: ItemList.ID) {
        changes.noteHeadingsChanged(of: old.listID)
        guard list != old.listID else { return }
        changes.noteHeadingsChanged(of: list)
        itemCache = itemCache.filter { _, known in known.standing?.heading != old.id }
        changes.noteUnlistedItems(of: old.listID)
        changes.noteUnlistedItems(of: list)
    }

    func deleteList(id: ItemList.ID) throws {
        changesRows = true
        sharesCache = nil
        // The items go with it, its headings, its share, and the default list's row when it names this list: all cascade.
        guard try mapping({ try ListRecord.deleteOne(db, key: id.text) }) else { throw StoreError.listNotFound(id) }
        listCache[id] = .some(nil)
        allLists = nil
        itemCache = itemCache.filter { _, known in known.standing?.list != id }
        headingCache = headingCache.filter { _, heading in heading.map { $0.listID != id } ?? true }
        changes.noteHeadingsChanged(of: id)
        changes.noteListsChanged()
        // Its items go, and may have been in Today.
        changes.noteUnlistedItems(of: id)
    }

    func insert(_ item: Item) throws {
        changesRows = true
        try ensureNotesFit(item)
        let stored = try save(item) { try $0.insertRow(db) }
        changes.note(.inserted(stored))
    }

    /// Writes only the columns that differ from the row as this transaction last read or
    /// wrote it, and nothing when none does; a row it does not know gets every column written.
    /// Reads the row first when the transaction does not know it, to note the list it leaves.
    func update(_ item: Item) throws {
        changesRows = true
        let known = try self.item(id: item.id)
        try ensureNotesFit(item, replacing: known)
        let original = known.map(ItemRecord.init)
        let stored = try save(item) { try $0.updateRow(db, changedFrom: original) }
        // The row was there, or the update threw.
        changes.note(known.map { .updated(from: $0, to: stored) } ?? .inserted(stored))
    }

    /// Inserts or updates the row of `item` with `write`, reports a taken id, a missing row
    /// or a missing list as the store error that names the item or the list, and remembers
    /// the row as written.
    ///
    /// - Returns: The item as the row now holds it, as a read would answer it.
    private func save(_ item: Item, with write: (ItemRecord) throws -> Void) throws -> Item {
        try ensureStorable(["title": item.title, "notes": item.notes], of: "the item \(item.id)")
        if let heading = item.heading, try self.heading(id: heading)?.listID != item.listID { throw StoreError.headingNotFound(heading) }
        let record = ItemRecord(item)
        try mapping {
            do {
                try write(record)
            } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE, DatabaseError.SQLITE_CONSTRAINT_PRIMARYKEY {
                // The ids' unique index; the primary key (list, key, id) only if all three are the same.
                throw StoreError.duplicateItem(item.id)
            } catch RecordError.recordNotFound {
                throw StoreError.itemNotFound(item.id)
            } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
                throw StoreError.listNotFound(item.listID)
            }
        }
        let stored = record.stored.item
        itemCache[item.id] = .row(stored)
        return stored
    }

    func deleteItem(id: Item.ID) throws {
        changesRows = true
        guard let known = try item(id: id) else { throw StoreError.itemNotFound(id) }
        try mapping { try db.cachedStatement(sql: "DELETE FROM items WHERE id = ?").execute(arguments: [id.text]) }
        guard db.changesCount == 1 else { throw StoreError.itemNotFound(id) }
        itemCache[id] = .missing
        changes.note(.deleted(known))
    }

    func insert(_ entry: ChecklistItem) throws {
        changesRows = true
        try ensureStorable(["title": entry.title], of: "the checklist entry \(entry.id)")
        try mapping {
            do {
                try db.cachedStatement(sql: ChecklistItemRecord.insertSQL).execute(binding: ChecklistItemRecord.insertArguments(entry))
            } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE, DatabaseError.SQLITE_CONSTRAINT_PRIMARYKEY {
                throw StoreError.duplicateChecklistItem(entry.id)
            } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
                throw StoreError.itemNotFound(entry.itemID)
            }
        }
        changes.noteChecklistChanged(of: entry.itemID)
    }

    func update(_ entry: ChecklistItem) throws {
        changesRows = true
        guard let old = try checklistItem(id: entry.id) else { throw StoreError.checklistItemNotFound(entry.id) }
        try ensureStorable(["title": entry.title], of: "the checklist entry \(entry.id)")
        try mapping {
            do {
                try db.cachedStatement(sql: ChecklistItemRecord.updateSQL).execute(binding: ChecklistItemRecord.updateArguments(entry))
            } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
                throw StoreError.itemNotFound(entry.itemID)
            }
        }
        changes.noteChecklistChanged(of: old.itemID)
        changes.noteChecklistChanged(of: entry.itemID)
    }

    func deleteChecklistItem(id: ChecklistItem.ID) throws {
        changesRows = true
        guard let old = try checklistItem(id: id) else { throw StoreError.checklistItemNotFound(id) }
        try mapping { try db.cachedStatement(sql: ChecklistItemRecord.deleteSQL).execute(binding: [.id(id)]) }
        changes.noteChecklistChanged(of: old.itemID)
    }

    func setSortIndices(_ keyChanges: [SortIndexChange], in scope: OrderScope, updatedAt: Date) throws {
        changesRows = true
        let stamp = updatedAt.timeIntervalSince1970
        if case .area(let area) = scope, !keyChanges.isEmpty { _ = try existingArea(id: area) }
        for change in keyChanges {
            switch scope {
            case .lists, .area:
                let id = ItemList.ID(entry: change.id)
                let area: Area.ID? = if case .area(let area) = scope { area } else { nil }
                try mapping {
                    try db.cachedStatement(sql: Self.setListKeySQL).execute(binding: [.integer(change.sortIndex), .value(area?.text.databaseValue ?? .null), .id(id)])
                }
                guard db.changesCount == 1 else { throw StoreError.listNotFound(id) }
                if case var list?? = listCache[id] {
                    list.sortIndex = change.sortIndex
                    list.area = area
                    listCache[id] = list
                }
                allLists = nil
                changes.noteListsChanged()
            case .areas:
                let id = Area.ID(entry: change.id)
                try setKey(change.sortIndex, of: .id(id), sql: OrderingSQL.areas.setKey, stamp: nil, missing: .areaNotFound(id))
                allLists = nil
                changes.noteListsChanged()
            case .tags(let parent):
                var tag = try existingTag(id: Tag.ID(entry: change.id))
                (tag.parent, tag.sortIndex) = (parent, change.sortIndex)
                try update(tag)
            case .items(let list):
                try setItemKey(change, list: list, heading: nil, stamp: stamp)
            case .heading(let heading):
                try setItemKey(change, list: try existingHeading(id: heading).listID, heading: heading, stamp: stamp)
            case .headings(let list):
                let id = Heading.ID(entry: change.id)
                guard var heading = try heading(id: id) else { throw StoreError.headingNotFound(id) }
                let old = heading
                try mapping {
                    do {
                        try db.cachedStatement(sql: Self.setHeadingKeySQL).execute(binding: [.integer(change.sortIndex), .id(list), .id(id)])
                    } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
                        throw StoreError.listNotFound(list)
                    }
                }
                heading.sortIndex = change.sortIndex
                heading.listID = list
                headingCache[id] = heading
                noteChange(of: old, to: list)
            case .today:
                let id = Item.ID(entry: change.id)
                try setTodayKey(change.sortIndex, of: id, stamp: stamp)
                rememberChange(of: id, stamp: stamp) { $0.todayIndex = change.sortIndex }
            case .checklist(let item):
                let id = ChecklistItem.ID(entry: change.id)
                try mapping {
                    try db.cachedStatement(sql: Self.setChecklistKeySQL).execute(binding: [.integer(change.sortIndex), .id(id), .id(item)])
                }
                guard db.changesCount == 1 else { throw StoreError.checklistItemNotFound(id) }
                changes.noteChecklistChanged(of: item)
            }
        }
    }

    func removeFromToday(_ ids: [Item.ID], updatedAt: Date) throws {
        changesRows = true
        let stamp = updatedAt.timeIntervalSince1970
        for id in ids {
            try setTodayKey(nil, of: id, stamp: stamp)
            rememberChange(of: id, stamp: stamp) { $0.todayIndex = nil }
        }
    }

    /// Runs an ordering's `setKey` statement for the row whose id `id` binds, and throws
    /// `missing` when there is none.
    private func setKey(_ key: Int64, of id: SQLiteArgument, sql: String, stamp: Double?, missing: StoreError) throws {
        let values: [SQLiteArgument] = stamp.map { [.integer(key), .real($0), id] } ?? [.integer(key), id]
        let changed = try mapping {
            try db.cachedStatement(sql: sql).execute(binding: values)
            return db.changesCount
        }
        guard changed == 1 else { throw missing }
    }

    /// Sets an item's key in Today (`nil` takes it out of Today), and notes the change.
    ///
    /// - Throws: ``RowDecodingError`` when the row's list is not a UUID.
    private func setTodayKey(_ key: Int64?, of id: Item.ID, stamp: Double) throws {
        let listText = try mapping {
            try String.fetchOne(db.cachedStatement(sql: Self.setTodayKeySQL), arguments: [key, stamp, id.text])
        }
        guard let listText else { throw StoreError.itemNotFound(id) }
        guard let list = ItemList.ID(listText) else {
            // The key is written: whatever the caller does with the error, observations read again.
            changes.noteUnlistedItemsOfEveryList()
            throw RowDecodingError(table: ItemRecord.databaseTableName, row: "list_id: \(listText)")
        }
        changes.note(.todayKeyed(id, list: list, todayIndex: key, updatedAt: Date(timeIntervalSince1970: stamp)))
    }

    /// Sets an item's key in `list` under `heading` (or none), and notes the change: whole when
    /// the transaction knows the item there already, as a key from its old one when it knows
    /// where the item stands there, else as ``moveItem(_:into:under:sortIndex:stamp:)`` does.
    private func setItemKey(_ change: SortIndexChange, list: ItemList.ID, heading: Heading.ID?, stamp: Double) throws {
        let id = Item.ID(entry: change.id)
        let updatedAt = Date(timeIntervalSince1970: stamp)
        let placed = ItemStanding(list: list, heading: heading, key: OrderKey(sortIndex: change.sortIndex, id: change.id))
        switch itemCache[id] {
        case .row(let item) where item.listID == list && item.heading == heading:
            try setKey(change.sortIndex, of: .id(id), sql: OrderingSQL.listItems.setKey, stamp: stamp, missing: .itemNotFound(id))
            var rekeyed = item
            rekeyed.sortIndex = change.sortIndex
            rekeyed.updatedAt = updatedAt
            // Whole, as the transaction knows it: an observation finds it by its old key.
            changes.note(.updated(from: item, to: rekeyed))
            itemCache[id] = .row(rekeyed)
        case .standing(let standing) where standing.list == list && standing.heading == heading:
            try setKey(change.sortIndex, of: .id(id), sql: OrderingSQL.listItems.setKey, stamp: stamp, missing: .itemNotFound(id))
            changes.note(.keyed(id, list: list, heading: heading, sortIndex: change.sortIndex, oldSortIndex: standing.key.sortIndex, updatedAt: updatedAt))
            itemCache[id] = .standing(placed)
        default:
            try moveItem(id, into: list, under: heading, sortIndex: change.sortIndex, stamp: stamp)
            if case .standing = itemCache[id] { itemCache[id] = .standing(placed) }
            rememberChange(of: id, stamp: stamp) { item in
                item.listID = list
                item.heading = heading
                item.sortIndex = change.sortIndex
            }
        }
    }

    /// Sets an item's key in `list` under `heading` (or none), moving it there from another
    /// list or heading if need be, and notes the lists it changed.
    private func moveItem(_ id: Item.ID, into list: ItemList.ID, under heading: Heading.ID?, sortIndex: Int64, stamp: Double) throws {
        // Most moves stay in the item's section: one statement, the list known.
        let headingValue = ItemRecord.headingArgument(heading)
        let stayed = try mapping {
            try db.cachedStatement(sql: Self.setKeyInListSQL).execute(binding: [.integer(sortIndex), .real(stamp), .id(id), .id(list), headingValue])
            return db.changesCount == 1
        }
        let updatedAt = Date(timeIntervalSince1970: stamp)
        if stayed {
            changes.note(.keyed(id, list: list, heading: heading, sortIndex: sortIndex, oldSortIndex: nil, updatedAt: updatedAt))
            return
        }
        guard let known = try item(id: id) else { throw StoreError.itemNotFound(id) }
        let changed = try mapping {
            do {
                try db.cachedStatement(sql: Self.moveItemSQL).execute(binding: [.id(list), headingValue, .integer(sortIndex), .real(stamp), .id(id)])
                return db.changesCount
            } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
                throw StoreError.listNotFound(list)
            }
        }
        guard changed == 1 else { throw StoreError.itemNotFound(id) }
        var moved = known
        moved.listID = list
        moved.heading = heading
        moved.sortIndex = sortIndex
        moved.updatedAt = updatedAt
        changes.note(.updated(from: known, to: moved))
    }

    /// Keeps a remembered item row up to date with a change just written.
    private func rememberChange(of id: Item.ID, stamp: Double, _ change: (inout Item) -> Void) {
        guard case .row(var item) = itemCache[id] else { return }
        change(&item)
        item.updatedAt = Date(timeIntervalSince1970: stamp)
        itemCache[id] = .row(item)
    }

    func setDefaultListID(_ id: ItemList.ID) throws {
        guard try list(id: id) != nil else { throw StoreError.listNotFound(id) }
        try mapping {
            let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO \(Schema.defaultListTable) (id, list_id) VALUES (1, ?)")
            try statement.execute(arguments: [id.text])
        }
        changes.noteListsChanged()
    }

    func setValue(_ value: String?, of setting: StoreSetting) throws {
        try mapping {
            if let value {
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO \(Schema.settingsTable) (key, value) VALUES (?, ?)").execute(arguments: [setting.rawValue, value])
            } else {
                try db.cachedStatement(sql: "DELETE FROM \(Schema.settingsTable) WHERE key = ?").execute(arguments: [setting.rawValue])
            }
        }
    }

    func setShare(_ share: ListShare?, of list: ItemList.ID) throws {
        guard try self.list(id: list) != nil else { throw StoreError.listNotFound(list) }
        sharesCache = nil
        if let share { try ensureStorable(["owner": share.owner], of: "the share of list \(list)") }
        try mapping {
            if let share {
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO \(Schema.listSharesTable) (list_id, role, owner, is_owned) VALUES (?, ?, ?, ?)")
                    .execute(arguments: [list, share.role.rawValue, share.owner, share.isOwned])
            } else {
                try db.cachedStatement(sql: "DELETE FROM \(Schema.listSharesTable) WHERE list_id = ?").execute(arguments: [list])
            }
        }
    }

    /// Throws when a text holds U+0000 (NUL): GRDB hands SQLite C strings, so SQLite would keep
    /// only the part before it. Refusing is better than losing the rest without a word.
    func ensureStorable(_ texts: KeyValuePairs<String, String>, of subject: @autoclosure () -> String) throws(StoreError) {
        for (field, text) in texts where text.utf8.contains(0) {
            throw .database(reason: "SQLite cannot store U+0000 (NUL), found in the \(field) of \(subject()); remove it.")
        }
    }
}

/// What a transaction knows of an item: its whole row, only where it stands (its list, heading
/// and key, which the index of the ids holds), or that no row has its id.
private enum KnownItem {
    case row(Item)
    case standing(ItemStanding)
    case missing

    /// What a read by id found: the row, or none.
    init(_ item: Item?) {
        self = item.map(KnownItem.row) ?? .missing
    }

    /// Where the item stands, or `nil` when there is no such item.
    var standing: ItemStanding? {
        switch self {
        case .row(let item): ItemStanding(item)
        case .standing(let standing): standing
        case .missing: nil
        }
    }
}
