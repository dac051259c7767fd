package import ArrangeModel
package import ArrangeOrdering
package import ArrangeStore
import Foundation

/// Where things are, as a change records it to take itself back: places are neighbours, never
/// raw `sortIndex` values, since a later insert may re-spread the neighbours' keys.
extension ChangeRecord {
    /// The places of `entries` now, in `scope`, in an order in which they can be restored:
    /// in order, so that each predecessor is in place before its successor.
    package static func places(of entries: [OrderEntry], in scope: OrderScope, transaction: any ItemReading) throws -> [Place] {
        try entries.sorted { $0.key < $1.key }.map { try place(of: $0, in: scope, transaction: transaction) }
    }

    /// The places in their lists, under their headings or none, of `items`, which may belong to
    /// several lists.
    package static func listPlaces(of items: [Item], in transaction: any ItemReading) throws -> [Place] {
        let section = { (item: Item) in item.heading?.text ?? "" }
        return try items.sorted { ($0.listID, section($0), $0.orderKey) < ($1.listID, section($1), $1.orderKey) }.map { item in
            try place(of: OrderEntry(id: item.id.entryID, sortIndex: item.sortIndex, isOpen: !item.isCompleted), in: item.scope, transaction: transaction)
        }
    }

    /// The places in Today of those of `items` that are in Today.
    package static func todayPlaces(of items: [Item], in transaction: any ItemReading) throws -> [Place] {
        try places(of: items.compactMap { $0.entry(in: .today) }, in: .today, transaction: transaction)
    }

    /// The items with where they are now, and their checklists, in an order in which they can be restored.
    package static func placedItems(_ items: [Item], in transaction: any ItemReading) throws -> [PlacedItem] {
        let todayPlaces = Dictionary(uniqueKeysWithValues: try todayPlaces(of: items, in: transaction).map { ($0.id, $0) })
        let checklists = try transaction.checklists(of: items.map(\.id))
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id.entryID, $0) })
        return try listPlaces(of: items, in: transaction).compactMap { place in
            byID[place.id].map { PlacedItem(item: $0, place: place, todayPlace: todayPlaces[place.id], checklist: checklists[$0.id] ?? []) }
        }
    }

    /// The checklist entries with where they are now, in an order in which they can be restored.
    package static func placedChecklistItems(_ entries: [ChecklistItem], in transaction: any ItemReading) throws -> [PlacedChecklistItem] {
        try entries.sorted { ($0.itemID, $0.orderKey) < ($1.itemID, $1.orderKey) }.map { entry in
            PlacedChecklistItem(entry: entry, place: try place(of: entry.entry, in: .checklist(entry.itemID), transaction: transaction))
        }
    }

    /// Where `entry` is in `scope`: after the entry before it there.
    package static func place(of entry: OrderEntry, in scope: OrderScope, transaction: any ItemReading) throws -> Place {
        Place(id: entry.id, scope: scope, predecessor: try transaction.keys(in: scope, before: entry.key, limit: 1).first?.id)
    }
}

extension ChangeRecord.Neighbours {
    /// The neighbours an ordering service placed entries between.
    package init(_ report: OrderingReport) {
        self.init(after: report.predecessor, before: report.successor)
    }
}

extension ChangeRecord.Run {
    /// The entries an ordering service placed, in their new order, and their neighbours.
    package init(_ report: OrderingReport, in scope: OrderScope) {
        self.init(entries: report.placed.sorted().map(\.id), scope: scope, neighbours: ChangeRecord.Neighbours(report))
    }
}

/// Putting things back where they were, strictly: what undo does, which refuses with a
/// ``ChangeConflict`` rather than guess when the store changed around a place. (A change from
/// another device lands near a neighbour that is gone instead; see ``ChangeContext/placement(_:in:moving:)``.)
extension ChangeContext {
    /// Directly after a place's predecessor, or at the top when there is none.
    ///
    /// - Throws: ``ChangeConflict`` when the place's list, its checklist's item, its area, its
    ///   heading, or its predecessor is gone.
    package func placement(after place: ChangeRecord.Place) throws -> Placement<OrderEntry.ID> {
        var listName: String?
        switch place.scope {
        case .items(let id):
            guard let list = try transaction.list(id: id) else { throw ChangeConflict.listGone(id) }
            listName = list.name
        case .checklist(let id):
            guard try transaction.item(id: id) != nil else { throw ChangeConflict.itemGone(id) }
        case .area(let id):
            guard try transaction.area(id: id) != nil else { throw ChangeConflict.areaGone(id) }
        case .headings(let id):
            guard try transaction.list(id: id) != nil else { throw ChangeConflict.listGone(id) }
        case .heading(let id):
            guard try transaction.heading(id: id) != nil else { throw ChangeConflict.headingGone(id) }
        case .tags(let id?):
            guard try transaction.tag(id: id) != nil else { throw ChangeConflict.tagGone(id) }
        case .lists, .today, .areas, .tags(nil):
            break
        }
        guard let predecessor = place.predecessor else { return .top }
        guard try transaction.entry(id: predecessor, in: place.scope) != nil else {
            throw ChangeConflict.neighbourGone(predecessor, in: place.scope, listName: listName)
        }
        return .after(predecessor)
    }

