public import ArrangeModel
package import ArrangeStore
package import Foundation

/// A store's rows and log at one moment: what a store that lacks operations this one folded
/// away takes instead of those operations.
///
/// ``SyncEngine/snapshot()`` makes one; ``SyncEngine/adopt(_:)`` takes one; ``SnapshotFile``
/// writes and reads one, for a new device that joins, through files alone, a group of
/// databases that has folded operations away.
///
/// ```swift
/// let data = try SnapshotFile.encode(try await laptop.snapshot())
/// // … the file reaches the phone …
/// try await phone.adopt(try SnapshotFile.decode(data))  // the phone now holds what the laptop held
/// ```
public struct SyncSnapshot: Sendable {
    /// The lists, in the sidebar's order (`ItemReading.lists()`).
    public let lists: [ItemList]
    /// The areas, in their order.
    public let areas: [Area]
    /// The headings, list by list in the order of ``lists``, each list's in its order.
    public let headings: [Heading]
    /// The items, list by list in the order of ``lists``, each list's in its order.
    public let items: [Item]
    /// The checklist entries, item by item in the order of ``items``, each checklist's in its order.
    public let checklistItems: [ChecklistItem]
    /// The tags, depth first in hand order: each tag before its children.
    public let tags: [Tag]
    /// The ids merged into another tag, by id.
    package let tagMerges: [TagMerge]
    /// The repeating series, oldest first.
    public let series: [Series]
    /// The store's default list, when it had one.
    public let defaultList: ItemList.ID?
    /// Where entries that left an ordering were, in no particular order.
    package let tombstones: [Tombstone]
    /// The log, in the order operations reached the store.
    package let log: [LoggedOperation]
    /// The operations the store had folded away; `nil` when it had folded none.
    package let fold: Fold?
    /// Who each operation the store had folded away was, in no particular order.
    package let foldedOperations: [FoldedOperation]
    /// The replicas the store had learned were forgotten, whose operations may be folded away.
    package let retired: [UUID]

    /// A snapshot of these parts.
    package init(
        lists: [ItemList], items: [Item], areas: [Area] = [], headings: [Heading] = [], checklistItems: [ChecklistItem] = [], tags: [Tag] = [],
        tagMerges: [TagMerge] = [], series: [Series] = [], defaultList: ItemList.ID?, tombstones: [Tombstone], log: [LoggedOperation], fold: Fold?,
        folded: [FoldedOperation] = [], retired: [UUID] = []
    ) {
        self.lists = lists
        self.areas = areas
        self.headings = headings
        self.items = items
        self.checklistItems = checklistItems
        self.tags = tags
        self.tagMerges = tagMerges
        self.series = series
        self.defaultList = defaultList
        self.tombstones = tombstones
        self.log = log
        self.fold = fold
        self.foldedOperations = folded
        self.retired = retired
    }

    /// The snapshot of the store of `transaction`.
    ///
    /// - Complexity: O(n + k) for n items and k logged operations.
    init(of transaction: any LogReading) throws {
        let lists = try transaction.lists()
        let items = try lists.flatMap { try transaction.items(in: $0.id, visibility: .all, offset: 0, limit: .max) }
        let checklists = try transaction.checklists(of: items.map(\.id))
        self.init(
            lists: lists,
            items: items,
            areas: try transaction.areas(),
            headings: try lists.flatMap { try transaction.headings(in: $0.id) },
            checklistItems: items.flatMap { checklists[$0.id] ?? [] },
            tags: try transaction.tags(),
            tagMerges: try transaction.tagMerges(),
            series: try transaction.allSeries(),
            defaultList: try transaction.defaultListID(),
            tombstones: try transaction.tombstones(),
            log: try transaction.loggedOperations(afterPosition: 0, limit: .max),
            fold: try transaction.fold(),
            folded: try transaction.foldedOperations(),
            retired: try transaction.replicaProgresses().filter(\.isRetired).map(\.replica).sorted { $0.uuidString < $1.uuidString })
    }

    /// What the snapshot's store had folded away: for each replica, the sequence number up to
    /// which its operations were folded; empty when it had folded none.
    ///
    /// A store that lacks any of those operations takes the whole snapshot
    /// (``SyncEngine/adopt(_:)``); one that holds them all can merge ``operations()`` instead.
    public var folded: [ReplicaID: Int64] {
        Dictionary(uniqueKeysWithValues: (fold?.covering ?? [:]).map { (ReplicaID(rawValue: $0.key), $0.value) })
    }

