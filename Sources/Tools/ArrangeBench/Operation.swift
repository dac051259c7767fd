/// One change a user makes to a list, in display offsets.
enum Operation: Hashable, Sendable {
    /// A new item at this offset: 0 is the top, the item count the bottom.
    case insert(offset: Int)
    /// SwiftUI's `move(fromOffsets:toOffset:)`: rising, distinct source offsets, and a
    /// destination in `0...count`, in the coordinates from before the move.
    case move(sources: [Int], destination: Int)
}

/// Where every item of a list ends up after an ``Operation``.
///
/// The items that take part (the moved ones, or the new one) form a block that lands at
/// ``landing``; the other items keep their order around it.
///
/// ```swift
/// // "ABCDE", move C and E to offset 1: "ACEBD"
/// let geometry = ChangeGeometry(.move(sources: [2, 4], destination: 1), count: 5)
/// geometry.landing                   // 1
/// geometry.newOffset(ofOriginal: 1)  // 3, B
/// geometry.slot(atNewOffset: 2)      // .existing(4), E
/// ```
struct ChangeGeometry {
    /// Where an item at some new offset came from.
    enum Slot: Hashable {
        /// The item that was at this offset before.
        case existing(Int)
        /// The inserted item.
        case new
    }

    /// The moved offsets, rising; empty for an insert.
    let sources: [Int]
    /// The item count before the change.
    let count: Int
    /// The new offset of the block's first item.
    let landing: Int
    /// How many items the block holds.
    let blockSize: Int

    init(_ operation: Operation, count: Int) {
        self.count = count
        switch operation {
        case .insert(let offset):
            self.sources = []
            self.landing = offset
            self.blockSize = 1
        case .move(let sources, let destination):
            self.sources = sources
            self.landing = destination - sources.count(where: { $0 < destination })
            self.blockSize = sources.count
        }
    }

    /// Whether the change inserts an item.
    var inserts: Bool { sources.isEmpty }

    /// The item count after the change.
    var countAfter: Int { inserts ? count + 1 : count }

    /// The original offset of the `rank`-th item that stays where it is (0-based).
    func originalOffset(ofStaying rank: Int) -> Int {
        var offset = rank
        for source in sources {
            guard source <= offset else { break }
            offset += 1
        }
        return offset
    }

    /// The offset after the change of the item that was at `offset`.
    func newOffset(ofOriginal offset: Int) -> Int {
        if let index = sources.firstIndex(of: offset) { return landing + index }
        let rank = offset - sources.count(where: { $0 < offset })
        return rank < landing ? rank : rank + blockSize
    }

    /// The item at `offset` after the change.
    func slot(atNewOffset offset: Int) -> Slot {
        if (landing..<landing + blockSize).contains(offset) {
            return inserts ? .new : .existing(sources[offset - landing])
        }
        return .existing(originalOffset(ofStaying: offset < landing ? offset : offset - blockSize))
    }

    /// The original offset of the staying item at `offset` after the change, if there is one there.
    func stayingOriginal(atNewOffset offset: Int) -> Int? {
        guard (0..<countAfter).contains(offset), !(landing..<landing + blockSize).contains(offset) else { return nil }
        return originalOffset(ofStaying: offset < landing ? offset : offset - blockSize)
    }

    /// The offsets outside of which every item keeps its offset.
    ///
    /// An insert shifts every item after it; a move only those between its sources and its landing.
    var window: ClosedRange<Int> {
        guard let first = sources.first, let last = sources.last else { return landing...max(landing, count) }
        return min(first, landing)...max(last, landing + blockSize - 1)
    }

    /// Applies the change to an order (a list of item numbers); `new` is the inserted item's.
    func apply(to order: inout [Int32], new: Int32) {
        if inserts {
            order.insert(new, at: landing)
            return
        }
        let block = sources.map { order[$0] }
        for source in sources.reversed() { order.remove(at: source) }
        order.insert(contentsOf: block, at: landing)
    }
}
