import ArrangeModel
import ArrangeStore
import Foundation
import GRDB
import GRDBSQLite

/// A record whose dates are stored as seconds since 1970-01-01 00:00:00 UTC, a `REAL`.
///
/// The number keeps any `Date` to within a microsecond, and a `Date` made from seconds since
/// 1970 (`Date(timeIntervalSince1970:)`) between 1985 and 2031 comes back exactly. It sorts
/// as time does and reads in SQL as `datetime(created_at, 'unixepoch', 'subsec')`.
protocol UnixTimeDates: EncodableRecord, FetchableRecord {}

extension UnixTimeDates {
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSince1970
    }

    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .timeIntervalSince1970
    }
}

/// A row of the `lists` table.
///
/// Records stay inside this module: the repository hands out ``ItemList`` values, never records.
struct ListRecord: Hashable {
    var id: ItemList.ID
    var name: String
    var createdAt: Date
    var sortIndex: Int64
    var areaID: Area.ID?
    var completedAt: Date?
    var isCanceled = false
    var tags: Set<Tag.ID> = []
    var trashedAt: Date?
    var when: When = .anytime
    var deadline: Day?
    var notes = ""
}

extension ListRecord: Encodable, FetchableRecord, PersistableRecord, UnixTimeDates {
    static let databaseTableName = "lists"

    /// Reads a row by its columns' names.
    ///
    /// Written by hand: `Decodable` would ask the runtime, for each column's type, whether it
    /// conforms to GRDB's protocols, and each first answer scans every conformance in the
    /// binary, more than a one-shot command's whole query costs.
    ///
    /// - Throws: `RowDecodingError` when a column is missing or holds a value of another type.
    init(row: Row) throws {
        self.init(
            id: try row.decode(forColumn: CodingKeys.id.rawValue),
            name: try row.decode(forColumn: CodingKeys.name.rawValue),
            createdAt: Date(timeIntervalSince1970: try row.decode(forColumn: CodingKeys.createdAt.rawValue)),
            sortIndex: try row.decode(forColumn: CodingKeys.sortIndex.rawValue),
            areaID: try row.decode(forColumn: CodingKeys.areaID.rawValue),
            completedAt: (try row.decode(Double?.self, forColumn: CodingKeys.completedAt.rawValue)).map(Date.init(timeIntervalSince1970:)),
            isCanceled: try row.decode(forColumn: CodingKeys.isCanceled.rawValue),
            tags: try TagIDs.tags(in: row, table: Self.databaseTableName),
            trashedAt: (try row.decode(Double?.self, forColumn: CodingKeys.trashedAt.rawValue)).map(Date.init(timeIntervalSince1970:)),
            when: try Self.when(in: row),
            deadline: try Self.day(in: row, column: CodingKeys.deadline.rawValue),
            notes: try row.decode(forColumn: CodingKeys.notes.rawValue))
    }

    /// When the list starts, from `start_date`, `someday` and `evening`, read as an item's are.
    private static func when(in row: Row) throws -> When {
        let start = try day(in: row, column: CodingKeys.startDate.rawValue)
        let someday: Bool = try row.decode(forColumn: CodingKeys.someday.rawValue)
        let evening: Bool = try row.decode(forColumn: CodingKeys.evening.rawValue)
        return When(startDate: start, someday: someday, evening: evening)
    }

    /// The day of `column`, `YYYY-MM-DD`, or `nil` for `NULL`.
    private static func day(in row: Row, column: String) throws -> Day? {
        guard let text = try row.decode(String?.self, forColumn: column) else { return nil }
        guard let day = try? Day(parsing: text) else { throw RowDecodingError(table: databaseTableName, row: row.description) }
        return day
    }

    enum CodingKeys: String, CodingKey {
        case id
        case name
        case createdAt = "created_at"
        case sortIndex = "sort_index"
        case areaID = "area_id"
        case completedAt = "completed_at"
        case isCanceled = "canceled"
        case tags = "tag_ids"
        case trashedAt = "trashed_at"
        case startDate = "start_date"
        case someday
        case evening
        case deadline
        case notes
    }

    /// Writes every column, `completed_at`, `trashed_at`, `start_date` and `deadline` as NULL
    /// when unset: an update of a list reopened, put back or unscheduled must clear them, which
    /// a column left out would not.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(sortIndex, forKey: .sortIndex)
        try container.encode(areaID, forKey: .areaID)
        try container.encode(completedAt, forKey: .completedAt)
        try container.encode(isCanceled, forKey: .isCanceled)
        try container.encode(TagIDs.text(tags), forKey: .tags)
        try container.encode(trashedAt, forKey: .trashedAt)
        try container.encode(when.startDate?.description, forKey: .startDate)
        try container.encode(when.isSomeday, forKey: .someday)
        try container.encode(when.isEvening, forKey: .evening)
        try container.encode(deadline?.description, forKey: .deadline)
        try container.encode(notes, forKey: .notes)
    }
}

