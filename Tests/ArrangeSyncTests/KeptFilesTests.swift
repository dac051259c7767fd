import ArrangeArchive
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import ArrangeStore
@testable import ArrangeSync
import Foundation
import GRDB
import Testing

/// Files written by earlier versions of Arrange, kept in `Kept/`, a folder for each generation:
/// what four devices logged, exported, folded and snapshotted while they made one change of
/// every kind known then, and one of their databases. Whatever shape the code that reads them
/// takes, it reads every generation, merges it and ends in the store it ended in then
/// (`state.txt`). Generation 1 was written before canceled items, generation 2 with them, and
/// generation 3 with finished lists.
///
/// `ARRANGE_WRITE_KEPT_FILES=DIR swift test --filter KeptFilesTests/write` writes the files anew
/// into `DIR`, with the code as it is: do it only for a new kind of change, into a new
/// generation's folder beside the old ones, and add it to ``generations``.
@Suite("Sync: files written by an earlier version")
struct KeptFilesTests {
    /// The generations of kept files, oldest first: the last holds every kind of change.
    static let generations = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10"]

    /// The folder of a generation's kept files.
    static func folder(_ generation: String) -> URL {
        Bundle.module.resourceURL!.appendingPathComponent("Kept").appendingPathComponent(generation)
    }

    static func kept(_ name: String, of generation: String) throws -> Data {
        try Data(contentsOf: folder(generation).appendingPathComponent(name))
    }

