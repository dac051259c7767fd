import ArrangeModel
import ArrangeStore
import Foundation

/// How to take back what one operation did to a store: every row it wrote, as it was before.
///
/// A ``RewindRecorder`` collects it while the operation is applied; ``restore(in:)`` writes
/// the rows back. Rows are kept whole, so taking an operation back restores re-spread
/// neighbours too, and then the keys are exactly those from before. An item the operation only
/// placed (moved, re-spread, or put in or out of Today) is kept as its place alone
/// (``KeyImage``), so that a move does not copy the moved item's notes into the log.
struct Rewind: Codable, Sendable {
    /// Lists as they were, in the order first written; `nil` for a list the operation created.
    var lists: [ListImage] = []
    /// Items as they were, in the order first written; `nil` for an item the operation created.
    var items: [ItemImage] = []
    /// Items the operation only placed: where they were.
    var keys: [KeyImage] = []
    /// Checklist entries as they were, in the order first written; `nil` for an entry the
    /// operation created. Those deleted with their item are among them.
    var checklistItems: [ChecklistImage] = []
    /// Areas as they were, in the order first written; `nil` for an area the operation created.
    var areas: [AreaImage] = []
    /// Headings as they were, in the order first written; `nil` for a heading the operation created.
    var headings: [HeadingImage] = []
    /// Tags as they were, in the order first written (a tag before its children); `nil` for a
    /// tag the operation created.
    var tags: [TagImage] = []
    /// The ids the operation merged into another tag (``RowChange/mergeTag(_:into:)``).
    var tagMerges: [Tag.ID] = []
    /// The default list before the operation, when it changed it.
    var defaultList: DefaultListImage?
    /// Tombstones as they were, in the order first written.
    var tombstones: [TombstoneImage] = []
    /// Repeating series as they were, in the order first written; `nil` for a series the
    /// operation created.
    var series: [SeriesImage] = []

    init() {}

