public import ArrangeModel
public import ArrangeStore
public import Foundation
import Synchronization

/// Places and moves items in their lists, writing as few rows as it can.
///
/// Each item keeps a gapped 64-bit `sortIndex`. A new or moved item takes a key in the
/// gap between its neighbours, so a reorder writes one row. When a gap is used up, a
/// window of neighbours around it, as small as gives enough room, is re-spread first
/// (``recalculateBounds(around:and:inserting:in:excluding:in:)``); ties that arrive from
/// elsewhere are sorted out by ``validate(list:repair:)``.
///
/// Every public operation runs in one repository transaction, re-spread included, and
/// returns what it did. The `in transaction:` variants let a caller compose several
/// operations into one transaction of its own.
public final class OrderingService: Sendable {
    /// The store the service reads and writes.
    public let repository: any ItemRepository
    /// How keys are chosen.
    public let configuration: OrderingConfiguration
    private let random: Mutex<any RandomNumberGenerator & Sendable>
    /// The clock that stamps `updatedAt` on every item a change writes.
    let now: @Sendable () -> Date

    /// Creates a service over a repository.
    ///
    /// - Parameters:
    ///   - repository: Where the items live.
    ///   - configuration: The gaps and the jitter to use.
    ///   - random: The source of jitter; pass a `SeededRandomNumberGenerator` (of ArrangeModel) for repeatable keys.
    ///   - now: The clock that stamps `updatedAt` on moved items and on the neighbours a re-spread rewrites.
    /// - Throws: ``OrderingConfiguration/Problem`` when the configuration cannot work.
    public init(
        repository: any ItemRepository,
        configuration: OrderingConfiguration = OrderingConfiguration(),
        random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
        now: @escaping @Sendable () -> Date = Date.init
    ) throws(OrderingConfiguration.Problem) {
        try configuration.validate()
        self.repository = repository
        self.configuration = configuration
        self.random = Mutex(random)
        self.now = now
    }

    // MARK: Adding

    /// Adds a new item to its list (`item.listID`) at `placement`; its `sortIndex` is chosen here.
    ///
    /// - Parameters:
    ///   - item: The item to add.
    ///   - placement: Where it goes.
    ///   - visibility: Which items an ``Placement/offset(_:)`` counts.
    /// - Returns: The item as stored, and the rows written.
    /// - Throws: ``StoreError`` for an unknown list or anchor, ``OrderingError`` for a bad placement.
    /// - Complexity: O(log n) rows read and one row written, unless the gap is full.
    @discardableResult
    public func add(_ item: Item, at placement: Placement, visibility: ItemVisibility = .all) throws -> OrderingReport {
        try repository.write { try add(item, at: placement, visibility: visibility, in: $0) }
    }

    /// ``add(_:at:visibility:)`` inside a transaction of the caller's.
    @discardableResult
    public func add(_ item: Item, at placement: Placement, visibility: ItemVisibility, in transaction: any ItemWriting) throws -> OrderingReport {
        _ = try transaction.existingList(id: item.listID)
        let gap = try gap(for: placement, in: item.listID, visibility: visibility, moving: [], in: transaction)
        let placement = try keys(for: 1, in: gap, list: item.listID, excluding: [], in: transaction)
        var added = item
        added.sortIndex = placement.keys[0]
        try transaction.updateSortIndices(placement.respread, updatedAt: now())
        try transaction.insert(added)
        return OrderingReport(placed: [added], rowsWritten: 1 + placement.respread.count, rowsRespread: placement.respread.count)
    }

    // MARK: Moving

    /// Moves items to `placement`, keeping their display order, into `list` when given.
    ///
    /// Without `list`, the items go to the list of the item a `.before` or `.after` placement
    /// names, or stay in their own list.
    ///
    /// - Parameters:
    ///   - ids: The items to move, each once.
    ///   - placement: Where the moved run goes.
    ///   - list: The list to move into, if not their own.
    ///   - visibility: Which items an ``Placement/offset(_:)`` counts.
    /// - Returns: The moved items as stored, and the rows written. A move onto the items'
    ///   own place writes nothing.
    /// - Throws: ``StoreError`` for unknown ids or lists, ``OrderingError`` for a move that
    ///   cannot be made.
    /// - Complexity: O(k log n) for k items, plus the rows of a re-spread when one is needed.
    @discardableResult
    public func move(_ ids: [Item.ID], to placement: Placement, into list: ItemList.ID? = nil, visibility: ItemVisibility = .all) throws -> OrderingReport {
        try repository.write { try move(ids, to: placement, into: list, visibility: visibility, in: $0) }
    }

