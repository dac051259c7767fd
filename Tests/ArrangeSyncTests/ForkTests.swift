import ArrangeModel
import ArrangeSQLite
import ArrangeStore
import ArrangeSync
import Foundation
import Testing

/// A database restored from a backup, or copied to a second device, goes on under the replica id
/// of the database it came from: two lines of history under one id. Each device must end with
/// the changes of both lines, in one order, the same everywhere.
@Suite("Sync: restored backups and copied databases")
struct ForkTests {
    /// Meets every pair of devices, twice round, so that everything reaches everyone.
    func settle(_ scenario: DeviceScenario, by meeting: Meeting, fold: Bool) async throws {
        for _ in 0..<2 {
            for (index, device) in scenario.devices.enumerated() {
                try await scenario.meet(device, scenario.devices[(index + 1) % scenario.devices.count], by: meeting, fold: fold)
            }
        }
    }

    @Test("A database restored from a backup, with changes made after it and after the backup, ends with both lines' changes everywhere", arguments: Meeting.allCases, [false, true])
    func restoredBackup(meeting: Meeting, folded: Bool) async throws {
        try await withTemporaryFolder { folder in
            let scenario = DeviceScenario(folder: folder)
            let phone = try scenario.device("phone")
            let laptop = try scenario.device("laptop")
            try phone.add("Milk")
            try phone.add("Bread")
            try await scenario.meet(phone, laptop, by: meeting, fold: folded)
            let backup = folder.appendingPathComponent("backup.sqlite").path
            try phone.copyFiles(to: backup)
            let before = try phone.replicaID()

            // After the backup: changes that reach the laptop, and a fold, before the phone is restored.
            try phone.add("Eggs")
            try phone.rename("Milk", to: "Oat milk")
            try await scenario.meet(phone, laptop, by: meeting, fold: folded)
            try await scenario.meet(phone, laptop, by: meeting, fold: folded)
            if folded {
                let foldedCount = try await laptop.engine.repository.readLog { try $0.fold()?.count ?? 0 }
                #expect(foldedCount > 0, "the laptop folded what both held")
            }

            // The restored phone goes on under its old replica id, from the backup's sequence numbers.
            try await scenario.archiveLogs()
            try phone.restore(from: backup)
            #expect(try phone.titles() == ["Milk", "Bread"])
            try phone.add("Tea")
            try phone.rename("Bread", to: "Rye bread")

            try await scenario.meet(phone, laptop, by: meeting, fold: folded)
            try await settle(scenario, by: meeting, fold: folded)
            #expect(try phone.replicaID() != before, "the restored phone left the replica id the laptop knew another line of")
            for device in scenario.devices {
                #expect(try device.titles() == ["Oat milk", "Rye bread", "Eggs", "Tea"], "\(device.path)")
            }
            try await scenario.expectConvergence("\(meeting), folded: \(folded)")
        }
    }

    @Test("A database copied to a second device, both going on, ends with the changes of the original, the copy and a third device everywhere", arguments: Meeting.allCases, [false, true])
    func copiedDatabase(meeting: Meeting, folded: Bool) async throws {
        try await withTemporaryFolder { folder in
            let scenario = DeviceScenario(folder: folder)
            let phone = try scenario.device("phone")
            let laptop = try scenario.device("laptop")
            try phone.add("Milk")
            try await scenario.meet(phone, laptop, by: meeting, fold: folded)
            let tablet = try scenario.copy(of: phone, named: "tablet")
            #expect(try tablet.replicaID() == phone.replicaID())

            try phone.add("Eggs")
            try tablet.add("Tea")
            try tablet.rename("Milk", to: "Oat milk")
            try await scenario.meet(phone, laptop, by: meeting, fold: folded)
            try await scenario.meet(phone, laptop, by: meeting, fold: folded)
            try phone.add("Rice")
            try await scenario.meet(tablet, laptop, by: meeting, fold: folded)
            try await settle(scenario, by: meeting, fold: folded)

            #expect(try tablet.replicaID() != phone.replicaID())
            for device in scenario.devices {
                #expect(try device.titles() == ["Oat milk", "Eggs", "Tea", "Rice"], "\(device.path)")
            }
            try await scenario.expectConvergence("\(meeting), folded: \(folded)")
        }
    }

