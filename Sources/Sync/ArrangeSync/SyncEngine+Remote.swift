import ArrangeModel
import ArrangeStore
import Foundation

extension SyncEngine {
    /// Syncs this store with a remote: takes the remote's snapshot when this store lacks
    /// operations the remote folded away, merges what the remote holds that this store has not
    /// read yet, then pushes what this store holds that the remote may lack (its own operations,
    /// and those it received from elsewhere) with the acknowledgements it knows of.
    ///
    /// Both ways go a page at a time. Each page pulled is merged in a transaction of its own,
    /// which also moves the cursor this store keeps for the remote; each page pushed carries
    /// where it ends in this store's log, which the remote keeps with it
    /// (``SyncRemoteState/received``). Stopped at any point, the next sync goes on from there.
    /// A position is checked against the operation found there before it is trusted, and the
    /// remote says what it took, so a copied file, or one restored from a backup, on either
    /// side, is given again what it lacks.
    ///
    /// With a remote that coordinates folding (``SyncRemoteState/coordinatesFolding``), this
    /// store records how far the remote folded, and ``compact()`` folds no further. With a
    /// remote that tells the time (``SyncRemoteState/clock``), this store corrects its clock
    /// by the remote's when they differ by more than ``clockTolerance``, and stamps again what
    /// it stamped ahead (``recoverClock()``); so too when the remote refuses a push as stamped
    /// ahead of its clock (``SyncError/clockAhead(remoteClock:)``).
    ///
    /// - Parameter remote: The remote.
    /// - Returns: What was merged here, pushed, and adopted.
    /// - Throws: What the remote throws; ``SyncError/foldedApart`` when this store folded away
    ///   operations the remote lacks; ``SyncError/missingFoldedOperations`` when a page still
    ///   needs operations the remote folded after its snapshot was taken; ``SyncError/replicaInUse``
    ///   when the remote still says another database uses this store's replica id after it
    ///   took a new one; ``SyncError/clockAhead(remoteClock:)`` when the remote still refuses
    ///   a push as stamped ahead after this store corrected its clock; what
    ///   ``merge(_:in:)`` throws. What was merged before stays merged.
    public func sync(with remote: some SyncRemote) async throws -> SyncReport {
        var report = SyncReport()
        let known: UUID?
        (report.clockRecovery, known) = try await repository.write { transaction in
            let log = try Self.log(of: transaction)
            return (try self.recoverClock(in: log), try log.replicaState()?.id)
        }
        // A store that never synced becomes a replica once the remote answered: a remote that
        // cannot be reached leaves it as it was.
        var replica = ReplicaID(rawValue: known ?? newID())
        let asked = wallClock()
        var state = try await remote.state(for: Self.replica(under: replica, for: remote))
        if known == nil {
            let prepared = try await repository.write { [replica] in ReplicaID(rawValue: try self.preparedReplica(in: Self.log(of: $0), id: replica).id) }
            // Another process made the store a replica meanwhile: its id is the one to sync as.
            if prepared != replica {
                replica = prepared
                state = try await remote.state(for: Self.replica(under: replica, for: remote))
            }
        }
        if let clock = state.clock, let renewed = try await correctClock(toRemoteClock: clock, askedAt: asked, answeredAt: wallClock(), report: &report) {
            // The store stamped again under a new replica id, which the remote took nothing of.
            replica = renewed
            state = try await remote.state(for: Self.replica(under: renewed, for: remote))
        }
        try await exchange(with: remote, as: replica, announcing: state, report: &report)
        return report
    }

    /// The replica a store whose own replica is `replica` syncs with `remote` as: its replica of
    /// the remote's shared list, or its own.
    static func replica(under replica: ReplicaID, for remote: some SyncRemote) -> ReplicaID {
        remote.list.map { sharedReplica(of: $0, under: replica) } ?? replica
    }