    /// ``move(_:to:into:visibility:)`` inside a transaction of the caller's.
    @discardableResult
    public func move(
        _ ids: [Item.ID], to placement: Placement, into list: ItemList.ID?, visibility: ItemVisibility,
        in transaction: any ItemWriting
    ) throws -> OrderingReport {
        guard !ids.isEmpty else { throw OrderingError.nothingToMove }
        let repeated = Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys
        guard repeated.isEmpty else { throw OrderingError.duplicateItems(repeated.sorted()) }
        let moving = try ids.map { try transaction.existingItem(id: $0) }
        let anchor = try placement.anchorID.map { try transaction.existingItem(id: $0) }
        let target = try targetList(for: moving, anchor: anchor, explicit: list, in: transaction)
        return try move(moving, to: placement, anchor: anchor, into: target, visibility: visibility, in: transaction)
    }

    /// Moves distinct, existing items into `target`; the shared end of both forms of move.
    private func move(
        _ items: [Item], to placement: Placement, anchor: Item? = nil, into target: ItemList.ID, visibility: ItemVisibility,
        in transaction: any ItemWriting
    ) throws -> OrderingReport {
        let moving = items.sorted { $0.orderKey < $1.orderKey }
        let gap = try gap(for: placement, anchor: anchor, in: target, visibility: visibility, moving: moving, in: transaction)
        let settled = settledEnds(of: moving, in: gap, list: target)
        let unsettled = Array(moving[settled.prefix..<(moving.count - settled.suffix)])
        guard !unsettled.isEmpty else { return OrderingReport(placed: moving) }
        let innerGap = Gap(
            lower: settled.prefix > 0 ? moving[settled.prefix - 1] : gap.lower,
            upper: settled.suffix > 0 ? moving[moving.count - settled.suffix] : gap.upper)
        let placement = try keys(for: unsettled.count, in: innerGap, list: target, excluding: Set(unsettled.map(\.id)), in: transaction)
        let stamp = now()
        try transaction.updateSortIndices(placement.respread, updatedAt: stamp)
        let moved = try zip(unsettled, placement.keys).map { item, key in
            var moved = item
            moved.listID = target
            moved.sortIndex = key
            moved.updatedAt = stamp
            try transaction.update(moved)
            return moved
        }
        let placed = moving.prefix(settled.prefix) + moved + moving.suffix(settled.suffix)
        return OrderingReport(placed: Array(placed), rowsWritten: moved.count + placement.respread.count, rowsRespread: placement.respread.count)
    }

    /// Moves the items at `source` so that they land before the item at `destination`, with the
    /// semantics of SwiftUI's `onMove(perform:)` and `Array.move(fromOffsets:toOffset:)`.
    ///
    /// Offsets count the items seen under `visibility`, in display order; `destination` is in
    /// the coordinates from before the move. Hidden items keep their places, and the moved
    /// run lands directly before its new visible successor (or after its new visible predecessor).
    ///
    /// ```swift
    /// // "ABcDefgHIJKlmNO": move the lowercase letters to offset 2
    /// try service.move(fromOffsets: [2, 4, 5, 6, 11, 12], toOffset: 2, in: list)
    /// // now "ABcefglmDHIJKNO"
    /// ```
    ///
    /// - Throws: ``OrderingError/offsetOutOfRange(offset:count:)`` for an offset outside the list.
    @discardableResult
    public func move(fromOffsets source: IndexSet, toOffset destination: Int, in list: ItemList.ID, visibility: ItemVisibility = .all) throws -> OrderingReport {
        try repository.write { try move(fromOffsets: source, toOffset: destination, in: list, visibility: visibility, in: $0) }
    }