extension ListRecord {
    /// The row that stores `list`.
    init(_ list: ItemList) {
        self.init(
            id: list.id, name: list.name, createdAt: list.createdAt, sortIndex: list.sortIndex, areaID: list.area, completedAt: list.completedAt,
            isCanceled: list.isCanceled, tags: list.tags, trashedAt: list.trashedAt, when: list.when, deadline: list.deadline, notes: list.notes)
    }

    /// The row as it reads back once written: its dates through the stored number of seconds.
    var stored: ListRecord {
        let stored = { (date: Date) in Date(timeIntervalSince1970: date.timeIntervalSince1970) }
        return ListRecord(
            id: id, name: name, createdAt: stored(createdAt), sortIndex: sortIndex, areaID: areaID, completedAt: completedAt.map(stored), isCanceled: isCanceled,
            tags: tags, trashedAt: trashedAt.map(stored), when: when, deadline: deadline, notes: notes)
    }

    /// The list this row stores.
    var list: ItemList {
        ItemList(
            id: id, name: name, createdAt: createdAt, sortIndex: sortIndex, area: areaID, completedAt: completedAt, isCanceled: isCanceled, tags: tags,
            trashedAt: trashedAt, when: when, deadline: deadline, notes: notes)
    }

    /// Every list in the sidebar's order: those in no area, then each area's in the order of
    /// the areas; within each, by key. Its columns are read by position
    /// (``init(sqliteStatement:)``).
    static let sidebarOrderSQL = """
        SELECT lists.id, lists.name, lists.created_at, lists.sort_index, lists.area_id, lists.completed_at, lists.canceled, lists.tag_ids, \
        lists.trashed_at, lists.start_date, lists.someday, lists.evening, lists.deadline, lists.notes \
        FROM lists LEFT JOIN areas ON areas.id = lists.area_id \
        ORDER BY lists.area_id IS NOT NULL, areas.sort_index, areas.id, lists.sort_index, lists.id
        """

    /// Reads a row selected as ``sidebarOrderSQL`` selects it straight from the statement that
    /// stands on it, by position, as ``ItemRecord`` reads an item: Today's order reads every
    /// list for the sidebar's order, every time.
    ///
    /// - Throws: ``RowDecodingError`` when an id is not a UUID.
    init(sqliteStatement statement: SQLiteStatement) throws {
        let hasArea = sqlite3_column_type(statement, 4) != SQLITE_NULL
        guard let id = ItemList.ID(sqliteStatement: statement, index: 0),
              case let area = hasArea ? Area.ID(sqliteStatement: statement, index: 4) : nil, area != nil || !hasArea
        else {
            throw RowDecodingError(table: Self.databaseTableName, sqliteStatement: statement)
        }
        self.init(
            id: id, name: String(sqliteStatement: statement, index: 1),
            createdAt: Date(timeIntervalSince1970: sqlite3_column_double(statement, 2)), sortIndex: sqlite3_column_int64(statement, 3), areaID: area,
            completedAt: sqlite3_column_type(statement, 5) == SQLITE_NULL ? nil : Date(timeIntervalSince1970: sqlite3_column_double(statement, 5)),
            isCanceled: sqlite3_column_int64(statement, 6) != 0, tags: try TagIDs.tags(statement, 7, table: Self.databaseTableName),
            trashedAt: sqlite3_column_type(statement, 8) == SQLITE_NULL ? nil : Date(timeIntervalSince1970: sqlite3_column_double(statement, 8)),
            when: try ItemRecord.when(statement, 9), deadline: try ItemRecord.day(statement, 12), notes: String(sqliteStatement: statement, index: 13))
    }
}

/// What Today's order reads of a row of `items` (``DatedStanding``), all of it in the indexes
/// of the start dates and the deadlines (v19).
enum DatedStandingRecord {
    /// The columns read, in this order.
    static let selection = "id, list_id, heading_id, sort_index, start_date, someday, evening, deadline, deadline_dismissed, today_index, "
        + "today_added, today_added_evening, today_removed"

    /// Reads a row selected as ``selection`` from the statement that stands on it.
    ///
    /// - Throws: ``RowDecodingError`` when an id is not a UUID or a day is not `YYYY-MM-DD`.
    static func standing(sqliteStatement statement: SQLiteStatement) throws -> DatedStanding {
        guard let id = Item.ID(sqliteStatement: statement, index: 0), let list = ItemList.ID(sqliteStatement: statement, index: 1) else {
            throw RowDecodingError(table: ItemRecord.databaseTableName, sqliteStatement: statement)
        }
        let deadline = try ItemRecord.day(statement, 7)
        return DatedStanding(
            id: id,
            standing: ItemStanding(
                list: list, heading: try ItemRecord.heading(statement, 2),
                key: OrderKey(sortIndex: sqlite3_column_int64(statement, 3), id: id.entryID)),
            when: try ItemRecord.when(statement, 4), deadline: deadline,
            deadlineDismissed: ItemRecord.deadlineDismissed(statement, 8, deadline: deadline), todayIndex: ItemRecord.integer(statement, 9),
            todayMark: try ItemRecord.todayMark(statement, 10))
    }
}

