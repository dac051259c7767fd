import ArrangeModel
import ArrangeStore
import ArrangeSync
import Foundation
import Testing

extension SyncOperation {
    /// The item an `addItem` operation adds.
    var subjectID: Item.ID? {
        if case .addItem(let added) = change { added.id } else { nil }
    }
}

/// Compaction at its edges: who must have acknowledged what, operations that arrive late, and
/// stores that folded apart.
@Suite("Sync: compaction")
struct CompactionTests {
    /// A replica whose wall clock the test sets.
    struct Replica {
        let engine: SyncEngine
        let clock: SimulatedClock

        init(kind: StoreKind, at milliseconds: Int64 = 1_000_000) throws {
            let clock = SimulatedClock(milliseconds)
            self.clock = clock
            engine = SyncEngine(repository: try kind.makeRepository(), wallClock: { clock.read() })
        }

        /// Adds an item at the top of the default list.
        @discardableResult
        func add(_ title: String, id: Item.ID = Item.ID()) throws -> SyncOperation {
            clock.advance(by: 1)
            return try engine.perform(.addItem(id: id, list: ItemList.firstDefaultListID, title: title, notes: "", place: SyncPlace(after: nil, before: nil)))
        }

        /// Moves an item of the default list after another, or to the top.
        func move(_ item: Item.ID, after anchor: Item.ID?) throws {
            clock.advance(by: 1)
            try engine.perform(.moveItems(ids: [item], list: ItemList.firstDefaultListID, place: SyncPlace(after: anchor?.entryID, before: nil)))
        }

        func log() throws -> [SyncOperation] {
            try engine.repository.read { try engine.operations(after: 0, in: $0).operations }
        }

        func titles() throws -> [String] {
            try engine.repository.read { try $0.items(in: ItemList.firstDefaultListID, visibility: .all, offset: 0, limit: .max).map(\.title) }
        }

        /// Four replicas, each with an item of its own, that met and folded in two pairs: 0 with
        /// 1, and 2 with 3, so that each pair folded away operations the other never had.
        static func pairsFoldedApart(kind: StoreKind) async throws -> [Replica] {
            let replicas = try (0..<4).map { _ in try Replica(kind: kind) }
            for (index, title) in ["Milk", "Eggs", "Tea", "Rice"].enumerated() { try replicas[index].add(title) }
            for (first, second) in [(0, 1), (2, 3)] {
                _ = try await replicas[first].engine.exchange(with: replicas[second].engine)
                _ = try await (replicas[first].engine.compact(), replicas[second].engine.compact())
            }
            return replicas
        }
    }

    @Test("A store alone folds nothing; two that met fold what both hold", arguments: StoreKind.allCases)
    func alone(kind: StoreKind) async throws {
        let (laptop, phone) = (try Replica(kind: kind), try Replica(kind: kind))
        try laptop.add("Milk")
        #expect(try await laptop.engine.compact() == 0)
        try phone.add("Bread")
        _ = try await laptop.engine.exchange(with: phone.engine)
        #expect(try await laptop.engine.compact() > 0)
        #expect(try await phone.engine.compact() > 0)
        #expect(try laptop.log().isEmpty && phone.log().isEmpty)
        // What the operations did stays.
        #expect(try Set(laptop.titles()) == ["Milk", "Bread"] && laptop.titles() == phone.titles())
    }

    @Test("A replica known only by its operations holds compaction back until it has said what it holds", arguments: StoreKind.allCases)
    func unacknowledged(kind: StoreKind) async throws {
        let (laptop, phone, tablet) = (try Replica(kind: kind), try Replica(kind: kind), try Replica(kind: kind))
        try tablet.add("Tea")
        // The tablet's operations reach the laptop through a file: the laptop knows of it, but has heard nothing from it.
        _ = try await laptop.engine.merge(try tablet.log())
        _ = try await laptop.engine.exchange(with: phone.engine)
        #expect(try await laptop.engine.compact() == 0)
        #expect(try await phone.engine.compact() == 0)
        _ = try await tablet.engine.exchange(with: phone.engine)
        _ = try await phone.engine.exchange(with: laptop.engine)
        #expect(try await laptop.engine.compact() > 0)
    }

