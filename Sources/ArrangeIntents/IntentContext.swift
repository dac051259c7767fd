import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import ArrangeSync
import Foundation

/// What an intent works with while it runs: one transaction of the store, and the environment.
///
/// An environment makes one context for each intent it runs and throws it away when the
/// transaction ends. The context caches the lists it reads, which stay valid only while that
/// transaction lasts, and collects what the history should record once the transaction commits.
public final class IntentContext {
    /// The transaction, for reading.
    let transaction: any ItemReading
    /// The transaction, for writing; `nil` in a read transaction.
    private let writer: (any ItemWriting)?
    let environment: IntentEnvironment
    /// What the history records once the transaction commits.
    private(set) var historyEffect: HistoryEffect?
    private var listsByID: [ItemList.ID: ItemList] = [:]
    /// What the intent logs for sync, when the environment syncs.
    private(set) var loggedChanges = LocalChanges.changes([])

    /// A context in a read transaction.
    init(reading transaction: any ItemReading, environment: IntentEnvironment) {
        self.transaction = transaction
        self.writer = nil
        self.environment = environment
    }

    /// A context in a write transaction.
    init(writing transaction: any ItemWriting, environment: IntentEnvironment) {
        self.transaction = transaction
        self.writer = transaction
        self.environment = environment
    }

    /// The transaction, for an intent that writes.
    ///
    /// - Throws: ``IntentError/readOnlyIntent(_:)`` when an intent that says it only reads tries to write.
    func writing(_ action: String) throws -> any ItemWriting {
        guard let writer else { throw IntentError.readOnlyIntent(action) }
        return writer
    }

    /// The ordering service, which places items in this transaction.
    var ordering: OrderingService { environment.ordering }

    /// The time to stamp on what this intent changes.
    func now() -> Date { environment.clock() }

    // MARK: History

    /// Whether the environment keeps a history, so that an intent should work out how to undo
    /// itself. Intents skip the reads that undoing needs when it does not.
    var recordsHistory: Bool { environment.historyLimit > 0 }

    /// Records how to undo what the intent did, once the transaction commits.
    func record(_ change: Change) {
        guard recordsHistory else { return }
        historyEffect = .record(change)
    }

    /// Undoes (`back`) or redoes the next step of the history in this transaction.
    ///
    /// - Throws: ``IntentError/nothingToUndo`` or ``IntentError/nothingToRedo`` when there is none;
    ///   ``IntentError/historyConflict(action:reason:)`` when the store changed so that it no longer fits.
    func stepThroughHistory(back: Bool) throws -> HistoryResult {
        guard let step = environment.nextStep(back: back) else { throw back ? IntentError.nothingToUndo : IntentError.nothingToRedo }
        let inverse = try step.change.apply(in: self, action: step.actionName)
        historyEffect = .stepped(step, back: back, inverse: inverse)
        let (undoCount, redoCount) = (environment.undoCount, environment.redoCount)
        return HistoryResult(
            action: step.actionName,
            undoCount: back ? undoCount - 1 : undoCount + 1,
            redoCount: back ? redoCount + 1 : redoCount - 1)
    }

    // MARK: Sync

    /// Whether the environment logs changes for sync, so that an intent should say what it did.
    var logsChanges: Bool { environment.sync != nil }

    /// Logs a change the intent made, for sync.
    func log(_ change: @autoclosure () throws -> SyncChange) rethrows {
        guard logsChanges, case .changes(let changes) = loggedChanges else { return }
        loggedChanges = .changes(changes + [try change()])
    }

    /// Logs whatever the intent wrote, told by the rows it wrote: for an import, whose every row
    /// is meant as it ends.
    func logRowsWritten() {
        loggedChanges = .rowsWritten
    }

    /// Logs where a placement put its entries in an ordering, as the change that moves them
    /// there; a list's, or an item's in its list or in Today.
    ///
    /// - Parameters:
    ///   - report: The placement's report: its entries with their keys now.
    ///   - joiningToday: In Today, whether items joined it rather than moved in it.
    func logPlacement(_ report: OrderingReport, in scope: OrderScope, joiningToday: Bool = false) throws {
        guard logsChanges, report.rowsWritten > 0 else { return }
        let run = report.placed.sorted { $0.key < $1.key }
        let place = SyncPlace(report)
        let items = run.map { Item.ID(entry: $0.id) }
        switch scope {
        case .items(let list):
            log(.moveItems(ids: items, list: list, place: place))
        case .today:
            log(joiningToday ? .addToToday(ids: items, place: place) : .moveInToday(ids: items, place: place))
        case .lists:
            // One list at a time, each after the one before it.
            for (index, entry) in run.enumerated() {
                let after = index == 0 ? place.after : run[index - 1].id
                log(.moveList(id: ItemList.ID(entry: entry.id), place: SyncPlace(after: after, before: index + 1 < run.count ? run[index + 1].id : place.before)))
            }
        }
    }

    /// Logs a new item, at the place it was added.
    func logAdded(_ item: Item, report: OrderingReport) {
        guard logsChanges else { return }
        log(.addItem(id: item.id, list: item.listID, title: item.title, notes: item.notes, place: SyncPlace(report)))
    }

    /// Logs a new list, at the place it was created.
    func logCreated(_ list: ItemList, report: OrderingReport) {
        guard logsChanges else { return }
        log(.createList(id: list.id, name: list.name, place: SyncPlace(report)))
    }

