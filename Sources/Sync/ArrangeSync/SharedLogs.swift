public import ArrangeModel
import ArrangeStore
import Foundation

/// How a store that holds shared lists keeps each log apart.
///
/// A shared list's operations live in a log of their own, which the list's members sync, and
/// everything else in the user's own log. Each replica belongs to exactly one log, so that each
/// log holds whole, gap-free lines of sequence numbers:
/// - a change made here that names only one shared list's things, and nothing that is one
///   person's own (`ChangeSubjects`), is logged as this store's replica of that list, a
///   name-based id of the list in the namespace of the store's own replica
///   (``SyncEngine/sharedReplica(of:under:)``), with a sequence of its own;
/// - every other change is logged as the store's own replica;
/// - a replica whose operations came from a shared list's remote belongs to that list's log
///   (`ReplicaProgress.list`).
///
/// A sync with a shared list's remote (``SyncRemote/list``) pushes only that log's
/// operations and acknowledges as this store's replica of the list; every other sync, a
/// peer's and a file's included, carries the own log alone.
extension SyncEngine {
    /// The replica that a store whose own replica is `replica` logs its changes to `list` as:
    /// the same on every launch, and another one once the store takes a new replica id.
    public static func sharedReplica(of list: ItemList.ID, under replica: ReplicaID) -> ReplicaID {
        ReplicaID(rawValue: UUID(named: list.rawValue.lowercasedString, in: replica.rawValue))
    }
}

/// Which log each replica a store knows of belongs to: the user's own (`nil`), or a shared
/// list's.
struct ReplicaLogs {
    /// The store's own replica.
    let own: UUID?
    /// For each replica of a shared list's log, the list.
    private let lists: [UUID: ItemList.ID]
    /// This store's replicas of the lists shared with it.
    private let sharedHere: Set<UUID>

    /// The logs of the replicas the store of `transaction` knows of.
    ///
    /// - Complexity: One read of every replica's progress and of the lists' shares.
    init(in transaction: any OperationLogReading) throws {
        own = try transaction.replicaState()?.id
        var lists: [UUID: ItemList.ID] = [:]
        for progress in try transaction.replicaProgresses() { lists[progress.replica] = progress.list }
        var sharedHere: Set<UUID> = []
        if let own {
            for share in try transaction.listShares() {
                let replica = SyncEngine.sharedReplica(of: share.list, under: ReplicaID(rawValue: own)).rawValue
                sharedHere.insert(replica)
                lists[replica] = share.list
            }
        }
        self.lists = lists
        self.sharedHere = sharedHere
    }

    /// The shared list whose log holds `replica`'s operations; `nil` for the own log.
    func list(of replica: UUID) -> ItemList.ID? {
        replica == own ? nil : lists[replica]
    }

    /// Whether `replica` is this store: its own replica, or its replica of a shared list.
    func isThisStore(_ replica: UUID) -> Bool {
        replica == own || sharedHere.contains(replica)
    }

    /// What `acknowledgement` says of the replicas of the log of `list` alone: what another
    /// log's store would take for operations it lacks.
    func restricted(_ acknowledgement: Acknowledgement, to list: ItemList.ID?) -> Acknowledgement {
        var restricted = acknowledgement
        restricted.merged = acknowledgement.merged.filter { self.list(of: $0.key) == list }
        restricted.tips = acknowledgement.tips.filter { self.list(of: $0.key) == list }
        return restricted
    }
}

/// Which log each change made here goes to (see ``ReplicaLogs``).
struct SharedLogRouting {
    /// The lists shared with this store.
    private let shared: Set<ItemList.ID>
    private let transaction: any OperationLogReading
    /// The rows as they were before the change, for what it deleted.
    private let before: Rewind.Index?

    /// The routing of changes made in `transaction`, whose rows were as `rewind` keeps them,
    /// to the lists `shared`, or by default to those shared now.
    init(_ transaction: any OperationLogReading, rewind: Rewind, sharing shared: Set<ItemList.ID>? = nil) throws {
        self.transaction = transaction
        self.shared = try shared ?? Set(transaction.listShares().map(\.list))
        before = self.shared.isEmpty ? nil : Rewind.Index(rewind)
    }

    /// The changes that log `change`, each with the shared list whose log takes it (`nil` for
    /// the own log): one, but for a start date in the evening of a shared list's things, whose
    /// date goes to the list's log and whose evening, each person's own, to the own log after it.
    func destinations(of change: SyncChange) throws -> [(list: ItemList.ID?, change: SyncChange)] {
        if let list = try list(of: change) { return [(list, change)] }
        let dated: SyncChange? = switch change {
        case .setWhen(let set): set.when.isEvening ? set.when.startDate.map { WhenSet(ids: set.ids, when: .on($0)).change } : nil
        case .setListWhen(let set): set.when.isEvening ? set.when.startDate.map { ListWhenSet(id: set.id, when: .on($0)).change } : nil
        default: nil
        }
        guard let dated, let list = try list(of: dated) else { return [(nil, change)] }
        return [(list, dated), (nil, change)]
    }

    /// The shared list whose log takes `change`; `nil` for the own log.
    ///
    /// A change goes to a shared list's log when every id it makes or names is that list or a
    /// thing in it (an item, a heading, a checklist entry, a repeating series), as the store
    /// holds it now or held it before the change, and it touches nothing personal.
    func list(of change: SyncChange) throws -> ItemList.ID? {
        guard let before, let subjects = change.subjects, !subjects.isPersonal else { return nil }
        var found: ItemList.ID?
        for id in subjects.all {
            guard let list = try list(holding: id, before: before), shared.contains(list), found == nil || found == list else { return nil }
            found = list
        }
        return found
    }

    /// The list that holds the thing `id`, now or before the change.
    private func list(holding id: UUID, before: Rewind.Index) throws -> ItemList.ID? {
        if let list = try transaction.list(id: ItemList.ID(rawValue: id)) ?? before.lists[id] { return list.id }
        if let item = try transaction.item(id: Item.ID(rawValue: id)) ?? before.items[id] { return item.listID }
        if let heading = try transaction.heading(id: Heading.ID(rawValue: id)) ?? before.headings[id] { return heading.listID }
        if let entry = try transaction.checklistItem(id: ChecklistItem.ID(rawValue: id)) ?? before.checklistItems[id] {
            return try (transaction.item(id: entry.itemID) ?? before.items[entry.itemID.rawValue])?.listID
        }
        if let series = try transaction.series(id: Series.ID(rawValue: id)) ?? before.series[id] { return series.listID }
        return nil
    }
}

extension Rewind {
    /// The rows a rewind keeps as they were, by id.
    struct Index {
        var lists: [UUID: ItemList] = [:]
        var items: [UUID: Item] = [:]
        var headings: [UUID: Heading] = [:]
        var checklistItems: [UUID: ChecklistItem] = [:]
        var series: [UUID: Series] = [:]

        init(_ rewind: Rewind) {
            for image in rewind.lists { if let list = image.list { lists[list.id.rawValue] = list } }
            for image in rewind.items { if let item = image.item { items[item.id.rawValue] = item } }
            for image in rewind.headings { if let heading = image.heading { headings[heading.id.rawValue] = heading } }
            for image in rewind.checklistItems { if let entry = image.entry { checklistItems[entry.id.rawValue] = entry } }
            for image in rewind.series { if let series = image.series { self.series[series.id.rawValue] = series } }
        }
    }
}
