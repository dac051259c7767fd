import ArrangeModel
import Foundation
import HashTreeCollections

/// An ``ItemRepository`` that keeps everything in memory.
///
/// It is a real backend, not a mock: it passes the same conformance suite as the SQLite
/// backend, rollback included, and the tests of the layers above run on it.
///
/// Each ordering (each list's items under no heading and each heading's, each list's headings,
/// the lists of each area and of none, Today, each checklist, the areas) lives in a persistent treap, and the items in a persistent hash
/// map, so a snapshot for a reader or a transaction costs O(1), and an insert, a move
/// or a neighbour lookup costs O(log n). A write holds a lock for its whole body, so
/// writes from several tasks run one at a time, as in SQLite. The `async` twins run their
/// bodies on serial dispatch queues of the repository's own, one for reads and one for
/// writes, so a write waiting for the lock never blocks a thread of the cooperative pool.
///
/// Observations (``ItemRepository/observe(_:)`` and those built on it) wake at once after
/// each commit that changes what they read: only this repository can change its state. The
/// observations of a list's items and of Today apply each commit's changes to the items they
/// hold, as the commit signals, and read again only when a change is not told whole.
public final class InMemoryItemRepository: ItemRepository {
    private let state = Locked(InMemoryState())
    /// Wakes the observations after each commit.
    private let commits = CommitNotifier()
    /// Where the async reads run.
    private let readQueue = DispatchQueueWorker(label: "InMemoryItemRepository.read")
    /// Where the async writes run, and wait for the lock.
    private let writeQueue = DispatchQueueWorker(label: "InMemoryItemRepository.write")

    /// Creates an empty repository.
    public init() {}

    public func read<Result>(_ body: (any ItemReading) throws -> Result) throws -> Result {
        let snapshot = state.withLock { $0 }
        return try body(InMemoryTransaction(state: snapshot))
    }

    public func write<Result>(_ body: (any ItemWriting) throws -> Result) throws -> Result {
        try state.withLock { committed in
            let transaction = InMemoryTransaction(state: committed)
            let result = try body(transaction)
            try transaction.ensureChangesAreLogged()
            committed = transaction.state
            // What the write did to the operation log is not told apart: any write may have.
            var changes = transaction.changes
            changes.noteOtherRowsChanged()
            // Under the lock, so that the observations that apply the changes get them in the
            // order of the commits.
            commits.signal(changes)
            return result
        }
    }

    public func read<R: Sendable>(_ body: @Sendable (any ItemReading) throws -> R) async throws -> R {
        try await readQueue.run { try self.read(body) }
    }

    public func write<R: Sendable>(_ body: @Sendable (any ItemWriting) throws -> R) async throws -> R {
        try await writeQueue.run { try self.write(body) }
    }

    public func values<Value: Equatable & Sendable>(of observation: StoreObservation<Value>) -> AsyncThrowingStream<Value, any Error> {
        values(of: observation, through: commits)
    }
}

/// Everything an ``InMemoryItemRepository`` holds; a value, cheap to copy.
struct InMemoryState: Sendable {
    var lists = TreeDictionary<ItemList.ID, ItemList>()
    /// Each list's id by its name as names compare (``ItemList/nameKey(_:)``), so that a name is checked in O(log n).
    var listNames = TreeDictionary<String, ItemList.ID>()
    var items = TreeDictionary<Item.ID, Item>()
    var areas = TreeDictionary<Area.ID, Area>()
    /// Each area's id by its name as names compare, as ``listNames`` has the lists'.
    var areaNames = TreeDictionary<String, Area.ID>()
    var headings = TreeDictionary<Heading.ID, Heading>()
    var tags = TreeDictionary<Tag.ID, Tag>()
    /// Each tag's id by its name as names compare, as ``listNames`` has the lists'.
    var tagNames = TreeDictionary<String, Tag.ID>()
    /// The ids of tags merged into others, each with the tag it merged into.
    var tagMerges = TreeDictionary<Tag.ID, Tag.ID>()
    /// Every checklist's entries, by id.
    var checklistItems = TreeDictionary<ChecklistItem.ID, ChecklistItem>()
    /// The repeating series, by id.
    var series = TreeDictionary<Series.ID, Series>()
    /// Each ordering's entries: each list's items under no heading, each heading's items, each
    /// list's headings, each area's lists and those of none, Today, each checklist and the areas
    /// have a tree of their own.
    var orders = TreeDictionary<OrderScope, OrderTree>()
    /// Every item's id in id order, for lookups by id prefix: keys whose `sortIndex` is 0.
    var ids = OrderTree()
    /// The default list's id; deleting the list clears it.
    var defaultListID: ItemList.ID?
    /// The device's settings.
    var settings: [StoreSetting: String] = [:]
    /// The lists shared with other people, as the device knows them, by list.
    var shares: [ItemList.ID: ListShare] = [:]
    /// What sync keeps: the replica id, the log and the tombstones.
    var log = InMemoryOperationLog()
}

