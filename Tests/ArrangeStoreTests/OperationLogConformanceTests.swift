import ArrangeModel
@testable import ArrangeSQLite
import ArrangeStore
import Foundation
import GRDB
import Testing

/// The operation log every ``ItemRepository`` keeps for sync, checked on each backend.
@Suite("Operation log conformance")
struct OperationLogConformanceTests {
    /// An operation of `replica` with these clock and sequence values and a payload naming it.
    static func operation(_ replica: UUID, sequence: Int64, milliseconds: Int64, counter: Int64 = 0, isReplayed: Bool = true) -> LoggedOperation {
        let order = OperationOrder(milliseconds: milliseconds, counter: counter, replica: replica, sequence: sequence, id: UUID())
        return LoggedOperation(order: order, change: Data("change \(sequence)".utf8), rewind: Data("[]".utf8), isReplayed: isReplayed)
    }

    static let first = UUID(uuidString: "10000000-0000-0000-0000-000000000000")!
    static let second = UUID(uuidString: "20000000-0000-0000-0000-000000000000")!
    static let sharedList = ItemList.ID(rawValue: UUID(uuidString: "30000000-0000-0000-0000-000000000000")!)

    @Test("Operations come back in the total order from any point, and in the order they were logged", arguments: Backend.allCases)
    func order(backend: Backend) throws {
        let store = try backend.makeStore()
        // Logged out of order: a later clock first, a tie of clocks broken by replica, then by sequence.
        let late = Self.operation(Self.first, sequence: 2, milliseconds: 300)
        let tieSecond = Self.operation(Self.second, sequence: 1, milliseconds: 200)
        let tieFirst = Self.operation(Self.first, sequence: 1, milliseconds: 200)
        let counted = Self.operation(Self.second, sequence: 2, milliseconds: 200, counter: 1)
        let logged = [late, tieSecond, tieFirst, counted]
        let positions = try store.repository.writeLog { transaction in try logged.map { try transaction.log($0) } }
        #expect(positions == [1, 2, 3, 4])

        try store.repository.readLog { transaction throws in
            let total = try transaction.loggedOperations(from: tieFirst.order, limit: .max)
            #expect(total.map(\.id) == [tieFirst.id, tieSecond.id, counted.id, late.id])
            #expect(try transaction.loggedOperations(from: counted.order, limit: 1).map(\.id) == [counted.id])
            #expect(try transaction.loggedOperations(afterPosition: 1, limit: 2).map(\.id) == [tieSecond.id, tieFirst.id])
            #expect(try transaction.loggedOperations(afterPosition: 4, limit: 10).isEmpty)
            #expect(try transaction.lastOperationOrder() == late.order)
            let read = try transaction.loggedOperation(id: counted.id)
            #expect(read?.change == counted.change)
            #expect(read?.order == counted.order)
            #expect(read?.position == 4)
            #expect(try transaction.loggedOperation(id: UUID()) == nil)
        }
    }

    @Test("The total order agrees with OperationOrder's comparison, ids included", arguments: Backend.allCases)
    func totalOrderMatchesSwift(backend: Backend) throws {
        let store = try backend.makeStore()
        var random = SeededRandomNumberGenerator(seed: 7)
        let replicas = [Self.first, Self.second, UUID(uuidString: "ffffffff-0000-0000-0000-000000000000")!]
        // Few distinct values, so that every part of the order has to break ties.
        let operations = (0..<60).map { _ in
            let order = OperationOrder(
                milliseconds: Int64.random(in: 0...2, using: &random), counter: Int64.random(in: 0...1, using: &random),
                replica: replicas.randomElement(using: &random)!, sequence: Int64.random(in: 1...2, using: &random),
                id: UUID())
            return LoggedOperation(order: order, change: Data("{}".utf8), rewind: Data("[]".utf8), isReplayed: true)
        }
        try store.repository.writeLog { transaction throws in
            for operation in operations { _ = try transaction.log(operation) }
        }
        let lowest = OperationOrder(milliseconds: .min, counter: .min, replica: Identifier<Never>.lowest.rawValue, sequence: .min, id: Identifier<Never>.lowest.rawValue)
        let read = try store.repository.readLog { try $0.loggedOperations(from: lowest, limit: .max) }
        #expect(read.map(\.order) == operations.map(\.order).sorted())
    }

