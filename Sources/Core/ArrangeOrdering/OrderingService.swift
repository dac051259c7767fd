public import ArrangeModel
public import ArrangeStore
public import Foundation

/// Places and moves entries in their orderings, writing as few rows as it can.
///
/// Every ordering (an `OrderScope`: a list's items, a heading's, a list's headings, the lists,
/// Today, a checklist, the areas) works the same way.
/// Each entry keeps a gapped 64-bit `sortIndex`. A new or moved entry takes a key in the
/// gap between its neighbours, so a reorder writes one row. When a gap is used up, a
/// window of neighbours around it, as small as gives enough room, is re-spread first
/// (`recalculateBounds(around:and:inserting:in:excluding:in:)`); ties that arrive from
/// elsewhere are sorted out by ``validate(_:repair:)``.
///
/// Every public operation runs in one repository transaction, re-spread included, and
/// returns what it did. The `in transaction:` variants let a caller compose several
/// operations into one transaction of its own.
public final class OrderingService: Sendable {
    /// The store the service reads and writes.
    public let repository: any ItemRepository
    /// How keys are chosen.
    public let configuration: OrderingConfiguration
    private let random: Locked<any RandomNumberGenerator & Sendable>
    /// The clock that stamps `updatedAt` on every item a change writes.
    let now: @Sendable () -> Date

