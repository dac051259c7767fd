public import ArrangeModel
import ArrangeChanges
import ArrangeOrdering
public import ArrangeStore
public import Foundation

/// What an intent works with while it runs: one transaction of the store, and the environment.
///
/// An environment makes one context for each intent it runs and throws it away when the
/// transaction ends. The context caches the lists it reads, which stay valid only while that
/// transaction lasts, and collects what the history should record once the transaction commits.
///
/// ## An app's own intents
///
/// An app writes intents of its own by composing Arrange's: its ``ArrangeIntent/run(in:)``
/// reads through ``reading``, ``item(_:)`` and ``list(_:)``, and changes the store only by
/// running Arrange's intents in the same context. Every change is then recorded in one step of
/// the history, which undoes them all, and logged for sync; nothing else of the context is
/// offered, since a write made around the intents would be neither.
///
/// ```swift
/// struct DuplicateItem: ArrangeIntent {
///     static let title = "Duplicate Item"
///     var item: Item.ID
///
///     func run(in context: IntentContext) throws -> PlacementResult {
///         let original = try context.item(item)
///         return try AddItem(title: original.title, list: original.listID, placement: .after(original.id), notes: original.notes)
///             .run(in: context)
///     }
/// }
/// ```
public final class IntentContext {
    /// The transaction, for reading.
    let transaction: any ItemReading
    /// The transaction, for writing; `nil` in a read transaction.
    private let writer: (any ItemWriting)?
    let environment: IntentEnvironment
    /// Where the changes are logged as they are recorded, when the environment syncs.
    private let journal: ChangeJournal?
    /// The lists the store shares with other people.
    private let sharedLists: Set<ItemList.ID>
    /// The records of the changes made, in the order made, for the history.
    private var records: [ChangeRecord] = []
    /// The step of the history this transaction undid (`back`) or redid, if it did.
    private var stepped: (step: UndoStep, back: Bool)?
    private var listsByID: [ItemList.ID: ItemList] = [:]
    /// Each tag's place in the tags' order (depth first, by hand), read once an intent describes
    /// something that carries tags.
    private var tagRanks: [Tag.ID: Int]?

    /// A context in a read transaction.
    init(reading transaction: any ItemReading, environment: IntentEnvironment) {
        self.transaction = transaction
        self.writer = nil
        self.journal = nil
        self.sharedLists = []
        self.environment = environment
    }

    /// A context in a write transaction, whose changes go to `journal` when the environment
    /// syncs, held to the rules of the lists the store shares (``ShareGuard``).
    init(writing transaction: any ItemWriting, journal: ChangeJournal?, shares: [ListShare] = [], environment: IntentEnvironment) {
        let journaled = journal?.transaction ?? transaction
        let writer = shares.isEmpty ? journaled : ShareGuard(journaled, shares: shares)
        self.transaction = writer
        self.writer = writer
        self.journal = journal
        self.sharedLists = Set(shares.map(\.list))
        self.environment = environment
    }