    /// Directly after a place's predecessor; at the bottom for no place.
    package func placement(after place: ChangeRecord.Place?) throws -> Placement<OrderEntry.ID> {
        try place.map(placement(after:)) ?? .bottom
    }

    /// Puts entries back at their places, a run of neighbours at a time.
    ///
    /// - Parameter joiningToday: Whether items join Today rather than move in it.
    /// - Throws: ``ChangeConflict`` when an entry or a place's predecessor is gone.
    package func putBack(_ places: [ChangeRecord.Place], joiningToday: Bool = false) throws {
        if !joiningToday {
            for place in places { if let conflict = try transaction.firstMissing([place.id], like: place.scope) { throw conflict } }
        }
        for run in places.chunked(by: { $1.scope == $0.scope && $1.predecessor == $0.id }) {
            try ordering.place(run.map(\.id), at: try placement(after: run[0]), in: run[0].scope, visibility: .all, in: transaction)
        }
    }

    /// Adds deleted items back, each after its predecessor in its list, then in Today, with
    /// their checklists as they were.
    ///
    /// - Throws: ``ChangeConflict`` when one exists again, or where it was is gone.
    package func restore(_ placed: [ChangeRecord.PlacedItem]) throws {
        for entry in placed where try transaction.item(id: entry.item.id) != nil {
            throw ChangeConflict.itemExistsAgain(entry.item.id)
        }
        for entry in placed {
            var item = entry.item
            item.todayIndex = nil
            try ordering.add(item, at: try placement(after: entry.place).map { Item.ID(entry: $0) }, visibility: .all, in: transaction)
            // The checklist was whole, and its keys are free in the new item's empty checklist.
            for checklistItem in entry.checklist { try transaction.insert(checklistItem) }
        }
        // In their old order in Today, so that each predecessor is back before its successor.
        let todayPlaces = placed.compactMap { entry -> (key: OrderKey, place: ChangeRecord.Place)? in
            guard let place = entry.todayPlace, let key = entry.item.entry(in: .today)?.key else { return nil }
            return (key, place)
        }
        try putBack(todayPlaces.sorted { $0.key < $1.key }.map(\.place), joiningToday: true)
    }
}

/// Where an entry is now, for putting it back.
extension ItemReading {
    /// The entry of an item, list, checklist entry, area, heading or tag in the ordering a place
    /// was recorded in: for an item recorded in a list, its entry in whatever list and heading it
    /// is in now; for a list, in whatever area (or none) it is in now; for a heading, in whatever
    /// list; for a tag, under whatever parent.
    package func currentEntry(_ id: OrderEntry.ID, like scope: OrderScope) throws -> (entry: OrderEntry, scope: OrderScope)? {
        switch scope {
        case .lists, .area:
            return try self.list(id: ItemList.ID(entry: id)).map { ($0.entry, $0.scope) }
        case .areas:
            return try self.area(id: Area.ID(entry: id)).map { ($0.entry, .areas) }
        case .today:
            return try self.entry(id: id, in: .today).map { ($0, .today) }
        case .items, .heading:
            guard let item = try self.item(id: Item.ID(entry: id)) else { return nil }
            return item.entry(in: item.scope).map { ($0, item.scope) }
        case .headings:
            return try self.heading(id: Heading.ID(entry: id)).map { ($0.entry, .headings($0.listID)) }
        case .checklist:
            return try self.checklistItem(id: ChecklistItem.ID(entry: id)).map { ($0.entry, .checklist($0.itemID)) }
        case .tags:
            return try self.tag(id: Tag.ID(entry: id)).map { ($0.entry, $0.scope) }
        }
    }

    /// Why the entry `id` cannot be put back in an ordering like `scope`, where it no longer is.
    package func missing(_ id: OrderEntry.ID, like scope: OrderScope) throws -> ChangeConflict {
        switch scope {
        case .lists, .area: .listGone(ItemList.ID(entry: id))
        case .areas: .areaGone(Area.ID(entry: id))
        case .items, .heading: .itemGone(Item.ID(entry: id))
        case .headings: .headingGone(Heading.ID(entry: id))
        case .today: try self.item(id: Item.ID(entry: id)) == nil ? .itemGone(Item.ID(entry: id)) : .itemLeftToday(Item.ID(entry: id))
        case .checklist: .checklistItemGone(ChecklistItem.ID(entry: id))
        case .tags: .tagGone(Tag.ID(entry: id))
        }
    }

