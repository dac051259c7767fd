import GRDB

/// The database schema of a ``SQLiteItemRepository``, built by named migrations.
///
/// Migrations are append-only: once released, a migration is never edited, renamed or
/// removed; a change to the schema is a new migration at the end of the list.
enum Schema {
    /// The name of the index that orders the items of each list.
    static let itemOrderIndex = "items_by_list_order"
    /// The name of the table that holds the default list's id, in its one row.
    static let defaultListTable = "default_list"
    /// The name of the index that orders the lists.
    static let listOrderIndex = "lists_by_order"
    /// The name of the partial index that orders the items in Today.
    static let todayOrderIndex = "items_in_today_order"

    /// Every migration, oldest first.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: lists and items") { db in
            try db.create(table: "lists") { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
                table.column("created_at", .real).notNull()
            }
            try db.create(table: "items") { table in
                table.primaryKey("id", .text)
                table.column("list_id", .text).notNull().references("lists", onDelete: .cascade)
                table.column("title", .text).notNull()
                table.column("notes", .text).notNull().defaults(to: "")
                table.column("sort_index", .integer).notNull()
                table.column("created_at", .real).notNull()
                table.column("updated_at", .real).notNull()
                table.column("completed_at", .real)
            }
            // Serves the pages, counts and windows of a list, the `id` tie-break included,
            // and the cascade from `lists`.
            try db.create(index: itemOrderIndex, on: "items", columns: ["list_id", "sort_index", "id"])
        }
        migrator.registerMigration("v2: the default list") { db in
            // At most one row, whose `id` is 1; deleting the list deletes the row.
            try db.create(table: defaultListTable) { table in
                table.primaryKey("id", .integer).check { $0 == 1 }
                table.column("list_id", .text).notNull().references("lists", onDelete: .cascade)
            }
        }
        migrator.registerMigration("v3: the order of the lists, and Today") { db in
            try db.alter(table: "lists") { table in
                table.add(column: "sort_index", .integer).notNull().defaults(to: 0)
            }
            try spreadListsByCreation(db)
            try db.create(index: listOrderIndex, on: "lists", columns: ["sort_index", "id"])
            // NULL: not in Today. Only the items in Today are in the index.
            try db.alter(table: "items") { table in
                table.add(column: "today_index", .integer)
            }
            try db.create(index: todayOrderIndex, on: "items", columns: ["today_index", "id"], condition: Column("today_index") != nil)
        }
        return migrator
    }

    /// Gives the lists of a database from before v3 gapped keys in the order they were shown
    /// in then, oldest first: 2^32 apart (the default end gap), centred on 0.
    ///
    /// The numbers are part of the migration, which never changes: not the configuration of the day.
    private static func spreadListsByCreation(_ db: Database) throws {
        let ids = try String.fetchAll(db, sql: "SELECT id FROM lists ORDER BY created_at, id")
        let step = min(Int128(1) << 32, (Int128(Int64.max) - Int128(Int64.min)) / Int128(ids.count + 1))
        let first = -step * Int128(ids.count - 1) / 2
        for (index, id) in ids.enumerated() {
            try db.execute(sql: "UPDATE lists SET sort_index = ? WHERE id = ?", arguments: [Int64(first + step * Int128(index)), id])
        }
    }
}
