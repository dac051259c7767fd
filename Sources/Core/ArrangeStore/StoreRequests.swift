public import ArrangeModel
public import Foundation

// The values that ``ItemReading`` and ``ItemWriting`` take: each describes one read or one
// write, so that a protocol requires one member for a kind of row and a backend answers every
// request of that kind in one place, the fast ones with a statement of their own.

/// A read of items: which ones, in which order.
public enum ItemRequest: Hashable, Sendable {
    /// The items with these ids, in the order of the ids; an id of no item is left out.
    case withIDs([Item.ID])
    /// A page of a list in display order: the items under no heading, then those of each
    /// heading in the order of the headings; each group in its hand-made order (`sortIndex`, then `id`).
    /// `offset` counts only the items seen under `visibility`.
    case list(ItemList.ID, visibility: ItemVisibility, offset: Int, limit: Int)
    /// A page of Today in its hand order (`todayIndex`, then `id`), as ``list(_:visibility:offset:limit:)`` reads a list.
    case today(visibility: ItemVisibility, offset: Int, limit: Int)
    /// The open items whose start date, or deadline not dismissed, is on or before the day, in
    /// no particular order: those Today holds by their dates on that day. An item in the Trash
    /// itself is not among them; one whose list or heading is, is.
    case dated(through: Day)
    /// A page of the completed items of every list, the most recently completed first (then by
    /// id): the Logbook. An item in the Trash, itself or with its list or heading, is not in it.
    /// A negative offset, or a limit below 1, reads nothing.
    case completed(offset: Int, limit: Int)
    /// The items in the Trash themselves (`Item/trashedAt`), the most recently trashed first,
    /// then by id; not those in it only with their list or heading.
    case trashed
    /// Up to `limit` items, of any list, whose ids begin with these hex digits (1 to 32, no
    /// dashes; anything else matches nothing), in id order.
    case withIDPrefix(String, limit: Int)
    /// The items that match every word of a query (`SearchQuery`) in their title, notes,
    /// checklist, heading or list, in no particular order; open ones only unless
    /// `includeCompleted`. A query without words matches nothing.
    case matching(SearchQuery, includeCompleted: Bool)
    /// The items of every list that carry any of these tags themselves (not through their list
    /// or area), in no particular order.
    case tagged(Set<Tag.ID>)
    /// The items whose reminders can fire (`Item/reminder`) with a start date from the first day
    /// through the second: open ones, out of the Trash themselves and with their list and
    /// heading; in no particular order.
    case reminders(from: Day, through: Day)
}

/// A read of the entries of an ordering: what the ordering service places things by.
public enum EntryRequest: Hashable, Sendable {
    /// The entry with this id, when it is in the ordering: not an item of another list, nor an
    /// item not in Today.
    case withID(OrderEntry.ID, in: OrderScope)
    /// A page of the ordering: `offset` entries seen under `visibility` skipped, then up to `limit`.
    case page(OrderScope, visibility: ItemVisibility, offset: Int, limit: Int)
    /// The entries that share their `sortIndex` with another entry of the ordering, in order.
    case sharingSortIndex(OrderScope)
}

/// Where, from a key, the keys of an ordering are read: the side of a neighbour lookup.
public enum KeyBound: Hashable, Sendable {
    /// The keys strictly before this one, nearest first.
    case before(OrderKey)
    /// The keys strictly after this one, nearest first.
    case after(OrderKey)
}

/// A count of rows.
public enum CountRequest: Hashable, Sendable {
    /// How many entries of the ordering are seen under `visibility`.
    case entries(OrderScope, visibility: ItemVisibility)
    /// How many entries of the ordering seen under `visibility` come strictly before the key.
    case entriesBefore(OrderKey, in: OrderScope, visibility: ItemVisibility)
    /// How many items are completed, of every list, out of the Trash: the Logbook's items.
    case completedItems
}

/// A read of lists.
public enum ListRequest: Hashable, Sendable {
    /// Every list, in the sidebar's order: those in no area first, then each area's (in the
    /// order of the areas), each group in its hand-made order (`ItemList/orderKey`).
    case all
    /// The list with this id, when there is one.
    case withID(ItemList.ID)
    /// The default list, the one a front end shows first, when one is set.
    case defaultList
}

/// A read of areas.
public enum AreaRequest: Hashable, Sendable {
    /// Every area, in their hand-made order (`Area/orderKey`).
    case all
    /// The area with this id, when there is one.
    case withID(Area.ID)
}

/// A read of tags.
public enum TagRequest: Hashable, Sendable {
    /// Every tag, depth first in hand order: each tag, then its children, each group by
    /// `Tag/orderKey`, as Things' tag manager shows them.
    case all
    /// The tag with this id, when there is one, or the tag it was merged into
    /// (``RowChange/mergeTag(_:into:)``): an id keeps naming the tag that carries its uses.
    case withID(Tag.ID)
}

/// A tag's id that names another tag: two devices created tags of the same name apart, and the
/// later creation merged into the earlier (``RowChange/mergeTag(_:into:)``).
public struct TagMerge: Hashable, Sendable, Codable {
    /// The id of the tag that merged.
    public var id: Tag.ID
    /// The tag it merged into, which its id names from then on.
    public var tag: Tag.ID

    /// The merge of `id` into `tag`.
    public init(id: Tag.ID, into tag: Tag.ID) {
        self.id = id
        self.tag = tag
    }
}

