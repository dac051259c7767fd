import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import ArrangeSync
import Foundation

/// How to go back over one step of the history.
///
/// Applying a change returns its inverse: the change that goes forward again. So undo
/// applies a change from the undo stack and pushes the inverse onto the redo stack, and
/// redo does the same the other way.
///
/// Places are recorded as neighbours, never as raw `sortIndex` values: a later insert may
/// have re-spread the neighbours' keys, and putting an old key back could land an entry in
/// the wrong place. An entry goes back directly after the entry that was before it in its
/// ordering, through the ordering service, which picks a fresh key (and re-spreads if the
/// gap is full). This holds alike for an item in its list, an item in Today and a list.
///
/// Undoing and redoing are changes like any other: when the environment syncs, each logs the
/// operations that go forward to where it leads, so an undone delete brings the item back on
/// every replica.
indirect enum Change: Sendable {
    /// Items were added; undoing deletes them.
    case inserted([Item.ID])
    /// Items were deleted; undoing puts each back, with its id, where it was in its list and in Today.
    case deleted([PlacedItem])
    /// Entries were moved, in their ordering or into another list; undoing moves each back after its former predecessor.
    case moved([Place])
    /// Items joined Today; undoing takes them out.
    case joinedToday([Item.ID])
    /// Items left Today; undoing puts each back after its former predecessor there.
    case leftToday([Place])
    /// Items were renamed; undoing gives them these titles back.
    case retitled([Item.ID: String])
    /// Items were completed or reopened; undoing gives them these `completedAt` back.
    case completion([Item.ID: Date?])
    /// A list was created; undoing deletes it and whatever items it has.
    case listCreated(ItemList.ID)
    /// A list was deleted with its items; undoing restores the list at its place, then the items.
    case listDeleted(ItemList, Place, [PlacedItem])
    /// A list was renamed; undoing gives it this name back.
    case listRenamed(ItemList.ID, String)
    /// Several changes made by one intent, in the order made; undoing undoes them last first.
    case all([Change])

    /// Where an entry is: its ordering and the entry just before it there (`nil` at the top).
    struct Place: Sendable {
        var id: OrderEntry.ID
        var scope: OrderScope
        var predecessor: OrderEntry.ID?
    }

    /// A deleted item and where it was: in its list, and in Today when it was there.
    struct PlacedItem: Sendable {
        var item: Item
        var place: Place
        var todayPlace: Place?
    }

    // MARK: Recording

    /// The places of `entries` now, in `scope`, in an order in which they can be restored:
    /// in order, so that each predecessor is in place before its successor.
    static func places(of entries: [OrderEntry], in scope: OrderScope, transaction: any ItemReading) throws -> [Place] {
        try entries.sorted { $0.key < $1.key }.map { try place(of: $0, in: scope, transaction: transaction) }
    }

    /// The places in their lists of `items`, which may belong to several lists.
    static func listPlaces(of items: [Item], in transaction: any ItemReading) throws -> [Place] {
        try items.sorted { ($0.listID, $0.orderKey) < ($1.listID, $1.orderKey) }.map { item in
            try place(of: OrderEntry(id: item.id.entryID, sortIndex: item.sortIndex, isOpen: !item.isCompleted), in: .items(item.listID), transaction: transaction)
        }
    }

    /// The places in Today of those of `items` that are in Today.
    static func todayPlaces(of items: [Item], in transaction: any ItemReading) throws -> [Place] {
        try places(of: items.compactMap { $0.entry(in: .today) }, in: .today, transaction: transaction)
    }

    /// The items with where they are now, in an order in which they can be restored.
    static func placedItems(_ items: [Item], in transaction: any ItemReading) throws -> [PlacedItem] {
        let todayPlaces = Dictionary(uniqueKeysWithValues: try todayPlaces(of: items, in: transaction).map { ($0.id, $0) })
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id.entryID, $0) })
        return try listPlaces(of: items, in: transaction).compactMap { place in
            byID[place.id].map { PlacedItem(item: $0, place: place, todayPlace: todayPlaces[place.id]) }
        }
    }

    static func place(of entry: OrderEntry, in scope: OrderScope, transaction: any ItemReading) throws -> Place {
        Place(id: entry.id, scope: scope, predecessor: try transaction.entries(in: scope, before: entry.key, limit: 1).first?.id)
    }

    // MARK: Applying

    /// Applies the change in the transaction of `context` and returns its inverse.
    ///
    /// - Parameter action: The title of the step, for error messages.
    /// - Throws: ``IntentError/historyConflict(action:reason:)`` when the store changed outside
    ///   the session so that the change no longer fits.
    func apply(in context: IntentContext, action: String) throws -> Change {
        try Application(context: context, action: action).apply(self)
    }
}