    /// Whether `item` is in a list shared with other people, whose dates are every member's:
    /// the person's own Today then goes by their mark (`Item.todayMark`).
    func isShared(_ item: Item) -> Bool {
        sharedLists.contains(item.listID)
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

    /// The store as the intent's transaction sees it, for reading: what it reads includes what
    /// the intents run in this context so far changed.
    public var reading: any ItemReading { transaction }

    /// The time to stamp on what this intent changes: the environment's clock.
    public func now() -> Date { environment.clock() }

    /// The day it is now where the person is: ``now()`` in the environment's time zone.
    public func today() -> Day { Day(now(), in: environment.timeZone) }

    // MARK: Recording

    /// Whether the environment keeps a history, so that an intent should work out how to undo
    /// itself. Intents skip the reads that undoing needs when it does not.
    var recordsHistory: Bool { environment.historyLimit > 0 }

    /// Records a change the intent just made, once: the history keeps it to take it back, and
    /// the journal, when the environment syncs, logs it.
    ///
    /// Record each change as soon as it is made, before the next: the log reads the store as
    /// the change left it.
    ///
    /// - Parameter inHistory: Whether the change is part of the intent's step of the history;
    ///   `false` for what the intent does on the side, such as creating the default list.
    func record(_ change: ChangeRecord, inHistory: Bool = true) throws {
        if recordsHistory, inHistory, change.isUndoable { records.append(change) }
        try journal?.record(change)
    }

    /// Makes a change as every replica makes it (``ChangeKind/apply(in:)``), and records it:
    /// the history keeps its inverse, read before it applies, and the journal, when the
    /// environment syncs, logs it.
    ///
    /// An intent checks what it is asked first, and throws for what the change would let pass,
    /// such as an unknown item; the change then does exactly what the intent means. What the
    /// store holds already of the change (`ReversibleChange.pending(in:)`) is neither applied
    /// nor recorded.
    ///
    /// - Parameters:
    ///   - action: The title of the intent, for the error of a read-only one.
    ///   - stamp: The moment to stamp on what the change writes: ``now()`` unless the intent
    ///     read it already for the change itself, as a completion does.
    ///   - inHistory: Whether the change is part of the intent's step of the history; `false`
    ///     for what happens on the side, such as the to-dos a day makes.
    func apply(_ change: any ReversibleChange, action: String, at stamp: Date? = nil, inHistory: Bool = true) throws {
        let transaction = try writing(action)
        guard let change = try change.pending(in: transaction) else { return }
        let inverse = recordsHistory ? try change.inverse(before: transaction) : []
        try change.apply(in: ChangeContext(transaction, at: stamp ?? now(), ordering: ordering))
        // The lists and tags read before may have changed.
        (listsByID, tagRanks) = ([:], nil)
        try record(.applied(change, inverse: inverse), inHistory: inHistory)
    }

    /// Records a change the intent made itself through the ordering service, at a place of its
    /// choosing (an offset, an anchor) with keys of its own: a creation, whose inverse, its
    /// deletion, reads nothing of the store.
    ///
    /// - Parameter inHistory: Whether the change is part of the intent's step of the history.
    func record(made change: any ReversibleChange, inHistory: Bool = true) throws {
        try record(.applied(change, inverse: recordsHistory ? try change.inverse(before: transaction) : []), inHistory: inHistory)
    }

    /// Throws when another list than `excluded`, or another area, has `name`, ignoring case: a
    /// change of a name lets a merge number it, where an intent refuses it.
    ///
    /// - Throws: `StoreError.validation` with `TitleError.duplicateListName` or `duplicateAreaName`.
    func checkNameIsFree(_ name: String, for subject: NamedSubject) throws {
        let key = ItemList.nameKey(name)
        switch subject {
        case .list(let excluded):
            if let other = try transaction.lists().first(where: { $0.id != excluded && ItemList.nameKey($0.name) == key }) {
                throw StoreError.validation(.duplicateListName(other.name))
            }
        case .area(let excluded):
            if let other = try transaction.areas().first(where: { $0.id != excluded && ItemList.nameKey($0.name) == key }) {
                throw StoreError.validation(.duplicateAreaName(other.name))
            }
        case .tag(let excluded):
            if let other = try transaction.tags().first(where: { $0.id != excluded && Tag.nameKey($0.name) == key }) {
                throw StoreError.validation(.duplicateTagName(other.name))
            }
        }
    }

    /// What has a name no other of its kind may share, for ``checkNameIsFree(_:for:)``.
    enum NamedSubject {
        case list(ItemList.ID)
        case area(Area.ID)
        /// A tag, or a new one (`nil`).
        case tag(Tag.ID?)
    }

    /// Records where a placement put its entries in an ordering, unless it wrote nothing.
    ///
    /// - Parameters:
    ///   - report: The placement's report: its entries with their keys now.
    ///   - joining: In Today, the items that were not in it before.
    ///   - from: Where the entries were, when the history is kept.
    func recordPlacement(_ report: OrderingReport, in scope: OrderScope, joining: [Item.ID] = [], from: [ChangeRecord.Place]) throws {
        guard report.rowsWritten > 0 else { return }
        let inverse: [any ReversibleChange] = recordsHistory
            ? (joining.isEmpty ? [] : [SyncChange.removal(fromToday: joining)]) + (from.isEmpty ? [] : [EntriesPutBack(from)]) : []
        try record(.placed(ChangeRecord.Run(report, in: scope), joining: joining, inverse: inverse))
    }

    /// What the history records once the transaction commits.
    var historyEffect: HistoryEffect? {
        if let stepped { return .stepped(stepped.step, back: stepped.back, inverse: records) }
        return records.isEmpty ? nil : .record(records)
    }

    /// Undoes (`back`) or redoes the next step of the history in this transaction.
    ///
    /// - Parameter expected: The step the caller means; `nil` for whichever is next.
    /// - Throws: ``IntentError/nothingToUndo`` or ``IntentError/nothingToRedo`` when there is none;
    ///   ``IntentError/historyConflict(action:reason:)`` when the next step is not the one
    ///   expected, or the store changed so that it no longer fits.
    func stepThroughHistory(back: Bool, expecting expected: UndoStep.ID? = nil) throws -> HistoryResult {
        guard let step = environment.nextStep(back: back) else { throw back ? IntentError.nothingToUndo : IntentError.nothingToRedo }
        if let expected, step.id != expected {
            let stack = back ? environment.undoSteps : environment.redoSteps
            guard let meant = stack.first(where: { $0.id == expected }) else {
                throw IntentError.historyConflict(action: step.actionName, reason: .notInHistory)
            }
            throw IntentError.historyConflict(
                action: meant.actionName, reason: back ? .newerChangeFirst : .undoneChangeFirst)
        }
        let action = step.actionName
        for change in step.changes.reversed() { try change.takeBack(in: self, action: action) }
        stepped = (step, back)
        let (undoCount, redoCount) = (environment.undoCount, environment.redoCount)
        return HistoryResult(
            action: action,
            undoCount: back ? undoCount - 1 : undoCount + 1,
            redoCount: back ? redoCount + 1 : redoCount - 1)
    }

    // MARK: Lists and items

    /// The list with this id, or the default list for `nil`.
    ///
    /// - Throws: ``IntentError/unknownList(_:)``; ``IntentError/noDefaultList`` when `id` is
    ///   `nil` in a read transaction of a store that has no default list yet (a write creates it).
    public func list(_ id: ItemList.ID?) throws -> ItemList {
        guard let id else { return try defaultList() }
        if let list = listsByID[id] { return list }
        guard let list = try transaction.list(id: id) else { throw IntentError.unknownList(id) }
        listsByID[id] = list
        return list
    }

    /// The area with this id.
    ///
    /// - Throws: ``IntentError/unknownArea(_:)``.
    public func area(_ id: Area.ID) throws -> Area {
        guard let area = try transaction.area(id: id) else { throw IntentError.unknownArea(id) }
        return area
    }

    /// The tag with this id, or the tag it merged into.
    ///
    /// - Throws: ``IntentError/unknownTag(_:)``.
    public func tag(_ id: Tag.ID) throws -> Tag {
        guard let tag = try transaction.tag(id: id) else { throw IntentError.unknownTag(id) }
        return tag
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
            try record(made: SyncChange.creation(of: list, at: SyncPlace(report)), inHistory: false)
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
    public func item(_ id: Item.ID) throws -> Item {
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

    /// Throws unless the group's area exists.
    ///
    /// - Throws: ``IntentError/unknownArea(_:)``.
    func check(_ group: ListGroup) throws {
        if let area = group.area { _ = try self.area(area) }
    }

    /// Throws unless a placement of areas can be made: its anchor exists, its offset is not negative.
    ///
    /// - Throws: ``IntentError/unknownArea(_:)``, ``IntentError/negativeOffset(_:)``.
    func check(_ placement: AreaPlacement) throws {
        try check(placement, anchorExists: { _ = try area($0) })
    }

    /// Throws unless a placement of tags can be made: its anchor exists, its offset is not negative.
    ///
    /// - Throws: ``IntentError/unknownTag(_:)``, ``IntentError/negativeOffset(_:)``.
    func check(_ placement: TagPlacement) throws {
        try check(placement, anchorExists: { _ = try tag($0) })
    }

    func check<Anchor>(_ placement: Placement<Anchor>, anchorExists: (Anchor) throws -> Void) throws {
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

    /// The item as intents return it, with its checklist.
    func summary(of item: Item, position: Int? = nil) throws -> ItemSummary {
        try summaries(of: [item], position: { _ in position })[0]
    }

    /// The items as intents return them, with their checklists, read in one go.
    ///
    /// - Parameter position: The place of each item, as the intent counts it; called once for
    ///   each item, in order.
    /// The items with these ids as they are now in the transaction, described.
    ///
    /// - Throws: ``IntentError/unknownItem(_:)``.
    func summaries(ofItems ids: [Item.ID]) throws -> [ItemSummary] {
        try summaries(of: try ids.map(item))
    }

    func summaries(of items: [Item], on day: Day? = nil, position: (Item) -> Int? = { _ in nil }) throws -> [ItemSummary] {
        let checklists = try transaction.checklists(of: items.map(\.id))
        let day = day ?? today()
        var rules: [Series.ID: RepeatRule?] = [:]
        return try items.map { item in
            // Most items have no checklist: no lookup, which hashes the id, when none has.
            let checklist = checklists.isEmpty ? [] : checklists[item.id] ?? []
            let list = try list(item.listID)
            var summary = ItemSummary(item, listName: list.name, position: position(item), checklist: checklist, today: day, tags: try ordered(item.tags))
            summary.trashedAt = try trashedAt(of: item, in: list)
            if let series = item.series {
                if rules[series] == nil { rules[series] = .some(try transaction.series(id: series)?.rule) }
                summary.repeat = rules[series] ?? nil
                if summary.repeat == nil { summary.series = nil }
            }
            return summary
        }
    }

    /// When `item` went to the Trash, itself, with its heading or with its list (`list`), or
    /// `nil` while it is out of it.
    func trashedAt(of item: Item, in list: ItemList) throws -> Date? {
        try item.trashedAt ?? item.heading.flatMap { try transaction.heading(id: $0)?.trashedAt } ?? list.trashedAt
    }

    func summary(of list: ItemList) throws -> ListSummary {
        var summary = try transaction.summary(of: list)
        summary.tags = try ordered(list.tags)
        return summary
    }

    /// `tags` in the tags' order: depth first, each group by hand, as ``GetTags`` lists them.
    func ordered(_ tags: Set<Tag.ID>) throws -> [Tag.ID] {
        guard tags.count > 1 else { return Array(tags) }
        if tagRanks == nil { tagRanks = Dictionary(try transaction.tags().enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first }) }
        let ranks = tagRanks ?? [:]
        return tags.sorted { (ranks[$0] ?? .max, $0) < (ranks[$1] ?? .max, $1) }
    }

    /// Every list, in order, and the rows an ordering of the lists wrote.
    func listResult(of report: OrderingReport) throws -> ListPlacementResult {
        ListPlacementResult(
            lists: try transaction.listSummaries(),
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