    /// The state every store of a generation ends in, one line of ``Simulation/dump(_:keys:)`` a line.
    static func expectedState(of generation: String) throws -> [String] {
        String(decoding: try kept("state.txt", of: generation), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// Every operation the devices of a generation made, one JSON line each, in the total order.
    static func everyOperationLine(of generation: String) throws -> [Data] {
        try kept("every-operation.jsonl", of: generation).split(separator: UInt8(ascii: "\n")).map { Data($0) }
    }

    static let devices = ["phone", "laptop", "tablet", "watch"]

    @Test("Every operation reads, and writes back byte for byte; every kind of change is among the last generation's", arguments: generations)
    func operationsReadBack(generation: String) throws {
        var kinds: Set<String> = []
        for line in try Self.everyOperationLine(of: generation) {
            let operation = try SyncOperation(json: line)
            #expect(operation.original == nil, "read in full: \(String(decoding: line, as: UTF8.self))")
            #expect(try operation.json() == line)
            kinds.formUnion(try Self.kinds(of: operation.change))
        }
        guard generation == Self.generations.last else { return }
        #expect(SyncChange.knownKinds.subtracting(kinds).isEmpty, "kinds no kept operation has: \(SyncChange.knownKinds.subtracting(kinds).sorted())")
    }

    /// The name of the change's kind, and of the kinds of what it carries.
    static func kinds(of change: SyncChange) throws -> [String] {
        let object = try JSONSerialization.jsonObject(with: try SyncCoding.encoder.encode(change)) as? [String: Any]
        let name = try #require(object?.keys.first)
        switch change {
        case .replacement(_, let carried), .renumbering(_, let carried): return [name] + (try kinds(of: carried))
        default: return [name]
        }
    }

    @Test("Every operation, merged from nothing in one go, ends in the kept state", arguments: generations, StoreKind.allCases)
    func everyOperationMerged(generation: String, kind: StoreKind) async throws {
        let engine = SyncEngine(repository: try kind.makeRepository())
        try await engine.merge(try Self.everyOperationLine(of: generation).map { try SyncOperation(json: $0) })
        #expect(try Simulation.dump(engine.repository) == Self.expectedState(of: generation))
    }

    @Test("Each device's exported file, merged onto the kept snapshot in every order, ends in the kept state", arguments: generations, StoreKind.allCases)
    func filesMergedOnSnapshot(generation: String, kind: StoreKind) async throws {
        let snapshot = try SnapshotFile.decode(try Self.kept("laptop.arrange-snapshot", of: generation))
        let files = try Self.devices.map { try OperationFile.decode(try Self.kept("\($0).arrange-ops", of: generation)) }
        let rotations = Self.devices.indices.map { start in Self.devices.indices.map { ($0 + start) % Self.devices.count } }
        for order in rotations + rotations.map({ $0.reversed() }) {
            let engine = SyncEngine(repository: try kind.makeRepository())
            try await engine.adopt(snapshot)
            for index in order { try await engine.merge(files[index]) }
            #expect(try Simulation.dump(engine.repository) == Self.expectedState(of: generation), "files in the order \(order.map { Self.devices[$0] })")
        }
    }

    @Test("The kept database opens, holds the kept state, and merges the other devices' files to it again", arguments: generations)
    func keptDatabase(generation: String) async throws {
        try await withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("phone.sqlite").path
            try FileManager.default.copyItem(at: Self.folder(generation).appendingPathComponent("phone.sqlite"), to: URL(fileURLWithPath: path))
            // The log's changes, as the table holds them, read and written again byte for byte.
            let logged = try await DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT change FROM sync_operations ORDER BY position") }
            #expect(!logged.isEmpty)
            for text in logged {
                let change = try SyncChange.decoding(Data(text.utf8))
                #expect(String(decoding: LogJSON.encode { $0.change(change) }, as: UTF8.self) == text)
            }
            let engine = SyncEngine(repository: try SQLiteItemRepository(path: path))
            #expect(try Simulation.dump(engine.repository) == Self.expectedState(of: generation))
            for device in Self.devices {
                let report = try await engine.merge(try OperationFile.decode(try Self.kept("\(device).arrange-ops", of: generation)))
                #expect(report.new == 0, "\(device): the kept database held it all")
            }
            #expect(try Simulation.dump(engine.repository) == Self.expectedState(of: generation))
        }
    }

    // MARK: Writing the files anew

    @Test("Writes the kept files anew", .enabled(if: ProcessInfo.processInfo.environment["ARRANGE_WRITE_KEPT_FILES"] != nil))
    func write() async throws {
        let target = URL(fileURLWithPath: try #require(ProcessInfo.processInfo.environment["ARRANGE_WRITE_KEPT_FILES"]))
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        try await withTemporaryFolder { folder in
            let scenario = DeviceScenario(folder: folder, seed: 60)
            let phone = try scenario.device("phone")
            let laptop = try scenario.device("laptop")
            try await Self.everyKindOfChange(on: phone, clock: scenario.clock)
            try await scenario.meet(phone, laptop, by: .exchange, fold: false)

            // A copy of the phone goes on under its replica id: the two leave it (leaveForkedReplica)
            // and state again what they made under it (renumbering).
            let tablet = try scenario.copy(of: phone, named: "tablet")
            try phone.add("Made on the phone after the copy")
            try tablet.add("Made on the tablet after the copy")
            try await scenario.meet(tablet, laptop, by: .exchange, fold: false)
            try await scenario.meet(phone, laptop, by: .exchange, fold: false)

            // A device none of the others knows yet, with its clock behind, makes a change that
            // sorts before what the phone and the laptop fold: met late, it is made again (replacement).
            try await scenario.meet(tablet, laptop, by: .exchange, fold: false)
            let watch = try scenario.device("watch", clock: SimulatedClock(scenario.clock.read() - 60_000))
            try await watch.engine.merge(try await phone.engine.operations(after: 0).operations)
            try watch.add("Made on the watch with its clock behind")
            try phone.add("Made on the phone before the fold")
            for device in [phone, tablet, phone] { try await scenario.meet(device, laptop, by: .exchange, fold: device === phone) }
            try await scenario.meet(watch, laptop, by: .exchange, fold: false)

            // A device met once and then lost, forgotten (retireReplica).
            let lost = try scenario.device("lost")
            try lost.add("Made on a device since lost")
            try await scenario.meet(lost, laptop, by: .exchange, fold: false)
            let lostID = ReplicaID(rawValue: try #require(try lost.replicaID()))
            scenario.devices.removeAll { $0 === lost }
            #expect(try await laptop.engine.forget(lostID) != nil)
            try await scenario.meet(phone, laptop, by: .exchange, fold: true)
            for _ in 0..<3 {
                for device in [phone, tablet, watch] { try await scenario.meet(device, laptop, by: .exchange, fold: false) }
            }
            try await scenario.expectConvergence("the kept scenario")

            var lines = Data()
            try await scenario.archiveLogs()
            for operation in scenario.everyOperation() { lines += try operation.json() + Data("\n".utf8) }
            try lines.write(to: target.appendingPathComponent("every-operation.jsonl"))
            for device in scenario.devices {
                try await device.exportFile().write(to: target.appendingPathComponent("\(device.name).arrange-ops"))
            }
            try SnapshotFile.encode(try await laptop.engine.snapshot()).write(to: target.appendingPathComponent("laptop.arrange-snapshot"))
            let state = try Simulation.dump(phone.engine.repository).map { $0 + "\n" }.joined()
            try Data(state.utf8).write(to: target.appendingPathComponent("state.txt"))
            try (phone.engine.repository as? SQLiteItemRepository)?.close()
            try FileManager.default.copyItem(atPath: phone.path, toPath: target.appendingPathComponent("phone.sqlite").path)
        }
    }

    /// Makes one change of every kind that an intent makes, on `device`, through intents.
    static func everyKindOfChange(on device: Device, clock: SimulatedClock) async throws {
        let environment = try IntentEnvironment(repository: device.engine.repository, historyLimit: 20, sync: device.engine)
        func run<Intent: ArrangeIntent>(_ intent: Intent) async throws -> Intent.Result {
            clock.advance(by: 1_000)
            return try await intent.perform(in: environment)
        }
        let office = try await run(CreateArea(name: "Office")).area.id
        let home = try await run(CreateArea(name: "Home", placement: .top)).area.id
        _ = try await run(RenameArea(area: home, name: "House"))
        _ = try await run(MoveArea(home, to: .bottom))
        let groceries = try await run(CreateList(name: "Groceries")).list.id
        let work = try await run(CreateList(name: "Work", in: .area(office))).list.id
        let spare = try await run(CreateList(name: "Spare", in: .area(home))).list.id
        _ = try await run(RenameList(list: work, name: "Office work"))
        _ = try await run(MoveList(groceries, to: .top, in: .area(home)))
        var items: [String: Item.ID] = [:]
        for title in ["Milk", "Eggs", "Bread", "Report", "Slides"] {
            items[title] = try await run(AddItem(title: title, list: ["Report", "Slides"].contains(title) ? work : groceries)).items[0].id
        }
        let (milk, eggs, bread, report, slides) = try (#require(items["Milk"]), #require(items["Eggs"]), #require(items["Bread"]), #require(items["Report"]), #require(items["Slides"]))
        _ = try await run(EditItem(eggs, title: "Free-range eggs", notes: "A dozen"))
        _ = try await run(CompleteItems([bread]))
        _ = try await run(ReopenItems([bread]))
        _ = try await run(CancelItems([bread]))
        _ = try await run(ReopenItems([bread]))
        _ = try await run(MoveItems([slides], to: .top, into: groceries, visibility: .all))
        _ = try await run(AddToToday([milk, report], placement: .top))
        _ = try await run(MoveInToday([report], to: .top, visibility: .all))
        _ = try await run(RemoveFromToday([report]))
        let day = try Day(parsing: "2026-12-01")
        _ = try await run(SetWhen([eggs], to: .on(day, evening: true)))
        // A deadline that has come brings the report into Today; taken out, it is dismissed, and a
        // new deadline brings it back.
        let past = try Day(parsing: "2026-01-05")
        _ = try await run(SetDeadline([report], to: past))
        _ = try await run(RemoveFromToday([report]))
        _ = try await run(SetDeadline([report], to: day))
        _ = try await run(SetReminder([eggs], at: try TimeOfDay(parsing: "09:30")))
        let series = try #require(try await run(SetRepeat(item: eggs, repeat: try RepeatRule(.fixed, every: 1, .week), day: day)).item.series)
        _ = try await run(PauseRepeat(series: series))
        _ = try await run(ResumeRepeat(series: series))
        _ = try await run(MakeDueRepeats(day: try Day(parsing: "2026-12-08")))
        let oat = try #require(try await run(AddChecklistItem(title: "Oat", to: milk)).changed.first)
        let skim = try #require(try await run(AddChecklistItem(title: "Skim", to: milk)).changed.first)
        _ = try await run(EditChecklistItem(oat, title: "Oat, barista"))
        _ = try await run(MoveChecklistItems([skim], to: .top))
        _ = try await run(CompleteChecklistItems([oat]))
        _ = try await run(ReopenChecklistItems([oat]))
        _ = try await run(CancelChecklistItems([oat]))
        _ = try await run(ReopenChecklistItems([oat]))
        _ = try await run(DeleteChecklistItems([skim]))
        _ = try await run(NormalizeList(.checklist(milk)))
        let dairy = try await run(CreateHeading(title: "Dairy", in: groceries)).heading.id
        let bakery = try await run(CreateHeading(title: "Bakery", in: groceries)).heading.id
        _ = try await run(RenameHeading(heading: dairy, title: "Dairy and eggs"))
        _ = try await run(MoveItems([eggs], to: .top, section: .heading(dairy)))
        _ = try await run(MoveHeading(bakery, to: .top))
        _ = try await run(NormalizeList(.headings(groceries)))
        _ = try await run(NormalizeList(.heading(dairy)))
        _ = try await run(MoveHeading(bakery, to: .top, in: work))
        _ = try await run(DeleteHeading(heading: bakery))
        _ = try await run(NormalizeList(list: groceries))
        _ = try await run(NormalizeList(.areas))
        _ = try await run(NormalizeList(.area(home)))
        let errands = try await run(CreateList(name: "Errands")).list.id
        _ = try await run(AddItem(title: "Post office", list: errands))
        _ = try await run(CompleteList(list: errands))
        _ = try await run(ReopenList(list: errands))
        _ = try await run(CancelList(list: errands, items: .keep))
        _ = try await run(SetListWhen(list: work, to: .on(day, evening: true)))
        _ = try await run(SetListDeadline(list: work, to: day))
        _ = try await run(SetListCreationDate(list: work, to: Date(timeIntervalSince1970: 1_700_000_000)))
        _ = try await run(SetItemCreationDate(item: milk, to: Date(timeIntervalSince1970: 1_700_000_000)))
        _ = try await run(SetListNotes(list: work, notes: "Quarterly reports"))
        // The person's own mark in Today (markToday) comes with an item of a shared list, or
        // from an archive that holds one.
        var marked = try await run(ExportArchive(list: groceries))
        marked.lists[0].items = marked.lists[0].items.map { item in
            var item = item
            if item.id == milk { item.todayMark = .added(day, evening: true) }
            return item
        }
        _ = try await run(ImportArchive(marked))
        let errand = try await run(CreateTag(name: "Errand")).tag.id
        let shops = try await run(CreateTag(name: "Shops", in: .children(of: errand))).tag.id
        let spareTag = try await run(CreateTag(name: "Spare", placement: .top)).tag.id
        _ = try await run(RenameTag(tag: shops, name: "Shopping"))
        _ = try await run(MoveTag(shops, to: .top, in: .topLevel))
        _ = try await run(NormalizeList(.tags(nil)))
        _ = try await run(AddTags([errand, spareTag], to: .items([milk, eggs])))
        _ = try await run(AddTags([shops], to: .list(groceries)))
        _ = try await run(AddTags([errand], to: .area(home)))
        _ = try await run(RemoveTags([errand], from: .items([eggs])))
        _ = try await run(DeleteTag(tag: spareTag))
        _ = try await run(DeleteItems([slides]))
        _ = try await run(Undo())
        _ = try await run(DeleteList(list: spare))
        _ = try await run(RestoreFromTrash(lists: [spare]))
        _ = try await run(DeleteHeading(heading: dairy))
        _ = try await run(RestoreFromTrash(headings: [dairy]))
        _ = try await run(DeleteItems([bread]))
        _ = try await run(RestoreFromTrash(items: [bread]))
        _ = try await run(DeleteItems([bread]))
        _ = try await run(DeleteList(list: spare))
        _ = try await run(EmptyTrash())
        _ = try await run(DeleteItems([report]))
        _ = try await run(DeleteArea(area: office))
    }
}

extension DeviceScenario {
    /// Every operation any device logged, as ``archiveLogs()`` kept them, in the total order.
    func everyOperation() -> [SyncOperation] {
        archive.values.sorted { $0.order < $1.order }
    }
}
