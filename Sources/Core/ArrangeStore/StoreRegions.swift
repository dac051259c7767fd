package import ArrangeModel

/// Parts of a store, at the grain that observations read them: the lists, Today, each list's
/// items, how many items each list holds, and each item's checklist.
///
/// A commit notes the regions it changed, and an observation the regions its read looked at;
/// the observation reads again only after a commit whose regions meet its own. A table is too
/// coarse a grain: every list's items live in one table, and a change to one list would
/// otherwise wake the observers of every other.
package struct StoreRegions: Sendable, Equatable {
    /// The lists themselves: their names, their areas, their order, the default list; and the areas.
    package var lists = false
    /// Which items are in Today, and their order there.
    package var today = false
    /// The lists whose items changed in any way: added, deleted, edited, moved; or whose
    /// headings did, which changes how the list shows its items.
    package var items: Set<ItemList.ID> = []
    /// The lists whose headings changed: added, renamed, moved, deleted. A read of a list's
    /// headings alone (the sections a count adds up) notes only this; ``allItems`` covers it.
    package var headings: Set<ItemList.ID> = []
    /// The lists whose counts changed: how many items they hold, or how many are open.
    package var counts: Set<ItemList.ID> = []
    /// Every list's items, for a change to items whose lists are not known, or a read that
    /// looks at items of any list.
    package var allItems = false
    /// Every list's counts, as ``allItems`` is for items.
    package var allCounts = false
    /// The items whose checklists changed in any way: entries added, deleted, edited, moved.
    package var checklists: Set<Item.ID> = []
    /// Every item's checklist, as ``allItems`` is for items.
    package var allChecklists = false
    /// Any row at all, of the lists and items or beyond them (the operation log, sync's
    /// records): a commit notes it whenever it changed a row, and a read that looks beyond the
    /// lists and items depends on it.
    package var otherRows = false

    package init() {}

    /// Every region: what a commit of another connection may have changed.
    package static let everything: StoreRegions = {
        var regions = StoreRegions()
        regions.lists = true
        regions.today = true
        regions.allItems = true
        regions.allCounts = true
        regions.allChecklists = true
        regions.otherRows = true
        return regions
    }()

    /// Whether no region is noted.
    package var isEmpty: Bool {
        self == StoreRegions()
    }

    /// Whether a change to these regions may change a read of `other`'s, or the other way.
    package func meets(_ other: StoreRegions) -> Bool {
        (lists && other.lists) || (today && other.today) || (otherRows && other.otherRows)
            || Self.meet(items, allItems, other.items, other.allItems)
            || Self.meet(headings, allItems, other.headings, other.allItems)
            || Self.meet(counts, allCounts, other.counts, other.allCounts)
            || Self.meet(checklists, allChecklists, other.checklists, other.allChecklists)
    }

    private static func meet<ID>(_ some: Set<ID>, _ all: Bool, _ otherSome: Set<ID>, _ otherAll: Bool) -> Bool {
        (all && (otherAll || !otherSome.isEmpty)) || (otherAll && !some.isEmpty) || !some.isDisjoint(with: otherSome)
    }

    /// Adds `other`'s regions.
    package mutating func formUnion(_ other: StoreRegions) {
        lists = lists || other.lists
        today = today || other.today
        items.formUnion(other.items)
        headings.formUnion(other.headings)
        counts.formUnion(other.counts)
        allItems = allItems || other.allItems
        allCounts = allCounts || other.allCounts
        checklists.formUnion(other.checklists)
        allChecklists = allChecklists || other.allChecklists
        otherRows = otherRows || other.otherRows
    }

    /// Notes a change to an item, from `old` (`nil` for a new item) to `new` (`nil` for a
    /// deleted one): its lists' items, their counts when the item came, went or was completed
    /// or reopened, Today when the item is in Today or was, and its checklist when it went.
    package mutating func noteChange(from old: Item?, to new: Item?) {
        // Without an array of the two states: a move notes a change, and copies of whole items cost it.
        if let old { items.insert(old.listID) }
        if let new, new.listID != old?.listID { items.insert(new.listID) }
        if old?.listID != new?.listID || old?.isCompleted != new?.isCompleted {
            if let old { counts.insert(old.listID) }
            if let new { counts.insert(new.listID) }
        }
        if old?.todayIndex != nil || new?.todayIndex != nil { today = true }
        if let old, new == nil { checklists.insert(old.id) }
    }

    /// Notes a change to the keys of an ordering's entries: the order of its entries, in place.
    /// A heading's items are noted as any list's: the heading alone does not tell its list.
    package mutating func noteKeys(of scope: OrderScope) {
        switch scope {
        case .lists, .areas, .area: lists = true
        case .today: today = true
        case .items(let list): items.insert(list)
        case .headings(let list): headings.insert(list)
        case .heading: allItems = true
        case .checklist(let item): checklists.insert(item)
        case .tags: otherRows = true
        }
    }
}