    /// For each replica in ``folded``, the id of its operation folded at that sequence number.
    public var foldedTips: [ReplicaID: SyncOperation.ID] {
        Dictionary(uniqueKeysWithValues: (fold?.tips ?? [:]).map { (ReplicaID(rawValue: $0.key), SyncOperation.ID(rawValue: $0.value)) })
    }

    /// How many operations the snapshot's log holds.
    public var operationCount: Int { log.count }

    /// How many operations the snapshot's store had folded away, all folds together.
    public var foldedCount: Int64 { fold?.count ?? 0 }

    /// The operations of the snapshot's log, in the order they reached its store.
    ///
    /// - Throws: `DecodingError` when the change of a logged operation cannot be read.
    public func operations() throws -> [SyncOperation] {
        try log.map(SyncOperation.init)
    }

    /// Whether the snapshot's store held an operation, logged or folded away.
    func holds(_ order: OperationOrder) -> Bool {
        heldIDs.contains(order.id) || fold?.coversBySequence(order) == true
    }

    /// The ids of the operations the snapshot's store held, logged or folded away.
    var heldIDs: Set<UUID> { Set(log.map(\.id)).union(foldedOperations.map(\.id)) }

    /// For each replica, the sequence number up to which the snapshot holds all of that
    /// replica's operations, folded ones included (what ``SyncEngine/merged(in:)`` says of a store).
    var merged: [UUID: Int64] {
        var sequences: [UUID: [Int64]] = [:]
        for logged in log { sequences[logged.order.replica, default: []].append(logged.order.sequence) }
        return SyncEngine.merged(folded: fold?.covering ?? [:], replicas: sequences.keys) { replica, above in
            Set(sequences[replica] ?? []).filter { $0 > above }.sorted()
        }
    }
}

extension SyncEngine {
    /// A snapshot of this store, read in one transaction without blocking the caller's thread:
    /// its lists, items, tombstones, log and fold, for another store to take
    /// (``adopt(_:)``), through a file (``SnapshotFile``) or otherwise.
    ///
    /// - Throws: ``SyncError/noOperationLog`` when the store's backend keeps no operation log,
    ///   and `StoreError` from the store.
    /// - Complexity: O(n + k) for n items and k logged operations.
    public func snapshot() async throws -> SyncSnapshot {
        try await repository.read { try SyncSnapshot(of: Self.log(of: $0)) }
    }

    /// Takes a snapshot of another store when this store lacks operations that store folded
    /// away: its lists, items, tombstones, log and fold replace this store's, and this store's
    /// own operations that its fold did not take in are merged into it again; those that sort
    /// before the fold are made again as replacements, so nothing done here is lost. The replica
    /// id, the acknowledgements and the cursors stay this store's. All of it happens in one
    /// write transaction.
    ///
    /// When this store lacks none of the operations the snapshot's store folded away, nothing
    /// changes: merge the snapshot's operations as those of a file instead,
    /// `merge(try snapshot.operations(), after: snapshot.folded, endingAt: snapshot.foldedTips)`.
    ///
    /// ```swift
    /// if try await phone.adopt(snapshot) == nil {
    ///     try await phone.merge(try snapshot.operations(), after: snapshot.folded, endingAt: snapshot.foldedTips)
    /// }
    /// ```
    ///
    /// - Parameter snapshot: The snapshot of another store (``snapshot()``).
    /// - Returns: The merge of this store's own operations into the snapshot, when it took the
    ///   snapshot; `nil` when it lacked nothing and changed nothing.
    /// - Throws: ``SyncError/foldedApart`` when this store has itself folded away operations
    ///   the snapshot's store lacks; what ``merge(_:in:)`` throws, and `StoreError` from the
    ///   store. Nothing changes then.
    @discardableResult
    public func adopt(_ snapshot: SyncSnapshot) async throws -> MergeReport? {
        try await repository.write { transaction in
            let log = try Self.log(of: transaction)
            guard let fold = snapshot.fold, try self.lacks(fold, in: log) else { return nil }
            if let ours = try log.fold(), Self.lacks(ours.covering, holding: snapshot.merged) || ours.tips.values.contains(where: { !snapshot.heldIDs.contains($0) }) {
                throw SyncError.foldedApart
            }
            // A store that never synced logs its own lists and items first, before the snapshot's replace them.
            _ = try self.preparedReplica(in: log)
            return try self.adopt(snapshot, fold: fold, in: log)
        }
    }