    @Test("An operation is logged once; the unreplayed ones, logged last, are found by the total order until the merge replays them", arguments: Backend.allCases)
    func replayed(backend: Backend) throws {
        let store = try backend.makeStore()
        // Merged earlier, replayed; then two changes made here, the later clock logged first.
        let merged = Self.operation(Self.second, sequence: 1, milliseconds: 300)
        let local = Self.operation(Self.first, sequence: 1, milliseconds: 100, isReplayed: false)
        let later = Self.operation(Self.first, sequence: 2, milliseconds: 200, isReplayed: false)
        #expect(try store.repository.readLog { try $0.firstUnreplayedOperation() } == nil)
        try store.repository.writeLog { transaction throws in
            for operation in [merged, later, local] { _ = try transaction.log(operation) }
        }
        #expect(throws: StoreError.duplicateOperation(local.id)) { try store.repository.writeLog { _ = try $0.log(local) } }
        #expect(try store.repository.readLog { try $0.firstUnreplayedOperation() } == local.order)

        // A merge replays both, in the total order.
        try store.repository.writeLog { transaction throws in
            try transaction.setRewind(Data("[1]".utf8), isReplayed: true, isUnapplied: false, ofOperation: local.id)
            try transaction.setRewind(Data("[2]".utf8), isReplayed: true, isUnapplied: true, ofOperation: later.id)
        }
        try store.repository.readLog { transaction throws in
            #expect(try transaction.firstUnreplayedOperation() == nil)
            #expect(try transaction.loggedOperation(id: local.id)?.rewind == Data("[1]".utf8))
            #expect(try transaction.loggedOperation(id: later.id)?.isReplayed == true)
            // Kept without being applied: a change of a kind the merge did not know.
            #expect(try transaction.loggedOperation(id: later.id)?.isUnapplied == true)
            #expect(try transaction.unappliedOperations().map(\.order) == [later.order])
        }
        try store.repository.writeLog { try $0.setRewind(Data("[2]".utf8), isReplayed: true, isUnapplied: false, ofOperation: later.id) }
        #expect(try store.repository.readLog { try $0.unappliedOperations() }.isEmpty)
        // What arrived from elsewhere is kept byte for byte.
        var received = Self.operation(Self.second, sequence: 7, milliseconds: 70)
        received.original = Data(#"{"id":"x","future":[1,2]}"#.utf8)
        received.isUnapplied = true
        try store.repository.writeLog { _ = try $0.log(received) }
        let read = try store.repository.readLog { try $0.loggedOperation(id: received.id) }
        #expect(read?.original == received.original && read?.isUnapplied == true)
        let next = Self.operation(Self.first, sequence: 3, milliseconds: 50, isReplayed: false)
        try store.repository.writeLog { _ = try $0.log(next) }
        #expect(try store.repository.readLog { try $0.firstUnreplayedOperation() } == next.order)
        let unknown = UUID()
        #expect(throws: StoreError.operationNotFound(unknown)) {
            try store.repository.writeLog { try $0.setRewind(Data(), isReplayed: true, isUnapplied: false, ofOperation: unknown) }
        }
    }

    @Test("The replica id and the tombstones of each ordering are kept, replaced and forgotten", arguments: Backend.allCases)
    func replicaAndTombstones(backend: Backend) throws {
        let store = try backend.makeStore()
        #expect(try store.repository.readLog { try $0.replicaState() } == nil)
        try store.repository.writeLog { try $0.setReplicaState(ReplicaState(id: Self.first)) }
        let second = ReplicaState(id: Self.second, lastSequence: 7, lastMilliseconds: 1_800_000_000_123, lastCounter: 2, clockOffset: -31_536_000_000)
        try store.repository.writeLog { try $0.setReplicaState(second) }
        #expect(try store.repository.readLog { try $0.replicaState() } == second)

        let entry = OrderEntry.ID()
        let list = ItemList.ID()
        try store.repository.writeLog { transaction throws in
            try transaction.setTombstone(5, of: entry, in: .items(list))
            try transaction.setTombstone(-7, of: entry, in: .today)
            try transaction.setTombstone(9, of: entry, in: .today)
        }
        try store.repository.readLog { transaction throws in
            #expect(try transaction.tombstone(of: entry, in: .items(list)) == 5)
            #expect(try transaction.tombstone(of: entry, in: .today) == 9)
            #expect(try transaction.tombstone(of: entry, in: .lists) == nil)
            #expect(try transaction.tombstone(of: entry, in: .items(ItemList.ID())) == nil)
        }
        try store.repository.writeLog { try $0.setTombstone(nil, of: entry, in: .today) }
        #expect(try store.repository.readLog { try $0.tombstone(of: entry, in: .today) } == nil)
    }