    /// ``move(fromOffsets:toOffset:in:visibility:)`` inside a transaction of the caller's.
    @discardableResult
    public func move(
        fromOffsets source: IndexSet, toOffset destination: Int, in list: ItemList.ID, visibility: ItemVisibility,
        in transaction: any ItemWriting
    ) throws -> OrderingReport {
        _ = try transaction.existingList(id: list)
        guard !source.isEmpty else { throw OrderingError.nothingToMove }
        let outOfRange = { (offset: Int, limit: Int) in
            OrderingError.offsetOutOfRange(offset: offset, count: try transaction.itemCount(in: list, visibility: visibility) + limit)
        }
        var moving: [Item] = []
        for range in source.rangeView {
            let page = range.lowerBound < 0 ? [] : try transaction.items(in: list, visibility: visibility, offset: range.lowerBound, limit: range.count)
            guard page.count == range.count else { throw try outOfRange(range.lowerBound < 0 ? range.lowerBound : range.lowerBound + page.count, -1) }
            moving += page
        }
        let landing = destination - source.count(in: 0..<max(destination, 0))
        do {
            return try move(moving, to: .offset(landing), into: list, visibility: visibility, in: transaction)
        } catch OrderingError.offsetOutOfRange {
            throw try outOfRange(destination, 0)
        }
    }

    // MARK: Finding the gap

    /// The two neighbours, adjacent once `moving` is set aside, between which `placement` falls.
    ///
    /// - Parameter anchor: The item a `.before` or `.after` placement names, when read already.
    private func gap(
        for placement: Placement, anchor: Item? = nil, in list: ItemList.ID, visibility: ItemVisibility, moving: [Item],
        in transaction: any ItemReading
    ) throws -> Gap {
        let neighbours = Neighbours(list: list, excluding: Set(moving.map(\.id)), transaction: transaction)
        switch placement {
        case .top:
            return Gap(lower: nil, upper: try neighbours.after(.beforeAll))
        case .bottom:
            return Gap(lower: try neighbours.before(.afterAll), upper: nil)
        case .before(let id):
            let anchor = try checkedAnchor(anchor ?? transaction.existingItem(id: id), in: list, moving: neighbours.excluding)
            return Gap(lower: try neighbours.before(anchor.orderKey), upper: anchor)
        case .after(let id):
            let anchor = try checkedAnchor(anchor ?? transaction.existingItem(id: id), in: list, moving: neighbours.excluding)
            return Gap(lower: anchor, upper: try neighbours.after(anchor.orderKey))
        case .offset(let offset):
            return try gap(atVisibleOffset: offset, in: list, visibility: visibility, moving: moving, neighbours: neighbours)
        }
    }

    /// The gap at `offset` among the visible items that are not moving.
    ///
    /// The visible item at that offset is found with one page read that starts at `offset`
    /// and spans as many extra items as are moving: comparing keys tells how many moving
    /// items come before each candidate. Only an offset at or past the end counts the list.
    private func gap(
        atVisibleOffset offset: Int, in list: ItemList.ID, visibility: ItemVisibility, moving: [Item],
        neighbours: Neighbours
    ) throws -> Gap {
        let transaction = neighbours.transaction
        let movingVisible = moving.filter { $0.listID == list && visibility.includes($0) }.map(\.orderKey)
        guard offset >= 0 else { throw OrderingError.offsetOutOfRange(offset: offset, count: try transaction.itemCount(in: list, visibility: visibility) - movingVisible.count) }
        if let anchor = try visibleStayingItem(at: offset, in: list, visibility: visibility, movingVisible: movingVisible, neighbours: neighbours) {
            return Gap(lower: try neighbours.before(anchor.orderKey), upper: anchor)
        }
        let staying = try transaction.itemCount(in: list, visibility: visibility) - movingVisible.count
        guard offset == staying else { throw OrderingError.offsetOutOfRange(offset: offset, count: staying) }
        guard staying > 0, let last = try visibleStayingItem(at: staying - 1, in: list, visibility: visibility, movingVisible: movingVisible, neighbours: neighbours) else {
            return Gap(lower: try neighbours.before(.afterAll), upper: nil)
        }
        return Gap(lower: last, upper: try neighbours.after(last.orderKey))
    }

    /// The visible item at `offset` once the moving ones are set aside, or `nil` past the end.
    private func visibleStayingItem(
        at offset: Int, in list: ItemList.ID, visibility: ItemVisibility, movingVisible: [OrderKey], neighbours: Neighbours
    ) throws -> Item? {
        let candidates = try neighbours.transaction.items(in: list, visibility: visibility, offset: offset, limit: movingVisible.count + 1)
        return candidates.enumerated().first { index, item in
            !neighbours.excluding.contains(item.id) && index == movingVisible.count(where: { $0 < item.orderKey })
        }?.element
    }

