package import ArrangeModel
package import Foundation

/// One change a transaction made to an item, as the observations that keep their items up to
/// date apply it.
///
/// Each case sets state: applying a change twice, or to a value that already holds it, gives
/// the same value as applying it once.
package enum ItemChange: Sendable, Equatable {
    /// An item added (`old` is `nil`), changed, or deleted (`new` is `nil`), whole.
    case replaced(old: Item?, new: Item?)
    /// An item that stayed in `list` took a new key there; the rest of it is as it was.
    case keyed(Item.ID, list: ItemList.ID, sortIndex: Int64, updatedAt: Date)
    /// An item of `list` took a new key in Today, or left it (`todayIndex` is `nil`); the rest
    /// of it is as it was.
    case todayKeyed(Item.ID, list: ItemList.ID, todayIndex: Int64?, updatedAt: Date)

    /// The id of the item changed.
    package var id: Item.ID? {
        switch self {
        case .replaced(let old, let new): (old ?? new)?.id
        case .keyed(let id, _, _, _), .todayKeyed(let id, _, _, _): id
        }
    }

    /// The lists whose items the change touches: the one the item was in, and the one it is in.
    var lists: [ItemList.ID] {
        switch self {
        case .replaced(let old, let new): [old, new].compactMap { $0?.listID }
        case .keyed(_, let list, _, _), .todayKeyed(_, let list, _, _): [list]
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
        changes.regions = .everything
        changes.allUnlisted = true
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

    /// Notes a change to rows beyond the lists and items (the operation log, sync's records).
    package mutating func noteOtherRowsChanged() {
        regions.otherRows = true
    }

    /// Notes a change to an item, with the regions it touches.
    package mutating func note(_ change: ItemChange) {
        switch change {
        case .replaced(let old, let new):
            regions.noteChange(from: old, to: new)
        case .keyed(_, let list, _, _):
            regions.noteKeys(of: .items(list))
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

    /// Notes that the items of `list` changed in ways not listed, in Today and in their counts
    /// too: any of them may have come, gone or changed, as when the list is deleted.
    package mutating func noteUnlistedItems(of list: ItemList.ID) {
        regions.today = true
        regions.items.insert(list)
        regions.counts.insert(list)
        unlisted.insert(list)
    }
}

/// How applying a commit's changes to a value an observation holds went.
package enum ChangeApplication: Sendable, Equatable {
    /// The changes leave the value as it was.
    case unchanged
    /// The value now holds the changes.
    case changed
    /// The changes cannot be applied to the value: it must be read again.
    case needsRead
}

/// The entries of one ordering, a list's items or Today's, seen under a visibility, as an
/// observation holds them in order and applies each commit's item changes to them.
package struct OrderedItemsPatch: Sendable {
    /// The ordering: a list's items, or Today. The lists hold no items: a patch of them
    /// always answers ``ChangeApplication/needsRead``.
    package let scope: OrderScope
    package let visibility: ItemVisibility

    package init(scope: OrderScope, visibility: ItemVisibility) {
        self.scope = scope
        self.visibility = visibility
    }

    /// The regions whose changes the patch must see: for a list, its items; for Today, every
    /// list's items too, because a change to an item's key in its list does not say whether
    /// the item is in Today.
    package var regions: StoreRegions {
        var regions = StoreRegions()
        switch scope {
        case .items(let list):
            regions.items.insert(list)
        case .today:
            regions.today = true
            regions.allItems = true
        case .lists:
            break
        }
        return regions
    }

    /// Applies the item changes of a commit to `items`, which hold the ordering as it was
    /// before the commit, or as it was after some of the commit's changes already.
    ///
    /// - Returns: Whether `items` changed; ``ChangeApplication/needsRead``, with `items`
    ///   untouched, when the changes cannot be applied: a change not listed, or an item that
    ///   comes into Today by its key alone, which is not known whole.
    /// - Complexity: O(n) per change that concerns the ordering (finding the item by id, and
    ///   moving the array's elements), O(1) per other change; an array shared with the
    ///   consumer is copied once.
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
        switch scope {
        case .items(let list):
            return !changes.itemsAreUnlisted(in: list)
        case .lists:
            return false
        case .today:
            guard !changes.anyItemsAreUnlisted else { return false }
            // An item that comes into Today by its key must be known whole: shown now, or
            // written whole earlier in the commit.
            var known = Set<Item.ID>()
            for change in changes.items {
                switch change {
                case .replaced(_, let new?):
                    known.insert(new.id)
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
        guard let id = change.id else { return false }
        let index = index(of: id, in: items, near: change.oldItem)
        var item: Item
        switch change {
        case .replaced(_, let new):
            guard let new else {
                hidden[id] = nil
                guard let index else { return false }
                items.remove(at: index)
                return true
            }
            item = new
        case .keyed(_, _, let sortIndex, let updatedAt):
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
        guard let key = visibility.includes(item) ? item.entry(in: scope)?.key : nil else {
            hidden[id] = item
            guard let index else { return false }
            items.remove(at: index)
            return true
        }
        hidden[id] = nil
        let place = items.partitioningIndex { self.key(of: $0) >= key }
        guard let index else {
            items.insert(item, at: place)
            return true
        }
        guard items[index] != item else { return false }
        // The item's new place once it has left its old one.
        items.move(from: index, to: index < place ? place - 1 : place, replacingWith: item)
        return true
    }

    /// The item's key in the ordering; every item the ordering holds has one.
    private func key(of item: Item) -> OrderKey {
        item.entry(in: scope)?.key ?? OrderKey(sortIndex: .max, id: item.id.entryID)
    }

    /// The index of the item with `id` in `items`: found by its key in O(log n) when `old`, the
    /// item as it was, is where the ordering holds it; otherwise looked for in O(n).
    private func index(of id: Item.ID, in items: [Item], near old: Item?) -> Int? {
        if let old, let key = old.entry(in: scope)?.key {
            let place = items.partitioningIndex { self.key(of: $0) >= key }
            if place < items.endIndex, items[place].id == id { return place }
        }
        return items.firstIndex { $0.id == id }
    }
}

extension ItemChange {
    /// The item as it was before the change, when the change says.
    fileprivate var oldItem: Item? {
        if case .replaced(let old, _) = self { old } else { nil }
    }
}

extension Array where Element == Item {
    /// Puts `item` at `target` in place of the element at `index`, moving the elements between
    /// by one place, without the reference counting of removing and inserting.
    ///
    /// - Complexity: O(|target − index|).
    fileprivate mutating func move(from index: Int, to target: Int, replacingWith item: Item) {
        withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            (base + index).deinitialize(count: 1)
            if target > index {
                (base + index).moveInitialize(from: base + index + 1, count: target - index)
            } else if target < index {
                (base + target + 1).moveInitialize(from: base + target, count: index - target)
            }
            (base + target).initialize(to: item)
        }
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
}
