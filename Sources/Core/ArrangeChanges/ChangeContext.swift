package import ArrangeModel
package import ArrangeOrdering
package import ArrangeStore
package import Foundation

/// The store a change applies to, by the rules of the merge (see `SyncEngine`): with keys that
/// depend on the store and the change alone, and what every kind of change needs to apply.
///
/// A change names what it touches by id and places entries by their neighbours
/// (``SyncPlace``), so it applies on any replica, whatever happened there meanwhile: a change of
/// something gone does nothing, an entry whose neighbours are gone lands where they were, and a
/// name another list took meanwhile gets a number.
package struct ChangeContext {
    /// The name of the list that a change of a list gone meanwhile puts its items in, when the
    /// store has no list left to be the default.
    package static let defaultListName = "Inbox"

    /// The transaction to write through.
    package let transaction: any ItemWriting
    /// The transaction's operation log, for a change that writes to it (a retirement); `nil`
    /// for a store that keeps none.
    package let log: (any OperationLogWriting)?
    /// Where entries are remembered as they leave an ordering; `nil` where no replay follows.
    package let tombstones: (any TombstoneKeeper)?
    /// Places entries, and stamps what it writes with ``stamp``.
    package let ordering: OrderingService
    /// The change's moment, stamped on what it writes.
    package let stamp: Date

    /// A context for a change made at `stamp`, with keys chosen by `configuration`: with jitter
    /// off for a replay, so that every replica picks the same keys.
    ///
    /// - Throws: `OrderingError` for a configuration that the ordering service refuses.
    package init(
        _ transaction: any ItemWriting, log: (any OperationLogWriting)?, tombstones: (any TombstoneKeeper)?, at stamp: Date,
        ordering configuration: OrderingConfiguration, repository: any ItemRepository
    ) throws {
        self.transaction = transaction
        self.log = log
        self.tombstones = tombstones
        self.stamp = stamp
        self.ordering = try OrderingService(repository: repository, configuration: configuration, now: { stamp })
    }

    /// A context for a change an intent makes at `stamp`, with the intent's ordering service:
    /// no log, and no tombstones, which only a replay reads.
    package init(_ transaction: any ItemWriting, at stamp: Date, ordering: OrderingService) {
        self.transaction = transaction
        self.log = nil
        self.tombstones = nil
        self.stamp = stamp
        self.ordering = ordering
    }

    /// Repairs or spreads the keys of an ordering that still exists.
    package func repair(_ scope: OrderScope, normalize: Bool) throws {
        switch scope {
        case .items(let list), .headings(let list): guard try transaction.list(id: list) != nil else { return }
        case .checklist(let item): guard try transaction.item(id: item) != nil else { return }
        case .area(let area): guard try transaction.area(id: area) != nil else { return }
        case .heading(let heading): guard try transaction.heading(id: heading) != nil else { return }
        case .tags(let parent?): guard try transaction.tag(id: parent) != nil else { return }
        case .lists, .today, .areas, .tags(nil): break
        }
        if normalize {
            try ordering.normalize(scope, in: transaction)
        } else {
            _ = try ordering.validate(scope, repair: true, in: transaction)
        }
    }

    /// Where a recorded place lands now: at the top when it had no `after` neighbour; after that
    /// neighbour if it is still in the ordering, else before its `before` neighbour, else where
    /// `after` was when it left (its tombstone), else at the bottom.
    package func placement(_ place: SyncPlace, in scope: OrderScope, moving: [OrderEntry.ID] = []) throws -> Placement<OrderEntry.ID> {
        let excluded = Set(moving)
        guard place.after != nil else { return .top }
        if let after = place.after, !excluded.contains(after), try transaction.entry(id: after, in: scope) != nil { return .after(after) }
        if let before = place.before, !excluded.contains(before), try transaction.entry(id: before, in: scope) != nil { return .before(before) }
        if let after = place.after, let sortIndex = try tombstones?.tombstone(of: after, in: scope) {
            let grave = OrderKey(sortIndex: sortIndex, id: after)
            let next = try transaction.keys(in: scope, after: grave, limit: excluded.count + 1).first { !excluded.contains($0.id) }
            return next.map { Placement.before($0.id) } ?? .bottom
        }
        return .bottom
    }

    /// Places `moving`, in this order, at a recorded place in `scope`.
    package func place(_ moving: [OrderEntry.ID], at place: SyncPlace, in scope: OrderScope) throws {
        try ordering.place(moving, at: try placement(place, in: scope, moving: moving), in: scope, visibility: .all, in: transaction)
    }

    /// Remembers where an item was, in its list (under its heading, if any) and in Today, as it goes.
    package func bury(_ item: Item) throws {
        for scope in [item.scope, .today] {
            if let entry = item.entry(in: scope) { try bury(entry, in: scope) }
        }
    }

    /// Remembers where an entry was in an ordering, as it leaves it: a later placement after it
    /// lands there (``placement(_:in:moving:)``).
    package func bury(_ entry: OrderEntry?, in scope: OrderScope) throws {
        guard let entry else { return }
        try tombstones?.setTombstone(entry.sortIndex, of: entry.id, in: scope)
    }

    /// Moves the entries of an ordering that is going away to the bottom of another, in their
    /// order: the items under a deleted heading, the lists of a deleted area.
    package func rehome(_ entries: [OrderEntry], from scope: OrderScope, toBottomOf destination: OrderScope) throws {
        for entry in entries { try bury(entry, in: scope) }
        if !entries.isEmpty { try ordering.place(entries.map(\.id), at: .bottom, in: destination, visibility: .all, in: transaction) }
    }

    /// The items of `ids` that exist, each once, in the order of `ids`: an operation from another
    /// program may name one twice.
    package func existingItems(_ ids: [Item.ID]) throws -> [Item] {
        var seen = Set<Item.ID>()
        return try ids.filter { seen.insert($0).inserted }.compactMap(transaction.item)
    }

    /// Writes each of the items of `ids` that exist, once, for which `change` says it changed:
    /// stamped with the change's moment.
    package func updateItems(_ ids: [Item.ID], _ change: (inout Item) -> Bool) throws {
        for var item in try existingItems(ids) where change(&item) {
            item.updatedAt = stamp
            try transaction.update(item)
        }
    }

    /// Gives each of the items of `ids` that exist `value` in `field`, once; an item that has it already is left alone.
    package func setItems<Value: Equatable>(_ ids: [Item.ID], _ field: WritableKeyPath<Item, Value>, to value: Value) throws {
        try updateItems(ids) { item in
            guard item[keyPath: field] != value else { return false }
            item[keyPath: field] = value
            return true
        }
    }

    /// The checklist entries of `ids` that exist, each once, in the order of `ids`.
    package func existingChecklistItems(_ ids: [ChecklistItem.ID]) throws -> [ChecklistItem] {
        var seen = Set<ChecklistItem.ID>()
        return try ids.filter { seen.insert($0).inserted }.compactMap(transaction.checklistItem)
    }

    /// Notes as every backend can store them: without U+0000, which SQLite cannot hold, and cut
    /// to `Item.maximumNotesSize`, as an operation made before the limit may hold longer ones,
    /// so that an operation one replica took never stops another's merge.
    package static func storable(_ notes: String) -> String {
        Item.fittedNotes(notes.utf8.contains(0) ? String(String.UnicodeScalarView(notes.unicodeScalars.filter { $0.value != 0 })) : notes)
    }

    /// A title as every replica stores it: what `Title` keeps of it, or "Untitled".
    package static func storable(title: String) -> String {
        Title.sanitized(title, placeholder: "Untitled")
    }

    /// `list` if it exists; else the default list, created the first time it is needed.
    package func existingList(_ list: ItemList.ID) throws -> ItemList.ID {
        if try transaction.list(id: list) != nil { return list }
        if try transaction.list(id: ItemList.firstDefaultListID) == nil {
            let inbox = ItemList(id: ItemList.firstDefaultListID, name: try freeName(Self.defaultListName), createdAt: Date(timeIntervalSince1970: 0))
            try ordering.add(inbox, at: .top, in: transaction)
            if try transaction.defaultListID() == nil { try transaction.setDefaultListID(inbox.id) }
        }
        return ItemList.firstDefaultListID
    }

    /// The heading `heading` names, if it is given and exists; else `nil`, for none.
    package func existingHeading(_ heading: Heading.ID?) throws -> Heading? {
        guard let heading else { return nil }
        return try transaction.heading(id: heading)
    }

    /// `area` if it is given and exists; else `nil`, for no area.
    package func existingArea(_ area: Area.ID?) throws -> Area.ID? {
        guard let area, try transaction.area(id: area) != nil else { return nil }
        return area
    }

    /// `name`, or "name (2)", "name (3)"… when another list has it, ignoring case.
    package func freeName(_ name: String, except excluded: ItemList.ID? = nil) throws -> String {
        try Self.freeName(name, among: transaction.lists().filter { $0.id != excluded })
    }

    /// `name`, or "name (2)", "name (3)"… when one of `others` has it, ignoring case.
    package func freeName(_ name: String, among others: [some Named]) -> String {
        Self.freeName(name, among: others)
    }

    /// `name`, or "name (2)", "name (3)"… when one of `others` has it, ignoring case.
    package static func freeName(_ name: String, among others: [some Named]) -> String {
        let taken = Set(others.map { ItemList.nameKey($0.name) })
        var candidate = name
        var number = 2
        while taken.contains(ItemList.nameKey(candidate)) {
            candidate = "\(name) (\(number))"
            number += 1
        }
        return candidate
    }
}

/// Where a replay remembers where each entry was as it left an ordering (its tombstone), so
/// that a later change placed after it lands there.
package protocol TombstoneKeeper {
    /// The key `entry` had in `scope` when it left it; `nil` when it never did.
    func tombstone(of entry: OrderEntry.ID, in scope: OrderScope) throws -> Int64?
    /// Remembers the key `entry` had in `scope` as it leaves it; `nil` forgets it.
    func setTombstone(_ sortIndex: Int64?, of entry: OrderEntry.ID, in scope: OrderScope) throws
}

/// What has a name that no other of its kind may share, ignoring case: a list, an area.
package protocol Named {
    var name: String { get }
}

extension ItemList: Named {}
extension Area: Named {}
extension Tag: Named {}
