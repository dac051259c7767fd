import ArrangeModel
import ArrangeStore
@testable import ArrangeSQLite
import Foundation
import GRDB
import Synchronization
import Testing

/// What only the SQLite backend has: files, locks, the schema on disk, and the limits of SQLite.
@Suite("SQLiteItemRepository")
struct SQLiteRepositoryTests {
    @Test("A tag_ids column reads back the tags it was written with, and any other text is refused")
    func tagIDsColumn() throws {
        let tags: Set<ArrangeModel.Tag.ID> = [ArrangeModel.Tag.ID(), ArrangeModel.Tag.ID(), ArrangeModel.Tag.ID()]
        let text = try #require(TagIDs.text(tags))
        #expect(TagIDs.tags(text) == tags)
        #expect(TagIDs.tags("[]") == [])
        #expect(TagIDs.text([]) == nil)
        let one = try #require(tags.first).text
        for bad in ["", "[", "]", "x", "[\"\(one)\"", "[\"\(one)\"x]", "[\"\(one.dropLast())\"]", "[\"\(one)\";\"\(one)\"]", "[\(one)]", "[,]"] {
            #expect(TagIDs.tags(bad) == nil, "\(bad)")
        }
    }

    @Test("Closing and reopening a database loses nothing")
    func reopen() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        let before: [ItemList: [Item]]
        do {
            let store = Store(repository: try SQLiteItemRepository(path: path), folder: nil)
            try store.seed("Home", sortIndices: [30, 10, 20], completedAt: [1])
            try store.seed("Work", sortIndices: [5, 5])
            before = try store.contents()
            try #require(store.sqlite).close()
            let error = #expect(throws: StoreError.self) { try store.repository.read { try $0.lists() } }
            #expect(error.map { "\($0)" }?.hasPrefix("The database failed: ") == true, "\(String(describing: error))")
        }
        do {
            // Released, not closed: that closes the database too.
            let store = Store(repository: try SQLiteItemRepository(path: path), folder: nil)
            #expect(try store.contents() == before)
            try store.seed("Garden", sortIndices: [1])
        }
        let store = Store(repository: try SQLiteItemRepository(path: path), folder: nil)
        #expect(try store.contents().count == 3)
        #expect(try store.repository.read { try Set($0.lists().map(\.name)) } == ["Home", "Work", "Garden"])
    }

    @Test("One connection opens a file in WAL mode, and an up-to-date file it only reads stays byte for byte as it was")
    func singleConnectionLeavesFileAlone() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        let created = try SQLiteItemRepository.singleConnection(path: path)
        let (list, _) = try Store(repository: created, folder: nil).seed("Home", sortIndices: [10, 20])
        try created.close()
        #expect(try DatabaseQueue(path: path).read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))

        let reopened = try SQLiteItemRepository.singleConnection(path: path)
        #expect(try reopened.read { try $0.items(in: list.id, visibility: .all, offset: 0, limit: 10).map(\.title) } == ["Home 0", "Home 1"])
        try reopened.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)

        // The pool, by contrast, writes a table and drops it when the `-wal` file is empty, for its readers.
        try SQLiteItemRepository(path: path).close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) != bytes)
    }

    @Test("The lists' shares a write carries to the next are read again once the file changed, through this connection or another")
    func carriedShares() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        let repository = try SQLiteItemRepository(path: path)
        let (list, _) = try Store(repository: repository, folder: nil).seed("Home", sortIndices: [10])
        let share = ListShare(list: list.id, role: .view, owner: "bob", isOwned: false)
        let shares = { try repository.write { try $0.listShares() } }
        #expect(try shares().isEmpty)
        // Another connection shares the list: the next write of this one reads it.
        try SQLiteItemRepository(path: path).write { try $0.apply(.setListShare(share, of: list.id)) }
        #expect(try shares() == [share])
        #expect(try shares() == [share], "carried, and still the same")
        // This connection takes the share away, then the list with one.
        try repository.write { try $0.apply(.setListShare(nil, of: list.id)) }
        #expect(try shares().isEmpty)
        try repository.write { try $0.apply(.setListShare(share, of: list.id)) }
        #expect(try shares() == [share])
        try repository.write { try $0.deleteList(id: list.id) }
        #expect(try shares().isEmpty, "a deleted list's share goes with it")
    }

    @Test("The integrity check passes on a sound file and names the damage on a damaged one")
    func integrity() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        let repository = try SQLiteItemRepository(path: path)
        try Store(repository: repository, folder: nil).seed("Home", sortIndices: Array(0..<2_000))
        #expect(try repository.integrityProblems() == [])
        try repository.write { _ in }
        try GRDB.DatabaseQueue(path: path).write { db in
            // An index that disagrees with its table: what a torn write can leave.
            try db.execute(sql: "PRAGMA writable_schema = ON")
            try db.execute(sql: "UPDATE sqlite_schema SET sql = replace(sql, '(\"id\")', '(\"title\")') WHERE name = 'items_by_id'")
        }
        let reopened = try SQLiteItemRepository(path: path)
        #expect(try !reopened.integrityProblems().isEmpty)
    }

    @Test("A row whose id is not a UUID is reported by the reads a move makes, among neighbours and by id, and the file stays as it was")
    func malformedRowIsReported() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        let repository = try SQLiteItemRepository(path: path)
        let (list, items) = try Store(repository: repository, folder: nil).seed("Home", sortIndices: [10, 30])
        try repository.close()
        try GRDB.DatabaseQueue(path: path).write { db in
            // Between the two items: the neighbour before the second.
            try db.execute(sql: "UPDATE items SET id = 'not-a-uuid', sort_index = 20 WHERE id = ?", arguments: [items[0].id.text])
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // One connection, which leaves an up-to-date file as it is when nothing is committed.
        let reopened = try SQLiteItemRepository.singleConnection(path: path)
        let neighbours = #expect(throws: StoreError.self) {
            try reopened.write { try $0.keys(in: .items(list.id), before: items[1].orderKey, limit: 2) }
        }
        #expect(neighbours.map { "\($0)" }?.contains("a row cannot be read (a row of items holds a value of the wrong form: [id:\"not-a-uuid\"") == true)
        try reopened.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        // A row by id whose list is not a UUID.
        try GRDB.DatabaseQueue(path: path).writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "UPDATE items SET list_id = 'no-list' WHERE id = ?", arguments: [items[1].id.text])
        }
        let byID = #expect(throws: StoreError.self) { try SQLiteItemRepository.singleConnection(path: path).write { try $0.item(id: items[1].id) } }
        #expect(byID.map { "\($0)" }?.contains("list_id:\"no-list\"") == true, "\(String(describing: byID))")
        // The same row where it stands, read from the index of the ids.
        let standing = #expect(throws: StoreError.self) {
            try SQLiteItemRepository.singleConnection(path: path).write { try $0.standing(ofItem: items[1].id) }
        }
        #expect(standing.map { "\($0)" }?.contains("list_id:\"no-list\"") == true, "\(String(describing: standing))")
    }

    @Test("A text file is refused, before anything is written to it")
    func textFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("notes.txt")
        let bytes = Data(String(repeating: "Buy milk. Call Anna.\n", count: 500).utf8)
        try bytes.write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.unusableDatabase(path: path, reason: "the file is not a SQLite database.")) {
            try SQLiteItemRepository(path: path)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test("A truncated database is refused and left as it is", arguments: [0.25, 0.5, 0.9])
    func truncatedDatabase(keeping fraction: Double) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        do {
            let store = Store(repository: try SQLiteItemRepository(path: path), folder: nil)
            try store.seed("Home", sortIndices: (0..<2_000).map(Int64.init))
            try #require(store.sqlite).close()
        }
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        let truncated = whole.prefix(Int(Double(whole.count) * fraction))
        try truncated.write(to: URL(fileURLWithPath: path))

        let error = #expect(throws: StoreError.self) {
            let store = Store(repository: try SQLiteItemRepository(path: path), folder: nil)
            _ = try store.contents()
        }
        guard case .unusableDatabase(path, let reason)? = error else {
            Issue.record("Expected unusableDatabase for \(path), got \(String(describing: error))")
            return
        }
        #expect(!reason.contains("\n"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == truncated)
    }

    @Test("A read-only database file gives a clear error and stays as it is")
    func readOnlyFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        do {
            let store = Store(repository: try SQLiteItemRepository(path: path), folder: nil)
            try store.seed("Home", sortIndices: [1, 2])
            try #require(store.sqlite).close()
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try ReadOnly.make(path)
        defer { ReadOnly.undo(path) }

        // Opening in WAL mode writes to the database, so the error may come as early as that.
        let error = #expect(throws: StoreError.self) {
            let store = Store(repository: try SQLiteItemRepository(path: path), folder: nil)
            try store.seed("Work", sortIndices: [1])
        }
        guard case .database(let reason)? = error else {
            Issue.record("Expected a database error, got \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("\(path) is read-only, so nothing can be saved ("))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }

    @Test("A folder that does not exist is reported, not created")
    func missingFolder() throws {
        let folder = try TemporaryFolder()
        let missing = folder.path("missing")
        let path = missing + "/Arrange.sqlite"
        #expect(throws: StoreError.unusableDatabase(path: path, reason: "the folder \(missing) does not exist; create it first.")) {
            try SQLiteItemRepository(path: path)
        }
        #expect(!FileManager.default.fileExists(atPath: missing))
    }

    @Test("A path that names no file is refused", arguments: ["", ":memory:"])
    func notAFilePath(path: String) {
        #expect(throws: StoreError.self) { try SQLiteItemRepository(path: path) }
    }

    @Test("A database written by a newer version is refused")
    func newerSchema() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        do {
            let repository = try SQLiteItemRepository(path: path)
            try repository.writer.write { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
            }
        }
        #expect(throws: StoreError.unusableDatabase(path: path, reason: "it was written by a newer version of Arrange; update the app.")) {
            try SQLiteItemRepository(path: path)
        }
    }

    /// Every migration, in order, as a file records them: written out, so that a migration
    /// renamed, dropped or reordered fails the tests that read them.
    static let migrations = [
        "v1: lists and items", "v2: the default list", "v3: the order of the lists, and Today", "v4: sync", "v5: sync peers",
        "v6: sync compaction", "v7: sync replicas and held operations", "v8: sync operation identity", "v9: sync remotes",
        "v10: sync clock correction", "v11: sync rewinds of places", "v12: items stored in list order", "v13: the logbook",
        "v14: checklists",
        "v15: areas", "v16: headings", "v17: when and deadline",
        "v18: Today by dates", "v19: Today's order from its indexes", "v20: a file that never synced is free of sync",
        "v21: canceled items", "v22: canceled checklist entries", "v23: finished lists", "v24: quick find", "v25: tags", "v26: tag uses", "v27: the trash", "v28: reminders", "v29: repeating to-dos",
        "v30: scheduled lists",
        "v31: settings",
        "v32: list notes",
        "v33: list shares",
        "v34: replicas of shared lists",
        "v35: Today marks",
    ]

    @Test("A repository on the app's own writer migrates it and takes its path", arguments: [false, true])
    func appWriter(pool: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("App.sqlite")
        var configuration = Configuration()
        configuration.busyMode = .timeout(2)
        let writer: any DatabaseWriter = pool
            ? try DatabasePool(path: path, configuration: configuration)
            : try DatabaseQueue(path: path, configuration: configuration)
        // A table of the app's own stays as it is.
        try writer.write { db in try db.execute(sql: "CREATE TABLE app_settings (key TEXT PRIMARY KEY, value TEXT)") }

        let repository = try SQLiteItemRepository(writer: writer)
        #expect(repository.path == path)
        #expect(!repository.isReadOnly)
        let store = Store(repository: repository, folder: nil)
        let (list, items) = try store.seed("Home", sortIndices: [1, 2])
        try repository.write { try $0.setDefaultListID(list.id) }
        try writer.read { db throws in
            #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") == Self.migrations)
            #expect(try db.tableExists("app_settings"))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM items") == 2)
        }
        // Foreign keys on, as GRDB sets them: the list's items and the default go with it.
        try repository.write { try $0.deleteList(id: list.id) }
        #expect(try repository.read { store in try items.compactMap { try store.item(id: $0.id) } } == [])
        #expect(try repository.read { try $0.defaultListID() } == nil)
    }

    @Test("The app's writer is refused without foreign keys, or when a newer version wrote the database")
    func appWriterRefused() throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let unenforced = try DatabaseQueue(configuration: configuration)
        let error = #expect(throws: StoreError.self) { try SQLiteItemRepository(writer: unenforced) }
        guard case .unusableDatabase(_, let reason)? = error else {
            Issue.record("Expected unusableDatabase, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("foreign keys"))
        #expect(try unenforced.read { try $0.tableExists("items") } == false, "nothing was migrated")

        let newer = try DatabaseQueue()
        _ = try SQLiteItemRepository(writer: newer)
        try newer.write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')") }
        #expect(throws: StoreError.unusableDatabase(path: newer.path, reason: "it was written by a newer version of Arrange; update the app.")) {
            try SQLiteItemRepository(writer: newer)
        }
    }

    @Test("A read-only repository sees the writer's commits, and its writes throw without touching the file")
    func readOnlyRepository() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        let writer = try SQLiteItemRepository(path: path)
        let (list, items) = try Store(repository: writer, folder: nil).seed("Home", sortIndices: [1, 2])
        let reader = try SQLiteItemRepository.readOnly(path: path)
        #expect(reader.isReadOnly)
        // The synchronous forms, out of this async context.
        let syncRead: @Sendable (Item.ID) throws -> Item? = { id in try reader.read { try $0.item(id: id) } }
        let syncWrite: @Sendable () throws -> Void = { try reader.write { try $0.insert(Sample.list("Work")) } }
        #expect(try await reader.read { try $0.items(in: list.id, visibility: .all, offset: 0, limit: 10) } == items)

        // A commit of the writer is seen by the next read, sync or async.
        let added = Sample.item(in: list.id, "Added", sortIndex: 3)
        try await writer.write { store in
            try store.insert(added)
            try store.setDefaultListID(list.id)
        }
        #expect(try syncRead(added.id) == added)
        #expect(try await reader.read { try $0.defaultListID() } == list.id)

        // Readers leave marks in the -shm file; the database and its log must not change.
        let files = [path, path + "-wal"].map { URL(fileURLWithPath: $0) }
        let before = try files.map { try Data(contentsOf: $0) }
        let refused = StoreError.readOnly(path: path)
        #expect(throws: refused) { try syncWrite() }
        await #expect(throws: refused) { try await reader.write { try $0.deleteList(id: list.id) } }
        await #expect(throws: refused) { try await reader.write { _ in } }
        #expect(try files.map { try Data(contentsOf: $0) } == before)
        #expect(try await writer.read { try $0.lists() } == [list])
        #expect(refused.description.hasPrefix("The database at \(path) was opened read-only, so nothing was changed;"))
        try reader.close()
        #expect(try await writer.read { try $0.itemCount(in: list.id, visibility: .all) } == 3, "closing the reader leaves the writer working")
    }

    @Test("A read-only repository refuses a file that is missing or whose schema is not complete")
    func readOnlyRefusals() throws {
        let folder = try TemporaryFolder()
        let missing = folder.path("missing.sqlite")
        #expect(throws: StoreError.self) { try SQLiteItemRepository.readOnly(path: missing) }
        #expect(!FileManager.default.fileExists(atPath: missing), "a read-only repository creates no file")

        let old = folder.path("old.sqlite")
        do {
            let queue = try DatabaseQueue(path: old)
            try Schema.migrator.migrate(queue, upTo: "v1: lists and items")
            try queue.close()
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: old))
        let error = #expect(throws: StoreError.self) { try SQLiteItemRepository.readOnly(path: old) }
        guard case .unusableDatabase(old, let reason)? = error else {
            Issue.record("Expected unusableDatabase for \(old), got \(String(describing: error))")
            return
        }
        #expect(reason.hasPrefix("its schema is older than this version of Arrange reads"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: old)) == bytes)
        #expect(try DatabaseQueue(path: old).read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") } == ["v1: lists and items"])
    }

    @Test("A file's schema status names the migrations it has, lacks and does not know, and reading it changes nothing")
    func schemaStatus() throws {
        let folder = try TemporaryFolder()
        let all = Schema.migrator.migrations
        let old = folder.path("old.sqlite")
        do {
            let queue = try DatabaseQueue(path: old)
            try Schema.migrator.migrate(queue, upTo: "v4: sync")
            try queue.close()
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: old))
        let status = try SQLiteItemRepository.schemaStatus(ofFileAt: old)
        #expect(status.applied == Array(all.prefix(4)) && status.missing == Array(all.dropFirst(4)) && status.unknown.isEmpty)
        #expect(status.version == "v4" && !status.isNewer)
        #expect(try Data(contentsOf: URL(fileURLWithPath: old)) == bytes, "reading the status changes nothing")

        let current = folder.path("current.sqlite")
        try SQLiteItemRepository(path: current).close()
        let now = try SQLiteItemRepository.schemaStatus(ofFileAt: current)
        #expect(now.applied == all && now.missing.isEmpty && !now.isNewer)
        #expect(now.version == SQLiteItemRepository.SchemaStatus.currentVersion && now.version == "v\(all.count)")

        try DatabaseQueue(path: current).write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')") }
        let newer = try SQLiteItemRepository.schemaStatus(ofFileAt: current)
        #expect(newer.isNewer && newer.unknown == ["v99: from the future"] && newer.applied == all && newer.missing.isEmpty)

        let missing = folder.path("missing.sqlite")
        #expect(throws: StoreError.self) { try SQLiteItemRepository.schemaStatus(ofFileAt: missing) }
        #expect(!FileManager.default.fileExists(atPath: missing), "reading the status creates no file")
    }

    @Test("Two repositories on one file read, then write, without failing on the lock")
    func twoConnections() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        let first = try SQLiteItemRepository(path: path)
        let second = try SQLiteItemRepository(path: path)
        let list = Sample.list("Shared")
        try first.write { try $0.insert(list) }

        // Each write reads the last item, then appends after it. With deferred transactions,
        // a writer whose snapshot went stale would fail at once with SQLITE_BUSY.
        let rounds = 100
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let repository = index == 0 ? first : second
            for round in 0..<rounds {
                do {
                    try repository.write { store throws in
                        let last = try store.lastItem(in: list.id)
                        try store.insert(Sample.item(in: list.id, "\(index).\(round)", sortIndex: (last?.sortIndex ?? 0) + 1))
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let items = try second.read { try $0.items(in: list.id, visibility: .all, offset: 0, limit: .max) }
        #expect(items.map(\.sortIndex) == Array(1...Int64(2 * rounds)))
    }

    @Test("A read sees one state of the file from its first read to its end, and a read that throws leaves its connection free", arguments: [false, true])
    func readSnapshot(singleConnection: Bool) throws {
        struct Refusal: Error {}
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        let reader = try singleConnection ? .singleConnection(path: path, configuration: Configuration()) : SQLiteItemRepository(path: path)
        let writer = try SQLiteItemRepository(path: path)
        let list = Sample.list("Shared")
        try writer.write { store throws in
            try store.insert(list)
            try store.insert(Sample.item(in: list.id, "Before", sortIndex: 1))
        }
        let titles = { (store: any ItemReading) in try store.items(in: list.id, visibility: .all, offset: 0, limit: .max).map(\.title) }

        let (first, second) = try reader.read { store throws in
            let first = try titles(store)
            try writer.write { try $0.insert(Sample.item(in: list.id, "During", sortIndex: 2)) }
            return (first, try titles(store))
        }
        #expect(first == ["Before"])
        #expect(second == ["Before"])

        #expect(throws: Refusal.self) {
            try reader.read { store throws in
                _ = try titles(store)
                throw Refusal()
            }
        }
        #expect(try reader.read(titles) == ["Before", "During"])
        try reader.write { try $0.insert(Sample.list("After")) }
        #expect(try writer.read { try $0.lists().map(\.name) }.contains("After"))
    }

    @Test("A write that waits longer than the busy timeout fails with a clear error")
    func busyTimeout() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        let holder = try SQLiteItemRepository(path: path)
        let waiter = try SQLiteItemRepository(path: path, busyTimeout: .milliseconds(50))
        try holder.write { store throws in
            try store.insert(Sample.list("Held"))
            #expect(throws: StoreError.database(
                reason: "\(path) stayed locked by another connection for longer than the busy timeout; try again.")
            ) {
                try waiter.write { try $0.insert(Sample.list("Waiting")) }
            }
        }
        #expect(try waiter.read { try $0.lists().map(\.name) } == ["Held"])
    }

    @Test("Migration v7 records how far each other replica's operations go, from a log and a fold written before it")
    func replicasFromOlderLog() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        let (own, logged, folded) = (UUID(), UUID(), UUID())
        do {
            let queue = try DatabaseQueue(path: path)
            try Schema.migrator.migrate(queue, upTo: "v6: sync compaction")
            try queue.write { db in
                try db.execute(sql: "INSERT INTO sync_replica (id, replica_id, last_sequence) VALUES (1, ?, 1)", arguments: [own.uuidString.lowercased()])
                // A gap at 3, applied as it came before v7; and this file's own operation.
                for (replica, sequence) in [(logged, 1), (logged, 2), (logged, 4), (own, 1)] {
                    try db.execute(sql: """
                        INSERT INTO sync_operations (id, replica_id, sequence, clock_ms, clock_counter, change, rewind, is_replayed)
                        VALUES (?, ?, ?, ?, 0, '{}', '{}', 1)
                        """, arguments: [UUID().uuidString.lowercased(), replica.uuidString.lowercased(), sequence, 1_000 * sequence])
                }
                try db.execute(sql: """
                    INSERT INTO sync_fold (id, through_clock_ms, through_clock_counter, through_replica_id, through_sequence, through_id, covering, count, last_position)
                    VALUES (1, 500, 0, ?, 7, ?, ?, 7, 7)
                    """, arguments: [folded.uuidString.lowercased(), UUID().uuidString.lowercased(), #"{"\#(folded.uuidString.lowercased())":7}"#])
            }
        }
        let repository = try SQLiteItemRepository(path: path)
        let progress = try repository.readLog { try $0.replicaProgresses() }
        #expect(Set(progress) == [
            ReplicaProgress(replica: logged, sequence: 4, milliseconds: 4_000, counter: 0),
            ReplicaProgress(replica: folded, sequence: 7, milliseconds: 0, counter: 0),
        ])
    }

    @Test("Migration v9 keeps each peer's cursor, as the cursor read from that remote")
    func peerCursorsBecomeRemotes() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        let (peer, operation) = (UUID().uuidString.lowercased(), UUID().uuidString.lowercased())
        do {
            let queue = try DatabaseQueue(path: path)
            try Schema.migrator.migrate(queue, upTo: "v8: sync operation identity")
            try queue.write { db in
                try db.execute(sql: "INSERT INTO sync_peers (peer_replica_id, position, operation_id) VALUES (?, 42, ?)", arguments: [peer, operation])
            }
        }
        let repository = try SQLiteItemRepository(path: path)
        #expect(try repository.readLog { try $0.remoteRecords() } == [RemoteRecord(remote: peer, pullCursor: "42:\(operation)")])
    }

    @Test("The SQL of the DocC article on the schema builds the very tables and indexes the migrations build")
    func documentedSchema() throws {
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appending(path: "../../Sources/Core/ArrangeSQLite/ArrangeSQLite.docc/DatabaseSchema.md").standardized
        let text = try String(contentsOf: article, encoding: .utf8)
        let start = try #require(text.range(of: "```sql\n"))
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        let documented = try DatabaseQueue()
        try documented.write { try $0.execute(sql: String(text[start.upperBound..<end.lowerBound])) }
        let migrated = try SQLiteItemRepository.inMemory().writer

        /// Every table's columns and every index's columns and condition, by name.
        func shape(_ writer: any DatabaseReader) throws -> [String: String] {
            try writer.read { db in
                var shape: [String: String] = [:]
                let names = try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations'")
                for row in names {
                    let (type, name): (String, String) = (row["type"], row["name"])
                    if type == "table" {
                        let columns = try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)", arguments: [name])
                        let withoutRowID = (row["sql"] as String?)?.contains("WITHOUT ROWID") == true
                        shape["table \(name)"] = columns.map { "\($0)" }.joined(separator: ", ") + (withoutRowID ? " WITHOUT ROWID" : "")
                    } else if type == "index" {
                        let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?)", arguments: [name])
                        let condition = (row["sql"] as String?)?.components(separatedBy: " WHERE ").dropFirst().first ?? ""
                        shape["index \(name)"] = columns.joined(separator: ", ") + " " + condition
                    }
                }
                return shape
            }
        }
        let (expected, found) = (try shape(migrated), try shape(documented))
        #expect(expected.count > 10)
        for key in Set(expected.keys).union(found.keys).sorted() {
            #expect(found[key] == expected[key], "\(key): the article says \(found[key] ?? "nothing"), the migrations build \(expected[key] ?? "nothing")")
        }
        // The article names every migration, and docs/database-schema.md the last, as the migrator has them.
        let migrations = Schema.migrator.migrations
        #expect(migrations.count >= 11)
        for migration in migrations {
            #expect(text.contains("`\(migration)`"), "the article names the migration \(migration)")
        }
        let page = try String(contentsOf: article.appending(path: "../../../../../docs/database-schema.md").standardized, encoding: .utf8)
        #expect(page.contains("`\(try #require(migrations.last))`"), "docs/database-schema.md names the newest migration")
    }

    @Test("The schema on disk is the one the documentation describes")
    func schema() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        let store = Store(repository: try SQLiteItemRepository(path: path), folder: nil)
        let (list, items) = try store.seed("Home", sortIndices: [7], completedAt: [0])
        let writer = try #require(store.sqlite).writer

        try writer.read { db in
            func columns(_ table: String) throws -> [String] {
                try db.columns(in: table).map { column in
                    [column.name, column.type, column.isNotNull ? "NOT NULL" : "", column.defaultValueSQL ?? ""]
                        .filter { !$0.isEmpty }.joined(separator: " ")
                }
            }
            #expect(try columns("lists") == ["id TEXT NOT NULL", "name TEXT NOT NULL", "created_at REAL NOT NULL", "sort_index INTEGER NOT NULL 0", "area_id TEXT", "completed_at REAL", "canceled INTEGER NOT NULL 0", "tag_ids TEXT", "trashed_at REAL",
                "start_date TEXT", "someday INTEGER NOT NULL 0", "evening INTEGER NOT NULL 0", "deadline TEXT", "notes TEXT NOT NULL ''",
            ])
            #expect(try columns("areas") == ["id TEXT NOT NULL", "name TEXT NOT NULL", "created_at REAL NOT NULL", "sort_index INTEGER NOT NULL", "tag_ids TEXT"])
            #expect(try columns("items") == [
                "id TEXT NOT NULL", "list_id TEXT NOT NULL", "heading_id TEXT NOT NULL ''", "title TEXT NOT NULL", "notes TEXT NOT NULL ''",
                "sort_index INTEGER NOT NULL", "created_at REAL NOT NULL", "updated_at REAL NOT NULL", "completed_at REAL",
                "today_index INTEGER", "start_date TEXT", "someday INTEGER NOT NULL 0", "evening INTEGER NOT NULL 0", "deadline TEXT",
                "deadline_dismissed INTEGER NOT NULL 0", "canceled INTEGER NOT NULL 0", "tag_ids TEXT", "trashed_at REAL", "reminder TEXT",
                "series_id TEXT", "today_added TEXT", "today_added_evening INTEGER NOT NULL 0", "today_removed TEXT",
            ])
            // Each list's headings, in their order, deleted with their list.
            #expect(try columns("headings") == ["id TEXT NOT NULL", "list_id TEXT NOT NULL", "title TEXT NOT NULL", "created_at REAL NOT NULL", "sort_index INTEGER NOT NULL", "trashed_at REAL"])
            let headingOrder = try #require(try db.indexes(on: "headings").first { $0.name == Schema.headingOrderIndex })
            #expect(headingOrder.columns == ["list_id", "sort_index", "id"])
            #expect(try String.fetchOne(db, sql: "SELECT on_delete FROM pragma_foreign_key_list('headings')") == "CASCADE")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'headings' ORDER BY name") == [
                "headings_delete_items", "headings_move_items",
            ])
            // The lists are ordered within their area, or among those of none.
            #expect(try db.indexes(on: "lists").first { $0.name == Schema.listOrderIndex } == nil)
            let listOrder = try #require(try db.indexes(on: "lists").first { $0.name == Schema.listAreaOrderIndex })
            #expect(listOrder.columns == ["area_id", "sort_index", "id"])
            let areaOrder = try #require(try db.indexes(on: "areas").first { $0.name == Schema.areaOrderIndex })
            #expect(areaOrder.columns == ["sort_index", "id"])
            // Deleting an area keeps its lists.
            #expect(try db.foreignKeys(on: "lists").map { "\($0.destinationTable) \($0.mapping.map(\.origin))" } == ["areas [\"area_id\"]"])
            let todayOrder = try #require(try db.indexes(on: "items").first { $0.name == Schema.todayOrderIndex })
            #expect(todayOrder.columns == ["today_index", "id"])
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [Schema.todayOrderIndex])?
                .hasSuffix("WHERE \"today_index\" IS NOT NULL") == true)
            // The open items out of the Trash by start date, by deadline not dismissed, and by the
            // day the person added them to Today, with all that Today's order reads of them.
            let marks = ["today_added", "today_added_evening", "today_removed"]
            for (name, columns, condition) in [
                (Schema.startDateIndex, ["start_date", "someday", "evening", "deadline", "deadline_dismissed", "today_index", "completed_at", "trashed_at"] + marks,
                 "WHERE \"start_date\" IS NOT NULL AND \"completed_at\" IS NULL AND \"trashed_at\" IS NULL"),
                (Schema.deadlineIndex, ["deadline", "start_date", "someday", "evening", "deadline_dismissed", "today_index", "completed_at", "trashed_at"] + marks,
                 "WHERE \"deadline\" IS NOT NULL AND \"completed_at\" IS NULL AND \"deadline_dismissed\" = 0 AND \"trashed_at\" IS NULL"),
                (Schema.todayAddedIndex, [
                    "today_added", "today_added_evening", "start_date", "someday", "evening", "deadline", "deadline_dismissed", "today_index",
                    "completed_at", "trashed_at", "today_removed",
                 ], "WHERE \"today_added\" IS NOT NULL AND \"completed_at\" IS NULL AND \"trashed_at\" IS NULL"),
            ] {
                #expect(try db.indexes(on: "items").first { $0.name == name }?.columns == columns)
                #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [name])?.hasSuffix(condition) == true, "\(name)")
            }
            // The items are stored in the order of their lists, each heading's together; the ids have a unique index.
            #expect(try db.primaryKey("items").columns == ["list_id", "heading_id", "sort_index", "id"])
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'items'")?.hasSuffix("WITHOUT ROWID") == true)
            let ids = try #require(try db.indexes(on: "items").first { $0.name == Schema.itemIDIndex })
            #expect(ids.columns == ["id"] && ids.isUnique)
            #expect(try db.primaryKey("lists").columns == ["id"])
            let foreignKeys = try db.foreignKeys(on: "items")
            #expect(foreignKeys.map(\.destinationTable) == ["lists"])
            #expect(foreignKeys.map { $0.mapping.map(\.origin) } == [["list_id"]])
            let onDelete = try String.fetchOne(db, sql: "SELECT on_delete FROM pragma_foreign_key_list('items')")
            #expect(onDelete == "CASCADE")
            // Checklists: stored in each checklist's order, deleted with their item.
            #expect(try columns(ChecklistItemRecord.databaseTableName) == [
                "id TEXT NOT NULL", "item_id TEXT NOT NULL", "title TEXT NOT NULL", "sort_index INTEGER NOT NULL", "completed_at REAL", "canceled INTEGER NOT NULL 0",
            ])
            #expect(try db.primaryKey(ChecklistItemRecord.databaseTableName).columns == ["item_id", "sort_index", "id"])
            let entryIDs = try #require(try db.indexes(on: ChecklistItemRecord.databaseTableName).first { $0.name == Schema.checklistIDIndex })
            #expect(entryIDs.columns == ["id"] && entryIDs.isUnique)
            let checklistKeys = try db.foreignKeys(on: ChecklistItemRecord.databaseTableName)
            #expect(checklistKeys.map(\.destinationTable) == ["items"] && checklistKeys.map { $0.mapping.map(\.destination) } == [["id"]])
            #expect(try String.fetchOne(db, sql: "SELECT on_delete FROM pragma_foreign_key_list(?)", arguments: [ChecklistItemRecord.databaseTableName]) == "CASCADE")
            #expect(try columns(Schema.defaultListTable) == ["id INTEGER", "list_id TEXT NOT NULL"])
            #expect(try db.primaryKey(Schema.defaultListTable).columns == ["id"])
            let defaultListKeys = try db.foreignKeys(on: Schema.defaultListTable)
            #expect(defaultListKeys.map(\.destinationTable) == ["lists"])
            #expect(defaultListKeys.map { $0.mapping.map(\.origin) } == [["list_id"]])
            let defaultListOnDelete = try String.fetchOne(db, sql: "SELECT on_delete FROM pragma_foreign_key_list('default_list')")
            #expect(defaultListOnDelete == "CASCADE")
            // One row at most: its id must be 1.
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO default_list (id, list_id) VALUES (2, ?)", arguments: [list.id.text])
            }
            // Sync: the replica id, the operation log in its total order, the tombstones.
            #expect(try columns(Schema.replicaTable) == [
                "id INTEGER", "replica_id TEXT NOT NULL", "last_sequence INTEGER NOT NULL 0", "last_clock_ms INTEGER NOT NULL 0",
                "last_clock_counter INTEGER NOT NULL 0", "clock_offset_ms INTEGER NOT NULL 0",
            ])
            #expect(try columns(Schema.operationsTable) == [
                "position INTEGER", "id TEXT NOT NULL", "replica_id TEXT NOT NULL", "sequence INTEGER NOT NULL", "clock_ms INTEGER NOT NULL",
                "clock_counter INTEGER NOT NULL", "change TEXT NOT NULL", "rewind TEXT NOT NULL", "is_replayed BOOLEAN NOT NULL",
                "replaces_id TEXT", "original TEXT", "is_unapplied BOOLEAN NOT NULL 0",
            ])
            let replaced = try #require(try db.indexes(on: Schema.operationsTable).first { $0.name == Schema.replacementsIndex })
            #expect(replaced.columns == ["replaces_id"])
            let operationOrder = try #require(try db.indexes(on: Schema.operationsTable).first { $0.name == Schema.operationOrderIndex })
            #expect(operationOrder.columns == ["clock_ms", "clock_counter", "replica_id", "sequence", "id"])
            #expect(try columns(Schema.tombstonesTable) == ["entry_id TEXT NOT NULL", "scope TEXT NOT NULL", "sort_index INTEGER NOT NULL"])
            #expect(try db.primaryKey(Schema.tombstonesTable).columns == ["entry_id", "scope"])
            #expect(try db.tableExists(Schema.peersTable) == false)
            #expect(try columns(Schema.remotesTable) == [
                "remote TEXT NOT NULL", "pull_cursor TEXT", "push_position INTEGER NOT NULL 0", "push_operation_id TEXT", "fold_limit TEXT", "list_id TEXT",
            ])
            #expect(try columns(Schema.replicasTable) == [
                "replica_id TEXT NOT NULL", "sequence INTEGER NOT NULL", "clock_ms INTEGER NOT NULL", "clock_counter INTEGER NOT NULL",
                "retired BOOLEAN NOT NULL 0", "list_id TEXT",
            ])
            #expect(try db.primaryKey(Schema.remotesTable).columns == ["remote"])
            #expect(try columns(Schema.acknowledgementsTable) == [
                "replica_id TEXT NOT NULL", "clock_ms INTEGER NOT NULL", "clock_counter INTEGER NOT NULL", "merged TEXT NOT NULL",
                "tips TEXT NOT NULL '{}'",
            ])
            #expect(try db.primaryKey(Schema.acknowledgementsTable).columns == ["replica_id"])
            #expect(try columns(Schema.foldTable) == [
                "id INTEGER", "through_clock_ms INTEGER NOT NULL", "through_clock_counter INTEGER NOT NULL", "through_replica_id TEXT NOT NULL",
                "through_sequence INTEGER NOT NULL", "through_id TEXT NOT NULL", "covering TEXT NOT NULL", "count INTEGER NOT NULL",
                "last_position INTEGER NOT NULL", "tips TEXT NOT NULL '{}'", "by_sequence TEXT NOT NULL '{}'",
            ])
            #expect(try columns(Schema.foldedOperationsTable) == ["id TEXT NOT NULL", "replica_id TEXT NOT NULL", "sequence INTEGER NOT NULL", "replaces_id TEXT"])
            let foldedBySequence = try #require(try db.indexes(on: Schema.foldedOperationsTable).first { $0.name == Schema.foldedBySequenceIndex })
            #expect(foldedBySequence.columns == ["replica_id", "sequence"])
            #expect(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") == Self.migrations)
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)

            // Ids are lowercase text; dates are seconds since 1970 as REAL.
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT id, list_id, typeof(created_at) AS date_type, created_at, completed_at FROM items
                """))
            let item = try #require(items.first)
            #expect(row["id"] == item.id.text)
            #expect(row["list_id"] == list.id.text)
            #expect(row["date_type"] == "real")
            #expect(row["created_at"] == Sample.epoch + 1.25)
            #expect(row["completed_at"] == Sample.epoch + 3.125)
        }
    }

    @Test("Migrations v12, v16, v18 and v19 store the items in list order and keep every row, Today's order (from the day of the migration), the Logbook and an app's references to an item")
    func upgradeToItemsInListOrder() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        let (home, work) = (Sample.list("Home"), Sample.list("Work"))
        // Keys against the order of insertion, and ties broken by id, so that a lost order would show.
        let items = [
            Sample.item(in: home.id, "Milk", sortIndex: 30), Sample.item(in: work.id, "Report", sortIndex: -5, completed: true),
            Sample.item(in: home.id, "Eggs", sortIndex: 10), Sample.item(in: home.id, "Bread", sortIndex: 10),
        ].enumerated().map { offset, item in
            var item = item
            item.notes = "note \(offset)"
            item.todayIndex = offset.isMultiple(of: 2) ? Int64(100 - offset) : nil
            return item
        }
        do {
            let queue = try DatabaseQueue(path: path)
            try Schema.migrator.migrate(queue, upTo: "v11: sync rewinds of places")
            try queue.write { db in
                for list in [home, work] {
                    try db.execute(sql: "INSERT INTO lists (id, name, created_at, sort_index) VALUES (?, ?, ?, 0)", arguments: [list.id.text, list.name, list.createdAt.timeIntervalSince1970])
                }
                for item in items {
                    try db.execute(
                        sql: """
                            INSERT INTO items (id, list_id, title, notes, sort_index, created_at, updated_at, completed_at, today_index)
                            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            item.id.text, item.listID.text, item.title, item.notes, item.sortIndex, item.createdAt.timeIntervalSince1970,
                            item.updatedAt.timeIntervalSince1970, item.completedAt?.timeIntervalSince1970, item.todayIndex,
                        ])
                }
                // An app's table that refers to an item, as apps do.
                try db.execute(sql: "CREATE TABLE app_tags (item_id TEXT NOT NULL REFERENCES items(id) ON DELETE CASCADE, tag TEXT NOT NULL)")
                try db.execute(sql: "INSERT INTO app_tags (item_id, tag) VALUES (?, 'dairy'), (?, 'bakery')", arguments: [items[0].id.text, items[3].id.text])
            }
            try queue.close()
        }

        let repository = try SQLiteItemRepository(path: path)
        // v18 starts the items of the hand-made Today on the day of the migration, where the machine is.
        let migrationDay = Day(Date(), in: .current)
        let migrated: [Item] = items.map { item in
            var item = item
            if item.todayIndex != nil { item.when = .on(migrationDay) }
            return item
        }
        let byKey = { (list: ItemList.ID) in migrated.filter { $0.listID == list }.sorted { $0.orderKey < $1.orderKey } }
        #expect(try repository.read { try $0.items(in: home.id, visibility: .all, offset: 0, limit: .max) } == byKey(home.id))
        #expect(try repository.read { try $0.items(in: work.id, visibility: .all, offset: 0, limit: .max) } == byKey(work.id))
        let today = migrated.filter { $0.todayIndex != nil }.sorted { ($0.todayIndex ?? 0, $0.id) < ($1.todayIndex ?? 0, $1.id) }
        #expect(try repository.read { try $0.todayItems(visibility: .all, offset: 0, limit: .max) } == today)
        // Today by dates, from the indexes v19 makes again, holds them in their places.
        #expect(try repository.read { try TodayArrangement(on: migrationDay, visibility: .open, in: $0) }.ofDay.placed == today.filter { !$0.isCompleted })
        #expect(try repository.read { try $0.completedItems(offset: 0, limit: 10) }.map(\.id) == [items[1].id])
        #expect(try repository.integrityProblems() == [])

        // The app's references still hold: deleting an item deletes its tags, and no tag can name a missing item.
        try repository.write { try $0.deleteItem(id: items[0].id) }
        try repository.writer.write { db throws in
            #expect(try String.fetchAll(db, sql: "SELECT tag FROM app_tags") == ["bakery"])
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO app_tags (item_id, tag) VALUES ('missing', 'x')") }
        }
    }

    @Test("A database of the first schema is upgraded: its lists keep their order, oldest first, with gapped keys, and it takes a default list")
    func upgradeFromFirstSchema() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("Arrange.sqlite")
        // Ids against creation order, so that an order by id would show.
        let lists = try [("Home", "f"), ("Work", "a"), ("Errands", "7")].enumerated().map { offset, named in
            ItemList(id: ItemList.ID(rawValue: try Sample.id(named.1).rawValue), name: named.0, createdAt: Sample.date(Double(offset)))
        }
        do {
            let queue = try DatabaseQueue(path: path)
            try Schema.migrator.migrate(queue, upTo: "v1: lists and items")
            try queue.write { db in
                for list in lists {
                    try db.execute(sql: "INSERT INTO lists (id, name, created_at) VALUES (?, ?, ?)", arguments: [list.id.text, list.name, list.createdAt.timeIntervalSince1970])
                }
            }
            try queue.close()
        }
        let repository = try SQLiteItemRepository(path: path)
        let upgraded = try repository.read { try $0.lists() }
        #expect(upgraded.map(\.name) == ["Home", "Work", "Errands"])
        #expect(upgraded.map(\.sortIndex) == [-(1 << 32), 0, 1 << 32])
        let list = try #require(upgraded.first)
        #expect(try repository.read { try $0.defaultListID() } == nil)
        try repository.write { try $0.setDefaultListID(list.id) }
        try repository.close()
        #expect(try SQLiteItemRepository(path: path).read { try $0.defaultListID() } == list.id)
    }

    @Test("Counting the items before a key reads only a range of the list's rows")
    func countBeforePlan() throws {
        let repository = try SQLiteItemRepository.inMemory()
        for visibility in ItemVisibility.allCases {
            let plan: [String] = try repository.writer.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + OrderingSQL.listItems.countBefore[visibility], arguments: [ItemList.ID().text, 0, Item.ID().text])
                    .map { row in row["detail"] ?? "" }
            }
            #expect(plan == ["SEARCH items USING PRIMARY KEY (list_id=? AND heading_id=? AND (sort_index,id)<(?,?))"], "\(visibility)")
        }
    }

    @Test("A transaction reads each row by id once, and the lists once, however often it asks")
    func rowsReadOnce() throws {
        let repository = try SQLiteItemRepository.inMemory()
        let (list, items) = try Store(repository: repository, folder: nil).seed("Home", sortIndices: [1, 2, 3])
        let log = StatementLog(repository)
        let missing = Item.ID()
        try repository.write { store throws in
            for _ in 0..<3 {
                #expect(try store.item(id: items[0].id) == items[0])
                #expect(try store.existingItem(id: items[1].id) == items[1])
                #expect(try store.item(id: missing) == nil)
                #expect(try store.lists() == [list])
                #expect(try store.list(id: list.id) == list)
                #expect(try store.list(id: ItemList.ID()) == nil)
            }
            // A row the transaction wrote is not read back either.
            let added = Sample.item(in: list.id, "Added", sortIndex: 4)
            try store.insert(added)
            #expect(try store.item(id: added.id) == added)
        }
        let selects = log.take().filter { $0.hasPrefix("SELECT") }
        #expect(selects.filter { $0 == SQLiteTransaction.itemByIDSQL }.count == 3, "\(selects)")
        #expect(selects.filter { $0.contains("lists") }.count == 1, "\(selects)")
        // Not whether the database syncs, which a change that sync did not log asks before its
        // commit: the write that seeded the list found it does not, and nothing wrote since.
        #expect(selects.filter { $0.contains(Schema.replicaTable) }.isEmpty, "\(selects)")
        #expect(selects.count == 4, "\(selects)")
    }

    @Test("An update writes only the columns that changed, and nothing when none did")
    func updatesChangedColumns() throws {
        let repository = try SQLiteItemRepository.inMemory()
        let store = Store(repository: repository, folder: nil)
        let (_, items) = try store.seed("Home", sortIndices: [10, 20])
        let (work, _) = try store.seed("Work", sortIndices: [])
        let log = StatementLog(repository)
        var moved = items[0]
        var completed = items[1]
        try repository.write { store throws in
            moved = try store.existingItem(id: items[0].id)
            moved.listID = work.id
            moved.sortIndex = 5
            moved.updatedAt = Sample.date(900)
            try store.update(moved)
            try store.update(moved)

            completed = try store.existingItem(id: items[1].id)
            completed.completedAt = Sample.date(901)
            try store.update(completed)
        }
        #expect(log.take().filter { $0.hasPrefix("UPDATE") } == [
            "UPDATE items SET list_id = ?, sort_index = ?, updated_at = ? WHERE id = ?",
            "UPDATE items SET completed_at = ? WHERE id = ?",
        ])

        // A row the transaction has not read is read first (for the observations, the list it
        // leaves), and then only what changed is written.
        var renamed = moved
        renamed.title = "Renamed"
        try repository.write { try $0.update(renamed) }
        #expect(log.take().filter { $0.hasPrefix("UPDATE") } == ["UPDATE items SET title = ? WHERE id = ?"])
        #expect(try repository.read { store in try [store.item(id: moved.id), store.item(id: completed.id)] } == [renamed, completed])
    }

    @Test("An observation sees the commits of a second repository on the file, and of the app from a read-only one, within a second")
    func observesOtherConnections() async throws {
        try await OffPool.run {
            let folder = try TemporaryFolder()
            let path = folder.path("Arrange.sqlite")
            let observed = try SQLiteItemRepository(path: path)
            let (list, items) = try Store(repository: observed, folder: nil).seed("Home", sortIndices: [1])
            let other = try SQLiteItemRepository(path: path)
            let widget = try SQLiteItemRepository.readOnly(path: path)
            let recorders = [observed, widget].map { Recorder.start($0.observeItems(in: list.id, visibility: .all)) }
            defer { for recorder in recorders { recorder.cancel() } }
            for recorder in recorders { #expect(await recorder.next() == items) }

            let added = Sample.item(in: list.id, "From elsewhere", sortIndex: 2)
            let start = ContinuousClock.now
            try await other.write { try $0.insert(added) }
            for recorder in recorders {
                #expect(await recorder.next(within: .seconds(1)) == items + [added])
            }
            let delay = ContinuousClock.now - start
            #expect(delay < .seconds(1), "\(delay)")
        }
    }

    @Test("Polling, observations open no connection: one watch of other connections, on the app's, serves them all, and stops with the last")
    func oneWatchForAllObservations() async throws {
        try await OffPool.run {
            let folder = try TemporaryFolder()
            let path = folder.path("Arrange.sqlite")
            // The app's configuration counts the polls of the connections it opens: the watch polls
            // on the repository's connection, which the app's configuration opened.
            let polls = StatementCounter { $0.contains("data_version") }
            let repository = try SQLiteItemRepository(
                writer: try DatabasePool(path: path, configuration: polls.configuration),
                externalCommits: .polling(every: SQLiteItemRepository.externalChangePollingInterval))
            let (list, items) = try Store(repository: repository, folder: nil).seed("Home", sortIndices: [1])
            #expect(try await repository.read { try $0.lists() } == [list])

            let recorders = (0..<3).map { _ in Recorder.start(repository.observeItems(in: list.id, visibility: .all)) }
            for recorder in recorders { #expect(await recorder.next() == items) }
            let start = polls.value
            try await Task.sleep(for: .seconds(1))
            let polled = polls.value - start
            let perSecond = Int(Duration.seconds(1) / SQLiteItemRepository.externalChangePollingInterval)
            #expect(polled >= 1 && polled <= perSecond + 1, "one watch polls \(perSecond) times a second; three would poll \(3 * perSecond): \(polled)")

            for recorder in recorders { recorder.cancel() }
            for recorder in recorders { #expect(await recorder.ended() != nil) }
            let stopped = polls.value
            try await Task.sleep(for: .milliseconds(500))
            #expect(polls.value <= stopped + 1, "no poll once the last observation ended")
        }
    }

    @Test("Text holding U+0000 is refused, not cut short at it")
    func nulCharacter() throws {
        let repository = try SQLiteItemRepository.inMemory()
        let store = Store(repository: repository, folder: nil)
        let (list, items) = try store.seed("Home", sortIndices: [1])
        var item = try #require(items.first)
        item.notes = "before\u{0}after"
        #expect(throws: StoreError.database(
            reason: "SQLite cannot store U+0000 (NUL), found in the notes of the item \(item.id); remove it.")
        ) {
            try repository.write { try $0.update(item) }
        }
        var named = list
        named.name = "Home\u{0}"
        #expect(throws: StoreError.self) { try repository.write { try $0.update(named) } }
        #expect(try store.contents() == [list: items])
    }

    @Test("A lookup by id prefix searches the index of the ids")
    func idPrefixPlan() throws {
        let repository = try SQLiteItemRepository.inMemory()
        let plan: [String] = try repository.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + SQLiteTransaction.itemsByIDPrefixSQL, arguments: ["3f2a", "3f2a~", 10])
                .map { row in row["detail"] ?? "" }
        }
        #expect(plan.count == 1 && plan[0].hasPrefix("SEARCH items USING INDEX \(Schema.itemIDIndex) (id>? AND id<?)"), "\(plan)")
    }

    @Test("What Today's order reads comes from the indexes of the start dates, the deadlines and the marks in Today alone, and the items in full through them, with no sorting step")
    func datedStandingsPlan() throws {
        let repository = try SQLiteItemRepository.inMemory()
        let plan = try repository.queryPlan(SQLiteTransaction.datedStandingsSQL, arguments: ["2026-11-28"])
        for index in [Schema.startDateIndex, Schema.deadlineIndex, Schema.todayAddedIndex] {
            #expect(plan.contains { $0.contains("USING COVERING INDEX \(index)") }, "\(plan)")
        }
        #expect(!plan.contains { $0.contains("TEMP B-TREE") || $0.hasPrefix("SCAN") }, "\(plan)")
        // The items in full: the same indexes, each entry leading to its row.
        let full = try repository.queryPlan(SQLiteTransaction.datedItemsSQL, arguments: ["2026-11-28"])
        for index in [Schema.startDateIndex, Schema.deadlineIndex, Schema.todayAddedIndex] {
            #expect(full.contains { $0.contains("USING INDEX \(index)") }, "\(full)")
        }
        #expect(!full.contains { $0.contains("TEMP B-TREE") || $0.hasPrefix("SCAN") }, "\(full)")
    }

    @Test("The reminders of a span of days are one search of their index, with no scan")
    func remindersPlan() throws {
        let repository = try SQLiteItemRepository.inMemory()
        let plan = try repository.queryPlan(SQLiteTransaction.remindersSQL, arguments: ["2027-03-27", "2027-03-29"])
        #expect(plan.first?.hasPrefix("SEARCH items USING INDEX \(Schema.remindersIndex) (start_date>? AND start_date<?)") == true, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN") || $0.contains("TEMP B-TREE") }, "\(plan)")
    }

    @Test("The Logbook's page and count come from the table of completions, with no sorting step")
    func logbookPlans() throws {
        let repository = try SQLiteItemRepository.inMemory()
        for query in [SQLiteTransaction.completedItemsSQL, SQLiteTransaction.completedCountSQL] {
            let plan = try repository.queryPlan(query, arguments: query.contains("LIMIT") ? [10, 10] : [])
            // The table of completions in its own order ("completion" is its alias in the page's query), then each item by id,
            // and its list and heading by their keys, to leave out what is in the Trash.
            #expect(plan.first?.hasPrefix("SCAN") == true && plan.first?.contains("completion") == true, "\(query)\n\(plan)")
            let steps = plan.dropFirst().filter { !$0.contains("SUBQUERY") }
            #expect(steps.contains { $0.contains("items_by_id") } && !plan.contains { $0.contains("TEMP B-TREE") }, "\(query)\n\(plan)")
            #expect(!steps.contains { $0.hasPrefix("SCAN") }, "\(query)\n\(plan)")
        }
    }

    @Test("The triggers keep the table of completions as the items are: inserted, completed, reopened, moved, deleted, with their list")
    func completionsTable() throws {
        let store = try Backend.sqliteFile.makeStore()
        let (list, items) = try store.seed("Done", sortIndices: [10, 20, 30, 40], completedAt: [0, 2])
        func completions() throws -> [String] {
            try store.sqlite?.writer.read { try String.fetchAll($0, sql: "SELECT item_id FROM \(Schema.completionsTable) ORDER BY completed_at DESC, item_id") } ?? []
        }
        #expect(try Set(completions()) == [items[0].id.text, items[2].id.text])
        try store.repository.write { store throws in
            var done = items[1]
            done.completedAt = Sample.date(9)
            try store.update(done)
            var reopened = items[0]
            reopened.completedAt = nil
            try store.update(reopened)
            try store.setSortIndices([SortIndexChange(id: items[2].id.entryID, sortIndex: 5)], in: .items(list.id), updatedAt: Sample.date(10))
        }
        #expect(try completions() == [items[1].id.text, items[2].id.text])
        try store.repository.write { try $0.deleteItem(id: items[1].id) }
        #expect(try completions() == [items[2].id.text])
        try store.repository.write { try $0.deleteList(id: list.id) }
        #expect(try completions() == [])
    }

    @Test("A heading renamed or moved within its list writes its own row alone; moved to another list, its items go with it")
    func headingWrites() throws {
        let repository = try SQLiteItemRepository.inMemory()
        let (trip, home) = (Sample.list("Trip"), Sample.list("Home", at: 1))
        var heading = Heading(listID: trip.id, title: "Packing", createdAt: Sample.date(1))
        var items = (0..<3).map { Sample.item(in: trip.id, "Item \($0)", sortIndex: Int64($0)) }
        for index in items.indices { items[index].heading = heading.id }
        try repository.write { store throws in
            for list in [trip, home] { try store.insert(list) }
            try store.insert(heading)
            for item in items { try store.insert(item) }
        }
        let changes = { try repository.writer.read { $0.totalChangesCount } }
        var before = try changes()
        heading.title = "Gear"
        try repository.write { try $0.update(heading) }
        try repository.write { try $0.setSortIndices([SortIndexChange(id: heading.id.entryID, sortIndex: 7)], in: .headings(trip.id), updatedAt: Sample.date(2)) }
        #expect(try changes() - before == 2, "two writes of the heading's row, and none of its items")
        before = try changes()
        try repository.write { try $0.setSortIndices([SortIndexChange(id: heading.id.entryID, sortIndex: 0)], in: .headings(home.id), updatedAt: Sample.date(3)) }
        #expect(try changes() - before == 4, "the heading, and its three items, which the trigger moves")
        #expect(try repository.read { try $0.items(in: home.id, visibility: .all, offset: 0, limit: 10) }.map(\.id) == items.map(\.id))
    }

    @Test("Pages, windows and counts of every ordering come from its own index, with no sorting step")
    func orderingPlans() throws {
        let repository = try SQLiteItemRepository.inMemory()
        // A list's items are the table itself, stored in their order, those of each heading together.
        let orderings: [(OrderScope, String)] = [
            (.items(ItemList.ID()), "USING PRIMARY KEY"), (.lists, "INDEX \(Schema.listAreaOrderIndex)"), (.today, "INDEX \(Schema.todayOrderIndex)"),
            (.checklist(Item.ID()), "USING PRIMARY KEY"), (.areas, "INDEX \(Schema.areaOrderIndex)"), (.area(Area.ID()), "INDEX \(Schema.listAreaOrderIndex)"),
            (.headings(ItemList.ID()), "INDEX \(Schema.headingOrderIndex)"), (.heading(Heading.ID()), "USING PRIMARY KEY (list_id=? AND heading_id=?"),
        ]
        for (scope, source) in orderings {
            let (sql, membership) = OrderingSQL.of(scope)
            let queries: [(String, [any DatabaseValueConvertible])] = ItemVisibility.allCases.flatMap { visibility in
                [(sql.entryPage[visibility], [10, 10]), (sql.countBefore[visibility], [0, "x"])] + (sql.itemPage.map { [($0[visibility], [10, 10])] } ?? [])
            } + [(sql.keysBefore, [0, "x", 1]), (sql.keysAfter, [0, "x", 1])]
            // The plan does not depend on the values: any text stands for the membership's.
            let membershipValues: [any DatabaseValueConvertible] = Array(repeating: "x", count: membership.count)
            for (query, arguments) in queries {
                let plan = try repository.queryPlan(query, arguments: membershipValues + arguments)
                #expect(plan.contains { $0.contains(source) } && !plan.contains { $0.contains("TEMP B-TREE") }, "\(scope): \(query)\n\(plan)")
            }
        }
        // Several items' checklists: one search of the table's key for each item, in order.
        let plan = try repository.queryPlan(ChecklistItemRecord.ofItemsSQL, arguments: ["[\"a\",\"b\"]"])
        #expect(plan.contains { $0.contains("USING PRIMARY KEY (item_id=?)") } && !plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
    }
}

