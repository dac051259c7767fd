import Foundation
import GRDB

/// The database schema of a ``SQLiteItemRepository``, built by named migrations.
///
/// Migrations are append-only: once released, a migration is never edited, renamed or
/// removed; a change to the schema is a new migration at the end of the list.
enum Schema {
    /// The name of the index that ordered the items of each list until v12, which stores the
    /// items themselves in that order.
    static let itemOrderIndex = "items_by_list_order"
    /// The name of the unique index of the items' ids (from v12).
    static let itemIDIndex = "items_by_id"
    /// The name of the table that holds the default list's id, in its one row.
    static let defaultListTable = "default_list"
    /// The name of the table of the device's settings, by key (from v31).
    static let settingsTable = "settings"
    static let listSharesTable = "list_shares"
    /// The name of the index that ordered the lists until v15, which orders them by area.
    static let listOrderIndex = "lists_by_order"
    /// The name of the index that orders the lists of each area, and those of none (from v15).
    static let listAreaOrderIndex = "lists_by_area_order"
    /// The name of the index that orders the areas (from v15).
    static let areaOrderIndex = "areas_by_order"
    /// The index of each list's headings in their order.
    static let headingOrderIndex = "headings_by_list_order"
    /// The name of the partial index that orders the items in Today.
    static let todayOrderIndex = "items_in_today_order"
    /// The names of the partial indexes of the open items by start date and by deadline not
    /// dismissed (from v18), which carry what Today's order reads of them (from v19).
    static let startDateIndex = "items_by_start_date"
    static let deadlineIndex = "items_by_deadline"
    /// The index of the items the person added to Today (v35).
    static let todayAddedIndex = "items_added_to_today"
    /// The name of the index of the reminders that can fire, by day and time (from v28).
    static let remindersIndex = "items_with_reminders"
    /// The name of the table of the completed items, the most recent first: the Logbook (from
    /// v13). Triggers on `items` keep it.
    static let completionsTable = "item_completions"
    /// The name of the unique index of the checklist entries' ids (from v14).
    static let checklistIDIndex = "checklist_items_by_id"

    /// The name of the one-row table that holds the database's replica id.
    static let replicaTable = "sync_replica"
    /// The name of the table of logged operations.
    static let operationsTable = "sync_operations"
    /// The name of the index that orders the logged operations in their total order.
    static let operationOrderIndex = "sync_operations_in_order"
    /// The name of the table of where entries were when they left an ordering.
    static let tombstonesTable = "sync_tombstones"
    /// The name of the table of how far this database had merged other replicas' logs, from v5
    /// until v9 moved it into `sync_remotes`.
    static let peersTable = "sync_peers"
    /// What a file keeps for each remote it syncs with (since v9, in place of `sync_peers`).
    static let remotesTable = "sync_remotes"
    /// The name of the partial index of the logged operations that replace others.
    static let replacementsIndex = "sync_operations_by_replaced"
    /// The name of the table of what each replica last said of itself.
    static let acknowledgementsTable = "sync_acknowledgements"
    /// The name of the one-row table of the operations folded away.
    static let foldTable = "sync_fold"
    /// The name of the table of how far this database holds each other replica's operations.
    static let replicasTable = "sync_replicas"
    /// The name of the table of the operations held back after a gap.
    static let heldOperationsTable = "sync_held_operations"
    /// The name of the partial index of the logged operations kept without being applied.
    static let unappliedIndex = "sync_operations_unapplied"
    /// The name of the table of who each operation folded away was.
    static let foldedOperationsTable = "sync_folded_operations"
    /// The name of the index of the operations folded away by replica and sequence number.
    static let foldedBySequenceIndex = "sync_folded_operations_by_sequence"
    /// The name of the partial index of the operations folded away that replaced others.
    static let foldedReplacementsIndex = "sync_folded_operations_by_replaced"

