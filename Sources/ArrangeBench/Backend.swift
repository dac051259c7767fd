import ArrangeStore
import Foundation

/// Where a timed benchmark keeps its items.
enum Backend: String, CaseIterable, Sendable {
    case inMemory = "in-memory"

    /// The name in the tables.
    var title: String {
        switch self {
        case .inMemory: "in-memory"
        }
    }

    /// A new, empty repository; a file-backed one lives in `directory`.
    func makeRepository(in directory: URL, named name: String) throws -> any ItemRepository {
        switch self {
        case .inMemory: InMemoryItemRepository()
        }
    }
}
