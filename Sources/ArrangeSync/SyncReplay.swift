public import ArrangeModel
import ArrangeOrdering
public import ArrangeStore
import Foundation

/// Rebuilds a store from a set of operations, the same on every replica: the deterministic
/// merge of sync.
///
/// Operations are applied once each (by id), in their total order (``SyncOperation/order``),
/// through the ordering service with jitter off, so that key choice and re-spread depend on
/// the operations alone. Two replicas that hold the same operations, however they arrived,
/// duplicated or not, end with the same lists, items, Today and keys.
///
/// The rules, applied in that order:
/// - The latest operation decides each field, an item's list and its place in each ordering.
/// - A deleted item stays deleted: the operations after its delete that touch it do nothing.
/// - A placement lands after its `after` neighbour if that is still there, else before its
///   `before` neighbour, else where the deleted `after` neighbour was (its tombstone), else at
///   the top.
/// - An item added to a list that is gone goes to the default list.
/// - A list created with a name another list has takes "Name (2)", "Name (3)"…, in order.
/// - The default list is one list with a fixed id (``defaultListID``), created by the first
///   operation that needs it, so that fresh replicas never end with two.
///
/// This step rebuilds from the whole set each time; replaying only what an out-of-order
/// operation changes is left for later.
public struct SyncReplay {
    /// The id every replica gives the default list.
    public static let defaultListID = ItemList.ID(rawValue: UUID(uuid: (0, 0, 0, 0, 0, 0, 0x80, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)))
    /// The default list's name, when an operation creates it.
    public static let defaultListName = "Inbox"

    /// Applies `operations` to an empty store and returns it.
    ///
    /// - Complexity: O(k log n) for k operations on n entries, plus re-spreads.
    public static func rebuild(from operations: [SyncOperation]) throws -> InMemoryItemRepository {
        let repository = InMemoryItemRepository()
        let ordering = try OrderingService(repository: repository, configuration: OrderingConfiguration(jitter: false), now: { Date(timeIntervalSince1970: 0) })
        var seen = Set<SyncOperation.ID>()
        let ordered = operations.filter { seen.insert($0.id).inserted }.sorted { $0.order < $1.order }
        try repository.write { transaction in
            var replay = Replay(transaction: transaction, ordering: ordering)
            for operation in ordered { try replay.apply(operation) }
        }
        return repository
    }
}

/// One rebuild in progress.
private struct Replay {
    let transaction: any ItemWriting
    let ordering: OrderingService
    /// Where deleted entries were: their ordering and key there, by id.
    var tombstones: [OrderEntry.ID: [(scope: OrderScope, key: OrderKey)]] = [:]
    /// Items deleted: nothing after the delete touches them.
    var deleted = Set<Item.ID>()

    init(transaction: any ItemWriting, ordering: OrderingService) {
        self.transaction = transaction
        self.ordering = ordering
    }