    /// Reads a rewind; what it leaves out (`{}` for a rewind of nothing) is empty.
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        lists = try container.decodeIfPresent([ListImage].self, forKey: .lists) ?? []
        items = try container.decodeIfPresent([ItemImage].self, forKey: .items) ?? []
        keys = try container.decodeIfPresent([KeyImage].self, forKey: .keys) ?? []
        checklistItems = try container.decodeIfPresent([ChecklistImage].self, forKey: .checklistItems) ?? []
        areas = try container.decodeIfPresent([AreaImage].self, forKey: .areas) ?? []
        headings = try container.decodeIfPresent([HeadingImage].self, forKey: .headings) ?? []
        tags = try container.decodeIfPresent([TagImage].self, forKey: .tags) ?? []
        tagMerges = try container.decodeIfPresent([Tag.ID].self, forKey: .tagMerges) ?? []
        defaultList = try container.decodeIfPresent(DefaultListImage.self, forKey: .defaultList)
        tombstones = try container.decodeIfPresent([TombstoneImage].self, forKey: .tombstones) ?? []
        series = try container.decodeIfPresent([SeriesImage].self, forKey: .series) ?? []
    }

    struct ListImage: Codable, Sendable {
        var id: ItemList.ID
        var list: ItemList?
    }

    struct ItemImage: Codable, Sendable {
        var id: Item.ID
        var item: Item?
    }

    /// Where an item was: the columns that placing it writes.
    struct KeyImage: Codable, Sendable {
        var id: Item.ID
        var listID: ItemList.ID
        /// Absent from the JSON for an item under no heading, as from a rewind logged before headings.
        var heading: Heading.ID?
        var sortIndex: Int64
        var todayIndex: Int64?
        var updatedAt: Date

        init(id: Item.ID, place: ItemPlace) {
            (self.id, listID, heading, sortIndex, todayIndex, updatedAt) = (
                id, place.standing.list, place.standing.heading, place.standing.key.sortIndex, place.todayIndex, place.updatedAt)
        }

        /// The item as it was: the item as `transaction` holds it, but for this place; `nil`
        /// when the item is gone.
        func item(before transaction: any ItemReading) throws -> Item? {
            guard var item = try transaction.item(id: id) else { return nil }
            (item.listID, item.heading, item.sortIndex, item.todayIndex, item.updatedAt) = (listID, heading, sortIndex, todayIndex, updatedAt)
            return item
        }
    }

    struct ChecklistImage: Codable, Sendable {
        var id: ChecklistItem.ID
        var entry: ChecklistItem?
    }

    struct AreaImage: Codable, Sendable {
        var id: Area.ID
        var area: Area?
    }

    struct HeadingImage: Codable, Sendable {
        var id: Heading.ID
        var heading: Heading?
    }

    struct TagImage: Codable, Sendable {
        var id: Tag.ID
        var tag: Tag?
    }

    struct SeriesImage: Codable, Sendable {
        var id: Series.ID
        var series: Series?
    }

    struct DefaultListImage: Codable, Sendable {
        var id: ItemList.ID?
    }

    struct TombstoneImage: Codable, Sendable {
        var entry: OrderEntry.ID
        var scope: OrderScope
        var sortIndex: Int64?
    }

    /// The changes that take the rows written from how they were to how they are now.
    func changes(upToDateIn transaction: any ItemReading) throws -> [SyncChange] {
        var itemsBefore = Dictionary(items.map { ($0.id, $0.item) }, uniquingKeysWith: { first, _ in first })
        for image in keys where itemsBefore[image.id] == nil {
            // Only placed: as it is now, but for its place.
            if let item = try image.item(before: transaction) { itemsBefore[image.id] = item }
        }
        return try SyncChange.changes(
            bringingLists: Dictionary(lists.map { ($0.id, $0.list) }, uniquingKeysWith: { first, _ in first }),
            items: itemsBefore,
            checklistItems: Dictionary(checklistItems.map { ($0.id, $0.entry) }, uniquingKeysWith: { first, _ in first }),
            areas: Dictionary(areas.map { ($0.id, $0.area) }, uniquingKeysWith: { first, _ in first }),
            headings: Dictionary(headings.map { ($0.id, $0.heading) }, uniquingKeysWith: { first, _ in first }),
            tags: Dictionary(tags.map { ($0.id, $0.tag) }, uniquingKeysWith: { first, _ in first }),
            series: Dictionary(series.map { ($0.id, $0.series) }, uniquingKeysWith: { first, _ in first }),
            upToDateIn: transaction)
    }

    /// Writes every row back as it was: what the operation created is deleted, what it changed
    /// or deleted is put back.
    func restore(in transaction: any LogWriting) throws {
        for image in checklistItems.reversed() where image.entry == nil {
            if try transaction.checklistItem(id: image.id) != nil { try transaction.deleteChecklistItem(id: image.id) }
        }
        for image in items.reversed() where image.item == nil {
            if try transaction.item(id: image.id) != nil { try transaction.deleteItem(id: image.id) }
        }
        for image in lists.reversed() where image.list == nil {
            if try transaction.list(id: image.id) != nil { try transaction.deleteList(id: image.id) }
        }
        // Areas before the lists that are in them.
        for image in areas.reversed() where image.area == nil {
            if try transaction.area(id: image.id) != nil { try transaction.deleteArea(id: image.id) }
        }
        for image in areas {
            guard let area = image.area else { continue }
            if try transaction.area(id: area.id) != nil { try transaction.update(area) } else { try transaction.insert(area) }
        }
        for id in tagMerges { try transaction.apply(.unmergeTag(id)) }
        // Children before their parents, then parents before their children.
        for image in tags.reversed() where image.tag == nil {
            if try transaction.tag(id: image.id) != nil { try transaction.deleteTag(id: image.id) }
        }
        for image in tags {
            guard let tag = image.tag else { continue }
            if try transaction.tag(id: tag.id) != nil { try transaction.update(tag) } else { try transaction.insert(tag) }
        }
        for image in lists {
            guard let list = image.list else { continue }
            if try transaction.list(id: list.id) != nil { try transaction.update(list) } else { try transaction.insert(list) }
        }
        // Headings before the items under them; a heading moved back to its list takes its items along.
        for image in headings {
            guard let heading = image.heading else { continue }
            if try transaction.heading(id: heading.id) != nil { try transaction.update(heading) } else { try transaction.insert(heading) }
        }
        for image in items {
            guard let item = image.item else { continue }
            if try transaction.item(id: item.id) != nil { try transaction.update(item) } else { try transaction.insert(item) }
        }
        for image in keys {
            if let item = try image.item(before: transaction) { try transaction.update(item) }
        }
        // Once the items that were elsewhere have left them: deleting a heading deletes the items under it.
        for image in headings.reversed() where image.heading == nil {
            if try transaction.heading(id: image.id) != nil { try transaction.deleteHeading(id: image.id) }
        }
        for image in checklistItems {
            guard let entry = image.entry else { continue }
            if try transaction.checklistItem(id: entry.id) != nil { try transaction.update(entry) } else { try transaction.insert(entry) }
        }
        if let defaultList = defaultList?.id { try transaction.setDefaultListID(defaultList) }
        for image in series.reversed() {
            switch (image.series, try transaction.series(id: image.id)) {
            case (nil, _?): try transaction.deleteSeries(id: image.id)
            case (let series?, nil): try transaction.insert(series)
            case (let series?, _?): try transaction.update(series)
            case (nil, nil): break
            }
        }
        for image in tombstones {
            try transaction.setTombstone(image.sortIndex, of: image.entry, in: image.scope)
        }
    }
}