    @Test("An operation that arrives after its place was folded away is made again by each store that meets it, and only the first replacement applies", arguments: StoreKind.allCases)
    func lateOperation(kind: StoreKind) async throws {
        let (laptop, phone) = (try Replica(kind: kind, at: 2_000_000), try Replica(kind: kind, at: 2_000_000))
        // The tablet's clock is behind: what it does sorts before what the others fold.
        let tablet = try Replica(kind: kind, at: 1_000_000)
        let milk = Item.ID()
        try laptop.add("Milk", id: milk)
        _ = try await tablet.engine.merge(try laptop.log())
        let tea = try tablet.add("Tea")
        try tablet.move(milk, after: tea.subjectID)
        laptop.clock.advance(by: 10)
        try laptop.add("Eggs")
        _ = try await laptop.engine.exchange(with: phone.engine)
        _ = try await (laptop.engine.compact(), phone.engine.compact())

        // The laptop meets the tablet's two operations first, and makes them again: Tea at the top, Milk after it.
        let late = try tablet.log()
        let here = try await laptop.engine.merge(late)
        #expect(here.replaced == 2, "\(here)")
        #expect(try await laptop.engine.merge(late).new == 0, "merged again, nothing is new")
        #expect(try laptop.titles() == ["Tea", "Milk", "Eggs"])
        // Then someone moves Milk to the top there; the phone meets the tablet's operations later still.
        try laptop.move(milk, after: nil)
        phone.clock.advance(by: 100)
        #expect(try await phone.engine.merge(late).replaced == 2)

        _ = try await laptop.engine.exchange(with: phone.engine)
        _ = try await tablet.engine.exchange(with: laptop.engine)
        _ = try await tablet.engine.exchange(with: phone.engine)
        // The phone's replacements came second: they do nothing, and Milk stays at the top.
        #expect(try laptop.titles() == ["Milk", "Tea", "Eggs"])
        let dump = { (replica: Replica) in try Simulation.dump(replica.engine.repository) }
        #expect(try dump(laptop) == dump(phone) && dump(phone) == dump(tablet))
    }

    @Test("Two stores that meet only through files hear each other's acknowledgements and fold", arguments: StoreKind.allCases)
    func filesOnly(kind: StoreKind) async throws {
        let (laptop, phone) = (try Replica(kind: kind), try Replica(kind: kind))
        try laptop.add("Milk")
        try phone.add("Tea")
        /// Writes `from`'s operations as a file, with its acknowledgements, and imports it into `to`.
        func send(_ from: Replica, to: Replica) async throws -> Int {
            let file = try OperationFile.encode(OperationFile.Contents(
                operations: try await from.engine.operations(after: 0).operations, acknowledgements: try await from.engine.acknowledgements()))
            let contents = try OperationFile.decode(file)
            try await to.engine.merge(contents.operations, after: contents.folded)
            try await to.engine.hear(contents.acknowledgements)
            return try await to.engine.compact()
        }
        // The phone may fold the laptop's operations that sort before its own: both hold them.
        _ = try await send(laptop, to: phone)
        #expect(try await send(phone, to: laptop) > 0, "the laptop heard the phone hold everything the laptop holds")
        _ = try await send(laptop, to: phone)
        let (laptopFold, phoneFold) = (try await laptop.engine.repository.readLog { try $0.fold() }, try await phone.engine.repository.readLog { try $0.fold() })
        #expect(laptopFold?.through == phoneFold?.through, "each heard the other, and folded as far")
        #expect(try Simulation.dump(laptop.engine.repository) == Simulation.dump(phone.engine.repository))
        #expect(Set(try laptop.titles()) == ["Milk", "Tea"])
    }

    @Test("Two pairs that each folded apart refuse to meet, and neither changes", arguments: StoreKind.allCases)
    func foldedApart(kind: StoreKind) async throws {
        let replicas = try await Replica.pairsFoldedApart(kind: kind)
        let before = try replicas.map { try Simulation.dump($0.engine.repository) }
        await #expect(throws: SyncError.foldedApart) { try await replicas[0].engine.exchange(with: replicas[2].engine) }
        #expect(try replicas.map { try Simulation.dump($0.engine.repository) } == before)
    }
}
