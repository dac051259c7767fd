import ArrangeModel
import ArrangeStore
import ArrangeSync
import Foundation
import Testing

/// Devices with database files of their own make random changes and meet at random, by
/// `sync PEER` or by files, while the faults of real devices strike at random: a database
/// restored from an older backup of itself, a database copied to a new device while both go on,
/// a file cut short, a device lost and forgotten, a device whose clock is set a year ahead for
/// a while. Every run ends with every device the same,
/// and the same as one replay of every operation any device ever logged: nothing lost.
@Suite("Sync: random faults of real devices")
struct FaultSimulationTests {
    /// What befalls the devices in one step.
    enum Event: CaseIterable {
        case change, meeting, backup, restore, copy, cutFile, loss, clockAhead, clockRight

        /// How often each event comes, out of the sum of all.
        var weight: Int {
            switch self {
            case .change: 50
            case .meeting: 28
            case .backup: 6
            case .restore: 4
            case .copy: 4
            case .cutFile: 4
            case .loss: 2
            case .clockAhead: 2
            case .clockRight: 3
            }
        }

        static func random(using random: inout SeededRandomNumberGenerator) -> Event {
            var roll = Int.random(in: 0..<allCases.map(\.weight).reduce(0, +), using: &random)
            for event in allCases {
                if roll < event.weight { return event }
                roll -= event.weight
            }
            return .change
        }
    }

    /// One run: the devices, the backups each took of itself, and the faults met.
    final class Run {
        let scenario: DeviceScenario
        var random: SeededRandomNumberGenerator
        /// Backups by the device they were taken of.
        var backups: [ObjectIdentifier: [String]] = [:]
        var faults: [String] = []
        /// The devices whose clock was ever set wrong: they are not copied, restored or lost.
        var wrongClocks: Set<ObjectIdentifier> = []
        /// The devices that were ever copied: their clock is not set wrong.
        var copied: Set<ObjectIdentifier> = []
        /// The replica ids of the databases copied.
        var copiedIDs: Set<UUID> = []
        private var names = 0

        init(folder: URL, seed: UInt64) throws {
            scenario = DeviceScenario(folder: folder, seed: seed)
            random = SeededRandomNumberGenerator(seed: seed)
            for _ in 0..<2 { _ = try newDevice() }
        }

        var devices: [Device] { scenario.devices }

        func newDevice() throws -> Device {
            names += 1
            return try scenario.device("device\(names)")
        }

        func pick() -> Device { devices[Int.random(in: 0..<devices.count, using: &random)] }

        func pickPair() -> (Device, Device) {
            let first = Int.random(in: 0..<devices.count, using: &random)
            let second = (first + Int.random(in: 1..<devices.count, using: &random)) % devices.count
            return (devices[first], devices[second])
        }

        func words() -> [Int] { (0..<4).map { _ in Int.random(in: 0...Int(UInt32.max), using: &random) } }