/// A transaction that remembers, before each row's first write, how the row was: the
/// ``Rewind`` of what a body does. Tombstones, which sync keeps in the log, are written
/// through it too, so that they are remembered the same way.
///
/// An item the body only places is remembered as its place (``ItemReading/place(ofItem:)``),
/// which costs less to read than the item; should the body then write more of it, the item as
/// it was is the item as it is, but for that place.
final class RewindRecorder: ForwardingTransaction, TombstoneKeeper {
    /// Every row written as it was, but for the items only placed (``places``).
    private var rewind = Rewind()
    /// The items that were there before and that the body has only placed, as their places.
    private var places: [Item.ID: Rewind.KeyImage] = [:]
    /// The ids of ``places``, in the order first written; an item written whole since is left out.
    private var placedInOrder: [Item.ID] = []
    /// The transaction's operation log.
    let log: any LogWriting

    /// A recorder in front of `transaction`.
    init(_ transaction: any LogWriting) {
        self.log = transaction
        super.init(transaction)
    }

    /// Every row written, as it was; the items only placed, as their places.
    var recorded: Rewind {
        var recorded = rewind
        recorded.keys = placedInOrder.compactMap { places[$0] }
        return recorded
    }

    /// Whether the body has written lists, items, checklist entries, areas or headings.
    var changesRows: Bool {
        !rewind.lists.isEmpty || !rewind.items.isEmpty || !places.isEmpty || !rewind.checklistItems.isEmpty || !rewind.areas.isEmpty
            || !rewind.headings.isEmpty || !rewind.tags.isEmpty || !rewind.tagMerges.isEmpty || !rewind.series.isEmpty
    }
    private var seenLists = Set<ItemList.ID>()
    private var seenAreas = Set<Area.ID>()
    private var seenHeadings = Set<Heading.ID>()
    private var seenTags = Set<Tag.ID>()
    private var seenItems = Set<Item.ID>()
    private var seenChecklistItems = Set<ChecklistItem.ID>()
    private var seenSeries = Set<Series.ID>()
    private var seenTombstones = Set<TombstoneKey>()

    private struct TombstoneKey: Hashable {
        var entry: OrderEntry.ID
        var scope: OrderScope
    }

    private func remember(list id: ItemList.ID) throws {
        guard seenLists.insert(id).inserted else { return }
        rewind.lists.append(Rewind.ListImage(id: id, list: try base.list(id: id)))
    }

    private func remember(area id: Area.ID) throws {
        guard seenAreas.insert(id).inserted else { return }
        rewind.areas.append(Rewind.AreaImage(id: id, area: try base.area(id: id)))
    }

    private func remember(tag id: Tag.ID) throws {
        guard seenTags.insert(id).inserted else { return }
        rewind.tags.append(Rewind.TagImage(id: id, tag: try base.tag(id: id)))
    }

    private func remember(series id: Series.ID) throws {
        guard seenSeries.insert(id).inserted else { return }
        rewind.series.append(Rewind.SeriesImage(id: id, series: try base.series(id: id)))
    }

    private func remember(heading id: Heading.ID) throws {
        guard seenHeadings.insert(id).inserted else { return }
        rewind.headings.append(Rewind.HeadingImage(id: id, heading: try base.heading(id: id)))
    }

    /// Remembers a heading before its first write, and the items under it when it is to leave
    /// its list (they go along) or go (with them).
    private func remember(heading id: Heading.ID, itemsLeaving: Bool) throws {
        try remember(heading: id)
        guard itemsLeaving else { return }
        for entry in try base.entries(in: .heading(id), visibility: .all, offset: 0, limit: .max) {
            try remember(item: Item.ID(entry: entry.id), placing: true)
        }
    }

