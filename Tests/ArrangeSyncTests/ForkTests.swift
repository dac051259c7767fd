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
    /// How two devices meet in a scenario.
    enum Meeting: String, CaseIterable, CustomTestStringConvertible {
        /// `exchange(with:)`, as `arrange sync PEER` does.
        case exchange
        /// Files of operations both ways, the restored or copied side's first, as `sync export`
        /// and `sync import` do.
        case filesFromFork
        /// Files of operations both ways, the other side's first.
        case filesToFork

        var testDescription: String { rawValue }
    }

    /// A device: a database file of its own, and the engine on it.
    final class Device {
        let path: String
        let clock: SimulatedClock
        private(set) var engine: SyncEngine

        init(_ path: String, clock: SimulatedClock) throws {
            self.path = path
            self.clock = clock
            engine = try Self.open(path, clock: clock)
        }

        private static func open(_ path: String, clock: SimulatedClock) throws -> SyncEngine {
            SyncEngine(repository: try SQLiteItemRepository(path: path), wallClock: { clock.read() })
        }

        /// The database file and its `-wal` and `-shm`, as a backup or a copy takes them while the app runs.
        var files: [String] { ["", "-wal", "-shm"].map { path + $0 } }

        /// Copies the files as they are now, without closing the database.
        func copyFiles(to target: String) throws {
            for (source, destination) in zip(files, ["", "-wal", "-shm"].map { target + $0 }) where FileManager.default.fileExists(atPath: source) {
                try? FileManager.default.removeItem(atPath: destination)
                try FileManager.default.copyItem(atPath: source, toPath: destination)
            }
        }

        /// Closes the database, puts the files at `backup` in its place, and opens it again.
        func restore(from backup: String) throws {
            try (engine.repository as? SQLiteItemRepository)?.close()
            for file in files { try? FileManager.default.removeItem(atPath: file) }
            for (source, destination) in zip(["", "-wal", "-shm"].map { backup + $0 }, files) where FileManager.default.fileExists(atPath: source) {
                try FileManager.default.copyItem(atPath: source, toPath: destination)
            }
            engine = try Self.open(path, clock: clock)
        }

        func add(_ title: String) throws {
            clock.advance(by: 1_000)
            _ = try engine.perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: title, notes: "", place: SyncPlace(after: nil, before: nil)))
        }

        func rename(_ title: String, to newTitle: String) throws {
            clock.advance(by: 1_000)
            let item = try #require(try items().first { $0.title == title })
            _ = try engine.perform(.editItem(id: item.id, title: newTitle, notes: nil))
        }

        func items() throws -> [Item] {
            try engine.repository.read { try $0.items(in: ItemList.firstDefaultListID, visibility: .all, offset: 0, limit: .max) }
        }

        func titles() throws -> Set<String> { Set(try items().map(\.title)) }

        func replicaID() throws -> UUID? { try engine.repository.readLog { try $0.replicaState()?.id } }

        /// What `sync export` writes: every operation, what was folded, and the acknowledgements.
        func exportFile() async throws -> Data {
            let batch = try await engine.operations(after: 0)
            return try OperationFile.encode(OperationFile.Contents(
                operations: batch.operations, folded: batch.folded, foldedTips: batch.foldedTips, acknowledgements: try await engine.acknowledgements()))
        }

        /// What `sync import` does: takes a snapshot when it lacks what the file's store folded,
        /// merges, hears the acknowledgements, and folds.
        func importFile(_ data: Data, from other: Device) async throws {
            let contents = try OperationFile.decode(data)
            do {
                try await engine.merge(contents.operations, after: contents.folded, endingAt: contents.foldedTips)
            } catch SyncError.missingFoldedOperations {
                let snapshot = try SnapshotFile.decode(try SnapshotFile.encode(try await other.engine.snapshot()))
                try await engine.adopt(snapshot)
                try await engine.merge(contents.operations, after: contents.folded, endingAt: contents.foldedTips)
            }
            try await engine.hear(contents.acknowledgements)
            _ = try await engine.compact()
        }
    }

    /// Devices in a temporary folder, and every operation any of them ever logged.
    final class Scenario {
        let folder: URL
        var devices: [Device] = []
        private var archive: [SyncOperation.ID: SyncOperation] = [:]
        let clock = SimulatedClock(1_790_000_000_000)

        init(folder: URL) { self.folder = folder }

        func device(_ name: String) throws -> Device {
            let device = try Device(folder.appendingPathComponent("\(name).sqlite").path, clock: clock)
            devices.append(device)
            return device
        }

        /// Keeps what every device's log holds now, before a fold removes it.
        func archiveLogs() async throws {
            for device in devices {
                for operation in try await device.engine.operations(after: 0).operations { archive[operation.id] = operation }
            }
        }

        func meet(_ first: Device, _ second: Device, by meeting: Meeting, fold: Bool) async throws {
            try await archiveLogs()
            switch meeting {
            case .exchange:
                _ = try await first.engine.exchange(with: second.engine)
                try await archiveLogs()
                if fold { _ = try await first.engine.compact() + second.engine.compact() }
            case .filesFromFork, .filesToFork:
                let (from, to) = meeting == .filesFromFork ? (first, second) : (second, first)
                try await to.importFile(try await from.exportFile(), from: from)
                try await archiveLogs()
                try await from.importFile(try await to.exportFile(), from: to)
            }
            try await archiveLogs()
        }

        /// Every device holds the same rows, those one merge of every operation ever made ends with.
        func expectConvergence(_ comment: Comment) async throws {
            try await archiveLogs()
            let dumps = try devices.map { try Simulation.dump($0.engine.repository) }
            #expect(Set(dumps.map { "\($0)" }).count == 1, "devices differ: \(comment)")
            let reference = SyncEngine(repository: InMemoryItemRepository())
            try await reference.merge(archive.values.sorted { $0.order < $1.order })
            #expect(try Simulation.dump(reference.repository) == dumps[0], "a device differs from one replay of every operation: \(comment)")
            // No operation id stands for two changes.
            let operations = Array(archive.values)
            #expect(Set(operations.map(\.id)).count == operations.count)
        }
    }

    /// Meets every pair of devices, twice round, so that everything reaches everyone.
    func settle(_ scenario: Scenario, by meeting: Meeting, fold: Bool) async throws {
        for _ in 0..<2 {
            for (index, device) in scenario.devices.enumerated() {
                try await scenario.meet(device, scenario.devices[(index + 1) % scenario.devices.count], by: meeting, fold: fold)
            }
        }
    }

    @Test("A database restored from a backup, with changes made after it and after the backup, ends with both lines' changes everywhere", arguments: Meeting.allCases, [false, true])
    func restoredBackup(meeting: Meeting, folded: Bool) async throws {
        try await withTemporaryFolder { folder in
            let scenario = Scenario(folder: folder)
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

    // Files that flow from the copy first are not yet settled: the original can learn of the
    // copy's line before it learns the copy made it again, make its own again too, and meet a
    // store that folded its originals (`SyncError.foldedApart`).
    @Test("A database copied to a second device, both going on, ends with the changes of the original, the copy and a third device everywhere", arguments: [Meeting.exchange, .filesToFork], [false, true])
    func copiedDatabase(meeting: Meeting, folded: Bool) async throws {
        try await withTemporaryFolder { folder in
            let scenario = Scenario(folder: folder)
            let phone = try scenario.device("phone")
            let laptop = try scenario.device("laptop")
            try phone.add("Milk")
            try await scenario.meet(phone, laptop, by: meeting, fold: folded)
            let tablet = try scenario.device("tablet")
            let copy = folder.appendingPathComponent("copy.sqlite").path
            try phone.copyFiles(to: copy)
            try tablet.restore(from: copy)
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
}
