public import ArrangeModel
public import ArrangeStore
public import Foundation
import ArrangeOrdering

/// Sync for one store: it logs the changes made here as operations, and merges the operations
/// of other replicas, so that every replica that holds the same operations ends with the same
/// lists, items, Today and keys, whatever order they arrived in, duplicated or not.
///
/// The store keeps everything sync needs, in the transaction of the change: its replica id,
/// the log of operations, and how to rewind each (`OperationLogWriting`).
///
/// ## The merge
/// Every replica applies the operations in one total order (clock, replica, sequence, id), once
/// each, through the ordering service with jitter off, so that key choice and re-spread depend
/// on the operations alone. An operation that arrives after operations later than it is slotted
/// in: the operations after it are taken back (each one's rows restored as they were), then it
/// and they are applied again. Appending, the common case, takes nothing back.
///
/// A change made here is applied at once by its intent, with keys of the intent's choosing, and
/// logged as not yet replayed. The next merge takes such changes back and replays them with
/// the others, so that their keys become the ones every replica computes.
///
/// ## The rules
/// - The latest operation decides each field, an item's list and its place in each ordering.
///   There is always exactly one copy of an item.
/// - A delete beats the edits and moves before it; an operation after it that touches what it
///   deleted does nothing, except one that adds it back with its id, as the undo of the delete does.
/// - A placement lands after its `after` neighbour if that is still there (at the top when it
///   had none), else before its `before` neighbour, else where `after` was when it was deleted
///   or moved away (its tombstone keeps its key), else at the bottom.
/// - An item added or moved to a list that is gone goes to the default list.
/// - A list created or renamed with a name another list has takes "Name (2)", "Name (3)"…
/// - The default list the merge makes has a fixed id (`ItemList.firstDefaultListID`), so that
///   fresh replicas never end with two.
///
/// ## Clocks that are wrong
/// A store takes in no operation of another replica stamped more than
/// ``HybridLogicalClock/maximumDrift`` ahead of its own wall clock, when its place in the order
/// decides anything (a renumbering or a retirement changes no rows). It holds that operation
/// back, with every later one of its replica, and goes on merging everything else; each merge
/// looks at them again, and lets them in once they are no longer ahead
/// (``MergeReport/aheadOfClock``). An operation that a replacement let in replaces
/// (`SyncChange.replacement(of:change:)`) is let in at once: it has no effect anywhere.
///
/// A store whose own clock went past the wall clock by more than the drift, and whose wall clock
/// is right again, recovers at its next write (``recoverClock()``): it leaves its replica id for
/// a new one, whose clock starts at the wall clock (after every operation it holds that is not
/// ahead), retires the old one (`SyncChange.retireReplica(id:)`), and makes again with the new
/// stamps, as replacements, the operations stamped ahead that it holds (its own, and those it
/// took in while its clock was ahead), unless every other replica has said it holds them, since
/// they may have been folded away then (``ClockRecovery``).
///
/// The trade-off: the edits of a device whose clock is far ahead reach no device whose clock is
/// right until the device's clock is set right, or until time catches up with them. A device
/// whose own clock is far behind holds back every other device's changes, and says so, until
/// its clock is set right.
public final class SyncEngine: Sendable {
    /// The default list's name, when the merge creates it.
    public static let defaultListName = ChangeContext.defaultListName

    /// The store this engine syncs.
    public let repository: any ItemRepository
    /// The wall clock, in milliseconds since 1970.
    let wallClock: @Sendable () -> Int64
    /// Makes the ids of new replicas and operations.
    let newID: @Sendable () -> UUID
    /// How many operations an exchange with another store merges in one transaction.
    let pageSize: Int

    /// An engine for the store of `repository`.
    ///
    /// - Parameters:
    ///   - repository: The store; its transactions hold the log.
    ///   - wallClock: Milliseconds since 1970, for the hybrid logical clock.
    ///   - newID: Makes the ids of a new replica and of operations.
    public convenience init(
        repository: any ItemRepository,
        wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMilliseconds,
        newID: @escaping @Sendable () -> UUID = UUID.random
    ) {
        self.init(repository: repository, wallClock: wallClock, newID: newID, pageSize: Self.exchangePageSize)
    }

    /// How many operations an exchange merges in one transaction, by default.
    static let exchangePageSize = 1_000

    /// An engine whose exchanges merge at most `pageSize` operations in one transaction: for
    /// the tests of paging.
    package init(
        repository: any ItemRepository, wallClock: @escaping @Sendable () -> Int64 = HybridLogicalClock.systemMilliseconds,
        newID: @escaping @Sendable () -> UUID = UUID.random, pageSize: Int
    ) {
        self.repository = repository
        self.wallClock = wallClock
        self.newID = newID
        self.pageSize = max(1, pageSize)
    }

    // MARK: The replica

    /// This store's replica id, given it in `transaction` the first time it is asked for.
    ///
    /// - Throws: ``SyncError/noOperationLog`` when the store's backend keeps no operation log.
    public func replicaID(in transaction: any ItemWriting) throws -> ReplicaID {
        let log = try Self.log(of: transaction)
        if let state = try log.replicaState() { return ReplicaID(rawValue: state.id) }
        return try rekey(in: log, restartingAt: nil)
    }

    /// Makes this store a replica, when it is not one yet: it takes a replica id, and logs all it
    /// holds as operations that create it, so that its first sync carries everything.
    ///
    /// An app calls it when it turns sync on for a file that never synced; an exchange, a merge
    /// and a snapshot call it themselves.
    ///
    /// - Returns: The store's replica id.
    /// - Throws: ``SyncError/noOperationLog`` when the store's backend keeps no operation log.
    /// - Complexity: O(n) for n items, the first time; one read after that.
    @discardableResult
    public func startSyncing() async throws -> ReplicaID {
        try await repository.write { transaction in ReplicaID(rawValue: try self.preparedReplica(in: Self.log(of: transaction)).id) }
    }

    /// Gives this store a new replica id, whose operations start again from sequence number 1:
    /// for a database that was copied from another, since the copy and its original must not
    /// make operations under one id.
    ///
    /// - Returns: The new id.
    /// - Throws: ``SyncError/noOperationLog`` when the store's backend keeps no operation log.
    @discardableResult
    public func rekey(in transaction: any ItemWriting) throws -> ReplicaID {
        try rekey(in: Self.log(of: transaction), restartingAt: nil)
    }

    /// Gives this store a new replica id, `id` or else a new one, whose clock starts at `start`,
    /// or else after everything the old one made or merged.
    func rekey(in log: any LogWriting, restartingAt start: HLCTimestamp?, id chosen: ReplicaID? = nil) throws -> ReplicaID {
        // The operations made under the old id are another replica's from now on.
        if let old = try log.replicaState(), old.lastSequence > 0 {
            let known = try log.replicaProgress(of: old.id)
            try log.setReplicaProgress(ReplicaProgress(
                replica: old.id, sequence: max(known?.sequence ?? 0, old.lastSequence), milliseconds: old.lastMilliseconds, counter: old.lastCounter,
                isRetired: known?.isRetired ?? false))
        }
        let id = chosen ?? ReplicaID(rawValue: newID())
        // Unless told otherwise, the new replica's operations come after everything the old one
        // made or merged.
        let old = try log.replicaState()
        var state = ReplicaState(id: id.rawValue, clockOffset: old?.clockOffset ?? 0)
        state.lastClock = start ?? old?.lastClock ?? HLCTimestamp(milliseconds: 0, counter: 0)
        try log.setReplicaState(state)
        return id
    }

