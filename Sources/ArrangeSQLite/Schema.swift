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
        return migrator
    }
}