    /// Whether `identifier` names a migration of Arrange's, of this version or a newer one:
    /// `"v12: …"`, a `v`, digits and a colon.
    ///
    /// An app that keeps tables of its own in the file migrates them with a `DatabaseMigrator`
    /// of its own, which GRDB records in the same table as Arrange's; its identifiers have
    /// another form (`"app v1: tags"`), and they tell nothing of Arrange's version.
    static func isArrangeMigration(_ identifier: String) -> Bool {
        guard identifier.hasPrefix("v"), let colon = identifier.firstIndex(of: ":") else { return false }
        let digits = identifier.utf8[identifier.utf8.index(after: identifier.utf8.startIndex)..<colon]
        return !digits.isEmpty && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The migrations of a newer version of Arrange that the database has, sorted: those of
    /// Arrange's form (``isArrangeMigration(_:)``) that this version does not know. The app's
    /// own migrations are not among them.
    static func unknownMigrations(_ db: Database) throws -> [String] {
        let known = Set(migrator.migrations)
        return try migrator.appliedIdentifiers(db).filter { isArrangeMigration($0) && !known.contains($0) }.sorted()
    }

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
        migrator.registerMigration("v4: sync") { db in
            // At most one row, whose `id` is 1: this database's replica id, and the sequence
            // number and clock of the last operation it made.
            try db.create(table: replicaTable) { table in
                table.primaryKey("id", .integer).check { $0 == 1 }
                table.column("replica_id", .text).notNull()
                table.column("last_sequence", .integer).notNull().defaults(to: 0)
                table.column("last_clock_ms", .integer).notNull().defaults(to: 0)
                table.column("last_clock_counter", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: operationsTable) { table in
                // The order operations reached this file in; the cursors of `operations(after:)` count it.
                table.primaryKey("position", .integer)
                table.column("id", .text).notNull().unique()
                table.column("replica_id", .text).notNull()
                table.column("sequence", .integer).notNull()
                table.column("clock_ms", .integer).notNull()
                table.column("clock_counter", .integer).notNull()
                // JSON: what the operation does, in the form of the sync file.
                table.column("change", .text).notNull()
                // JSON: the rows as they were before the operation was applied, to rewind it.
                table.column("rewind", .text).notNull()
                // 1 once the merge has applied it; 0 while the keys are those its intent chose.
                table.column("is_replayed", .boolean).notNull()
            }
            try db.create(index: operationOrderIndex, on: operationsTable, columns: ["clock_ms", "clock_counter", "replica_id", "sequence", "id"])
            // Where an entry was when it left an ordering: `scope` is 'lists', 'today', or the
            // id of the list whose items it left.
            try db.create(table: tombstonesTable, options: .withoutRowID) { table in
                table.column("entry_id", .text).notNull()
                table.column("scope", .text).notNull()
                table.column("sort_index", .integer).notNull()
                table.primaryKey(["entry_id", "scope"])
            }
        }
        migrator.registerMigration("v5: sync peers") { db in
            // For each replica whose log this file merged from: the position there of the last
            // operation merged, and that operation's id, to check the position against.
            try db.create(table: peersTable, options: .withoutRowID) { table in
                table.primaryKey("peer_replica_id", .text)
                table.column("position", .integer).notNull()
                table.column("operation_id", .text).notNull()
            }
        }
        migrator.registerMigration("v6: sync compaction") { db in
            // The id of the operation a replacement stands in for; NULL for every other operation.
            try db.alter(table: operationsTable) { table in
                table.add(column: "replaces_id", .text)
            }
            try db.create(index: replacementsIndex, on: operationsTable, columns: ["replaces_id"], condition: Column("replaces_id") != nil)
            // What each replica said of itself when it last met another: its clock then, and as
            // JSON, the sequence number up to which it held each replica's operations.
            try db.create(table: acknowledgementsTable, options: .withoutRowID) { table in
                table.primaryKey("replica_id", .text)
                table.column("clock_ms", .integer).notNull()
                table.column("clock_counter", .integer).notNull()
                table.column("merged", .text).notNull()
            }
            // At most one row, whose `id` is 1: the last operation folded away, in the total
            // order; as JSON, the sequence number up to which each replica's operations are
            // folded; how many have been folded; and the highest position removed, which
            // later operations go past.
            try db.create(table: foldTable) { table in
                table.primaryKey("id", .integer).check { $0 == 1 }
                table.column("through_clock_ms", .integer).notNull()
                table.column("through_clock_counter", .integer).notNull()
                table.column("through_replica_id", .text).notNull()
                table.column("through_sequence", .integer).notNull()
                table.column("through_id", .text).notNull()
                table.column("covering", .text).notNull()
                table.column("count", .integer).notNull()
                table.column("last_position", .integer).notNull()
            }
        }
        migrator.registerMigration("v7: sync replicas and held operations") { db in
            // For each other replica: the sequence number up to which this database holds every
            // one of its operations, logged or folded away, and the clock of the latest it holds.
            try db.create(table: replicasTable, options: .withoutRowID) { table in
                table.primaryKey("replica_id", .text)
                table.column("sequence", .integer).notNull()
                table.column("clock_ms", .integer).notNull()
                table.column("clock_counter", .integer).notNull()
                // 1 once the replica was forgotten (a `retireReplica` operation).
                table.column("retired", .boolean).notNull().defaults(to: false)
            }
            // A log from before this migration was applied as it came, gaps and all: each
            // replica's highest sequence logged or folded stands for what is held.
            try db.execute(sql: """
                INSERT INTO \(replicasTable) (replica_id, sequence, clock_ms, clock_counter)
                SELECT replica_id, MAX(sequence), clock_ms, clock_counter FROM \(operationsTable)
                WHERE replica_id IS NOT (SELECT replica_id FROM \(replicaTable) WHERE id = 1)
                GROUP BY replica_id
                """)
            try spreadFoldIntoReplicas(db)
            // Operations that came after a gap in their replica's sequence numbers: kept as they
            // came, neither logged nor applied, until the operations before them arrive.
            try db.create(table: heldOperationsTable, options: .withoutRowID) { table in
                table.primaryKey("id", .text)
                table.column("replica_id", .text).notNull()
                table.column("sequence", .integer).notNull()
                table.column("clock_ms", .integer).notNull()
                table.column("clock_counter", .integer).notNull()
                table.column("change", .text).notNull()
            }
            // The operation as it arrived, when it holds what this version does not read (a field
            // or a kind of change of a newer one), to pass on byte for byte; NULL otherwise. And
            // 1 for an operation whose kind of change this version does not know: logged and
            // passed on, not applied, until a version that knows it applies it in its place.
            try db.alter(table: operationsTable) { table in
                table.add(column: "original", .text)
                table.add(column: "is_unapplied", .boolean).notNull().defaults(to: false)
            }
            try db.create(index: unappliedIndex, on: operationsTable, columns: ["is_unapplied"], condition: Column("is_unapplied") == true)
        }
        migrator.registerMigration("v8: sync operation identity") { db in
            // Who each operation folded away was: two databases that share a replica id (a copy,
            // a restored backup) make different operations under one sequence number, and only
            // the id tells them apart once the operations are gone.
            try db.create(table: foldedOperationsTable, options: .withoutRowID) { table in
                table.primaryKey("id", .text)
                table.column("replica_id", .text).notNull()
                table.column("sequence", .integer).notNull()
                // The id of the operation it replaced, when it was a replacement; NULL otherwise.
                table.column("replaces_id", .text)
            }
            try db.create(index: foldedBySequenceIndex, on: foldedOperationsTable, columns: ["replica_id", "sequence"])
            try db.create(index: foldedReplacementsIndex, on: foldedOperationsTable, columns: ["replaces_id"], condition: Column("replaces_id") != nil)
            // As JSON, for each replica, the id of the operation at the sequence number the fold
            // covers; and the sequence numbers folded before this migration, whose operations
            // are told by sequence number alone.
            try db.alter(table: foldTable) { table in
                table.add(column: "tips", .text).notNull().defaults(to: "{}")
                table.add(column: "by_sequence", .text).notNull().defaults(to: "{}")
            }
            try db.execute(sql: "UPDATE \(foldTable) SET by_sequence = covering")
            // As JSON, for each replica, the id of the operation the acknowledging replica held
            // at the sequence number it acknowledged.
            try db.alter(table: acknowledgementsTable) { table in
                table.add(column: "tips", .text).notNull().defaults(to: "{}")
            }
        }
        migrator.registerMigration("v9: sync remotes") { db in
            // For each remote this file syncs with (another file, a server), by the identity the
            // remote gives itself: the remote's cursor after the last page read from it; the
            // position in this file's log of the last operation the remote took, with that
            // operation's id to check the position against; and, for a remote that coordinates
            // folding, as JSON, for each replica, the sequence number up to which it folded.
            try db.create(table: remotesTable, options: .withoutRowID) { table in
                table.primaryKey("remote", .text)
                table.column("pull_cursor", .text)
                table.column("push_position", .integer).notNull().defaults(to: 0)
                table.column("push_operation_id", .text)
                table.column("fold_limit", .text)
            }
            // A peer's cursor was the position read in its log, and the operation found there.
            try db.execute(sql: """
                INSERT INTO \(remotesTable) (remote, pull_cursor)
                SELECT peer_replica_id, position || ':' || operation_id FROM \(peersTable)
                """)
            try db.drop(table: peersTable)
        }
        migrator.registerMigration("v10: sync clock correction") { db in
            // The milliseconds added to the system clock to tell the time by: 0 while the system
            // clock is right, else the correction the last server that tells the time gave.
            try db.alter(table: replicaTable) { table in
                table.add(column: "clock_offset_ms", .integer).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("v11: sync rewinds of places") { _ in
            // No table changes. From here on, an operation's `rewind` may keep an item it only
            // placed as its place alone (`keys`): a version without this migration would take
            // such an item for one the operation created, so it refuses the file instead.
        }
        migrator.registerMigration("v12: items stored in list order") { db in
            // The table becomes what `items_by_list_order` was: its rows sit in the order of
            // their lists, so a page of a list reads a few adjacent pages of the file, not one
            // for each item. The ids keep a unique index of their own. The steps are SQLite's
            // for a change ALTER TABLE cannot make: a new table, its rows, the old one dropped,
            // the new one renamed, its indexes made again.
            try db.create(table: "items_in_list_order", options: .withoutRowID) { table in
                table.column("id", .text).notNull()
                table.column("list_id", .text).notNull().references("lists", onDelete: .cascade)
                table.column("title", .text).notNull()
                table.column("notes", .text).notNull().defaults(to: "")
                table.column("sort_index", .integer).notNull()
                table.column("created_at", .real).notNull()
                table.column("updated_at", .real).notNull()
                table.column("completed_at", .real)
                table.column("today_index", .integer)
                table.primaryKey(["list_id", "sort_index", "id"])
            }
            let columns = "id, list_id, title, notes, sort_index, created_at, updated_at, completed_at, today_index"
            try db.execute(sql: "INSERT INTO items_in_list_order (\(columns)) SELECT \(columns) FROM items")
            try db.drop(table: "items")
            try db.rename(table: "items_in_list_order", to: "items")
            try db.create(index: itemIDIndex, on: "items", columns: ["id"], options: .unique)
            try db.create(index: todayOrderIndex, on: "items", columns: ["today_index", "id"], condition: Column("today_index") != nil)
        }
        migrator.registerMigration("v13: the logbook") { db in
            // The completed items, the most recently completed first: a page of the Logbook
            // reads it from its start, and the count of completed items is its size. A table of
            // its own, kept by triggers, rather than an index of `items`: every index of `items`
            // holds an item's key, so a move would write an index of completions too.
            try db.execute(sql: """
                CREATE TABLE "\(completionsTable)" (
                  "completed_at" REAL NOT NULL,
                  "item_id" TEXT NOT NULL,
                  PRIMARY KEY ("completed_at" DESC, "item_id")
                ) WITHOUT ROWID;
                \(completionTriggers)
                INSERT INTO "\(completionsTable)" SELECT "completed_at", "id" FROM "items" WHERE "completed_at" IS NOT NULL;
                """)
        }
        migrator.registerMigration("v14: checklists") { db in
            // Each item's checklist, its entries stored in their order, as the items of a list
            // are (v12); the ids have a unique index of their own. An entry goes with its item.
            try db.create(table: ChecklistItemRecord.databaseTableName, options: .withoutRowID) { table in
                table.column("id", .text).notNull()
                table.column("item_id", .text).notNull().references("items", column: "id", onDelete: .cascade)
                table.column("title", .text).notNull()
                table.column("sort_index", .integer).notNull()
                table.column("completed_at", .real)
                table.primaryKey(["item_id", "sort_index", "id"])
            }
            try db.create(index: checklistIDIndex, on: ChecklistItemRecord.databaseTableName, columns: ["id"], options: .unique)
        }
        migrator.registerMigration("v15: areas") { db in
            // Areas group lists in the sidebar, in an order of their own. A list is in at most
            // one area, and the lists of each area (and those of none, `area_id IS NULL`) have
            // an order of their own: the index serves each group as `lists_by_order` served all.
            // Deleting an area keeps its lists, out of any area.
            try db.create(table: AreaRecord.databaseTableName) { table in
                table.primaryKey("id", .text)
                table.column("name", .text).notNull()
                table.column("created_at", .real).notNull()
                table.column("sort_index", .integer).notNull()
            }
            try db.create(index: areaOrderIndex, on: AreaRecord.databaseTableName, columns: ["sort_index", "id"])
            try db.alter(table: "lists") { table in
                table.add(column: "area_id", .text).references(AreaRecord.databaseTableName, onDelete: .setNull)
            }
            try db.drop(index: listOrderIndex)
            try db.create(index: listAreaOrderIndex, on: "lists", columns: ["area_id", "sort_index", "id"])
        }
        migrator.registerMigration("v16: headings") { db in
            // A list's headings, in an order of their own, and the items under each in theirs.
            // An item names its heading (`heading_id`, '' for none: a column of the primary key
            // of a table without row ids cannot be NULL), and the primary key becomes
            // `(list_id, heading_id, sort_index, id)`: the items under no heading, and those of
            // each heading, each sit together in their order, as a list's items did (v12). The
            // table is made again as v12 made it, the triggers of the completions (v13) with it.
            // Triggers keep the items with their heading: deleted with it, moved with it to
            // another list.
            try db.create(table: HeadingRecord.databaseTableName) { table in
                table.primaryKey("id", .text)
                table.column("list_id", .text).notNull().references("lists", onDelete: .cascade)
                table.column("title", .text).notNull()
                table.column("created_at", .real).notNull()
                table.column("sort_index", .integer).notNull()
            }
            try db.create(index: headingOrderIndex, on: HeadingRecord.databaseTableName, columns: ["list_id", "sort_index", "id"])
            try db.create(table: "items_by_heading", options: .withoutRowID) { table in
                table.column("id", .text).notNull()
                table.column("list_id", .text).notNull().references("lists", onDelete: .cascade)
                // Beside `list_id`: SQLite 3.40's integrity check misreads the columns of a
                // table without row ids whose key takes a column from after the others.
                table.column("heading_id", .text).notNull().defaults(to: ItemRecord.noHeading)
                table.column("title", .text).notNull()
                table.column("notes", .text).notNull().defaults(to: "")
                table.column("sort_index", .integer).notNull()
                table.column("created_at", .real).notNull()
                table.column("updated_at", .real).notNull()
                table.column("completed_at", .real)
                table.column("today_index", .integer)
                table.primaryKey(["list_id", "heading_id", "sort_index", "id"])
            }
            let columns = "id, list_id, title, notes, sort_index, created_at, updated_at, completed_at, today_index"
            try db.execute(sql: "INSERT INTO items_by_heading (\(columns)) SELECT \(columns) FROM items")
            try db.drop(table: "items")
            try db.rename(table: "items_by_heading", to: "items")
            try db.create(index: itemIDIndex, on: "items", columns: ["id"], options: .unique)
            try db.create(index: todayOrderIndex, on: "items", columns: ["today_index", "id"], condition: Column("today_index") != nil)
            try db.execute(sql: completionTriggers)
            try db.execute(sql: """
                CREATE TRIGGER "headings_delete_items" AFTER DELETE ON "headings" BEGIN
                  DELETE FROM "items" WHERE "list_id" = OLD."list_id" AND "heading_id" = OLD."id";
                END;
                CREATE TRIGGER "headings_move_items" AFTER UPDATE OF "list_id" ON "headings" WHEN NEW."list_id" IS NOT OLD."list_id" BEGIN
                  UPDATE "items" SET "list_id" = NEW."list_id" WHERE "list_id" = OLD."list_id" AND "heading_id" = OLD."id";
                END;
                """)
        }
        migrator.registerMigration("v17: when and deadline") { db in
            // When an item is meant to be done, as Things has it: from a start date (a day,
            // `YYYY-MM-DD`, perhaps in its evening), someday, or anytime (neither); and the day
            // it is due. Days are text, which sorts as days do.
            try db.alter(table: "items") { table in
                table.add(column: "start_date", .text)
                table.add(column: "someday", .integer).notNull().defaults(to: 0)
                table.add(column: "evening", .integer).notNull().defaults(to: 0)
                table.add(column: "deadline", .text)
            }
        }
        migrator.registerMigration("v18: Today by dates") { db in
            // Today holds items by their dates now: an item in the hand-made Today of before
            // starts on the day of the migration, where the device is, and keeps its place.
            try db.execute(sql: """
                UPDATE items SET start_date = date('now', 'localtime'), someday = 0 \
                WHERE today_index IS NOT NULL AND (start_date IS NULL OR start_date > date('now', 'localtime'))
                """)
            // Whether an item's deadline no longer brings it into Today (Things' `deadlineSuppressionDate`).
            try db.alter(table: "items") { table in
                table.add(column: "deadline_dismissed", .integer).notNull().defaults(to: 0)
            }
            // Today reads the open items that have started, or are due, by a day: the completed
            // items, the Logbook, which only grows, stay out of the indexes.
            try db.execute(sql: """
                CREATE INDEX "items_by_start_date" ON "items"("start_date") WHERE "start_date" IS NOT NULL AND "completed_at" IS NULL;
                CREATE INDEX "items_by_deadline" ON "items"("deadline") WHERE "deadline" IS NOT NULL AND "completed_at" IS NULL AND "deadline_dismissed" = 0;
                """)
        }
        migrator.registerMigration("v19: Today's order from its indexes") { db in
            // The indexes of the start dates and the deadlines carry every column Today's order
            // reads (`datedStandings`), the key of the table included, as an index of a table
            // without row ids does: Today finds its order with no search of the table, and then
            // reads in full only the items it shows.
            try db.execute(sql: """
                DROP INDEX "\(startDateIndex)";
                DROP INDEX "\(deadlineIndex)";
                CREATE INDEX "\(startDateIndex)" ON "items"("start_date", "someday", "evening", "deadline", "deadline_dismissed", "today_index", "completed_at") \
                WHERE "start_date" IS NOT NULL AND "completed_at" IS NULL;
                CREATE INDEX "\(deadlineIndex)" ON "items"("deadline", "start_date", "someday", "evening", "deadline_dismissed", "today_index", "completed_at") \
                WHERE "deadline" IS NOT NULL AND "completed_at" IS NULL AND "deadline_dismissed" = 0;
                """)
        }
        migrator.registerMigration("v20: a file that never synced is free of sync") { db in
            // Until this version the command line gave every file it changed a replica id, and
            // logged its changes, though the file never met another device; an app without
            // sync was then refused every change. A file with no remote, no acknowledgement,
            // nothing of another replica's and nothing folded forgets its id and its log: its
            // first sync logs all it holds then, as operations that create it.
            let isNeverSynced = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM \(replicaTable))
                  AND NOT EXISTS (SELECT 1 FROM \(remotesTable))
                  AND NOT EXISTS (SELECT 1 FROM \(acknowledgementsTable))
                  AND NOT EXISTS (SELECT 1 FROM \(replicasTable))
                  AND NOT EXISTS (SELECT 1 FROM \(heldOperationsTable))
                  AND NOT EXISTS (SELECT 1 FROM \(foldedOperationsTable))
                  AND NOT EXISTS (SELECT 1 FROM \(foldTable))
                  AND NOT EXISTS (SELECT 1 FROM \(operationsTable) WHERE replica_id IS NOT (SELECT replica_id FROM \(replicaTable) WHERE id = 1))
                """) ?? false
            guard isNeverSynced else { return }
            try db.execute(sql: "DELETE FROM \(operationsTable); DELETE FROM \(tombstonesTable); DELETE FROM \(replicaTable);")
        }
        migrator.registerMigration("v21: canceled items") { db in
            // An item done can be canceled rather than completed, as Things' status 2: it is in
            // the Logbook with its `completed_at`, marked canceled.
            try db.alter(table: "items") { table in
                table.add(column: "canceled", .integer).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("v22: canceled checklist entries") { db in
            // A checklist entry done can be canceled too, as Things' status 2.
            try db.alter(table: "checklist_items") { table in
                table.add(column: "canceled", .integer).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("v23: finished lists") { db in
            // A list (a project) is finished, completed or canceled, at `completed_at`: it leaves
            // the sidebar for the Logbook and keeps its key for when it is reopened.
            try db.alter(table: "lists") { table in
                table.add(column: "completed_at", .real)
                table.add(column: "canceled", .integer).notNull().defaults(to: 0)
            }
        }
        migrator.registerMigration("v24: quick find") { db in
            // Each item's title, notes and checklist, folded, in an FTS5 index that triggers keep.
            try SearchIndex.create(in: db)
        }
        migrator.registerMigration("v25: tags") { db in
            // Tags form a tree, each ordered among its parent's children; deleting a tag deletes
            // them. The table is not `tags`, a name an app's own table may have taken.
            try db.execute(sql: """
                CREATE TABLE "tag_tree" (
                  "id" TEXT PRIMARY KEY NOT NULL,
                  "name" TEXT NOT NULL,
                  "parent_id" TEXT REFERENCES "tag_tree"("id") ON DELETE CASCADE,
                  "sort_index" INTEGER NOT NULL,
                  "shortcut" TEXT,
                  "created_at" REAL NOT NULL
                );
                CREATE INDEX "tag_tree_by_parent_order" ON "tag_tree"("parent_id", "sort_index", "id");
                CREATE TABLE "tag_merges" (
                  "id" TEXT PRIMARY KEY NOT NULL,
                  "tag_id" TEXT NOT NULL
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v26: tag uses") { db in
            // The tags set on an item, a list or an area, in a column of its own row, so that a
            // read or a rewind takes them with the row; and each item's in a table of its own,
            // kept by triggers, so that a filter by tag reads an index.
            try db.execute(sql: """
                ALTER TABLE "items" ADD COLUMN "tag_ids" TEXT;
                ALTER TABLE "lists" ADD COLUMN "tag_ids" TEXT;
                ALTER TABLE "areas" ADD COLUMN "tag_ids" TEXT;
                CREATE TABLE "tagged_items" (
                  "tag_id" TEXT NOT NULL,
                  "item_id" TEXT NOT NULL REFERENCES "items"("id") ON DELETE CASCADE,
                  PRIMARY KEY ("tag_id", "item_id")
                ) WITHOUT ROWID;
                CREATE INDEX "tagged_items_by_item" ON "tagged_items"("item_id");
                CREATE TRIGGER "tagged_items_on_insert" AFTER INSERT ON "items" WHEN NEW."tag_ids" IS NOT NULL BEGIN
                  INSERT INTO "tagged_items" ("tag_id", "item_id") SELECT "value", NEW."id" FROM json_each(NEW."tag_ids");
                END;
                CREATE TRIGGER "tagged_items_on_update" AFTER UPDATE OF "tag_ids" ON "items" WHEN OLD."tag_ids" IS NOT NEW."tag_ids" BEGIN
                  DELETE FROM "tagged_items" WHERE "item_id" = OLD."id";
                  INSERT INTO "tagged_items" ("tag_id", "item_id") SELECT "value", NEW."id" FROM json_each(NEW."tag_ids");
                END;
                """)
        }
        migrator.registerMigration("v27: the trash") { db in
            // A deleted item, list or heading goes to the Trash at `trashed_at`, keeping its key
            // for when it is put back. The indexes of the dates leave out the items in the Trash
            // themselves, and carry the column, so that Today's order still reads them alone.
            try db.execute(sql: """
                ALTER TABLE "items" ADD COLUMN "trashed_at" REAL;
                ALTER TABLE "lists" ADD COLUMN "trashed_at" REAL;
                ALTER TABLE "headings" ADD COLUMN "trashed_at" REAL;
                DROP INDEX "\(startDateIndex)";
                DROP INDEX "\(deadlineIndex)";
                CREATE INDEX "\(startDateIndex)" \
                ON "items"("start_date", "someday", "evening", "deadline", "deadline_dismissed", "today_index", "completed_at", "trashed_at") \
                WHERE "start_date" IS NOT NULL AND "completed_at" IS NULL AND "trashed_at" IS NULL;
                CREATE INDEX "\(deadlineIndex)" \
                ON "items"("deadline", "start_date", "someday", "evening", "deadline_dismissed", "today_index", "completed_at", "trashed_at") \
                WHERE "deadline" IS NOT NULL AND "completed_at" IS NULL AND "deadline_dismissed" = 0 AND "trashed_at" IS NULL;
                CREATE INDEX "items_in_trash" ON "items"("trashed_at") WHERE "trashed_at" IS NOT NULL;
                """)
        }
        migrator.registerMigration("v28: reminders") { db in
            // An item's reminder, `HH:MM` on the wall, fires on its start date. The index holds the
            // reminders that can fire (open, out of the Trash themselves), by day and time.
            try db.execute(sql: """
                ALTER TABLE "items" ADD COLUMN "reminder" TEXT;
                CREATE INDEX "\(remindersIndex)" ON "items"("start_date", "reminder") \
                WHERE "reminder" IS NOT NULL AND "start_date" IS NOT NULL AND "completed_at" IS NULL AND "trashed_at" IS NULL;
                """)
        }
        migrator.registerMigration("v29: repeating to-dos") { db in
            // A repeating series: its rule (RULE's JSON), the first to-do's start, the latest
            // date a to-do was made for, and the template its to-dos are made from. An item
            // made from one names it in `series_id`.
            try db.execute(sql: """
                CREATE TABLE "series" (
                  "id" TEXT PRIMARY KEY NOT NULL,
                  "rule" TEXT NOT NULL,
                  "start" TEXT NOT NULL,
                  "made_through" TEXT,
                  "made_count" INTEGER NOT NULL DEFAULT 0,
                  "paused" INTEGER NOT NULL DEFAULT 0,
                  "list_id" TEXT NOT NULL,
                  "heading_id" TEXT,
                  "title" TEXT NOT NULL,
                  "notes" TEXT NOT NULL DEFAULT '',
                  "tag_ids" TEXT,
                  "checklist" TEXT NOT NULL DEFAULT '[]',
                  "reminder" TEXT,
                  "created_at" REAL NOT NULL,
                  "updated_at" REAL NOT NULL
                ) WITHOUT ROWID;
                ALTER TABLE "items" ADD COLUMN "series_id" TEXT;
                """)
        }
        migrator.registerMigration("v30: scheduled lists") { db in
            // A list's when and deadline, kept as an item's are (v17): a start date
            // (`YYYY-MM-DD`, perhaps in its evening), someday, or anytime (neither); and the day
            // it is due. A list put off to someday is out of the sidebar's open lists.
            try db.execute(sql: """
                ALTER TABLE "lists" ADD COLUMN "start_date" TEXT;
                ALTER TABLE "lists" ADD COLUMN "someday" INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE "lists" ADD COLUMN "evening" INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE "lists" ADD COLUMN "deadline" TEXT;
                """)
        }
        migrator.registerMigration("v31: settings") { db in
            // What the store keeps for this device beside the lists (`StoreSetting`), never
            // synced: the digest of the token of links that change things.
            try db.execute(sql: """
                CREATE TABLE "\(settingsTable)" (
                  "key" TEXT PRIMARY KEY NOT NULL,
                  "value" TEXT NOT NULL
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v32: list notes") { db in
            // A list's notes, as a Things project has, kept as an item's are.
            try db.execute(sql: #"ALTER TABLE "lists" ADD COLUMN "notes" TEXT NOT NULL DEFAULT ''"#)
        }
        migrator.registerMigration("v33: list shares") { db in
            // The lists shared with other people, as the server told this device (`ListShare`),
            // never synced: the user's role in each ('edit' or 'view'), the server's name of the
            // user who shared it, and whether that is this device's user.
            try db.execute(sql: """
                CREATE TABLE "\(listSharesTable)" (
                  "list_id" TEXT PRIMARY KEY NOT NULL REFERENCES "lists"("id") ON DELETE CASCADE,
                  "role" TEXT NOT NULL CHECK ("role" IN ('edit', 'view')),
                  "owner" TEXT NOT NULL,
                  "is_owned" INTEGER NOT NULL
                ) WITHOUT ROWID;
                """)
        }
        migrator.registerMigration("v34: replicas of shared lists") { db in
            // The shared list whose log holds each replica's operations (`ReplicaProgress.list`),
            // and whose log each remote holds (`RemoteRecord.list`); NULL for the user's own log.
            // No foreign key: a list that is gone here still names the log its replicas'
            // operations came from.
            try db.execute(sql: #"ALTER TABLE "\#(replicasTable)" ADD COLUMN "list_id" TEXT"#)
            try db.execute(sql: #"ALTER TABLE "\#(remotesTable)" ADD COLUMN "list_id" TEXT"#)
        }
        migrator.registerMigration("v35: Today marks") { db in
            // The person's own mark of an item in Today, beside its dates (`Item.todayMark`): the
            // day they added it, perhaps in its evening, or the day they took it out. The
            // indexes of the dates carry the marks, so that Today's order still reads them alone,
            // and a third holds the items added, for the items Today holds by their mark alone.
            // The index of the reminders is made again after them, so that the reminders of a
            // span of days still read it rather than the index of the start dates.
            try db.execute(sql: """
                ALTER TABLE "items" ADD COLUMN "today_added" TEXT;
                ALTER TABLE "items" ADD COLUMN "today_added_evening" INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE "items" ADD COLUMN "today_removed" TEXT;
                DROP INDEX "\(startDateIndex)";
                DROP INDEX "\(deadlineIndex)";
                CREATE INDEX "\(startDateIndex)" \
                ON "items"("start_date", "someday", "evening", "deadline", "deadline_dismissed", "today_index", "completed_at", "trashed_at", \
                "today_added", "today_added_evening", "today_removed") \
                WHERE "start_date" IS NOT NULL AND "completed_at" IS NULL AND "trashed_at" IS NULL;
                CREATE INDEX "\(deadlineIndex)" \
                ON "items"("deadline", "start_date", "someday", "evening", "deadline_dismissed", "today_index", "completed_at", "trashed_at", \
                "today_added", "today_added_evening", "today_removed") \
                WHERE "deadline" IS NOT NULL AND "completed_at" IS NULL AND "deadline_dismissed" = 0 AND "trashed_at" IS NULL;
                CREATE INDEX "\(todayAddedIndex)" \
                ON "items"("today_added", "today_added_evening", "start_date", "someday", "evening", "deadline", "deadline_dismissed", \
                "today_index", "completed_at", "trashed_at", "today_removed") \
                WHERE "today_added" IS NOT NULL AND "completed_at" IS NULL AND "trashed_at" IS NULL;
                DROP INDEX "\(remindersIndex)";
                CREATE INDEX "\(remindersIndex)" ON "items"("start_date", "reminder") \
                WHERE "reminder" IS NOT NULL AND "start_date" IS NOT NULL AND "completed_at" IS NULL AND "trashed_at" IS NULL;
                """)
        }
        return migrator
    }

    /// The triggers that keep the table of completions (v13) up to date with `items`.
    private static let completionTriggers = """
        CREATE TRIGGER "\(completionsTable)_on_insert" AFTER INSERT ON "items" WHEN NEW."completed_at" IS NOT NULL BEGIN
          INSERT INTO "\(completionsTable)" VALUES (NEW."completed_at", NEW."id");
        END;
        CREATE TRIGGER "\(completionsTable)_on_update" AFTER UPDATE OF "completed_at" ON "items" BEGIN
          DELETE FROM "\(completionsTable)" WHERE "completed_at" = OLD."completed_at" AND "item_id" = OLD."id";
          INSERT INTO "\(completionsTable)" SELECT NEW."completed_at", NEW."id" WHERE NEW."completed_at" IS NOT NULL;
        END;
        CREATE TRIGGER "\(completionsTable)_on_delete" AFTER DELETE ON "items" WHEN OLD."completed_at" IS NOT NULL BEGIN
          DELETE FROM "\(completionsTable)" WHERE "completed_at" = OLD."completed_at" AND "item_id" = OLD."id";
        END;
        """

    /// Raises each replica's sequence in `sync_replicas` to what `sync_fold` covers of it, for a
    /// database whose log was folded before migration v7.
    private static func spreadFoldIntoReplicas(_ db: Database) throws {
        guard let covering = try String.fetchOne(db, sql: "SELECT covering FROM \(foldTable) WHERE id = 1"),
              let sequences = try? JSONDecoder().decode([String: Int64].self, from: Data(covering.utf8))
        else { return }
        let own = try String.fetchOne(db, sql: "SELECT replica_id FROM \(replicaTable) WHERE id = 1")
        for (replica, sequence) in sequences where replica != own {
            try db.execute(sql: """
                INSERT INTO \(replicasTable) (replica_id, sequence, clock_ms, clock_counter) VALUES (?, ?, 0, 0)
                ON CONFLICT (replica_id) DO UPDATE SET sequence = MAX(sequence, excluded.sequence)
                """, arguments: [replica, sequence])
        }
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