    @Test("A database that took a snapshot holding both lines of a copied database's id takes what the line still under the id makes later")
    func snapshotOfTwoLines() async throws {
        try await withTemporaryFolder { folder in
            let scenario = DeviceScenario(folder: folder)
            let (phone, laptop) = try await phoneAndLaptopThatFolded(in: scenario)
            #expect(try await laptop.engine.repository.readLog { try $0.fold()?.count ?? 0 } > 0, "the laptop folded what both held")

            // The phone is copied to a tablet; each makes a change under the one replica id, and
            // the laptop takes in both, the tablet's by a file, before either line is renumbered.
            let tablet = try scenario.copy(of: phone, named: "tablet")
            try phone.add("Eggs")
            try tablet.add("Tea")
            try await scenario.meet(phone, laptop, by: .exchange, fold: false)
            try await scenario.archiveLogs()
            try await laptop.importFile(try await tablet.exportFile(), from: tablet)

            // A new desk takes the laptop's snapshot, which holds both lines.
            let desk = try scenario.device("desk")
            #expect(try await desk.engine.adoptSnapshot(of: laptop.engine) != nil, "the desk lacked what the laptop folded")

            // The phone goes on under the id, while the tablet learns of the phone's line and leaves it.
            try phone.add("Rice")
            try await scenario.meet(tablet, laptop, by: .exchange, fold: false)
            try await scenario.meet(phone, laptop, by: .exchange, fold: false)
            try await settle(scenario, by: .exchange, fold: false)
            #expect(try desk.titles() == ["Milk", "Eggs", "Tea", "Rice"])
            try await scenario.expectConvergence("a snapshot of two lines")
        }
    }

    /// A phone that added "Milk", and a laptop it met twice, both folding.
    func phoneAndLaptopThatFolded(in scenario: DeviceScenario) async throws -> (phone: Device, laptop: Device) {
        let phone = try scenario.device("phone")
        let laptop = try scenario.device("laptop")
        try phone.add("Milk")
        for _ in 0..<2 { try await scenario.meet(phone, laptop, by: .exchange, fold: true) }
        return (phone, laptop)
    }

    /// A phone and a laptop that folded (``phoneAndLaptopThatFolded(in:)``); the phone then
    /// added "Eggs", met the laptop twice, and was restored from a backup taken before "Eggs".
    ///
    /// - Returns: The devices, and the replica id the phone had.
    func phoneRestoredBeforeEggs(in scenario: DeviceScenario) async throws -> (phone: Device, laptop: Device, old: UUID) {
        let (phone, laptop) = try await phoneAndLaptopThatFolded(in: scenario)
        let backup = scenario.folder.appendingPathComponent("backup.sqlite").path
        try phone.copyFiles(to: backup)
        let old = try #require(try phone.replicaID())
        try phone.add("Eggs")
        for _ in 0..<2 { try await scenario.meet(phone, laptop, by: .exchange, fold: true) }
        try await scenario.archiveLogs()
        try phone.restore(from: backup)
        return (phone, laptop, old)
    }

    /// How a device sees a replica id: forgotten, and holding compaction back.
    func standing(of replica: UUID, on device: Device) async throws -> (isForgotten: Bool, holdsCompactionBack: Bool)? {
        try await device.engine.replicas().first { $0.id.rawValue == replica }.map { ($0.isForgotten, $0.holdsCompactionBack) }
    }

