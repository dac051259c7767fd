import ArrangeModel
import ArrangeStore
import Foundation
import GRDB

/// The operation log of sync, in the tables of migration `v4: sync`.
extension SQLiteTransaction: OperationLogWriting {
    /// The columns of a logged operation, in the order ``loggedOperation(_:)`` reads them.
    private static let operationColumns = "position, id, replica_id, sequence, clock_ms, clock_counter, change, rewind, is_replayed, replaces_id, original, is_unapplied"
    /// The total order, as the index `sync_operations_in_order` holds it.
    private static let totalOrder = "clock_ms, clock_counter, replica_id, sequence, id"

    /// The replica's row, brought up to date by the last operation logged when that is the
    /// replica's own and newer: a change made here logs its operation without writing the row
    /// again (``setReplicaState(_:)``), which saves a page write on every change.
    func replicaState() throws -> ReplicaState? {
        if let cached = replicaStateCache { return cached }
        if let carried {
            (replicaStateCache, replicaRowMayLag, self.carried) = (.some(carried.state), carried.rowMayLag, nil)
            return carried.state
        }
        let state = try currentReplicaState()
        replicaStateCache = .some(state)
        return state
    }

    /// What this transaction leaves the next one of its repository (``ReplicaStateCarry``):
    /// the replica's state, whether its row may lag, and the next log position when known;
    /// `nil` when it never read the state.
    var leftoverReplicaState: ReplicaStateCarry.Leftover? {
        guard case let state? = replicaStateCache else { return nil }
        return ReplicaStateCarry.Leftover(state: state, rowMayLag: replicaRowMayLag, nextLogPosition: nextLogPosition)
    }

    /// The replica's row, brought up to date by the last operation logged.
    private func currentReplicaState() throws -> ReplicaState? {
        guard var state = try storedReplicaState() else { return nil }
        try mapping {
            let statement = try db.cachedStatement(sql: """
                SELECT replica_id, sequence, clock_ms, clock_counter FROM \(Schema.operationsTable) ORDER BY position DESC LIMIT 1
                """)
            guard let row = try Row.fetchOne(statement), try Self.uuid(try row.decode(atIndex: 0), table: Schema.operationsTable) == state.id else { return }
            let (sequence, milliseconds, counter): (Int64, Int64, Int64) = (try row.decode(atIndex: 1), try row.decode(atIndex: 2), try row.decode(atIndex: 3))
            guard sequence > state.lastSequence else { return }
            state.lastSequence = sequence
            if (milliseconds, counter) > (state.lastMilliseconds, state.lastCounter) { (state.lastMilliseconds, state.lastCounter) = (milliseconds, counter) }
        }
        return state
    }

    /// The replica's row as it is stored.
    private func storedReplicaState() throws -> ReplicaState? {
        try mapping {
            let statement = try db.cachedStatement(sql: """
                SELECT replica_id, last_sequence, last_clock_ms, last_clock_counter, clock_offset_ms FROM \(Schema.replicaTable) WHERE id = 1
                """)
            guard let row = try Row.fetchOne(statement) else { return nil }
            return ReplicaState(
                id: try Self.uuid(try row.decode(atIndex: 0), table: Schema.replicaTable),
                lastSequence: try row.decode(atIndex: 1), lastMilliseconds: try row.decode(atIndex: 2), lastCounter: try row.decode(atIndex: 3),
                clockOffset: try row.decode(atIndex: 4))
        }
    }

    func operations(_ request: OperationRequest) throws -> [LoggedOperation] {
        switch request {
        case .withID(let id): try operations(where: "id = ?", arguments: [Self.text(id)])
        case .from(let order, let limit): try loggedOperations(from: order, limit: limit)
        case .afterPosition(let position, let limit):
            limit > 0 ? try operations(where: "position > ? ORDER BY position LIMIT ?", arguments: [position, limit]) : []
        case .numbered(let replica, let sequence): try operations(where: "replica_id = ? AND sequence = ?", arguments: [Self.text(replica), sequence])
        case .unapplied: try operations(where: "is_unapplied ORDER BY \(Self.totalOrder)", arguments: [])
        case .held: try heldOperations()
        }
    }