/// A row of the `areas` table (from v15).
struct AreaRecord: Hashable {
    var id: Area.ID
    var name: String
    var createdAt: Date
    var sortIndex: Int64
    var tags: Set<Tag.ID> = []
}

extension AreaRecord: Encodable, FetchableRecord, PersistableRecord, UnixTimeDates {
    static let databaseTableName = "areas"

    /// Reads a row by its columns' names, by hand as ``ListRecord`` does.
    ///
    /// - Throws: `RowDecodingError` when a column is missing or holds a value of another type.
    init(row: Row) throws {
        self.init(
            id: try row.decode(forColumn: CodingKeys.id.rawValue),
            name: try row.decode(forColumn: CodingKeys.name.rawValue),
            createdAt: Date(timeIntervalSince1970: try row.decode(forColumn: CodingKeys.createdAt.rawValue)),
            sortIndex: try row.decode(forColumn: CodingKeys.sortIndex.rawValue),
            tags: try TagIDs.tags(in: row, table: Self.databaseTableName))
    }

    enum CodingKeys: String, CodingKey {
        case id
        case name
        case createdAt = "created_at"
        case sortIndex = "sort_index"
        case tags = "tag_ids"
    }

    /// Writes every column, `tag_ids` as NULL for an area without tags.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(sortIndex, forKey: .sortIndex)
        try container.encode(TagIDs.text(tags), forKey: .tags)
    }

    /// The row that stores `area`.
    init(_ area: Area) {
        self.init(id: area.id, name: area.name, createdAt: area.createdAt, sortIndex: area.sortIndex, tags: area.tags)
    }

    /// The area this row stores, its date through the stored number of seconds.
    var area: Area {
        Area(id: id, name: name, createdAt: Date(timeIntervalSince1970: createdAt.timeIntervalSince1970), sortIndex: sortIndex, tags: tags)
    }

    /// Every area, in order.
    static let orderSQL = "SELECT * FROM areas ORDER BY sort_index, id"
}

/// A row of the `headings` table (from v16).
struct HeadingRecord: Hashable {
    var id: Heading.ID
    var listID: ItemList.ID
    var title: String
    var createdAt: Date
    var sortIndex: Int64
    var trashedAt: Date?
}

extension HeadingRecord: Encodable, FetchableRecord, PersistableRecord, UnixTimeDates {
    static let databaseTableName = "headings"

    /// Reads a row by its columns' names, by hand as ``ListRecord`` does.
    ///
    /// - Throws: `RowDecodingError` when a column is missing or holds a value of another type.
    init(row: Row) throws {
        self.init(
            id: try row.decode(forColumn: CodingKeys.id.rawValue),
            listID: try row.decode(forColumn: CodingKeys.listID.rawValue),
            title: try row.decode(forColumn: CodingKeys.title.rawValue),
            createdAt: Date(timeIntervalSince1970: try row.decode(forColumn: CodingKeys.createdAt.rawValue)),
            sortIndex: try row.decode(forColumn: CodingKeys.sortIndex.rawValue),
            trashedAt: (try row.decode(Double?.self, forColumn: CodingKeys.trashedAt.rawValue)).map(Date.init(timeIntervalSince1970:)))
    }

    enum CodingKeys: String, CodingKey {
        case id
        case listID = "list_id"
        case title
        case createdAt = "created_at"
        case sortIndex = "sort_index"
        case trashedAt = "trashed_at"
    }

    /// Writes every column, `trashed_at` as NULL when unset: an update of a heading put back
    /// must clear it, which a column left out would not.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(listID, forKey: .listID)
        try container.encode(title, forKey: .title)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(sortIndex, forKey: .sortIndex)
        try container.encode(trashedAt, forKey: .trashedAt)
    }

    /// The row that stores `heading`.
    init(_ heading: Heading) {
        self.init(
            id: heading.id, listID: heading.listID, title: heading.title, createdAt: heading.createdAt, sortIndex: heading.sortIndex,
            trashedAt: heading.trashedAt)
    }

    /// The heading this row stores, its dates through the stored number of seconds.
    var heading: Heading {
        let stored = { (date: Date) in Date(timeIntervalSince1970: date.timeIntervalSince1970) }
        return Heading(id: id, listID: listID, title: title, createdAt: stored(createdAt), sortIndex: sortIndex, trashedAt: trashedAt.map(stored))
    }

    /// The headings of a list, in order.
    static let ofListSQL = "SELECT * FROM headings WHERE list_id = ? ORDER BY sort_index, id"
    /// The headings in the Trash themselves, the most recently trashed first.
    static let trashedSQL = "SELECT * FROM headings WHERE trashed_at IS NOT NULL ORDER BY trashed_at DESC, id"
}