    /// The item a placement names, once it is known to be neither moving nor in another list.
    private func checkedAnchor(_ anchor: Item, in list: ItemList.ID, moving: Set<Item.ID>) throws -> Item {
        guard !moving.contains(anchor.id) else { throw OrderingError.placedRelativeToItself(anchor.id) }
        guard anchor.listID == list else { throw OrderingError.anchorInAnotherList(anchor: anchor.id, list: list) }
        return anchor
    }

    /// The list a move goes to: the one named, else the anchor's, else the moving items' own.
    private func targetList(for moving: [Item], anchor: Item?, explicit: ItemList.ID?, in transaction: any ItemReading) throws -> ItemList.ID {
        if let explicit {
            return try transaction.existingList(id: explicit).id
        }
        if let anchor {
            return anchor.listID
        }
        let lists = Set(moving.map(\.listID))
        guard lists.count == 1, let list = lists.first else { throw OrderingError.targetListAmbiguous }
        return list
    }

    /// How many of the moving items already sit at the start and at the end of the gap, in
    /// order: those keep their keys, and a move whose items all sit there writes nothing.
    ///
    /// Only moving items can lie between the gap's two neighbours, and `moving` is sorted, so
    /// the ones that do form runs at its ends; no query is needed.
    private func settledEnds(of moving: [Item], in gap: Gap, list: ItemList.ID) -> (prefix: Int, suffix: Int) {
        let isInGap = { (item: Item) in
            item.listID == list
                && gap.lower.map { $0.orderKey < item.orderKey } ?? true
                && gap.upper.map { item.orderKey < $0.orderKey } ?? true
        }
        let prefix = moving.prefix(while: isInGap).count
        return (prefix, prefix == moving.count ? 0 : moving.reversed().prefix(while: isInGap).count)
    }

    // MARK: Choosing keys

    /// Keys for `count` items in `gap`, and the re-spread that makes room for them when the gap is full.
    func keys(
        for count: Int, in gap: Gap, list: ItemList.ID, excluding excluded: Set<Item.ID>, in transaction: any ItemReading
    ) throws -> KeyPlacement {
        let (lower, upper) = bounds(of: gap, count: count)
        let keys = random.withLock { random in
            KeyLayout.evenKeys(count, between: lower, and: upper, minimumGap: configuration.minimumGap, jitter: configuration.jitter, using: &random)
        }
        if let keys {
            return KeyPlacement(keys: keys, respread: [])
        }
        return try recalculateBounds(around: gap.lower, and: gap.upper, inserting: count, in: list, excluding: excluded, in: transaction)
    }

    /// The exclusive bounds of a gap; a missing neighbour leaves room for `count` end steps.
    private func bounds(of gap: Gap, count: Int) -> (Int128, Int128) {
        let room = Int128(configuration.endGap) * Int128(count + 1)
        switch (gap.lower.map { Int128($0.sortIndex) }, gap.upper.map { Int128($0.sortIndex) }) {
        case let (lower?, upper?):
            return (lower, upper)
        case let (lower?, nil):
            return (lower, min(lower + room, KeyLayout.ceiling))
        case let (nil, upper?):
            return (max(upper - room, KeyLayout.floor), upper)
        case (nil, nil):
            return (-room / 2, room - room / 2)
        }
    }

