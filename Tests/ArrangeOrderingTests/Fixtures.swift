import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

/// A list with items named by single letters or numbers, for ordering tests.
struct Fixture {
    let repository: any ItemRepository
    let service: OrderingService
    let list: ItemList
    private(set) var clock = Date(timeIntervalSince1970: 1_800_000_000)

    init(repository: any ItemRepository = InMemoryItemRepository(), configuration: OrderingConfiguration = OrderingConfiguration(), seed: UInt64 = 7) throws {
        self.repository = repository
        self.service = try OrderingService(repository: repository, configuration: configuration, random: SeededRandomNumberGenerator(seed: seed))
        self.list = try Self.makeList(named: "Fixture", in: repository)
    }

    static func makeList(named name: String, in repository: any ItemRepository) throws -> ItemList {
        let list = ItemList(name: name, createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        try repository.write { try $0.insert(list) }
        return list
    }

    /// Adds an item titled `title` at `placement`.
    @discardableResult
    func add(_ title: String, at placement: ItemPlacement = .bottom, to list: ItemList.ID? = nil, visibility: ItemVisibility = .all) throws -> Item {
        let item = Item(listID: list ?? self.list.id, title: title, sortIndex: 0, createdAt: clock)
        try service.add(item, at: placement, visibility: visibility)
        return try repository.read { try $0.existingItem(id: item.id) }
    }

    /// The items of a list in display order.
    func items(of list: ItemList.ID? = nil, visibility: ItemVisibility = .all) throws -> [Item] {
        try repository.read { try $0.items(in: list ?? self.list.id, visibility: visibility, offset: 0, limit: .max) }
    }

    /// The titles of a list in display order, joined.
    func titles(of list: ItemList.ID? = nil, visibility: ItemVisibility = .all) throws -> String {
        try items(of: list, visibility: visibility).map(\.title).joined()
    }

    /// Records an issue unless the list's keys rise strictly.
    func expectStrictlyRising(_ list: ItemList.ID? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let keys = try items(of: list).map(\.sortIndex)
        let firstFall = zip(keys, keys.dropFirst()).enumerated().first { $0.element.0 >= $0.element.1 }
        #expect(firstFall == nil, "sortIndex does not rise at position \(firstFall?.offset ?? -1)", sourceLocation: sourceLocation)
    }
}

extension Array {
    /// The reference for SwiftUI's move: what `Array.move(fromOffsets:toOffset:)` does, written out.
    mutating func referenceMove(fromOffsets source: IndexSet, toOffset destination: Int) {
        let moving = source.map { self[$0] }
        let landing = destination - source.count(in: 0..<destination)
        for offset in source.reversed() { remove(at: offset) }
        insert(contentsOf: moving, at: landing)
    }
}
