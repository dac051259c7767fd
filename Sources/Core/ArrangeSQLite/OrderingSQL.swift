import ArrangeModel
import ArrangeStore
import Foundation
import GRDB

/// Where an ``OrderScope`` is stored, and the SQL of every query the transactions run on it.
///
/// Each kind of ordering is a set of rows of one table with a key column: the items of a list
/// under no heading (`items.sort_index` where `list_id = ? AND heading_id = ''`), the items
/// under a heading (where `heading_id = ?`, in the heading's list), a list's headings
/// (`headings.sort_index` where `list_id = ?`), the lists in no area (`lists.sort_index` where
/// `area_id IS NULL`), an area's lists (where `area_id = ?`), Today (`items.today_index` where it
/// is not NULL), an item's checklist (`checklist_items.sort_index` where `item_id = ?`), the areas
/// (`areas.sort_index`), a tag's children (`tag_tree.sort_index` where `parent_id IS ?`). Every query compares or orders the row value
/// `(key, id)`, which SQLite answers from the ordering's index: windows start at the key, not
/// at an end of the ordering. The SQL of each kind is built once, so each statement is
/// prepared once per connection and then taken from its statement cache.
final class OrderingSQL: Sendable {
    /// The table that holds the ordering's rows, for error messages.
    let table: String

    /// The keys of up to `?` entries strictly before a key `(?, ?)`, nearest first: the
    /// ordering's index covers them, so SQLite need not read the table.
    let keysBefore: String
    /// The keys of up to `?` entries strictly after a key `(?, ?)`, nearest first.
    let keysAfter: String
    /// The entries that share a key with another, in order.
    let tiedEntries: String
    /// Sets the key of an entry (`?`, then the id); an item's also stamps `updated_at`.
    let setKey: String

    /// A page of entries, `LIMIT ? OFFSET ?`.
    let entryPage: ByVisibility
    /// A page of whole item rows, `LIMIT ? OFFSET ?`; `nil` for the order of the lists.
    let itemPage: ByVisibility?
    /// How many entries are seen.
    let count: ByVisibility
    /// How many entries seen come before a key `(?, ?)`.
    let countBefore: ByVisibility

    /// Builds every statement of an ordering.
    ///
    /// - Parameters:
    ///   - table: The table that holds the ordering's rows.
    ///   - keyColumn: The column that holds the keys.
    ///   - membership: The condition that picks the ordering's rows out of the table; a list's
    ///     items bind its id. Its parameters are numbered (`?1`, `?2`), so that a query that
    ///     states it twice binds its values once.
    ///   - openCondition: The condition that an entry is open.
    ///   - keptCondition: The condition that an entry is out of the Trash.
    ///   - stampsUpdates: Whether a key written stamps `updated_at` too.
    ///   - fixedColumns: For an ordering of items, the value of each column that `membership`
    ///     fixes, as SQL (a parameter of `membership`, or a literal): a page selects it, rather
    ///     than reading it from every row.
    private init(
        table: String, keyColumn: String, membership: String, openCondition: String, keptCondition: String = "TRUE", stampsUpdates: Bool,
        fixedColumns: [ItemRecord.CodingKeys: String] = [:]
    ) {
        self.table = table
        let entry = "id, \(keyColumn), \(openCondition), NOT (\(keptCondition))"
        let order = "ORDER BY \(keyColumn), id"
        let visible = { (visibility: ItemVisibility) in
            switch visibility {
            case .all: membership
            case .open: "\(membership) AND \(openCondition) AND \(keptCondition)"
            case .openAndCompleted: "\(membership) AND \(keptCondition)"
            }
        }
        let byVisibility = { (sql: (ItemVisibility) -> String) in ByVisibility(all: sql(.all), open: sql(.open), openAndCompleted: sql(.openAndCompleted)) }
        let key = "id, \(keyColumn)"
        keysBefore = "SELECT \(key) FROM \(table) WHERE \(membership) AND (\(keyColumn), id) < (?, ?) ORDER BY \(keyColumn) DESC, id DESC LIMIT ?"
        keysAfter = "SELECT \(key) FROM \(table) WHERE \(membership) AND (\(keyColumn), id) > (?, ?) \(order) LIMIT ?"
        tiedEntries = """
            SELECT \(entry) FROM \(table) WHERE \(membership) AND \(keyColumn) IN \
            (SELECT \(keyColumn) FROM \(table) WHERE \(membership) GROUP BY \(keyColumn) HAVING COUNT(*) > 1) \(order)
            """
        setKey = "UPDATE \(table) SET \(keyColumn) = ?\(stampsUpdates ? ", updated_at = ?" : "") WHERE id = ?"
        entryPage = byVisibility { "SELECT \(entry) FROM \(table) WHERE \(visible($0)) \(order) LIMIT ? OFFSET ?" }
        itemPage = table == ItemRecord.databaseTableName
            ? byVisibility { "SELECT \(ItemRecord.selection(fixing: fixedColumns)) FROM \(table) WHERE \(visible($0)) \(order) LIMIT ? OFFSET ?" }
            : nil
        count = byVisibility { "SELECT COUNT(*) FROM \(table) WHERE \(visible($0))" }
        countBefore = byVisibility { "SELECT COUNT(*) FROM \(table) WHERE \(visible($0)) AND (\(keyColumn), id) < (?, ?)" }
    }