    /// The rewind to log: ``recorded``, with the items the body only placed kept as their places.
    ///
    /// Items stay whole when the body created a list: taking the operation back deletes that
    /// list, and with it the items it holds, before it puts items back, and only an item kept
    /// whole can be put back once deleted.
    func loggedRewind() throws -> Rewind {
        guard !places.isEmpty, rewind.lists.contains(where: { $0.list == nil }) else { return recorded }
        var logged = rewind
        for id in placedInOrder {
            guard let place = places[id] else { continue }
            if let item = try place.item(before: base) {
                logged.items.append(Rewind.ItemImage(id: id, item: item))
            } else {
                logged.keys.append(place)
            }
        }
        return logged
    }

    /// Remembers an item before its first write: as its place when the write only places it,
    /// else whole.
    ///
    /// - Parameter placing: Whether the write only places the item: it changes the list, the
    ///   keys and the stamp, and nothing else.
    private func remember(item id: Item.ID, placing: Bool = false) throws {
        guard seenItems.insert(id).inserted else {
            guard !placing, let place = places[id], let item = try place.item(before: base) else { return }
            // Only placed so far: as it was is as it is, but for its place.
            places[id] = nil
            rewind.items.append(Rewind.ItemImage(id: id, item: item))
            return
        }
        if placing, let place = try base.place(ofItem: id) {
            places[id] = Rewind.KeyImage(id: id, place: place)
            placedInOrder.append(id)
        } else {
            rewind.items.append(Rewind.ItemImage(id: id, item: try base.item(id: id)))
        }
    }

    /// Remembers a checklist entry before its first write.
    private func remember(checklistItem id: ChecklistItem.ID) throws {
        guard seenChecklistItems.insert(id).inserted else { return }
        rewind.checklistItems.append(Rewind.ChecklistImage(id: id, entry: try base.checklistItem(id: id)))
    }

    /// Remembers the entries of the checklists of `items`, which go with them.
    private func rememberChecklists(of items: [Item.ID]) throws {
        for entry in try base.checklists(of: items).values.joined() { try remember(checklistItem: entry.id) }
    }

    private func rememberDefaultList() throws {
        guard rewind.defaultList == nil else { return }
        rewind.defaultList = Rewind.DefaultListImage(id: try base.defaultListID())
    }

    /// Remembers each row the change writes, as it was, then writes it.
    override func apply(_ change: RowChange) throws {
        switch change {
        case .insert(.list(let list)), .update(.list(let list)): try remember(list: list.id)
        case .insert(.area(let area)), .update(.area(let area)): try remember(area: area.id)
        case .insert(.heading(let heading)): try remember(heading: heading.id)
        case .update(.heading(let heading)):
            try remember(heading: heading.id, itemsLeaving: try base.heading(id: heading.id)?.listID != heading.listID)
        case .insert(.item(let item)), .update(.item(let item)): try remember(item: item.id)
        case .insert(.checklistItem(let entry)), .update(.checklistItem(let entry)): try remember(checklistItem: entry.id)
        case .insert(.tag(let tag)), .update(.tag(let tag)): try remember(tag: tag.id)
        case .delete(.tag(let id)):
            // Its children, and theirs, go with it: depth first, a tag before its children.
            for tag in try TagDeleted.subtree(of: id, in: base) { try remember(tag: tag.id) }
        case .delete(.list(let id)):
            try remember(list: id)
            // The list's headings, items, their checklists and the default list's row go with it.
            for heading in try base.headings(in: id) { try remember(heading: heading.id) }
            let items = try base.items(in: id, visibility: .all, offset: 0, limit: .max).map(\.id)
            for item in items { try remember(item: item) }
            try rememberChecklists(of: items)
            try rememberDefaultList()
        case .delete(.area(let id)):
            try remember(area: id)
            // Its lists leave it.
            for list in try base.entries(in: .area(id), visibility: .all, offset: 0, limit: .max) { try remember(list: ItemList.ID(entry: list.id)) }
        case .delete(.heading(let id)):
            try remember(heading: id)
            // The items under it, and their checklists, go with it.
            let items = try base.entries(in: .heading(id), visibility: .all, offset: 0, limit: .max).map { Item.ID(entry: $0.id) }
            for item in items { try remember(item: item) }
            try rememberChecklists(of: items)
        case .delete(.item(let id)):
            try remember(item: id)
            try rememberChecklists(of: [id])
        case .delete(.checklistItem(let id)): try remember(checklistItem: id)
        case .insert(.series(let series)), .update(.series(let series)): try remember(series: series.id)
        case .delete(.series(let id)): try remember(series: id)
        case .setSortIndices(let changes, let scope, _):
            for change in changes {
                switch scope {
                case .lists, .area: try remember(list: ItemList.ID(entry: change.id))
                case .areas: try remember(area: Area.ID(entry: change.id))
                case .tags: try remember(tag: Tag.ID(entry: change.id))
                case .items, .today, .heading: try remember(item: Item.ID(entry: change.id), placing: true)
                case .checklist: try remember(checklistItem: ChecklistItem.ID(entry: change.id))
                case .headings(let list):
                    let id = Heading.ID(entry: change.id)
                    try remember(heading: id, itemsLeaving: try base.heading(id: id)?.listID != list)
                }
            }
        case .removeFromToday(let ids, _):
            for id in ids { try remember(item: id, placing: true) }
        case .setDefaultList: try rememberDefaultList()
        case .mergeTag(let id, _): rewind.tagMerges.append(id)
        // Only a rewind's restore unmerges, and restores are not recorded.
        case .unmergeTag: break
        // The device's own settings and shares, which sync never rewinds.
        case .setValue, .setListShare: break
        }
        try super.apply(change)
    }

