import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Synchronization
import Testing

/// A session over an in-memory store, with a fixed clock and predictable ids.
///
/// The n-th id made is `0000000n-0000-4000-8000-000000000000` (in hex), so every id starts
/// with `0000` and prefixes can be made ambiguous or unique at will.
struct Session {
    let repository = InMemoryItemRepository()
    let environment: IntentEnvironment

    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// - Parameter firstID: The number after which the session's ids count, so that two sessions' ids differ.
    init(
        configuration: OrderingConfiguration = OrderingConfiguration(), historyLimit: Int = 500, lists: [String] = ["Inbox"], firstID: Int = 0
    ) async throws {
        let counter = Mutex(firstID)
        let ticks = Mutex(0)
        environment = try IntentEnvironment(
            repository: repository, configuration: configuration, random: SeededRandomNumberGenerator(seed: 3),
            historyLimit: historyLimit,
            clock: { Session.start.addingTimeInterval(Double(ticks.withLock { $0 += 1; return $0 })) },
            newID: { Session.id(counter.withLock { $0 += 1; return $0 }) })
        // Made straight in the store, so that they are no step of the history; the first is the default list.
        for name in lists {
            let list = ItemList(id: ItemList.ID(rawValue: environment.newID()), name: name, createdAt: Session.start)
            try await repository.write { transaction in
                try transaction.insert(list)
                if try transaction.defaultListID() == nil { try transaction.setDefaultListID(list.id) }
            }
        }
    }

    static func id(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "%08x-0000-4000-8000-000000000000", number))!
    }

    /// Runs an intent.
    @discardableResult
    func run<Intent: ArrangeIntent>(_ intent: Intent) async throws -> Intent.Result {
        try await intent.perform(in: environment)
    }

    /// The id of the list with this name.
    func list(_ name: String) throws -> ItemList.ID {
        try #require(try repository.read { try $0.lists() }.first { $0.name == name }).id
    }

    /// The id of the `position`-th (1-based) open item of a list, as a person counts them.
    func item(_ position: Int, in list: String = "Inbox") throws -> Item.ID {
        let id = try self.list(list)
        return try #require(try repository.read { try $0.items(in: id, visibility: .open, offset: position - 1, limit: 1) }.first).id
    }

    /// Adds items with these titles to a list, in order, at the bottom.
    @discardableResult
    func add(_ titles: String..., to list: String = "Inbox") async throws -> [ItemSummary] {
        var added: [ItemSummary] = []
        for title in titles {
            added += try await run(AddItem(title: title, list: try self.list(list))).items
        }
        return added
    }

    /// The titles of a list in display order, completed items included, joined by spaces.
    func titles(_ list: String = "Inbox", includeCompleted: Bool = true) async throws -> String {
        try await run(ListItems(list: try self.list(list), visibility: includeCompleted ? .openAndCompleted : .open)).items.map(\.title).joined(separator: " ")
    }

    /// Every item of every list with its key, to compare whole stores.
    func snapshot() throws -> [String: [String]] {
        try repository.read { transaction in
            var lists: [String: [String]] = [:]
            for list in try transaction.lists() {
                lists[list.name] = try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max)
                    .map { "\($0.id) \($0.title) \($0.sortIndex) \($0.isCompleted)" }
            }
            return lists
        }
    }

    /// Every list's items in display order, as "id title completed", without their keys:
    /// what a person sees, to compare across undo and redo.
    func order() throws -> [String: [String]] {
        try snapshot().mapValues { rows in
            rows.map { row in
                let words = row.split(separator: " ")
                return (words.dropLast(2) + words.suffix(1)).joined(separator: " ")
            }
        }
    }

    /// Records an issue unless every list's keys rise strictly.
    func expectStrictlyRising(sourceLocation: SourceLocation = #_sourceLocation) throws {
        try repository.read { transaction in
            for list in try transaction.lists() {
                let keys = try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max).map(\.sortIndex)
                #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, "keys of \(list.name) do not rise", sourceLocation: sourceLocation)
            }
        }
    }
}

/// Expects `body` to throw an error equal to `expected`, and returns its message.
@discardableResult
func expectFailure<Failure: Error & Equatable & LocalizedError>(
    _ expected: Failure, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> some Any
) async -> String? {
    do {
        _ = try await body()
        Issue.record("expected \(expected)", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error as? Failure == expected, "\(error)", sourceLocation: sourceLocation)
        return String(describing: error)
    }
}

/// Expects `body` to throw an error of type `Failure`, and returns it.
@discardableResult
func expectFailure<Failure: Error>(
    _ type: Failure.Type, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> some Any
) async -> Failure? {
    do {
        _ = try await body()
        Issue.record("expected a \(Failure.self)", sourceLocation: sourceLocation)
        return nil
    } catch {
        #expect(error is Failure, "\(error)", sourceLocation: sourceLocation)
        return error as? Failure
    }
}