    /// The first of `entries` that is no longer in an ordering like `scope`, as a conflict.
    package func firstMissing(_ entries: [OrderEntry.ID], like scope: OrderScope) throws -> ChangeConflict? {
        for id in entries where try currentEntry(id, like: scope) == nil { return try missing(id, like: scope) }
        return nil
    }
}

/// Entries put back after the entries that were before them, in their orderings: how undo
/// takes a move back. It refuses when an entry or the entry before its place is gone.
package struct EntriesPutBack: ReversibleChange {
    /// Where the entries go, each after its predecessor, in an order in which they can.
    package var places: [ChangeRecord.Place]
    /// Whether the entries are items that join Today, rather than entries that move.
    package var joiningToday: Bool

    package init(_ places: [ChangeRecord.Place], joiningToday: Bool = false) {
        (self.places, self.joiningToday) = (places, joiningToday)
    }

    /// What puts every entry of `scope` back where it is now: none for an empty ordering.
    package static func everything(in scope: OrderScope, of store: any ItemReading) throws -> [EntriesPutBack] {
        let entries = try store.entries(in: scope, visibility: .all, offset: 0, limit: .max)
        return entries.isEmpty ? [] : [EntriesPutBack(try ChangeRecord.places(of: entries, in: scope, transaction: store))]
    }

    package func apply(in context: ChangeContext) throws {
        if joiningToday {
            for place in places where try context.transaction.item(id: Item.ID(entry: place.id)) == nil {
                throw ChangeConflict.itemGone(Item.ID(entry: place.id))
            }
        }
        try context.putBack(places, joiningToday: joiningToday)
    }

    /// Items that joined Today leave it again; entries that moved go back to where they are now.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        if joiningToday { return [SyncChange.removal(fromToday: places.map { Item.ID(entry: $0.id) })] }
        var current: [(scope: OrderScope, entries: [OrderEntry])] = []
        for place in places {
            guard let (entry, scope) = try store.currentEntry(place.id, like: place.scope) else { continue }
            if let index = current.firstIndex(where: { $0.scope == scope }) { current[index].entries.append(entry) } else { current.append((scope, [entry])) }
        }
        return [EntriesPutBack(try current.flatMap { try ChangeRecord.places(of: $0.entries, in: $0.scope, transaction: store) })]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        for place in places {
            // Items that joined Today may have left it since: taking them out again does no harm.
            if joiningToday {
                if try store.item(id: Item.ID(entry: place.id)) == nil { return .itemGone(Item.ID(entry: place.id)) }
            } else if let conflict = try store.firstMissing([place.id], like: place.scope) {
                return conflict
            }
        }
        return nil
    }

    /// The runs of entries not yet after the entries that were before them, as taking a move
    /// back that another device took back already writes nothing, and logs nothing.
    package func pending(in store: any ItemReading) throws -> (any ReversibleChange)? {
        var left: [ChangeRecord.Place] = []
        for run in places.chunked(by: { $1.scope == $0.scope && $1.predecessor == $0.id }) {
            let isInPlace = try run.allSatisfy { place in
                guard let entry = try store.entry(id: place.id, in: place.scope) else { return false }
                return try ChangeRecord.place(of: entry, in: place.scope, transaction: store).predecessor == place.predecessor
            }
            if !isInPlace { left += run }
        }
        return left.isEmpty ? nil : EntriesPutBack(left, joiningToday: joiningToday)
    }

    /// Each run of entries as it ends, between its neighbours now.
    package func told(in store: any ItemReading) throws -> [SyncChange] {
        var changes: [SyncChange] = []
        for run in places.chunked(by: { $1.scope == $0.scope && $1.predecessor == $0.id }) {
            let scope = run[0].scope
            let present = try run.compactMap { try store.entry(id: $0.id, in: scope) }
            guard !present.isEmpty else { continue }
            let place = try SyncPlace(of: present, in: scope, transaction: store)
            let moved = ChangeRecord.Run(
                entries: present.sorted { $0.key < $1.key }.map(\.id), scope: scope,
                neighbours: ChangeRecord.Neighbours(after: place.after, before: place.before))
            changes += try SyncChange.placing(moved, joining: joiningToday ? moved.entries.map { Item.ID(entry: $0) } : [], in: store)
        }
        return changes
    }
}