    /// Creates a service over a repository.
    ///
    /// - Parameters:
    ///   - repository: Where the lists and items live.
    ///   - configuration: The gaps and the jitter to use.
    ///   - random: The source of jitter; pass a `SeededRandomNumberGenerator` (of ArrangeModel) for repeatable keys.
    ///   - now: The clock that stamps `updatedAt` on moved items and on the items a re-spread rewrites.
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
        self.random = Locked(random)
        self.now = now
    }

    // MARK: Adding

    /// Adds a new item to its list (`item.listID`), under its heading if it has one, at
    /// `placement`; its `sortIndex` is chosen here.
    ///
    /// - Parameters:
    ///   - item: The item to add. With a `todayIndex` it joins Today at that key as it is.
    ///   - placement: Where it goes in its list.
    ///   - visibility: Which items an ``Placement/offset(_:)`` counts.
    /// - Returns: The item's entry in its list, and the rows written.
    /// - Throws: `StoreError` for an unknown list or anchor, ``OrderingError`` for a bad placement.
    /// - Complexity: O(log n) rows read and one row written, unless the gap is full.
    @discardableResult
    public func add(_ item: Item, at placement: ItemPlacement, visibility: ItemVisibility = .all) throws -> OrderingReport {
        try repository.write { try add(item, at: placement, visibility: visibility, in: $0) }
    }

    /// ``add(_:at:visibility:)-(Item,_,_)`` inside a transaction of the caller's.
    @discardableResult
    public func add(_ item: Item, at placement: ItemPlacement, visibility: ItemVisibility, in transaction: any ItemWriting) throws -> OrderingReport {
        try addEntry(
            item.id.entryID, at: placement.map(\.entryID), in: item.scope, visibility: visibility, in: transaction
        ) { key in
            var added = item
            added.sortIndex = key
            try transaction.insert(added)
        }
    }

    /// Adds a new list at `placement` among the lists of its area (or of none); its `sortIndex` is chosen here.
    ///
    /// - Returns: The list's entry, and the rows written.
    /// - Throws: `StoreError` for a taken id or name, an unknown area or an unknown anchor,
    ///   ``OrderingError`` for a bad placement or an anchor of another area.
    /// - Complexity: O(log n) rows read and one row written, unless the gap is full.
    @discardableResult
    public func add(_ list: ItemList, at placement: ListPlacement, in transaction: any ItemWriting) throws -> OrderingReport {
        try addEntry(list.id.entryID, at: placement.map(\.entryID), in: list.scope, visibility: .all, in: transaction) { key in
            var added = list
            added.sortIndex = key
            try transaction.insert(added)
        }
    }

    /// Adds a new area at `placement` among the areas; its `sortIndex` is chosen here.
    ///
    /// - Returns: The area's entry, and the rows written.
    /// - Throws: `StoreError` for a taken id or name or an unknown anchor, ``OrderingError`` for a bad placement.
    /// - Complexity: O(log n) rows read and one row written, unless the gap is full.
    @discardableResult
    public func add(_ area: Area, at placement: AreaPlacement, in transaction: any ItemWriting) throws -> OrderingReport {
        try addEntry(area.id.entryID, at: placement.map(\.entryID), in: .areas, visibility: .all, in: transaction) { key in
            var added = area
            added.sortIndex = key
            try transaction.insert(added)
        }
    }

    /// Adds a new heading at `placement` among the headings of its list; its `sortIndex` is chosen here.
    ///
    /// - Returns: The heading's entry, and the rows written.
    /// - Throws: `StoreError` for a taken id, an unknown list or an unknown anchor,
    ///   ``OrderingError`` for a bad placement or an anchor of another list.
    /// - Complexity: O(log n) rows read and one row written, unless the gap is full.
    @discardableResult
    public func add(_ heading: Heading, at placement: HeadingPlacement, in transaction: any ItemWriting) throws -> OrderingReport {
        try addEntry(heading.id.entryID, at: placement.map(\.entryID), in: .headings(heading.listID), visibility: .all, in: transaction) { key in
            var added = heading
            added.sortIndex = key
            try transaction.insert(added)
        }
    }

    /// Adds a new tag at `placement` among the children of its parent, or at the top level;
    /// its `sortIndex` is chosen here.
    ///
    /// - Returns: The tag's entry, and the rows written.
    /// - Throws: `StoreError` for a taken id or name, an unknown parent or an unknown anchor,
    ///   ``OrderingError`` for a bad placement or an anchor of another parent.
    /// - Complexity: O(log n) rows read and one row written, unless the gap is full.
    @discardableResult
    public func add(_ tag: Tag, at placement: TagPlacement, in transaction: any ItemWriting) throws -> OrderingReport {
        try addEntry(tag.id.entryID, at: placement.map(\.entryID), in: tag.scope, visibility: .all, in: transaction) { key in
            var added = tag
            added.sortIndex = key
            try transaction.insert(added)
        }
    }

    /// Adds a new entry to its item's checklist at `placement`; its `sortIndex` is chosen here.
    ///
    /// - Returns: The entry's entry in the checklist, and the rows written.
    /// - Throws: `StoreError` for an unknown item, a taken id or an unknown anchor,
    ///   ``OrderingError`` for a bad placement or an anchor of another checklist.
    /// - Complexity: O(log n) rows read and one row written, unless the gap is full.
    @discardableResult
    public func add(_ entry: ChecklistItem, at placement: ChecklistPlacement, in transaction: any ItemWriting) throws -> OrderingReport {
        try addEntry(entry.id.entryID, at: placement.map(\.entryID), in: .checklist(entry.itemID), visibility: .all, in: transaction) { key in
            var added = entry
            added.sortIndex = key
            try transaction.insert(added)
        }
    }

    /// Chooses the key of a new entry of `scope`, makes room for it, and has `insert` store it.
    private func addEntry(
        _ id: OrderEntry.ID, at placement: Placement<OrderEntry.ID>, in scope: OrderScope, visibility: ItemVisibility,
        in transaction: any ItemWriting, insert: (Int64) throws -> Void
    ) throws -> OrderingReport {
        try checkExists(scope, in: transaction)
        let gap = try gap(for: placement, in: scope, visibility: visibility, moving: [], anchor: nil, in: transaction)
        let placement = try keys(for: 1, in: gap, scope: scope, excluding: [], in: transaction)
        try transaction.setSortIndices(placement.respread, in: scope, updatedAt: now())
        try insert(placement.keys[0])
        return OrderingReport(
            placed: [OrderKey(sortIndex: placement.keys[0], id: id)],
            rowsWritten: 1 + placement.respread.count, rowsRespread: placement.respread.count,
            predecessor: gap.lower?.id, successor: gap.upper?.id)
    }

    // MARK: Moving

    /// Moves items to `placement` in a list, keeping their display order, into `list` when given.
    ///
    /// Without `list`, the items go to the list and heading of the item a `.before` or `.after`
    /// placement names, or stay in their own list: under their heading when they share one,
    /// else under none. With `list`, they go under no heading of it, unless the placement
    /// names an item of that list, whose heading they go under.
    ///
    /// - Parameters:
    ///   - ids: The items to move, each once.
    ///   - placement: Where the moved run goes.
    ///   - list: The list to move into, if not their own.
    ///   - visibility: Which items an ``Placement/offset(_:)`` counts.
    /// - Returns: The moved items' entries in their list, and the rows written. A move onto
    ///   the items' own place writes nothing.
    /// - Throws: `StoreError` for unknown ids or lists, ``OrderingError`` for a move that
    ///   cannot be made.
    /// - Complexity: O(k log n) for k items, plus the rows of a re-spread when one is needed.
    @discardableResult
    public func move(_ ids: [Item.ID], to placement: ItemPlacement, into list: ItemList.ID? = nil, visibility: ItemVisibility = .all) throws -> OrderingReport {
        try repository.write { try move(ids, to: placement, into: list, visibility: visibility, in: $0) }
    }

    /// ``move(_:to:into:visibility:)`` inside a transaction of the caller's.
    @discardableResult
    public func move(
        _ ids: [Item.ID], to placement: ItemPlacement, into list: ItemList.ID?, visibility: ItemVisibility,
        in transaction: any ItemWriting
    ) throws -> OrderingReport {
        let explicit = try list.map { try transaction.existingList(id: $0).id }
        let anchor = try placement.anchor.map { try transaction.existingStanding(ofItem: $0) }
        let section: OrderScope? = explicit.map { list in anchor.flatMap { $0.list == list ? $0.scope : nil } ?? .items(list) }
        return try move(ids, to: placement, intoSection: section, anchor: anchor, visibility: visibility, in: transaction)
    }

    /// Moves items to `placement` in a section of a list (`OrderScope/items(_:)` for those under
    /// no heading, `OrderScope/heading(_:)` for a heading's), keeping their display order.
    ///
    /// Without `section`, the items go where ``move(_:to:into:visibility:in:)`` takes them
    /// without a list.
    ///
    /// - Throws: `StoreError` for unknown ids, lists or headings, ``OrderingError`` for a move
    ///   that cannot be made, such as a placement beside an item of another section.
    /// - Complexity: O(k log n) for k items, plus the rows of a re-spread when one is needed.
    @discardableResult
    public func move(
        _ ids: [Item.ID], to placement: ItemPlacement, intoSection section: OrderScope?, visibility: ItemVisibility,
        in transaction: any ItemWriting
    ) throws -> OrderingReport {
        try move(ids, to: placement, intoSection: section, anchor: nil, visibility: visibility, in: transaction)
    }

    /// ``move(_:to:intoSection:visibility:in:)``, with where the placement's anchor stands when read already.
    private func move(
        _ ids: [Item.ID], to placement: ItemPlacement, intoSection section: OrderScope?, anchor: ItemStanding?, visibility: ItemVisibility,
        in transaction: any ItemWriting
    ) throws -> OrderingReport {
        // Where each item stands is all a move needs of it: a cheaper read than its row.
        let moving = try ids.map { try transaction.existingStanding(ofItem: $0) }
        if let section { try checkExists(section, in: transaction) }
        // The anchor is read once, for its list, its heading and its key.
        let anchor = try anchor ?? placement.anchor.map { try transaction.existingStanding(ofItem: $0) }
        let target = try section ?? anchor?.scope ?? ownSection(of: moving)
        return try place(try displayOrder(of: moving, in: transaction), at: placement.map(\.entryID), in: target, visibility: visibility, anchor: anchor, in: transaction)
    }

    /// The ids of the items standing at `standings` in the order their lists show them: by
    /// section, then by key.
    private func displayOrder(of standings: [ItemStanding], in transaction: any ItemReading) throws -> [OrderEntry.ID] {
        var rank: [OrderScope: Int] = [:]
        if standings.count > 1, Set(standings.map(\.scope)).count > 1 {
            for list in Set(standings.map(\.list)) {
                for (index, section) in try transaction.sections(of: list).enumerated() { rank[section] = index }
            }
        }
        return standings.sorted { (rank[$0.scope] ?? 0, $0.key) < (rank[$1.scope] ?? 0, $1.key) }.map(\.key.id)
    }

    /// Places entries at `placement` in an ordering, as one run: the entries already in it
    /// move, keeping their order; the others join it after them, in the order given (an item
    /// from another list, an item that was not in Today). This is every move of every ordering.
    ///
    /// - Parameters:
    ///   - ids: The items or lists to place, each once.
    ///   - placement: Where the run goes; an anchor must be in the ordering.
    ///   - scope: The ordering.
    ///   - visibility: Which entries an ``Placement/offset(_:)`` counts.
    ///   - transaction: The write transaction to work in.
    /// - Returns: The placed entries' keys, in order, and the rows written. A move onto the
    ///   entries' own place writes nothing.
    /// - Throws: `StoreError` for unknown ids or an unknown list, ``OrderingError`` for a move that cannot be made.
    /// - Complexity: O(k log n) for k entries, plus the rows of a re-spread when one is needed.
    @discardableResult
    public func place(
        _ ids: [OrderEntry.ID], at placement: Placement<OrderEntry.ID>, in scope: OrderScope, visibility: ItemVisibility,
        in transaction: any ItemWriting
    ) throws -> OrderingReport {
        try place(ids, at: placement, in: scope, visibility: visibility, anchor: nil, in: transaction)
    }

    /// ``place(_:at:in:visibility:in:)``, with where the placement's anchor item stands when
    /// the caller has read it already.
    private func place(
        _ ids: [OrderEntry.ID], at placement: Placement<OrderEntry.ID>, in scope: OrderScope, visibility: ItemVisibility,
        anchor: ItemStanding?, in transaction: any ItemWriting
    ) throws -> OrderingReport {
        guard !ids.isEmpty else { throw OrderingError.nothingToMove }
        guard ids.count == 1 || Set(ids).count == ids.count else {
            let repeated = Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys
            throw OrderingError.duplicateItems(repeated.sorted())
        }
        var moving: [OrderKey] = []
        var joining: [OrderKey] = []
        for id in ids {
            if let key = try key(of: id, in: scope, transaction: transaction) {
                moving.append(key)
            } else {
                joining.append(OrderKey(sortIndex: 0, id: id))
            }
        }
        // An entry already in the ordering proves that it exists; else read the list of an items scope.
        if moving.isEmpty { try checkExists(scope, in: transaction) }
        moving.sort()
        let gap = try gap(for: placement, in: scope, visibility: visibility, moving: moving + joining, anchor: anchor, in: transaction)
        // Only entries already in the ordering can sit in the gap; joining ones come last.
        var settled = settledEnds(of: moving, in: gap)
        if !joining.isEmpty { settled.suffix = 0 }
        let run = moving + joining
        let unsettled = Array(run[settled.prefix..<(run.count - settled.suffix)])
        guard !unsettled.isEmpty else { return OrderingReport(placed: run, predecessor: gap.lower?.id, successor: gap.upper?.id) }
        let innerGap = Gap(
            lower: settled.prefix > 0 ? run[settled.prefix - 1] : gap.lower,
            upper: settled.suffix > 0 ? run[run.count - settled.suffix] : gap.upper)
        let placement = try keys(for: unsettled.count, in: innerGap, scope: scope, excluding: Set(unsettled.map(\.id)), in: transaction)
        let stamp = now()
        try transaction.setSortIndices(placement.respread, in: scope, updatedAt: stamp)
        let changes = zip(unsettled, placement.keys).map { SortIndexChange(id: $0.id, sortIndex: $1) }
        try transaction.setSortIndices(changes, in: scope, updatedAt: stamp)
        // The settled entries kept their keys; the others took the new ones, in order.
        let placed = Array(run.prefix(settled.prefix)) + changes.map { OrderKey(sortIndex: $0.sortIndex, id: $0.id) } + run.suffix(settled.suffix)
        return OrderingReport(
            placed: placed, rowsWritten: changes.count + placement.respread.count, rowsRespread: placement.respread.count,
            predecessor: gap.lower?.id, successor: gap.upper?.id)
    }

    /// Moves the entries at `source` so that they land before the entry at `destination`, with
    /// the semantics of SwiftUI's `onMove(perform:)` and `Array.move(fromOffsets:toOffset:)`.
    ///
    /// Offsets count the entries seen under `visibility`, in order; `destination` is in the
    /// coordinates from before the move. Hidden entries keep their places, and the moved run
    /// lands directly before its new visible successor (or after its new visible predecessor).
    ///
    /// ```swift
    /// // "ABcDefgHIJKlmNO": move the lowercase letters to offset 2
    /// try service.move(fromOffsets: [2, 4, 5, 6, 11, 12], toOffset: 2, in: .items(list))
    /// // now "ABcefglmDHIJKNO"
    /// ```
    ///
    /// - Throws: ``OrderingError/offsetOutOfRange(offset:count:)`` for an offset outside the ordering.
    @discardableResult
    public func move(fromOffsets source: IndexSet, toOffset destination: Int, in scope: OrderScope, visibility: ItemVisibility = .all) throws -> OrderingReport {
        try repository.write { try move(fromOffsets: source, toOffset: destination, in: scope, visibility: visibility, in: $0) }
    }

    /// ``move(fromOffsets:toOffset:in:visibility:)`` inside a transaction of the caller's.
    @discardableResult
    public func move(
        fromOffsets source: IndexSet, toOffset destination: Int, in scope: OrderScope, visibility: ItemVisibility,
        in transaction: any ItemWriting
    ) throws -> OrderingReport {
        try checkExists(scope, in: transaction)
        guard !source.isEmpty else { throw OrderingError.nothingToMove }
        let outOfRange = { (offset: Int, limit: Int) in
            OrderingError.offsetOutOfRange(offset: offset, count: try transaction.entryCount(in: scope, visibility: visibility) + limit)
        }
        var moving: [OrderEntry] = []
        for range in source.rangeView {
            let page = range.lowerBound < 0 ? [] : try transaction.entries(in: scope, visibility: visibility, offset: range.lowerBound, limit: range.count)
            guard page.count == range.count else { throw try outOfRange(range.lowerBound < 0 ? range.lowerBound : range.lowerBound + page.count, -1) }
            moving += page
        }
        let landing = destination - source.count(in: 0..<max(destination, 0))
        do {
            return try place(moving.map(\.id), at: .offset(landing), in: scope, visibility: visibility, in: transaction)
        } catch OrderingError.offsetOutOfRange {
            throw try outOfRange(destination, 0)
        }
    }

    // MARK: Finding the gap

    /// Throws when the ordering itself does not exist: the list of an items scope, the item of
    /// a checklist, the area of an area's lists, the parent of a tag's children.
    func checkExists(_ scope: OrderScope, in transaction: any ItemReading) throws {
        switch scope {
        case .items(let list), .headings(let list): _ = try transaction.existingList(id: list)
        case .checklist(let item): _ = try transaction.existingItem(id: item)
        case .area(let area): _ = try transaction.existingArea(id: area)
        case .heading(let heading): _ = try transaction.existingHeading(id: heading)
        case .tags(let parent?): _ = try transaction.existingTag(id: parent)
        case .lists, .today, .areas, .tags(nil): break
        }
    }

    /// The key of an item, list, checklist entry, area, heading or tag in `scope`, or `nil` when it
    /// is not in it.
    ///
    /// - Throws: ``StoreError/itemNotFound(_:)``, ``StoreError/listNotFound(_:)``,
    ///   ``StoreError/checklistItemNotFound(_:)`` or ``StoreError/areaNotFound(_:)`` when there
    ///   is no such item, list, entry or area;
    ///   ``OrderingError/notInChecklist(_:item:)`` for an entry of another checklist, which
    ///   cannot join this one.
    private func key(of id: OrderEntry.ID, in scope: OrderScope, transaction: any ItemReading) throws -> OrderKey? {
        switch scope {
        case .lists, .area:
            let list = try transaction.existingList(id: ItemList.ID(entry: id))
            return list.scope == scope ? list.entry.key : nil
        case .areas: return try transaction.existingArea(id: Area.ID(entry: id)).entry.key
        case .tags(let parent):
            // A tag of another parent moves in, as a list of another area does.
            let tag = try transaction.existingTag(id: Tag.ID(entry: id))
            return tag.parent == parent ? tag.entry.key : nil
        case .headings(let list):
            let heading = try transaction.existingHeading(id: Heading.ID(entry: id))
            return heading.listID == list ? heading.entry.key : nil
        case .items, .heading:
            // Where the item stands is all its key in its list needs.
            let standing = try transaction.existingStanding(ofItem: Item.ID(entry: id))
            return standing.scope == scope ? standing.key : nil
        case .today: return try transaction.existingItem(id: Item.ID(entry: id)).entry(in: scope)?.key
        case .checklist(let item):
            let entry = try transaction.existingChecklistItem(id: ChecklistItem.ID(entry: id))
            guard entry.itemID == item else { throw OrderingError.notInChecklist(entry.id, item: item) }
            return entry.entry.key
        }
    }

    /// The two neighbours, adjacent once `moving` is set aside, between which `placement` falls.
    ///
    /// - Parameter anchor: Where the placement's anchor item stands, when already read.
    private func gap(
        for placement: Placement<OrderEntry.ID>, in scope: OrderScope, visibility: ItemVisibility, moving: [OrderKey],
        anchor standing: ItemStanding?, in transaction: any ItemReading
    ) throws -> Gap {
        let neighbours = Neighbours(scope: scope, excluding: Set(moving.map(\.id)), transaction: transaction)
        switch placement {
        case .top:
            return Gap(lower: nil, upper: try neighbours.after(.beforeAll))
        case .bottom:
            return Gap(lower: try neighbours.before(.afterAll), upper: nil)
        case .before(let id):
            let anchor = try checkedAnchor(id, in: scope, standing: standing, neighbours: neighbours)
            return Gap(lower: try neighbours.before(anchor), upper: anchor)
        case .after(let id):
            let anchor = try checkedAnchor(id, in: scope, standing: standing, neighbours: neighbours)
            return Gap(lower: anchor, upper: try neighbours.after(anchor))
        case .offset(let offset):
            return try gap(atVisibleOffset: offset, visibility: visibility, moving: moving, neighbours: neighbours)
        }
    }

    /// The gap at `offset` among the visible entries that are not moving.
    ///
    /// The visible entry at that offset is found with one page read that starts at `offset`
    /// and spans as many extra entries as are moving: comparing keys tells how many moving
    /// entries come before each candidate. Only an offset at or past the end counts the ordering.
    private func gap(atVisibleOffset offset: Int, visibility: ItemVisibility, moving: [OrderKey], neighbours: Neighbours) throws -> Gap {
        let (transaction, scope) = (neighbours.transaction, neighbours.scope)
        let movingVisible = try moving.compactMap { try transaction.entry(id: $0.id, in: scope) }.filter(visibility.includes).map(\.key)
        guard offset >= 0 else { throw OrderingError.offsetOutOfRange(offset: offset, count: try transaction.entryCount(in: scope, visibility: visibility) - movingVisible.count) }
        if let anchor = try visibleStayingEntry(at: offset, visibility: visibility, movingVisible: movingVisible, neighbours: neighbours) {
            return Gap(lower: try neighbours.before(anchor.key), upper: anchor.key)
        }
        let staying = try transaction.entryCount(in: scope, visibility: visibility) - movingVisible.count
        guard offset == staying else { throw OrderingError.offsetOutOfRange(offset: offset, count: staying) }
        guard staying > 0, let last = try visibleStayingEntry(at: staying - 1, visibility: visibility, movingVisible: movingVisible, neighbours: neighbours) else {
            return Gap(lower: try neighbours.before(.afterAll), upper: nil)
        }
        return Gap(lower: last.key, upper: try neighbours.after(last.key))
    }

    /// The visible entry at `offset` once the moving ones are set aside, or `nil` past the end.
    private func visibleStayingEntry(
        at offset: Int, visibility: ItemVisibility, movingVisible: [OrderKey], neighbours: Neighbours
    ) throws -> OrderEntry? {
        let candidates = try neighbours.transaction.entries(in: neighbours.scope, visibility: visibility, offset: offset, limit: movingVisible.count + 1)
        return candidates.enumerated().first { index, entry in
            !neighbours.excluding.contains(entry.id) && index == movingVisible.count(where: { $0 < entry.key })
        }?.element
    }

    /// The key of the entry a placement names, once it is known to be in the ordering and not moving.
    ///
    /// - Parameter standing: Where the anchor item stands, when already read.
    private func checkedAnchor(_ id: OrderEntry.ID, in scope: OrderScope, standing: ItemStanding?, neighbours: Neighbours) throws -> OrderKey {
        guard !neighbours.excluding.contains(id) else { throw OrderingError.placedRelativeToItself(id) }
        switch scope {
        case .items(let list):
            // Where an item stands is all a placement beside it needs: a cheaper read than its row.
            let item = Item.ID(entry: id)
            let standing = try standing ?? neighbours.transaction.existingStanding(ofItem: item)
            guard standing.list == list else { throw OrderingError.anchorInAnotherList(anchor: item, list: list) }
            guard standing.heading == nil else { throw OrderingError.anchorUnderAnotherHeading(anchor: item, heading: nil) }
            return standing.key
        case .heading(let heading):
            let item = Item.ID(entry: id)
            let standing = try standing ?? neighbours.transaction.existingStanding(ofItem: item)
            guard standing.heading == heading else { throw OrderingError.anchorUnderAnotherHeading(anchor: item, heading: heading) }
            return standing.key
        case .headings(let list):
            guard let anchor = try key(of: id, in: scope, transaction: neighbours.transaction) else {
                throw OrderingError.headingInAnotherList(anchor: Heading.ID(entry: id), list: list)
            }
            return anchor
        case .today:
            guard let anchor = try key(of: id, in: scope, transaction: neighbours.transaction) else { throw OrderingError.anchorNotInToday(Item.ID(entry: id)) }
            return anchor
        case .lists, .area:
            guard let anchor = try key(of: id, in: scope, transaction: neighbours.transaction) else {
                let area: Area.ID? = if case .area(let area) = scope { area } else { nil }
                throw OrderingError.anchorInAnotherArea(anchor: ItemList.ID(entry: id), area: area)
            }
            return anchor
        case .tags(let parent):
            guard let anchor = try key(of: id, in: scope, transaction: neighbours.transaction) else {
                throw OrderingError.tagUnderAnotherParent(anchor: Tag.ID(entry: id), parent: parent)
            }
            return anchor
        case .checklist, .areas:
            // Either is in its ordering, or `key(of:in:transaction:)` throws.
            guard let anchor = try key(of: id, in: scope, transaction: neighbours.transaction) else { throw StoreError.checklistItemNotFound(ChecklistItem.ID(entry: id)) }
            return anchor
        }
    }

    /// Where a move that names neither a list nor an anchor goes: the section of the moving
    /// items when they share one, else the items under no heading of their list.
    private func ownSection(of moving: [ItemStanding]) throws -> OrderScope {
        let lists = Set(moving.map(\.list))
        guard lists.count == 1, let list = lists.first else {
            throw moving.isEmpty ? OrderingError.nothingToMove : OrderingError.targetListAmbiguous
        }
        let sections = Set(moving.map(\.scope))
        return sections.count == 1 ? sections.first ?? .items(list) : .items(list)
    }

    /// How many of the moving entries already sit at the start and at the end of the gap, in
    /// order: those keep their keys, and a move whose entries all sit there writes nothing.
    ///
    /// Only moving entries can lie between the gap's two neighbours, and `moving` is sorted, so
    /// the ones that do form runs at its ends; no query is needed.
    private func settledEnds(of moving: [OrderKey], in gap: Gap) -> (prefix: Int, suffix: Int) {
        let isInGap = { (key: OrderKey) in
            gap.lower.map { $0 < key } ?? true && gap.upper.map { key < $0 } ?? true
        }
        let prefix = moving.prefix(while: isInGap).count
        return (prefix, prefix == moving.count ? 0 : moving.reversed().prefix(while: isInGap).count)
    }

    // MARK: Choosing keys

    /// Keys for `count` entries in `gap`, and the re-spread that makes room for them when the gap is full.
    func keys(
        for count: Int, in gap: Gap, scope: OrderScope, excluding excluded: Set<OrderEntry.ID>, in transaction: any ItemReading
    ) throws -> KeyPlacement {
        let (lower, upper) = bounds(of: gap, count: count)
        let keys = random.withLock { random in
            KeyLayout.evenKeys(count, between: lower, and: upper, minimumGap: configuration.minimumGap, jitter: configuration.jitter, using: &random)
        }
        if let keys {
            return KeyPlacement(keys: keys, respread: [])
        }
        return try recalculateBounds(around: gap.lower, and: gap.upper, inserting: count, in: scope, excluding: excluded, in: transaction)
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
    /// `inserting` new entries, and returns their keys with the neighbours' new keys.
    ///
    /// The window grows geometrically, 1, 2, 4, … entries on each side, until its span, between
    /// the entries just outside it (or an end step past the ordering's ends), is sparse enough
    /// for its size (``KeyLayout/requiredGap(forItems:minimumGap:)``). The gaps next to the new
    /// entries get a larger share of the room, since the next insert tends to land there. Only
    /// when the window has grown to the whole ordering and is still too dense is all of it
    /// spread over the full key range.
    ///
    /// - Parameters:
    ///   - lower: The key of the entry before the gap, or `nil` at the top.
    ///   - upper: The key of the entry after the gap, or `nil` at the bottom.
    ///   - inserting: How many new keys the gap needs (0 to only re-spread).
    ///   - scope: The ordering.
    ///   - excluded: Entries being moved, which the window passes over.
    /// - Complexity: O(w log n) reads and at most w writes for a window of w entries.
    func recalculateBounds(
        around lower: OrderKey?, and upper: OrderKey?, inserting: Int, in scope: OrderScope,
        excluding excluded: Set<OrderEntry.ID>, in transaction: any ItemReading
    ) throws -> KeyPlacement {
        let neighbours = Neighbours(scope: scope, excluding: excluded, transaction: transaction)
        var reach = 1
        while true {
            let below = try lower.map { [$0] + (try neighbours.before($0, limit: reach)) } ?? []
            let above = try upper.map { [$0] + (try neighbours.after($0, limit: reach)) } ?? []
            let windowBelow = Array(below.prefix(reach).reversed())
            let windowAbove = Array(above.prefix(reach))
            let outerBelow = below.count > reach ? below[reach] : nil
            let outerAbove = above.count > reach ? above[reach] : nil
            let window = windowBelow.map(\.id) + Array(repeating: nil, count: inserting) + windowAbove.map(\.id)
            let lowestKey = Int128((windowBelow.first ?? windowAbove.first)?.sortIndex ?? 0)
            let highestKey = Int128((windowAbove.last ?? windowBelow.last)?.sortIndex ?? 0)
            let wholeOrdering = outerBelow == nil && outerAbove == nil
            let span = (
                outerBelow.map { Int128($0.sortIndex) } ?? max(lowestKey - Int128(configuration.endGap), KeyLayout.floor),
                outerAbove.map { Int128($0.sortIndex) } ?? min(highestKey + Int128(configuration.endGap), KeyLayout.ceiling)
            )
            let hot = windowBelow.count..<(windowBelow.count + inserting)
            let required = KeyLayout.requiredGap(forItems: window.count, minimumGap: configuration.minimumGap)
            let keys = KeyLayout.respreadKeys(window.count, hot: hot, between: span.0, and: span.1, leaving: required)
                ?? (wholeOrdering ? KeyLayout.respreadKeys(window.count, hot: hot, between: KeyLayout.floor, and: KeyLayout.ceiling, leaving: 1) : nil)
            if let keys {
                return KeyPlacement(window: window, keys: keys, old: windowBelow + windowAbove)
            }
            reach *= 2
        }
    }
}