    @Test(
        "The id of a copied database holds folds back until the copy learns that the original left it, then no device waits for it",
        arguments: [true, false])
    func copyLeavesTheIdToo(originalChangesToo: Bool) async throws {
        try await withTemporaryFolder { folder in
            let scenario = DeviceScenario(folder: folder)
            let (phone, laptop) = try await phoneAndLaptopThatFolded(in: scenario)
            let tablet = try scenario.copy(of: phone, named: "tablet")
            let shared = try #require(try phone.replicaID())
            if originalChangesToo { try phone.add("Eggs") }
            try tablet.add("Tea")

            // The tablet's change reaches the phone through the laptop: the phone leaves the id,
            // stating again under its new one what it made after the copy, if anything.
            try await scenario.meet(tablet, laptop, by: .exchange, fold: true)
            try await scenario.meet(phone, laptop, by: .exchange, fold: true)
            #expect(try phone.replicaID() != shared)
            #expect(try tablet.replicaID() == shared, "the tablet has not heard of it yet")
            let pending = try await standing(of: shared, on: laptop)
            #expect(pending?.isForgotten == false && pending?.holdsCompactionBack == true, "the tablet still uses the id: \(String(describing: pending))")

            // The tablet learns of it, and leaves the id too: no one uses it now, and it retires it.
            let met = try await tablet.engine.exchange(with: laptop.engine)
            #expect(met.received.copiedReplicaDetected)
            #expect(try tablet.replicaID() != shared && tablet.replicaID() != phone.replicaID())
            let retirement = SyncChange.retireReplica(id: ReplicaID(rawValue: shared))
            #expect(try await tablet.engine.operations(after: 0).operations.contains { $0.change == retirement })
            let loggedBefore = try await laptop.engine.operations(after: 0).operations.count
            try await settle(scenario, by: .exchange, fold: true)
            for device in scenario.devices {
                let left = try await standing(of: shared, on: device)
                #expect(left?.isForgotten == true && left?.holdsCompactionBack == false, "\(device.name): \(String(describing: left))")
                #expect(try device.titles() == (originalChangesToo ? ["Milk", "Eggs", "Tea"] : ["Milk", "Tea"]), "\(device.name)")
            }
            #expect(try await laptop.engine.operations(after: 0).operations.count < loggedBefore, "folds went on")
            try await scenario.expectConvergence("a copy that leaves the id too")
        }
    }

    @Test("The id of a database restored from a backup holds folds back for the grace period at most, its other line being gone")
    func restoredIdIsRetiredInTime() async throws {
        try await withTemporaryFolder { folder in
            let scenario = DeviceScenario(folder: folder)
            let (phone, laptop, old) = try await phoneRestoredBeforeEggs(in: scenario)
            try phone.add("Tea")

            for _ in 0..<2 { try await scenario.meet(phone, laptop, by: .exchange, fold: true) }
            #expect(try phone.replicaID() != old)
            let pending = try await standing(of: old, on: laptop)
            #expect(pending?.isForgotten == false && pending?.holdsCompactionBack == true, "\(String(describing: pending))")

            scenario.clock.advance(by: SyncEngine.forkedReplicaGrace - 60_000)
            for _ in 0..<2 { try await scenario.meet(phone, laptop, by: .exchange, fold: true) }
            #expect(try await standing(of: old, on: laptop)?.isForgotten == false, "a minute before the grace ends")
            let loggedBefore = try await laptop.engine.operations(after: 0).operations.count

            scenario.clock.advance(by: 60_000)
            for _ in 0..<2 { try await scenario.meet(phone, laptop, by: .exchange, fold: true) }
            #expect(try await laptop.engine.operations(after: 0).operations.count < loggedBefore, "folds went on")
            for device in scenario.devices {
                let retired = try await standing(of: old, on: device)
                #expect(retired?.isForgotten == true && retired?.holdsCompactionBack == false, "\(device.name): \(String(describing: retired))")
                #expect(try device.titles() == ["Milk", "Eggs", "Tea"], "\(device.name)")
            }
            try await scenario.expectConvergence("a restored database's id, retired in time")
        }
    }

    @Test("A database restored from a backup after which it made nothing keeps its id when it takes a snapshot, its own folded operations being no other line")
    func restoredWithNothingAfter() async throws {
        try await withTemporaryFolder { folder in
            let scenario = DeviceScenario(folder: folder)
            let (phone, laptop) = try await phoneAndLaptopThatFolded(in: scenario)
            let backup = folder.appendingPathComponent("backup.sqlite").path
            try phone.copyFiles(to: backup)
            let id = try phone.replicaID()

            // The laptop's "Eggs" is folded on both; the phone, restored, lacks it.
            try laptop.add("Eggs")
            for _ in 0..<2 { try await scenario.meet(phone, laptop, by: .exchange, fold: true) }
            try await scenario.archiveLogs()
            try phone.restore(from: backup)

            let report = try #require(try await phone.engine.adoptSnapshot(of: laptop.engine), "the phone lacked what the laptop folded")
            #expect(!report.copiedReplicaDetected)
            #expect(try phone.replicaID() == id, "no other line of the phone's history exists")
            #expect(try phone.titles() == ["Milk", "Eggs"])
            try await scenario.expectConvergence("restored, with nothing made after the backup")
        }
    }

