import ArrangeModel
import ArrangeStore
import ArrangeSync
import Foundation
import Synchronization
import Testing

/// A remote that only keeps what it is pushed, as a server does: operations in the order they
/// came, each once, and the latest acknowledgement of each replica. It folds nothing unless told
/// to announce a fold, and has no snapshot to give.
final class RelayRemote: SyncRemote {
    private struct State {
        var operations: [SyncOperation] = []
        var ids: Set<SyncOperation.ID> = []
        var acknowledgements: [ReplicaID: SyncAcknowledgement] = [:]
        var pushes = 0
        /// Operations pushed, each time it was pushed.
        var received = 0
        /// For each replica that pushed, where in its log its last push ended.
        var throughs: [ReplicaID: SyncCursor] = [:]
    }

    private let state = Mutex(State())
    let identity: String
    /// What the relay announces it folded, for each replica: stores that sync with it fold no further.
    let announcedFold: [ReplicaID: Int64]
    /// The push, counted from 1, that fails as if the connection dropped; `nil` for none.
    let failingPush: Int?
    /// Whether every page says more follow, as a broken server might.
    let claimsMore: Bool
    /// The shared list whose log the relay keeps; `nil` for a user's own.
    let list: ItemList.ID?
    /// Whether the relay says it decides what is folded, as a server does.
    let coordinatesFolding: Bool

    struct ConnectionLost: Error {}

    init(
        identity: String = "relay", announcedFold: [ReplicaID: Int64] = [:], failingPush: Int? = nil, claimsMore: Bool = false, list: ItemList.ID? = nil,
        coordinatesFolding: Bool = true
    ) {
        self.identity = identity
        self.list = list
        self.coordinatesFolding = coordinatesFolding
        self.announcedFold = announcedFold
        self.failingPush = failingPush
        self.claimsMore = claimsMore
    }

    /// Every operation the relay keeps, in the order they came.
    var operations: [SyncOperation] { state.withLock { $0.operations } }

    /// The latest acknowledgement of each replica the relay took.
    var acknowledgements: [SyncAcknowledgement] { state.withLock { Array($0.acknowledgements.values) } }

    /// How many operations were pushed to the relay, each time it was pushed.
    var received: Int { state.withLock { $0.received } }

    func state(for replica: ReplicaID) async throws -> SyncRemoteState {
        state.withLock { state in
            var held: [ReplicaID: Int64] = [:]
            var tips: [ReplicaID: SyncOperation.ID] = [:]
            // Sequence numbers held without a gap, as a store counts them, and the one operation there.
            let byReplica = Dictionary(grouping: state.operations, by: \.replica)
            for (replica, operations) in byReplica {
                var through: Int64 = 0
                for sequence in Set(operations.map(\.sequence)).sorted() where sequence == through + 1 { through = sequence }
                held[replica] = through
                let there = operations.filter { $0.sequence == through }
                if there.count == 1 { tips[replica] = there[0].id }
            }
            return SyncRemoteState(held: held, heldTips: tips, folded: announcedFold, coordinatesFolding: coordinatesFolding, received: state.throughs[replica])
        }
    }

    func pull(after cursor: SyncCursor?, limit: Int) async throws -> SyncPage {
        state.withLock { state in
            let start = cursor.flatMap { Int($0.rawValue) } ?? 0
            let end = min(state.operations.count, start + limit)
            return SyncPage(
                operations: Array(state.operations[start..<end]), cursor: SyncCursor(rawValue: String(end)), isComplete: !claimsMore && end == state.operations.count,
                acknowledgements: Array(state.acknowledgements.values))
        }
    }

    func push(
        _ operations: [SyncOperation], from replica: ReplicaID, through: SyncCursor, acknowledgements: [SyncAcknowledgement]
    ) async throws -> MergeReport? {
        try state.withLock { state in
            state.pushes += 1
            if state.pushes == failingPush { throw ConnectionLost() }
            state.received += operations.count
            state.throughs[replica] = through
            for operation in operations where state.ids.insert(operation.id).inserted { state.operations.append(operation) }
            for acknowledgement in acknowledgements where (state.acknowledgements[acknowledgement.replica]?.clock).map({ $0 < acknowledgement.clock }) ?? true {
                state.acknowledgements[acknowledgement.replica] = acknowledgement
            }
            return nil
        }
    }

    func snapshot() async throws -> SyncRemoteSnapshot { throw ConnectionLost() }

