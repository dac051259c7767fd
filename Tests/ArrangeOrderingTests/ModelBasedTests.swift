import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import ArrangeStore
import Foundation
import PropertyBased
import Testing

/// Random sequences of operations, applied both to a plain array model and to the service;
/// after every step the service's order must equal the model's.
@Suite("Model-based ordering")
struct ModelBasedTests {
    /// The configurations to run under: the default, and one with tiny gaps so that nearly
    /// every insert re-spreads and whole-list renumbering happens too.
    static let configurations = [
        OrderingConfiguration(),
        OrderingConfiguration(endGap: 8, minimumGap: 1),
        OrderingConfiguration(endGap: 64, minimumGap: 3, jitter: true),
    ].map(NamedConfiguration.init)

    @Test("Random operations keep the model's order and strictly rising keys", arguments: Backend.allCases, configurations)
    func randomOperations(backend: Backend, named: NamedConfiguration) async throws {
        let configuration = named.configuration
        await propertyCheck(count: 60, input: Gen.int(in: 0...Int(UInt32.max)).array(of: 4...160)) { words in
            var run = try ModelRun(repository: try backend.makeRepository(), configuration: configuration)
            for operation in stride(from: 0, to: words.count - 3, by: 4) {
                try run.apply(Array(words[operation..<operation + 4]))
                try run.expectAgreement()
            }
        }
    }
}

/// One model-based run: two lists in the service and the same two lists as arrays.
struct ModelRun {
    let repository: any ItemRepository
    let service: OrderingService
    let lists: [ItemList.ID]
    var model: [ItemList.ID: [Item.ID]] = [:]
    var completed: Set<Item.ID> = []
    var log: [String] = []

    init(repository: any ItemRepository, configuration: OrderingConfiguration) throws {
        self.repository = repository
        service = try OrderingService(repository: repository, configuration: configuration, random: SeededRandomNumberGenerator(seed: 3))
        lists = try ["One", "Two"].map { try Fixture.makeList(named: $0, in: repository).id }
        for list in lists { model[list] = [] }
    }

    /// Decodes one operation from four random words and applies it to both sides.
    mutating func apply(_ words: [Int]) throws {
        let list = lists[words[1] % 2]
        let visibility: ItemVisibility = words[3] % 2 == 0 ? .all : .open
        switch words[0] % 8 {
        case 0, 1, 2:
            let placement = placement(from: words[2], in: list, moving: [], visibility: visibility)
            log.append("add \(placement) \(visibility)")
            let item = Item(listID: list, title: "t", sortIndex: 0, createdAt: Date(timeIntervalSince1970: 0))
            try service.add(item, at: placement, visibility: visibility)
            insert([item.id], at: placement, in: list, visibility: visibility)
        case 3, 4:
            let source = model[list]!
            guard !source.isEmpty else { return }
            let picked = Set((0..<(1 + words[2] % 3)).map { source[(words[2] >> (4 + $0 * 8)) % source.count] })
            let moving = source.filter(picked.contains)
            let target = lists[(words[3] >> 1) % 2]
            let placement = placement(from: words[3] >> 2, in: target, moving: Set(moving), visibility: visibility)
            log.append("move \(moving.count) to \(placement) in \(target == list ? "same" : "other") \(visibility)")
            try service.move(moving, to: placement, into: target, visibility: visibility)
            remove(moving)
            insert(moving, at: placement, in: target, visibility: visibility)
        case 5:
            let visible = model[list]!.filter { visibility == .all || !completed.contains($0) }
            guard !visible.isEmpty else { return }
            let offsets = IndexSet((0..<visible.count).filter { (words[2] >> ($0 % 30)) & 1 == 1 || $0 == words[2] % visible.count })
            let destination = words[3] % (visible.count + 1)
            log.append("move offsets \(Array(offsets)) to \(destination) \(visibility)")
            try service.move(fromOffsets: offsets, toOffset: destination, in: .items(list), visibility: visibility)
            var reference = visible
            reference.referenceMove(fromOffsets: offsets, toOffset: destination)
            let moving = offsets.map { visible[$0] }
            remove(moving)
            insert(moving, at: .offset(destination - offsets.count(in: 0..<destination)), in: list, visibility: visibility)
            #expect(model[list]!.filter { visibility == .all || !completed.contains($0) } == reference, "\(log)")
        case 6:
            guard let id = model[list]!.randomElement(seed: words[2]) else { return }
            log.append("delete")
            try repository.write { try $0.deleteItem(id: id) }
            remove([id])
        default:
            guard let id = model[list]!.randomElement(seed: words[2]) else { return }
            log.append("toggle completion")
            try repository.write { transaction in
                var item = try transaction.existingItem(id: id)
                item.completedAt = item.isCompleted ? nil : Date(timeIntervalSince1970: 1)
                try transaction.update(item)
            }
            if completed.remove(id) == nil { completed.insert(id) }
        }
    }

    func placement(from word: Int, in list: ItemList.ID, moving: Set<Item.ID>, visibility: ItemVisibility) -> ItemPlacement {
        let staying = model[list]!.filter { !moving.contains($0) }
        let visibleCount = staying.count(where: { visibility == .all || !completed.contains($0) })
        switch (word % 5, staying.randomElement(seed: word >> 3)) {
        case (0, _): return .top
        case (1, _): return .bottom
        case (2, let anchor?): return .before(anchor)
        case (3, let anchor?): return .after(anchor)
        default: return .offset((word >> 3) % (visibleCount + 1))
        }
    }

    mutating func remove(_ ids: [Item.ID]) {
        for list in lists { model[list]!.removeAll(where: ids.contains) }
    }

    /// The model's placement rule: a visible offset lands directly before the visible item
    /// there, or directly after the last visible item.
    mutating func insert(_ ids: [Item.ID], at placement: ItemPlacement, in list: ItemList.ID, visibility: ItemVisibility) {
        var items = model[list]!
        let index: Int
        switch placement {
        case .top: index = 0
        case .bottom: index = items.count
        case .before(let anchor): index = items.firstIndex(of: anchor)!
        case .after(let anchor): index = items.firstIndex(of: anchor)! + 1
        case .offset(let offset):
            let visible = items.indices.filter { visibility == .all || !completed.contains(items[$0]) }
            index = offset < visible.count ? visible[offset] : (visible.last.map { $0 + 1 } ?? items.count)
        }
        items.insert(contentsOf: ids, at: index)
        model[list] = items
    }

    func expectAgreement() throws {
        for list in lists {
            let stored = try repository.read { try $0.items(in: list, visibility: .all, offset: 0, limit: .max) }
            #expect(stored.map(\.id) == model[list]!, "order differs after \(log)")
            let keys = stored.map(\.sortIndex)
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, "keys do not rise strictly after \(log)")
        }
    }
}

extension Array {
    /// An element chosen by a random word, or `nil` when empty.
    func randomElement(seed: Int) -> Element? {
        isEmpty ? nil : self[seed % count]
    }
}

/// The repositories the ordering tests run on.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory = "in-memory"
    case sqlite = "SQLite in memory"

    func makeRepository() throws -> any ItemRepository {
        switch self {
        case .inMemory: InMemoryItemRepository()
        case .sqlite: try SQLiteItemRepository.inMemory()
        }
    }

    var testDescription: String { rawValue }
}

/// A configuration that names itself in the test output.
struct NamedConfiguration: CustomTestStringConvertible, Sendable {
    var configuration: OrderingConfiguration

    var testDescription: String {
        "end gap \(configuration.endGap), minimum gap \(configuration.minimumGap)\(configuration.jitter ? ", jitter" : "")"
    }
}