    /// The items of one list under no heading.
    static let listItems = OrderingSQL(
        table: "items", keyColumn: "sort_index", membership: "list_id = ?1 AND heading_id = ''", openCondition: "completed_at IS NULL",
        keptCondition: notTrashed, stampsUpdates: true, fixedColumns: [.listID: "?1", .heading: "''"])
    /// The items under one heading: the heading's id binds twice, so that SQLite finds them in
    /// the primary key, whose first column is the list.
    static let headingItems = OrderingSQL(
        table: "items", keyColumn: "sort_index", membership: "list_id = (SELECT list_id FROM headings WHERE id = ?1) AND heading_id = ?2",
        openCondition: "completed_at IS NULL", keptCondition: notTrashed, stampsUpdates: true, fixedColumns: [.heading: "?2"])
    /// The headings of one list.
    static let headings = OrderingSQL(
        table: HeadingRecord.databaseTableName, keyColumn: "sort_index", membership: "list_id = ?1", openCondition: "TRUE", keptCondition: notTrashed,
        stampsUpdates: false)
    /// The lists the sidebar shows, of those kept: neither finished nor put off to someday.
    static let listShownCondition = "completed_at IS NULL AND NOT (someday AND start_date IS NULL)"
    /// The lists in no area.
    static let lists = OrderingSQL(
        table: "lists", keyColumn: "sort_index", membership: "area_id IS NULL", openCondition: listShownCondition, keptCondition: notTrashed,
        stampsUpdates: false)
    /// The lists of one area.
    static let areaLists = OrderingSQL(
        table: "lists", keyColumn: "sort_index", membership: "area_id = ?1", openCondition: listShownCondition, keptCondition: notTrashed,
        stampsUpdates: false)
    /// The areas.
    static let areas = OrderingSQL(
        table: AreaRecord.databaseTableName, keyColumn: "sort_index", membership: "TRUE", openCondition: "TRUE", stampsUpdates: false)
    /// The items in Today; the condition on `today_index` lets SQLite use the partial index.
    static let today = OrderingSQL(
        table: "items", keyColumn: "today_index", membership: "today_index IS NOT NULL", openCondition: "completed_at IS NULL",
        keptCondition: notTrashed, stampsUpdates: true)

    /// The condition that an item, a list or a heading is out of the Trash itself (from v27).
    private static let notTrashed = "trashed_at IS NULL"

    /// The entries of one item's checklist.
    static let checklist = OrderingSQL(
        table: ChecklistItemRecord.databaseTableName, keyColumn: "sort_index", membership: "item_id = ?1", openCondition: "completed_at IS NULL",
        stampsUpdates: false)

    /// The children of one tag, or the tags at the top level: `IS` matches a NULL parent too.
    static let tags = OrderingSQL(
        table: TagRecord.databaseTableName, keyColumn: "sort_index", membership: "parent_id IS ?1", openCondition: "TRUE", stampsUpdates: false)

    /// The SQL of an ordering, and the values its membership condition binds.
    static func of(_ scope: OrderScope) -> (sql: OrderingSQL, membership: [SQLiteArgument]) {
        switch scope {
        case .items(let list): (listItems, [.id(list)])
        case .lists: (lists, [])
        case .today: (today, [])
        case .checklist(let item): (checklist, [.id(item)])
        case .areas: (areas, [])
        case .area(let area): (areaLists, [.id(area)])
        case .headings(let list): (headings, [.id(list)])
        case .heading(let heading): (headingItems, [.id(heading), .id(heading)])
        case .tags(let parent): (tags, [parent.map { .id($0) } ?? .value(.null)])
        }
    }

    /// One statement's text for each ``ItemVisibility``.
    struct ByVisibility: Sendable {
        let all: String
        let open: String
        let openAndCompleted: String

        subscript(visibility: ItemVisibility) -> String {
            switch visibility {
            case .all: all
            case .open: open
            case .openAndCompleted: openAndCompleted
            }
        }
    }
}