    @Test("A store that syncs refuses a change to its lists and items that is not logged, and still reads and keeps its own settings", arguments: Backend.allCases)
    func unloggedChanges(backend: Backend) throws {
        let store = try backend.makeStore()
        // A store without a replica id does not sync: anything goes.
        let (list, items) = try store.seed("Groceries", sortIndices: [10, 20])
        try store.repository.writeLog { try $0.setReplicaState(ReplicaState(id: Self.first)) }

        let extra = Sample.item(in: list.id, "Unlogged", sortIndex: 30)
        #expect(throws: StoreError.unloggedChange) { try store.repository.write { try $0.insert(extra) } }
        #expect(throws: StoreError.unloggedChange) { try store.repository.write { try $0.deleteItem(id: items[0].id) } }
        #expect(throws: StoreError.unloggedChange) {
            try store.repository.write { try $0.setSortIndices([SortIndexChange(id: items[0].id.entryID, sortIndex: 25)], in: .items(list.id), updatedAt: Date()) }
        }
        #expect(throws: StoreError.unloggedChange) { try store.repository.write { try $0.deleteList(id: list.id) } }
        #expect(try store.repository.read { try $0.items(in: list.id, visibility: .all, offset: 0, limit: .max) } == items, "nothing was changed")

        // The default list is each store's own setting, and the log is sync's own: neither needs a mark.
        try store.repository.write { try $0.setDefaultListID(list.id) }
        try store.repository.writeLog { try $0.setTombstone(5, of: items[0].id.entryID, in: .today) }
        #expect(try store.repository.read { try $0.defaultListID() } == list.id)