/// A row of the `items` table.
struct ItemRecord: Hashable {
    var id: Item.ID
    var listID: ItemList.ID
    var title: String
    var notes: String
    var sortIndex: Int64
    var createdAt: Date
    var updatedAt: Date
    var completedAt: Date?
    var todayIndex: Int64?
    var heading: Heading.ID?
    var when: When = .anytime
    var deadline: Day?
    var deadlineDismissed = false
    var isCanceled = false
    var tags: Set<Tag.ID> = []
    var trashedAt: Date?
    var reminder: TimeOfDay?
    var series: Series.ID?
    var todayMark: TodayMark?
}

// Not a GRDB record: GRDB's persistence keys rows by the table's primary key, which is
// `(list_id, heading_id, sort_index, id)` since v16, so an update that moves an item would miss its row,
// and its decoding goes through a `Row` that maps column names. Rows are read by position
// (``item(sqliteStatement:knownList:)``) and written by id (``insertRow(_:)``,
// ``updateRow(_:changedFrom:)``).
extension ItemRecord {
    static let databaseTableName = "items"

    /// The columns of the table, in the order every query of an item selects them.
    enum CodingKeys: String, CaseIterable {
        case id
        case listID = "list_id"
        case title
        case notes
        case sortIndex = "sort_index"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case completedAt = "completed_at"
        case todayIndex = "today_index"
        case heading = "heading_id"
        case startDate = "start_date"
        case someday
        case evening
        case deadline
        case deadlineDismissed = "deadline_dismissed"
        case isCanceled = "canceled"
        case tags = "tag_ids"
        case trashedAt = "trashed_at"
        case reminder
        case series = "series_id"
        case todayAdded = "today_added"
        case todayAddedEvening = "today_added_evening"
        case todayRemoved = "today_removed"
    }

    /// What `heading_id` holds for an item under no heading: a column of the primary key
    /// cannot be `NULL` in a table without row ids.
    static let noHeading = ""

    /// The value of `heading_id` for an item under `heading`, or under none.
    static func headingArgument(_ heading: Heading.ID?) -> SQLiteArgument {
        heading.map { .id($0) } ?? .value(noHeading.databaseValue)
    }

    /// The columns every query of an item selects, in the order of ``CodingKeys``:
    /// `id, list_id, title, …`. Rows are read by these positions.
    static let selection = selection(fixing: [:])

    /// ``selection`` with the columns of `fixed` replaced by their values (SQL): the columns a
    /// query's condition fixes, such as the list and the heading of a page of a list, are then
    /// not read from every row. Rows are read by the same positions.
    static func selection(fixing fixed: [CodingKeys: String]) -> String {
        CodingKeys.allCases.map { fixed[$0] ?? $0.rawValue }.joined(separator: ", ")
    }

    /// ``selection`` with each column named with `table`, for a query that joins another table.
    static func selection(of table: String) -> String {
        CodingKeys.allCases.map { "\(table).\($0.rawValue)" }.joined(separator: ", ")
    }

    /// Reads the item of a row selected as ``selection`` straight from the statement that
    /// stands on it, by position: no `Row`, no `Decodable`, no lookup of columns by name, and
    /// no record in between. Every read of an item comes here, and a page of 50 items should
    /// cost little more than one write.
    ///
    /// - Parameters:
    ///   - statement: A statement that has just stepped onto a row.
    ///   - knownList: The list of every row, when the query picked its rows by list: its id
    ///     is then not parsed again on every row.
    /// - Throws: ``RowDecodingError`` when the row has other columns or an id is not a UUID.
    static func item(sqliteStatement statement: SQLiteStatement, knownList: ItemList.ID? = nil) throws -> Item {
        guard sqlite3_column_count(statement) == CodingKeys.allCases.count,
              let id = Item.ID(sqliteStatement: statement, index: 0),
              let listID = knownList ?? ItemList.ID(sqliteStatement: statement, index: 1)
        else {
            throw RowDecodingError(table: Self.databaseTableName, sqliteStatement: statement)
        }
        let date = { (index: CInt) in Date(timeIntervalSince1970: sqlite3_column_double(statement, index)) }
        let deadline = try Self.day(statement, 13)
        return Item(
            id: id, listID: listID, title: text(statement, 2), notes: text(statement, 3),
            sortIndex: sqlite3_column_int64(statement, 4), createdAt: date(5), updatedAt: date(6),
            completedAt: Self.isNull(statement, 7) ? nil : date(7), todayIndex: Self.integer(statement, 8),
            heading: try Self.heading(statement, 9), when: try Self.when(statement, 10),
            deadline: deadline, deadlineDismissed: Self.deadlineDismissed(statement, 14, deadline: deadline),
            isCanceled: sqlite3_column_int64(statement, 15) != 0 && !Self.isNull(statement, 7),
            tags: try TagIDs.tags(statement, 16, table: Self.databaseTableName), trashedAt: Self.isNull(statement, 17) ? nil : date(17),
            reminder: try Self.reminder(statement, 18),
            series: try Self.series(statement, 19), todayMark: try Self.todayMark(statement, 20))
    }

