import ArgumentParser
import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import ArrangeStore
import Foundation

/// Applies many random operations to one SQLite file and checks the invariants as it goes.
@main
struct Soak: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "arrange-soak",
        abstract: "Apply random adds, moves, completions and deletes to one SQLite file, checking invariants as it goes.",
        discussion: """
            Every --check-every operations it checks, for each list: the item count, every item \
            present exactly once, sortIndex rising strictly, nothing for validate to repair; and \
            SQLite's integrity check over the file. It stops at the first broken invariant with a \
            non-zero status. At the end it reports its time and the file's size.
            """)

    @Option(help: "The database file; it is created, with its folder. Default: a new file in a temporary folder.")
    var db: String?

    @Option(help: "How many operations to apply.")
    var operations = 1_000_000

    @Option(help: "How many operations between two checks.")
    var checkEvery = 10_000

    @Option(help: "The seed of the random operations and of the jitter.")
    var seed: UInt64 = 1

    @Option(help: "The size around which each of the two lists hovers.")
    var listSize = 2_000

    @Option(help: "The end gap of the ordering service; small values force frequent re-spreads.")
    var endGap: Int64 = 1 << 32

    func validate() throws {
        guard operations > 0, checkEvery > 0, listSize > 1 else {
            throw ValidationError("--operations, --check-every and --list-size must be positive (list size at least 2).")
        }
    }

    func run() throws {
        let path = db ?? FileManager.default.temporaryDirectory.appendingPathComponent("arrange-soak-\(UUID().uuidString)/soak.sqlite").path
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let repository = try SQLiteItemRepository(path: path)
        let service = try OrderingService(
            repository: repository, configuration: OrderingConfiguration(endGap: endGap, jitter: true),
            random: SeededRandomNumberGenerator(seed: seed))
        var run = try SoakRun(repository: repository, service: service, seed: seed, listSize: listSize)
        let clock = ContinuousClock()
        let start = clock.now
        for done in 1...operations {
            try run.step()
            if done % checkEvery == 0 || done == operations {
                try run.check()
                report("\(done) operations: invariants hold (\(run.expected.values.map(\.count).reduce(0, +)) items, \(run.rowsWritten) rows written, \((clock.now - start).formatted(.units(allowed: [.minutes, .seconds], width: .abbreviated))) so far)")
            }
        }
        let elapsed = clock.now - start
        try repository.close()
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        report("\(operations) operations in \(elapsed.formatted(.units(allowed: [.minutes, .seconds], width: .abbreviated))); \(path) is \(size / 1_024) KiB")
    }
}

/// Writes a line to standard output at once, so that progress shows even when the output is a file.
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Why a soak stopped.
struct InvariantBroken: Error, CustomStringConvertible {
    var description: String
}

/// The soak's state: the two lists and the ids each should hold.
struct SoakRun {
    let repository: SQLiteItemRepository
    let service: OrderingService
    let lists: [ItemList.ID]
    let listSize: Int
    var random: SeededRandomNumberGenerator
    var expected: [ItemList.ID: Set<Item.ID>] = [:]
    var rowsWritten = 0

    init(repository: SQLiteItemRepository, service: OrderingService, seed: UInt64, listSize: Int) throws {
        self.repository = repository
        self.service = service
        self.listSize = listSize
        self.random = SeededRandomNumberGenerator(seed: seed &+ 1)
        let lists = (1...2).map { ItemList(name: "Soak \($0) \(UUID().uuidString.prefix(8))", createdAt: .now) }
        try repository.write { transaction in try lists.forEach(transaction.insert) }
        self.lists = lists.map(\.id)
        for list in self.lists { expected[list] = [] }
    }

    /// One random operation; adds are likelier while a list is below its size.
    mutating func step() throws {
        let list = lists[Int.random(in: 0..<2, using: &random)]
        let count = expected[list]!.count
        let roll = Int.random(in: 0..<100, using: &random)
        if count < 2 || roll < (count < listSize ? 40 : 10) {
            let item = Item(listID: list, title: "soak", sortIndex: 0, createdAt: .now)
            rowsWritten += try service.add(item, at: placement(in: list, count: count), visibility: .open).rowsWritten
            expected[list]!.insert(item.id)
        } else if roll < 70 {
            let source = IndexSet((0..<Int.random(in: 1...3, using: &random)).map { _ in Int.random(in: 0..<count, using: &random) })
            let destination = Int.random(in: 0...count, using: &random)
            rowsWritten += try service.move(fromOffsets: source, toOffset: destination, in: .items(list)).rowsWritten
        } else if roll < 80 {
            let item = try randomItem(in: list, count: count)
            let target = lists[Int.random(in: 0..<2, using: &random)]
            rowsWritten += try service.move([item.id], to: .top, into: target).rowsWritten
            expected[list]!.remove(item.id)
            expected[target]!.insert(item.id)
        } else if roll < 90 {
            var item = try randomItem(in: list, count: count)
            item.completedAt = item.isCompleted ? nil : .now
            try repository.write { try $0.update(item) }
        } else {
            let item = try randomItem(in: list, count: count)
            try repository.write { try $0.deleteItem(id: item.id) }
            expected[list]!.remove(item.id)
        }
    }

    private mutating func placement(in list: ItemList.ID, count: Int) -> ItemPlacement {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: .top
        case 1: .bottom
        default: .offset(Int.random(in: 0...count, using: &random) / 2)
        }
    }

    private mutating func randomItem(in list: ItemList.ID, count: Int) throws -> Item {
        let offset = Int.random(in: 0..<count, using: &random)
        guard let item = try repository.read({ try $0.items(in: list, visibility: .all, offset: offset, limit: 1).first }) else {
            throw InvariantBroken(description: "list \(list) has fewer than \(offset + 1) items; \(count) expected")
        }
        return item
    }

    /// Checks every invariant; throws the first one broken.
    func check() throws {
        for list in lists {
            let items = try repository.read { try $0.items(in: list, visibility: .all, offset: 0, limit: .max) }
            guard Set(items.map(\.id)) == expected[list]!, items.count == expected[list]!.count else {
                throw InvariantBroken(description: "list \(list) holds \(items.count) items, \(expected[list]!.count) expected")
            }
            if let fall = zip(items, items.dropFirst()).first(where: { $0.sortIndex >= $1.sortIndex }) {
                throw InvariantBroken(description: "sortIndex does not rise after \(fall.0.id) in list \(list)")
            }
            let report = try service.validate(.items(list), repair: false)
            guard report.isHealthy else { throw InvariantBroken(description: "validate found problems: \(report)") }
        }
        let problems = try repository.integrityProblems()
        guard problems.isEmpty else { throw InvariantBroken(description: "integrity check: \(problems.joined(separator: "; "))") }
    }
}
