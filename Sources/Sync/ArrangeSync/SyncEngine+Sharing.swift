public import ArrangeModel
import ArrangeOrdering
import ArrangeStore
public import Foundation

/// What ``SyncEngine/applyShares(_:)`` did to the lists shared with this store.
public struct ShareUpdate: Hashable, Sendable {
    /// The lists the server says are shared with the user that this store does not hold yet:
    /// pull each from its log, then apply the shares again.
    public var missing: [ItemList.ID] = []
    /// For each list the user is no longer in, removed or gone, the list of their own that
    /// took its place, with everything it held.
    public var kept: [ItemList.ID: ItemList.ID] = [:]

    /// An update that changed nothing.
    public init() {}
}

extension SyncEngine {
    /// Shares a list of this store: records that `share.list` is shared, and logs what it holds
    /// (the list, its headings, items, checklists and repeating series, each person's own
    /// placements left out) as this store's replica of the list, so that the list's first
    /// sync (``SyncRemote/list``) carries it to its members.
    ///
    /// The list lands at the bottom of each member's sidebar, in no area.
    ///
    /// - Returns: How many operations were logged for the list's log.
    /// - Throws: `StoreError.listNotFound` when the store holds no such list.
    /// - Complexity: O(n) for the list's n items.
    @discardableResult
    public func startSharing(_ share: ListShare) async throws -> Int {
        try await repository.write { transaction in
            let log = try Self.log(of: transaction)
            guard try log.list(id: share.list) != nil else { throw StoreError.listNotFound(share.list) }
            let replica = try self.preparedReplica(in: log)
            try log.apply(.setListShare(share, of: share.list))
            let rows = try ListRows(of: share.list, in: log)
            let restated = try SyncChange.changes(
                bringingLists: [share.list: nil], items: Self.new(rows.items.map(\.id)), checklistItems: Self.new(rows.entries.map(\.id)),
                headings: Self.new(rows.headings.map(\.id)), series: Self.new(rows.series.map(\.id)), upToDateIn: log)
            .map(Self.restatedForMembers)
            // What is each person's own is logged already, in the user's own log.
            let routing = try SharedLogRouting(log, rewind: Rewind())
            let shared = try restated.filter { try routing.list(of: $0) == share.list }
            let here = try Self.listsSharedHere(in: log).filter { $0 != share.list } + [share.list]
            try log.apply(.setValue(here.map(\.text).joined(separator: " "), of: .listsSharedHere))
            return try self.log(shared, of: replica, rewind: Rewind(), in: log).count
        }
    }

    /// The lists this device shared and stated for their members (``startSharing(_:)``).
    static func listsSharedHere(in transaction: any ItemReading) throws -> [ItemList.ID] {
        try (transaction.value(of: .listsSharedHere) ?? "").split(separator: " ").compactMap { ItemList.ID(String($0)) }
    }

    /// States again, in the log of a list this device shared, what the user's other devices
    /// changed in the list before they knew it was shared: those changes came through the
    /// user's own log alone, after this device stated the list for its members
    /// (``startSharing(_:)``), so the members lack them. Each is made again here, now, as a
    /// change of this device's; a member's change made meanwhile to the same field gives way
    /// to it.
    ///
    /// - Parameter merged: The operations a merge just brought in.
    func restateForMembers(_ merged: [SyncOperation], in transaction: any LogWriting) throws {
        let shared = Set(try transaction.listShares().map(\.list)).intersection(try Self.listsSharedHere(in: transaction))
        guard !shared.isEmpty else { return }
        let logs = try ReplicaLogs(in: transaction)
        let routing = try SharedLogRouting(transaction, rewind: Rewind(), sharing: shared)
        let missed = try merged.filter { operation in
            // The user's other devices' own changes: not what they made again (a renumbering, a
            // replacement), which this device held before.
            guard !logs.isThisStore(operation.replica.rawValue), logs.list(of: operation.replica.rawValue) == nil else { return false }
            switch operation.change {
            case .replacement, .renumbering, .unknown: return false
            default: return try routing.list(of: operation.change) != nil
            }
        }
        for operation in missed { _ = try perform(operation.change, in: transaction) }
    }

    /// A change that makes part of a list that is being shared, as its members take it:
    /// - where the list is in the sidebar, and in which area, is each member's own, so it goes
    ///   nowhere in particular (the bottom);
    /// - each thing is placed after the one before it alone, which the list's log holds
    ///   already: the one after it comes later, and the server takes no name of a thing that
    ///   the list's log does not hold yet.
    private static func restatedForMembers(_ change: SyncChange) -> SyncChange {
        switch change {
        case .createList(var created):
            (created.place, created.area) = (SyncPlace(after: nil, before: nil), nil)
            return created.change
        case .addItem(var added):
            added.place.before = nil
            return added.change
        case .createHeading(var created):
            created.place.before = nil
            return created.change
        case .addChecklistItem(var added):
            added.place.before = nil
            return added.change
        default:
            return change
        }
    }