    /// The text of column `index`, which is not `NULL`. An empty text (most notes are) is
    /// known from its length, without asking SQLite for the text itself.
    private static func text(_ statement: SQLiteStatement, _ index: CInt) -> String {
        let count = Int(sqlite3_column_bytes(statement, index))
        guard count > 0, let text = sqlite3_column_text(statement, index) else { return "" }
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    private static func isNull(_ statement: SQLiteStatement, _ index: CInt) -> Bool {
        sqlite3_column_type(statement, index) == SQLITE_NULL
    }

    /// The integer of column `index`, or `nil` for `NULL`.
    static func integer(_ statement: SQLiteStatement, _ index: CInt) -> Int64? {
        isNull(statement, index) ? nil : sqlite3_column_int64(statement, index)
    }

    /// The heading of column `index` of `heading_id`, which holds ``noHeading`` for none.
    static func heading(_ statement: SQLiteStatement, _ index: CInt) throws -> Heading.ID? {
        guard sqlite3_column_bytes(statement, index) > 0 else { return nil }
        guard let id = Heading.ID(sqliteStatement: statement, index: index) else { throw RowDecodingError(table: databaseTableName, sqliteStatement: statement) }
        return id
    }

    /// The day of column `index`, `YYYY-MM-DD`, or `nil` for `NULL`.
    static func day(_ statement: SQLiteStatement, _ index: CInt) throws -> Day? {
        guard let text = sqlite3_column_text(statement, index) else { return nil }
        guard let day = Day(utf8: UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index)))) else {
            throw RowDecodingError(table: databaseTableName, sqliteStatement: statement)
        }
        return day
    }

    /// When the item starts, from column `index` of `start_date` and the two after it,
    /// `someday` and `evening`: `evening` counts only with a start date, `someday` only
    /// without, so one of them is read.
    static func when(_ statement: SQLiteStatement, _ index: CInt) throws -> When {
        let start = try day(statement, index)
        return When(
            startDate: start, someday: start == nil && sqlite3_column_int64(statement, index + 1) != 0,
            evening: start != nil && sqlite3_column_int64(statement, index + 2) != 0)
    }

    /// Whether a deadline is dismissed, from column `index` of `deadline_dismissed`, which
    /// counts only with a deadline.
    /// The reminder of column `index`, `HH:MM`, or `nil` for `NULL`.
    static func reminder(_ statement: SQLiteStatement, _ index: CInt) throws -> TimeOfDay? {
        guard let text = sqlite3_column_text(statement, index) else { return nil }
        let written = String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index))), as: UTF8.self)
        guard let time = try? TimeOfDay(parsing: written) else { throw RowDecodingError(table: databaseTableName, sqliteStatement: statement) }
        return time
    }

    /// The series of column `index`, or `nil` for `NULL`.
    static func series(_ statement: SQLiteStatement, _ index: CInt) throws -> Series.ID? {
        guard !isNull(statement, index) else { return nil }
        guard let id = Series.ID(sqliteStatement: statement, index: index) else { throw RowDecodingError(table: databaseTableName, sqliteStatement: statement) }
        return id
    }

    /// The person's mark in Today, from column `index` of `today_added` and the two after it,
    /// `today_added_evening` and `today_removed`: a day added, perhaps in its evening, or a day
    /// removed; `nil` for neither.
    static func todayMark(_ statement: SQLiteStatement, _ index: CInt) throws -> TodayMark? {
        if let added = try day(statement, index) { return .added(added, evening: sqlite3_column_int64(statement, index + 1) != 0) }
        return try day(statement, index + 2).map(TodayMark.removed)
    }

    static func deadlineDismissed(_ statement: SQLiteStatement, _ index: CInt, deadline: Day?) -> Bool {
        deadline != nil && sqlite3_column_int64(statement, index) != 0
    }

    /// The row that stores `item`.
    init(_ item: Item) {
        self.init(
            id: item.id, listID: item.listID, title: item.title, notes: item.notes, sortIndex: item.sortIndex,
            createdAt: item.createdAt, updatedAt: item.updatedAt, completedAt: item.completedAt, todayIndex: item.todayIndex,
            heading: item.heading, when: item.when, deadline: item.deadline, deadlineDismissed: item.deadlineDismissed,
            isCanceled: item.isCanceled, tags: item.tags, trashedAt: item.trashedAt, reminder: item.reminder, series: item.series,
            todayMark: item.todayMark)
    }

    /// The item this row stores.
    var item: Item {
        Item(
            id: id, listID: listID, title: title, notes: notes, sortIndex: sortIndex,
            createdAt: createdAt, updatedAt: updatedAt, completedAt: completedAt, todayIndex: todayIndex, heading: heading,
            when: when, deadline: deadline, deadlineDismissed: deadlineDismissed, isCanceled: isCanceled, tags: tags, trashedAt: trashedAt,
            reminder: reminder, series: series, todayMark: todayMark)
    }

    /// The row as it reads back once written: each date through its stored number of seconds,
    /// which may differ from the `Date` in its last bits.
    var stored: ItemRecord {
        let stored = { (date: Date) in Date(timeIntervalSince1970: date.timeIntervalSince1970) }
        return ItemRecord(
            id: id, listID: listID, title: title, notes: notes, sortIndex: sortIndex,
            createdAt: stored(createdAt), updatedAt: stored(updatedAt), completedAt: completedAt.map(stored), todayIndex: todayIndex,
            heading: heading, when: when, deadline: deadline, deadlineDismissed: deadlineDismissed, isCanceled: isCanceled, tags: tags,
            trashedAt: trashedAt.map(stored), reminder: reminder, series: series, todayMark: todayMark)
    }
}