/// The keys of two neighbours, adjacent in order once the moving entries are set aside.
struct Gap {
    var lower: OrderKey?
    var upper: OrderKey?
}

/// New keys for the placed entries, and the re-spread of their neighbours.
struct KeyPlacement {
    var keys: [Int64]
    var respread: [SortIndexChange]

    init(keys: [Int64], respread: [SortIndexChange]) {
        self.keys = keys
        self.respread = respread
    }

    /// Splits a laid-out window into the new entries' keys and the changed neighbours.
    init(window: [OrderEntry.ID?], keys: [Int64], old: [OrderKey]) {
        let oldKeys = Dictionary(uniqueKeysWithValues: old.map { ($0.id, $0.sortIndex) })
        self.keys = zip(window, keys).filter { $0.0 == nil }.map(\.1)
        self.respread = zip(window, keys).compactMap { id, key in
            guard let id, oldKeys[id] != key else { return nil }
            return SortIndexChange(id: id, sortIndex: key)
        }
    }
}

/// Neighbour lookups in one ordering that pass over a set of entries.
struct Neighbours {
    let scope: OrderScope
    let excluding: Set<OrderEntry.ID>
    let transaction: any ItemReading

    /// The keys of the nearest `limit` entries before `key`, nearest first.
    func before(_ key: OrderKey, limit: Int) throws -> [OrderKey] {
        try passingOver(limit: limit) { try transaction.keys(in: scope, before: key, limit: $0) }
    }

    /// The keys of the nearest `limit` entries after `key`, nearest first.
    func after(_ key: OrderKey, limit: Int) throws -> [OrderKey] {
        try passingOver(limit: limit) { try transaction.keys(in: scope, after: key, limit: $0) }
    }

    /// The first `limit` keys that `read` finds, once the excluded entries are passed over.
    ///
    /// Most often no excluded entry is among the nearest: `limit` keys are read first, and only
    /// when one is, enough more to pass over all of them.
    private func passingOver(limit: Int, _ read: (Int) throws -> [OrderKey]) throws -> [OrderKey] {
        let nearest = try read(limit)
        guard nearest.count == limit, nearest.contains(where: { excluding.contains($0.id) }) else {
            return excluding.isEmpty ? nearest : nearest.filter { !excluding.contains($0.id) }
        }
        return Array(try read(limit + excluding.count).filter { !excluding.contains($0.id) }.prefix(limit))
    }

    func before(_ key: OrderKey) throws -> OrderKey? { try before(key, limit: 1).first }
    func after(_ key: OrderKey) throws -> OrderKey? { try after(key, limit: 1).first }
}
