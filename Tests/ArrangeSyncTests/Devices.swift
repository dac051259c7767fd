import ArrangeModel
import ArrangeSQLite
import ArrangeStore
import ArrangeSync
import Foundation
import Synchronization
import Testing

// Devices with database files of their own, for the tests of restored backups, copied
// databases and the faults of real devices.

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
    /// How far the device's wall clock is off the scenario's, in milliseconds: 0 unless it is set wrong.
    let offset = SimulatedClock(0)
    private let newID: @Sendable () -> UUID
    private(set) var engine: SyncEngine

    init(_ path: String, clock: SimulatedClock, newID: @escaping @Sendable () -> UUID = UUID.init) throws {
        self.path = path
        self.clock = clock
        self.newID = newID
        engine = try Self.open(path, clock: clock, offset: offset, newID: newID)
    }

    private static func open(_ path: String, clock: SimulatedClock, offset: SimulatedClock, newID: @escaping @Sendable () -> UUID) throws -> SyncEngine {
        SyncEngine(repository: try SQLiteItemRepository(path: path), wallClock: { clock.read() + offset.read() }, newID: newID)
    }

    /// The device's name, its file's.
    var name: String { URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent }

    /// Whether the device's clock is set wrong.
    var isClockWrong: Bool { offset.read() != 0 }

    /// Sets the device's clock right.
    func setClockRight() { offset.advance(by: -offset.read()) }

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
        engine = try Self.open(path, clock: clock, offset: offset, newID: newID)
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
            try await engine.merge(contents)
        } catch SyncError.missingFoldedOperations {
            let snapshot = try SnapshotFile.decode(try SnapshotFile.encode(try await other.engine.snapshot()))
            try await engine.adopt(snapshot)
            try await engine.merge(contents)
        }
        _ = try await engine.compact()
    }
}

/// Devices in a temporary folder, and every operation any of them ever logged.
final class DeviceScenario {
    let folder: URL
    var devices: [Device] = []
    /// Every operation any device logged, as ``archiveLogs()`` kept them.
    private(set) var archive: [SyncOperation.ID: SyncOperation] = [:]
    let clock = SimulatedClock(1_790_000_000_000)
    /// Makes the ids of replicas and operations: drawn from a seed, so that a run can be repeated.
    let newID: @Sendable () -> UUID

    init(folder: URL, seed: UInt64? = nil) {
        self.folder = folder
        guard let seed else {
            newID = UUID.init
            return
        }
        let random = Mutex(SeededRandomNumberGenerator(seed: seed))
        newID = { random.withLock { UUID.random(using: &$0) } }
    }

    /// A new device, on the scenario's clock unless it is given one of its own.
    func device(_ name: String, clock: SimulatedClock? = nil) throws -> Device {
        let device = try Device(folder.appendingPathComponent("\(name).sqlite").path, clock: clock ?? self.clock, newID: newID)
        devices.append(device)
        return device
    }

    /// A new device named `name`, on a copy of `original`'s files taken while it runs.
    func copy(of original: Device, named name: String) throws -> Device {
        let copy = folder.appendingPathComponent("\(name)-copy.sqlite").path
        try original.copyFiles(to: copy)
        let device = try device(name)
        try device.restore(from: copy)
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
        let dumps = try devices.map { try Simulation.dump($0.engine.repository, creations: true) }
        #expect(Set(dumps.map { "\($0)" }).count == 1, "devices differ: \(comment)")
        if ProcessInfo.processInfo.environment["ARRANGE_FAULT_TRACE"] != nil {
            for (device, dump) in zip(devices, dumps) where dump != dumps[0] {
                print("\(device.name) differs from \(devices[0].name):\n  " + dump.difference(from: dumps[0]).map { "\($0)" }.joined(separator: "\n  "))
            }
        }
        // On a clock that holds nothing back: what a device stamped ahead, every device holds
        // by the end, made again in time or, where every device took it in, as it was.
        let reference = SyncEngine(repository: InMemoryItemRepository(), wallClock: { .max / 2 })
        try await reference.merge(archive.values.sorted { $0.order < $1.order })
        #expect(try Simulation.dump(reference.repository, creations: true) == dumps[0], "a device differs from one replay of every operation: \(comment)")
        // No operation id stands for two changes.
        let operations = Array(archive.values)
        #expect(Set(operations.map(\.id)).count == operations.count)
    }
}

extension UUID {
    /// A version 4 UUID drawn from `generator`.
    static func random(using generator: inout some RandomNumberGenerator) -> UUID {
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