extension ItemRecord {
    /// Inserts the row with one cached statement.
    ///
    /// GRDB's generic persistence would run the same SQL, but takes three times as long in a
    /// debug build; a bulk insert (an import, the tests' list of 100,000 items) runs this once
    /// an item.
    func insertRow(_ db: Database) throws {
        try db.cachedStatement(sql: Self.insertSQL).execute(binding: CodingKeys.allCases.map(argument(for:)))
    }

    /// Saves the columns that differ from `original`, the same item's row as it is stored, or
    /// every column without one, from a statement cached for that set of columns. Writes
    /// nothing when no column differs.
    ///
    /// - Throws: `RecordError.recordNotFound` when no row has the id.
    func updateRow(_ db: Database, changedFrom original: ItemRecord? = nil) throws {
        var columns = 0
        var values: [SQLiteArgument] = []
        for (bit, column) in Self.valueColumns.enumerated() where original.map({ !hasSameValue(in: column, as: $0) }) ?? true {
            columns |= 1 << bit
            values.append(argument(for: column))
        }
        guard columns != 0 else { return }
        values.append(.id(id))
        try db.cachedStatement(sql: Self.updateSQL(columns)).execute(binding: values)
        guard db.changesCount == 1 else { throw RecordError.recordNotFound(databaseTableName: Self.databaseTableName, key: ["id": id.text.databaseValue]) }
    }

    /// Every column but the id, in ``CodingKeys`` order: the columns an update may write.
    private static let valueColumns = CodingKeys.allCases.filter { $0 != .id }

    /// `UPDATE items SET list_id = ?, … WHERE id = ?` for the set of ``valueColumns`` whose bit
    /// `i` stands for `valueColumns[i]`. The text depends only on the set, so each set is made
    /// once per process (``updateSQLBySet``) and prepared once per connection.
    private static func updateSQL(_ columns: Int) -> String {
        updateSQLBySet.withLock { made in
            if let sql = made[columns] { return sql }
            let assignments = valueColumns.enumerated().filter { columns & (1 << $0.offset) != 0 }.map { "\($0.element.rawValue) = ?" }
            let sql = "UPDATE \(databaseTableName) SET \(assignments.joined(separator: ", ")) WHERE id = ?"
            made[columns] = sql
            return sql
        }
    }

    /// The text of ``updateSQL(_:)`` for each set of columns made so far: a few of the 2^17
    /// sets are ever written.
    private static let updateSQLBySet = Locked<[Int: String]>([:])

    /// `INSERT INTO items (id, list_id, …) VALUES (?, ?, …)`, from the coding keys.
    private static let insertSQL: String = {
        let columns = CodingKeys.allCases.map(\.rawValue)
        return "INSERT INTO \(databaseTableName) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
    }()

