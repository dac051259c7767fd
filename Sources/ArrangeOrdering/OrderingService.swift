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
    private let now: @Sendable () -> Date

    /// Creates a service over a repository.
    ///
    /// - Parameters:
    ///   - repository: Where the items live.
    ///   - configuration: The gaps and the jitter to use.
    ///   - random: The source of jitter; pass a ``SeededRandomNumberGenerator`` for repeatable keys.
    ///   - now: The clock that stamps `updatedAt` on moved items.
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
        try transaction.updateSortIndices(placement.respread)
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
        let moving = try ids.map { try transaction.existingItem(id: $0) }.sorted { $0.orderKey < $1.orderKey }
        let target = try targetList(for: moving, placement: placement, explicit: list, in: transaction)
        let gap = try gap(for: placement, in: target, visibility: visibility, moving: Set(ids), in: transaction)
        let settled = try settledEnds(of: moving, in: gap, list: target, in: transaction)
        let unsettled = Array(moving[settled.prefix..<(moving.count - settled.suffix)])
        guard !unsettled.isEmpty else { return OrderingReport(placed: moving) }
        let innerGap = Gap(
            lower: settled.prefix > 0 ? moving[settled.prefix - 1] : gap.lower,
            upper: settled.suffix > 0 ? moving[moving.count - settled.suffix] : gap.upper)
        let placement = try keys(for: unsettled.count, in: innerGap, list: target, excluding: Set(unsettled.map(\.id)), in: transaction)
        try transaction.updateSortIndices(placement.respread)
        let stamp = now()
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
    /// try service.move(fromOffsets: [2, 5, 6, 11, 12], toOffset: 2, in: list)
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
        let count = try transaction.itemCount(in: list, visibility: visibility)
        guard let first = source.first, let last = source.last else { throw OrderingError.nothingToMove }
        for offset in [first, last] where !(0..<count).contains(offset) {
            throw OrderingError.offsetOutOfRange(offset: offset, count: count - 1)
        }
        guard (0...count).contains(destination) else { throw OrderingError.offsetOutOfRange(offset: destination, count: count) }
        let ids = try source.rangeView.flatMap { range in
            try transaction.items(in: list, visibility: visibility, offset: range.lowerBound, limit: range.count).map(\.id)
        }
        let landing = destination - source.count(in: 0..<destination)
        return try move(ids, to: .offset(landing), into: list, visibility: visibility, in: transaction)
    }

    // MARK: Finding the gap

    /// The two neighbours, adjacent once `moving` is set aside, between which `placement` falls.
    private func gap(
        for placement: Placement, in list: ItemList.ID, visibility: ItemVisibility, moving: Set<Item.ID>,
        in transaction: any ItemReading
    ) throws -> Gap {
        let neighbours = Neighbours(list: list, excluding: moving, transaction: transaction)
        switch placement {
        case .top:
            return Gap(lower: nil, upper: try neighbours.after(.beforeAll))
        case .bottom:
            return Gap(lower: try neighbours.before(.afterAll), upper: nil)
        case .before(let id):
            let anchor = try anchor(id, in: list, moving: moving, in: transaction)
            return Gap(lower: try neighbours.before(anchor.orderKey), upper: anchor)
        case .after(let id):
            let anchor = try anchor(id, in: list, moving: moving, in: transaction)
            return Gap(lower: anchor, upper: try neighbours.after(anchor.orderKey))
        case .offset(let offset):
            return try gap(atVisibleOffset: offset, in: list, visibility: visibility, moving: moving, neighbours: neighbours)
        }
    }

    /// The gap at `offset` among the visible items that are not moving.
    ///
    /// The visible item at that offset is found with one page read that starts at `offset`
    /// and spans as many extra items as are moving: comparing keys tells how many moving
    /// items come before each candidate.
    private func gap(
        atVisibleOffset offset: Int, in list: ItemList.ID, visibility: ItemVisibility, moving: Set<Item.ID>,
        neighbours: Neighbours
    ) throws -> Gap {
        let transaction = neighbours.transaction
        let movingVisible = try moving.compactMap { try transaction.item(id: $0) }
            .filter { $0.listID == list && visibility.includes($0) }
            .map(\.orderKey)
        let staying = try transaction.itemCount(in: list, visibility: visibility) - movingVisible.count
        guard (0...staying).contains(offset) else { throw OrderingError.offsetOutOfRange(offset: offset, count: staying) }
        if staying == 0 {
            return Gap(lower: try neighbours.before(.afterAll), upper: nil)
        }
        let target = min(offset, staying - 1)
        let candidates = try transaction.items(in: list, visibility: visibility, offset: target, limit: movingVisible.count + 1)
        let anchor = candidates.enumerated().first { index, item in
            !moving.contains(item.id)
                && target + index - movingVisible.count(where: { $0 < item.orderKey }) == target
        }?.element
        guard let anchor else { throw OrderingError.offsetOutOfRange(offset: offset, count: staying) }
        return offset < staying
            ? Gap(lower: try neighbours.before(anchor.orderKey), upper: anchor)
            : Gap(lower: anchor, upper: try neighbours.after(anchor.orderKey))
    }

    private func anchor(_ id: Item.ID, in list: ItemList.ID, moving: Set<Item.ID>, in transaction: any ItemReading) throws -> Item {
        guard !moving.contains(id) else { throw OrderingError.placedRelativeToItself(id) }
        let anchor = try transaction.existingItem(id: id)
        guard anchor.listID == list else { throw OrderingError.anchorInAnotherList(anchor: id, list: list) }
        return anchor
    }

    private func targetList(for moving: [Item], placement: Placement, explicit: ItemList.ID?, in transaction: any ItemReading) throws -> ItemList.ID {
        if let explicit {
            return try transaction.existingList(id: explicit).id
        }
        switch placement {
        case .before(let id), .after(let id):
            return try transaction.existingItem(id: id).listID
        case .top, .bottom, .offset:
            let lists = Set(moving.map(\.listID))
            guard lists.count == 1, let list = lists.first else { throw OrderingError.targetListAmbiguous }
            return list
        }
    }

    /// How many of the moving items already sit at the start and at the end of the gap, in
    /// order: those keep their keys, and a move whose items all sit there writes nothing.
    private func settledEnds(of moving: [Item], in gap: Gap, list: ItemList.ID, in transaction: any ItemReading) throws -> (prefix: Int, suffix: Int) {
        let following = try transaction.items(in: list, after: gap.lower?.orderKey ?? .beforeAll, limit: moving.count)
        let prefix = zip(following, moving).prefix { $0.id == $1.id && $1.listID == list }.count
        guard prefix < moving.count else { return (prefix, 0) }
        let preceding = try transaction.items(in: list, before: gap.upper?.orderKey ?? .afterAll, limit: moving.count - prefix)
        let suffix = zip(preceding, moving.reversed()).prefix { $0.id == $1.id && $1.listID == list }.count
        return (prefix, suffix)
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