    /// Each answered from the index of the total order alone, but for the replacements.
    func orders(_ request: OperationOrderRequest) throws -> [OperationOrder] {
        switch request {
        case .last: try lastOperationOrder().map { [$0] } ?? []
        case .firstUnreplayed: try firstUnreplayedOperation().map { [$0] } ?? []
        case .replacing(let id):
            try mapping {
                let statement = try db.cachedStatement(sql: "SELECT \(Self.totalOrder) FROM \(Schema.operationsTable) WHERE replaces_id = ? ORDER BY \(Self.totalOrder)")
                return try Row.fetchAll(statement, arguments: [Self.text(id)]).map(Self.operationOrder)
            }
        case .latestOfEachReplica:
            // SQLite reads the other columns of the row whose sequence is the greatest.
            try mapping {
                try Row.fetchAll(db, sql: """
                    SELECT clock_ms, clock_counter, replica_id, MAX(sequence), id FROM \(Schema.operationsTable) GROUP BY replica_id
                    """).map(Self.operationOrder)
            }
        }
    }

    func records(_ request: LogRecordRequest) throws -> [LogRecord] {
        switch request {
        case .replicaState: try replicaState().map { [.replicaState($0)] } ?? []
        case .remotes: try remoteRecords(where: "1", arguments: []).map(LogRecord.remote)
        case .remote(let name): try remoteRecords(where: "remote = ?", arguments: [name]).map(LogRecord.remote)
        case .acknowledgements: try acknowledgements().map(LogRecord.acknowledgement)
        case .progresses: try progresses(where: "1", arguments: []).map(LogRecord.progress)
        case .progress(let replica): try progresses(where: "replica_id = ?", arguments: [Self.text(replica)]).map(LogRecord.progress)
        case .tombstones: try tombstones().map(LogRecord.tombstone)
        case .tombstone(let entry, let scope):
            try mapping {
                let statement = try db.cachedStatement(sql: "SELECT sort_index FROM \(Schema.tombstonesTable) WHERE entry_id = ? AND scope = ?")
                return try Int64.fetchOne(statement, arguments: [entry.text, scope.text]).map { [.tombstone(Tombstone(entry: entry, scope: scope, sortIndex: $0))] } ?? []
            }
        case .fold: try fold().map { [.fold($0)] } ?? []
        case .foldedOperations: try foldedOperations(where: "1", arguments: []).map(LogRecord.folded)
        case .foldedOperation(let id): try foldedOperations(where: "id = ?", arguments: [Self.text(id)]).map(LogRecord.folded)
        case .foldedReplacements(let id): try foldedOperations(where: "replaces_id = ?", arguments: [Self.text(id)]).map(LogRecord.folded)
        case .foldedNumbered(let replica, let sequence):
            try foldedOperations(where: "replica_id = ? AND sequence = ?", arguments: [Self.text(replica), sequence]).map(LogRecord.folded)
        }
    }

    func sequences(_ request: SequenceRequest) throws -> [Int64] {
        try mapping {
            switch request {
            case .logged(let replica, let sequence):
                try Int64.fetchAll(db, sql: """
                    SELECT DISTINCT sequence FROM \(Schema.operationsTable) WHERE replica_id = ? AND sequence > ? ORDER BY sequence
                    """, arguments: [Self.text(replica), sequence])
            case .forked(let replica, let sequence):
                try Int64.fetchAll(db.cachedStatement(sql: """
                    SELECT sequence FROM (
                      SELECT sequence FROM \(Schema.operationsTable) WHERE replica_id = ?1 AND sequence > ?2
                      UNION ALL SELECT sequence FROM \(Schema.foldedOperationsTable) WHERE replica_id = ?1 AND sequence > ?2
                    ) GROUP BY sequence HAVING COUNT(*) > 1 ORDER BY sequence
                    """), arguments: [Self.text(replica), sequence])
            }
        }
    }