    /// The value the row stores in `column`, dates as ``UnixTimeDates`` stores them.
    private func argument(for column: CodingKeys) -> SQLiteArgument {
        switch column {
        case .id: .id(id)
        case .listID: .id(listID)
        case .title: .value(title.databaseValue)
        case .notes: .value(notes.databaseValue)
        case .sortIndex: .integer(sortIndex)
        case .createdAt: .real(createdAt.timeIntervalSince1970)
        case .updatedAt: .real(updatedAt.timeIntervalSince1970)
        case .completedAt: completedAt.map { .real($0.timeIntervalSince1970) } ?? .value(.null)
        case .todayIndex: todayIndex.map { .integer($0) } ?? .value(.null)
        case .heading: Self.headingArgument(heading)
        case .startDate: when.startDate.map { .value($0.description.databaseValue) } ?? .value(.null)
        case .someday: .integer(when.isSomeday ? 1 : 0)
        case .evening: .integer(when.isEvening ? 1 : 0)
        case .deadline: deadline.map { .value($0.description.databaseValue) } ?? .value(.null)
        case .deadlineDismissed: .integer(deadlineDismissed ? 1 : 0)
        case .isCanceled: .integer(isCanceled ? 1 : 0)
        case .tags: TagIDs.text(tags).map { .value($0.databaseValue) } ?? .value(.null)
        case .trashedAt: trashedAt.map { .real($0.timeIntervalSince1970) } ?? .value(.null)
        case .reminder: reminder.map { .value($0.description.databaseValue) } ?? .value(.null)
        case .series: series.map { .id($0) } ?? .value(.null)
        case .todayAdded: if case .added(let day, _) = todayMark { .value(day.description.databaseValue) } else { .value(.null) }
        case .todayAddedEvening: if case .added(_, true) = todayMark { .integer(1) } else { .integer(0) }
        case .todayRemoved: if case .removed(let day) = todayMark { .value(day.description.databaseValue) } else { .value(.null) }
        }
    }

    /// Whether this row and `original` store the same value in `column`.
    private func hasSameValue(in column: CodingKeys, as original: ItemRecord) -> Bool {
        switch column {
        case .id: id == original.id
        case .listID: listID == original.listID
        case .title: title == original.title
        case .notes: notes == original.notes
        case .sortIndex: sortIndex == original.sortIndex
        case .createdAt: createdAt.timeIntervalSince1970 == original.createdAt.timeIntervalSince1970
        case .updatedAt: updatedAt.timeIntervalSince1970 == original.updatedAt.timeIntervalSince1970
        case .completedAt: completedAt?.timeIntervalSince1970 == original.completedAt?.timeIntervalSince1970
        case .todayIndex: todayIndex == original.todayIndex
        case .heading: heading == original.heading
        case .startDate: when.startDate == original.when.startDate
        case .someday: when.isSomeday == original.when.isSomeday
        case .evening: when.isEvening == original.when.isEvening
        case .deadline: deadline == original.deadline
        case .deadlineDismissed: deadlineDismissed == original.deadlineDismissed
        case .isCanceled: isCanceled == original.isCanceled
        case .tags: tags == original.tags
        case .trashedAt: trashedAt?.timeIntervalSince1970 == original.trashedAt?.timeIntervalSince1970
        case .reminder: reminder == original.reminder
        case .series: series == original.series
        case .todayAdded, .todayAddedEvening, .todayRemoved: todayMark == original.todayMark
        }
    }
}

/// The form of a `tag_ids` column (from v26): the ids of the tags set on a row, by id, as a JSON
/// array of strings (`["0f…","3a…"]`), which the triggers of `tagged_items` read with
/// `json_each`; `NULL` for none.
enum TagIDs {
    /// The column's text for `tags`, or `nil` (`NULL`) for none.
    static func text(_ tags: Set<Tag.ID>) -> String? {
        tags.isEmpty ? nil : "[" + tags.sorted().map { "\"\($0.text)\"" }.joined(separator: ",") + "]"
    }

