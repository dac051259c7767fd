import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation
import Testing

/// Random sessions of the sidebar with finished lists, on both backends, against a plain
/// array: the lists in no area in their whole order, and which are finished. The sidebar is the
/// array without the finished lists; a move by offsets counts the sidebar's lists (SwiftUI's
/// `onMove` over what it shows) and puts the moved list directly before the list it lands on,
/// or directly after the sidebar's last; a new list goes to the bottom of the whole order; a
/// finished list keeps its place in the whole order, and comes back to it when reopened.
@Suite("Model-based: the sidebar with finished lists")
struct FinishedListsModelTests {
    @Test("Creating, moving by offsets, completing, canceling and reopening lists keep the sidebar and the whole order the model's", arguments: StoreKind.allCases, 0..<6)
    func randomSessions(kind: StoreKind, seed: UInt64) async throws {
        var random = SeededRandomNumberGenerator(seed: seed)
        let environment = try IntentEnvironment(repository: try kind.makeRepository())
        var order: [ItemList.ID] = []
        var finished = Set<ItemList.ID>()
        var made = 0
        var log: [String] = []
        for _ in 0..<80 {
            let sidebar = order.filter { !finished.contains($0) }
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1:
                made += 1
                let list = try await CreateList(name: "L\(made)").perform(in: environment).list.id
                // A new list goes to the bottom of the whole order, after the finished lists there.
                order.append(list)
                log.append("create L\(made)")
            case 2, 3, 4:
                guard sidebar.count >= 2 else { continue }
                let from = Int.random(in: 0..<sidebar.count, using: &random)
                var to = Int.random(in: 0...sidebar.count, using: &random)
                if to == from || to == from + 1 { to = (from + 2) % (sidebar.count + 1) }
                _ = try await MoveListsAtOffsets(fromOffsets: [from], toOffset: to).perform(in: environment)
                let moving = sidebar[from]
                order.removeAll { $0 == moving }
                if to < sidebar.count {
                    order.insert(moving, at: try #require(order.firstIndex(of: sidebar[to])))
                } else {
                    let last = try #require(sidebar.last { $0 != moving })
                    order.insert(moving, at: try #require(order.firstIndex(of: last)) + 1)
                }
                log.append("move \(from) → \(to)")
            case 5, 6:
                guard let list = sidebar.randomElement(using: &random) else { continue }
                if Bool.random(using: &random) {
                    _ = try await CompleteList(list: list).perform(in: environment)
                } else {
                    _ = try await CancelList(list: list, items: .keep).perform(in: environment)
                }
                finished.insert(list)
                log.append("finish #\(try #require(order.firstIndex(of: list)))")
            case 7, 8:
                guard let list = finished.sorted().randomElement(using: &random) else { continue }
                _ = try await ReopenList(list: list).perform(in: environment)
                finished.remove(list)
                log.append("reopen #\(try #require(order.firstIndex(of: list)))")
            default:
                // Nothing to undo yet is no step.
                guard (try? await Undo().perform(in: environment)) != nil else { continue }
                // Undo is checked by reading the store back into the model: the sidebar must
                // stay a filter of the whole order either way.
                let stored = try await environment.repository.read { try $0.lists() }
                order = stored.map(\.id)
                finished = Set(stored.filter(\.isFinished).map(\.id))
                log.append("undo")
            }
            let stored = try await environment.repository.read { try $0.lists() }
            #expect(stored.map(\.id) == order, "the whole order after \(log)")
            #expect(Set(stored.filter(\.isFinished).map(\.id)) == finished)
            let shown = try await GetLists().perform(in: environment).lists.map(\.id)
            #expect(shown == order.filter { !finished.contains($0) }, "the sidebar after \(log)")
            let keys = stored.map(\.sortIndex)
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, "keys rise")
            guard stored.map(\.id) == order else { return }
        }
    }
}