    /// Re-spreads the smallest window of neighbours around a full gap that gives room for
    /// `inserting` new items, and returns their keys with the neighbours' new keys.
    ///
    /// The window grows geometrically, 1, 2, 4, … items on each side, until its span, between
    /// the items just outside it (or an end step past the list's ends), is sparse enough for
    /// its size (``KeyLayout/requiredGap(forItems:minimumGap:)``). The gaps next to the new
    /// items get a larger share of the room, since the next insert tends to land there. Only
    /// when the window has grown to the whole list and is still too dense is the whole list
    /// spread over the full key range.
    ///
    /// - Parameters:
    ///   - lower: The item before the gap, or `nil` at the top.
    ///   - upper: The item after the gap, or `nil` at the bottom.
    ///   - inserting: How many new keys the gap needs (0 to only re-spread).
    ///   - excluded: Items being moved, which the window passes over.
    /// - Complexity: O(w log n) reads and at most w writes for a window of w items.
    func recalculateBounds(
        around lower: Item?, and upper: Item?, inserting: Int, in list: ItemList.ID,
        excluding excluded: Set<Item.ID>, in transaction: any ItemReading
    ) throws -> KeyPlacement {
        let neighbours = Neighbours(list: list, excluding: excluded, transaction: transaction)
        var reach = 1
        while true {
            let below = try lower.map { [$0] + (try neighbours.before($0.orderKey, limit: reach)) } ?? []
            let above = try upper.map { [$0] + (try neighbours.after($0.orderKey, limit: reach)) } ?? []
            let windowBelow = Array(below.prefix(reach).reversed())
            let windowAbove = Array(above.prefix(reach))
            let outerBelow = below.count > reach ? below[reach] : nil
            let outerAbove = above.count > reach ? above[reach] : nil
            let window = windowBelow.map(\.id) + Array(repeating: nil, count: inserting) + windowAbove.map(\.id)
            let lowestKey = Int128((windowBelow.first ?? windowAbove.first)?.sortIndex ?? 0)
            let highestKey = Int128((windowAbove.last ?? windowBelow.last)?.sortIndex ?? 0)
            let wholeList = outerBelow == nil && outerAbove == nil
            let span = (
                outerBelow.map { Int128($0.sortIndex) } ?? max(lowestKey - Int128(configuration.endGap), KeyLayout.floor),
                outerAbove.map { Int128($0.sortIndex) } ?? min(highestKey + Int128(configuration.endGap), KeyLayout.ceiling)
            )
            let hot = windowBelow.count..<(windowBelow.count + inserting)
            let required = KeyLayout.requiredGap(forItems: window.count, minimumGap: configuration.minimumGap)
            let keys = KeyLayout.respreadKeys(window.count, hot: hot, between: span.0, and: span.1, leaving: required)
                ?? (wholeList ? KeyLayout.respreadKeys(window.count, hot: hot, between: KeyLayout.floor, and: KeyLayout.ceiling, leaving: 1) : nil)
            if let keys {
                return KeyPlacement(window: window, keys: keys, old: windowBelow + windowAbove)
            }
            reach *= 2
        }
    }
}

/// Two neighbours, adjacent in display order once the moving items are set aside.
struct Gap {
    var lower: Item?
    var upper: Item?
}

/// New keys for the placed items, and the re-spread of their neighbours.
struct KeyPlacement {
    var keys: [Int64]
    var respread: [SortIndexChange]

    init(keys: [Int64], respread: [SortIndexChange]) {
        self.keys = keys
        self.respread = respread
    }

    /// Splits a laid-out window into the new items' keys and the changed neighbours.
    init(window: [Item.ID?], keys: [Int64], old: [Item]) {
        let oldKeys = Dictionary(uniqueKeysWithValues: old.map { ($0.id, $0.sortIndex) })
        self.keys = zip(window, keys).filter { $0.0 == nil }.map(\.1)
        self.respread = zip(window, keys).compactMap { id, key in
            guard let id, oldKeys[id] != key else { return nil }
            return SortIndexChange(id: id, sortIndex: key)
        }
    }
}

/// Neighbour lookups in one list that pass over a set of items.
struct Neighbours {
    let list: ItemList.ID
    let excluding: Set<Item.ID>
    let transaction: any ItemReading

    /// The nearest `limit` items before `key`, nearest first.
    func before(_ key: OrderKey, limit: Int) throws -> [Item] {
        Array(try transaction.items(in: list, before: key, limit: limit + excluding.count).filter { !excluding.contains($0.id) }.prefix(limit))
    }

    /// The nearest `limit` items after `key`, nearest first.
    func after(_ key: OrderKey, limit: Int) throws -> [Item] {
        Array(try transaction.items(in: list, after: key, limit: limit + excluding.count).filter { !excluding.contains($0.id) }.prefix(limit))
    }

    func before(_ key: OrderKey) throws -> Item? { try before(key, limit: 1).first }
    func after(_ key: OrderKey) throws -> Item? { try after(key, limit: 1).first }
}
