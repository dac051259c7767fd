import ArrangeModel
import ArrangeStore
import Foundation
import GRDB
import GRDBSQLite

/// A row of the `tag_tree` table (from v25).
struct TagRecord: Hashable {
    var id: Tag.ID
    var name: String
    var parentID: Tag.ID?
    var sortIndex: Int64
    var shortcut: String?
    var createdAt: Date
}

extension TagRecord: Codable, FetchableRecord, PersistableRecord, UnixTimeDates {
    static let databaseTableName = "tag_tree"

    enum CodingKeys: String, CodingKey {
        case id
        case name
        case parentID = "parent_id"
        case sortIndex = "sort_index"
        case shortcut
        case createdAt = "created_at"
    }

    /// Writes every column, `parent_id` and `shortcut` as NULL when they are `nil`: an update
    /// of a tag moved to the top level, or whose shortcut is cleared, must clear them.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(parentID, forKey: .parentID)
        try container.encode(sortIndex, forKey: .sortIndex)
        try container.encode(shortcut, forKey: .shortcut)
        try container.encode(createdAt, forKey: .createdAt)
    }

    /// The row that stores `tag`.
    init(_ tag: Tag) {
        self.init(id: tag.id, name: tag.name, parentID: tag.parent, sortIndex: tag.sortIndex, shortcut: tag.shortcut, createdAt: tag.createdAt)
    }

    /// The columns read, in the order ``tag(sqliteStatement:)`` reads them.
    static let selection = "id, name, parent_id, sort_index, shortcut, created_at"

    /// Every tag, by parent and key: the groups of siblings, each in order.
    static let orderSQL = "SELECT \(selection) FROM tag_tree ORDER BY parent_id, sort_index, id"

    /// Reads a row selected as ``selection`` selects it, by position, as ``ItemRecord`` reads an
    /// item: a filter by tags reads every tag, each time.
    ///
    /// - Throws: ``RowDecodingError`` when an id is not a UUID.
    static func tag(sqliteStatement statement: SQLiteStatement) throws -> Tag {
        let hasParent = sqlite3_column_type(statement, 2) != SQLITE_NULL
        guard let id = Tag.ID(sqliteStatement: statement, index: 0),
              case let parent = hasParent ? Tag.ID(sqliteStatement: statement, index: 2) : nil, parent != nil || !hasParent
        else {
            throw RowDecodingError(table: databaseTableName, sqliteStatement: statement)
        }
        return Tag(
            id: id, name: String(sqliteStatement: statement, index: 1), parent: parent, sortIndex: sqlite3_column_int64(statement, 3),
            shortcut: sqlite3_column_type(statement, 4) == SQLITE_NULL ? nil : String(sqliteStatement: statement, index: 4),
            createdAt: Date(timeIntervalSince1970: sqlite3_column_double(statement, 5)))
    }
}

extension SQLiteTransaction {
    /// The tag with an id, or the tag it merged into.
    private static let tagWithIDSQL = """
        SELECT \(TagRecord.selection) FROM tag_tree WHERE id = COALESCE((SELECT tag_id FROM tag_merges WHERE id = ?1), ?1)
        """

    func tagMerges() throws -> [TagMerge] {
        try mapping {
            try Row.fetchAll(db.cachedStatement(sql: "SELECT id, tag_id FROM tag_merges ORDER BY id")).compactMap { row in
                guard let id = Tag.ID(row[0] as String), let tag = Tag.ID(row[1] as String) else { return nil }
                return TagMerge(id: id, into: tag)
            }
        }
    }

    func tags(_ request: TagRequest) throws -> [Tag] {
        switch request {
        case .all:
            let rows = try mapping { try Array(StatementRowCursor(db.cachedStatement(sql: TagRecord.orderSQL), binding: [], read: TagRecord.tag)) }
            // Depth first: each tag, then its children, each group in its order.
            let children = Dictionary(grouping: rows, by: \.parent)
            func subtree(of parent: Tag.ID?) -> [Tag] { (children[parent] ?? []).flatMap { [$0] + subtree(of: $0.id) } }
            return subtree(of: nil)
        case .withID(let id):
            return try mapping { try Array(StatementRowCursor(db.cachedStatement(sql: Self.tagWithIDSQL), binding: [.id(id)], read: TagRecord.tag)) }
        }
    }
}
