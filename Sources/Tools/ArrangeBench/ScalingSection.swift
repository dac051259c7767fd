import ArrangeBenchSupport
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

/// How move times grow from a small list to a big one, on each backend, in one run.
struct ScalingSection {
    let smallCount: Int
    let largeCount: Int
    let rounds: Int
    let offsetRounds: Int
    let seed: UInt64
    let backends: [Backend]
    let log: (String) -> Void

    /// One kind of move on one backend: its median on the big list over the small one's.
    struct Row {
        let backend: Backend
        let move: String
        let ratio: MedianRatio
    }

    func run(in directory: URL) throws -> [Row] {
        try backends.flatMap { backend in
            var random = SeededRandomNumberGenerator(seed: seed ^ 0x5CA1E)
            log("  \(backend.title): loading \(Format.count(smallCount)) and \(Format.count(largeCount)) items…")
            // Each size in a repository of its own: the small one must not pay for the big one's items.
            let small = try TimedList(count: smallCount, named: "Small", in: backend.makeRepository(in: directory, named: "small"), random: &random)
            let large = try TimedList(count: largeCount, named: "Large", in: backend.makeRepository(in: directory, named: "large"), random: &random)
            log("  \(backend.title): timing moves…")
            let byID = try InterleavedSampler(rounds: rounds).sample([small.moveByID, large.moveByID])
            let byOffset = try InterleavedSampler(rounds: offsetRounds).sample([small.moveByOffset, large.moveByOffset])
            return [
                Row(backend: backend, move: TimedList.byIDTitle, ratio: MedianRatio(byID[1], over: byID[0])),
                Row(backend: backend, move: TimedList.byOffsetTitle, ratio: MedianRatio(byOffset[1], over: byOffset[0])),
            ]
        }
    }

    func table(_ rows: [Row]) -> String {
        var table = MarkdownTable(
            ["backend", "move", "median at \(Format.count(smallCount))", "median at \(Format.count(largeCount))", "ratio"],
            rightAligned: [2, 3, 4])
        for row in rows {
            table.append([row.backend.title, row.move, Format.microseconds(row.ratio.reference), Format.microseconds(row.ratio.median), "**\(Format.ratio(row.ratio.value))**"])
        }
        return table.text
    }
}

/// The in-memory backend's memory per item, measured in a process of its own so that
/// nothing the benchmark did before is in the figure.
enum MemoryProbe {
    /// The resident memory a new process gains per item when it loads `count` items into an
    /// ``InMemoryItemRepository`` (`/proc/self/statm` before and after), in bytes.
    static func bytesPerItem(count: Int) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["--memory-probe", "\(count)"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let value = Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw VerificationFailure(message: "the memory probe failed with status \(process.terminationStatus)") }
        return value
    }

    /// Run in the probe process: loads `count` items and prints the resident growth per item.
    static func measure(count: Int) throws {
        var random = SeededRandomNumberGenerator(seed: 1)
        let ids = (0..<count).map { _ in Item.ID(using: &random) }
        let repository = InMemoryItemRepository()
        let list = try BulkLoad.makeList(named: "Memory", in: repository)
        let before = Machine.residentBytes() ?? 0
        try BulkLoad.fill(list.id, ids: ids, keys: BulkLoad.appendedKey, in: repository)
        let after = Machine.residentBytes() ?? 0
        let stored = try repository.read { try $0.itemCount(in: list.id, visibility: .all) }
        print(Double(after - before) / Double(stored))
    }
}