    /// Makes this store a copy of `peer`'s rows and log when the peer has folded away operations
    /// this store lacks, then merges into it again this store's own operations that the peer's
    /// fold did not take in, as ``adopt(_:)`` does with the peer's ``snapshot()``. The replica
    /// id, the acknowledgements and the cursors stay this store's.
    ///
    /// - Parameter peer: The engine of the other store.
    /// - Returns: The merge of this store's own operations into the snapshot, when it took one.
    /// - Throws: ``SyncError/foldedApart`` when this store has itself folded away operations
    ///   the peer lacks; nothing changes then.
    public func adoptSnapshot(of peer: SyncEngine) async throws -> MergeReport? {
        // Most exchanges need no snapshot: look at the peer's fold before reading its whole store.
        guard let theirs = try await peer.repository.read({ try Self.log(of: $0).fold() }),
              try await repository.read({ try self.lacks(theirs, in: Self.log(of: $0)) })
        else { return nil }
        return try await adopt(try await peer.snapshot())
    }

    /// Whether a store that holds `merged` (``merged(in:)``) lacks any of the operations a fold
    /// `covering` these took in.
    static func lacks(_ covering: [UUID: Int64], holding merged: [UUID: Int64]) -> Bool {
        covering.contains { merged[$0.key, default: 0] < $0.value }
    }

    /// Whether this store lacks any of the operations another store's `fold` took in: it holds
    /// less of a replica's operations, or not the operation the fold ends at, which another
    /// line of that replica's history (a copy, a restored backup) took the place of here.
    func lacks(_ fold: Fold, in transaction: any LogReading) throws -> Bool {
        try lacks(covering: fold.covering, tips: fold.tips.values, in: transaction)
    }

    /// Whether this store lacks any of the operations a store that folded `folded` away, up to
    /// the operations `tips`, took in (``lacks(_:in:)``, for a fold another store announced).
    func lacks(_ folded: [ReplicaID: Int64], endingAt tips: [ReplicaID: SyncOperation.ID], in transaction: any LogReading) throws -> Bool {
        try lacks(covering: Self.raw(folded), tips: tips.values.map(\.rawValue), in: transaction)
    }

    private func lacks(covering: [UUID: Int64], tips: some Collection<UUID>, in transaction: any LogReading) throws -> Bool {
        guard !covering.isEmpty || !tips.isEmpty else { return false }
        guard !Self.lacks(covering, holding: try heldSequences(in: transaction)) else { return true }
        return try tips.contains { try !Self.holds($0, in: transaction) }
    }

    /// Makes the store of `transaction`, which holds nothing yet, the snapshot's store, as the
    /// replica `replica`: for a store that keeps its replica and its snapshot elsewhere between
    /// uses, as the sync server does for each user's log.
    ///
    /// Unlike ``adopt(_:)``, nothing of this store is merged again: its replica's operations in
    /// the snapshot are its own.
    ///
    /// - Parameters:
    ///   - snapshot: The snapshot this store's replica took of itself last time (``snapshot()``).
    ///   - replica: This store's replica, as it was when the snapshot was taken or later.
    package func restore(_ snapshot: SyncSnapshot?, as replica: ReplicaState) async throws {
        try await repository.write { transaction in
            let log = try Self.log(of: transaction)
            if let snapshot {
                try self.replaceContents(with: snapshot, fold: snapshot.fold, preferringDefault: nil, in: log)
            }
            try log.setReplicaState(replica)
        }
    }