/// One change being applied: the transaction, and how to report a conflict.
private struct Application {
    let context: IntentContext
    let transaction: any ItemWriting
    let action: String

    init(context: IntentContext, action: String) throws {
        self.context = context
        self.transaction = try context.writing(action)
        self.action = action
    }

    var ordering: OrderingService { context.ordering }

    func conflict(_ reason: String) -> IntentError {
        IntentError.historyConflict(action: action, reason: reason)
    }

    func existing(_ id: Item.ID) throws -> Item {
        guard let item = try transaction.item(id: id) else { throw conflict("item \(id) no longer exists.") }
        return item
    }

    func apply(_ change: Change) throws -> Change {
        switch change {
        case .inserted(let ids):
            let placed = try Change.placedItems(try ids.map(existing), in: transaction)
            for entry in placed { try transaction.deleteItem(id: entry.item.id) }
            context.log(.deleteItems(ids: ids))
            return .deleted(placed)

        case .deleted(let placed):
            try restore(placed)
            try context.logRestored(items: placed.map(\.item.id))
            return .inserted(placed.map(\.item.id))

        case .moved(let places):
            let current = try places.map { place in
                guard let current = try currentEntry(place.id, like: place.scope) else { throw conflict(missing(place)) }
                return current
            }
            let inverse = try current.sorted { $0.entry.key < $1.entry.key }.map {
                try Change.place(of: $0.entry, in: $0.scope, transaction: transaction)
            }
            try putBack(places, logging: true)
            return .moved(inverse)

        case .joinedToday(let ids):
            let items = try ids.map(existing)
            let inverse = try Change.todayPlaces(of: items, in: transaction)
            try transaction.removeFromToday(ids, updatedAt: context.now())
            context.log(.removeFromToday(ids: ids))
            return .leftToday(inverse)

        case .leftToday(let places):
            for place in places { _ = try existing(Item.ID(entry: place.id)) }
            try putBack(places, logging: true, joiningToday: true)
            return .joinedToday(places.map { Item.ID(entry: $0.id) })

        case .retitled(let titles):
            for (id, title) in titles.sorted(by: { $0.key < $1.key }) { context.log(.editItem(id: id, title: title, notes: nil)) }
            return .retitled(try set(\.title, to: titles))

        case .completion(let stamps):
            let reopened = stamps.filter { $0.value == nil }.keys.sorted()
            if !reopened.isEmpty { context.log(.reopenItems(ids: reopened)) }
            for (moment, group) in Dictionary(grouping: stamps.compactMap { id, date in date.map { (id, $0) } }, by: \.1).sorted(by: { $0.key < $1.key }) {
                context.log(.completeItems(ids: group.map(\.0).sorted(), at: moment))
            }
            return .completion(try set(\.completedAt, to: stamps))

        case .listCreated(let id):
            guard let list = try transaction.list(id: id) else { throw conflict("its list no longer exists.") }
            guard try transaction.defaultListID() != id else { throw conflict("'\(list.name)' has become the default list, which is not deleted.") }
            let place = try Change.place(of: list.entry, in: .lists, transaction: transaction)
            let items = try Change.placedItems(try transaction.items(in: id, visibility: .all, offset: 0, limit: .max), in: transaction)
            try transaction.deleteList(id: id)
            context.log(.deleteList(id: id))
            return .listDeleted(list, place, items)

        case .listDeleted(let list, let place, let items):
            guard try transaction.list(id: list.id) == nil else { throw conflict("the list '\(list.name)' exists again.") }
            try ordering.add(list, at: try placement(after: place).map { ItemList.ID(entry: $0) }, in: transaction)
            try restore(items)
            try context.logRestored(lists: [list.id], items: items.map(\.item.id))
            return .listCreated(list.id)

        case .listRenamed(let id, let name):
            guard var list = try transaction.list(id: id) else { throw conflict("its list no longer exists.") }
            let inverse = Change.listRenamed(id, list.name)
            list.name = name
            try transaction.update(list)
            context.log(.renameList(id: id, name: name))
            return inverse

        case .all(let changes):
            return .all(try changes.reversed().map(apply))
        }
    }

