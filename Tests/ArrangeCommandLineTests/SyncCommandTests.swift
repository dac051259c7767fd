import ArrangeCommandLine
import ArrangeModel
import ArrangeSync
@testable import ArrangeSQLite
import Foundation
import GRDB
import Testing

/// `arrange sync`, `sync export` and `sync import`, run as a person or a script runs them.
@Suite("arrange sync", .enabled(if: Executable.url != nil, "arrange is built by swift build --build-tests"))
struct SyncCommandTests {
    func withArrange(_ body: (Executable) async throws -> Void) async throws {
        try await withTemporaryFolder { home in try await body(Executable(home: home)) }
    }

    /// The titles of the default list of a database, completed ones included, in order.
    func titles(_ arrange: Executable, db: String) throws -> [String] {
        let run = try arrange.run(["list", "--all", "--json", "--db", db])
        let items = try #require(try jsonObject(run.output)["items"] as? [[String: Any]], "\(run.error)")
        return items.compactMap { $0["title"] as? String }
    }

    @Test("Two databases edited apart end identical after sync PEER, whichever side runs it; a second sync sends nothing")
    func peers() async throws {
        try await withArrange { arrange in
            let (laptop, phone) = (arrange.home.appendingPathComponent("laptop.sqlite").path, arrange.home.appendingPathComponent("phone.sqlite").path)
            for title in ["Milk", "Eggs"] { #expect(try arrange.run(["add", title, "--db", laptop]).status == 0) }
            for title in ["Bread", "Tea"] { #expect(try arrange.run(["add", title, "--db", phone]).status == 0) }
            #expect(try arrange.run(["move", "#2", "--top", "--db", laptop]).status == 0)
            #expect(try arrange.run(["create-list", "Work", "--db", phone]).status == 0)

            let first = try arrange.run(["sync", phone, "--db", laptop])
            #expect(first.status == 0, "\(first.error)")
            // Each database's first sync logs what it holds: the laptop's Inbox and two items, the
            // phone's Inbox, two items and Work.
            #expect(first.output.hasPrefix("Sent 3 operations to \(phone) and received 4;"), "\(first.output)")
            // One default list, not two: both made it with the same id.
            #expect(try arrange.run(["lists", "--db", laptop]).output == "Inbox  4 open  (default)\nWork   0 open\n")
            #expect(try titles(arrange, db: laptop) == titles(arrange, db: phone))
            #expect(try Set(titles(arrange, db: laptop)) == ["Milk", "Eggs", "Bread", "Tea"])
            let keys = { (db: String) in try arrange.run(["export", "--db", db]).output }
            #expect(try keys(laptop) == keys(phone), "the same keys, not only the same order")

            let again = try arrange.run(["sync", laptop, "--db", phone, "--json"])
            #expect(again.output == #"""
                {"appliedHere":0,"appliedThere":0,"foldedHere":0,"foldedThere":0,"peerRekeyed":false,"received":0,"replaced":0,\#
                "sent":0,"snapshotHere":false,"snapshotThere":false}
                """# + "\n", "\(again.error)")
        }
    }

    @Test("Two databases that met fold their operations; a third gets a snapshot by sync PEER, and refuses a file that starts after the fold")
    func folded() async throws {
        try await withArrange { arrange in
            let path = { (name: String) in arrange.home.appendingPathComponent("\(name).sqlite").path }
            let (laptop, phone, tablet) = (path("laptop"), path("phone"), path("tablet"))
            for title in ["Milk", "Eggs"] { #expect(try arrange.run(["add", title, "--db", laptop]).status == 0) }
            #expect(try arrange.run(["add", "Bread", "--db", phone]).status == 0)
            let met = try arrange.run(["sync", phone, "--db", laptop])
            #expect(met.output.contains("Folded away 5 operations here and 5 there, which every known database holds."), "\(met.output)")

            // The tablet was set up apart: its Inbox and its own change come before the fold.
            #expect(try arrange.run(["add", "Tea", "--db", tablet]).status == 0)
            let file = arrange.home.appendingPathComponent("ops.jsonl").path
            #expect(try arrange.run(["sync", "export", file, "--db", laptop]).status == 0)
            let header = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")[0]
            #expect(header.hasPrefix(#"{"acknowledgements":[{"#) && header.contains(#""folded":{"#), "\(header)")
            #expect(header.hasSuffix(#""format":"arrange-sync","version":3}"#), "\(header)")
            let before = try arrange.run(["export", "--db", tablet]).output
            let refused = try arrange.run(["sync", "import", file, "--db", tablet])
            #expect(refused.status == 1)
            #expect(refused.error.hasPrefix("error: The operations come after operations that were folded into a snapshot"), "\(refused.error)")
            #expect(try arrange.run(["export", "--db", tablet]).output == before, "nothing applied")

            let joined = try arrange.run(["sync", laptop, "--db", tablet])
            #expect(joined.status == 0, "\(joined.error)")
            #expect(joined.output.contains("This database lacked operations \(laptop) had folded away, and took its lists, items and log first."), "\(joined.output)")
            #expect(try arrange.run(["sync", phone, "--db", tablet]).status == 0)
            #expect(try Set(titles(arrange, db: tablet)) == ["Milk", "Eggs", "Bread", "Tea"])
            let keys = { (db: String) in try arrange.run(["export", "--db", db]).output }
            #expect(try keys(tablet) == keys(laptop) && keys(tablet) == keys(phone), "the same keys everywhere")
        }
    }

    @Test("A new database joins, through a snapshot file, two databases that folded; --snapshot does not go with --since")
    func snapshotFile() async throws {
        try await withArrange { arrange in
            let path = { (name: String) in arrange.home.appendingPathComponent("\(name).sqlite").path }
            let (laptop, phone) = (path("laptop"), path("phone"))
            for title in ["Milk", "Eggs"] { #expect(try arrange.run(["add", title, "--db", laptop]).status == 0) }
            #expect(try arrange.run(["add", "Bread", "--db", phone]).status == 0)
            let met = try arrange.run(["sync", phone, "--db", laptop])
            #expect(met.output.contains("Folded away 5 operations here and 5 there"), "\(met.output)")
            #expect(try arrange.run(["add", "Tea", "--db", laptop]).status == 0)

            let operations = arrange.home.appendingPathComponent("ops.jsonl").path
            let snapshot = arrange.home.appendingPathComponent("snapshot.jsonl").path
            #expect(try arrange.run(["sync", "export", operations, "--db", laptop]).status == 0)
            let exported = try arrange.run(["sync", "export", "--snapshot", snapshot, "--db", laptop])
            #expect(exported.output == "Exported a snapshot of 1 list, 4 items and 1 operation (5 folded away before them) to \(snapshot); next time, export --since 6.\n", "\(exported.error)")
            let header = try String(contentsOfFile: snapshot, encoding: .utf8).split(separator: "\n")[0]
            #expect(header.hasPrefix(#"{"folded":{"#) && header.hasSuffix(#""format":"arrange-sync","snapshot":true,"version":4}"#), "\(header)")

            // A new device, with a database in a folder of its own: the operations start after the fold, the snapshot does not.
            let device = arrange.home.appendingPathComponent("new device")
            try FileManager.default.createDirectory(at: device, withIntermediateDirectories: true)
            let fresh = device.appendingPathComponent("arrange.sqlite").path
            let refused = try arrange.run(["sync", "import", operations, "--db", fresh])
            #expect(refused.status == 1 && refused.error.hasPrefix("error: The operations come after operations that were folded into a snapshot"), "\(refused.error)")
            let taken = try arrange.run(["sync", "import", snapshot, "--db", fresh])
            #expect(taken.status == 0, "\(taken.error)")
            #expect(taken.output.hasPrefix("Took the snapshot in \(snapshot), since this database lacked operations folded away there"), "\(taken.output)")
            #expect(try titles(arrange, db: fresh) == titles(arrange, db: laptop))
            #expect(try Set(titles(arrange, db: fresh)) == ["Milk", "Eggs", "Bread", "Tea"])

            // Taken again, it changes nothing; then the new database syncs as any other.
            let again = try arrange.run(["sync", "import", snapshot, "--db", fresh, "--json"])
            #expect(again.output == #"""
                {"aheadOfClock":[],"applied":0,"copiedReplicaDetected":false,"forgottenHere":false,"gaps":[],"held":0,"new":0,"received":1,"remade":0,"replaced":0,"rewound":0,"snapshotTaken":false,"unapplied":0}
                """# + "\n", "\(again.error)")
            #expect(try arrange.run(["sync", "import", operations, "--db", fresh]).output.hasPrefix("Imported 1 operation from \(operations): 0 new;"))
            #expect(try arrange.run(["add", "Rice", "--db", fresh]).status == 0)
            #expect(try arrange.run(["sync", phone, "--db", fresh]).status == 0)
            #expect(try arrange.run(["sync", laptop, "--db", fresh]).status == 0)
            #expect(try Set(titles(arrange, db: phone)) == ["Milk", "Eggs", "Bread", "Tea", "Rice"])
            let keys = { (db: String) in try arrange.run(["export", "--db", db]).output }
            #expect(try keys(fresh) == keys(laptop), "the same keys, not only the same order")

            let both = try arrange.run(["sync", "export", "--snapshot", "--since", "3", path("other"), "--db", laptop])
            #expect(both.status == 64)
            #expect(both.error.hasPrefix("error: --since and --snapshot do not go together"), "\(both.error)")
            #expect(!FileManager.default.fileExists(atPath: path("other")))
        }
    }

    @Test("sync PEER upgrades a peer of an older schema first and says so; it refuses a peer of a newer one, which stays byte for byte as it was")
    func peerSchema() async throws {
        try await withArrange { arrange in
            let path = { (name: String) in arrange.home.appendingPathComponent("\(name).sqlite").path }
            let here = path("here")
            #expect(try arrange.run(["add", "Milk", "--db", here]).status == 0)
            let current = SQLiteItemRepository.SchemaStatus.currentVersion

            // Files an Arrange of schema v4 wrote, before sync peers and compaction: one with a list and an item.
            let (old, older) = (path("old"), path("older"))
            for file in [old, older] {
                let queue = try DatabaseQueue(path: file)
                try Schema.migrator.migrate(queue, upTo: "v4: sync")
                try queue.write { db in
                    let list = UUID().uuidString.lowercased()
                    try db.execute(sql: "INSERT INTO lists (id, name, created_at, sort_index) VALUES (?, 'Errands', 1795392000, 0)", arguments: [list])
                    try db.execute(
                        sql: "INSERT INTO items (id, list_id, title, notes, sort_index, created_at, updated_at) VALUES (?, ?, 'Stamps', '', 0, 1795392000, 1795392000)",
                        arguments: [UUID().uuidString.lowercased(), list])
                    try db.execute(sql: "INSERT INTO default_list (id, list_id) VALUES (1, ?)", arguments: [list])
                }
                try queue.close()
            }
            let upgraded = try arrange.run(["sync", old, "--db", here])
            #expect(upgraded.status == 0, "\(upgraded.error)")
            #expect(upgraded.output.hasPrefix("Upgraded \(old)'s database from schema v4 to \(current) first. Sent 2 operations"), "\(upgraded.output)")
            #expect(try arrange.run(["list", "Errands", "--db", here]).output.contains("Stamps"))
            #expect(try !arrange.run(["sync", old, "--db", here]).output.contains("Upgraded"), "upgraded once")
            let json = try arrange.run(["sync", older, "--db", here, "--json"])
            #expect(json.output.contains(#""peerUpgraded":{"from":"v4","to":"\#(current)"}"#), "\(json.output)")

            // A file a newer Arrange wrote.
            let newer = path("newer")
            #expect(try arrange.run(["add", "Tea", "--db", newer]).status == 0)
            try DatabaseQueue(path: newer).write { db in try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99: from the future')") }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: newer))
            let before = try arrange.run(["export", "--db", here]).output
            let refused = try arrange.run(["sync", newer, "--db", here])
            #expect(refused.status == 1)
            #expect(refused.error == """
                error: \(newer) was written by a newer version of Arrange: its schema has 'v99: from the future', which this version does not know. \
                Nothing was exchanged and neither database changed; update Arrange to sync with it.

                """)
            #expect(refused.output.isEmpty)
            #expect(try Data(contentsOf: URL(fileURLWithPath: newer)) == bytes, "the peer is byte for byte as it was")
            #expect(try arrange.run(["export", "--db", here]).output == before, "nothing changed here")
        }
    }

    @Test("sync export and sync import carry operations through a file, from a cursor on; importing twice changes nothing")
    func files() async throws {
        try await withArrange { arrange in
            let (here, there) = (arrange.home.appendingPathComponent("here.sqlite").path, arrange.home.appendingPathComponent("there.sqlite").path)
            let file = arrange.home.appendingPathComponent("ops.jsonl").path
            #expect(try arrange.run(["add", "Milk", "--db", here]).status == 0)
            let exported = try arrange.run(["sync", "export", file, "--db", here])
            #expect(exported.output == "Exported 2 operations to \(file); next time, export --since 2.\n", "\(exported.error)")
            let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n")
            // The header: what this database says it holds, and the format.
            let header = try #require(lines.first)
            #expect(header.hasPrefix(#"{"acknowledgements":[{"clock":{"#) && header.contains(#""merged":{"#), "\(header)")
            #expect(header.hasSuffix(#"}],"format":"arrange-sync","version":3}"#), "\(header)")
            #expect(lines.count == 4, "the header, two operations and the trailer")
            #expect(lines.last?.hasPrefix(#"{"trailer":{"count":2,"sha256":""#) == true, "\(lines)")

            let imported = try arrange.run(["sync", "import", file, "--db", there])
            #expect(imported.output.hasPrefix("Imported 2 operations from \(file): 2 new;"), "\(imported.error)")
            #expect(try arrange.run(["sync", "import", file, "--db", there]).output.hasPrefix("Imported 2 operations from \(file): 0 new; applied 0"))
            #expect(try titles(arrange, db: there) == ["Milk"])

            #expect(try arrange.run(["add", "Eggs", "--db", here]).status == 0)
            let later = try arrange.run(["sync", "export", "--since", "2", "-", "--db", here])
            #expect(later.output.split(separator: "\n").count == 3, "the header, the one new operation and the trailer")
            #expect(later.error == "Exported 1 operation; next time, export --since 3.\n")
            #expect(try arrange.run(["sync", "import", "-", "--db", there], input: later.output).status == 0)
            #expect(try titles(arrange, db: there) == ["Milk", "Eggs"])
        }
    }

    @Test("A file whose cursor skips operations the importer never saw has them held back and said, until they come")
    func skippedByCursor() async throws {
        try await withArrange { arrange in
            let (here, there) = (arrange.home.appendingPathComponent("here.sqlite").path, arrange.home.appendingPathComponent("there.sqlite").path)
            for title in ["Milk", "Eggs", "Tea"] { #expect(try arrange.run(["add", title, "--db", here]).status == 0) }
            // The first file, with the Inbox and Milk, never reaches there.
            let later = try arrange.run(["sync", "export", "--since", "2", "-", "--db", here])
            let imported = try arrange.run(["sync", "import", "-", "--db", there], input: later.output)
            #expect(imported.status == 0, "\(imported.error)")
            #expect(imported.output.contains("2 operations held back until the operations before them arrive: replica "), "\(imported.output)")
            #expect(imported.output.contains("'s from 1 on; import or sync with a database that has them."), "\(imported.output)")
            #expect(try titles(arrange, db: there).isEmpty, "nothing after the gap is applied")

            let whole = try arrange.run(["sync", "export", "-", "--db", here])
            let filled = try arrange.run(["sync", "import", "-", "--db", there, "--json"], input: whole.output)
            let report = try jsonObject(filled.output)
            #expect(report["held"] as? Int == 0, "\(filled.output)")
            #expect(try titles(arrange, db: there) == ["Milk", "Eggs", "Tea"])
        }
    }

    @Test("Changes from a database whose clock ran a year ahead are held back and said; once its clock is right, its export makes them again in time")
    func clockAhead() async throws {
        try await withArrange { arrange in
            let (ahead, here) = (arrange.home.appendingPathComponent("ahead.sqlite").path, arrange.home.appendingPathComponent("here.sqlite").path)
            // The database of a device whose clock ran a year and a day ahead while it was used.
            let yearAhead: Int64 = (366 * 24 + 12) * 3_600 * 1_000
            let repository = try SQLiteItemRepository(path: ahead)
            let device = SyncEngine(repository: repository, wallClock: { HybridLogicalClock.systemMilliseconds() + yearAhead })
            try device.perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: "Milk", notes: "", place: SyncPlace(after: nil, before: nil)))
            let batch = try await device.operations(after: 0)
            try repository.close()

            let file = try OperationFile.encode(OperationFile.Contents(operations: batch.operations))
            let held = try arrange.run(["sync", "import", "-", "--db", here], input: String(decoding: file, as: UTF8.self))
            #expect(held.status == 0, "\(held.error)")
            #expect(held.output.contains(" held back: stamped 366 days ahead of this database's clock. They wait until the clock of the device that made them is set right"), "\(held.output)")
            #expect(try titles(arrange, db: here).isEmpty)

            // The device's clock is right again: Arrange runs there on the system clock.
            let export = try arrange.run(["sync", "export", "-", "--db", ahead])
            #expect(export.error.contains("Here: the clock had run 366 days ahead and is right again: the database took a new replica id and made 1 change again"), "\(export.error)")
            let imported = try arrange.run(["sync", "import", "-", "--db", here, "--json"], input: export.output)
            let report = try jsonObject(imported.output)
            #expect(report["held"] as? Int == 0, "\(imported.output)")
            #expect(try titles(arrange, db: here) == ["Milk"])
            #expect(try arrange.run(["add", "Eggs", "--db", ahead]).status == 0)
            let log = try OperationFile.decode(Data(try arrange.run(["sync", "export", "-", "--db", ahead]).output.utf8))
            let eggs = try #require(log.operations.last)
            #expect({ if case .addItem(let added) = eggs.change { added.title == "Eggs" } else { false } }(), "\(eggs)")
            #expect(eggs.clock.milliseconds <= HybridLogicalClock.systemMilliseconds() + HybridLogicalClock.maximumDrift, "a change made now is stamped now")
        }
    }

    @Test("sync replicas lists this database and the one it met, neither holding compaction back")
    func replicas() async throws {
        try await withArrange { arrange in
            let (laptop, phone) = (arrange.home.appendingPathComponent("laptop.sqlite").path, arrange.home.appendingPathComponent("phone.sqlite").path)
            #expect(try arrange.run(["add", "Milk", "--db", laptop]).status == 0)
            let neverSynced = try arrange.run(["sync", "replicas", "--db", laptop])
            #expect(neverSynced.output == "This database has never synced; its first sync carries everything it holds.\n", "\(neverSynced.error)")
            #expect(try arrange.run(["sync", "export", arrange.home.appendingPathComponent("laptop.jsonl").path, "--db", laptop]).status == 0)
            let alone = try arrange.run(["sync", "replicas", "--db", laptop])
            #expect(alone.output.contains("  this database  last heard "), "\(alone.output)\(alone.error)")
            #expect(try arrange.run(["add", "Tea", "--db", phone]).status == 0)
            #expect(try arrange.run(["sync", phone, "--db", laptop]).status == 0)

            let listed = try arrange.run(["sync", "replicas", "--json", "--db", laptop])
            let replicas = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]], "\(listed.error)")
            #expect(replicas.count == 2)
            #expect(replicas.map { $0["thisDatabase"] as? Bool } == [true, false])
            #expect(replicas.allSatisfy { $0["holdsCompactionBack"] as? Bool == false }, "\(listed.output)")
            #expect(replicas.allSatisfy { ($0["acknowledged"] as? [String: Int])?.count == 2 }, "\(listed.output)")
        }
    }

    @Test("An operation of a kind only a newer version knows is imported kept, not applied, and passed on, with one note to update")
    func newerKind() async throws {
        try await withArrange { arrange in
            let (here, there) = (arrange.home.appendingPathComponent("here.sqlite").path, arrange.home.appendingPathComponent("there.sqlite").path)
            #expect(try arrange.run(["add", "Milk", "--db", here]).status == 0)
            let exported = try OperationFile.decode(Data(try arrange.run(["sync", "export", "-", "--db", here]).output.utf8))
            let last = try #require(exported.operations.last)
            let newer = Data(#"""
                {"change":{"archiveList":{"id":"\#(UUID().uuidString.lowercased())"}},"clock":{"counter":0,"milliseconds":\#(last.clock.milliseconds + 1)},"id":"\#(UUID().uuidString.lowercased())","replica":"\#(last.replica.text)","sequence":\#(last.sequence + 1)}
                """#.utf8)
            let file = try OperationFile.encode(OperationFile.Contents(operations: exported.operations + [try SyncOperation(json: newer)]))

            let imported = try arrange.run(["sync", "import", "-", "--db", there], input: String(decoding: file, as: UTF8.self))
            #expect(imported.status == 0, "\(imported.error)")
            #expect(imported.error == "An operation from a newer version of Arrange was kept but not applied; update Arrange.\n")
            #expect(try titles(arrange, db: there) == ["Milk"])
            let passedOn = try arrange.run(["sync", "export", "-", "--db", there]).output
            #expect(passedOn.split(separator: "\n").map { Data($0.utf8) }.contains(newer), "passed on as it came")
        }
    }

    @Test("Two databases that sync only through files fold what both hold, once each has heard the other")
    func foldThroughFiles() async throws {
        try await withArrange { arrange in
            let (laptop, phone) = (arrange.home.appendingPathComponent("laptop.sqlite").path, arrange.home.appendingPathComponent("phone.sqlite").path)
            #expect(try arrange.run(["add", "Milk", "--db", laptop]).status == 0)
            #expect(try arrange.run(["add", "Tea", "--db", phone]).status == 0)
            let toPhone = try arrange.run(["sync", "export", "-", "--db", laptop]).output
            #expect(try arrange.run(["sync", "import", "-", "--db", phone], input: toPhone).status == 0)
            let toLaptop = try arrange.run(["sync", "export", "-", "--db", phone]).output
            let imported = try arrange.run(["sync", "import", "-", "--db", laptop, "--json"], input: toLaptop)
            let report = try jsonObject(imported.output)
            #expect((report["folded"] as? Int ?? 0) > 0, "\(imported.output)\(imported.error)")
            #expect(try titles(arrange, db: laptop).sorted() == ["Milk", "Tea"])
            #expect(try titles(arrange, db: phone).sorted() == ["Milk", "Tea"])
        }
    }

    @Test("sync forget retires a database by the start of its id; it no longer holds compaction back")
    func forget() async throws {
        try await withArrange { arrange in
            let path = { (name: String) in arrange.home.appendingPathComponent("\(name).sqlite").path }
            let (laptop, phone, desktop) = (path("laptop"), path("phone"), path("desktop"))
            #expect(try arrange.run(["add", "Milk", "--db", phone]).status == 0)
            #expect(try arrange.run(["add", "Tea", "--db", desktop]).status == 0)
            #expect(try arrange.run(["sync", phone, "--db", laptop]).status == 0)
            #expect(try arrange.run(["sync", desktop, "--db", laptop]).status == 0)
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(try arrange.run(["sync", "replicas", "--json", "--db", phone]).output.utf8)) as? [[String: Any]])
            let phoneID = try #require(listed.first { $0["thisDatabase"] as? Bool == true }?["id"] as? String)

            let unknown = try arrange.run(["sync", "forget", "zz", "--db", laptop])
            #expect(unknown.status != 0 && unknown.error.contains("No database this one knows of has an id that starts with 'zz'"), "\(unknown.error)")
            let forgot = try arrange.run(["sync", "forget", String(phoneID.prefix(8)), "--db", laptop])
            #expect(forgot.status == 0 && forgot.output.hasPrefix("Forgot \(phoneID): it no longer holds compaction back"), "\(forgot.output)\(forgot.error)")
            #expect(try arrange.run(["sync", "forget", phoneID, "--db", laptop]).output == "\(phoneID) was forgotten already.\n")
            #expect(try arrange.run(["sync", desktop, "--db", laptop]).status == 0)
            let replicas = try #require(try JSONSerialization.jsonObject(with: Data(try arrange.run(["sync", "replicas", "--json", "--db", desktop]).output.utf8)) as? [[String: Any]])
            let phoneSeen = try #require(replicas.first { $0["id"] as? String == phoneID })
            #expect(phoneSeen["forgotten"] as? Bool == true && phoneSeen["holdsCompactionBack"] as? Bool == false, "\(phoneSeen)")
        }
    }

    @Test("A bad operations file is refused whole, with its line, and nothing is applied")
    func badFiles() async throws {
        try await withArrange { arrange in
            let (here, there) = (arrange.home.appendingPathComponent("here.sqlite").path, arrange.home.appendingPathComponent("there.sqlite").path)
            let file = arrange.home.appendingPathComponent("ops.jsonl").path
            for title in ["Milk", "Eggs"] { #expect(try arrange.run(["add", title, "--db", here]).status == 0) }
            #expect(try arrange.run(["sync", "export", file, "--db", here]).status == 0)
            let good = try String(contentsOfFile: file, encoding: .utf8)
            #expect(try arrange.run(["add", "Tea", "--db", there]).status == 0)
            let before = try arrange.run(["export", "--db", there]).output
            let lines = good.split(separator: "\n", omittingEmptySubsequences: false)
            // A version 2 file has no trailer, so a line of it can be changed alone.
            let version2 = #"{"format":"arrange-sync","version":2}"#

            let cases: [(String, String)] = [
                (String(good.dropLast(5)), "error: The file is cut short: line 5 does not end."),
                (version2 + "\n" + lines[1] + "\n{\"change\": 3}\n" + lines[3] + "\n", "error: Line 3 is not an operation: the field 'id' is missing."),
                (version2 + "\n" + lines[1] + "\n" + lines[2].replacingOccurrences(of: #""sequence":2"#, with: #""sequence":0"#) + "\n",
                 "error: Line 3 is refused: its sequence is 0; sequences start at 1. Nothing was applied."),
                (lines[0] + "\n" + lines[1] + "\n" + lines[2].replacingOccurrences(of: "Milk", with: "Silk") + "\n" + lines[3] + "\n" + lines[4] + "\n",
                 "error: The file is damaged: its bytes do not match the SHA-256 digest of its trailer; nothing was applied. Export it again."),
                (#"{"format":"arrange-sync","version":9}"# + "\n", "error: The file is in format version 9, newer than this Arrange reads; update Arrange to read it."),
                ("hello\n", #"error: The file is not an Arrange operations file: its first line must be {"format":"arrange-sync","version":3} or an earlier version."#),
            ]
            for (text, message) in cases {
                try text.write(toFile: file, atomically: true, encoding: .utf8)
                let refused = try arrange.run(["sync", "import", file, "--db", there])
                #expect(refused.status == 1, "\(message)")
                #expect(refused.error == message + "\n")
                #expect(try arrange.run(["export", "--db", there]).output == before, "nothing applied")
            }
            let missing = try arrange.run(["sync", "import", arrange.home.appendingPathComponent("none.jsonl").path, "--db", there])
            #expect(missing.status == 66)
            let noPeer = try arrange.run(["sync", arrange.home.appendingPathComponent("none.sqlite").path, "--db", there])
            #expect(noPeer.status == 66 && noPeer.error.hasSuffix("no such file.\n"), "\(noPeer.error)")
            #expect(try arrange.run(["sync", there, "--db", there]).error == "error: \(there) is this database; name another one.\n")
        }
    }

    @Test("An export cut at any line boundary is refused by import with one line and exit status 1, and nothing is applied")
    func cutExport() async throws {
        try await withArrange { arrange in
            let (here, there) = (arrange.home.appendingPathComponent("here.sqlite").path, arrange.home.appendingPathComponent("there.sqlite").path)
            let file = arrange.home.appendingPathComponent("ops.jsonl").path
            for title in ["Milk", "Eggs", "Bread"] { #expect(try arrange.run(["add", title, "--db", here]).status == 0) }
            #expect(try arrange.run(["sync", "export", file, "--db", here]).status == 0)
            let whole = try Data(contentsOf: URL(fileURLWithPath: file))
            #expect(try arrange.run(["add", "Tea", "--db", there]).status == 0)
            let state = { try [["list", "--all", "--json"], ["lists", "--json"], ["export"]].map { try arrange.run($0 + ["--db", there]).output } }
            let before = try state()

            let ends = whole.indices.filter { whole[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
            #expect(ends.count == 6, "the header, four operations and the trailer")
            for end in ends.dropFirst().dropLast() {
                try whole.prefix(end).write(to: URL(fileURLWithPath: file))
                let refused = try arrange.run(["sync", "import", file, "--db", there])
                #expect(refused.status == 1, "cut after \(end) bytes")
                #expect(refused.error == "error: The file is cut short: it has no trailer line, so operations may be missing; nothing was applied. Export it again.\n")
                #expect(refused.output.isEmpty)
                #expect(try state() == before, "nothing applied from a file cut after \(end) bytes")
            }
            // The same cut through standard input.
            let piped = try arrange.run(["sync", "import", "-", "--db", there], input: String(decoding: whole.prefix(ends[3]), as: UTF8.self))
            #expect(piped.status == 1 && piped.error.hasPrefix("error: The file is cut short: it has no trailer line"), "\(piped.error)")
            #expect(try state() == before)

            try whole.write(to: URL(fileURLWithPath: file))
            let imported = try arrange.run(["sync", "import", file, "--db", there])
            #expect(imported.status == 0, "\(imported.error)")
            #expect(try Set(titles(arrange, db: there)) == ["Milk", "Eggs", "Bread", "Tea"])
        }
    }

    @Test("A session over an environment without sync refuses the sync commands with one line")
    func sessionWithoutSync() async throws {
        let (session, transcript) = try await makeSession()
        for line in ["sync export -", "sync import -", "sync other.sqlite"] {
            transcript.clear()
            #expect(await Repl(session: session).handle(line) == .proceed)
            #expect(transcript.error == "error: This session's database is not set up to sync; nothing was exchanged.\n", "\(line)")
        }
    }

    @Test("A copied database file takes a new replica id when it meets its original, and nothing is lost")
    func copiedFile() async throws {
        try await withArrange { arrange in
            let original = arrange.home.appendingPathComponent("original.sqlite").path
            let copy = arrange.home.appendingPathComponent("copy.sqlite").path
            #expect(try arrange.run(["add", "Milk", "--db", original]).status == 0)
            // A database that syncs, copied: a file that never synced has no replica id to share.
            #expect(try arrange.run(["sync", "export", arrange.home.appendingPathComponent("original.jsonl").path, "--db", original]).status == 0)
            try FileManager.default.copyItem(atPath: original, toPath: copy)
            #expect(try arrange.run(["add", "Eggs", "--db", original]).status == 0)
            #expect(try arrange.run(["add", "Tea", "--db", copy]).status == 0)
            let met = try arrange.run(["sync", copy, "--db", original])
            #expect(met.output.contains("\(copy) had this database's replica id (a copied file) and took a new one."), "\(met.output)")
            // The copy's change reached the original under the id they shared: the original left it too, and made its own again.
            #expect(met.output.contains("so this database took a new one and made 1 of its changes again under it."), "\(met.output)")
            #expect(try Set(titles(arrange, db: original)) == ["Milk", "Eggs", "Tea"])
            #expect(try titles(arrange, db: original) == titles(arrange, db: copy))
            #expect(try arrange.run(["add", "Bread", "--db", copy]).status == 0)
            #expect(try arrange.run(["sync", copy, "--db", original]).output.hasPrefix("Sent 0 operations to \(copy) and received 1;"))
        }
    }
}