    /// Records the lists the sync server says are shared with the user (`ListShare`), and
    /// keeps, as lists of the user's own, those the user is no longer in: a list they were
    /// removed from, or left, stays with everything it held, under ids derived from the shared
    /// ones (``keptID(of:)``), so that each of the user's devices makes the same copy.
    ///
    /// - Parameter shares: Every list shared with the user, their own included.
    /// - Returns: The lists to pull first, and the lists kept.
    /// - Complexity: O(n) for the n items of the lists kept.
    public func applyShares(_ shares: [ListShare]) async throws -> ShareUpdate {
        try await repository.write { transaction in
            let log = try Self.log(of: transaction)
            var update = ShareUpdate()
            let told = Set(shares.map(\.list))
            for share in shares {
                guard try log.list(id: share.list) != nil else {
                    update.missing.append(share.list)
                    continue
                }
                if try log.share(of: share.list) != share { try log.apply(.setListShare(share, of: share.list)) }
            }
            for gone in try log.listShares() where !told.contains(gone.list) {
                update.kept[gone.list] = try self.keep(gone.list, in: log)
            }
            return update
        }
    }

    /// The id a list, heading, item, checklist entry or series of a shared list takes in the
    /// list of the user's own that keeps it, once the user is no longer in the list: the same
    /// on every device.
    public static func keptID(of id: UUID) -> UUID {
        UUID(named: id.lowercasedString, in: keptNamespace)
    }

    /// The namespace of ``keptID(of:)``.
    private static let keptNamespace = UUID(uuid: (0x6B, 0x65, 0x70, 0x74, 0x2D, 0x73, 0x68, 0x61, 0x72, 0x65, 0x64, 0x2D, 0x6C, 0x69, 0x73, 0x74))

    /// Replaces the shared list `list` with a list of the user's own that holds the same, in
    /// the same place, logged in the user's own log alone: each of the user's devices makes
    /// the same copy, and a thing another device copied already is left as it is.
    private func keep(_ list: ItemList.ID, in log: any LogWriting) throws -> ItemList.ID {
        let copy = ItemList.ID(rawValue: Self.keptID(of: list.rawValue))
        _ = try logging(in: log, sharing: []) { recorder in
            guard let shared = try recorder.list(id: list) else { return ((), []) }
            let rows = try ListRows(of: list, in: recorder)
            // Gone first, so that the copy takes the name.
            try recorder.deleteList(id: list)
            func kept<Subject>(_ id: Identifier<Subject>) -> Identifier<Subject> { Identifier(rawValue: Self.keptID(of: id.rawValue)) }
            var made = ListRows()
            let makesList = try recorder.list(id: copy) == nil
            if makesList {
                var row = shared
                row.id = copy
                try recorder.insert(row)
            }
            for var heading in rows.headings where try recorder.heading(id: kept(heading.id)) == nil {
                (heading.id, heading.listID) = (kept(heading.id), copy)
                try recorder.insert(heading)
                made.headings.append(heading)
            }
            for var repeating in rows.series where try recorder.series(id: kept(repeating.id)) == nil {
                (repeating.id, repeating.listID, repeating.heading) = (kept(repeating.id), copy, repeating.heading.map(kept))
                try recorder.insert(repeating)
                made.series.append(repeating)
            }
            for var item in rows.items where try recorder.item(id: kept(item.id)) == nil {
                (item.id, item.listID, item.heading, item.series) = (kept(item.id), copy, item.heading.map(kept), item.series.map(kept))
                try recorder.insert(item)
                made.items.append(item)
            }
            for var entry in rows.entries where try recorder.checklistItem(id: kept(entry.id)) == nil {
                (entry.id, entry.itemID) = (kept(entry.id), kept(entry.itemID))
                try recorder.insert(entry)
                made.entries.append(entry)
            }
            // The delete told first, as it was made: a device that replays the copy's creation
            // after it finds the name free.
            let creations = try SyncChange.changes(
                bringingLists: makesList ? [copy: nil] : [:],
                items: Self.new(made.items.map(\.id)), checklistItems: Self.new(made.entries.map(\.id)),
                headings: Self.new(made.headings.map(\.id)), series: Self.new(made.series.map(\.id)), upToDateIn: recorder)
            return ((), [SyncChange.deletion(ofList: list).change] + creations)
        }
        return copy
    }

    /// Each of `ids` as a row that did not exist, for `SyncChange.changes(bringingLists:…)`.
    private static func new<Row>(_ ids: [Identifier<Row>]) -> [Identifier<Row>: Row?] {
        Dictionary(ids.map { ($0, nil) }, uniquingKeysWith: { first, _ in first })
    }