    /// What the relay holds now, to restore later as a backup would.
    func backup() -> Any { state.withLock { $0 } }

    /// Puts back what ``backup()`` took: the relay goes back in time.
    func restore(_ backup: Any) {
        guard let backup = backup as? State else { return }
        state.withLock { $0 = backup }
    }
}

/// `SyncEngine.sync(with:)`: stores that meet only through a remote that keeps operations.
@Suite("Sync: through a remote")
struct RemoteTests {
    @Test("Replicas that sync only through a relay, in pages of 3, converge, each operation kept once", arguments: StoreKind.allCases, 0..<3)
    func relay(kind: StoreKind, seed: Int) async throws {
        var random = SeededRandomNumberGenerator(seed: UInt64(seed))
        let simulation = try Simulation(replicas: 3, kind: kind, pageSize: 3)
        let relay = RelayRemote()
        for _ in 0..<120 {
            if Int.random(in: 0..<4, using: &random) == 0 {
                _ = try await simulation.engines[Int.random(in: 0..<3, using: &random)].sync(with: relay)
            } else {
                try simulation.step((0..<4).map { _ in Int.random(in: 0...Int(UInt32.max), using: &random) })
            }
        }
        for _ in 0..<2 {
            for engine in simulation.engines { _ = try await engine.sync(with: relay) }
        }
        try simulation.expectConvergence()
        // What a store pulled from the relay, and what the relay's state showed it held, went
        // back to it no more: each operation reached it once.
        #expect(relay.received == relay.operations.count, "\(relay.received) pushed for \(relay.operations.count) kept")
        // Caught up, a sync reads nothing and pushes nothing.
        let again = try await simulation.engines[0].sync(with: relay)
        #expect(again.received.received == 0 && again.pushed == 0, "\(again)")
    }

