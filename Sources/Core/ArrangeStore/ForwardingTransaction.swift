public import ArrangeModel
public import Foundation

/// A transaction in front of another, to which it hands every call.
///
/// Subclass it to watch what a body does to a transaction: override the calls you watch, and
/// call `super` to pass them on. The transaction it stands in front of does the work.
open class ForwardingTransaction: ItemWriting {
    /// The transaction that does the work.
    public let base: any ItemWriting

    /// A transaction in front of `base`.
    public init(_ base: any ItemWriting) {
        self.base = base
    }

    // MARK: Reading

    open func lists() throws -> [ItemList] { try base.lists() }
    open func list(id: ItemList.ID) throws -> ItemList? { try base.list(id: id) }
    open func areas() throws -> [Area] { try base.areas() }
    open func area(id: Area.ID) throws -> Area? { try base.area(id: id) }
    open func headings(in list: ItemList.ID) throws -> [Heading] { try base.headings(in: list) }
    open func heading(id: Heading.ID) throws -> Heading? { try base.heading(id: id) }
    open func item(id: Item.ID) throws -> Item? { try base.item(id: id) }
    open func items(withIDs ids: [Item.ID]) throws -> [Item] { try base.items(withIDs: ids) }
    open func standing(ofItem id: Item.ID) throws -> ItemStanding? { try base.standing(ofItem: id) }
    open func place(ofItem id: Item.ID) throws -> ItemPlace? { try base.place(ofItem: id) }

    open func items(in list: ItemList.ID, visibility: ItemVisibility, offset: Int, limit: Int) throws -> [Item] {
        try base.items(in: list, visibility: visibility, offset: offset, limit: limit)
    }

    open func completedItems(offset: Int, limit: Int) throws -> [Item] { try base.completedItems(offset: offset, limit: limit) }
    open func completedItemCount() throws -> Int { try base.completedItemCount() }

    open func todayItems(visibility: ItemVisibility, offset: Int, limit: Int) throws -> [Item] {
        try base.todayItems(visibility: visibility, offset: offset, limit: limit)
    }

    open func datedStandings(through day: Day) throws -> [DatedStanding] {
        try base.datedStandings(through: day)
    }

    open func datedItems(through day: Day) throws -> [Item] {
        try base.datedItems(through: day)
    }

    open func entry(id: OrderEntry.ID, in scope: OrderScope) throws -> OrderEntry? { try base.entry(id: id, in: scope) }

    open func entries(in scope: OrderScope, visibility: ItemVisibility, offset: Int, limit: Int) throws -> [OrderEntry] {
        try base.entries(in: scope, visibility: visibility, offset: offset, limit: limit)
    }

    open func entryCount(in scope: OrderScope, visibility: ItemVisibility) throws -> Int {
        try base.entryCount(in: scope, visibility: visibility)
    }

    open func entryCount(in scope: OrderScope, visibility: ItemVisibility, before key: OrderKey) throws -> Int {
        try base.entryCount(in: scope, visibility: visibility, before: key)
    }

    open func keys(in scope: OrderScope, before key: OrderKey, limit: Int) throws -> [OrderKey] {
        try base.keys(in: scope, before: key, limit: limit)
    }

    open func keys(in scope: OrderScope, after key: OrderKey, limit: Int) throws -> [OrderKey] {
        try base.keys(in: scope, after: key, limit: limit)
    }

    open func entriesSharingSortIndex(in scope: OrderScope) throws -> [[OrderEntry]] { try base.entriesSharingSortIndex(in: scope) }
    open func items(withIDPrefix hexDigits: String, limit: Int) throws -> [Item] { try base.items(withIDPrefix: hexDigits, limit: limit) }
    open func checklists(of items: [Item.ID]) throws -> [Item.ID: [ChecklistItem]] { try base.checklists(of: items) }
    open func checklistItem(id: ChecklistItem.ID) throws -> ChecklistItem? { try base.checklistItem(id: id) }
    open func defaultListID() throws -> ItemList.ID? { try base.defaultListID() }

    // MARK: Writing

    open func insert(_ list: ItemList) throws { try base.insert(list) }
    open func update(_ list: ItemList) throws { try base.update(list) }
    open func deleteList(id: ItemList.ID) throws { try base.deleteList(id: id) }
    open func insert(_ area: Area) throws { try base.insert(area) }
    open func update(_ area: Area) throws { try base.update(area) }
    open func deleteArea(id: Area.ID) throws { try base.deleteArea(id: id) }
    open func insert(_ heading: Heading) throws { try base.insert(heading) }
    open func update(_ heading: Heading) throws { try base.update(heading) }
    open func deleteHeading(id: Heading.ID) throws { try base.deleteHeading(id: id) }
    open func insert(_ item: Item) throws { try base.insert(item) }
    open func update(_ item: Item) throws { try base.update(item) }
    open func deleteItem(id: Item.ID) throws { try base.deleteItem(id: id) }
    open func insert(_ entry: ChecklistItem) throws { try base.insert(entry) }
    open func update(_ entry: ChecklistItem) throws { try base.update(entry) }
    open func deleteChecklistItem(id: ChecklistItem.ID) throws { try base.deleteChecklistItem(id: id) }

    open func setSortIndices(_ changes: [SortIndexChange], in scope: OrderScope, updatedAt: Date) throws {
        try base.setSortIndices(changes, in: scope, updatedAt: updatedAt)
    }

    open func removeFromToday(_ ids: [Item.ID], updatedAt: Date) throws { try base.removeFromToday(ids, updatedAt: updatedAt) }
    open func setDefaultListID(_ id: ItemList.ID) throws { try base.setDefaultListID(id) }
}
