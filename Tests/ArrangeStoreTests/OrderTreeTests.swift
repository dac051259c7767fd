import ArrangeModel
@testable import ArrangeStore
import Foundation
import Testing

/// The treap behind ``InMemoryItemRepository``, checked exhaustively on small trees: after
/// every insert and every removal, its invariants hold and every query agrees with a sorted array.
@Suite("OrderTree")
struct OrderTreeTests {
    @Test("Every small tree, built and taken apart in many orders, keeps its invariants and answers as a sorted array does", arguments: 0..<12)
    func smallTrees(count: Int) throws {
        var random = SeededRandomNumberGenerator(seed: UInt64(count))
        // Two keys share each sort index, so the id breaks ties; every third item is completed, and
        // every fourth in the Trash.
        let entries = try (0..<count).map { index in
            let id = try Sample.id(String(format: "%08x", UInt32.random(in: .min ... .max, using: &random)))
            return Entry(key: OrderKey(sortIndex: Int64(index / 2), id: id.entryID), isOpen: index % 3 != 2, isTrashed: index % 4 == 1)
        }
        let insertions = orders(of: entries, using: &random)
        let removals = orders(of: entries, using: &random)
        for (index, (name, order)) in insertions.enumerated() {
            var tree = OrderTree()
            var reference: [Entry] = []
            for entry in order {
                tree.insert(OrderEntry(id: entry.key.id, sortIndex: entry.key.sortIndex, isOpen: entry.isOpen, isTrashed: entry.isTrashed))
                reference.append(entry)
                try check(tree, against: reference, "\(name), inserting \(reference.count) of \(count)")
            }
            // Each removal order once, paired with a different insertion order each time.
            for (removalName, removal) in [removals[index], removals[(index + removals.count / 2) % removals.count]] {
                var shrinking = tree
                var left = reference
                shrinking.remove(OrderKey(sortIndex: -1, id: .lowest))
                try check(shrinking, against: left, "\(name), removing a key that is not there")
                for entry in removal {
                    shrinking.remove(entry.key)
                    left.removeAll { $0.key == entry.key }
                    try check(shrinking, against: left, "\(name), removing \(count - left.count) of \(count) in \(removalName)")
                }
            }
            // The removals worked on copies: this tree is as it was.
            try check(tree, against: reference, "\(name), after removals from copies")
        }
    }

    /// A key, whether its item is open, and whether it is in the Trash.
    struct Entry: Equatable {
        var key: OrderKey
        var isOpen: Bool
        var isTrashed: Bool
    }

    /// Insertion orders: every rotation of the sorted order, every rotation of the reversed
    /// order, and five random permutations.
    private func orders(of entries: [Entry], using random: inout SeededRandomNumberGenerator) -> [(String, [Entry])] {
        let sorted = entries.sorted { $0.key < $1.key }
        var orders: [(String, [Entry])] = []
        for shift in 0..<max(sorted.count, 1) {
            orders.append(("rotation \(shift)", Array(sorted[shift...] + sorted[..<shift])))
            let reversed = Array(sorted.reversed())
            orders.append(("reversed rotation \(shift)", Array(reversed[shift...] + reversed[..<shift])))
        }
        for round in 0..<5 {
            orders.append(("permutation \(round)", entries.shuffled(using: &random)))
        }
        return orders
    }

    /// Checks the tree's invariants, then every query against the sorted entries.
    private func check(_ tree: OrderTree, against entries: [Entry], _ step: String) throws {
        tree._checkInvariants()
        let sorted = entries.sorted { $0.key < $1.key }
        let keys = sorted.map(\.key)
        let openKeys = sorted.filter { $0.isOpen && !$0.isTrashed }.map(\.key)
        let keptKeys = sorted.filter { !$0.isTrashed }.map(\.key)
        #expect(tree.allEntries().map(\.key) == keys, "\(step)")
        #expect(tree.count(.all) == keys.count, "\(step)")
        #expect(tree.count(.open) == openKeys.count, "\(step)")
        #expect(tree.count(.openAndCompleted) == keptKeys.count, "\(step)")

        // Probes: every key, a key just below each, and both ends of the key space. Each
        // query's answers for every probe are compared at once, to keep the expectations few.
        let probes = keys + keys.map { OrderKey(sortIndex: $0.sortIndex, id: .lowest) } + [.beforeAll, .afterAll]
        #expect(probes.map { tree.count(.all, before: $0) } == probes.map { probe in keys.count { $0 < probe } }, "\(step): ranks")
        #expect(probes.map { tree.count(.open, before: $0) } == probes.map { probe in openKeys.count { $0 < probe } }, "\(step): open ranks")
        #expect(probes.map { tree.count(.openAndCompleted, before: $0) } == probes.map { probe in keptKeys.count { $0 < probe } }, "\(step): kept ranks")
        let limits = [0, 1, 3, keys.count + 1]
        let windows = probes.flatMap { probe in limits.map { (probe, $0) } }
        #expect(
            windows.map { tree.entries(before: $0, limit: $1).map(\.key) } == windows.map { probe, limit in Array(keys.filter { $0 < probe }.reversed().prefix(limit)) },
            "\(step): windows before")
        #expect(
            windows.map { tree.entries(after: $0, limit: $1).map(\.key) } == windows.map { probe, limit in Array(keys.filter { $0 > probe }.prefix(limit)) },
            "\(step): windows after")
        #expect(
            windows.map { tree.entries(from: $0, limit: $1).map(\.key) } == windows.map { probe, limit in Array(keys.filter { $0 >= probe }.prefix(limit)) },
            "\(step): windows from")

        // Pages of either visibility, at every offset, one past the end and a negative one included.
        for (visibility, visible) in [(ItemVisibility.all, keys), (.open, openKeys), (.openAndCompleted, keptKeys)] {
            let pages = (-1...(visible.count + 1)).flatMap { offset in [0, 1, 2, visible.count + 1].map { (offset, $0) } }
            #expect(
                pages.map { tree.entries(visibility, offset: $0, limit: $1).map(\.key) }
                    == pages.map { offset, limit in offset < 0 || limit < 1 ? [] : Array(visible.dropFirst(offset).prefix(limit)) },
                "\(step): \(visibility) pages")
        }
    }
}
