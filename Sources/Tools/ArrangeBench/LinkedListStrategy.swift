import ArrangeBenchSupport
import ArrangeModel
import ArrangeStore

/// A doubly linked list: each row names the item before it and the item after it.
///
/// A change rewrites only the rows whose links change: at most five for a single move (the
/// item, its old neighbours, its new neighbours), three for an insert. It never fails, but
/// an offset can only be found by walking the links from the head or the tail. The links
/// live in each row's `notes` (`"<prev id> <next id>"`, `-` at an end) and are written
/// through the repository. The walk is counted, not performed: the strategy takes the
/// ids at the offsets it needs from the benchmark's own copy of the order, and counts the
/// rows a walk from the nearer end would have read (one walk for all the offsets of an
/// operation; the head and the tail are known without reading).
final class LinkedListStrategy: OrderingStrategy {
    let repository: any ItemRepository
    let list: ItemList.ID

    init(repository: any ItemRepository, list: ItemList.ID, ids: [Item.ID]) throws {
        self.repository = repository
        self.list = list
        try BulkLoad.fill(
            list, ids: ids, keys: { _ in 0 },
            notes: { Self.notes(prev: $0 > 0 ? ids[$0 - 1] : nil, next: $0 + 1 < ids.count ? ids[$0 + 1] : nil) },
            in: repository)
    }

    func perform(_ context: OperationContext) throws -> Outcome {
        let geometry = context.geometry
        var touched: Set<ChangeGeometry.Slot> = []
        if geometry.inserts {
            touched.insert(.new)
        }
        for source in geometry.sources {
            touched.formUnion([source - 1, source, source + 1].filter { (0..<geometry.count).contains($0) }.map { .existing($0) })
        }
        let gapNeighbours = [geometry.landing - 1, geometry.landing + geometry.blockSize].map { geometry.stayingOriginal(atNewOffset: $0) }
        touched.formUnion(gapNeighbours.compactMap { $0 }.map { .existing($0) })
        let rewritten = touched.filter { links(before: $0, context) != links(after: $0, context) }
        try repository.write { transaction in
            for slot in rewritten {
                let links = links(after: slot, context)
                let notes = Self.notes(prev: links.prev, next: links.next)
                if slot == .new {
                    try transaction.insert(BulkLoad.item(context.id(of: .new), number: context.ids.count - 1, in: list, sortIndex: 0, notes: notes))
                } else {
                    var item = try transaction.existingItem(id: context.id(of: slot))
                    item.notes = notes
                    try transaction.update(item)
                }
            }
        }
        return Outcome(rowsWritten: rewritten.count, rowsRead: Self.rowsWalked(to: geometry.sources, gap: gapNeighbours, count: geometry.count))
    }

    func storedOrder() throws -> StoredOrder? {
        let items = try repository.read { try $0.items(in: list, visibility: .all, offset: 0, limit: .max) }
        let links = Dictionary(uniqueKeysWithValues: items.map { item in
            let ids = item.notes.split(separator: " ").map { Item.ID(String($0)) }
            return (item.id, Links(prev: ids.first ?? nil, next: ids.last ?? nil))
        })
        var order: [Item.ID] = []
        var next = links.first { $0.value.prev == nil }?.key
        while let current = next, order.count < items.count {
            guard links[current]?.prev == order.last else {
                return StoredOrder(ids: order, keyProblem: "the links of \(current) do not point back")
            }
            order.append(current)
            next = links[current]?.next
        }
        return StoredOrder(ids: order, keyProblem: order.count == items.count ? nil : "the links reach \(order.count) of \(items.count) items")
    }

    /// The rows a walk reads to find the moved items and the gap, from the nearer end.
    ///
    /// The gap is found through either of its neighbours; a gap at an end needs no walk.
    static func rowsWalked(to sources: [Int], gap: [Int?], count: Int) -> Int {
        let gapChoices: [[Int]] = gap.contains(nil) ? [[]] : gap.compactMap { $0.map { [$0] } }
        return gapChoices.map { choice in
            let needed = sources + choice
            guard let lowest = needed.min(), let highest = needed.max() else { return 0 }
            return min(highest + 1, count - lowest)
        }.min() ?? 0
    }

    private func links(before slot: ChangeGeometry.Slot, _ context: OperationContext) -> Links {
        guard case .existing(let offset) = slot else { return Links(prev: nil, next: nil) }
        return Links(
            prev: offset > 0 ? context.id(at: offset - 1) : nil,
            next: offset + 1 < context.geometry.count ? context.id(at: offset + 1) : nil)
    }

    private func links(after slot: ChangeGeometry.Slot, _ context: OperationContext) -> Links {
        let geometry = context.geometry
        let offset = switch slot {
        case .existing(let original): geometry.newOffset(ofOriginal: original)
        case .new: geometry.landing
        }
        return Links(
            prev: offset > 0 ? context.id(of: geometry.slot(atNewOffset: offset - 1)) : nil,
            next: offset + 1 < geometry.countAfter ? context.id(of: geometry.slot(atNewOffset: offset + 1)) : nil)
    }

    private struct Links: Equatable {
        var prev: Item.ID?
        var next: Item.ID?
    }

    private static func notes(prev: Item.ID?, next: Item.ID?) -> String {
        "\(prev?.text ?? "-") \(next?.text ?? "-")"
    }
}