    func write(_ change: LogChange) throws {
        switch change {
        case .replicaState(let state): try setReplicaState(state)
        case .rewind(let rewind, let isReplayed, let isUnapplied, let id): try setRewind(rewind, isReplayed: isReplayed, isUnapplied: isUnapplied, ofOperation: id)
        case .tombstone(let sortIndex, let entry, let scope): try setTombstone(sortIndex, of: entry, in: scope)
        case .remote(let record): try setRemoteRecord(record)
        case .acknowledgement(let acknowledgement): try setAcknowledgement(acknowledgement)
        case .progress(let progress): try setReplicaProgress(progress)
        case .hold(let operation): try hold(operation)
        case .release(let ids): try release(ids)
        case .replaceFolded(let operations): try replaceFolded(with: operations)
        }
    }

    func markChangesLogged() {
        changesAreLogged = true
    }

    /// Throws ``StoreError/unloggedChange`` when this transaction changed lists or items of a
    /// database that syncs without sync logging them: the repository calls it before it commits.
    func ensureChangesAreLogged() throws {
        guard changesRows, !changesAreLogged, try replicaState() != nil else { return }
        throw StoreError.unloggedChange
    }

    private func loggedOperations(from order: OperationOrder, limit: Int) throws -> [LoggedOperation] {
        guard limit > 0 else { return [] }
        return try operations(
            where: "(\(Self.totalOrder)) >= (?, ?, ?, ?, ?) ORDER BY \(Self.totalOrder) LIMIT ?",
            arguments: [order.milliseconds, order.counter, Self.text(order.replica), order.sequence, Self.text(order.id), limit])
    }

    private func lastOperationOrder() throws -> OperationOrder? {
        try order(where: "1 ORDER BY clock_ms DESC, clock_counter DESC, replica_id DESC, sequence DESC, id DESC LIMIT 1", arguments: [])
    }

    /// The order of the first operation a condition and its `ORDER BY` select, read from the index alone.
    private func order(where condition: String, arguments: StatementArguments) throws -> OperationOrder? {
        try mapping {
            let statement = try db.cachedStatement(sql: "SELECT \(Self.totalOrder) FROM \(Schema.operationsTable) WHERE \(condition)")
            guard let row = try Row.fetchOne(statement, arguments: arguments) else { return nil }
            return try Self.operationOrder(row)
        }
    }

    /// The earliest, in the total order, of the operations logged after the last replayed one,
    /// which a scan from the end finds in as many steps as there are of them.
    private func firstUnreplayedOperation() throws -> OperationOrder? {
        try order(where: """
            position > COALESCE((SELECT position FROM \(Schema.operationsTable) WHERE is_replayed ORDER BY position DESC LIMIT 1), 0)
            ORDER BY \(Self.totalOrder) LIMIT 1
            """, arguments: [])
    }

    private func remoteRecords(where condition: String, arguments: StatementArguments) throws -> [RemoteRecord] {
        try mapping {
            let statement = try db.cachedStatement(sql: """
                SELECT remote, pull_cursor, push_position, push_operation_id, fold_limit, list_id FROM \(Schema.remotesTable) WHERE \(condition)
                """)
            return try Row.fetchAll(statement, arguments: arguments).map { row in
                RemoteRecord(
                    remote: try row.decode(atIndex: 0), pullCursor: try row.decode(String?.self, atIndex: 1), pushPosition: try row.decode(atIndex: 2),
                    pushOperation: try row.decode(String?.self, atIndex: 3).map { try Self.uuid($0, table: Schema.remotesTable) },
                    foldLimit: try row.decode(String?.self, atIndex: 4).map { try Self.sequences($0, table: Schema.remotesTable) },
                    list: try row.decode(String?.self, atIndex: 5).map { ItemList.ID(rawValue: try Self.uuid($0, table: Schema.remotesTable)) })
            }
        }
    }