    /// The tags of column `index`, a `tag_ids` column, of the row `statement` stands on; none for `NULL`.
    ///
    /// - Throws: ``RowDecodingError`` when it is not the form ``text(_:)`` writes.
    static func tags(_ statement: SQLiteStatement, _ index: CInt, table: String) throws -> Set<Tag.ID> {
        guard let text = sqlite3_column_text(statement, index) else { return [] }
        guard let tags = tags(utf8: UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, index)))) else {
            throw RowDecodingError(table: table, sqliteStatement: statement)
        }
        return tags
    }

    /// The tags of a row's `tag_ids` column, read by name.
    ///
    /// - Throws: `RowDecodingError` when the column is missing or not the form ``text(_:)`` writes.
    static func tags(in row: Row, table: String) throws -> Set<Tag.ID> {
        guard let text: String = try row.decode(forColumn: "tag_ids") else { return [] }
        guard let tags = tags(text) else { throw RowDecodingError(table: table, row: row.description) }
        return tags
    }

    /// The tags of a column's text, or `nil` when it is not the form ``text(_:)`` writes.
    static func tags(_ text: String) -> Set<Tag.ID>? {
        var text = text
        return text.withUTF8 { tags(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// The tags of a column's text as its UTF-8 bytes, read in place: `[`, then each id in
    /// quotes, 38 bytes, with a comma between, then `]`; `nil` for anything else. Items that
    /// carry tags pay this on every read, so no `String` is made of the text.
    static func tags(utf8 bytes: UnsafeRawBufferPointer) -> Set<Tag.ID>? {
        let quote = UInt8(ascii: "\""), quoted = 38
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "["), bytes.last == UInt8(ascii: "]") else { return nil }
        var tags = Set<Tag.ID>()
        var start = 1
        while start < bytes.count - 1 {
            let end = start + quoted
            guard end <= bytes.count - 1, bytes[start] == quote, bytes[end - 1] == quote,
                  let tag = Tag.ID(utf8: UnsafeRawBufferPointer(rebasing: bytes[(start + 1)..<(end - 1)]))
            else { return nil }
            tags.insert(tag)
            guard end < bytes.count - 1 else { break }
            guard bytes[end] == UInt8(ascii: ",") else { return nil }
            start = end + 1
        }
        return tags
    }
}

/// A row whose values do not fit its record: an id that is not a UUID, say.
struct RowDecodingError: Error, CustomStringConvertible {
    var table: String
    var row: String

    var description: String { "a row of \(table) holds a value of the wrong form: \(row)" }
}

/// A row of the `checklist_items` table (from v14), read by position and written by id, as
/// items are: its primary key is `(item_id, sort_index, id)`, so the rows of a checklist sit
/// together in their order.
struct ChecklistItemRecord {
    static let databaseTableName = "checklist_items"

    /// The columns every query of an entry selects, in this order.
    static let selection = "id, item_id, title, sort_index, completed_at, canceled"

    /// An entry by id.
    static let byIDSQL = "SELECT \(selection) FROM \(databaseTableName) WHERE id = ?"
    /// An item's checklist, in order.
    static let ofItemSQL = "SELECT \(selection) FROM \(databaseTableName) WHERE item_id = ? ORDER BY sort_index, id"
    /// The checklists of the items whose ids a JSON array holds, item by item, each in order.
    static let ofItemsSQL = "SELECT \(selection) FROM \(databaseTableName) WHERE item_id IN (SELECT value FROM json_each(?)) ORDER BY item_id, sort_index, id"
    /// A row if the table has any.
    static let anySQL = "SELECT 1 FROM \(databaseTableName) LIMIT 1"
    static let insertSQL = "INSERT INTO \(databaseTableName) (\(selection)) VALUES (?, ?, ?, ?, ?, ?)"
    static let updateSQL = "UPDATE \(databaseTableName) SET item_id = ?, title = ?, sort_index = ?, completed_at = ?, canceled = ? WHERE id = ?"
    static let deleteSQL = "DELETE FROM \(databaseTableName) WHERE id = ?"

    /// Reads an entry selected as ``selection`` from the statement that stands on its row.
    ///
    /// - Throws: ``RowDecodingError`` when the row has other columns or an id is not a UUID.
    static func entry(sqliteStatement statement: SQLiteStatement) throws -> ChecklistItem {
        guard sqlite3_column_count(statement) == 6,
              let id = ChecklistItem.ID(sqliteStatement: statement, index: 0),
              let item = Item.ID(sqliteStatement: statement, index: 1)
        else {
            throw RowDecodingError(table: databaseTableName, sqliteStatement: statement)
        }
        let isCompleted = sqlite3_column_type(statement, 4) != SQLITE_NULL
        return ChecklistItem(
            id: id, itemID: item, title: String(sqliteStatement: statement, index: 2), sortIndex: sqlite3_column_int64(statement, 3),
            completedAt: isCompleted ? Date(timeIntervalSince1970: sqlite3_column_double(statement, 4)) : nil,
            isCanceled: isCompleted && sqlite3_column_int64(statement, 5) != 0)
    }

    /// The values of an entry's columns, in the order of ``updateSQL``: every column but the id, then the id.
    static func updateArguments(_ entry: ChecklistItem) -> [SQLiteArgument] {
        [.id(entry.itemID), .value(entry.title.databaseValue), .integer(entry.sortIndex), completedAt(entry), .integer(entry.isCanceled ? 1 : 0), .id(entry.id)]
    }

    /// The values of an entry's columns, in the order of ``selection``.
    static func insertArguments(_ entry: ChecklistItem) -> [SQLiteArgument] {
        [.id(entry.id), .id(entry.itemID), .value(entry.title.databaseValue), .integer(entry.sortIndex), completedAt(entry), .integer(entry.isCanceled ? 1 : 0)]
    }

    private static func completedAt(_ entry: ChecklistItem) -> SQLiteArgument {
        entry.completedAt.map { .real($0.timeIntervalSince1970) } ?? .value(.null)
    }
}
