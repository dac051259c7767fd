// What an app does with the core, through its public API only: no `@testable` import here.
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import ArrangeStore
import ArrangeSync
import Foundation
import Synchronization
import GRDB
import Testing

@Suite("An app adopts the core")
struct AppAdoptionTests {
    @Test("The app owns its DatabasePool and runs the intents by id")
    func contract() async throws {
        try await withDatabasePool { pool, _ in
            let repository = try SQLiteItemRepository(writer: pool)
            let environment = try IntentEnvironment(repository: repository)

            let created = try await CreateList(name: "Groceries").perform(in: environment)
            let groceries: ItemList.ID = created.list.id
            let added = try await AddItem(title: "Milk", list: created.list.id, placement: .bottom).perform(in: environment)
            let milk: Item.ID = added.items[0].id
            for title in ["Eggs", "Bread", "Butter", "Jam", "Tea"] {
                _ = try await AddItem(title: title, list: groceries).perform(in: environment)
            }
            _ = try await MoveItems([milk], to: .bottom).perform(in: environment)
            _ = try await MoveItems([milk], to: .top).perform(in: environment)

            let other = try await CreateList(name: "Pantry").perform(in: environment).list.id
            let otherID = try await AddItem(title: "Rice", list: other).perform(in: environment).items[0].id
            _ = try await MoveItems([milk], to: .after(otherID), into: other).perform(in: environment)
            #expect(try await titles(other, environment) == ["Rice", "Milk"])

            // SwiftUI's onMove over a view that shows completed items too.
            let eggs = try await ListItems(list: groceries).perform(in: environment).items[0].id
            _ = try await CompleteItems([eggs]).perform(in: environment)
            _ = try await MoveItemsAtOffsets(fromOffsets: IndexSet([2, 4]), toOffset: 0, in: created.list.id, visibility: .all).perform(in: environment)
            #expect(try await titles(groceries, environment, visibility: .all) == ["Butter", "Tea", "Eggs", "Bread", "Jam"])

            _ = try await Undo().perform(in: environment)
            #expect(try await titles(groceries, environment, visibility: .all) == ["Eggs", "Bread", "Butter", "Jam", "Tea"])

            // Results carry ids, so SwiftUI can use them directly.
            let listing = try await ListItems(list: groceries, visibility: .all).perform(in: environment).items
            #expect(Set(listing.map(\.id)).count == listing.count)
        }
    }