    @Test("A database restored from a backup whose clock ran ahead makes again, once its clock is right, what it made ahead under the old id")
    func restoredWithClockAhead() async throws {
        try await withTemporaryFolder { folder in
            let scenario = DeviceScenario(folder: folder)
            let (phone, laptop, old) = try await phoneRestoredBeforeEggs(in: scenario)

            // Restored, with its clock a year ahead, the phone makes a change under the number
            // of the laptop's "Eggs", then finds that line and renumbers its change: the laptop
            // holds it back, as stamped ahead.
            phone.offset.advance(by: 365 * 86_400_000)
            try phone.add("Tea")
            try await scenario.meet(phone, laptop, by: .filesFromFork, fold: false)
            #expect(try phone.replicaID() != old)
            #expect(try laptop.titles() == ["Milk", "Eggs"])
            // The old id is forgotten, as a person may do after a restore.
            #expect(try await laptop.engine.forget(ReplicaID(rawValue: old)) != nil)
            try await scenario.meet(phone, laptop, by: .exchange, fold: false)
            #expect(try laptop.titles() == ["Milk", "Eggs"], "still held back")

            // The laptop's acknowledgement of the old id counts "Eggs", not "Tea": the phone makes "Tea" again.
            phone.setClockRight()
            for _ in 0..<2 { try await scenario.meet(phone, laptop, by: .exchange, fold: true) }
            for device in scenario.devices { #expect(try device.titles() == ["Milk", "Eggs", "Tea"], "\(device.name)") }
            try await scenario.expectConvergence("a restored database whose clock ran ahead")
        }
    }
}

/// A renumbering states an operation of a forked replica id again under a new id: it changes
/// nothing itself, and brings the operation it carries where that is missing.
@Suite("Sync: renumberings")
struct RenumberingTests {
    let milk = Item.ID()

    /// An item added, then renamed, by one replica; and the add renumbered by another.
    func operations() throws -> (add: SyncOperation, rename: SyncOperation, renumbering: SyncOperation) {
        let maker = SyncEngine(repository: InMemoryItemRepository())
        let add = try maker.perform(.addItem(id: milk, list: ItemList.firstDefaultListID, title: "Milk", notes: "", place: SyncPlace(after: nil, before: nil)))
        let rename = try maker.perform(.editItem(id: milk, title: "Oat milk", notes: nil))
        let renumbering = SyncOperation(
            id: SyncOperation.ID(rawValue: UUID()), replica: ReplicaID(rawValue: UUID()), sequence: 1,
            clock: HLCTimestamp(milliseconds: rename.clock.milliseconds + 1_000, counter: 0),
            change: .renumbering(of: OperationReference(add), change: add.change))
        return (add, rename, renumbering)
    }

    /// A fresh store, after merging `batches` one after the other.
    func store(merging batches: [SyncOperation]...) throws -> SyncEngine {
        let engine = SyncEngine(repository: InMemoryItemRepository())
        for batch in batches { try engine.merge(batch) }
        return engine
    }

    @Test("A renumbering of an operation held changes nothing, whenever it comes")
    func heldOriginal() throws {
        let (add, rename, renumbering) = try operations()
        let plain = try store(merging: [add, rename])
        let renumbered = try store(merging: [add, rename])
        #expect(try renumbered.merge([renumbering]).new == 1)
        #expect(try Simulation.dump(renumbered.repository) == Simulation.dump(plain.repository))
        #expect(try renumbered.repository.read { try $0.item(id: milk)?.title } == "Oat milk", "the rename still comes after the add")
    }

    @Test("A store that lacks the operation a renumbering carries takes it from there, in its own place")
    func missingOriginal() throws {
        let (add, rename, renumbering) = try operations()
        let plain = try store(merging: [add, rename])
        let carried = try store(merging: [rename, renumbering])
        #expect(try Simulation.dump(carried.repository) == Simulation.dump(plain.repository))
        #expect(try carried.repository.readLog { try $0.loggedOperation(id: add.id.rawValue) } != nil, "the original is logged, to be passed on")
        // The original arriving after that is known already.
        #expect(try carried.merge([add]).new == 0)
    }
}