/// The SQL of every statement a repository's writing connection runs, as SQLite reports it.
final class StatementLog: Sendable {
    private let statements = Mutex<[String]>([])

    /// Starts logging the statements of `repository`'s writer (every statement of a database in memory).
    init(_ repository: SQLiteItemRepository) {
        repository.writer.writeWithoutTransaction { db in
            db.trace(options: .statement) { [self] event in
                if case .statement(let statement) = event { statements.withLock { $0.append(statement.sql) } }
            }
        }
    }

    /// The statements run since the last call, oldest first.
    func take() -> [String] {
        statements.withLock { statements in
            defer { statements = [] }
            return statements
        }
    }
}

/// This process's open file descriptors, through Linux's `/proc/self/fd`.
enum Descriptors {
    /// How many descriptors refer to the file at `path`.
    static func open(on path: String) -> Int {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.count { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) == path }
    }

    /// Waits up to five seconds for the count of descriptors on `path` to be `count`; whether it came to be.
    static func wait(on path: String, toBe count: Int) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            if open(on: path) == count { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }
}

/// Making a file read-only.
enum ReadOnly {
    /// Takes every write permission from the file at `path`.
    ///
    /// Permission bits do not bind root in the kernel, so the repository checks them itself.
    static func make(_ path: String) throws {
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
    }

    /// Makes the file writable again, so that it can be deleted.
    static func undo(_ path: String) {
        try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
    }
}