    /// Takes the remote's snapshot when this store lacks what the remote folded away, pulls,
    /// then pushes, for ``sync(with:)``, as `replica`, after the remote said `state`.
    private func exchange(with remote: some SyncRemote, as replica: ReplicaID, announcing state: SyncRemoteState, report: inout SyncReport) async throws {
        if try await repository.read({ try self.lacks(state.folded, endingAt: state.foldedTips, in: Self.log(of: $0)) }) {
            report.adoption = try await adopt(from: remote)
        }
        let (received, adoptedSince, pulled) = try await pull(from: remote, announcing: state)
        report.received = received
        report.adoption = adoptedSince ?? report.adoption
        do {
            (report.pushed, report.sent) = try await push(to: remote, from: Self.replica(under: replica, for: remote), after: state.received, leavingOut: pulled)
        } catch SyncError.clockAhead(let remoteClock) {
            // The remote's clock says this store's ran ahead: it corrects it, stamps again what
            // it stamped ahead, and pushes again, from its new replica id when it took one.
            let now = wallClock()
            guard let renewed = try await correctClock(toRemoteClock: remoteClock, askedAt: now, answeredAt: now, report: &report) else {
                throw SyncError.clockAhead(remoteClock: remoteClock)
            }
            (report.pushed, report.sent) = try await push(to: remote, from: Self.replica(under: renewed, for: remote), after: state.received, leavingOut: pulled)
        } catch SyncError.replicaInUse {
            // Another database pushed under this replica id, or under this store's replica of
            // the remote's shared list, which comes of it (a copy, a restored backup): this store
            // takes an id of its own, and pushes everything again, which the remote keeps once.
            let renewed: ReplicaID
            report.replicaLeft = replica
            let held = remote.list == nil ? state.held[replica] ?? 0 : nil
            (renewed, report.renumbered) = try await repository.write { transaction in
                try self.leaveSharedReplica(replica.rawValue, heldThrough: held, in: Self.log(of: transaction))
            }
            (report.pushed, report.sent) = try await push(to: remote, from: Self.replica(under: renewed, for: remote), after: nil, leavingOut: pulled)
        }
    }

    /// Whether this store holds operations it has not pushed to `remote` yet: now, and again
    /// whenever that changes, after a change made here, a merge, or a sync. An app starts a
    /// sync with the remote when it turns `true`.
    ///
    /// ```swift
    /// for try await hasChanges in engine.hasOperationsToPush(to: server) where hasChanges {
    ///     _ = try await engine.sync(with: server)
    /// }
    /// ```
    ///
    /// Operations the store took in from the remote count until a sync, which leaves out those
    /// the remote holds and moves past them.
    ///
    /// - Complexity: Each commit costs one read of the remote's record and of one operation.
    public func hasOperationsToPush(to remote: some SyncRemote) -> AsyncThrowingStream<Bool, any Error> {
        let identity = remote.identity
        return repository.observe { transaction in
            let log = try Self.log(of: transaction)
            let record = try log.remoteRecord(of: identity)
            let start = try Self.start(at: record.map { ($0.pushPosition, $0.pushOperation) }, in: log)
            return try !log.loggedOperations(afterPosition: start, limit: 1).isEmpty
        }
    }

    /// Whether a sync with `remote`, whose log now ends at `head`, would do anything: this store
    /// has not pulled up to `head`, or holds operations of the remote's log it has not pushed.
    /// A server that names each log's head (a shared list's, `GET /v1/shares`) spares the
    /// syncs of the lists with nothing new.
    ///
    /// - Complexity: One read of the remote's record, then of the operations logged since the
    ///   last push to it, a page at a time, until one of the remote's log turns up.
    public func hasNews(for remote: some SyncRemote, at head: SyncCursor) async throws -> Bool {
        try await repository.read { transaction in
            let log = try Self.log(of: transaction)
            guard let record = try log.remoteRecord(of: remote.identity), record.pullCursor == head.rawValue else { return true }
            var batch = try self.operations(
                after: try Self.start(at: (record.pushPosition, record.pushOperation), in: log), limit: self.pageSize, of: remote.list, in: transaction)
            while batch.operations.isEmpty, !batch.isComplete {
                batch = try self.operations(after: batch.cursor, limit: self.pageSize, of: remote.list, in: transaction)
            }
            return !batch.operations.isEmpty
        }
    }

    /// Takes the remote's snapshot, and records where to pull from after it. A store that lacks
    /// nothing the remote folded away merges the snapshot's operations instead, so that it
    /// holds all the snapshot holds before its cursor moves past them.
    private func adopt(from remote: some SyncRemote) async throws -> MergeReport? {
        // A shared list's snapshot is of that list alone: it stands for that list only.
        if let list = remote.list { return try await adoptSharedSnapshot(from: remote, of: list) }
        let taken = try await remote.snapshot()
        let report = try await adopt(taken.snapshot)
        if report == nil {
            try await merge(try taken.snapshot.operations(), after: taken.snapshot.folded, endingAt: taken.snapshot.foldedTips)
        }
        try await repository.write { transaction in
            try Self.updateRecord(of: remote.identity, in: Self.log(of: transaction)) { $0.pullCursor = taken.cursor?.rawValue }
        }
        return report
    }