    @Test("The app migrates tables of its own in the file, before or after Arrange's, across launches", arguments: [true, false])
    func appTables(appMigratesFirst: Bool) async throws {
        try await withDatabasePool { pool, path in
            /// One launch of the app: its migrations (up to `version`) and Arrange's, in the order under test.
            func launch(_ pool: DatabasePool, appVersion version: Int) throws -> SQLiteItemRepository {
                var migrator = DatabaseMigrator()
                migrator.registerMigration("app v1: tags") { db in
                    try db.create(table: "tags") { $0.primaryKey("name", .text) }
                }
                if version >= 2 {
                    migrator.registerMigration("app v2: tag colours") { db in
                        try db.alter(table: "tags") { $0.add(column: "colour", .text) }
                    }
                }
                if appMigratesFirst { try migrator.migrate(pool) }
                let repository = try SQLiteItemRepository(writer: pool)
                if !appMigratesFirst { try migrator.migrate(pool) }
                #expect(try pool.read(migrator.hasCompletedMigrations))
                return repository
            }

            let first = try IntentEnvironment(repository: try launch(pool, appVersion: 1))
            let milk = try await AddItem(title: "Milk").perform(in: first).items[0].id
            try await pool.write { db in try db.execute(sql: "INSERT INTO tags (name) VALUES ('dairy')") }
            try pool.close()

            // Relaunched, then updated: the app's next migration, beside Arrange's.
            for version in [1, 2] {
                var configuration = Configuration()
                configuration.busyMode = .timeout(5)
                let relaunched = try DatabasePool(path: path, configuration: configuration)
                let environment = try IntentEnvironment(repository: try launch(relaunched, appVersion: version))
                #expect(try await ListItems().perform(in: environment).items.map(\.id) == [milk])
                #expect(try await relaunched.read { db in try String.fetchAll(db, sql: "SELECT name FROM tags") } == ["dairy"])
                #expect(try SQLiteItemRepository.schemaStatus(ofFileAt: path).unknown.isEmpty)
                _ = try SQLiteItemRepository.readOnly(path: path)
                try relaunched.close()
            }

            // A file that a newer Arrange migrated is still refused, with the app's migrations in it.
            let future = try DatabaseQueue(path: path)
            try future.inDatabase { db in
                try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')")
            }
            try future.close()
            let newer = try DatabasePool(path: path)
            #expect(throws: StoreError.unusableDatabase(path: path, reason: "it was written by a newer version of Arrange; update the app.")) {
                try SQLiteItemRepository(writer: newer)
            }
            #expect(throws: StoreError.self) { try SQLiteItemRepository.readOnly(path: path) }
            #expect(try SQLiteItemRepository.schemaStatus(ofFileAt: path).unknown == ["v99: from the future"])
            try newer.close()
        }
    }

    @Test("The app's own table points at items by id, which it stores and fetches as Arrange's tables do")
    func appTablePointsAtItems() async throws {
        try await withDatabasePool { pool, _ in
            let environment = try IntentEnvironment(repository: try SQLiteItemRepository(writer: pool))
            let milk = try await AddItem(title: "Milk").perform(in: environment).items[0].id
            _ = try await AddItem(title: "Bread").perform(in: environment)
            try await pool.write { db in
                try db.create(table: "tags") { table in
                    table.column("item_id", .text).notNull().references("items", column: "id", onDelete: .cascade)
                    table.column("name", .text).notNull()
                }
                try db.execute(sql: "INSERT INTO tags (item_id, name) VALUES (?, ?)", arguments: [milk, "dairy"])
            }
            let tagged = try await pool.read { db in
                try Item.ID.fetchAll(db, sql: "SELECT items.id FROM items JOIN tags ON tags.item_id = items.id WHERE tags.name = ?", arguments: ["dairy"])
            }
            #expect(tagged == [milk])
            // Text that is not an id is an error, not a crash or a made-up id.
            await #expect(throws: (any Error).self) { try await pool.read { db in try Item.ID.fetchOne(db, sql: "SELECT 'not an id'") } }
            #expect(try await pool.read { db in try Item.ID.fetchOne(db, sql: "SELECT NULL") } == nil)
        }
    }

    @Test("Every connection a repository opens on a path takes the app's Configuration, the widget's read-only one too")
    func appConfiguration() async throws {
        try await withDatabasePool { _, path in
            let prepared = Mutex<[String]>([])
            func configuration(_ label: String) -> Configuration {
                var configuration = Configuration()
                configuration.label = label
                configuration.observesSuspensionNotifications = true
                configuration.prepareDatabase { db in prepared.withLock { $0.append(label) } }
                return configuration
            }
            let app = try SQLiteItemRepository(path: path, configuration: configuration("app"))
            let environment = try IntentEnvironment(repository: app)
            _ = try await AddItem(title: "Milk").perform(in: environment)
            let widget = try SQLiteItemRepository.readOnly(path: path, configuration: configuration("widget"))
            #expect(try await widget.read { try $0.lists().count } == 1)
            var lists = widget.observeLists().makeAsyncIterator()
            #expect(try await lists.next()?.first?.totalItems == 1)

            let labels = prepared.withLock { $0 }
            #expect(labels.contains("app") && labels.contains("widget"), "\(labels)")
            #expect(labels.count >= 4, "the writers and the readers of both: \(labels)")
            #expect(!labels.contains { $0 != "app" && $0 != "widget" })
            await #expect(throws: StoreError.readOnly(path: path)) { try await widget.write { _ in } }
        }
    }

    @Test("A read-only store and an observation show the day's due repeating to-dos as they will be made, writing nothing; the app's view makes them, under the same id")
    func projectedRepeats() async throws {
        try await withDatabasePool { _, path in
            let app = try SQLiteItemRepository(path: path)
            let environment = try IntentEnvironment(repository: app)
            let start = try Day(parsing: "2027-03-01")
            let water = try await AddItem(title: "Water plants", when: .on(start)).perform(in: environment).items[0]
            let set = try await SetRepeat(item: water.id, repeat: try RepeatRule(.fixed, every: 1, .day), day: start).perform(in: environment)
            let seriesID = try #require(set.item.series)
            let series = try #require(try await app.read { try $0.series(id: seriesID) })
            let day = start.adding(days: 3)
            let due = series.itemID(on: day)
            let count = { try await app.read { try $0.itemCount(in: water.list, visibility: .all) } }
            #expect(try await count() == 1)

            // The widget's read-only store, through `perform`, which cannot make them.
            let widget = try IntentEnvironment(repository: try SQLiteItemRepository.readOnly(path: path))
            let seen = try await ShowToday(day: day).perform(in: widget)
            #expect(seen.items.map(\.id) == [water.id, due], "the first to-do, then the day's, as it will be made")
            #expect(seen.items.last?.startDate == day && seen.items.last?.series == series.id)
            let anytime = try await ShowAnytime(day: day).perform(in: widget)
            #expect(anytime.lists.first?.items.map(\.id) == [due, water.id], "at the top of its list, where it will be made")
            #expect(try await count() == 1, "nothing written")

            // The app's observation of that day projects it too, then shows it made.
            var today = app.observeToday(on: day, visibility: .open).makeAsyncIterator()
            #expect(try await today.next()?.items.map(\.id) == [water.id, due])
            #expect(try await count() == 1, "an observation writes nothing")
            let made = try await ShowToday(day: day).perform(in: environment)
            #expect(made.items.map(\.id) == [water.id, due])
            #expect(try await count() == 2, "the app's view made it, once")
            #expect(try await app.read { try $0.item(id: due)?.series } == series.id)
            #expect(try await app.read { try $0.dueRepeats(on: day) }.isEmpty, "nothing is due once made")
        }
    }

    @Test("Two undos performed together undo two steps, newest first, and two redos redo them, in 50 rounds")
    func concurrentUndo() async throws {
        try await withDatabasePool { pool, _ in
            let environment = try IntentEnvironment(repository: try SQLiteItemRepository(writer: pool))
            for title in ["A", "B", "C"] { _ = try await AddItem(title: title).perform(in: environment) }
            for round in 0..<50 {
                async let first = Undo().perform(in: environment)
                async let second = Undo().perform(in: environment)
                let undone = try await [first, second]
                #expect(undone.map(\.undoCount).sorted() == [1, 2], "round \(round)")
                #expect(try await ListItems().perform(in: environment).items.map(\.title) == ["A"], "round \(round)")

                async let third = Redo().perform(in: environment)
                async let fourth = Redo().perform(in: environment)
                let redone = try await [third, fourth]
                #expect(redone.map(\.redoCount).sorted() == [0, 1], "round \(round)")
                #expect(try await ListItems().perform(in: environment).items.map(\.title) == ["A", "B", "C"], "round \(round)")
            }
        }
    }

    @Test("Undo(expecting:) and Redo(expecting:) take only the step they name, while it is the next")
    func undoExpecting() async throws {
        let environment = try IntentEnvironment(repository: try SQLiteItemRepository.inMemory())
        let milk = try #require(try await environment.perform(AddItem(title: "Milk")).undoStep)
        let eggs = try #require(try await environment.perform(AddItem(title: "Eggs")).undoStep)

        await #expect(throws: IntentError.historyConflict(action: "Add Item", reason: .newerChangeFirst)) {
            try await Undo(expecting: milk.id).perform(in: environment)
        }
        #expect(try await ListItems().perform(in: environment).items.map(\.title) == ["Milk", "Eggs"])
        await #expect(throws: IntentError.self) { try await Undo(expecting: UndoStep.ID()).perform(in: environment) }

        #expect(try await Undo(expecting: eggs.id).perform(in: environment).action == "Add Item")
        #expect(try await Undo(expecting: milk.id).perform(in: environment).undoCount == 0)
        // Undoing keeps a step's id, so the app's redo action names it too.
        await #expect(throws: IntentError.self) { try await Redo(expecting: eggs.id).perform(in: environment) }
        #expect(try await Redo(expecting: milk.id).perform(in: environment).redoCount == 1)
        #expect(try await ListItems().perform(in: environment).items.map(\.title) == ["Milk"])
    }

    /// What an app writes for "Add to Today": two intents, one step of the history.
    struct AddItemToToday: ArrangeIntent {
        static let title = "Add to Today"
        var title: String

        func run(in context: IntentContext) throws -> PlacementResult {
            let added = try AddItem(title: title).run(in: context)
            _ = try AddToToday(added.items.map(\.id)).run(in: context)
            return added
        }
    }

    /// An app's intent that reads through its context, then runs one of Arrange's.
    struct DuplicateItem: ArrangeIntent {
        static let title = "Duplicate Item"
        var item: Item.ID

        func run(in context: IntentContext) throws -> PlacementResult {
            let original = try context.item(item)
            #expect(try context.reading.item(id: item) == original)
            return try AddItem(title: original.title, list: original.listID, placement: .after(original.id), notes: original.notes)
                .run(in: context)
        }
    }

    @Test("An app's intent reads through its context and writes by Arrange's intents, as one step")
    func appIntentReads() async throws {
        let environment = try IntentEnvironment(repository: try SQLiteItemRepository.inMemory())
        let milk = try await AddItem(title: "Milk", notes: "Oat").perform(in: environment).items[0].id
        _ = try await AddItem(title: "Eggs").perform(in: environment)
        let copy = try await environment.perform(DuplicateItem(item: milk))
        #expect(copy.undoStep?.actionName == "Duplicate Item")
        #expect(try await ListItems().perform(in: environment).items.map { "\($0.title)/\($0.notes)" } == ["Milk/Oat", "Milk/Oat", "Eggs/"])
        let gone = Item.ID(rawValue: UUID.random())
        await #expect(throws: IntentError.unknownItem(gone)) { _ = try await DuplicateItem(item: gone).perform(in: environment) }
    }

    @Test("An app's intent that runs several intents records one step, which undoes them all")
    func composedIntent() async throws {
        let environment = try IntentEnvironment(repository: try SQLiteItemRepository.inMemory())
        let performed = try await environment.perform(AddItemToToday(title: "Call the plumber"))
        #expect(performed.undoStep?.actionName == "Add to Today")
        #expect(environment.undoCount == 1)
        #expect(try await ShowToday().perform(in: environment).items.map(\.title) == ["Call the plumber"])

        _ = try await Undo().perform(in: environment)
        #expect(try await ShowToday().perform(in: environment).items.isEmpty)
        #expect(try await ListItems().perform(in: environment).items.isEmpty)
        _ = try await Redo().perform(in: environment)
        #expect(try await ShowToday().perform(in: environment).items.map(\.title) == ["Call the plumber"])

        // AddItem does the same by itself, for one Shortcuts action.
        let added = try await environment.perform(AddItem(title: "Pay the plumber", today: .top))
        #expect(added.undoStep?.actionName == "Add Item" && environment.undoCount == 2)
        #expect(try await ShowToday().perform(in: environment).items.map(\.title) == ["Pay the plumber", "Call the plumber"])
        _ = try await Undo(expecting: added.undoStep?.id).perform(in: environment)
        #expect(try await ShowToday().perform(in: environment).items.map(\.title) == ["Call the plumber"])
        #expect(try await ListItems().perform(in: environment).items.map(\.title) == ["Call the plumber"])
    }

    @Test("A drag over a view that another change made stale moves what the person dragged, given shown:")
    func staleOffsets() async throws {
        let environment = try IntentEnvironment(repository: try SQLiteItemRepository.inMemory())
        let list = try await CreateList(name: "Groceries").perform(in: environment).list.id
        var ids: [String: Item.ID] = [:]
        for title in ["A", "B", "C", "D"] { ids[title] = try await AddItem(title: title, list: list).perform(in: environment).items[0].id }
        let seen = ["A", "B", "C", "D"].compactMap { ids[$0] }
        // Another window, or a sync, moves D to the top before the drag lands.
        let interloper = try #require(ids["D"])
        _ = try await MoveItems([interloper], to: .top).perform(in: environment)

        // The person drags A (offset 0 of what they saw) to after B (offset 2).
        _ = try await MoveItemsAtOffsets(fromOffsets: [0], toOffset: 2, in: list, shown: seen).perform(in: environment)
        #expect(try await titles(list, environment) == ["D", "B", "A", "C"])
        _ = try await Undo().perform(in: environment)
        // Without shown:, the offsets count the list as it is now, and move D, which the person did not touch.
        _ = try await MoveItemsAtOffsets(fromOffsets: [0], toOffset: 2, in: list).perform(in: environment)
        #expect(try await titles(list, environment) == ["A", "D", "B", "C"])
        _ = try await Undo().perform(in: environment)

        // A neighbour deleted meanwhile: the next one shown stands in for it.
        _ = try await DeleteItems([try #require(ids["B"])]).perform(in: environment)
        _ = try await MoveItemsAtOffsets(fromOffsets: [3], toOffset: 2, in: list, shown: seen).perform(in: environment)
        #expect(try await titles(list, environment) == ["A", "D", "C"], "D after A, the nearest shown above it, B being gone")
        // Every dragged item gone: nothing moves, and the person is told.
        _ = try await DeleteItems([try #require(ids["C"])]).perform(in: environment)
        await #expect(throws: OrderingError.nothingToMove) {
            try await MoveItemsAtOffsets(fromOffsets: [2], toOffset: 0, in: list, shown: seen).perform(in: environment)
        }
        await #expect(throws: OrderingError.offsetOutOfRange(offset: 4, count: 4)) {
            try await MoveItemsAtOffsets(fromOffsets: [4], toOffset: 0, in: list, shown: seen).perform(in: environment)
        }

        // Today and the lists take shown: alike.
        _ = try await AddToToday(seen.filter { $0 != ids["B"] && $0 != ids["C"] }).perform(in: environment)  // A, D
        let today = try await ShowToday().perform(in: environment).items.map(\.id)
        _ = try await MoveInToday([interloper], to: .top).perform(in: environment)
        _ = try await MoveInTodayAtOffsets(fromOffsets: [0], toOffset: 2, shown: today).perform(in: environment)
        #expect(try await ShowToday().perform(in: environment).items.map(\.title) == ["D", "A"])

        _ = try await CreateList(name: "Errands").perform(in: environment)
        let lists = try await GetLists().perform(in: environment).lists.map(\.id)  // Groceries, Errands
        _ = try await CreateList(name: "Work", placement: .top).perform(in: environment)
        _ = try await MoveListsAtOffsets(fromOffsets: [1], toOffset: 0, shown: lists).perform(in: environment)
        #expect(try await GetLists().perform(in: environment).lists.map(\.name) == ["Work", "Errands", "Groceries"])
    }

    @Test("The contract an app team codes against, line by line as the issue writes it")
    func contractAsWritten() async throws {
        try await withDatabasePool { pool, _ in
            let repository = try SQLiteItemRepository(writer: pool)
            let environment = try IntentEnvironment(repository: repository)   // as today
            let otherListID = try await CreateList(name: "Elsewhere").perform(in: environment).list.id
            let otherID = try await AddItem(title: "Anchor", list: otherListID).perform(in: environment).items[0].id

            let created = try await CreateList(name: "Groceries").perform(in: environment)   // created.list.id: ItemList.ID
            for title in ["Eggs", "Bread", "Butter", "Jam", "Tea", "Honey"] {
                _ = try await AddItem(title: title, list: created.list.id).perform(in: environment)
            }
            let added = try await AddItem(title: "Milk", list: created.list.id, placement: .bottom).perform(in: environment)
            let milk: Item.ID = added.items[0].id
            _ = try await MoveItems([milk], to: .top).perform(in: environment)
            #expect(try await titles(created.list.id, environment).first == "Milk")
            _ = try await MoveItems([milk], to: .after(otherID), into: otherListID).perform(in: environment)
            #expect(try await titles(otherListID, environment) == ["Anchor", "Milk"])
            _ = try await MoveItemsAtOffsets(fromOffsets: IndexSet([2, 5]), toOffset: 0, in: created.list.id, visibility: .all).perform(in: environment)
            #expect(try await titles(created.list.id, environment) == ["Butter", "Honey", "Eggs", "Bread", "Jam", "Tea"])
            _ = try await Undo().perform(in: environment)
            #expect(try await titles(created.list.id, environment) == ["Eggs", "Bread", "Butter", "Jam", "Tea", "Honey"])
        }
    }

    @Test("Undo steps mirror into an undo manager; errors read as sentences")
    func undoAndErrors() async throws {
        try await withDatabasePool { pool, _ in
            let environment = try IntentEnvironment(repository: try SQLiteItemRepository(writer: pool))
            let list = try await CreateList(name: "Work").perform(in: environment).list.id
            // What an app registers with its UndoManager: the step's name, and Undo to run.
            var registered: [String] = []
            let performed = try await environment.perform(AddItem(title: "Report", list: list))
            if let step = performed.undoStep { registered.append(step.actionName) }
            let unchanged = try await environment.perform(MoveItems([performed.result.items[0].id], to: .top))
            if let step = unchanged.undoStep { registered.append(step.actionName) }
            #expect(registered == ["Add Item"], "a move onto its own place records nothing")

            do {
                _ = try await DeleteList(list: ItemList.ID()).perform(in: environment)
                Issue.record("deleting an unknown list must fail")
            } catch {
                #expect(error.localizedDescription == "The list no longer exists; it may have been deleted.")
                #expect(String(describing: error).hasPrefix("No list has the id "), "the id is for the developer")
            }
        }
    }

    @Test("The app observes a list while another process adds to it")
    func observesAnotherProcess() async throws {
        try await withDatabasePool { pool, path in
            let repository = try SQLiteItemRepository(writer: pool)
            let environment = try IntentEnvironment(repository: repository)
            let list = try await CreateList(name: "Groceries").perform(in: environment).list.id
            _ = try await AddItem(title: "Milk", list: list).perform(in: environment)

            // The first value comes at once; the next after a commit that changes the list.
            let (started, start) = AsyncStream<[String]>.makeStream()
            let watcher = Task {
                var first = true
                for try await items in repository.observeItems(in: list, visibility: .open) {
                    guard !first else { first = false; start.yield(items.map(\.title)); continue }
                    return items.map(\.title)
                }
                return []
            }
            defer { watcher.cancel() }
            var firstValue = started.makeAsyncIterator()
            #expect(await firstValue.next() == ["Milk"])

            try Self.runArrange(["add", "Bread", "--list", "Groceries"], on: path)

            #expect(try await withTimeout(.seconds(5)) { try await watcher.valueCancelledWithWaiter } == ["Milk", "Bread"])
        }
    }

    @Test("Two devices, each with its own pool and a SyncEngine, change their lists apart and end the same after exchanging operations")
    func twoDevicesSync() async throws {
        try await withDatabasePool { phonePool, _ in
            try await withDatabasePool { laptopPool, _ in
                let phone = try SQLiteItemRepository(writer: phonePool)
                let laptop = try SQLiteItemRepository(writer: laptopPool)
                let phoneSync = SyncEngine(repository: phone)
                let laptopSync = SyncEngine(repository: laptop)
                let onPhone = try IntentEnvironment(repository: phone, sync: phoneSync)
                let onLaptop = try IntentEnvironment(repository: laptop, sync: laptopSync)

                let milk = try await AddItem(title: "Milk").perform(in: onPhone).items[0].id
                _ = try await AddItem(title: "Eggs").perform(in: onPhone)
                // The laptop receives the phone's operations: the same Inbox, the same items.
                var phoneCursor = try await phoneSync.operations(after: 0)
                _ = try await laptopSync.merge(phoneCursor.operations)
                let inbox = try await GetLists().perform(in: onLaptop).lists[0].id
                #expect(try await titles(inbox, onLaptop) == ["Milk", "Eggs"])

                // Apart: the phone moves Milk down and adds Tea; the laptop deletes Eggs and undoes it.
                _ = try await MoveItems([milk], to: .bottom).perform(in: onPhone)
                _ = try await AddItem(title: "Tea", placement: .top).perform(in: onPhone)
                let eggs = try await ListItems(list: inbox).perform(in: onLaptop).items[1].id
                _ = try await DeleteItems([eggs]).perform(in: onLaptop)
                _ = try await Undo().perform(in: onLaptop)

                let laptopCursor = try await laptopSync.operations(after: 0)
                phoneCursor = try await phoneSync.operations(after: phoneCursor.cursor)
                _ = try await phoneSync.merge(laptopCursor.operations)
                _ = try await laptopSync.merge(phoneCursor.operations)
                // Eggs went to the Trash and came back with its key: Milk, moved down on the phone, ends below it.
                let merged = try await titles(inbox, onPhone)
                #expect(merged == ["Tea", "Eggs", "Milk"], "\(merged)")
                #expect(try await titles(inbox, onLaptop) == titles(inbox, onPhone))
                let keys = { (repository: SQLiteItemRepository) in
                    try await repository.read { try $0.items(in: inbox, visibility: .all, offset: 0, limit: .max).map(\.sortIndex) }
                }
                #expect(try await keys(phone) == keys(laptop), "the same keys on both")

                // Met directly, the two fold away the operations both hold: the lists stay, and so does undo.
                _ = try await laptopSync.exchange(with: phoneSync)
                #expect(try await laptopSync.compact() > 0)
                #expect(try await phoneSync.compact() > 0)
                #expect(try await laptopSync.operations(after: 0).operations.isEmpty)
                #expect(try await titles(inbox, onLaptop) == ["Tea", "Eggs", "Milk"])
                _ = try await AddItem(title: "Rice", placement: .top).perform(in: onLaptop)
                _ = try await MoveItems([milk], to: .top).perform(in: onLaptop)
                _ = try await Undo().perform(in: onLaptop)
                _ = try await laptopSync.exchange(with: phoneSync)
                #expect(try await titles(inbox, onPhone) == ["Rice", "Tea", "Eggs", "Milk"])
                #expect(try await keys(phone) == keys(laptop))
            }
        }
    }

    /// Runs `arrange` on the database at `path`, as another process, and expects it to succeed.
    static func runArrange(_ arguments: [String], on path: String) throws {
        let executable = try #require(Self.arrange, "swift build --build-tests builds arrange next to the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments + ["--db", path]
        process.environment = ["HOME": URL(fileURLWithPath: path).deletingLastPathComponent().path]
        let error = Pipe()
        process.standardError = error
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "arrange \(arguments.joined(separator: " ")): \(message)")
    }

    /// The `arrange` executable, built beside the test bundle.
    static let arrange: URL? = {
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return [folder, Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
            .map { $0.appendingPathComponent("arrange") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()
}

/// The titles of a list, as an app's view shows them.
private func titles(_ list: ItemList.ID, _ environment: IntentEnvironment, visibility: ItemVisibility = .open) async throws -> [String] {
    try await ListItems(list: list, visibility: visibility).perform(in: environment).items.map(\.title)
}

/// Runs `body` with a `DatabasePool` the app configured itself, on a file in a new folder: a
/// new one, or a copy of `file`.
func withDatabasePool(copying file: URL? = nil, _ body: (DatabasePool, String) async throws -> Void) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ArrangeAppTests-\(UUID())", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("App.sqlite").path
    if let file { try FileManager.default.copyItem(at: file, to: URL(fileURLWithPath: path)) }
    var configuration = Configuration()
    configuration.label = "The app's pool"
    configuration.busyMode = .timeout(5)
    let pool = try DatabasePool(path: path, configuration: configuration)
    try await body(pool, path)
    try pool.close()
}

extension Task where Failure == any Error {
    /// The task's value, for a waiter that may be cancelled (by ``withTimeout(_:_:)``, say): the
    /// task is cancelled with it, so that waiting for a task that never ends cannot hang a test.
    var valueCancelledWithWaiter: Success {
        get async throws {
            try await withTaskCancellationHandler { try await value } onCancel: { cancel() }
        }
    }
}

/// What `body` gives, or `nil` when it takes longer than `limit`.
func withTimeout<Value: Sendable>(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Value) async throws -> Value? {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await body() }
        group.addTask { try await Task.sleep(for: limit); return nil }
        let first = try await group.next() ?? nil
        group.cancelAll()
        return first
    }
}