    mutating func apply(_ operation: SyncOperation) throws {
        let stamp = Date(timeIntervalSince1970: Double(operation.clock.milliseconds) / 1_000)
        switch operation.change {
        case .createList(let id, let name, let place):
            guard try transaction.list(id: id) == nil else { return }
            let list = ItemList(id: id, name: try freeName(Title.sanitized(name, placeholder: "Untitled")), createdAt: stamp)
            try ordering.add(list, at: try placement(place, in: .lists).map { ItemList.ID(entry: $0) }, in: transaction)
        case .renameList(let id, let name):
            guard var list = try transaction.list(id: id) else { return }
            list.name = try freeName(Title.sanitized(name, placeholder: "Untitled"), except: id)
            try transaction.update(list)
        case .moveList(let id, let place):
            guard try transaction.list(id: id) != nil else { return }
            try ordering.place([id.entryID], at: try placement(place, in: .lists, moving: [id.entryID]), in: .lists, visibility: .all, in: transaction)
        case .deleteList(let id):
            guard id != SyncReplay.defaultListID, let list = try transaction.list(id: id) else { return }
            try bury(list.entry, in: .lists)
            for item in try transaction.items(in: id, visibility: .all, offset: 0, limit: .max) {
                try bury(item)
                deleted.insert(item.id)
            }
            try transaction.deleteList(id: id)
        case .addItem(let id, let list, let title, let notes, let place):
            guard try transaction.item(id: id) == nil, !deleted.contains(id) else { return }
            let target = try transaction.list(id: list) != nil ? list : try defaultList()
            let item = Item(id: id, listID: target, title: Title.sanitized(title, placeholder: "Untitled"), notes: notes, sortIndex: 0, createdAt: stamp)
            try ordering.add(item, at: try placement(place, in: .items(target)).map { Item.ID(entry: $0) }, visibility: .all, in: transaction)
        case .editItem(let id, let title, let notes):
            guard var item = try live(id) else { return }
            if let title { item.title = Title.sanitized(title, placeholder: "Untitled") }
            if let notes { item.notes = notes }
            item.updatedAt = stamp
            try transaction.update(item)
        case .completeItems(let ids, let at):
            for var item in try ids.compactMap(live) where item.completedAt == nil {
                item.completedAt = at
                try transaction.update(item)
            }
        case .reopenItems(let ids):
            for var item in try ids.compactMap(live) where item.completedAt != nil {
                item.completedAt = nil
                try transaction.update(item)
            }
        case .deleteItems(let ids):
            for item in try ids.compactMap(live) {
                try bury(item)
                try transaction.deleteItem(id: item.id)
                deleted.insert(item.id)
            }
        case .moveItems(let ids, let list, let place):
            let items = try ids.compactMap(live)
            guard !items.isEmpty else { return }
            let target = try transaction.list(id: list) != nil ? list : try defaultList()
            let moving = items.map(\.id.entryID)
            try ordering.place(moving, at: try placement(place, in: .items(target), moving: moving), in: .items(target), visibility: .all, in: transaction)
        case .addToToday(let ids, let place), .moveInToday(let ids, let place):
            let moving = try ids.compactMap(live).map(\.id.entryID)
            guard !moving.isEmpty else { return }
            try ordering.place(moving, at: try placement(place, in: .today, moving: moving), in: .today, visibility: .all, in: transaction)
        case .removeFromToday(let ids):
            let items = try ids.compactMap(live).filter(\.isInToday)
            try transaction.removeFromToday(items.map(\.id), updatedAt: stamp)
        }
    }

    /// The item, unless it was deleted or never added.
    func live(_ id: Item.ID) throws -> Item? {
        deleted.contains(id) ? nil : try transaction.item(id: id)
    }

    /// Where a recorded place lands now, by the rules of ``SyncReplay``.
    func placement(_ place: SyncPlace, in scope: OrderScope, moving: [OrderEntry.ID] = []) throws -> Placement<OrderEntry.ID> {
        let excluded = Set(moving)
        if let after = place.after, !excluded.contains(after), try transaction.entry(id: after, in: scope) != nil { return .after(after) }
        if let before = place.before, !excluded.contains(before), try transaction.entry(id: before, in: scope) != nil { return .before(before) }
        if let after = place.after, let grave = tombstones[after]?.last(where: { $0.scope == scope }) {
            let next = try transaction.entries(in: scope, after: grave.key, limit: excluded.count + 1).first { !excluded.contains($0.id) }
            return next.map { .before($0.id) } ?? .bottom
        }
        return place.after == nil ? .top : .bottom
    }

    /// Remembers where an item was, in its list and in Today.
    mutating func bury(_ item: Item) throws {
        for scope in [OrderScope.items(item.listID), .today] {
            if let entry = item.entry(in: scope) { try bury(entry, in: scope) }
        }
    }

    mutating func bury(_ entry: OrderEntry, in scope: OrderScope) throws {
        tombstones[entry.id, default: []].append((scope, entry.key))
    }

    /// The default list, created at the top the first time an operation needs it.
    func defaultList() throws -> ItemList.ID {
        if try transaction.list(id: SyncReplay.defaultListID) == nil {
            let list = ItemList(id: SyncReplay.defaultListID, name: try freeName(SyncReplay.defaultListName), createdAt: Date(timeIntervalSince1970: 0))
            try ordering.add(list, at: .top, in: transaction)
            try transaction.setDefaultListID(list.id)
        }
        return SyncReplay.defaultListID
    }

    /// `name`, or "name (2)", "name (3)"… when another list has it, ignoring case.
    func freeName(_ name: String, except excluded: ItemList.ID? = nil) throws -> String {
        let taken = Set(try transaction.lists().filter { $0.id != excluded }.map { ItemList.nameKey($0.name) })
        var candidate = name
        var number = 2
        while taken.contains(ItemList.nameKey(candidate)) {
            candidate = "\(name) (\(number))"
            number += 1
        }
        return candidate
    }
}