    /// Why the entry of a place cannot be put back.
    private func missing(_ place: Change.Place) -> String {
        switch place.scope {
        case .lists: "list \(ItemList.ID(entry: place.id)) no longer exists."
        case .items: "item \(Item.ID(entry: place.id)) no longer exists."
        case .today: "item \(Item.ID(entry: place.id)) is no longer in Today."
        }
    }

    /// The entry of an item or list in the ordering a place was recorded in: for an item
    /// recorded in a list, its entry in whatever list it is in now.
    private func currentEntry(_ id: OrderEntry.ID, like scope: OrderScope) throws -> (entry: OrderEntry, scope: OrderScope)? {
        switch scope {
        case .lists:
            return try transaction.list(id: ItemList.ID(entry: id)).map { ($0.entry, .lists) }
        case .today:
            return try transaction.entry(id: id, in: .today).map { ($0, .today) }
        case .items:
            guard let item = try transaction.item(id: Item.ID(entry: id)) else { return nil }
            let current = OrderScope.items(item.listID)
            return item.entry(in: current).map { ($0, current) }
        }
    }

    /// Puts entries back at their places, a run of neighbours at a time.
    ///
    /// - Parameters:
    ///   - logging: Whether to log the moves for sync; a restore logs what it restores whole.
    ///   - joiningToday: Whether items join Today rather than move in it.
    private func putBack(_ places: [Change.Place], logging: Bool = false, joiningToday: Bool = false) throws {
        for run in places.chunked(by: { $1.scope == $0.scope && $1.predecessor == $0.id }) {
            let report = try ordering.place(run.map(\.id), at: try placement(after: run[0]), in: run[0].scope, visibility: .all, in: transaction)
            if logging { try context.logPlacement(report, in: run[0].scope, joiningToday: joiningToday) }
        }
    }

    /// Adds deleted items back, each after its predecessor in its list, then in Today.
    private func restore(_ placed: [Change.PlacedItem]) throws {
        for entry in placed where try transaction.item(id: entry.item.id) != nil {
            throw conflict("item \(entry.item.id) exists again.")
        }
        for entry in placed {
            var item = entry.item
            item.todayIndex = nil
            try ordering.add(item, at: try placement(after: entry.place).map { Item.ID(entry: $0) }, visibility: .all, in: transaction)
        }
        // In their old order in Today, so that each predecessor is back before its successor.
        let todayPlaces = placed.compactMap { entry -> (key: OrderKey, place: Change.Place)? in
            guard let place = entry.todayPlace, let key = entry.item.entry(in: .today)?.key else { return nil }
            return (key, place)
        }
        try putBack(todayPlaces.sorted { $0.key < $1.key }.map(\.place))
    }

    /// Directly after a place's predecessor, or at the top when there is none.
    ///
    /// - Throws: ``IntentError/historyConflict(action:reason:)`` when the place's list or its
    ///   predecessor is gone.
    private func placement(after place: Change.Place) throws -> Placement<OrderEntry.ID> {
        var name = place.scope == .today ? "Today" : "the order of the lists"
        if case .items(let id) = place.scope {
            guard let list = try transaction.list(id: id) else { throw conflict("its list no longer exists.") }
            name = "'\(list.name)'"
        }
        guard let predecessor = place.predecessor else { return .top }
        guard try transaction.entry(id: predecessor, in: place.scope) != nil else {
            throw conflict("what was before it (\(predecessor)) is no longer in \(name).")
        }
        return .after(predecessor)
    }

    /// Gives each item one field's value, stamps it, and returns the values it had.
    private func set<Value>(_ field: WritableKeyPath<Item, Value>, to values: [Item.ID: Value]) throws -> [Item.ID: Value] {
        var previous: [Item.ID: Value] = [:]
        let stamp = context.now()
        for (id, value) in values {
            var item = try existing(id)
            previous[id] = item[keyPath: field]
            item[keyPath: field] = value
            item.updatedAt = stamp
            try transaction.update(item)
        }
        return previous
    }
}