    @Test("A remote whose pages always say more follow ends the pull once a page brings nothing", .timeLimit(.minutes(1)))
    func endlessRemote() async throws {
        let (first, second) = (SyncEngine(repository: InMemoryItemRepository()), SyncEngine(repository: InMemoryItemRepository()))
        let relay = RelayRemote(claimsMore: true)
        let made = try first.perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: "Milk", notes: "", place: SyncPlace(after: nil, before: nil)))
        _ = try await first.sync(with: relay)
        let report = try await second.sync(with: relay)
        #expect(report.received.new == relay.operations.count)
        #expect(try await second.operations(after: 0).operations.contains { $0.id == made.id })
    }

    @Test("A remote restored from a backup is given again what it lost: it says how far it took the store's log", arguments: StoreKind.allCases)
    func restoredRemote(kind: StoreKind) async throws {
        let engine = SyncEngine(repository: try kind.makeRepository())
        func add(_ title: String) throws {
            try engine.perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: title, notes: "", place: SyncPlace(after: nil, before: nil)))
        }
        let relay = RelayRemote()
        for title in ["A", "B"] { try add(title) }
        _ = try await engine.sync(with: relay)
        let backup = relay.backup()
        for title in ["C", "D"] { try add(title) }
        _ = try await engine.sync(with: relay)
        relay.restore(backup)
        let report = try await engine.sync(with: relay)
        #expect(report.pushed == 2, "C and D again")
        #expect(Set(relay.operations.map(\.id)) == Set(try await engine.operations(after: 0).operations.map(\.id)))
    }

    @Test("A store passes on to the remote what it took in from elsewhere", arguments: StoreKind.allCases)
    func relaysOthers(kind: StoreKind) async throws {
        let (phone, laptop) = (SyncEngine(repository: try kind.makeRepository()), SyncEngine(repository: try kind.makeRepository()))
        let made = try phone.perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: "Milk", notes: "", place: SyncPlace(after: nil, before: nil)))
        _ = try await laptop.exchange(with: phone)
        let relay = RelayRemote()
        let report = try await laptop.sync(with: relay)
        #expect(relay.operations.contains { $0.id == made.id }, "the phone's change reached the relay through the laptop")
        #expect(report.pushed == relay.operations.count)
    }

    @Test("A push that fails is pushed again by the next sync, and what the remote took is not", arguments: StoreKind.allCases)
    func interruptedPush(kind: StoreKind) async throws {
        let engine = SyncEngine(repository: try kind.makeRepository(), pageSize: 2)
        for number in 0..<5 {
            try engine.perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: "Item \(number)", notes: "", place: SyncPlace(after: nil, before: nil)))
        }
        let logged = try await engine.operations(after: 0).operations.count
        let relay = RelayRemote(failingPush: 2)
        await #expect(throws: RelayRemote.ConnectionLost.self) { try await engine.sync(with: relay) }
        #expect(relay.operations.count == 2, "the first page went")
        let report = try await engine.sync(with: relay)
        #expect(report.pushed == logged - 2, "the rest, and only the rest")
        #expect(relay.operations.map(\.id) == (try await engine.operations(after: 0)).operations.map(\.id))
    }

    @Test("The signal to push turns true with a change made here and false after a sync", arguments: StoreKind.allCases)
    func pushSignal(kind: StoreKind) async throws {
        let engine = SyncEngine(repository: try kind.makeRepository())
        let relay = RelayRemote()
        var signals = engine.hasOperationsToPush(to: relay).makeAsyncIterator()
        #expect(try await signals.next() == false, "a store that never changed has nothing to push")
        try engine.perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: "Milk", notes: "", place: SyncPlace(after: nil, before: nil)))
        #expect(try await signals.next() == true)
        _ = try await engine.sync(with: relay)
        #expect(try await signals.next() == false)
        #expect(!relay.operations.isEmpty)
    }

    @Test("A store that syncs with a remote that coordinates folding folds no further than the remote announced", arguments: StoreKind.allCases)
    func boundedFold(kind: StoreKind) async throws {
        let (first, second) = (SyncEngine(repository: try kind.makeRepository()), SyncEngine(repository: try kind.makeRepository()))
        for title in ["A", "B", "C"] {
            try first.perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: title, notes: "", place: SyncPlace(after: nil, before: nil)))
        }
        // Two stores that hold each other's operations could fold them all.
        _ = try await first.exchange(with: second)
        _ = try await second.exchange(with: first)
        let replica = try await first.replicas()[0].id
        // A relay that folded only the first two of the first store's operations.
        _ = try await first.sync(with: RelayRemote(announcedFoldOf: replica, through: 2))
        #expect(try await first.compact() == 2)
        let left = try await first.operations(after: 0)
        #expect(left.folded[replica] == 2, "\(left.folded)")
        #expect(!left.operations.filter { $0.replica == replica }.isEmpty)
    }

    @Test("A store sent to the snapshot that lacks nothing it folded takes in its operations before its cursor moves past them", arguments: StoreKind.allCases)
    func snapshotOfOperations(kind: StoreKind) async throws {
        let (peer, store) = (SyncEngine(repository: try kind.makeRepository()), SyncEngine(repository: try kind.makeRepository()))
        for title in ["A", "B"] {
            try peer.perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: title, notes: "", place: SyncPlace(after: nil, before: nil)))
        }
        let report = try await store.sync(with: SnapshotOnlyRemote(peer: peer))
        #expect(report.adoption == nil, "nothing was folded: the store had nothing to take the snapshot for")
        let titles = try await store.repository.read { try $0.items(in: ItemList.firstDefaultListID, visibility: .all, offset: 0, limit: .max).map(\.title) }
        #expect(Set(titles) == ["A", "B"])
    }
}

/// A remote that refuses to page from before its fold, and hands out its peer's snapshot instead,
/// as a sync server does to a device returning after a fold.
struct SnapshotOnlyRemote: SyncRemote {
    let peer: SyncEngine
    var identity: String { "snapshot only" }

    func state(for replica: ReplicaID) async throws -> SyncRemoteState {
        SyncRemoteState(held: [:], coordinatesFolding: true)
    }

    func pull(after cursor: SyncCursor?, limit: Int) async throws -> SyncPage {
        guard let cursor else { throw SyncError.missingFoldedOperations }
        return SyncPage(operations: [], cursor: cursor, isComplete: true)
    }

    func push(
        _ operations: [SyncOperation], from replica: ReplicaID, through: SyncCursor, acknowledgements: [SyncAcknowledgement]
    ) async throws -> MergeReport? { nil }

    func snapshot() async throws -> SyncRemoteSnapshot {
        SyncRemoteSnapshot(snapshot: try await peer.snapshot(), cursor: SyncCursor(rawValue: "after the snapshot"))
    }
}

extension RelayRemote {
    /// A relay that announces it folded `replica`'s operations through `sequence`.
    convenience init(announcedFoldOf replica: ReplicaID, through sequence: Int64) {
        self.init(identity: "folding relay", announcedFold: [replica: sequence])
    }
}