    /// Records again the shares of `shares` whose lists are here and lost their share: a list
    /// whose creation was taken back and made again, or that a snapshot put back.
    static func restore(_ shares: [ListShare], in transaction: any LogWriting) throws {
        for share in shares where try transaction.share(of: share.list) == nil && transaction.list(id: share.list) != nil {
            try transaction.apply(.setListShare(share, of: share.list))
        }
    }

    /// The operation log of a write transaction of the store, which sync's changes are logged in.
    ///
    /// - Throws: ``SyncError/noOperationLog`` when the store's backend keeps none.
    static func log(of transaction: any ItemWriting) throws -> any LogWriting {
        guard let log = transaction.operationLog else { throw SyncError.noOperationLog }
        log.markChangesLogged()
        return log
    }

    /// The operation log of a transaction of the store, for reading.
    ///
    /// - Throws: ``SyncError/noOperationLog`` when the store's backend keeps none.
    static func log(of transaction: any ItemReading) throws -> any LogReading {
        guard let log = transaction.operationLogReader else { throw SyncError.noOperationLog }
        return log
    }

    // MARK: Changes made here

    /// Runs `body`, which makes a change here and says what it did, and logs it as operations
    /// of this replica, with how to take the whole change back.
    ///
    /// The first time a store with lists in it records or merges anything, its lists and items
    /// are logged first, as operations that create them, so that other replicas receive them.
    ///
    /// - Parameters:
    ///   - transaction: The write transaction of the change.
    ///   - body: Makes the change through the transaction it is given, which watches its writes,
    ///     and returns its result and the changes to log; `nil` to tell them by the rows written.
    ///   - shared: The lists whose logs may take the changes; by default those shared when the
    ///     change begins (deleting a shared list takes its share along).
    /// - Returns: The result of `body`, and the operations logged.
    func logging<Result>(
        in transaction: any ItemWriting, sharing shared: Set<ItemList.ID>? = nil, _ body: (RewindRecorder) throws -> (Result, told: [SyncChange]?)
    ) throws -> (Result, [SyncOperation]) {
        let log = try Self.log(of: transaction)
        let replica = try preparedReplica(in: log)
        let shared = try shared ?? Set(log.listShares().map(\.list))
        let recorder = RewindRecorder(log)
        let (result, told) = try body(recorder)
        let changes = try told ?? recorder.recorded.changes(upToDateIn: log)
        return (result, try self.log(changes, of: replica, rewind: try recorder.loggedRewind(), sharing: shared, in: log))
    }

    /// Runs `body`, which makes a change here, and logs the changes it says it made: for a
    /// program that changes the store by hand, such as a benchmark.
    ///
    /// - Returns: The result of `body`, and the operations logged.
    package func recording<Result>(
        in transaction: any ItemWriting, logging body: (any ItemWriting) throws -> (Result, [SyncChange])
    ) throws -> (Result, [SyncOperation]) {
        try logging(in: transaction) { recorder in
            let (result, changes) = try body(recorder)
            return (result, changes)
        }
    }

    /// Logs changes made here as operations of this replica, not yet replayed; the first takes
    /// back, with `rewind`, what they all did. A change of many items is logged as several
    /// operations (`SyncChange.split()`), so that every operation fits within
    /// `SyncOperation.maximumEncodedSize`.
    ///
    /// A change that belongs to a shared list's log is logged as this store's replica of that
    /// list, with a sequence of its own (see ``ReplicaLogs``); one clock stamps them all.
    ///
    /// - Parameter shared: The lists shared with this store when the change began; by default,
    ///   those shared now.
    func log(
        _ changes: [SyncChange], of replica: ReplicaState, rewind: Rewind, sharing shared: Set<ItemList.ID>? = nil, in transaction: any LogWriting
    ) throws -> [SyncOperation] {
        let changes = changes.flatMap { $0.split() }
        guard !changes.isEmpty else { return [] }
        // After this replica's last operation, and after every operation merged here (which the
        // merge folds into the replica's clock).
        var clock = HybridLogicalClock(latest: replica.lastClock, wallClock: wallClock(correctedBy: replica.clockOffset))
        var state = replica
        let routing = try SharedLogRouting(transaction, rewind: rewind, sharing: shared)
        var sharedLines: [ItemList.ID: ReplicaProgress] = [:]
        let whole = LogJSON.encode { $0.rewind(rewind) }
        var operations: [SyncOperation] = []
        for (list, change) in try changes.flatMap(routing.destinations) {
            let (id, sequence): (UUID, Int64)
            let stamp = clock.tick()
            if let list {
                let shared = Self.sharedReplica(of: list, under: ReplicaID(rawValue: replica.id)).rawValue
                var line = try sharedLines[list] ?? transaction.replicaProgress(of: shared)
                    ?? ReplicaProgress(replica: shared, sequence: 0, milliseconds: 0, counter: 0, list: list)
                line.sequence += 1
                (line.milliseconds, line.counter, line.list) = (stamp.milliseconds, Int64(stamp.counter), list)
                sharedLines[list] = line
                (id, sequence) = (shared, line.sequence)
            } else {
                state.lastSequence += 1
                (id, sequence) = (state.id, state.lastSequence)
            }
            let operation = SyncOperation(id: SyncOperation.ID(rawValue: newID()), replica: ReplicaID(rawValue: id), sequence: sequence, clock: stamp, change: change)
            // The operations of one change are taken back together, so the first holds it all.
            _ = try transaction.log(operation.logged(rewind: operations.isEmpty ? whole : SyncCoding.emptyRewind, isReplayed: false))
            operations.append(operation)
        }
        for line in sharedLines.values { try transaction.setReplicaProgress(line) }
        state.lastClock = clock.latest
        try transaction.setReplicaState(state)
        return operations
    }