    /// Replaces this store's rows, tombstones, log and fold with the snapshot's, and learns the
    /// replicas it learned were forgotten.
    ///
    /// - Parameters:
    ///   - fold: The snapshot's fold; `nil` for a snapshot of a store that folded nothing.
    ///   - preferringDefault: This store's default list, kept when the snapshot holds it.
    private func replaceContents(with snapshot: SyncSnapshot, fold: Fold?, preferringDefault defaultList: ItemList.ID?, in transaction: any LogWriting) throws {
        let shares = try transaction.listShares()
        for list in try transaction.lists() { try transaction.deleteList(id: list.id) }
        for area in try transaction.areas() { try transaction.deleteArea(id: area.id) }
        for tag in try transaction.tags() where tag.parent == nil { try transaction.deleteTag(id: tag.id) }
        for merge in try transaction.tagMerges() { try transaction.apply(.unmergeTag(merge.id)) }
        for series in try transaction.allSeries() { try transaction.deleteSeries(id: series.id) }
        for tombstone in try transaction.tombstones() { try transaction.setTombstone(nil, of: tombstone.entry, in: tombstone.scope) }
        if let fold {
            _ = try transaction.fold(fold, removingThrough: max(try transaction.lastOperationOrder() ?? fold.through, fold.through), keeping: [])
        }
        try transaction.replaceFolded(with: snapshot.foldedOperations)

        for area in snapshot.areas { try transaction.insert(area) }
        for list in snapshot.lists { try transaction.insert(list) }
        for heading in snapshot.headings { try transaction.insert(heading) }
        for item in snapshot.items { try transaction.insert(item) }
        for entry in snapshot.checklistItems { try transaction.insert(entry) }
        for tag in snapshot.tags { try transaction.insert(tag) }
        for merge in snapshot.tagMerges { try transaction.mergeTag(merge.id, into: merge.tag) }
        for series in snapshot.series { try transaction.insert(series) }
        for tombstone in snapshot.tombstones { try transaction.setTombstone(tombstone.sortIndex, of: tombstone.entry, in: tombstone.scope) }
        for logged in snapshot.log { _ = try transaction.log(logged) }
        for candidate in [defaultList, snapshot.defaultList].compactMap({ $0 }) where try transaction.list(id: candidate) != nil {
            try transaction.setDefaultListID(candidate)
            break
        }
        try Self.restore(shares, in: transaction)
        try recountReplicaProgress(in: transaction)
        // The replicas the snapshot's store learned were forgotten, this one among them perhaps:
        // their operations may have been folded away, and the retirement with them.
        for replica in snapshot.retired {
            var progress = try transaction.replicaProgress(of: replica) ?? ReplicaProgress(replica: replica, sequence: 0, milliseconds: 0, counter: 0)
            progress.isRetired = true
            try transaction.setReplicaProgress(progress)
        }
    }

    /// Replaces this store's rows and log with the snapshot's, then merges into it again this
    /// store's own operations that the snapshot's `fold` did not take in.
    private func adopt(_ snapshot: SyncSnapshot, fold: Fold, in transaction: any LogWriting) throws -> MergeReport {
        // The lists shared with this store come back with its own operations, which the
        // snapshot of the user's own log lacks; so do their shares.
        let shares = try transaction.listShares()
        let report = try replaceAndMerge(snapshot, fold: fold, in: transaction)
        try Self.restore(shares, in: transaction)
        return report
    }

    /// ``adopt(_:fold:in:)``, but for the shares.
    private func replaceAndMerge(_ snapshot: SyncSnapshot, fold: Fold, in transaction: any LogWriting) throws -> MergeReport {
        let replica = try preparedReplica(in: transaction).id
        let logged = try transaction.loggedOperations(afterPosition: 0, limit: .max)
        let own = try logged.filter { !snapshot.holds($0.order) }.map(SyncOperation.init)
        // Operations under this store's replica id that the snapshot's store held and this store
        // never made (logged or folded away here): another line of this store's history, from a
        // copy or a restored backup.
        let madeHere = Set(logged.map(\.id)).union(try transaction.foldedOperations().map(\.id))
        let replacedThere = Set(snapshot.log.compactMap(\.replaces) + snapshot.foldedOperations.compactMap(\.replaces))
        let otherLine = (snapshot.log.map { ($0.id, $0.order.replica, $0.order.sequence) } + snapshot.foldedOperations.map { ($0.id, $0.replica, $0.sequence) })
            .filter { $0.1 == replica && !madeHere.contains($0.0) && !replacedThere.contains($0.0) }
        // This store's operations from the first sequence number the other line took on: made
        // again under a new id, whether the snapshot's store held them yet or not.
        let folded = Set(snapshot.foldedOperations.map(\.id))
        let forked = try otherLine.map(\.2).min().map { forkPoint in
            try logged.filter { $0.order.replica == replica && $0.order.sequence >= forkPoint && !folded.contains($0.id) && !replacedThere.contains($0.id) }
                .map(SyncOperation.init)
        } ?? []

        try replaceContents(with: snapshot, fold: fold, preferringDefault: try transaction.defaultListID(), in: transaction)
        guard !otherLine.isEmpty else {
            // The other line of this store's history left its id on finding this one's: this store leaves it too.
            let isLeftThere = try Self.forkedLeaves(in: transaction)[replica] != nil
            if isLeftThere { try leaveReplicaLeftElsewhere(replica, in: transaction) }
            var report = try merge(own, in: transaction, fromOwnLog: true)
            report.copiedReplicaDetected = report.copiedReplicaDetected || isLeftThere
            return report
        }
        try leaveReplica(replica, reaching: otherLine.map(\.2).max() ?? 0, forked: true, in: transaction)
        var report = try merge(own, in: transaction, fromOwnLog: true, remaking: forked)
        report.copiedReplicaDetected = true
        return report
    }
}
