package import ArrangeModel
package import Foundation

/// One change a transaction made to an item, as the observations that keep their items up to
/// date apply it.
///
/// Each case sets the item's state, or some fields of it, to what the change left: applied to
/// a value read after the change, it changes nothing that a later change does not set again.
package enum ItemChange: Sendable, Equatable {
    /// An item added, whole.
    case inserted(Item)
    /// An item changed, whole, from its state before to its state after.
    case updated(from: Item, to: Item)
    /// An item deleted, as it was.
    case deleted(Item)
    /// An item that stayed in `list`, under the same heading (or none), took a new key there,
    /// from `oldSortIndex` when the transaction knew it; the rest of it is as it was.
    case keyed(Item.ID, list: ItemList.ID, heading: Heading.ID?, sortIndex: Int64, oldSortIndex: Int64?, updatedAt: Date)
    /// An item of `list` took a new key in Today, or left it (`todayIndex` is `nil`); the rest
    /// of it is as it was.
    case todayKeyed(Item.ID, list: ItemList.ID, todayIndex: Int64?, updatedAt: Date)

    /// The id of the item changed.
    package var id: Item.ID {
        switch self {
        case .inserted(let item), .updated(_, let item), .deleted(let item): item.id
        case .keyed(let id, _, _, _, _, _), .todayKeyed(let id, _, _, _): id
        }
    }

    /// The lists whose items the change touches: the one the item was in, and the one it is in.
    package var lists: [ItemList.ID] {
        switch self {
        case .inserted(let item), .deleted(let item): [item.listID]
        case .updated(let old, let new): old.listID == new.listID ? [new.listID] : [old.listID, new.listID]
        case .keyed(_, let list, _, _, _, _), .todayKeyed(_, let list, _, _): [list]
        }
    }

    /// Whether the item is under a heading before or after the change, when the change says.
    var touchesHeadings: Bool {
        switch self {
        case .inserted(let item), .deleted(let item): item.heading != nil
        case .updated(let old, let new): old.heading != nil || new.heading != nil
        case .keyed(_, _, let heading, _, _, _): heading != nil
        case .todayKeyed: false
        }
    }
}

/// What a transaction changed, as the repository tells its observations after the commit: the
/// regions of the store it changed (``StoreRegions``), and each change to an item, for the
/// observations that apply them to the items they hold instead of reading them again.
///
/// A list's item changes are listed in full, or its items are noted as changed in ways not
/// listed (``itemsAreUnlisted(in:)``): a list's whole items deleted with it, more changes than
/// are worth keeping, or another connection's commit, which is not known at all.
package struct StoreChanges: Sendable {
    /// The regions changed.
    package private(set) var regions = StoreRegions()
    /// Each change to an item, in the order made.
    package private(set) var items: [ItemChange] = []
    /// The lists whose items changed in ways ``items`` does not list.
    private var unlisted: Set<ItemList.ID> = []
    /// Whether any list's items may have changed in ways ``items`` does not list.
    private var allUnlisted = false
    /// Whether the transaction made more item changes than it lists: every later change is
    /// noted as not listed.
    private var overflowed = false

    /// How many item changes a transaction lists; past it, the observations of their lists
    /// read again, which costs less than applying that many changes one by one.
    package static let listedItemChangesLimit = 64

    package init() {}

    /// Every region, no change listed: what a commit of another connection may have changed.
    package static let everything: StoreChanges = {
        var changes = StoreChanges()
        changes.noteUnlistedItemsOfEveryList()
        changes.regions = .everything
        return changes
    }()

    /// Whether the items of `list` may have changed in ways ``items`` does not list.
    package func itemsAreUnlisted(in list: ItemList.ID) -> Bool {
        allUnlisted || unlisted.contains(list)
    }

    /// Whether some item may have changed in a way ``items`` does not list.
    package var anyItemsAreUnlisted: Bool {
        allUnlisted || !unlisted.isEmpty
    }

    /// Notes a change to the lists themselves: a name, the order of the lists, the default list.
    package mutating func noteListsChanged() {
        regions.lists = true
    }

    /// Notes a change to the checklist of `item`: an entry added, deleted, edited or moved.
    package mutating func noteChecklistChanged(of item: Item.ID) {
        regions.checklists.insert(item)
    }

    /// Notes a change to rows beyond the lists and items (the operation log, sync's records).
    package mutating func noteOtherRowsChanged() {
        regions.otherRows = true
    }

    /// Notes a change to an item, with the regions it touches.
    package mutating func note(_ change: ItemChange) {
        switch change {
        case .inserted(let item): regions.noteChange(from: nil, to: item)
        case .updated(let old, let new): regions.noteChange(from: old, to: new)
        case .deleted(let item): regions.noteChange(from: item, to: nil)
        case .keyed(_, let list, _, _, _, _): regions.noteKeys(of: .items(list))
        case .todayKeyed(_, let list, _, _):
            regions.today = true
            regions.items.insert(list)
        }
        guard !overflowed else {
            unlisted.formUnion(change.lists)
            return
        }
        items.append(change)
        if items.count > Self.listedItemChangesLimit {
            overflowed = true
            for listed in items { unlisted.formUnion(listed.lists) }
            items = []
        }
    }

    /// Notes a change to the headings of `list`: one added, renamed, moved or deleted, which
    /// changes how the list shows its items, in ways not listed.
    package mutating func noteHeadingsChanged(of list: ItemList.ID) {
        regions.headings.insert(list)
        regions.items.insert(list)
        unlisted.insert(list)
    }

    /// Notes that the items of `list` changed in ways not listed, in Today, in their counts and
    /// in their checklists too: any of them may have come, gone or changed, as when the list is deleted.
    package mutating func noteUnlistedItems(of list: ItemList.ID) {
        regions.today = true
        regions.allChecklists = true
        regions.items.insert(list)
        regions.counts.insert(list)
        unlisted.insert(list)
    }

    /// Notes that items of lists not known changed in ways not listed, in Today and in their
    /// counts too.
    package mutating func noteUnlistedItemsOfEveryList() {
        regions.today = true
        regions.allItems = true
        regions.allCounts = true
        regions.allChecklists = true
        allUnlisted = true
    }
}