/// A read of headings.
public enum HeadingRequest: Hashable, Sendable {
    /// The headings of a list, in their hand-made order (`Heading/orderKey`); none for an unknown list.
    case inList(ItemList.ID)
    /// The heading with this id, when there is one.
    case withID(Heading.ID)
    /// The headings in the Trash themselves, of every list, the most recently trashed first, then by id.
    case trashed
}

/// A read of checklist entries.
public enum ChecklistRequest: Hashable, Sendable {
    /// The entries of the checklists of these items, each checklist once and in its order
    /// (`sortIndex`, then `id`), the checklists one after another in no particular order.
    case ofItems([Item.ID])
    /// The entry with this id, when there is one.
    case withID(ChecklistItem.ID)
}

/// A read of repeating series.
public enum SeriesRequest: Hashable, Sendable {
    /// Every series, oldest first (`createdAt`, then `id`).
    case all
    /// The series with this id, when there is one.
    case withID(Series.ID)
}

/// A row of the store: a list, an area, a heading, an item, a checklist entry, a tag or a
/// repeating series.
public enum StoreRow: Hashable, Sendable {
    /// A list, with its name, area and key.
    case list(ItemList)
    /// An area, with its name and key.
    case area(Area)
    /// A heading of a list, with its title and key.
    case heading(Heading)
    /// An item, every field of it.
    case item(Item)
    /// An entry of an item's checklist.
    case checklistItem(ChecklistItem)
    /// A tag, with its name, parent and key.
    case tag(Tag)
    /// A repeating series, with its rule and its template; it is in no ordering.
    case series(Series)

    /// The row's id, as an ordering knows it; a series' id in the same form.
    public var entryID: OrderEntry.ID {
        switch self {
        case .list(let list): list.id.entryID
        case .area(let area): area.id.entryID
        case .heading(let heading): heading.id.entryID
        case .item(let item): item.id.entryID
        case .checklistItem(let entry): entry.id.entryID
        case .tag(let tag): tag.id.entryID
        case .series(let series): OrderEntry.ID(rawValue: series.id.rawValue)
        }
    }
}

/// Which row of the store: a list, an area, a heading, an item, a checklist entry or a tag, by id.
public enum StoreRowID: Hashable, Sendable {
    /// The list with this id.
    case list(ItemList.ID)
    /// The area with this id.
    case area(Area.ID)
    /// The heading with this id.
    case heading(Heading.ID)
    /// The item with this id.
    case item(Item.ID)
    /// The checklist entry with this id.
    case checklistItem(ChecklistItem.ID)
    /// The tag with this id.
    case tag(Tag.ID)
    /// The repeating series with this id.
    case series(Series.ID)

    /// The row's id, as an ordering knows it; a series' id in the same form.
    public var entryID: OrderEntry.ID {
        switch self {
        case .list(let id): id.entryID
        case .area(let id): id.entryID
        case .heading(let id): id.entryID
        case .item(let id): id.entryID
        case .checklistItem(let id): id.entryID
        case .tag(let id): id.entryID
        case .series(let id): OrderEntry.ID(rawValue: id.rawValue)
        }
    }
}

/// One write of a transaction: what ``ItemWriting/apply(_:)`` does, and what the methods of
/// ``ItemWriting`` (`insert(_:)`, `update(_:)`, `deleteItem(id:)`, ``ItemWriting/setSortIndices(_:in:updatedAt:)``…) ask for.
public enum RowChange: Hashable, Sendable {
    /// Adds a row: a list to its area (or to none), an area, a heading to its list, an item to
    /// its list (under its heading, if any) and, with a `todayIndex`, to Today, an entry to its
    /// item's checklist, a tag to its parent's children; each at its `sortIndex`.
    case insert(StoreRow)
    /// Saves a changed row, any of its fields.
    case update(StoreRow)
    /// Deletes a row: a list with its headings and items, a heading with the items under it,
    /// an item with its checklist and its place in Today, a checklist entry, an area (whose
    /// lists stay, out of any area, with their keys), a tag with its children, and theirs.
    case delete(StoreRowID)
    /// Gives several entries new keys in an ordering, and puts those that are not in it yet
    /// into it, stamping the items written `updatedAt` (``ItemWriting/setSortIndices(_:in:updatedAt:)``).
    case setSortIndices([SortIndexChange], in: OrderScope, updatedAt: Date)
    /// Takes items out of Today, leaving their place in their list as it is.
    case removeFromToday([Item.ID], updatedAt: Date)
    /// Makes a list the default list, in place of any other.
    case setDefaultList(ItemList.ID)
    /// Makes a tag's id stand for another tag from now on: two devices created tags of the
    /// same name apart, and the later creation merged into the earlier. Reads of the id
    /// (``TagRequest/withID(_:)``) answer the tag it merged into, even once that tag is deleted
    /// and put back.
    case mergeTag(Tag.ID, into: Tag.ID)
    /// Takes back ``mergeTag(_:into:)``: the id names no tag again. A sync rewinding the
    /// merge does it; it does nothing when the id was not merged.
    case unmergeTag(Tag.ID)
    /// Keeps `value` for a setting of the device (``ItemReading/value(of:)``), or forgets the
    /// setting for `nil`.
    case setValue(String?, of: StoreSetting)
    /// Keeps how a list is shared with other people, as the server told the device
    /// (``ItemReading/listShares()``), or forgets that the list is shared for `nil`: never
    /// synced, exported or undone.
    case setListShare(ListShare?, of: ItemList.ID)
}