    /// Takes the snapshot of a shared list's log, for a store that lacks operations of the list
    /// that its server folded away (a member who joins a list the others have synced for long):
    /// the list's rows, as every member holds them, in place of what this store held of it, with
    /// the log's operations the fold left and what the fold covered. The rest of the store stays
    /// as it is; the list keeps its place in the sidebar, or goes to the bottom.
    ///
    /// - Returns: What was taken, as a merge of the snapshot's operations.
    /// - Throws: ``SyncError/sharedListGone(_:)`` when the snapshot does not hold the list.
    func adoptSharedSnapshot(from remote: some SyncRemote, of list: ItemList.ID) async throws -> MergeReport {
        let taken = try await remote.snapshot()
        let snapshot = taken.snapshot
        guard let shared = snapshot.lists.first(where: { $0.id == list }) else { throw SyncError.sharedListGone(list) }
        return try await repository.write { transaction in
            let log = try Self.log(of: transaction)
            _ = try self.preparedReplica(in: log)
            // What this store held of the list goes; its place in the sidebar stays.
            let before = try ListRows(of: list, in: log)
            for item in before.items { try log.deleteItem(id: item.id) }
            for heading in before.headings { try log.deleteHeading(id: heading.id) }
            for series in before.series { try log.deleteSeries(id: series.id) }
            if try log.list(id: list) == nil {
                let place = ListCreated(id: list, name: shared.name, place: SyncPlace(after: nil, before: nil))
                try place.apply(in: ChangeContext(
                    log, log: log, tombstones: nil, at: shared.createdAt, ordering: OrderingConfiguration(), repository: self.repository))
            }
            var row = shared
            if let here = try log.list(id: list) { (row.name, row.sortIndex, row.area, row.tags) = (here.name, here.sortIndex, here.area, here.tags) }
            try log.update(row)
            let headings = snapshot.headings.filter { $0.listID == list }
            let items = snapshot.items.filter { $0.listID == list }
            let held = Set(items.map(\.id))
            for heading in headings { try log.insert(heading) }
            for series in snapshot.series where series.listID == list { try log.insert(series) }
            for item in items { try log.insert(item) }
            for entry in snapshot.checklistItems where held.contains(entry.itemID) { try log.insert(entry) }
            let headingIDs = Set(headings.map(\.id))
            for tombstone in snapshot.tombstones {
                let isOfList = switch tombstone.scope {
                case .items(let owner), .headings(let owner): owner == list
                case .heading(let heading): headingIDs.contains(heading)
                case .checklist(let item): held.contains(item)
                case .today, .lists, .areas, .area, .tags: false
                }
                if isOfList { try log.setTombstone(tombstone.sortIndex, of: tombstone.entry, in: tombstone.scope) }
            }
            // The operations the fold left, and who those it took were: the list's log goes on from there.
            var logged = 0
            for operation in snapshot.log where try log.loggedOperation(id: operation.id) == nil {
                _ = try log.log(operation)
                logged += 1
            }
            if let theirs = snapshot.fold {
                var fold = try log.fold() ?? Fold(through: .lowest, covering: [:], count: 0)
                fold.covering.merge(theirs.covering) { max($0, $1) }
                fold.tips.merge(theirs.tips) { _, tip in tip }
                _ = try log.fold(fold, removingThrough: .lowest, keeping: [])
                let known = Set(try log.foldedOperations().map(\.id))
                try log.replaceFolded(with: try log.foldedOperations() + snapshot.foldedOperations.filter { !known.contains($0.id) })
            }
            let sequences = try self.heldSequences(in: log)
            for replica in Set(snapshot.log.map(\.order.replica)).union(snapshot.fold.map { Array($0.covering.keys) } ?? []) {
                var progress = try log.replicaProgress(of: replica) ?? ReplicaProgress(replica: replica, sequence: 0, milliseconds: 0, counter: 0)
                (progress.sequence, progress.list) = (max(progress.sequence, sequences[replica] ?? 0), list)
                try log.setReplicaProgress(progress)
            }
            try Self.updateRecord(of: remote.identity, in: log) { $0.pullCursor = taken.cursor?.rawValue }
            var report = MergeReport(received: snapshot.log.count)
            report.new = logged
            return report
        }
    }
}

/// What a list holds besides itself: its headings, items, their checklist entries, and its
/// repeating series.
struct ListRows {
    var headings: [Heading] = []
    var items: [Item] = []
    var entries: [ChecklistItem] = []
    var series: [Series] = []

    /// None.
    init() {}

    /// What `list` holds in the store of `transaction`, trashed and completed included.
    init(of list: ItemList.ID, in transaction: any ItemReading) throws {
        headings = try transaction.headings(in: list)
        items = try transaction.items(in: list, visibility: .all, offset: 0, limit: .max)
        entries = Array(try transaction.checklists(of: items.map(\.id)).values.joined())
        series = try transaction.allSeries().filter { $0.listID == list }
    }
}