/// The operation log of an ``InMemoryItemRepository``.
struct InMemoryOperationLog: Sendable {
    var replica: ReplicaState?
    /// The operations by id.
    var operations = TreeDictionary<UUID, LoggedOperation>()
    /// Every operation's order, in the total order.
    var orders: [OperationOrder] = []
    /// Every operation's id, in the order logged: `byPosition[p - 1]` has position `p`; `nil`
    /// where the operation was folded away.
    var byPosition: [UUID?] = []
    /// The operations the merge has not replayed.
    var unreplayed = TreeSet<OperationOrder>()
    /// The operations the merge kept without applying them.
    var unapplied = TreeSet<OperationOrder>()
    var tombstones = TreeDictionary<TombstoneKey, Int64>()
    /// What this store keeps for each remote it syncs with, by the remote's identity.
    var remotes = TreeDictionary<String, RemoteRecord>()
    /// The orders of the replacements of each replaced operation, by the replaced operation's id.
    var replacements = TreeDictionary<UUID, [OperationOrder]>()
    /// Each replica's latest acknowledgement, by replica.
    var acknowledgements = TreeDictionary<UUID, Acknowledgement>()
    /// How far this store holds each other replica's operations, by replica.
    var progress = TreeDictionary<UUID, ReplicaProgress>()
    /// The operations held back after a gap, by id.
    var held = TreeDictionary<UUID, LoggedOperation>()
    var fold: Fold?
    /// Who each operation folded away was, by id.
    var folded = TreeDictionary<UUID, FoldedOperation>()

    struct TombstoneKey: Hashable, Sendable {
        var entry: OrderEntry.ID
        var scope: OrderScope
    }