        // Marked as logged, the same change commits.
        try store.repository.writeLog { try $0.insert(extra) }
        #expect(try store.repository.read { try $0.item(id: extra.id) } == extra)
    }

    @Test("How far each replica's operations go is kept and replaced; held operations are kept once and released", arguments: Backend.allCases)
    func progressAndHeld(backend: Backend) throws {
        let store = try backend.makeStore()
        #expect(try store.repository.readLog { try $0.replicaProgress(of: Self.first) } == nil)
        let first = ReplicaProgress(replica: Self.first, sequence: 3, milliseconds: 300, counter: 1)
        try store.repository.writeLog { transaction throws in
            try transaction.setReplicaProgress(ReplicaProgress(replica: Self.first, sequence: 1, milliseconds: 100, counter: 0))
            try transaction.setReplicaProgress(first)
            try transaction.setReplicaProgress(ReplicaProgress(replica: Self.second, sequence: 9, milliseconds: 900, counter: 0, list: Self.sharedList))
        }
        #expect(try store.repository.readLog { try $0.replicaProgress(of: Self.first) } == first)
        #expect(try store.repository.readLog { try $0.replicaProgress(of: Self.second)?.list } == Self.sharedList)
        #expect(try store.repository.readLog { try $0.replicaProgresses() }.count == 2)

        let (early, late) = (Self.operation(Self.first, sequence: 5, milliseconds: 500), Self.operation(Self.first, sequence: 6, milliseconds: 600))
        try store.repository.writeLog { transaction throws in
            try transaction.hold(early)
            try transaction.hold(late)
            try transaction.hold(early)
        }
        let held = try store.repository.readLog { try $0.heldOperations() }
        #expect(Set(held.map(\.order)) == [early.order, late.order])
        #expect(held.first { $0.id == early.id }?.change == early.change)
        #expect(try store.repository.readLog { try $0.loggedOperation(id: early.id) } == nil, "held, not logged")
        try store.repository.writeLog { try $0.release([early.id]) }
        #expect(try store.repository.readLog { try $0.heldOperations() }.map(\.id) == [late.id])
    }

    @Test("What a store keeps for each remote is kept per remote and replaced", arguments: Backend.allCases)
    func remoteRecords(backend: Backend) throws {
        let store = try backend.makeStore()
        #expect(try store.repository.readLog { try $0.remoteRecord(of: "server") } == nil)
        let server = RemoteRecord(remote: "server", pullCursor: "17", pushPosition: 3, pushOperation: UUID(), foldLimit: [Self.first: 2, Self.second: 0])
        let peer = RemoteRecord(remote: Self.second.uuidString.lowercased(), pullCursor: "9:\(UUID())")
        let list = RemoteRecord(remote: "server/lists/3", foldLimit: [Self.second: 4], list: Self.sharedList)
        try store.repository.writeLog { try $0.setRemoteRecord(list) }
        #expect(try store.repository.readLog { try $0.remoteRecord(of: list.remote) } == list)
        try store.repository.writeLog { transaction throws in
            try transaction.setRemoteRecord(server)
            try transaction.setRemoteRecord(peer)
        }
        let moved = RemoteRecord(remote: "server", pullCursor: "40", pushPosition: 12, pushOperation: UUID())
        try store.repository.writeLog { try $0.setRemoteRecord(moved) }
        try store.repository.readLog { transaction throws in
            #expect(try transaction.remoteRecord(of: "server") == moved)
            #expect(try transaction.remoteRecord(of: peer.remote) == peer)
            #expect(Set(try transaction.remoteRecords()) == [moved, peer, list])
        }
    }

    @Test("Folding removes operations up to an order, but those kept, keeps who each was, and remembers the fold; no position is given twice", arguments: Backend.allCases)
    func folding(backend: Backend) throws {
        let store = try backend.makeStore()
        let early = Self.operation(Self.first, sequence: 1, milliseconds: 100)
        var middle = Self.operation(Self.second, sequence: 1, milliseconds: 200)
        middle.replaces = early.id
        // Under the same replica and sequence number as `middle`, as a copied database makes it; kept.
        let offLine = Self.operation(Self.second, sequence: 1, milliseconds: 210)
        // Logged last, so that folding removes the highest position.
        let kept = Self.operation(Self.first, sequence: 2, milliseconds: 300)
        let folded = Self.operation(Self.second, sequence: 2, milliseconds: 250)
        try store.repository.writeLog { transaction throws in
            for operation in [early, middle, offLine, kept, folded] { _ = try transaction.log(operation) }
        }
        #expect(try store.repository.readLog { try $0.fold() } == nil)
        #expect(try store.repository.readLog { try $0.forkedSequences(of: Self.second, above: 0) } == [1])
        let fold = Fold(through: folded.order, covering: [Self.first: 1, Self.second: 2], tips: [Self.first: early.id, Self.second: folded.id], count: 3)
        #expect(try store.repository.writeLog { try $0.fold(fold, removingThrough: folded.order, keeping: [offLine.id]) } == 3)
        try store.repository.readLog { transaction throws in
            #expect(try transaction.fold() == fold)
            #expect(try transaction.loggedOperations(afterPosition: 0, limit: .max).map(\.id) == [offLine.id, kept.id])
            #expect(try transaction.loggedOperation(id: early.id) == nil)
            #expect(try Set(transaction.loggedReplicas()) == [Self.first, Self.second])
            #expect(try transaction.foldedOperation(id: middle.id) == FoldedOperation(id: middle.id, replica: Self.second, sequence: 1, replaces: early.id))
            #expect(try transaction.foldedOperation(id: offLine.id) == nil && transaction.foldedOperation(id: kept.id) == nil)
            #expect(try Set(transaction.foldedOperations().map(\.id)) == [early.id, middle.id, folded.id])
            #expect(try transaction.foldedReplacements(of: early.id) == [middle.id])
            #expect(try Set(transaction.operationIDs(of: Self.second, at: 1)) == [middle.id, offLine.id])
            #expect(try transaction.forkedSequences(of: Self.second, above: 0) == [1])
        }
        // A snapshot's store folded other operations: they replace what was kept.
        let theirs = FoldedOperation(id: UUID(), replica: Self.first, sequence: 7)
        try store.repository.writeLog { try $0.replaceFolded(with: [theirs]) }
        #expect(try store.repository.readLog { try $0.foldedOperations() } == [theirs])
        #expect(try store.repository.readLog { try $0.foldedOperation(id: middle.id) } == nil)
        #expect(!fold.coversBySequence(middle.order), "a fold that keeps who each operation was covers nothing by sequence number alone")
        #expect(Fold(through: folded.order, covering: [:], bySequence: [Self.second: 1], count: 1).coversBySequence(middle.order))
        // Position 5 was folded away: the next operation goes past it.
        let next = Self.operation(Self.second, sequence: 3, milliseconds: 400)
        #expect(try store.repository.writeLog { try $0.log(next) } == 6)
        // An operation folded away and logged again, as a snapshot's log is, is listed once, at its new position.
        #expect(try store.repository.writeLog { try $0.log(early) } == 7)
        #expect(try store.repository.readLog { try $0.loggedOperations(afterPosition: 0, limit: .max).map(\.id) } == [offLine.id, kept.id, next.id, early.id])
        #expect(try store.repository.readLog { try $0.loggedOperations(afterPosition: 0, limit: 2).map(\.id) } == [offLine.id, kept.id])
    }

    @Test("Replacements are found by the operation they replace; sequences and replicas by the log", arguments: Backend.allCases)
    func replacementsAndSequences(backend: Backend) throws {
        let store = try backend.makeStore()
        let original = Self.operation(Self.second, sequence: 1, milliseconds: 100)
        var later = Self.operation(Self.first, sequence: 5, milliseconds: 300)
        later.replaces = original.id
        var earlier = Self.operation(Self.first, sequence: 3, milliseconds: 200)
        earlier.replaces = original.id
        let plain = Self.operation(Self.first, sequence: 4, milliseconds: 250)
        try store.repository.writeLog { transaction throws in
            for operation in [original, later, earlier, plain] { _ = try transaction.log(operation) }
        }
        try store.repository.readLog { transaction throws in
            #expect(try transaction.replacements(of: original.id) == [earlier.order, later.order])
            #expect(try transaction.replacements(of: plain.id).isEmpty)
            #expect(try transaction.loggedOperation(id: later.id)?.replaces == original.id)
            #expect(try transaction.loggedOperation(id: plain.id)?.replaces == nil)
            #expect(try transaction.loggedSequences(of: Self.first, above: 3) == [4, 5])
            #expect(try transaction.loggedSequences(of: Self.second, above: 0) == [1])
            #expect(try Set(transaction.loggedReplicas()) == [Self.first, Self.second])
        }
    }

    @Test("Each replica's acknowledgement is kept and replaced; every tombstone is listed", arguments: Backend.allCases)
    func acknowledgementsAndTombstones(backend: Backend) throws {
        let store = try backend.makeStore()
        let first = Acknowledgement(replica: Self.first, milliseconds: 10, counter: 1, merged: [Self.first: 4, Self.second: 2])
        let second = Acknowledgement(replica: Self.second, milliseconds: 12, counter: 0, merged: [:])
        let newer = Acknowledgement(replica: Self.first, milliseconds: 20, counter: 0, merged: [Self.first: 6], tips: [Self.first: UUID()])
        let list = ItemList.ID()
        let entry = OrderEntry.ID()
        try store.repository.writeLog { transaction throws in
            try transaction.setAcknowledgement(first)
            try transaction.setAcknowledgement(second)
            try transaction.setAcknowledgement(newer)
            try transaction.setTombstone(7, of: entry, in: .items(list))
            try transaction.setTombstone(-3, of: entry, in: .today)
        }
        try store.repository.readLog { transaction throws in
            #expect(try Set(transaction.acknowledgements()) == [newer, second])
            #expect(try Set(transaction.tombstones()) == [
                Tombstone(entry: entry, scope: .items(list), sortIndex: 7), Tombstone(entry: entry, scope: .today, sortIndex: -3),
            ])
        }
    }

    @Test("The replica's state is its last operation's, after other replicas' operations and a fold too", arguments: Backend.allCases)
    func replicaStateFollowsTheLog(backend: Backend) throws {
        let store = try backend.makeStore()
        let here = ReplicaState(id: Self.first, lastSequence: 4, lastMilliseconds: 90, lastCounter: 0)
        try store.repository.writeLog { try $0.setReplicaState(here) }
        // A change made here: its operation, then the state it leads to, in one transaction.
        let own = Self.operation(Self.first, sequence: 5, milliseconds: 100, counter: 2)
        let after = ReplicaState(id: Self.first, lastSequence: 5, lastMilliseconds: 100, lastCounter: 2)
        try store.repository.writeLog { transaction throws in
            _ = try transaction.log(own)
            try transaction.setReplicaState(after)
        }
        #expect(try store.repository.readLog { try $0.replicaState() } == after)
        if let writer = store.sqlite?.writer {
            // SQLite skips the row's write: the operation says it.
            #expect(try writer.read { try Int64.fetchOne($0, sql: "SELECT last_sequence FROM sync_replica") } == 4)
        }
        // Another replica's operation logged after it, as a merge does.
        try store.repository.writeLog { _ = try $0.log(Self.operation(Self.second, sequence: 1, milliseconds: 50)) }
        #expect(try store.repository.readLog { try $0.replicaState() } == after)
        if let writer = store.sqlite?.writer {
            #expect(try writer.read { try Int64.fetchOne($0, sql: "SELECT last_sequence FROM sync_replica") } == 5)
        }
        // Another change here, then a fold that removes every operation.
        let next = Self.operation(Self.first, sequence: 6, milliseconds: 110)
        let last = ReplicaState(id: Self.first, lastSequence: 6, lastMilliseconds: 110, lastCounter: 0)
        try store.repository.writeLog { transaction throws in
            _ = try transaction.log(next)
            try transaction.setReplicaState(last)
        }
        let fold = Fold(through: next.order, covering: [Self.first: 6, Self.second: 1], count: 3)
        #expect(try store.repository.writeLog { try $0.fold(fold, removingThrough: next.order, keeping: []) } == 3)
        #expect(try store.repository.readLog { try $0.replicaState() } == last)
    }

    @Test("An operation of this replica logged out of turn, after a later one, leaves the replica's state at the later one", arguments: Backend.allCases)
    func replicaStateAfterAnOperationOutOfTurn(backend: Backend) throws {
        let store = try backend.makeStore()
        try store.repository.writeLog { try $0.setReplicaState(ReplicaState(id: Self.first, lastSequence: 2, lastMilliseconds: 90, lastCounter: 0)) }
        // A merge makes a replacement (3), then logs an operation of this replica the store
        // had made before (2) again, as it does when it takes its own operations into a snapshot.
        let made = Self.operation(Self.first, sequence: 3, milliseconds: 100)
        let state = ReplicaState(id: Self.first, lastSequence: 3, lastMilliseconds: 100, lastCounter: 0)
        try store.repository.writeLog { transaction throws in
            _ = try transaction.log(made)
            try transaction.setReplicaState(state)
            _ = try transaction.log(Self.operation(Self.first, sequence: 2, milliseconds: 80))
            #expect(try transaction.replicaState() == state)
        }
        #expect(try store.repository.readLog { try $0.replicaState() } == state)
        // A fold that removes them both forgets nothing either.
        let fold = Fold(through: made.order, covering: [Self.first: 3], count: 2)
        _ = try store.repository.writeLog { try $0.fold(fold, removingThrough: made.order, keeping: []) }
        #expect(try store.repository.readLog { try $0.replicaState() } == state)
    }

    @Test("A failed write transaction logs nothing", arguments: Backend.allCases)
    func rollback(backend: Backend) throws {
        struct Abort: Error {}
        let store = try backend.makeStore()
        let operation = Self.operation(Self.first, sequence: 1, milliseconds: 1)
        #expect(throws: Abort.self) {
            try store.repository.writeLog { transaction throws in
                _ = try transaction.log(operation)
                try transaction.setReplicaState(ReplicaState(id: Self.first))
                throw Abort()
            }
        }
        try store.repository.readLog { transaction throws in
            #expect(try transaction.loggedOperation(id: operation.id) == nil)
            #expect(try transaction.replicaState() == nil)
        }
    }
}