    /// This store as a replica. A store that has never synced takes a replica id, `id` or else a
    /// new one, and logs its areas, lists, headings, items and checklists as operations that
    /// create them, so that they reach other replicas.
    ///
    /// A store whose clock ran ahead and is right again recovers first (``recoverClock(in:)``).
    ///
    /// - Complexity: O(n) for n items, once in the store's life; one read after that.
    func preparedReplica(in transaction: any LogWriting, id: ReplicaID? = nil) throws -> ReplicaState {
        if let state = try transaction.replicaState() {
            guard try recoverClock(of: state, in: transaction) != nil else { return state }
            return try transaction.replicaState() ?? state
        }
        let replica = ReplicaState(id: try rekey(in: transaction, restartingAt: nil, id: id).rawValue)
        var rewind = Rewind()
        for area in try transaction.areas() { rewind.areas.append(Rewind.AreaImage(id: area.id, area: nil)) }
        for series in try transaction.allSeries() { rewind.series.append(Rewind.SeriesImage(id: series.id, series: nil)) }
        for list in try transaction.lists() {
            rewind.lists.append(Rewind.ListImage(id: list.id, list: nil))
            for heading in try transaction.headings(in: list.id) { rewind.headings.append(Rewind.HeadingImage(id: heading.id, heading: nil)) }
            let items = try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max)
            let checklists = try transaction.checklists(of: items.map(\.id))
            for item in items {
                rewind.items.append(Rewind.ItemImage(id: item.id, item: nil))
                for entry in checklists[item.id] ?? [] { rewind.checklistItems.append(Rewind.ChecklistImage(id: entry.id, entry: nil)) }
            }
        }
        _ = try log(try rewind.changes(upToDateIn: transaction), of: replica, rewind: rewind, in: transaction)
        return try transaction.replicaState() ?? replica
    }

    /// Makes a change here by the rules of the merge, with keys chosen as an intent chooses them
    /// (jitter on), and logs it, in one write transaction.
    ///
    /// Front ends change the store through intents, which log what they do; this is for a
    /// program that speaks in operations, such as a server or a simulation.
    ///
    /// - Returns: The operation logged; the first, for a change of so many items that it is
    ///   logged as several.
    @discardableResult
    public func perform(_ change: SyncChange) throws -> SyncOperation {
        try repository.write { try self.perform(change, in: $0) }
    }

    /// Makes a change here by the rules of the merge, in `transaction`, and logs it.
    func perform(_ change: SyncChange, in transaction: any ItemWriting) throws -> SyncOperation {
        let stamp = Date(timeIntervalSince1970: Double(wallClock() + (try Self.log(of: transaction).replicaState()?.clockOffset ?? 0)) / 1_000)
        let ((), logged) = try logging(in: transaction) { recorder in
            try change.apply(in: ChangeContext(recorder, log: recorder.log, tombstones: recorder, at: stamp, ordering: OrderingConfiguration(), repository: repository))
            return ((), [change])
        }
        return logged[0]
    }

    // MARK: Merging

    /// Merges operations into the store, in one write transaction, each once.
    ///
    /// - Returns: What was new, taken back and applied.
    /// - Throws: `StoreError` or `OrderingError` from the store, or `DecodingError` when the
    ///   store's log cannot be read; nothing is merged then.
    @discardableResult
    public func merge(_ operations: [SyncOperation]) throws -> MergeReport {
        try repository.write { try merge(operations, in: $0) }
    }

    /// Merges operations into the store, in one write transaction, each once, without blocking
    /// the caller's thread while the transaction waits or runs.
    ///
    /// - Returns: What was new, taken back and applied.
    /// - Throws: `StoreError` or `OrderingError` from the store, or `DecodingError` when the
    ///   store's log cannot be read; nothing is merged then.
    @discardableResult
    public func merge(_ operations: [SyncOperation]) async throws -> MergeReport {
        try await repository.write { try self.merge(operations, in: $0) }
    }

    /// Merges operations that come after a fold, in one write transaction, each once: from a
    /// file of a store that had folded operations away, say.
    ///
    /// - Parameters:
    ///   - operations: Operations from anywhere, in any order, duplicates included.
    ///   - folded: For each replica, the sequence number up to which the operations' store had
    ///     folded its operations away; this store must hold those.
    ///   - tips: For each replica in `folded`, the id of its operation folded there, when the
    ///     file says: this store must hold that one, and not another that a copy or a restored
    ///     backup of a database made under the same number.
    /// - Returns: What was new, taken back and applied.
    /// - Throws: ``SyncError/missingFoldedOperations`` when this store lacks some of the folded
    ///   operations, and what ``merge(_:in:)`` throws; nothing is merged then.
    @discardableResult
    public func merge(
        _ operations: [SyncOperation], after folded: [ReplicaID: Int64], endingAt tips: [ReplicaID: SyncOperation.ID] = [:]
    ) async throws -> MergeReport {
        try await merge(OperationFile.Contents(operations: operations, folded: folded, foldedTips: tips))
    }

    /// Merges operations in a write transaction, each once, and replays the changes made here
    /// since the last merge. The store's default list stays the default if it is still there.
    ///
    /// - Parameters:
    ///   - operations: Operations from anywhere, in any order, duplicates and ones already
    ///     merged included.
    ///   - transaction: A write transaction of ``repository``'s store.
    /// - Returns: What was new, taken back and applied.
    /// - Throws: ``OperationCheckError`` when an operation breaks a rule of ``OperationCheck``
    ///   (those that hold for operations made before the size limits, ``OperationCheck/Rules/carriedForward``),
    ///   or has the id of another operation of the log; `StoreError` or `OrderingError` from the
    ///   store, or `DecodingError` when the store's log cannot be read. The caller's transaction
    ///   should then roll back: nothing of the batch is merged.
    /// - Complexity: O(k) operations applied for k new ones, when they come after everything
    ///   logged; an operation earlier than m logged ones takes those m back and applies them again.
    @discardableResult
    public func merge(_ operations: [SyncOperation], in transaction: any ItemWriting) throws -> MergeReport {
        try merge(operations, in: transaction, fromOwnLog: false)
    }

    /// Merges operations as ``merge(_:in:)`` does; with `fromOwnLog`, they come from this store's
    /// own log, merged again into a snapshot it took, so those under its replica id were made
    /// here and are not a copied file's.
    func merge(
        _ operations: [SyncOperation], in transaction: any ItemWriting, fromOwnLog: Bool, remaking forkedHere: [SyncOperation] = []
    ) throws -> MergeReport {
        try OperationCheck.validate(operations, rules: .carriedForward)
        let transaction = try Self.log(of: transaction)
        var report = MergeReport(received: operations.count)
        report.clockRecovery = try recoverClock(in: transaction)
        let replica = try preparedReplica(in: transaction).id
        let fold = try transaction.fold()
        var seen = Set<SyncOperation.ID>()
        var candidates: [SyncOperation] = []
        for (index, operation) in operations.enumerated() where seen.insert(operation.id).inserted {
            if let logged = try transaction.loggedOperation(id: operation.id.rawValue) {
                guard try SyncOperation(logged).isSame(as: operation) else { throw OperationCheckError.refused(position: index + 1, .idLoggedOtherwise(operation.id)) }
                continue
            }
            guard try !Self.isFolded(operation.order, fold: fold, in: transaction) else { continue }
            candidates.append(operation)
        }
        // The operation a renumbering carries reaches the store with it, where it lacks it.
        for carried in candidates.compactMap(\.change.renumberedOperation) where !seen.contains(carried.id) {
            guard try !Self.holds(carried.id.rawValue, in: transaction), try !Self.isFolded(carried.order, fold: fold, in: transaction) else { continue }
            seen.insert(carried.id)
            candidates.append(carried)
        }
        var new: [SyncOperation] = []
        var late: [SyncOperation] = []
        var otherLine: [SyncOperation] = []
        for operation in try admitted(candidates, own: replica, fold: fold, in: transaction, report: &report) {
            // An operation of this replica's id that this store never made: the file was copied,
            // or restored from a backup, and another line of its history went on elsewhere.
            if operation.replica.rawValue == replica, !fromOwnLog { otherLine.append(operation) }
            if let fold, operation.order <= fold.through { late.append(operation) } else { new.append(operation) }
        }
        var forked = forkedHere
        if !otherLine.isEmpty {
            report.copiedReplicaDetected = true
            forked += try operationsForked(by: otherLine, of: replica, besides: new + late, in: transaction)
            try leaveReplica(
                replica, reaching: (new + late).filter { $0.replica.rawValue == replica }.map(\.sequence).max() ?? 0, forked: true, incoming: new + late,
                in: transaction)
        }
        // A replacement of an operation this store folded away, applied where it was: the
        // replacement's store folded apart from this one.
        for operation in new + late {
            guard case .replacement(let original, _) = operation.change, try Self.isFolded(original.order, fold: fold, in: transaction) else { continue }
            guard try !Self.isReplacedInEffect(original.id.rawValue, in: transaction) else { continue }
            throw SyncError.foldedApart
        }
        report.new = new.count + late.count
        // The changes made here since the last merge, before `replace` logs late operations as
        // replayed after them.
        let unreplayedHere = try transaction.firstUnreplayedOperation()
        report.replaced = try replace(late, besides: new, in: transaction)
        report.remade = try remake(forked, in: transaction)

        // A replacement takes its original out of the order: the merge rewinds to where that was applied.
        var starts = new.map(\.order) + forked.map(\.order)
        for operation in new {
            guard case .replacement(let original, _) = operation.change else { continue }
            if try transaction.loggedOperation(id: original.id.rawValue) != nil { starts.append(original.order) }
        }
        // An operation kept without being applied, whose kind of change this version knows now.
        for logged in try transaction.unappliedOperations() where try !SyncChange.decoding(logged.change).isUnknown {
            starts.append(logged.order)
            break
        }
        let firstUnreplayed = [unreplayedHere, try transaction.firstUnreplayedOperation()].compactMap { $0 }
        guard let start = (starts + firstUnreplayed).min() else { return report }

        // Which list is the default, and which are shared, are this store's own settings, not
        // operations: taking back the creation of a list would lose them.
        let defaultList = try transaction.defaultListID()
        let shares = try transaction.listShares()
        // Take back the changes made here since the last merge, newest first; then the merged
        // operations from `start` on, which were applied in the total order.
        let tail = try transaction.loggedOperations(from: start, limit: .max)
        let unreplayed = tail.filter { !$0.isReplayed }.sorted { $0.position > $1.position }
        for logged in unreplayed + tail.filter(\.isReplayed).reversed() {
            try SyncCoding.decoder.decode(Rewind.self, from: logged.rewind).restore(in: transaction)
        }
        report.rewound = tail.count

        for operation in new { _ = try transaction.log(operation.logged(rewind: SyncCoding.emptyRewind, isReplayed: false)) }
        // What arrived is at hand already: only operations logged before need their change read.
        let arrived = Dictionary(new.map { ($0.id.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
        for logged in try transaction.loggedOperations(from: start, limit: .max) {
            if try isSuperseded(logged, in: transaction) {
                try transaction.setRewind(SyncCoding.emptyRewind, isReplayed: true, isUnapplied: false, ofOperation: logged.id)
                continue
            }
            let operation = try arrived[logged.id] ?? SyncOperation(logged)
            guard !operation.change.isUnknown else {
                try transaction.setRewind(SyncCoding.emptyRewind, isReplayed: true, isUnapplied: true, ofOperation: logged.id)
                report.unapplied += 1
                continue
            }
            let recorder = RewindRecorder(transaction)
            try operation.replay(in: recorder, repository: repository)
            let rewind = try recorder.loggedRewind()
            try transaction.setRewind(LogJSON.encode { $0.rewind(rewind) }, isReplayed: true, isUnapplied: false, ofOperation: logged.id)
            report.applied += 1
        }
        if let defaultList, try transaction.defaultListID() != defaultList, try transaction.list(id: defaultList) != nil {
            try transaction.setDefaultListID(defaultList)
        }
        try Self.restore(shares, in: transaction)
        // Forgotten by the others, this store carries on as a new replica, unless it left the id
        // in this merge already.
        let isStillUnder = try transaction.replicaState()?.id == replica
        if isStillUnder, try transaction.replicaProgress(of: replica)?.isRetired == true {
            try rekey(in: transaction)
            report.forgottenHere = true
        } else if isStillUnder, (new + late).contains(where: { $0.change.effect == .leaveForkedReplica(id: ReplicaID(rawValue: replica)) }) {
            try leaveReplicaLeftElsewhere(replica, in: transaction)
            report.copiedReplicaDetected = true
        }
        // The next change made here comes after everything merged that is not stamped ahead
        // (what is has no effect: see `SyncEngine+Clock`).
        if var state = try transaction.replicaState(), let last = try latestOrderInTime(in: transaction) {
            var clock = HybridLogicalClock(latest: state.lastClock, wallClock: wallClock(correctedBy: state.clockOffset))
            state.lastClock = clock.receive(HLCTimestamp(last))
            try transaction.setReplicaState(state)
        }
        if !fromOwnLog { try restateForMembers(new + late, in: transaction) }
        return report
    }

    /// The operations let in (``admittedInSequence(_:own:replacedHere:fold:in:report:)``), and
    /// then, when some of them replace operations held back as stamped ahead, those too: a
    /// replacement let in takes them out of the order, and they follow it in.
    private func admitted(
        _ candidates: [SyncOperation], own replica: UUID, fold: Fold?, in transaction: any LogWriting, report: inout MergeReport
    ) throws -> [SyncOperation] {
        let admitted = try admittedInSequence(candidates, own: replica, replacedHere: [], fold: fold, in: transaction, report: &report)
        guard !report.aheadOfClock.isEmpty else { return admitted }
        var replaced = Set<UUID>()
        for operation in admitted {
            if case .replacement(let original, _) = operation.change { replaced.insert(original.id.rawValue) }
        }
        guard !replaced.isEmpty else { return admitted }
        // The second look counts again what still waits.
        (report.gaps, report.aheadOfClock, report.held) = ([], [], 0)
        return admitted + (try admittedInSequence([], own: replica, replacedHere: replaced, fold: fold, in: transaction, report: &report))
    }

    /// The operations that follow their replica's operations here without a gap, from
    /// `candidates` and those held before; the others are held (kept, neither logged nor
    /// applied): those after a gap until the operations before them arrive, and from the first
    /// stamped more than ``HybridLogicalClock/maximumDrift`` ahead of the wall clock (unless an
    /// operation logged, or in `replacedHere`, replaces it) until they are no longer ahead. Records how
    /// far each replica's operations now go, and reports what is held, what is missing and what
    /// is ahead.
    ///
    /// An operation at or below what this store holds of its replica is let in: a second
    /// operation under one replica and sequence number comes from a copied database. This
    /// replica's own operations are always let in, for the same reason.
    ///
    /// - Complexity: O(k log k) for k candidates and held operations, and one read and one write
    ///   of each replica's progress.
    private func admittedInSequence(
        _ candidates: [SyncOperation], own replica: UUID, replacedHere: Set<UUID>, fold: Fold?, in transaction: any LogWriting,
        report: inout MergeReport
    ) throws -> [SyncOperation] {
        var admitted = candidates.filter { $0.replica.rawValue == replica }
        var waiting: [UUID: [SyncOperation]] = [:]
        for operation in candidates where operation.replica.rawValue != replica { waiting[operation.replica.rawValue, default: []].append(operation) }
        var heldBefore = Set<SyncOperation.ID>()
        var released: [UUID] = []
        for logged in try transaction.heldOperations() {
            let operation = try SyncOperation(logged)
            heldBefore.insert(operation.id)
            // A snapshot taken since may hold it already.
            if try Self.holds(operation.id.rawValue, in: transaction) || Self.isFolded(operation.order, fold: fold, in: transaction)
                || operation.replica.rawValue == replica {
                released.append(logged.id)
                continue
            }
            waiting[operation.replica.rawValue, default: []].append(operation)
        }
        // An operation that a replacement logged or let in replaces has no effect anywhere,
        // however far ahead it is stamped; nor has a renumbering or a retirement a place that
        // decides anything.
        let (wall, horizon) = wallClockAndHorizon(correctedBy: try transaction.replicaState()?.clockOffset ?? 0)
        for (other, operations) in waiting {
            var progress = try transaction.replicaProgress(of: other)
                ?? ReplicaProgress(replica: other, sequence: fold?.covering[other] ?? 0, milliseconds: 0, counter: 0)
            var seen = Set<SyncOperation.ID>()
            var gap: MergeReport.Gap?
            var ahead: MergeReport.AheadOfClock?
            func hold(_ operation: SyncOperation) throws {
                if !heldBefore.contains(operation.id) { try transaction.hold(operation.logged(rewind: Data(), isReplayed: false)) }
            }
            for operation in operations.sorted(by: { ($0.sequence, $0.order) < ($1.sequence, $1.order) }) where seen.insert(operation.id).inserted {
                if ahead == nil, operation.sequence <= progress.sequence + 1, operation.clock.milliseconds > horizon, operation.change.isRestatable,
                   try !replacedHere.contains(operation.id.rawValue) && !Self.isReplacedInEffect(operation.id.rawValue, in: transaction) {
                    ahead = MergeReport.AheadOfClock(replica: operation.replica, aheadByMilliseconds: operation.clock.milliseconds - wall, held: 0)
                }
                if ahead != nil {
                    try hold(operation)
                    ahead?.held += 1
                    continue
                }
                guard operation.sequence <= progress.sequence + 1 else {
                    try hold(operation)
                    gap = gap ?? MergeReport.Gap(replica: operation.replica, firstMissing: progress.sequence + 1, held: 0)
                    gap?.held += 1
                    continue
                }
                admitted.append(operation)
                if heldBefore.contains(operation.id) { released.append(operation.id.rawValue) }
                progress.sequence = max(progress.sequence, operation.sequence)
                if (operation.clock.milliseconds, Int64(operation.clock.counter)) > (progress.milliseconds, progress.counter) {
                    (progress.milliseconds, progress.counter) = (operation.clock.milliseconds, Int64(operation.clock.counter))
                }
            }
            try transaction.setReplicaProgress(progress)
            if let gap { report.gaps.append(gap) }
            if let ahead { report.aheadOfClock.append(ahead) }
        }
        try transaction.release(released)
        report.held = report.gaps.reduce(0) { $0 + $1.held } + report.aheadOfClock.reduce(0) { $0 + $1.held }
        report.gaps.sort { $0.replica < $1.replica }
        report.aheadOfClock.sort { $0.replica < $1.replica }
        return admitted
    }

    /// Records how far this store holds each other replica's operations, counted from its log and
    /// its fold: after it took another store's log as its own.
    ///
    /// Progress counts an operation at every number, on whichever line of a replica's history
    /// (``heldSequences(in:)``), as the merge counts what it lets in: stopped before two lines
    /// that part, it would take the operations after them for a gap once one line was renumbered,
    /// and hold them for good, as nothing sends again what the store holds.
    ///
    /// - Complexity: O(n) for n logged operations.
    func recountReplicaProgress(in transaction: any LogWriting) throws {
        let own = try transaction.replicaState()?.id
        var latest: [UUID: OperationOrder] = [:]
        for logged in try transaction.loggedOperations(afterPosition: 0, limit: .max) where latest[logged.order.replica].map({ $0 < logged.order }) ?? true {
            latest[logged.order.replica] = logged.order
        }
        for (replica, sequence) in try heldSequences(in: transaction) where replica != own {
            try transaction.setReplicaProgress(ReplicaProgress(
                replica: replica, sequence: sequence, milliseconds: latest[replica]?.milliseconds ?? 0, counter: latest[replica]?.counter ?? 0))
        }
    }

    /// Logs operations that sort before what this store has folded away, and so cannot be slotted
    /// in, as applied without effect; and makes each again, after everything, as a replacement
    /// of this replica's, unless a replacement of it is logged or among them.
    ///
    /// - Parameters:
    ///   - late: The operations that sort before the fold.
    ///   - new: The other operations being merged, whose replacements count too.
    /// - Returns: How many replacements were made.
    private func replace(_ late: [SyncOperation], besides new: [SyncOperation], in transaction: any LogWriting) throws -> Int {
        guard !late.isEmpty else { return 0 }
        var replaced = Set<UUID>()
        for operation in late + new {
            if case .replacement(let original, _) = operation.change { replaced.insert(original.id.rawValue) }
        }
        for operation in late { _ = try transaction.log(operation.logged(rewind: SyncCoding.emptyRewind, isReplayed: true)) }
        var replacements: [SyncChange] = []
        for operation in late where !replaced.contains(operation.id.rawValue) {
            guard try Self.replacements(of: operation.id.rawValue, renumbering: false, in: transaction).isEmpty else { continue }
            replacements.append(.replacement(of: OperationReference(operation), change: operation.change.effect))
        }
        return try log(replacements, of: try preparedReplica(in: transaction), rewind: Rewind(), in: transaction).count
    }

    /// Whether an operation has no effect: another replaces it, or it replaces one that an earlier
    /// replacement replaced already. Renumberings change nothing either way.
    private func isSuperseded(_ logged: LoggedOperation, in transaction: any LogReading) throws -> Bool {
        if try Self.isReplacedInEffect(logged.id, in: transaction) { return true }
        guard let original = logged.replaces, try !Self.isRenumbering(logged) else { return false }
        // A replacement folded away came first.
        if try !transaction.foldedReplacements(of: original).isEmpty { return true }
        guard let first = try Self.replacements(of: original, renumbering: false, in: transaction).first else { return false }
        return first < logged.order
    }

    // MARK: Forks

    /// This store's own operations that another line of its history, made under its replica id
    /// by a copy of its database or the database a backup of it was restored over, took the
    /// sequence numbers of: from the first sequence number at which the other line has an
    /// operation that is not replaced, those of this store that are not replaced.
    ///
    /// - Parameters:
    ///   - otherLine: Operations under this store's replica id that it never made.
    ///   - batch: The operations being merged, whose replacements count too.
    /// - Complexity: O(n) for n logged operations.
    private func operationsForked(
        by otherLine: [SyncOperation], of replica: UUID, besides batch: [SyncOperation], in transaction: any LogReading
    ) throws -> [SyncOperation] {
        var replacedInBatch = Set<UUID>()
        for operation in batch {
            switch operation.change {
            case .replacement(let original, _), .renumbering(let original, _): replacedInBatch.insert(original.id.rawValue)
            default: break
            }
        }
        let live = try otherLine.filter { try !replacedInBatch.contains($0.id.rawValue) && !Self.isOffLine($0.id.rawValue, in: transaction) }
        guard let forkPoint = live.map(\.sequence).min() else { return [] }
        return try transaction.loggedOperations(afterPosition: 0, limit: .max)
            .filter { $0.order.replica == replica && $0.order.sequence >= forkPoint }
            .filter { try !replacedInBatch.contains($0.id) && !Self.isOffLine($0.id, in: transaction) }
            .map(SyncOperation.init)
    }

    /// Leaves this store's replica id, which another database uses too or whose clock ran
    /// ahead: this store takes a new id.
    ///
    /// An id whose clock ran ahead, no one else uses: this store retires it
    /// (`SyncChange.retireReplica(id:)`), so that it holds no fold back. An id another line of
    /// its history uses (`forked`) holds folds back until that line learns of the leave
    /// (`SyncChange.leaveForkedReplica(id:)`) and leaves it too, unless that line has left it
    /// already, in the log or among `incoming`: this store then retires it.
    ///
    /// Leaving a forked id, this store also states again, as renumberings, what it made as its
    /// replica of each shared list and pushed to none of that list's remotes
    /// (``sharedReplica(of:under:)``): the other line may make others under those numbers, and
    /// this store's replicas of the lists change with its id.
    ///
    /// - Parameters:
    ///   - replica: The id this store leaves.
    ///   - reached: The highest sequence number under it that this store knows of.
    ///   - start: Where the new id's clock starts; after everything the old one made or merged when `nil`.
    ///   - forked: Whether another line of the id's history goes on elsewhere.
    ///   - incoming: Operations being merged, not logged yet, that may hold the other line's leave.
    /// - Returns: How many operations of the shared lists were renumbered.
    @discardableResult
    func leaveReplica(
        _ replica: UUID, reaching reached: Int64, restartingAt start: HLCTimestamp? = nil, forked: Bool, incoming: [SyncOperation] = [],
        in transaction: any LogWriting
    ) throws -> Int {
        _ = try rekey(in: transaction, restartingAt: start)
        // The old id is another replica's now, whose operations go as far as the other line's.
        var progress = try transaction.replicaProgress(of: replica) ?? ReplicaProgress(replica: replica, sequence: 0, milliseconds: 0, counter: 0)
        progress.sequence = max(progress.sequence, reached)
        try transaction.setReplicaProgress(progress)
        let id = ReplicaID(rawValue: replica)
        let isLeftElsewhere = try incoming.contains { $0.change.effect == .leaveForkedReplica(id: id) } || Self.forkedLeaves(in: transaction)[replica] != nil
        let change: SyncChange = forked && !isLeftElsewhere ? .leaveForkedReplica(id: id) : .retireReplica(id: id)
        _ = try log([change], of: try preparedReplica(in: transaction), rewind: Rewind(), in: transaction)
        guard forked else { return 0 }
        var unpushed: [SyncOperation] = []
        for share in try transaction.listShares() {
            let line = Self.sharedReplica(of: share.list, under: id).rawValue
            unpushed += try Self.operations(of: line, after: nil, pushedTo: share.list, in: transaction)
        }
        return try remake(unpushed, in: transaction)
    }

    /// The operations of `line` on its line still (not renumbered nor replaced), in the order
    /// logged, after sequence number `held`; without one, after the last that this store pushed
    /// to every remote of the log of `list` (the user's own for `nil`), all of them when it
    /// pushed none there: what comes after may be missing there.
    ///
    /// - Complexity: One read of the log, O(n) for n logged operations.
    private static func operations(
        of line: UUID, after held: Int64?, pushedTo list: ItemList.ID?, in transaction: any LogReading
    ) throws -> [SyncOperation] {
        let logged = try transaction.loggedOperations(afterPosition: 0, limit: .max).filter { $0.order.replica == line }
        var floor = held ?? 0
        if held == nil, let reached = try transaction.remoteRecords().filter({ $0.list == list }).map(\.pushPosition).min() {
            floor = logged.filter { $0.position <= reached }.map(\.order.sequence).max() ?? 0
        }
        return try logged.filter { $0.order.sequence > floor }.filter { try !isOffLine($0.id, in: transaction) }.map(SyncOperation.init)
    }

    /// Leaves this store's replica id, which another line of its history left on finding this
    /// one (`SyncChange.leaveForkedReplica(id:)`, logged): this store takes a new id, and
    /// retires the old one, which no one uses now.
    ///
    /// - Parameter replica: This store's replica id, which it leaves.
    func leaveReplicaLeftElsewhere(_ replica: UUID, in transaction: any LogWriting) throws {
        try leaveReplica(replica, reaching: try preparedReplica(in: transaction).lastSequence, forked: true, in: transaction)
    }

    /// The leaves of a replica id that lines of its history logged on finding each other
    /// (`SyncChange.leaveForkedReplica(id:)`).
    struct ForkedLeaves {
        /// The replicas that logged a leave: the new ids the leaving databases took.
        var leavers: Set<UUID>
        /// When the first leave was made, in milliseconds of its clock.
        var since: Int64
    }

    /// The leaves logged of each replica id that a line of its history left on finding another.
    /// A leave made again (a replacement, a renumbering) counts as the replica that made it
    /// first, when it did.
    ///
    /// - Returns: The leaves, by the replica id left.
    /// - Complexity: O(n) for n logged operations; only those whose JSON names a leave are decoded.
    static func forkedLeaves(in transaction: any LogReading) throws -> [UUID: ForkedLeaves] {
        func leave(in change: SyncChange, by replica: UUID, at milliseconds: Int64) -> (left: UUID, by: UUID, at: Int64)? {
            switch change {
            case .leaveForkedReplica(let left): (left.id.rawValue, replica, milliseconds)
            case .replacement(let original, let carried), .renumbering(let original, let carried):
                leave(in: carried, by: original.replica.rawValue, at: original.clock.milliseconds)
            default: nil
            }
        }
        let marker = Data("\"leaveForkedReplica\"".utf8)
        var leaves: [UUID: ForkedLeaves] = [:]
        for logged in try transaction.loggedOperations(afterPosition: 0, limit: .max) where logged.change.range(of: marker) != nil {
            guard let (left, leaver, milliseconds) = leave(in: try SyncChange.decoding(logged.change), by: logged.order.replica, at: logged.order.milliseconds)
            else { continue }
            var known = leaves[left] ?? ForkedLeaves(leavers: [], since: milliseconds)
            known.leavers.insert(leaver)
            known.since = min(known.since, milliseconds)
            leaves[left] = known
        }
        return leaves
    }

    /// Leaves this store's replica id after a remote said another database syncs under it, or
    /// under its replica of the remote's shared list, and states again under the new id, as
    /// renumberings, this store's operations under the old one past `held`, which the remote
    /// lacks, and those of its replicas of shared lists that it pushed nowhere: the other
    /// database may have made others under those numbers.
    ///
    /// - Parameters:
    ///   - replica: This store's replica id, which it leaves.
    ///   - held: The sequence number up to which the remote holds the replica's operations;
    ///     `nil` for a remote of another log (a shared list's), which leaves as far as this
    ///     store pushed them to the remotes of its own log.
    /// - Returns: The new replica id, and how many operations were renumbered.
    func leaveSharedReplica(_ replica: UUID, heldThrough held: Int64?, in transaction: any LogWriting) throws -> (ReplicaID, Int) {
        let unshared = try Self.operations(of: replica, after: held, pushedTo: nil, in: transaction)
        let shared = try leaveReplica(replica, reaching: try preparedReplica(in: transaction).lastSequence, forked: true, in: transaction)
        let renumbered = try remake(unshared, in: transaction)
        return (ReplicaID(rawValue: try preparedReplica(in: transaction).id), shared + renumbered)
    }

    /// States this store's operations of a forked line again under its new replica id, as
    /// renumberings (`SyncChange.renumbering(of:change:)`): each keeps its place and its effect
    /// on every replica, and comes off the old id's line, so that each replica's operations form
    /// one line again. Both databases of a fork may do so, in any order, and a store that folded
    /// an original away meets its renumbering without harm.
    ///
    /// - Returns: How many operations were renumbered.
    private func remake(_ forked: [SyncOperation], in transaction: any LogWriting) throws -> Int {
        guard !forked.isEmpty else { return 0 }
        let renumberings = forked.sorted { $0.order < $1.order }.map { SyncChange.renumbering(of: OperationReference($0), change: $0.change) }
        return try log(renumberings, of: try preparedReplica(in: transaction), rewind: Rewind(), in: transaction).count
    }

    // MARK: Exchange

    /// The operations of one log that reached this store after `cursor`, in the order they
    /// reached it, and the cursor to give next time: all of them, or those of a page of at most
    /// `limit` operations of every log.
    ///
    /// Reading page after page, each from the cursor the one before returned, reads every
    /// operation of the log once, whatever is logged in between (``OperationBatch/isComplete``
    /// says when the last page was read). A page may hold none of the log's operations and
    /// still not be the last.
    ///
    /// - Parameters:
    ///   - cursor: 0 for every operation, else a cursor this method returned.
    ///   - limit: The most operations to read, at least 1; every one by default.
    ///   - list: The shared list whose log to read; `nil`, the default, for the user's own, which
    ///     is all a store that holds no shared list has (see ``sharedReplica(of:under:)``).
    ///   - transaction: A transaction of the store.
    /// - Complexity: O(log n + k) for k operations read.
    public func operations(after cursor: Int64, limit: Int = .max, of list: ItemList.ID? = nil, in transaction: any ItemReading) throws -> OperationBatch {
        let transaction = try Self.log(of: transaction)
        let limit = max(1, limit)
        // One more than asked for tells whether this page is the last.
        let logged = try transaction.loggedOperations(afterPosition: cursor, limit: limit == .max ? .max : limit + 1)
        let page = logged.prefix(limit)
        let fold = try transaction.fold()
        let logs = try ReplicaLogs(in: transaction)
        return OperationBatch(
            operations: try page.filter { logs.list(of: $0.order.replica) == list }.map(SyncOperation.init), cursor: page.last?.position ?? cursor,
            lastRead: page.last.map { SyncOperation.ID(rawValue: $0.id) },
            folded: Dictionary(uniqueKeysWithValues: (fold?.covering ?? [:]).map { (ReplicaID(rawValue: $0.key), $0.value) }),
            foldedTips: Dictionary(uniqueKeysWithValues: (fold?.tips ?? [:]).map { (ReplicaID(rawValue: $0.key), SyncOperation.ID(rawValue: $0.value)) }),
            isComplete: logged.count <= limit)
    }

    /// The operations of one log that reached this store after `cursor`, all of them or those
    /// of a page of at most `limit`, read without blocking the caller's thread.
    public func operations(after cursor: Int64, limit: Int = .max, of list: ItemList.ID? = nil) async throws -> OperationBatch {
        try await repository.read { try self.operations(after: cursor, limit: limit, of: list, in: $0) }
    }

    /// Exchanges operations both ways with another replica's store, as two devices that meet:
    /// the peer's new operations are merged here, then this store's into the peer; then each
    /// tells the other what it holds, and what it has heard the others hold, so that each can
    /// fold away what every replica it knows of holds (``compact()``).
    ///
    /// It is ``sync(with:)`` with the peer as a remote (``StoreSyncRemote``): this store keeps
    /// where it is in the peer's log, and the peer where it is in this store's, so each side
    /// reads only what the other has not merged yet, whichever starts the next exchange. A position is checked against the operation found there
    /// before it is trusted: a copy of a file, or a file restored from a backup, is read again
    /// from the start. A peer that shares this store's replica id, as a copy of its file does,
    /// takes a new one first. A side that lacks operations the other has folded away takes the
    /// other's snapshot first (``adoptSnapshot(of:)``, ``adopt(_:)``).
    ///
    /// Each side merges what it receives in pages of at most 1,000 operations, each page in a
    /// transaction of its own that also moves the cursor it keeps for the other: stopped at any
    /// point, each side holds whole pages, and the next exchange goes on from there.
    ///
    /// - Parameter peer: The engine of the other store.
    /// - Returns: What each side's merge did.
    /// - Throws: What ``merge(_:in:)`` throws, from either store, and ``SyncError/foldedApart``
    ///   when each side folded away operations the other never had.
    public func exchange(with peer: SyncEngine) async throws -> ExchangeReport {
        let (here, clockRecovery) = try await repository.write { transaction in
            let log = try Self.log(of: transaction)
            let recovery = try self.recoverClock(in: log)
            return (try self.preparedReplica(in: log).id, recovery)
        }
        let (peerRekeyed, peerClockRecovery) = try await peer.repository.write { transaction in
            let log = try Self.log(of: transaction)
            let recovery = try peer.recoverClock(in: log)
            guard try peer.preparedReplica(in: log).id == here else { return (false, recovery) }
            try peer.rekey(in: transaction)
            return (true, recovery)
        }
        let peerAdopted = try await peer.adoptSnapshot(of: self)
        let remote = try await StoreSyncRemote(peer)
        let synced = try await sync(with: remote)
        // Each tells the other what it holds now, and what it has heard of the others.
        // Of the user's own log alone, as the operations: those of shared lists stay in theirs.
        let heard = try await repository.write { transaction in
            try self.acknowledgements(of: nil, in: Self.log(of: transaction)).compactMap(\.logged)
        }
        let heardThere = try await peer.repository.write { transaction in
            let log = try Self.log(of: transaction)
            let said = try peer.acknowledgements(of: nil, in: log).compactMap(\.logged)
            try peer.hear(heard, in: log)
            return said
        }
        try await repository.write { try self.hear(heardThere, in: Self.log(of: $0)) }
        return ExchangeReport(
            received: synced.received, sent: synced.sent ?? MergeReport(received: 0), peerRekeyed: peerRekeyed, adoption: synced.adoption,
            peerAdoption: peerAdopted, clockRecovery: clockRecovery, peerClockRecovery: peerClockRecovery)
    }
}

/// What ``SyncEngine/exchange(with:)`` did on each side.
public struct ExchangeReport: Hashable, Sendable {
    /// The merge here of what the peer sent.
    public var received: MergeReport
    /// The merge in the peer of what this store sent.
    public var sent: MergeReport
    /// Whether the peer shared this store's replica id, as a copy of its file does, and took a new one.
    public var peerRekeyed: Bool
    /// When this store lacked operations the peer had folded away and took the peer's snapshot:
    /// the merge of this store's own operations into it.
    public var adoption: MergeReport?
    /// When the peer lacked operations this store had folded away and took this store's
    /// snapshot: the merge of the peer's own operations into it.
    public var peerAdoption: MergeReport?
    /// When this store's clock had run ahead and was right again: what it did first.
    public var clockRecovery: ClockRecovery?
    /// When the peer's clock had run ahead and was right again: what it did first.
    public var peerClockRecovery: ClockRecovery?
}

/// Operations read from a store's log, and where the next read starts.
public struct OperationBatch: Sendable {
    /// The operations, in the order they reached the store.
    public var operations: [SyncOperation]
    /// The cursor to read the operations after these: the position of the last one read.
    public var cursor: Int64
    /// The operation at ``cursor``, of this log or another; `nil` when none was read.
    var lastRead: SyncOperation.ID?
    /// For each replica, the sequence number up to which the store had folded its operations
    /// away: a store must hold those to merge these (``SyncEngine/merge(_:after:endingAt:)``).
    public var folded: [ReplicaID: Int64]
    /// For each replica in ``folded``, the id of its operation folded at that sequence number.
    public var foldedTips: [ReplicaID: SyncOperation.ID] = [:]
    /// Whether these are the last operations logged: no page follows this one.
    public var isComplete = true
}

/// What a merge did.
public struct MergeReport: Hashable, Sendable, Codable {
    /// Operations handed to the merge, duplicates included.
    public var received: Int
    /// Those this store did not have yet.
    public var new = 0
    /// Operations taken back, to slot in an earlier one or to replay changes made here.
    public var rewound = 0
    /// Operations applied by the merge.
    public var applied = 0
    /// New operations that sorted before what this store had folded away, made again here as
    /// replacements, after everything.
    public var replaced = 0
    /// Whether an operation came under this store's replica id without having been made here,
    /// as when a database file is copied, or restored from a backup while the database it
    /// replaced had synced on; or word that another database left the id on finding this
    /// store's operations under it: this store then took a new replica id.
    public var copiedReplicaDetected = false
    /// This store's own operations that the other line of its history had taken the sequence
    /// numbers of, stated again under its new replica id, as renumberings.
    public var remade = 0
    /// Operations held back, neither logged nor applied, because operations of their replica
    /// before them are missing here (``gaps``) or are stamped too far ahead (``aheadOfClock``):
    /// those of this batch, and those held before that still wait.
    public var held = 0
    /// For each replica with operations held back, the first operation that is missing.
    public var gaps: [Gap] = []
    /// Operations whose kind of change this version does not know (from a newer version of
    /// Arrange), which the merge kept in their place and passes on, but did not apply.
    public var unapplied = 0
    /// Whether the merge brought word that this store's replica was forgotten elsewhere: it
    /// then took a new replica id, and carries on as a new replica.
    public var forgottenHere = false
    /// For each replica with operations held back because one is stamped more than
    /// ``HybridLogicalClock/maximumDrift`` ahead of this store's wall clock: how far ahead, and
    /// how many wait. Each merge looks at them again.
    public var aheadOfClock: [AheadOfClock] = []
    /// When this store's own clock had run ahead and was right again: what it did first.
    public var clockRecovery: ClockRecovery?

    /// Operations of a replica held back after a gap in its sequence numbers.
    public struct Gap: Hashable, Sendable, Codable {
        /// The replica.
        public var replica: ReplicaID
        /// The sequence number of its first operation that is missing here.
        public var firstMissing: Int64
        /// How many of its operations wait for it.
        public var held: Int

        /// `held` operations of `replica` wait for its operation `firstMissing`.
        public init(replica: ReplicaID, firstMissing: Int64, held: Int) {
            self.replica = replica
            self.firstMissing = firstMissing
            self.held = held
        }
    }

    /// Operations of a replica held back because the first of them is stamped too far ahead of
    /// this store's wall clock.
    public struct AheadOfClock: Hashable, Sendable, Codable {
        /// The replica.
        public var replica: ReplicaID
        /// How far ahead of this store's wall clock the first is stamped, in milliseconds.
        public var aheadByMilliseconds: Int64
        /// How many of its operations wait, the first included.
        public var held: Int

        /// `held` operations of `replica` wait, the first stamped `aheadByMilliseconds` ahead.
        public init(replica: ReplicaID, aheadByMilliseconds: Int64, held: Int) {
            self.replica = replica
            self.aheadByMilliseconds = aheadByMilliseconds
            self.held = held
        }
    }

    /// A report of `received` operations, before the merge.
    public init(received: Int) {
        self.received = received
    }

    /// The report of this merge followed by `later`: the counts added up, and what waits
    /// (``held``, ``gaps``, ``aheadOfClock``) as the later one left it.
    func followed(by later: MergeReport) -> MergeReport {
        var sum = later
        sum.received += received
        sum.new += new
        sum.rewound += rewound
        sum.applied += applied
        sum.replaced += replaced
        sum.remade += remade
        sum.unapplied += unapplied
        sum.copiedReplicaDetected = copiedReplicaDetected || later.copiedReplicaDetected
        sum.forgottenHere = forgottenHere || later.forgottenHere
        sum.clockRecovery = clockRecovery ?? later.clockRecovery
        return sum
    }
}

extension SyncOperation {
    /// The operation as a store logs it.
    func logged(rewind: Data, isReplayed: Bool) -> LoggedOperation {
        var replaces: UUID?
        switch change {
        case .replacement(let original, _), .renumbering(let original, _): replaces = original.id.rawValue
        default: break
        }
        return LoggedOperation(
            order: order, change: LogJSON.encode { $0.change(change) }, rewind: rewind, isReplayed: isReplayed, replaces: replaces,
            original: original, isUnapplied: change.isUnknown)
    }

    /// The operation a store logged.
    init(_ logged: LoggedOperation) throws {
        self.init(
            id: ID(rawValue: logged.order.id), replica: ReplicaID(rawValue: logged.order.replica), sequence: logged.order.sequence,
            clock: HLCTimestamp(logged.order), change: try SyncChange.decoding(logged.change), original: logged.original)
    }
}

extension ReplicaState {
    /// The clock the replica's next operation comes after.
    var lastClock: HLCTimestamp {
        get { HLCTimestamp(milliseconds: lastMilliseconds, counter: UInt32(clamping: lastCounter)) }
        set { (lastMilliseconds, lastCounter) = (newValue.milliseconds, Int64(newValue.counter)) }
    }
}

extension HLCTimestamp {
    /// The clock of an operation's order.
    init(_ order: OperationOrder) {
        self.init(milliseconds: order.milliseconds, counter: UInt32(clamping: order.counter))
    }
}

/// A transaction of a store with an operation log, for writing.
typealias LogWriting = OperationLogWriting
/// A transaction of a store with an operation log, for reading.
typealias LogReading = OperationLogReading

extension SyncEngine: ChangeLog {
    /// Runs an intent's `body` with a journal whose records are logged as operations of this
    /// replica, in the intent's transaction, with how to take the whole change back.
    ///
    /// Each record becomes its operations as it is made, read against the store as the change
    /// left it; after a bulk write that says it is told by its rows (an import), the whole
    /// change is told by its rows instead.
    ///
    /// - Throws: What `body` throws; ``SyncError/unrecordedChange`` when it changed lists or
    ///   items and recorded nothing, which would never reach the other replicas.
    public func recording<Result>(in transaction: any ItemWriting, _ body: (ChangeJournal) throws -> Result) throws -> Result {
        try logging(in: transaction) { recorder in
            var changes: [SyncChange] = []
            var recorded = false
            var toldByRows = false
            let journal = ChangeJournal(transaction: recorder) { record in
                recorded = true
                if case .rowsWritten = record { toldByRows = true }
                guard !toldByRows else { return }
                changes += try record.told(in: recorder)
            }
            let result = try body(journal)
            guard recorded || !recorder.changesRows else { throw SyncError.unrecordedChange }
            return (result, toldByRows ? nil : changes)
        }.0
    }
}