/// The orderings that hold items, as observations follow them: a list's items, or Today's.
package enum ItemOrdering: Sendable, Hashable {
    case list(ItemList.ID)
    case today

    /// The ordering's scope.
    package var scope: OrderScope {
        switch self {
        case .list(let list): .items(list)
        case .today: .today
        }
    }

    /// The ordering's items seen under `visibility`, in order, read by `reader`.
    package func items(visibility: ItemVisibility, in reader: any ItemReading) throws -> [Item] {
        switch self {
        case .list(let list): try reader.items(in: list, visibility: visibility, offset: 0, limit: .max)
        case .today: try reader.todayItems(visibility: visibility, offset: 0, limit: .max)
        }
    }
}

/// How applying a commit's changes to a value an observation holds went.
package enum ChangeApplication: Sendable, Equatable {
    /// The changes leave the value as it was.
    case unchanged
    /// The value now holds the changes.
    case changed
    /// The changes cannot be applied to the value, which is left as it was: it must be read again.
    case needsRead
}

/// The items of one ordering seen under a visibility, as an observation holds them in order and
/// applies each commit's item changes to them.
package struct OrderedItemsPatch: Sendable {
    /// The ordering.
    package let ordering: ItemOrdering
    /// Which of the ordering's items the observation holds.
    package let visibility: ItemVisibility

    package init(ordering: ItemOrdering, visibility: ItemVisibility) {
        self.ordering = ordering
        self.visibility = visibility
    }

    /// The regions whose changes the patch must see: for a list, its items; for Today, every
    /// list's items too, because a change to an item's key in its list does not say whether
    /// the item is in Today.
    package var regions: StoreRegions {
        var regions = StoreRegions()
        switch ordering {
        case .list(let list):
            regions.items.insert(list)
        case .today:
            regions.today = true
            regions.allItems = true
        }
        return regions
    }

    /// Applies the item changes of a commit to `items`, which hold the ordering as it was
    /// before the commit, or as a read after it found it.
    ///
    /// - Returns: Whether `items` changed; ``ChangeApplication/needsRead``, with `items`
    ///   untouched, when the changes cannot be applied: a change not listed, or an item that
    ///   comes into Today by its key alone, which is not known whole.
    /// - Complexity: For each change to an item the ordering may hold, O(log n) to find it when
    ///   the change carries the item as it was, O(n) otherwise, and O(d) to move it d places;
    ///   O(1) for a change to another list. An array shared with the consumer is copied once.
    package func apply(_ changes: StoreChanges, to items: inout [Item]) -> ChangeApplication {
        guard canApply(changes, to: items) else { return .needsRead }
        var hidden: [Item.ID: Item] = [:]
        var application = ChangeApplication.unchanged
        for change in changes.items where apply(change, to: &items, hidden: &hidden) {
            application = .changed
        }
        return application
    }

    /// Whether every change of the commit can be applied to `items`.
    private func canApply(_ changes: StoreChanges, to items: [Item]) -> Bool {
        switch ordering {
        case .list(let list):
            // The patch orders a list's items under no heading; a change to an item under a
            // heading is read again with the headings.
            return !changes.itemsAreUnlisted(in: list) && !changes.items.contains { $0.lists.contains(list) && $0.touchesHeadings }
        case .today:
            guard !changes.anyItemsAreUnlisted else { return false }
            // An item that comes into Today by its key must be known whole: shown now, or
            // written whole earlier in the commit.
            var known = Set<Item.ID>()
            for change in changes.items {
                switch change {
                case .inserted(let item), .updated(_, let item):
                    known.insert(item.id)
                case .todayKeyed(let id, _, _?, _) where !known.contains(id):
                    guard items.contains(where: { $0.id == id }) else { return false }
                    known.insert(id)
                default:
                    continue
                }
            }
            return true
        }
    }

    /// Applies one change, which ``canApply(_:to:)`` allowed, and answers whether `items`
    /// changed. `hidden` keeps, by id, the items the changes so far left out of the ordering,
    /// as they left them, for a later change in the commit that brings one back by its key.
    private func apply(_ change: ItemChange, to items: inout [Item], hidden: inout [Item.ID: Item]) -> Bool {
        // A list holds only its own items, whatever happens to other lists' items.
        if case .list(let list) = ordering, !change.lists.contains(list) { return false }
        let id = change.id
        let index = index(of: id, in: items, near: oldKey(of: change))
        var item: Item
        switch change {
        case .inserted(let new), .updated(_, let new):
            item = new
        case .deleted:
            hidden[id] = nil
            guard let index else { return false }
            items.remove(at: index)
            return true
        case .keyed(_, _, _, let sortIndex, _, let updatedAt):
            // A key in its list neither brings an item into Today nor shows a hidden item of
            // the list.
            guard let index else {
                hidden[id]?.sortIndex = sortIndex
                hidden[id]?.updatedAt = updatedAt
                return false
            }
            item = items[index]
            item.sortIndex = sortIndex
            item.updatedAt = updatedAt
        case .todayKeyed(_, _, let todayIndex, let updatedAt):
            guard let known = index.map({ items[$0] }) ?? hidden[id] else { return false }
            item = known
            item.todayIndex = todayIndex
            item.updatedAt = updatedAt
        }
        guard let key = key(of: item) else {
            hidden[id] = item
            guard let index else { return false }
            items.remove(at: index)
            return true
        }
        hidden[id] = nil
        let place = items.partitioningIndex { self.key(of: $0).map { $0 >= key } ?? true }
        guard let index else {
            items.insert(item, at: place)
            return true
        }
        guard items[index] != item else { return false }
        // The item's new place once it has left its old one.
        items.move(from: index, to: index < place ? place - 1 : place, replacingWith: item)
        return true
    }

    /// The item's key in the ordering, or `nil` when the observation does not hold it.
    private func key(of item: Item) -> OrderKey? {
        visibility.includes(item) ? item.entry(in: ordering.scope)?.key : nil
    }

    /// The key under which the ordering held the item before `change`, when the change says:
    /// the item as it was, or the key it had in its list under no heading.
    private func oldKey(of change: ItemChange) -> OrderKey? {
        switch change {
        case .updated(let old, _), .deleted(let old):
            key(of: old)
        case .keyed(let id, let list, .none, _, let oldSortIndex?, _) where ordering == .list(list):
            OrderKey(sortIndex: oldSortIndex, id: id.entryID)
        default:
            nil
        }
    }

    /// The index of the item with `id` in `items`: found in O(log n) when `key`, its key
    /// before the change, is where the ordering holds it; otherwise looked for in O(n).
    private func index(of id: Item.ID, in items: [Item], near key: OrderKey?) -> Int? {
        if let key {
            let place = items.partitioningIndex { self.key(of: $0).map { $0 >= key } ?? true }
            if place < items.endIndex, items[place].id == id { return place }
        }
        return items.firstIndex { $0.id == id }
    }
}

extension Array {
    /// The index of the first element for which `isInSecondPart` holds, in an array where every
    /// element for which it holds comes after every one for which it does not.
    ///
    /// - Complexity: O(log n).
    fileprivate func partitioningIndex(where isInSecondPart: (Element) -> Bool) -> Int {
        var (low, high) = (startIndex, endIndex)
        while low < high {
            let middle = low + (high - low) / 2
            if isInSecondPart(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// Puts `element` at `target` in place of the element at `index`, moving the elements between
    /// by one place, without the reference counting of a removal and an insertion.
    ///
    /// - Complexity: O(|target − index|).
    fileprivate mutating func move(from index: Int, to target: Int, replacingWith element: Element) {
        withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            (base + index).deinitialize(count: 1)
            if target > index {
                (base + index).moveInitialize(from: base + index + 1, count: target - index)
            } else if target < index {
                (base + target + 1).moveInitialize(from: base + target, count: index - target)
            }
            (base + target).initialize(to: element)
        }
    }
}