    /// Merges the remote's operations after the cursor this store keeps for it, a page at a
    /// time, each with the cursor and the acknowledgements it carries, in one transaction.
    /// A page that needs operations the remote folded since, or a cursor the remote refuses as
    /// older than its fold, takes the remote's snapshot first, once in a pull; a cursor the
    /// remote no longer knows (``SyncError/unknownCursor``) starts the pull again from the
    /// start, once. A page that
    /// brings nothing, or leaves the cursor where it was, ends the pull, whatever it says: the
    /// next sync goes on.
    ///
    /// - Returns: What the merges did, added up, what taking a snapshot on the way did, and the
    ///   ids of the operations pulled.
    private func pull(
        from remote: some SyncRemote, announcing state: SyncRemoteState
    ) async throws -> (MergeReport, adoption: MergeReport?, pulled: Set<SyncOperation.ID>) {
        var total = MergeReport(received: 0)
        var (adopted, restarted) = (false, false)
        var adoption: MergeReport?
        var pulled = Set<SyncOperation.ID>()
        while true {
            let cursor = try await repository.read { try Self.log(of: $0).remoteRecord(of: remote.identity)?.pullCursor.map(SyncCursor.init) }
            let page: SyncPage
            let report: MergeReport
            do {
                page = try await remote.pull(after: cursor, limit: pageSize)
                report = try await repository.write { transaction in
                    try self.merge(page, in: transaction) { log in
                        if let list = remote.list { try Self.learn(page, isOf: list, in: log) }
                        try Self.updateRecord(of: remote.identity, in: log) { record in
                            record.pullCursor = page.cursor.rawValue
                            record.foldLimit = state.coordinatesFolding ? Self.raw(page.folded.isEmpty ? state.folded : page.folded) : nil
                            record.list = remote.list
                        }
                    }
                }
            } catch SyncError.missingFoldedOperations where !adopted {
                adopted = true
                adoption = try await adopt(from: remote)
                continue
            } catch SyncError.unknownCursor where !restarted && cursor != nil {
                // The remote lost its history past the cursor (restored from a backup): from the start.
                restarted = true
                try await repository.write { transaction in
                    try Self.updateRecord(of: remote.identity, in: Self.log(of: transaction)) { $0.pullCursor = nil }
                }
                continue
            }
            total = total.followed(by: report)
            pulled.formUnion(page.operations.map(\.id))
            if page.isComplete || page.operations.isEmpty || page.cursor == cursor { return (total, adoption, pulled) }
        }
    }

    /// Records that the replicas whose operations and acknowledgements `page` brings, from the
    /// remote of a shared list, belong to that list's log.
    private static func learn(_ page: SyncPage, isOf list: ItemList.ID, in log: any LogWriting) throws {
        let replicas = Set(page.operations.map(\.replica.rawValue) + page.acknowledgements.map(\.replica.rawValue))
        for replica in replicas where try log.replicaState()?.id != replica {
            var progress = try log.replicaProgress(of: replica) ?? ReplicaProgress(replica: replica, sequence: 0, milliseconds: 0, counter: 0)
            guard progress.list == nil else { continue }
            progress.list = list
            try log.setReplicaProgress(progress)
        }
    }

    /// Changes what the store of `log` keeps for the remote named `identity`, starting from
    /// nothing the first time.
    static func updateRecord(of identity: String, in log: any LogWriting, _ change: (inout RemoteRecord) -> Void) throws {
        var record = try log.remoteRecord(of: identity) ?? RemoteRecord(remote: identity)
        change(&record)
        try log.setRemoteRecord(record)
    }

    /// Merges a file of operations another store wrote (``OperationFile``), in one write
    /// transaction, as a page pulled from a remote is merged: this store must hold what the
    /// file's store folded away; it hears the acknowledgements the file carries.
    ///
    /// - Parameter file: The file's contents (``OperationFile/decode(_:)``).
    /// - Returns: What the merge did.
    /// - Throws: ``SyncError/missingFoldedOperations`` when this store lacks operations the
    ///   file's store folded away (take its snapshot first), and what ``merge(_:in:)`` throws;
    ///   nothing is merged then.
    @discardableResult
    public func merge(_ file: OperationFile.Contents) async throws -> MergeReport {
        let page = SyncPage(
            operations: file.operations, cursor: SyncCursor(rawValue: ""), isComplete: true, folded: file.folded, foldedTips: file.foldedTips,
            acknowledgements: file.acknowledgements)
        return try await repository.write { try self.merge(page, in: $0) }
    }