    /// The index in ``orders`` of the first order not before `order`.
    func index(of order: OperationOrder) -> Int {
        var (low, high) = (0, orders.count)
        while low < high {
            let middle = (low + high) / 2
            if orders[middle] < order { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// A transaction of an ``InMemoryItemRepository``: it works on its own copy of the state,
/// which the repository keeps only when the transaction's body returns.
final class InMemoryTransaction: ItemWriting, OperationLogWriting {
    private(set) var state: InMemoryState
    /// Whether a write of this transaction has changed lists or items.
    private var changesRows = false
    /// What the writes of this transaction changed, for the observations.
    private(set) var changes = StoreChanges()
    /// Whether sync logs this transaction's changes (``markChangesLogged()``).
    private var changesAreLogged = false

    init(state: InMemoryState) {
        self.state = state
    }

    // MARK: Reading

    func lists(_ request: ListRequest) -> [ItemList] {
        switch request {
        case .all:
            ([.lists] + areas(.all).map { .area($0.id) }).flatMap { scope in
                order(of: scope).allEntries().compactMap { state.lists[ItemList.ID(entry: $0.id)] }
            }
        case .withID(let id): state.lists[id].map { [$0] } ?? []
        case .defaultList: state.defaultListID.flatMap { state.lists[$0] }.map { [$0] } ?? []
        }
    }

    func areas(_ request: AreaRequest) -> [Area] {
        switch request {
        case .all: order(of: .areas).allEntries().compactMap { state.areas[Area.ID(entry: $0.id)] }
        case .withID(let id): state.areas[id].map { [$0] } ?? []
        }
    }

    func tags(_ request: TagRequest) -> [Tag] {
        switch request {
        case .all:
            // Depth first: each tag, then its children.
            func subtree(of parent: Tag.ID?) -> [Tag] {
                order(of: .tags(parent)).allEntries().compactMap { state.tags[Tag.ID(entry: $0.id)] }.flatMap { [$0] + subtree(of: $0.id) }
            }
            return subtree(of: nil)
        case .withID(let id): return (state.tags[id] ?? state.tagMerges[id].flatMap { state.tags[$0] }).map { [$0] } ?? []
        }
    }

    func value(of setting: StoreSetting) -> String? {
        state.settings[setting]
    }

    func listShares() -> [ListShare] {
        state.shares.values.sorted { $0.list < $1.list }
    }

    func tagMerges() -> [TagMerge] {
        state.tagMerges.map { TagMerge(id: $0.key, into: $0.value) }.sorted { $0.id < $1.id }
    }

    func headings(_ request: HeadingRequest) -> [Heading] {
        switch request {
        case .inList(let list): order(of: .headings(list)).allEntries().compactMap { state.headings[Heading.ID(entry: $0.id)] }
        case .withID(let id): state.headings[id].map { [$0] } ?? []
        case .trashed: Self.mostRecentlyTrashed(state.headings.values) { $0.trashedAt }
        }
    }

    func items(_ request: ItemRequest) throws -> [Item] {
        switch request {
        case .withIDs(let ids):
            return ids.compactMap { state.items[$0] }
        case .list(let list, let visibility, let offset, let limit):
            return try itemsBySection(in: list, visibility: visibility, offset: offset, limit: limit) { section, offset, limit in
                items(for: order(of: section).entries(visibility, offset: offset, limit: limit))
            }
        case .today(let visibility, let offset, let limit):
            return items(for: order(of: .today).entries(visibility, offset: offset, limit: limit))
        case .dated(let day):
            return datedItems(through: day)
        case .completed(let offset, let limit):
            guard offset >= 0, limit > 0 else { return [] }
            let completed: [(item: Item, at: Date)] = state.items.values.compactMap { item in
                guard let at = item.completedAt, isOutOfTrash(item) else { return nil }
                return (item, at)
            }
            return completed.sorted { $0.at != $1.at ? $0.at > $1.at : $0.item.id < $1.item.id }.dropFirst(offset).prefix(limit).map(\.item)
        case .trashed:
            return Self.mostRecentlyTrashed(state.items.values) { $0.trashedAt }
        case .withIDPrefix(let hexDigits, let limit):
            guard let textPrefix = Item.ID.textPrefix(forHexDigits: hexDigits), let lowest = Item.ID.lowest(withHexDigits: hexDigits) else { return [] }
            return items(for: state.ids.entries(from: lowest.entryID.idKey, limit: limit).prefix { $0.id.text.hasPrefix(textPrefix) })
        case .matching(let query, let includeCompleted):
            return items(matching: query, includeCompleted: includeCompleted)
        case .tagged(let tags):
            return state.items.values.filter { !$0.tags.isDisjoint(with: tags) }
        case .reminders(let first, let last):
            return state.items.values.filter { item in
                item.reminder != nil && !item.isCompleted && item.when.startDate.map { (first...last).contains($0) } == true && isOutOfTrash(item)
            }
        }
    }

    /// Every item whose fields match `query`, each item's texts folded as it is read.
    ///
    /// - Complexity: O(n) for n items, and the length of their texts.
    private func items(matching query: SearchQuery, includeCompleted: Bool) -> [Item] {
        guard !query.isEmpty else { return [] }
        var checklists: [Item.ID: [String]] = [:]
        for entry in state.checklistItems.values { checklists[entry.itemID, default: []].append(entry.title) }
        return state.items.values.filter { item in
            guard includeCompleted || !item.isCompleted else { return false }
            let place = [state.lists[item.listID]?.name, item.heading.flatMap { state.headings[$0]?.title }].compactMap { $0 }
            return query.isMatched(by: [item.title, item.notes] + (checklists[item.id] ?? []) + place)
        }
    }

    func datedStandings(through day: Day) -> [DatedStanding] {
        datedItems(through: day).map(DatedStanding.init)
    }

    private func datedItems(through day: Day) -> [Item] {
        state.items.values.filter { !$0.isCompleted && $0.trashedAt == nil && $0.isInToday(on: day) }
    }

    /// Whether `item` is out of the Trash: neither it, nor its list, nor its heading is in it.
    private func isOutOfTrash(_ item: Item) -> Bool {
        item.trashedAt == nil && state.lists[item.listID]?.trashedAt == nil && item.heading.flatMap { state.headings[$0]?.trashedAt } == nil
    }

    /// The rows in the Trash themselves among `rows`, the most recently trashed first, then by id.
    private static func mostRecentlyTrashed<Row: Identifiable>(_ rows: some Sequence<Row>, trashedAt: (Row) -> Date?) -> [Row] where Row.ID: Comparable {
        let trashed: [(row: Row, at: Date)] = rows.compactMap { row in trashedAt(row).map { (row, $0) } }
        return trashed.sorted { $0.at != $1.at ? $0.at > $1.at : $0.row.id < $1.row.id }.map(\.row)
    }

    func entries(_ request: EntryRequest) -> [OrderEntry] {
        switch request {
        case .withID(let id, let scope):
            let entry: OrderEntry? =
                switch scope {
                case .lists, .area: state.lists[ItemList.ID(entry: id)].flatMap { $0.scope == scope ? $0.entry : nil }
                case .areas: state.areas[Area.ID(entry: id)]?.entry
                case .tags(let parent): state.tags[Tag.ID(entry: id)].flatMap { $0.parent == parent ? $0.entry : nil }
                case .items, .today, .heading: state.items[Item.ID(entry: id)]?.entry(in: scope)
                case .checklist(let item): state.checklistItems[ChecklistItem.ID(entry: id)].flatMap { $0.itemID == item ? $0.entry : nil }
                case .headings(let list): state.headings[Heading.ID(entry: id)].flatMap { $0.listID == list ? $0.entry : nil }
                }
            return entry.map { [$0] } ?? []
        case .page(let scope, let visibility, let offset, let limit):
            return order(of: scope).entries(visibility, offset: offset, limit: limit)
        case .sharingSortIndex(let scope):
            return order(of: scope).allEntries().chunked { $0.sortIndex == $1.sortIndex }.filter { $0.count > 1 }.flatMap { $0 }
        }
    }

    func keys(in scope: OrderScope, _ bound: KeyBound, limit: Int) -> [OrderKey] {
        switch bound {
        case .before(let key): order(of: scope).entries(before: key, limit: limit).map(\.key)
        case .after(let key): order(of: scope).entries(after: key, limit: limit).map(\.key)
        }
    }

    func count(_ request: CountRequest) -> Int {
        switch request {
        case .entries(let scope, let visibility): order(of: scope).count(visibility)
        case .entriesBefore(let key, let scope, let visibility): order(of: scope).count(visibility, before: key)
        case .completedItems: state.items.values.count { $0.isCompleted && isOutOfTrash($0) }
        }
    }

    func ranks(of keys: [OrderKey], in scope: OrderScope) -> EntryRanks {
        let order = order(of: scope)
        return EntryRanks(openBefore: keys.map { order.count(.open, before: $0) }, openCount: order.count(.open), keptCount: order.count(.openAndCompleted))
    }

    func checklistItems(_ request: ChecklistRequest) -> [ChecklistItem] {
        switch request {
        case .ofItems(let items):
            var seen = Set<Item.ID>()
            return items.filter { seen.insert($0).inserted }.flatMap { item in
                order(of: .checklist(item)).allEntries().compactMap { state.checklistItems[ChecklistItem.ID(entry: $0.id)] }
            }
        case .withID(let id):
            return state.checklistItems[id].map { [$0] } ?? []
        }
    }

    func series(_ request: SeriesRequest) -> [Series] {
        switch request {
        case .all: state.series.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        case .withID(let id): state.series[id].map { [$0] } ?? []
        }
    }

    // MARK: The operation log

    func markChangesLogged() {
        changesAreLogged = true
    }

    /// Throws ``StoreError/unloggedChange`` when this transaction changed lists or items of a
    /// store that syncs without sync logging them: the repository calls it before it commits.
    func ensureChangesAreLogged() throws {
        guard changesRows, !changesAreLogged, state.log.replica != nil else { return }
        throw StoreError.unloggedChange
    }

    func operations(_ request: OperationRequest) -> [LoggedOperation] {
        let log = state.log
        switch request {
        case .withID(let id):
            return log.operations[id].map { [$0] } ?? []
        case .from(let order, let limit):
            return log.orders[log.index(of: order)...].prefix(limit).compactMap { log.operations[$0.id] }
        case .afterPosition(let position, let limit):
            let start = Int(clamping: max(0, position))
            guard start < log.byPosition.count else { return [] }
            return Array(log.byPosition[start...].lazy.compactMap { $0.flatMap { log.operations[$0] } }.prefix(limit))
        case .numbered(let replica, let sequence):
            return log.orders.filter { $0.replica == replica && $0.sequence == sequence }.compactMap { log.operations[$0.id] }
        case .unapplied:
            return log.unapplied.sorted().compactMap { log.operations[$0.id] }
        case .held:
            return Array(log.held.values)
        }
    }

    func orders(_ request: OperationOrderRequest) -> [OperationOrder] {
        switch request {
        case .last: state.log.orders.last.map { [$0] } ?? []
        case .firstUnreplayed: state.log.unreplayed.min().map { [$0] } ?? []
        case .replacing(let id): (state.log.replacements[id] ?? []).sorted()
        case .latestOfEachReplica:
            Array(Dictionary(state.log.orders.map { ($0.replica, $0) }) { $0.sequence >= $1.sequence ? $0 : $1 }.values)
        }
    }

    func records(_ request: LogRecordRequest) -> [LogRecord] {
        let log = state.log
        switch request {
        case .replicaState: return log.replica.map { [.replicaState($0)] } ?? []
        case .remotes: return log.remotes.values.map(LogRecord.remote)
        case .remote(let name): return log.remotes[name].map { [.remote($0)] } ?? []
        case .acknowledgements: return log.acknowledgements.values.map(LogRecord.acknowledgement)
        case .progresses: return log.progress.values.map(LogRecord.progress)
        case .progress(let replica): return log.progress[replica].map { [.progress($0)] } ?? []
        case .tombstones: return log.tombstones.map { .tombstone(Tombstone(entry: $0.key.entry, scope: $0.key.scope, sortIndex: $0.value)) }
        case .tombstone(let entry, let scope):
            let sortIndex = log.tombstones[InMemoryOperationLog.TombstoneKey(entry: entry, scope: scope)]
            return sortIndex.map { [.tombstone(Tombstone(entry: entry, scope: scope, sortIndex: $0))] } ?? []
        case .fold: return log.fold.map { [.fold($0)] } ?? []
        case .foldedOperations: return log.folded.values.map(LogRecord.folded)
        case .foldedOperation(let id): return log.folded[id].map { [.folded($0)] } ?? []
        case .foldedReplacements(let id): return log.folded.values.filter { $0.replaces == id }.map(LogRecord.folded)
        case .foldedNumbered(let replica, let sequence):
            return log.folded.values.filter { $0.replica == replica && $0.sequence == sequence }.map(LogRecord.folded)
        }
    }

    func sequences(_ request: SequenceRequest) -> [Int64] {
        switch request {
        case .logged(let replica, let sequence):
            return Array(Set(state.log.orders.lazy.filter { $0.replica == replica && $0.sequence > sequence }.map(\.sequence))).sorted()
        case .forked(let replica, let sequence):
            var counts: [Int64: Int] = [:]
            for order in state.log.orders where order.replica == replica && order.sequence > sequence { counts[order.sequence, default: 0] += 1 }
            for folded in state.log.folded.values where folded.replica == replica && folded.sequence > sequence { counts[folded.sequence, default: 0] += 1 }
            return counts.filter { $0.value > 1 }.keys.sorted()
        }
    }

    func log(_ operation: LoggedOperation) throws -> Int64 {
        guard state.log.operations[operation.id] == nil else { throw StoreError.duplicateOperation(operation.id) }
        var logged = operation
        logged.position = Int64(state.log.byPosition.count + 1)
        state.log.operations[logged.id] = logged
        state.log.orders.insert(logged.order, at: state.log.index(of: logged.order))
        state.log.byPosition.append(logged.id)
        if !logged.isReplayed { state.log.unreplayed.insert(logged.order) }
        if logged.isUnapplied { state.log.unapplied.insert(logged.order) }
        if let replaced = logged.replaces { state.log.replacements[replaced, default: []].append(logged.order) }
        return logged.position
    }

    func write(_ change: LogChange) throws {
        switch change {
        case .replicaState(let replica): state.log.replica = replica
        case .rewind(let rewind, let isReplayed, let isUnapplied, let id):
            guard var operation = state.log.operations[id] else { throw StoreError.operationNotFound(id) }
            operation.rewind = rewind
            operation.isReplayed = isReplayed
            operation.isUnapplied = isUnapplied
            state.log.operations[id] = operation
            if isReplayed { state.log.unreplayed.remove(operation.order) } else { state.log.unreplayed.insert(operation.order) }
            if isUnapplied { state.log.unapplied.insert(operation.order) } else { state.log.unapplied.remove(operation.order) }
        case .tombstone(let sortIndex, let entry, let scope):
            state.log.tombstones[InMemoryOperationLog.TombstoneKey(entry: entry, scope: scope)] = sortIndex
        case .remote(let record): state.log.remotes[record.remote] = record
        case .acknowledgement(let acknowledgement): state.log.acknowledgements[acknowledgement.replica] = acknowledgement
        case .progress(let progress): state.log.progress[progress.replica] = progress
        case .hold(let operation): if state.log.held[operation.id] == nil { state.log.held[operation.id] = operation }
        case .release(let ids): for id in ids { state.log.held[id] = nil }
        case .replaceFolded(let operations): state.log.folded = TreeDictionary(uniqueKeysWithValues: operations.map { ($0.id, $0) })
        }
    }

    /// Positions stay as they were: ``InMemoryOperationLog/byPosition`` keeps a hole where each
    /// removed operation was.
    func fold(_ fold: Fold, removingThrough order: OperationOrder, keeping kept: Set<UUID>) -> Int {
        let first = state.log.index(of: order)
        let end = first < state.log.orders.count && state.log.orders[first] == order ? first + 1 : first
        let removing = state.log.orders[..<end].filter { !kept.contains($0.id) }
        for removed in removing {
            guard let operation = state.log.operations.removeValue(forKey: removed.id) else { continue }
            state.log.folded[removed.id] = FoldedOperation(id: removed.id, replica: removed.replica, sequence: removed.sequence, replaces: operation.replaces)
            state.log.byPosition[Int(operation.position) - 1] = nil
            state.log.unreplayed.remove(removed)
            state.log.unapplied.remove(removed)
            if let replaced = operation.replaces {
                state.log.replacements[replaced]?.removeAll { $0 == removed }
                if state.log.replacements[replaced]?.isEmpty == true { state.log.replacements[replaced] = nil }
            }
        }
        state.log.orders.removeAll { $0 <= order && !kept.contains($0.id) }
        state.log.fold = fold
        return removing.count
    }

    // MARK: Orderings

    private func order(of scope: OrderScope) -> OrderTree {
        state.orders[scope] ?? OrderTree()
    }

    private func items(for entries: some Sequence<OrderEntry>) -> [Item] {
        entries.compactMap { state.items[Item.ID(entry: $0.id)] }
    }

    // MARK: Writing

    func apply(_ change: RowChange) throws {
        switch change {
        case .insert(let row): try insert(row)
        case .update(let row): try update(row)
        case .delete(let id): try delete(id)
        case .setSortIndices(let keyChanges, let scope, let updatedAt): try setSortIndices(keyChanges, in: scope, updatedAt: updatedAt)
        case .removeFromToday(let ids, let updatedAt):
            changesRows = true
            for id in ids {
                try updateItem(id.entryID, at: updatedAt) { $0.todayIndex = nil }
            }
        case .setDefaultList(let id):
            guard state.lists[id] != nil else { throw StoreError.listNotFound(id) }
            state.defaultListID = id
            changes.noteListsChanged()
        case .setValue(let value, let setting):
            state.settings[setting] = value
        case .setListShare(let share, let list):
            guard state.lists[list] != nil else { throw StoreError.listNotFound(list) }
            changes.noteOtherRowsChanged()
            state.shares[list] = share.map { ListShare(list: list, role: $0.role, owner: $0.owner, isOwned: $0.isOwned) }
        case .mergeTag(let id, let survivor):
            changesRows = true
            state.tagMerges[id] = survivor
        case .unmergeTag(let id):
            changesRows = true
            state.tagMerges[id] = nil
        }
    }

    private func insert(_ row: StoreRow) throws {
        changesRows = true
        switch row {
        case .list(let list):
            guard state.lists[list.id] == nil else { throw StoreError.duplicateList(list.id) }
            try checkNameIsFree(list.name, except: list.id)
            try checkAreaExists(list.area)
            place(list)
            changes.noteListsChanged()
        case .area(let area):
            guard state.areas[area.id] == nil else { throw StoreError.duplicateArea(area.id) }
            try checkAreaNameIsFree(area.name, except: area.id)
            place(area)
            changes.noteListsChanged()
        case .heading(let heading):
            guard state.headings[heading.id] == nil else { throw StoreError.duplicateHeading(heading.id) }
            guard state.lists[heading.listID] != nil else { throw StoreError.listNotFound(heading.listID) }
            place(heading)
            changes.noteHeadingsChanged(of: heading.listID)
        case .item(let item):
            guard state.items[item.id] == nil else { throw StoreError.duplicateItem(item.id) }
            try checkPlace(of: item)
            try ensureNotesFit(item)
            place(item)
            state.ids.insert(OrderEntry(id: item.id.entryID, sortIndex: 0, isOpen: true))
            changes.note(.inserted(item))
        case .checklistItem(let entry):
            guard state.checklistItems[entry.id] == nil else { throw StoreError.duplicateChecklistItem(entry.id) }
            guard state.items[entry.itemID] != nil else { throw StoreError.itemNotFound(entry.itemID) }
            place(entry)
            changes.noteChecklistChanged(of: entry.itemID)
        case .tag(let tag):
            guard state.tags[tag.id] == nil else { throw StoreError.duplicateTag(tag.id) }
            try checkTagNameIsFree(tag.name, except: tag.id)
            try checkTagExists(tag.parent)
            place(tag)
            changes.noteOtherRowsChanged()
        case .series(let series):
            guard state.series[series.id] == nil else { throw StoreError.duplicateSeries(series.id) }
            state.series[series.id] = series
            changes.noteOtherRowsChanged()
        }
    }

    private func update(_ row: StoreRow) throws {
        changesRows = true
        switch row {
        case .list(let list):
            guard let old = state.lists[list.id] else { throw StoreError.listNotFound(list.id) }
            try checkNameIsFree(list.name, except: list.id)
            try checkAreaExists(list.area)
            unplace(old)
            place(list)
            changes.noteListsChanged()
        case .area(let area):
            guard let old = state.areas[area.id] else { throw StoreError.areaNotFound(area.id) }
            try checkAreaNameIsFree(area.name, except: area.id)
            unplace(old)
            place(area)
            changes.noteListsChanged()
        case .heading(let heading):
            guard let old = state.headings[heading.id] else { throw StoreError.headingNotFound(heading.id) }
            guard state.lists[heading.listID] != nil else { throw StoreError.listNotFound(heading.listID) }
            unplace(old)
            place(heading)
            changes.noteHeadingsChanged(of: old.listID)
            guard old.listID != heading.listID else { return }
            changes.noteHeadingsChanged(of: heading.listID)
            // The items under it go with it, keys and all.
            for entry in order(of: .heading(heading.id)).allEntries() {
                guard var item = state.items[Item.ID(entry: entry.id)] else { continue }
                unplace(item)
                item.listID = heading.listID
                place(item)
            }
            changes.noteUnlistedItems(of: old.listID)
            changes.noteUnlistedItems(of: heading.listID)
        case .item(let item):
            guard let old = state.items[item.id] else { throw StoreError.itemNotFound(item.id) }
            try checkPlace(of: item)
            try ensureNotesFit(item, replacing: old)
            unplace(old)
            place(item)
            changes.note(.updated(from: old, to: item))
        case .checklistItem(let entry):
            guard let old = state.checklistItems[entry.id] else { throw StoreError.checklistItemNotFound(entry.id) }
            guard state.items[entry.itemID] != nil else { throw StoreError.itemNotFound(entry.itemID) }
            unplace(old)
            place(entry)
            changes.noteChecklistChanged(of: old.itemID)
            changes.noteChecklistChanged(of: entry.itemID)
        case .tag(let tag):
            guard let old = state.tags[tag.id] else { throw StoreError.tagNotFound(tag.id) }
            try checkTagNameIsFree(tag.name, except: tag.id)
            try checkTagExists(tag.parent)
            unplace(old)
            place(tag)
            changes.noteOtherRowsChanged()
        case .series(let series):
            guard state.series[series.id] != nil else { throw StoreError.seriesNotFound(series.id) }
            state.series[series.id] = series
            changes.noteOtherRowsChanged()
        }
    }

    private func delete(_ row: StoreRowID) throws {
        changesRows = true
        switch row {
        case .list(let id):
            guard let list = state.lists[id] else { throw StoreError.listNotFound(id) }
            unplace(list)
            if state.defaultListID == id { state.defaultListID = nil }
            removeItems(of: .items(id))
            for heading in headings(.inList(id)) {
                removeItems(of: .heading(heading.id))
                unplace(heading)
            }
            state.orders[.headings(id)] = nil
            changes.noteListsChanged()
            changes.noteHeadingsChanged(of: id)
            // Its items go, and may have been in Today.
            changes.noteUnlistedItems(of: id)
        case .area(let id):
            guard let area = state.areas[id] else { throw StoreError.areaNotFound(id) }
            for entry in order(of: .area(id)).allEntries() {
                guard var list = state.lists[ItemList.ID(entry: entry.id)] else { continue }
                list.area = nil
                try update(.list(list))
            }
            unplace(area)
            changes.noteListsChanged()
        case .heading(let id):
            guard let heading = state.headings[id] else { throw StoreError.headingNotFound(id) }
            removeItems(of: .heading(id))
            unplace(heading)
            changes.noteHeadingsChanged(of: heading.listID)
            changes.noteUnlistedItems(of: heading.listID)
        case .item(let id):
            guard let old = state.items.removeValue(forKey: id) else { throw StoreError.itemNotFound(id) }
            unplace(old)
            state.ids.remove(id.entryID.idKey)
            removeChecklist(of: id)
            changes.note(.deleted(old))
        case .tag(let id):
            guard let tag = state.tags[id] else { throw StoreError.tagNotFound(id) }
            // Its children go with it, and theirs.
            for child in order(of: .tags(id)).allEntries() { try delete(.tag(Tag.ID(entry: child.id))) }
            state.orders[.tags(id)] = nil
            unplace(tag)
            changes.noteOtherRowsChanged()
        case .checklistItem(let id):
            guard let old = state.checklistItems[id] else { throw StoreError.checklistItemNotFound(id) }
            unplace(old)
            changes.noteChecklistChanged(of: old.itemID)
        case .series(let id):
            guard state.series.removeValue(forKey: id) != nil else { throw StoreError.seriesNotFound(id) }
            changes.noteOtherRowsChanged()
        }
    }

    private func checkTagExists(_ tag: Tag.ID?) throws {
        if let tag, state.tags[tag] == nil { throw StoreError.tagNotFound(tag) }
    }

    /// Throws when a tag other than `excluded` has `name`, ignoring case: one lookup in ``InMemoryState/tagNames``.
    private func checkTagNameIsFree(_ name: String, except excluded: Tag.ID) throws {
        if let other = state.tagNames[Tag.nameKey(name)], other != excluded, let owner = state.tags[other] {
            throw StoreError.validation(.duplicateTagName(owner.name))
        }
    }

    private func checkAreaExists(_ area: Area.ID?) throws {
        if let area, state.areas[area] == nil { throw StoreError.areaNotFound(area) }
    }

    /// Throws when an area other than `excluded` has `name`, ignoring case: one lookup in ``InMemoryState/areaNames``.
    private func checkAreaNameIsFree(_ name: String, except excluded: Area.ID) throws {
        if let other = state.areaNames[ItemList.nameKey(name)], other != excluded, let owner = state.areas[other] {
            throw StoreError.validation(.duplicateAreaName(owner.name))
        }
    }

    /// Removes the items of a list's section from every ordering, with their checklists.
    private func removeItems(of section: OrderScope) {
        for entry in state.orders.removeValue(forKey: section)?.allEntries() ?? [] {
            if let item = state.items.removeValue(forKey: Item.ID(entry: entry.id)) { unplace(item) }
            state.ids.remove(entry.id.idKey)
            removeChecklist(of: Item.ID(entry: entry.id))
        }
    }

    /// Throws when a list other than `excluded` has `name`, ignoring case: one lookup in ``InMemoryState/listNames``.
    private func checkNameIsFree(_ name: String, except excluded: ItemList.ID) throws {
        if let other = state.listNames[ItemList.nameKey(name)], other != excluded, let owner = state.lists[other] {
            throw StoreError.validation(.duplicateListName(owner.name))
        }
    }

    /// Throws unless the item's list exists, and its heading, if any, is of that list.
    private func checkPlace(of item: Item) throws {
        guard state.lists[item.listID] != nil else { throw StoreError.listNotFound(item.listID) }
        if let heading = item.heading, state.headings[heading]?.listID != item.listID { throw StoreError.headingNotFound(heading) }
    }

    /// Removes the entries of an item's checklist, with the item.
    private func removeChecklist(of item: Item.ID) {
        for entry in state.orders.removeValue(forKey: .checklist(item))?.allEntries() ?? [] {
            state.checklistItems.removeValue(forKey: ChecklistItem.ID(entry: entry.id))
        }
    }

    private func setSortIndices(_ keyChanges: [SortIndexChange], in scope: OrderScope, updatedAt: Date) throws {
        changesRows = true
        for change in keyChanges {
            switch scope {
            case .lists, .area:
                guard var list = state.lists[ItemList.ID(entry: change.id)] else { throw StoreError.listNotFound(ItemList.ID(entry: change.id)) }
                if case .area(let area) = scope { list.area = area } else { list.area = nil }
                list.sortIndex = change.sortIndex
                try update(.list(list))
            case .areas:
                guard var area = state.areas[Area.ID(entry: change.id)] else { throw StoreError.areaNotFound(Area.ID(entry: change.id)) }
                area.sortIndex = change.sortIndex
                try update(.area(area))
            case .tags(let parent):
                guard var tag = state.tags[Tag.ID(entry: change.id)] else { throw StoreError.tagNotFound(Tag.ID(entry: change.id)) }
                (tag.parent, tag.sortIndex) = (parent, change.sortIndex)
                try update(.tag(tag))
            case .items(let listID):
                try updateItem(change.id, at: updatedAt) { item in
                    item.listID = listID
                    item.heading = nil
                    item.sortIndex = change.sortIndex
                }
            case .heading(let id):
                guard let heading = state.headings[id] else { throw StoreError.headingNotFound(id) }
                try updateItem(change.id, at: updatedAt) { item in
                    item.listID = heading.listID
                    item.heading = id
                    item.sortIndex = change.sortIndex
                }
            case .headings(let list):
                guard var heading = state.headings[Heading.ID(entry: change.id)] else { throw StoreError.headingNotFound(Heading.ID(entry: change.id)) }
                heading.listID = list
                heading.sortIndex = change.sortIndex
                try update(.heading(heading))
            case .today:
                try updateItem(change.id, at: updatedAt) { $0.todayIndex = change.sortIndex }
            case .checklist(let item):
                let id = ChecklistItem.ID(entry: change.id)
                guard var entry = state.checklistItems[id], entry.itemID == item else { throw StoreError.checklistItemNotFound(id) }
                entry.sortIndex = change.sortIndex
                try update(.checklistItem(entry))
            }
        }
    }

    /// Changes an item and stamps it.
    private func updateItem(_ id: OrderEntry.ID, at stamp: Date, _ change: (inout Item) -> Void) throws {
        guard var item = state.items[Item.ID(entry: id)] else { throw StoreError.itemNotFound(Item.ID(entry: id)) }
        change(&item)
        item.updatedAt = stamp
        try update(.item(item))
    }

    private func place(_ list: ItemList) {
        state.lists[list.id] = list
        state.listNames[ItemList.nameKey(list.name)] = list.id
        state.orders[list.scope, default: OrderTree()].insert(list.entry)
    }

    private func unplace(_ list: ItemList) {
        state.lists.removeValue(forKey: list.id)
        state.shares.removeValue(forKey: list.id)
        state.listNames.removeValue(forKey: ItemList.nameKey(list.name))
        state.orders[list.scope]?.remove(list.orderKey)
    }

    private func place(_ area: Area) {
        state.areas[area.id] = area
        state.areaNames[ItemList.nameKey(area.name)] = area.id
        state.orders[.areas, default: OrderTree()].insert(area.entry)
    }

    private func unplace(_ area: Area) {
        state.areas.removeValue(forKey: area.id)
        state.areaNames.removeValue(forKey: ItemList.nameKey(area.name))
        state.orders[.areas]?.remove(area.orderKey)
    }

    private func place(_ tag: Tag) {
        state.tags[tag.id] = tag
        state.tagNames[Tag.nameKey(tag.name)] = tag.id
        state.orders[tag.scope, default: OrderTree()].insert(tag.entry)
    }

    private func unplace(_ tag: Tag) {
        state.tags.removeValue(forKey: tag.id)
        state.tagNames.removeValue(forKey: Tag.nameKey(tag.name))
        state.orders[tag.scope]?.remove(tag.orderKey)
    }

    private func place(_ heading: Heading) {
        state.headings[heading.id] = heading
        state.orders[.headings(heading.listID), default: OrderTree()].insert(heading.entry)
    }

    private func unplace(_ heading: Heading) {
        state.headings.removeValue(forKey: heading.id)
        state.orders[.headings(heading.listID)]?.remove(heading.orderKey)
    }

    /// Stores an item and enters it in its list's ordering (under its heading, if any), and in
    /// Today's when it is there.
    private func place(_ item: Item) {
        state.items[item.id] = item
        for scope in [item.scope, .today] {
            if let entry = item.entry(in: scope) { state.orders[scope, default: OrderTree()].insert(entry) }
        }
    }

    private func unplace(_ item: Item) {
        state.orders[item.scope]?.remove(item.orderKey)
        if let today = item.entry(in: .today) { state.orders[.today]?.remove(today.key) }
    }

    private func place(_ entry: ChecklistItem) {
        state.checklistItems[entry.id] = entry
        state.orders[.checklist(entry.itemID), default: OrderTree()].insert(entry.entry)
    }

    private func unplace(_ entry: ChecklistItem) {
        state.checklistItems.removeValue(forKey: entry.id)
        state.orders[.checklist(entry.itemID)]?.remove(entry.orderKey)
    }
}

extension OrderEntry.ID {
    /// This id's key in ``InMemoryState/ids``: `sortIndex` 0, so the tree orders by id.
    fileprivate var idKey: OrderKey { OrderKey(sortIndex: 0, id: self) }
}

extension Array {
    /// Splits the array into runs of neighbours for which `belongTogether` holds.
    package func chunked(by belongTogether: (Element, Element) -> Bool) -> [[Element]] {
        var runs: [[Element]] = []
        for element in self {
            if let previous = runs.last?.last, belongTogether(previous, element) {
                runs[runs.count - 1].append(element)
            } else {
                runs.append([element])
            }
        }
        return runs
    }
}