    /// Logs lists and items put back as they were: the lists at their places, the items in
    /// their lists and in Today.
    func logRestored(lists: [ItemList.ID] = [], items: [Item.ID]) throws {
        guard logsChanges else { return }
        let changes = try SyncChange.changes(
            bringingLists: Dictionary(uniqueKeysWithValues: lists.map { ($0, nil) }),
            items: Dictionary(uniqueKeysWithValues: items.map { ($0, nil) }),
            upToDateIn: transaction)
        for change in changes { log(change) }
    }

    // MARK: Lists and items

    /// The list with this id, or the default list for `nil`.
    ///
    /// - Throws: ``IntentError/unknownList(_:)``; ``IntentError/noDefaultList`` when `id` is
    ///   `nil` in a read transaction of a store that has no default list yet (a write creates it).
    func list(_ id: ItemList.ID?) throws -> ItemList {
        guard let id else { return try defaultList() }
        if let list = listsByID[id] { return list }
        guard let list = try transaction.list(id: id) else { throw IntentError.unknownList(id) }
        listsByID[id] = list
        return list
    }

    /// The store's default list; in a write transaction it is created when the store has none.
    func defaultList() throws -> ItemList {
        if let id = try transaction.defaultListID(), let list = try transaction.list(id: id) {
            listsByID[id] = list
            return list
        }
        guard writer != nil else { throw IntentError.noDefaultList }
        return try makeDefaultList(named: nil)
    }

    /// Makes the list named `name` (else ``IntentEnvironment/defaultListName``) the store's
    /// default list, creating it when no list has that name.
    func makeDefaultList(named name: String?) throws -> ItemList {
        let transaction = try writing("Prepare the Default List")
        let name = try Title.validated(name ?? environment.defaultListName, as: .listName)
        let key = ItemList.nameKey(name)
        let list: ItemList
        if let named = try transaction.lists().first(where: { ItemList.nameKey($0.name) == key }) {
            list = named
        } else {
            // The first default list has the same id in every store, so that two stores that each
            // made one share it once they sync.
            let id = try transaction.list(id: ItemList.firstDefaultListID) == nil ? ItemList.firstDefaultListID : ItemList.ID(rawValue: environment.newID())
            let new = ItemList(id: id, name: name, createdAt: now())
            let report = try ordering.add(new, at: .bottom, in: transaction)
            list = try transaction.existingList(id: new.id)
            logCreated(list, report: report)
        }
        try transaction.setDefaultListID(list.id)
        listsByID[list.id] = list
        return list
    }

    /// The ordering an intent names, the items of the default list for `nil`, with the list
    /// whose items it is.
    ///
    /// - Throws: ``IntentError/unknownList(_:)``.
    func resolve(_ scope: OrderScope?) throws -> (OrderScope, ItemList?) {
        switch scope {
        case nil:
            let list = try defaultList()
            return (.items(list.id), list)
        case .items(let id)?:
            return (.items(id), try list(id))
        case let scope?:
            return (scope, nil)
        }
    }

    /// The item with this id.
    ///
    /// - Throws: ``IntentError/unknownItem(_:)``.
    func item(_ id: Item.ID) throws -> Item {
        guard let item = try transaction.item(id: id) else { throw IntentError.unknownItem(id) }
        return item
    }

    /// Throws unless a placement of items can be made: its anchor exists, its offset is not negative.
    ///
    /// - Throws: ``IntentError/unknownItem(_:)``, ``IntentError/negativeOffset(_:)``.
    func check(_ placement: ItemPlacement) throws {
        try check(placement, anchorExists: { _ = try item($0) })
    }

    /// Throws unless a placement of lists can be made: its anchor exists, its offset is not negative.
    ///
    /// - Throws: ``IntentError/unknownList(_:)``, ``IntentError/negativeOffset(_:)``.
    func check(_ placement: ListPlacement) throws {
        try check(placement, anchorExists: { _ = try list($0) })
    }

    private func check<Anchor>(_ placement: Placement<Anchor>, anchorExists: (Anchor) throws -> Void) throws {
        if let anchor = placement.anchor { try anchorExists(anchor) }
        if case .offset(let offset) = placement, offset < 0 { throw IntentError.negativeOffset(offset) }
    }

    /// The items with these ids, each once, in the order first named.
    ///
    /// - Throws: ``IntentError/noItemsNamed`` for no ids, ``IntentError/unknownItem(_:)``.
    func distinctItems(_ ids: [Item.ID]) throws -> [Item] {
        guard !ids.isEmpty else { throw IntentError.noItemsNamed }
        var seen = Set<Item.ID>()
        return try ids.filter { seen.insert($0).inserted }.map(item)
    }

    // MARK: Describing

    func summary(of item: Item, position: Int? = nil) throws -> ItemSummary {
        ItemSummary(item, listName: try list(item.listID).name, position: position)
    }

    func summary(of list: ItemList) throws -> ListSummary {
        ListSummary(
            list,
            openItems: try transaction.itemCount(in: list.id, visibility: .open),
            totalItems: try transaction.itemCount(in: list.id, visibility: .all))
    }

    /// Every list, in order, and the rows an ordering of the lists wrote.
    func listResult(of report: OrderingReport) throws -> ListPlacementResult {
        ListPlacementResult(
            lists: try transaction.lists().map { try summary(of: $0) },
            rowsWritten: report.rowsWritten,
            rowsRespread: report.rowsRespread)
    }

    /// The items an ordering placed, with the rows written.
    func result(of report: OrderingReport) throws -> PlacementResult {
        PlacementResult(
            items: try report.placed.map { try summary(of: try item(Item.ID(entry: $0.id))) },
            rowsWritten: report.rowsWritten,
            rowsRespread: report.rowsRespread)
    }
}