    /// Merges a page of operations from a remote or a file: checks that this store holds what
    /// the page's store folded away, merges, hears the acknowledgements, and runs `record`
    /// (which moves a remote's cursor), all in `transaction`.
    private func merge(_ page: SyncPage, in transaction: any ItemWriting, recording record: (any LogWriting) throws -> Void = { _ in }) throws -> MergeReport {
        let log = try Self.log(of: transaction)
        guard try !lacks(page.folded, endingAt: page.foldedTips, in: log) else { throw SyncError.missingFoldedOperations }
        let report = try merge(page.operations, in: transaction)
        try hear(page.acknowledgements.compactMap(\.logged), in: log)
        try record(log)
        return report
    }

    /// Pushes this store's operations after `received`, where the remote says it took this
    /// store's log up to (from the start when the log holds another operation there), a page at
    /// a time, leaving out those just pulled from it; each page tells the remote where it ends.
    /// The first push carries the acknowledgements even when there is nothing to push.
    ///
    /// Only what came from the remote itself is left out, by id: a remote's account of what it
    /// holds by sequence number cannot tell two lines of one replica id apart (a copy, a
    /// restored backup), so everything else after the position goes, and the remote keeps
    /// each operation once.
    ///
    /// - Returns: How many operations were pushed, and what the remote's merges did.
    private func push(
        to remote: some SyncRemote, from replica: ReplicaID, after received: SyncCursor?, leavingOut pulled: Set<SyncOperation.ID>
    ) async throws -> (Int, MergeReport?) {
        var pushed = 0
        var merged: MergeReport?
        var start = try await repository.read { try Self.start(at: received.flatMap(Self.position), in: Self.log(of: $0)) }
        var first = true
        while true {
            let (batch, acknowledgements) = try await repository.write { [start] transaction in
                let log = try Self.log(of: transaction)
                let batch = try self.operations(after: start, limit: self.pageSize, of: remote.list, in: transaction)
                return (batch, try self.acknowledgements(of: remote.list, in: log))
            }
            let unsent = batch.operations.filter { !pulled.contains($0.id) }
            let through = batch.lastRead.map { Self.cursor(position: batch.cursor, operation: $0) } ?? received ?? Self.cursor(position: 0, operation: nil)
            // A page of operations all pulled from the remote, or of other logs, still tells it where it is.
            if first || batch.lastRead != nil {
                if let report = try await remote.push(unsent, from: replica, through: through, acknowledgements: acknowledgements) {
                    merged = merged.map { $0.followed(by: report) } ?? report
                }
                pushed += unsent.count
            }
            first = false
            if let last = batch.lastRead {
                try await repository.write { transaction in
                    try Self.updateRecord(of: remote.identity, in: Self.log(of: transaction)) { ($0.pushPosition, $0.pushOperation) = (batch.cursor, last.rawValue) }
                }
            }
            if batch.isComplete { return (pushed, merged) }
            start = batch.cursor
        }
    }

    /// A cursor into a store's log: the position, and the id of the operation there, which
    /// the cursor is checked against before it is trusted (`"17:3f2a…"`).
    static func cursor(position: Int64, operation: SyncOperation.ID?) -> SyncCursor {
        SyncCursor(rawValue: operation.map { "\(position):\($0.rawValue.lowercasedString)" } ?? "\(position)")
    }

    /// The position and operation a cursor of ``cursor(position:operation:)`` names; `nil` for other text.
    static func position(of cursor: SyncCursor) -> (position: Int64, operation: UUID?)? {
        let parts = cursor.rawValue.split(separator: ":", maxSplits: 1)
        guard let position = parts.first.flatMap({ Int64($0) }) else { return nil }
        return (position, parts.count == 2 ? UUID(uuidString: String(parts[1])) : nil)
    }

    /// Where to read a log from for a position and the operation found there: the position when
    /// the log holds that operation there, else the start.
    static func start(at recorded: (position: Int64, operation: UUID?)?, in log: any LogReading) throws -> Int64 {
        guard let recorded, recorded.position > 0, let operation = recorded.operation else { return 0 }
        let found = try log.loggedOperations(afterPosition: recorded.position - 1, limit: 1).first
        return found?.position == recorded.position && found?.id == operation ? recorded.position : 0
    }

    /// Sequence numbers by replica id, as the log keeps them.
    static func raw(_ sequences: [ReplicaID: Int64]) -> [UUID: Int64] {
        Dictionary(uniqueKeysWithValues: sequences.map { ($0.key.rawValue, $0.value) })
    }
}
