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

    func lists(_ request: ListRequest) throws -> [ItemList] {
        regions.lists = true
        return try base.lists(request)
    }

    func areas(_ request: AreaRequest) throws -> [Area] {
        regions.lists = true
        return try base.areas(request)
    }

    /// Notes the rows that are neither lists, items nor checklists: the tags.
    func tags(_ request: TagRequest) throws -> [Tag] {
        regions.otherRows = true
        return try base.tags(request)
    }

    func tagMerges() throws -> [TagMerge] {
        regions.otherRows = true
        return try base.tagMerges()
    }

    /// Notes the rows that are neither lists, items nor checklists: the series.
    func series(_ request: SeriesRequest) throws -> [Series] {
        regions.otherRows = true
        return try base.series(request)
    }

    /// Notes the rows that are neither lists, items nor checklists: the settings.
    func value(of setting: StoreSetting) throws -> String? {
        regions.otherRows = true
        return try base.value(of: setting)
    }

    /// Notes the rows that are neither lists, items nor checklists: the shares.
    func listShares() throws -> [ListShare] {
        regions.otherRows = true
        return try base.listShares()
    }

    /// Notes a list's headings alone: a count of its items adds up its sections.
    func headings(_ request: HeadingRequest) throws -> [Heading] {
        let headings = try base.headings(request)
        switch request {
        case .inList(let list): regions.headings.insert(list)
        case .withID:
            if let heading = headings.first { regions.headings.insert(heading.listID) } else { regions.allItems = true }
        case .trashed: regions.allItems = true
        }
        return headings
    }

    /// Notes the lists of the items read; every item for a read of items of any list, or of
    /// an id that names none. Today's page notes Today, and a date in any list may bring its
    /// item into Today; a completion in any list changes the Logbook.
    func items(_ request: ItemRequest) throws -> [Item] {
        let items = try base.items(request)
        switch request {
        case .withIDs(let ids):
            if items.count < Set(ids).count { regions.allItems = true }
            for item in items { regions.items.insert(item.listID) }
        case .list(let list, _, _, _): regions.items.insert(list)
        case .today:
            regions.today = true
            for item in items { regions.items.insert(item.listID) }
        case .dated:
            regions.today = true
            regions.allItems = true
        case .completed, .withIDPrefix, .tagged, .trashed, .reminders: regions.allItems = true
        case .matching:
            // What matches depends on every item, checklist, heading and list name.
            (regions.allItems, regions.allChecklists, regions.lists) = (true, true, true)
        }
        return items
    }

    func standing(ofItem id: Item.ID) throws -> ItemStanding? {
        let standing = try base.standing(ofItem: id)
        if let standing { regions.items.insert(standing.list) } else { regions.allItems = true }
        return standing
    }

    func place(ofItem id: Item.ID) throws -> ItemPlace? {
        let place = try base.place(ofItem: id)
        if let place { regions.items.insert(place.standing.list) } else { regions.allItems = true }
        return place
    }

    /// Notes every item, as a read of the dated items does.
    func datedStandings(through day: Day) throws -> [DatedStanding] {
        regions.today = true
        regions.allItems = true
        return try base.datedStandings(through: day)
    }

    func entries(_ request: EntryRequest) throws -> [OrderEntry] {
        switch request {
        case .withID(_, let scope), .page(let scope, _, _, _), .sharingSortIndex(let scope): try noteKeys(of: scope)
        }
        return try base.entries(request)
    }

    func keys(in scope: OrderScope, _ bound: KeyBound, limit: Int) throws -> [OrderKey] {
        try noteKeys(of: scope)
        return try base.keys(in: scope, bound, limit: limit)
    }

    /// A count of all of a list's entries notes only the list's counts: moves within the list
    /// leave them as they are.
    func count(_ request: CountRequest) throws -> Int {
        switch request {
        case .entries(let scope, _):
            if let list = try list(holding: scope) { regions.counts.insert(list) } else { try noteKeys(of: scope) }
        case .entriesBefore(_, let scope, _): try noteKeys(of: scope)
        case .completedItems: regions.allItems = true
        }
        return try base.count(request)
    }

    func ranks(of keys: [OrderKey], in scope: OrderScope) throws -> EntryRanks {
        try noteKeys(of: scope)
        return try base.ranks(of: keys, in: scope)
    }

    func checklistItems(_ request: ChecklistRequest) throws -> [ChecklistItem] {
        let entries = try base.checklistItems(request)
        switch request {
        case .ofItems(let items): regions.checklists.formUnion(items)
        case .withID:
            if let entry = entries.first { regions.checklists.insert(entry.itemID) } else { regions.allChecklists = true }
        }
        return entries
    }

    /// The list whose items an ordering holds: a list's under no heading, or a heading's,
    /// whose list is read (and an unknown heading noted as any list's items).
    private func list(holding scope: OrderScope) throws -> ItemList.ID? {
        switch scope {
        case .items(let list): list
        case .heading(let heading): try self.heading(id: heading)?.listID
        case .lists, .today, .checklist, .areas, .area, .headings, .tags: nil
        }
    }

    /// Notes the keys of an ordering; a heading's items are noted as its list's.
    private func noteKeys(of scope: OrderScope) throws {
        if case .heading = scope, let list = try list(holding: scope) { regions.items.insert(list) } else { regions.noteKeys(of: scope) }
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