    private func setRemoteRecord(_ record: RemoteRecord) throws {
        try mapping {
            let statement = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO \(Schema.remotesTable) (remote, pull_cursor, push_position, push_operation_id, fold_limit, list_id)
                VALUES (?, ?, ?, ?, ?, ?)
                """)
            try statement.execute(arguments: [
                record.remote, record.pullCursor, record.pushPosition, record.pushOperation.map(Self.text), try record.foldLimit.map(Self.text),
                record.list.map { Self.text($0.rawValue) },
            ])
        }
    }

    /// Writes the replica's row, unless the last operation logged says the same already, as
    /// it does after a change made here (see ``replicaState()``).
    private func setReplicaState(_ state: ReplicaState) throws {
        guard try replicaState() != state else {
            replicaRowMayLag = true
            return
        }
        try writeReplicaState(state)
    }

    /// Writes the row when the last operation logged is newer, before an operation that does
    /// not follow it on this replica's line is logged after it (another replica's, or one of
    /// this replica's that a merge logs again out of turn), and the row could no longer be
    /// brought up to date.
    private func catchUpReplicaRow(before operation: LoggedOperation) throws {
        guard replicaRowMayLag, let current = try replicaState() else { return }
        guard current.id != operation.order.replica || operation.order.sequence <= current.lastSequence else { return }
        if try storedReplicaState() != current { try writeReplicaState(current) }
        replicaRowMayLag = false
    }

    /// Brings the cached state up to date with an operation just logged: the state
    /// `currentReplicaState()` would now read.
    private func noteLogged(_ order: OperationOrder) {
        guard case let cached?? = replicaStateCache, cached.id == order.replica else { return }
        guard order.sequence > cached.lastSequence else {
            replicaStateCache = nil
            return
        }
        var state = cached
        replicaRowMayLag = true
        state.lastSequence = order.sequence
        if (order.milliseconds, order.counter) > (state.lastMilliseconds, state.lastCounter) {
            (state.lastMilliseconds, state.lastCounter) = (order.milliseconds, order.counter)
        }
        replicaStateCache = .some(state)
    }

    private func writeReplicaState(_ state: ReplicaState) throws {
        replicaRowMayLag = false
        replicaStateCache = .some(state)
        try mapping {
            let statement = try db.cachedStatement(sql: """
                INSERT INTO \(Schema.replicaTable) (id, replica_id, last_sequence, last_clock_ms, last_clock_counter, clock_offset_ms)
                VALUES (1, ?, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET replica_id = excluded.replica_id, last_sequence = excluded.last_sequence,
                  last_clock_ms = excluded.last_clock_ms, last_clock_counter = excluded.last_clock_counter,
                  clock_offset_ms = excluded.clock_offset_ms
                """)
            try statement.execute(arguments: [Self.text(state.id), state.lastSequence, state.lastMilliseconds, state.lastCounter, state.clockOffset])
        }
    }

    /// Logs an operation at a position. Made once: the statement cache looks it up on every change.
    private static let logSQL = "INSERT INTO \(Schema.operationsTable) (\(operationColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

    /// The position past every one in use and every one folded away, so that none is given
    /// twice. Positions only grow: a fold removes operations below its `last_position`, and
    /// only ``log(_:)`` adds one, so the next position stays right for as long as the
    /// transaction, and the next one of the repository while nothing else writes the file
    /// (``ReplicaStateCarry``), count it on.
    private func takeLogPosition() throws -> Int64 {
        let position = try nextLogPosition ?? mapping {
            try Int64.fetchOne(db.cachedStatement(sql: """
                SELECT MAX(COALESCE((SELECT MAX(position) FROM \(Schema.operationsTable)), 0),
                           COALESCE((SELECT last_position FROM \(Schema.foldTable) WHERE id = 1), 0)) + 1
                """)) ?? 1
        }
        nextLogPosition = position + 1
        return position
    }

    func log(_ operation: LoggedOperation) throws -> Int64 {
        try catchUpReplicaRow(before: operation)
        let order = operation.order
        let position = try takeLogPosition()
        return try mapping {
            let statement = try db.cachedStatement(sql: Self.logSQL)
            do {
                // Bound as they are: the JSON as its bytes, the ids as text written on the stack.
                try statement.execute(binding: [
                    .integer(position), .uuid(order.id), .uuid(order.replica), .integer(order.sequence), .integer(order.milliseconds),
                    .integer(order.counter), .utf8(operation.change), .utf8(operation.rewind), .integer(operation.isReplayed ? 1 : 0),
                    operation.replaces.map(SQLiteArgument.uuid) ?? .value(.null), operation.original.map(SQLiteArgument.utf8) ?? .value(.null),
                    .integer(operation.isUnapplied ? 1 : 0),
                ])
            } catch DatabaseError.SQLITE_CONSTRAINT_UNIQUE {
                throw StoreError.duplicateOperation(order.id)
            }
            noteLogged(order)
            return db.lastInsertedRowID
        }
    }

    private func setRewind(_ rewind: Data, isReplayed: Bool, isUnapplied: Bool, ofOperation id: UUID) throws {
        let changed = try mapping {
            let statement = try db.cachedStatement(sql: "UPDATE \(Schema.operationsTable) SET rewind = ?, is_replayed = ?, is_unapplied = ? WHERE id = ?")
            try statement.execute(arguments: [String(decoding: rewind, as: UTF8.self), isReplayed, isUnapplied, Self.text(id)])
            return db.changesCount
        }
        guard changed == 1 else { throw StoreError.operationNotFound(id) }
    }

    private func setTombstone(_ sortIndex: Int64?, of entry: OrderEntry.ID, in scope: OrderScope) throws {
        try mapping {
            if let sortIndex {
                let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO \(Schema.tombstonesTable) (entry_id, scope, sort_index) VALUES (?, ?, ?)")
                try statement.execute(arguments: [entry.text, scope.text, sortIndex])
            } else {
                let statement = try db.cachedStatement(sql: "DELETE FROM \(Schema.tombstonesTable) WHERE entry_id = ? AND scope = ?")
                try statement.execute(arguments: [entry.text, scope.text])
            }
        }
    }

    private func tombstones() throws -> [Tombstone] {
        try mapping {
            try Row.fetchAll(db, sql: "SELECT entry_id, scope, sort_index FROM \(Schema.tombstonesTable)").map { row in
                Tombstone(
                    entry: OrderEntry.ID(rawValue: try Self.uuid(try row.decode(atIndex: 0), table: Schema.tombstonesTable)),
                    scope: try Self.scope(try row.decode(atIndex: 1)), sortIndex: try row.decode(atIndex: 2))
            }
        }
    }

    private func acknowledgements() throws -> [Acknowledgement] {
        try mapping {
            try Row.fetchAll(db, sql: "SELECT replica_id, clock_ms, clock_counter, merged, tips FROM \(Schema.acknowledgementsTable)").map { row in
                Acknowledgement(
                    replica: try Self.uuid(try row.decode(atIndex: 0), table: Schema.acknowledgementsTable),
                    milliseconds: try row.decode(atIndex: 1), counter: try row.decode(atIndex: 2),
                    merged: try Self.sequences(try row.decode(atIndex: 3), table: Schema.acknowledgementsTable),
                    tips: try Self.ids(try row.decode(atIndex: 4), table: Schema.acknowledgementsTable))
            }
        }
    }

    private func setAcknowledgement(_ acknowledgement: Acknowledgement) throws {
        try mapping {
            try db.execute(sql: """
                INSERT OR REPLACE INTO \(Schema.acknowledgementsTable) (replica_id, clock_ms, clock_counter, merged, tips) VALUES (?, ?, ?, ?, ?)
                """, arguments: [
                    Self.text(acknowledgement.replica), acknowledgement.milliseconds, acknowledgement.counter,
                    try Self.text(acknowledgement.merged), try Self.text(acknowledgement.tips),
                ])
        }
    }

    private func fold() throws -> Fold? {
        try mapping {
            guard let row = try Row.fetchOne(db, sql: """
                SELECT through_clock_ms, through_clock_counter, through_replica_id, through_sequence, through_id, covering, count, tips, by_sequence
                FROM \(Schema.foldTable) WHERE id = 1
                """) else { return nil }
            return Fold(
                through: try Self.operationOrder(row), covering: try Self.sequences(try row.decode(atIndex: 5), table: Schema.foldTable),
                tips: try Self.ids(try row.decode(atIndex: 7), table: Schema.foldTable),
                bySequence: try Self.sequences(try row.decode(atIndex: 8), table: Schema.foldTable), count: try row.decode(atIndex: 6))
        }
    }

    private func replaceFolded(with operations: [FoldedOperation]) throws {
        try mapping {
            try db.execute(sql: "DELETE FROM \(Schema.foldedOperationsTable)")
            let statement = try db.cachedStatement(sql: "INSERT INTO \(Schema.foldedOperationsTable) (id, replica_id, sequence, replaces_id) VALUES (?, ?, ?, ?)")
            for operation in operations {
                try statement.execute(arguments: [Self.text(operation.id), Self.text(operation.replica), operation.sequence, operation.replaces.map(Self.text)])
            }
        }
    }

    private func foldedOperations(where condition: String, arguments: StatementArguments) throws -> [FoldedOperation] {
        try mapping {
            let statement = try db.cachedStatement(sql: "SELECT id, replica_id, sequence, replaces_id FROM \(Schema.foldedOperationsTable) WHERE \(condition)")
            return try Row.fetchAll(statement, arguments: arguments).map { row in
                FoldedOperation(
                    id: try Self.uuid(try row.decode(atIndex: 0), table: Schema.foldedOperationsTable),
                    replica: try Self.uuid(try row.decode(atIndex: 1), table: Schema.foldedOperationsTable), sequence: try row.decode(atIndex: 2),
                    replaces: try row.decode(String?.self, atIndex: 3).map { try Self.uuid($0, table: Schema.foldedOperationsTable) })
            }
        }
    }

    func fold(_ fold: Fold, removingThrough order: OperationOrder, keeping kept: Set<UUID>) throws -> Int {
        // The row first, since the operation that brings it up to date may go.
        if let state = try replicaState() { try writeReplicaState(state) }
        return try mapping {
            let through = fold.through
            // The positions removed are remembered, so that later operations go past them.
            try db.execute(sql: """
                INSERT INTO \(Schema.foldTable) (
                  id, through_clock_ms, through_clock_counter, through_replica_id, through_sequence, through_id, covering, count, last_position, tips, by_sequence)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?, COALESCE((SELECT MAX(position) FROM \(Schema.operationsTable)), 0), ?, ?)
                ON CONFLICT (id) DO UPDATE SET through_clock_ms = excluded.through_clock_ms, through_clock_counter = excluded.through_clock_counter,
                  through_replica_id = excluded.through_replica_id, through_sequence = excluded.through_sequence, through_id = excluded.through_id,
                  covering = excluded.covering, count = excluded.count, last_position = MAX(last_position, excluded.last_position),
                  tips = excluded.tips, by_sequence = excluded.by_sequence
                """, arguments: [
                    through.milliseconds, through.counter, Self.text(through.replica), through.sequence, Self.text(through.id),
                    try Self.text(fold.covering), fold.count, try Self.text(fold.tips), try Self.text(fold.bySequence),
                ])
            // Who each removed operation was stays; the row holds the state now, and what is left
            // of the log cannot be newer.
            let removed = "(\(Self.totalOrder)) <= (?1, ?2, ?3, ?4, ?5) AND id NOT IN (SELECT value FROM json_each(?6))"
            let arguments: StatementArguments = [
                order.milliseconds, order.counter, Self.text(order.replica), order.sequence, Self.text(order.id),
                String(decoding: try JSONEncoder().encode(kept.map(Self.text)), as: UTF8.self),
            ]
            try db.execute(sql: """
                INSERT OR IGNORE INTO \(Schema.foldedOperationsTable) (id, replica_id, sequence, replaces_id)
                SELECT id, replica_id, sequence, replaces_id FROM \(Schema.operationsTable) WHERE \(removed)
                """, arguments: arguments)
            try db.execute(sql: "DELETE FROM \(Schema.operationsTable) WHERE \(removed)", arguments: arguments)
            return db.changesCount
        }
    }

    private func progresses(where condition: String, arguments: StatementArguments) throws -> [ReplicaProgress] {
        try mapping {
            let statement = try db.cachedStatement(
                sql: "SELECT replica_id, sequence, clock_ms, clock_counter, retired, list_id FROM \(Schema.replicasTable) WHERE \(condition)")
            return try Row.fetchAll(statement, arguments: arguments).map { row in
                let list: String? = try row.decode(atIndex: 5)
                return ReplicaProgress(
                    replica: try Self.uuid(try row.decode(atIndex: 0), table: Schema.replicasTable),
                    sequence: try row.decode(atIndex: 1), milliseconds: try row.decode(atIndex: 2), counter: try row.decode(atIndex: 3),
                    isRetired: try row.decode(atIndex: 4), list: try list.map { ItemList.ID(rawValue: try Self.uuid($0, table: Schema.replicasTable)) })
            }
        }
    }

    private func setReplicaProgress(_ progress: ReplicaProgress) throws {
        try mapping {
            let statement = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO \(Schema.replicasTable) (replica_id, sequence, clock_ms, clock_counter, retired, list_id) VALUES (?, ?, ?, ?, ?, ?)
                """)
            try statement.execute(arguments: [
                Self.text(progress.replica), progress.sequence, progress.milliseconds, progress.counter, progress.isRetired, progress.list.map { Self.text($0.rawValue) },
            ])
        }
    }

    private func heldOperations() throws -> [LoggedOperation] {
        try mapping {
            try Row.fetchAll(db, sql: "SELECT id, replica_id, sequence, clock_ms, clock_counter, change FROM \(Schema.heldOperationsTable)").map { row in
                let change: String = try row.decode(atIndex: 5)
                return LoggedOperation(
                    order: OperationOrder(
                        milliseconds: try row.decode(atIndex: 3), counter: try row.decode(atIndex: 4),
                        replica: try Self.uuid(try row.decode(atIndex: 1), table: Schema.heldOperationsTable),
                        sequence: try row.decode(atIndex: 2), id: try Self.uuid(try row.decode(atIndex: 0), table: Schema.heldOperationsTable)),
                    change: Data(change.utf8), rewind: Data(), isReplayed: false)
            }
        }
    }

    private func hold(_ operation: LoggedOperation) throws {
        let order = operation.order
        try mapping {
            let statement = try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO \(Schema.heldOperationsTable) (id, replica_id, sequence, clock_ms, clock_counter, change) VALUES (?, ?, ?, ?, ?, ?)
                """)
            try statement.execute(arguments: [
                Self.text(order.id), Self.text(order.replica), order.sequence, order.milliseconds, order.counter, String(decoding: operation.change, as: UTF8.self),
            ])
        }
    }

    private func release(_ ids: [UUID]) throws {
        try mapping {
            let statement = try db.cachedStatement(sql: "DELETE FROM \(Schema.heldOperationsTable) WHERE id = ?")
            for id in ids { try statement.execute(arguments: [Self.text(id)]) }
        }
    }

    // MARK: Rows

    /// An order read from the first five columns of a row, in the order of ``totalOrder``.
    private static func operationOrder(_ row: Row) throws -> OperationOrder {
        OperationOrder(
            milliseconds: try row.decode(atIndex: 0), counter: try row.decode(atIndex: 1),
            replica: try uuid(try row.decode(atIndex: 2), table: Schema.operationsTable),
            sequence: try row.decode(atIndex: 3), id: try uuid(try row.decode(atIndex: 4), table: Schema.operationsTable))
    }

    /// Sequence numbers by replica, as JSON text: `{"<replica id>": sequence, …}`.
    private static func text(_ sequences: [UUID: Int64]) throws -> String {
        try keyedText(sequences) { $0 }
    }

    private static func sequences(_ text: String, table: String) throws -> [UUID: Int64] {
        try keyed(text, table: table) { (value: Int64) in value }
    }

    /// Operation ids by replica, as JSON text: `{"<replica id>": "<operation id>", …}`.
    private static func text(_ ids: [UUID: UUID]) throws -> String {
        try keyedText(ids) { text($0) }
    }

    private static func ids(_ text: String, table: String) throws -> [UUID: UUID] {
        try keyed(text, table: table) { (value: String) in try uuid(value, table: table) }
    }

    /// Values by replica as a JSON object keyed by the replicas' ids, keys sorted.
    private static func keyedText<Value, Stored: Encodable>(_ values: [UUID: Value], storing stored: (Value) -> Stored) throws -> String {
        let keyed = Dictionary(uniqueKeysWithValues: values.map { (text($0.key), stored($0.value)) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(keyed), as: UTF8.self)
    }

    /// Values by replica read from a JSON object keyed by the replicas' ids.
    private static func keyed<Stored: Decodable, Value>(_ text: String, table: String, reading read: (Stored) throws -> Value) throws -> [UUID: Value] {
        guard let keyed = try? JSONDecoder().decode([String: Stored].self, from: Data(text.utf8)) else { throw RowDecodingError(table: table, row: text) }
        return try Dictionary(uniqueKeysWithValues: keyed.map { (try uuid($0.key, table: table), try read($0.value)) })
    }

    private static func scope(_ text: String) throws -> OrderScope {
        guard let scope = OrderScope(text) else { throw RowDecodingError(table: Schema.tombstonesTable, row: text) }
        return scope
    }

    /// The operations a condition and its `ORDER BY` and `LIMIT` select.
    private func operations(where condition: String, arguments: StatementArguments) throws -> [LoggedOperation] {
        try mapping {
            let statement = try db.cachedStatement(sql: "SELECT \(Self.operationColumns) FROM \(Schema.operationsTable) WHERE \(condition)")
            return try Row.fetchAll(statement, arguments: arguments).map(Self.loggedOperation)
        }
    }

    private static func loggedOperation(_ row: Row) throws -> LoggedOperation {
        // Decoded with `decode(atIndex:)`, which throws: a file from another program may hold
        // text where a number belongs.
        let change: String = try row.decode(atIndex: 6)
        let rewind: String = try row.decode(atIndex: 7)
        return LoggedOperation(
            order: OperationOrder(
                milliseconds: try row.decode(atIndex: 4), counter: try row.decode(atIndex: 5),
                replica: try uuid(try row.decode(atIndex: 2), table: Schema.operationsTable),
                sequence: try row.decode(atIndex: 3), id: try uuid(try row.decode(atIndex: 1), table: Schema.operationsTable)),
            change: Data(change.utf8), rewind: Data(rewind.utf8), isReplayed: try row.decode(atIndex: 8),
            replaces: try (row.decode(String?.self, atIndex: 9)).map { try uuid($0, table: Schema.operationsTable) },
            original: try row.decode(String?.self, atIndex: 10).map { Data($0.utf8) }, isUnapplied: try row.decode(atIndex: 11),
            position: try row.decode(atIndex: 0))
    }

    /// The text form of a UUID, as ids are stored: lowercase, so that text order is byte order.
    private static func text(_ id: UUID) -> String { id.lowercasedString }

    private static func uuid(_ text: String, table: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw RowDecodingError(table: table, row: text) }
        return id
    }
}
