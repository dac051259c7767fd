import ArrangeModel

/// A transaction's queries, handed on, that notes the regions of the store each one looks at:
/// what an observation's read depends on, so that it reads again only after a commit that
/// changes one of them.
///
/// Today's items note their lists too: a change to an item changes how Today shows it, and is
/// noted under the item's list.
final class RegionRecordingReader: ItemReading {
    private let base: any ItemReading
    /// The regions the queries so far looked at.
    private(set) var regions = StoreRegions()

    init(_ base: any ItemReading) {
        self.base = base
    }

    /// The transaction it stands in front of, for reads that the regions do not describe (the
    /// operation log); the observation then reads again after every commit that changed any row.
    func readingBeyondRegions() -> any ItemReading {
        regions.otherRows = true
        return base
    }

    func lists() throws -> [ItemList] {
        regions.lists = true
        return try base.lists()
    }

    func list(id: ItemList.ID) throws -> ItemList? {
        regions.lists = true
        return try base.list(id: id)
    }

    func areas() throws -> [Area] {
        regions.lists = true
        return try base.areas()
    }

    /// Notes the list's headings alone: a count of its items adds up its sections.
    func headings(in list: ItemList.ID) throws -> [Heading] {
        regions.headings.insert(list)
        return try base.headings(in: list)
    }

    func heading(id: Heading.ID) throws -> Heading? {
        let heading = try base.heading(id: id)
        if let heading { regions.headings.insert(heading.listID) } else { regions.allItems = true }
        return heading
    }

    func area(id: Area.ID) throws -> Area? {
        regions.lists = true
        return try base.area(id: id)
    }

    func items(withIDs ids: [Item.ID]) throws -> [Item] {
        let items = try base.items(withIDs: ids)
        if items.count < Set(ids).count { regions.allItems = true }
        for item in items { regions.items.insert(item.listID) }
        return items
    }

    func item(id: Item.ID) throws -> Item? {
        let item = try base.item(id: id)
        if let item { regions.items.insert(item.listID) } else { regions.allItems = true }
        return item
    }

    func items(in list: ItemList.ID, visibility: ItemVisibility, offset: Int, limit: Int) throws -> [Item] {
        regions.items.insert(list)
        return try base.items(in: list, visibility: visibility, offset: offset, limit: limit)
    }

    func todayItems(visibility: ItemVisibility, offset: Int, limit: Int) throws -> [Item] {
        regions.today = true
        let items = try base.todayItems(visibility: visibility, offset: offset, limit: limit)
        for item in items { regions.items.insert(item.listID) }
        return items
    }

    /// Notes every item: a date in any list may bring its item into Today.
    func datedStandings(through day: Day) throws -> [DatedStanding] {
        regions.today = true
        regions.allItems = true
        return try base.datedStandings(through: day)
    }

    /// Notes every item, as ``datedStandings(through:)`` does.
    func datedItems(through day: Day) throws -> [Item] {
        regions.today = true
        regions.allItems = true
        return try base.datedItems(through: day)
    }

    /// Notes every item: a completion in any list changes the Logbook.
    func completedItems(offset: Int, limit: Int) throws -> [Item] {
        regions.allItems = true
        return try base.completedItems(offset: offset, limit: limit)
    }

    func completedItemCount() throws -> Int {
        regions.allItems = true
        return try base.completedItemCount()
    }

    func entry(id: OrderEntry.ID, in scope: OrderScope) throws -> OrderEntry? {
        try noteKeys(of: scope)
        return try base.entry(id: id, in: scope)
    }

    func entries(in scope: OrderScope, visibility: ItemVisibility, offset: Int, limit: Int) throws -> [OrderEntry] {
        try noteKeys(of: scope)
        return try base.entries(in: scope, visibility: visibility, offset: offset, limit: limit)
    }

    /// Notes only a list's counts: moves within the list leave them as they are.
    func entryCount(in scope: OrderScope, visibility: ItemVisibility) throws -> Int {
        if let list = try list(holding: scope) { regions.counts.insert(list) } else { try noteKeys(of: scope) }
        return try base.entryCount(in: scope, visibility: visibility)
    }

    func entryCount(in scope: OrderScope, visibility: ItemVisibility, before key: OrderKey) throws -> Int {
        try noteKeys(of: scope)
        return try base.entryCount(in: scope, visibility: visibility, before: key)
    }

    func keys(in scope: OrderScope, before key: OrderKey, limit: Int) throws -> [OrderKey] {
        try noteKeys(of: scope)
        return try base.keys(in: scope, before: key, limit: limit)
    }

    func keys(in scope: OrderScope, after key: OrderKey, limit: Int) throws -> [OrderKey] {
        try noteKeys(of: scope)
        return try base.keys(in: scope, after: key, limit: limit)
    }

    func entriesSharingSortIndex(in scope: OrderScope) throws -> [[OrderEntry]] {
        try noteKeys(of: scope)
        return try base.entriesSharingSortIndex(in: scope)
    }

    func items(withIDPrefix hexDigits: String, limit: Int) throws -> [Item] {
        regions.allItems = true
        return try base.items(withIDPrefix: hexDigits, limit: limit)
    }

    func checklists(of items: [Item.ID]) throws -> [Item.ID: [ChecklistItem]] {
        regions.checklists.formUnion(items)
        return try base.checklists(of: items)
    }

    func checklistItem(id: ChecklistItem.ID) throws -> ChecklistItem? {
        let entry = try base.checklistItem(id: id)
        if let entry { regions.checklists.insert(entry.itemID) } else { regions.allChecklists = true }
        return entry
    }

    /// The list whose items an ordering holds: a list's under no heading, or a heading's,
    /// whose list is read (and an unknown heading noted as any list's items).
    private func list(holding scope: OrderScope) throws -> ItemList.ID? {
        switch scope {
        case .items(let list): list
        case .heading(let heading): try self.heading(id: heading)?.listID
        case .lists, .today, .checklist, .areas, .area, .headings: nil
        }
    }

    /// Notes the keys of an ordering; a heading's items are noted as its list's.
    private func noteKeys(of scope: OrderScope) throws {
        if case .heading = scope, let list = try list(holding: scope) { regions.items.insert(list) } else { regions.noteKeys(of: scope) }
    }

    func defaultListID() throws -> ItemList.ID? {
        regions.lists = true
        return try base.defaultListID()
    }
}

extension ItemRepository {
    /// Runs an observation's `read`, and answers its value with the regions of the store it
    /// looked at.
    package func readNotingRegions<Value: Sendable>(
        _ read: @escaping @Sendable (any ItemReading) throws -> Value
    ) async throws -> (value: Value, regions: StoreRegions) {
        try await self.read { reader in
            let recorder = RegionRecordingReader(reader)
            let value = try read(recorder)
            return (value, recorder.regions)
        }
    }
}