        func step() async throws {
            let event = Event.random(using: &random)
            if Self.isTracing { try trace("\(event)") }
            switch event {
            case .change:
                let device = pick()
                device.clock.advance(by: Int64.random(in: 1...2_000, using: &random))
                if let change = try Simulation.change(from: words(), in: device.engine.repository, newID: scenario.newID) { try device.engine.perform(change) }
            case .meeting:
                let (first, second) = pickPair()
                let meeting = Meeting.allCases.randomElement(using: &random) ?? .exchange
                let fold = Bool.random(using: &random)
                if Self.isTracing { print("  \(first.name) \(second.name) \(meeting) fold \(fold)") }
                try await scenario.meet(first, second, by: meeting, fold: fold)
            case .backup:
                let device = pick()
                guard !wrongClocks.contains(ObjectIdentifier(device)) else { return }
                let backup = scenario.folder.appendingPathComponent("backup\(backups.values.joined().count).sqlite").path
                try device.copyFiles(to: backup)
                backups[ObjectIdentifier(device), default: []].append(backup)
            case .restore:
                // A device whose changes reached another, put back to an older backup of itself.
                let device = pick()
                guard !wrongClocks.contains(ObjectIdentifier(device)) else { return }
                guard let backup = backups[ObjectIdentifier(device)]?.randomElement(using: &random) else { return }
                try await scenario.meet(device, devices.first { $0 !== device } ?? device, by: .exchange, fold: false)
                try device.restore(from: backup)
                if Self.isTracing { print("  \(device.name) from \(backup)") }
                faults.append("restore")
            case .copy:
                // A database copied, while open, to a new device; both go on. Each replica id
                // is copied once at most, so that no id has three lines of history: see docs/sync.md,
                // Not solved yet.
                guard devices.count < 5 else { return }
                let original = pick()
                guard !wrongClocks.contains(ObjectIdentifier(original)) else { return }
                let id = try original.replicaID()
                guard try devices.filter({ try $0.replicaID() == id }).count == 1, id.map({ copiedIDs.insert($0).inserted }) ?? true else { return }
                let copy = scenario.folder.appendingPathComponent("copy\(names).sqlite").path
                try original.copyFiles(to: copy)
                try newDevice().restore(from: copy)
                if Self.isTracing { print("  \(original.name) to \(devices.last?.name ?? "")") }
                copied.insert(ObjectIdentifier(original))
                faults.append("copy")
            case .cutFile:
                let (from, to) = pickPair()
                let file = try await from.exportFile()
                let cut = file.prefix(Int.random(in: 0..<file.count, using: &random))
                let before = try Simulation.dump(to.engine.repository)
                let logged = try await to.engine.operations(after: 0).operations.count
                await #expect(throws: (any Error).self, "a cut file is refused") { try await to.importFile(cut, from: from) }
                #expect(try Simulation.dump(to.engine.repository) == before, "a cut file changes nothing")
                #expect(try await to.engine.operations(after: 0).operations.count == logged)
                faults.append("cut file")
            case .loss:
                // A device that synced once more, then was lost; another forgets it.
                guard devices.count > 2 else { return }
                let (lost, other) = pickPair()
                guard !wrongClocks.contains(ObjectIdentifier(lost)) else { return }
                try await scenario.meet(lost, other, by: .exchange, fold: false)
                let id = try #require(try lost.replicaID())
                scenario.devices.removeAll { $0 === lost }
                try await other.engine.forget(ReplicaID(rawValue: id))
                if Self.isTracing { print("  \(lost.name) forgotten by \(other.name)") }
                faults.append("loss")
            case .clockAhead:
                // One device at a time: two devices a year ahead take in each other's changes,
                // which the others hold back until time catches up (see ClockTests).
                guard !devices.contains(where: \.isClockWrong) else { return }
                let device = pick()
                guard !copied.contains(ObjectIdentifier(device)), try devices.filter({ try $0.replicaID() == device.replicaID() }).count == 1 else { return }
                wrongClocks.insert(ObjectIdentifier(device))
                device.offset.advance(by: 365 * 24 * 3_600_000 + Int64.random(in: 0...30 * 24 * 3_600_000, using: &random))
                faults.append("clock ahead")
            case .clockRight:
                devices.first(where: \.isClockWrong)?.setClockRight()
            }
        }

        static let isTracing = ProcessInfo.processInfo.environment["ARRANGE_FAULT_TRACE"] != nil

        func trace(_ event: String) throws {
            var line = event
            for device in devices {
                let id = try device.replicaID().map { String($0.uuidString.prefix(4)) } ?? "-"
                let fold = try device.engine.repository.readLog { try $0.fold() }
                let folded = fold.map { $0.covering.map { "\($0.key.uuidString.prefix(4)):\($0.value)" }.sorted().joined(separator: ",") } ?? ""
                let retired = try device.engine.repository.readLog { try $0.replicaProgresses().filter(\.isRetired).map { String($0.replica.uuidString.prefix(4)) } }
                line += "  \(device.name)=\(id)[\(folded)]r\(retired.sorted())"
            }
            print(line)
        }

        /// Every device meets the next, round and round, until everything reached everyone.
        func settle() async throws {
            for device in devices { device.setClockRight() }
            for _ in 0..<3 {
                for (index, device) in devices.enumerated() {
                    try await scenario.meet(device, devices[(index + 1) % devices.count], by: .exchange, fold: true)
                }
            }
        }
    }

    /// The seeds of the runs: 12 (the first 12 of the 20 earlier versions ran, to keep
    /// `scripts/test` within its time), and the seeds of runs that once ended apart
    /// (``regressionSeeds``); or `ARRANGE_FAULT_RUNS` of them; or those listed, comma
    /// separated, in `ARRANGE_FAULT_SEEDS` to repeat a run.
    static let seeds: [UInt64] = {
        let environment = ProcessInfo.processInfo.environment
        if let listed = environment["ARRANGE_FAULT_SEEDS"] { return listed.split(separator: ",").compactMap { UInt64($0) } }
        if let runs = environment["ARRANGE_FAULT_RUNS"].flatMap(UInt64.init) { return Array(0..<runs) }
        return Array(0..<12) + regressionSeeds
    }()

    /// Runs past the first 20 that ended apart before a fix, each a chain of faults too long
    /// for a test of its own to retell: 423 (a database restored twice from one backup took its
    /// own folded operations for another line) and 448 (a fold passed a renumbered operation
    /// that another store made again later).
    static let regressionSeeds: [UInt64] = [423, 448]

    @Test("Runs of 150 random steps with faults struck at random end with every device the same, nothing lost", arguments: seeds)
    func randomFaults(seed: UInt64) async throws {
        try await withTemporaryFolder { folder in
            let run = try Run(folder: folder, seed: seed)
            for _ in 0..<150 { try await run.step() }
            try await run.settle()
            try await run.scenario.expectConvergence("seed \(seed), faults \(run.faults)")
        }
    }
}