    /// The key an entry had in an ordering when it last left it.
    func tombstone(of entry: OrderEntry.ID, in scope: OrderScope) throws -> Int64? {
        try log.tombstone(of: entry, in: scope)
    }

    /// Remembers the key an entry had in an ordering it left, or forgets it (`nil`).
    func setTombstone(_ sortIndex: Int64?, of entry: OrderEntry.ID, in scope: OrderScope) throws {
        if seenTombstones.insert(TombstoneKey(entry: entry, scope: scope)).inserted {
            rewind.tombstones.append(Rewind.TombstoneImage(entry: entry, scope: scope, sortIndex: try log.tombstone(of: entry, in: scope)))
        }
        try log.setTombstone(sortIndex, of: entry, in: scope)
    }
}

extension LogJSON {
    /// A series as its `Encodable` form writes it: rewinds hold few, and rarely.
    static func seriesJSON(_ series: Series) -> Data {
        (try? SyncCoding.encoder.encode(series)) ?? Data("null".utf8)
    }

    /// A rewind, as `Rewind`'s `Encodable` form writes it, with empty lists left out.
    func rewind(_ rewind: Rewind) {
        object { members in
            members.objects("lists", rewind.lists) { members, image in
                members.member("id") { $0.id(image.id) }
                members.member("list", ifPresent: image.list) { $0.list($1) }
            }
            members.objects("items", rewind.items) { members, image in
                members.member("id") { $0.id(image.id) }
                members.member("item", ifPresent: image.item) { $0.item($1) }
            }
            members.objects("keys", rewind.keys) { members, image in
                members.member("id") { $0.id(image.id) }
                members.member("listID") { $0.id(image.listID) }
                members.member("heading", ifPresent: image.heading) { $0.id($1) }
                members.member("sortIndex") { $0.number(image.sortIndex) }
                members.member("todayIndex", ifPresent: image.todayIndex) { $0.number($1) }
                members.member("updatedAt") { $0.date(image.updatedAt) }
            }
            members.objects("areas", rewind.areas) { members, image in
                members.member("id") { $0.id(image.id) }
                members.member("area", ifPresent: image.area) { $0.area($1) }
            }
            members.objects("headings", rewind.headings) { members, image in
                members.member("id") { $0.id(image.id) }
                members.member("heading", ifPresent: image.heading) { $0.heading($1) }
            }
            members.objects("tags", rewind.tags) { members, image in
                members.member("id") { $0.id(image.id) }
                members.member("tag", ifPresent: image.tag) { $0.tag($1) }
            }
            if !rewind.tagMerges.isEmpty { members.member("tagMerges") { $0.ids(rewind.tagMerges) } }
            members.objects("checklistItems", rewind.checklistItems) { members, image in
                members.member("id") { $0.id(image.id) }
                members.member("entry", ifPresent: image.entry) { $0.checklistItem($1) }
            }
            members.member("defaultList", ifPresent: rewind.defaultList) { json, image in
                json.object { $0.member("id", ifPresent: image.id) { $0.id($1) } }
            }
            members.objects("tombstones", rewind.tombstones) { members, image in
                members.member("entry") { $0.id(image.entry) }
                members.member("scope") { $0.scope(image.scope) }
                members.member("sortIndex", ifPresent: image.sortIndex) { $0.number($1) }
            }
            members.objects("series", rewind.series) { members, image in
                members.member("id") { $0.id(image.id) }
                members.member("series", ifPresent: image.series) { $0.raw(Self.seriesJSON($1)) }
            }
        }
    }
}
