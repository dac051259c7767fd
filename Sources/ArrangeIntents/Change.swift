import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

/// How to go back over one step of the history.
///
/// Applying a change returns its inverse: the change that goes forward again. So undo
/// applies a change from the undo stack and pushes the inverse onto the redo stack, and
/// redo does the same the other way.
///
/// Places are recorded as neighbours, never as raw `sortIndex` values: a later insert may
/// have re-spread the neighbours' keys, and putting an old key back could land the item in
/// the wrong place. An item goes back directly after the item that was before it, through
/// the ordering service, which picks a fresh key (and re-spreads if the gap is full).
enum Change: Sendable {
    /// Items were added; undoing deletes them.
    case inserted([Item.ID])
    /// Items were deleted; undoing puts each back, with its id, after its former predecessor.
    case deleted([PlacedItem])
    /// Items were moved; undoing moves each back after its former predecessor.
    case moved([Place])
    /// Items were renamed; undoing gives them these titles back.
    case retitled([Item.ID: String])
    /// Items were completed or reopened; undoing gives them these `completedAt` back.
    case completion([Item.ID: Date?])
    /// A list was created; undoing deletes it and whatever items it has.
    case listCreated(ItemList.ID)
    /// A list was deleted with its items; undoing restores both.
    case listDeleted(ItemList, [Item])
    /// A list was renamed; undoing gives it this name back.
    case listRenamed(ItemList.ID, String)

    /// Where an item is: its list and the item just before it (`nil` at the top).
    struct Place: Sendable {
        var id: Item.ID
        var list: ItemList.ID
        var predecessor: Item.ID?
    }

    /// A deleted item and where it was.
    struct PlacedItem: Sendable {
        var item: Item
        var predecessor: Item.ID?
    }

    /// The places of `items` now, in an order in which they can be restored: by list, then
    /// in display order, so that each predecessor is in place before its successor.
    static func places(of items: [Item], in transaction: any ItemReading) throws -> [Place] {
        try sortedForRestoring(items).map { item in
            Place(id: item.id, list: item.listID, predecessor: try predecessor(of: item, in: transaction))
        }
    }

    /// The items with their predecessors now, in an order in which they can be restored.
    static func placedItems(_ items: [Item], in transaction: any ItemReading) throws -> [PlacedItem] {
        try sortedForRestoring(items).map { item in
            PlacedItem(item: item, predecessor: try predecessor(of: item, in: transaction))
        }
    }

    private static func sortedForRestoring(_ items: [Item]) -> [Item] {
        items.sorted { ($0.listID, $0.orderKey) < ($1.listID, $1.orderKey) }
    }

    private static func predecessor(of item: Item, in transaction: any ItemReading) throws -> Item.ID? {
        try transaction.items(in: item.listID, before: item.orderKey, limit: 1).first?.id
    }

    /// Applies the change in the transaction of `context` and returns its inverse.
    ///
    /// - Parameter action: The title of the step, for error messages.
    /// - Throws: ``IntentError/historyConflict(action:reason:)`` when the store changed outside
    ///   the session so that the change no longer fits.
    func apply(in context: IntentContext, action: String) throws -> Change {
        let transaction = try context.writing(action)
        let ordering = context.ordering
        let conflict = { (reason: String) in IntentError.historyConflict(action: action, reason: reason) }
        let existing = { (id: Item.ID) throws -> Item in
            guard let item = try transaction.item(id: id) else { throw conflict("item \(id) no longer exists.") }
            return item
        }
        switch self {
        case .inserted(let ids):
            let placed = try Self.placedItems(try ids.map(existing), in: transaction)
            for entry in placed { try transaction.deleteItem(id: entry.item.id) }
            return .deleted(placed)

        case .deleted(let placed):
            for entry in placed {
                let placement = try Self.placement(after: entry.predecessor, in: entry.item.listID, transaction: transaction, conflict: conflict)
                try ordering.add(entry.item, at: placement, visibility: .all, in: transaction)
            }
            return .inserted(placed.map(\.item.id))

        case .moved(let places):
            let inverse = try Self.places(of: try places.map { try existing($0.id) }, in: transaction)
            for run in Self.runs(of: places) {
                let placement = try Self.placement(after: run[0].predecessor, in: run[0].list, transaction: transaction, conflict: conflict)
                try ordering.move(run.map(\.id), to: placement, into: run[0].list, visibility: .all, in: transaction)
            }
            return .moved(inverse)

        case .retitled(let titles):
            return .retitled(try Self.set(\.title, to: titles, in: transaction, at: context.now(), existing: existing))

        case .completion(let stamps):
            return .completion(try Self.set(\.completedAt, to: stamps, in: transaction, at: context.now(), existing: existing))

        case .listCreated(let id):
            guard let list = try transaction.list(id: id) else { throw conflict("its list no longer exists.") }
            guard try transaction.defaultListID() != id else { throw conflict("'\(list.name)' has become the default list, which is not deleted.") }
            let items = try transaction.items(in: id, visibility: .all, offset: 0, limit: .max)
            try transaction.deleteList(id: id)
            return .listDeleted(list, items)

        case .listDeleted(let list, let items):
            try transaction.insert(list)
            // The whole list comes back as it was, so its old keys are still in order.
            for item in items { try transaction.insert(item) }
            return .listCreated(list.id)

        case .listRenamed(let id, let name):
            guard var list = try transaction.list(id: id) else { throw conflict("its list no longer exists.") }
            let inverse = Change.listRenamed(id, list.name)
            list.name = name
            try transaction.update(list)
            return inverse
        }
    }

    /// Gives each item one field's value, stamps it, and returns the values it had.
    private static func set<Value>(
        _ field: WritableKeyPath<Item, Value>, to values: [Item.ID: Value], in transaction: any ItemWriting,
        at stamp: Date, existing: (Item.ID) throws -> Item
    ) throws -> [Item.ID: Value] {
        var previous: [Item.ID: Value] = [:]
        for (id, value) in values {
            var item = try existing(id)
            previous[id] = item[keyPath: field]
            item[keyPath: field] = value
            item.updatedAt = stamp
            try transaction.update(item)
        }
        return previous
    }

    /// Directly after `predecessor` in `list`, or at the top when there is none.
    private static func placement(
        after predecessor: Item.ID?, in list: ItemList.ID, transaction: any ItemReading, conflict: (String) -> IntentError
    ) throws -> Placement {
        guard let predecessor else { return .top }
        guard let anchor = try transaction.item(id: predecessor), anchor.listID == list else {
            throw conflict("the item that was before it (\(predecessor)) is no longer in its list.")
        }
        return .after(anchor.id)
    }

    /// Splits places into runs that go back together: each item of a run follows the one
    /// before it directly, so the run moves as one block after the first one's predecessor.
    private static func runs(of places: [Place]) -> [[Place]] {
        places.chunked { $1.list == $0.list && $1.predecessor == $0.id }
    }
}
