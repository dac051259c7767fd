import ArrangeModel
import ArrangeStore
import ArrangeSync
import Foundation
import Testing

/// A device whose clock runs far ahead: its changes are held back elsewhere instead of beating
/// the changes made after them, and once its clock is right it makes them again, in time.
@Suite("Sync: clocks that are wrong")
struct ClockTests {
    static let year: Int64 = 365 * 24 * 3_600 * 1_000

    /// A device on a wall clock of its own, set `offset` milliseconds from the shared one.
    final class Device {
        let engine: SyncEngine
        let offset: SimulatedClock

        init(kind: StoreKind, clock: SimulatedClock, offset: Int64 = 0) throws {
            let offset = SimulatedClock(offset)
            self.offset = offset
            engine = SyncEngine(repository: try kind.makeRepository(), wallClock: { clock.read() + offset.read() })
        }

        @discardableResult
        func add(_ title: String) throws -> SyncOperation {
            try engine.perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: title, notes: "", place: SyncPlace(after: nil, before: nil)))
        }

        @discardableResult
        func rename(_ title: String, to newTitle: String) throws -> SyncOperation {
            let item = try #require(try items().first { $0.title == title })
            return try engine.perform(.editItem(id: item.id, title: newTitle, notes: nil))
        }

        func items() throws -> [Item] {
            try engine.repository.read { try $0.items(in: ItemList.firstDefaultListID, visibility: .all, offset: 0, limit: .max) }
        }

        func titles() throws -> Set<String> { Set(try items().map(\.title)) }

        func operations() async throws -> [SyncOperation] { try await engine.operations(after: 0).operations }

        func replica() async throws -> ReplicaID? { try await engine.replicas().first { $0.isThisDatabase }?.id }
    }

    @Test("An operation stamped a year ahead is held back with its replica's later ones, and named with how far ahead; the rest merges, and time catching up lets them in", arguments: StoreKind.allCases)
    func heldWhileAhead(kind: StoreKind) async throws {
        let clock = SimulatedClock(1_700_000_000_000)
        let (phone, laptop, tablet) = (try Device(kind: kind, clock: clock), try Device(kind: kind, clock: clock, offset: Self.year), try Device(kind: kind, clock: clock))
        try phone.add("Milk")
        try await laptop.engine.merge(try await phone.operations())
        clock.advance(by: 1_000)
        try laptop.rename("Milk", to: "Oat milk")
        try laptop.add("Bread")
        try tablet.add("Eggs")

        let report = try await phone.engine.merge(try await laptop.operations() + tablet.operations())
        let ahead = try #require(report.aheadOfClock.first, "\(report)")
        #expect(report.aheadOfClock.count == 1 && report.held == 2)
        #expect(ahead.replica == (try await laptop.replica()) && ahead.held == 2)
        #expect(ahead.aheadByMilliseconds >= Self.year - HybridLogicalClock.maximumDrift && ahead.aheadByMilliseconds <= Self.year, "\(ahead.aheadByMilliseconds)")
        #expect(try phone.titles() == ["Milk", "Eggs"], "the laptop's changes wait; the tablet's do not")
        #expect(try await !phone.operations().contains { $0.replica == ahead.replica && $0.sequence > 1 }, "nothing held is logged or passed on")

        // Each merge looks again; a year later they are no longer ahead.
        #expect(try await phone.engine.merge([]).held == 2)
        clock.advance(by: Self.year)
        let later = try await phone.engine.merge([])
        #expect(later.held == 0 && later.aheadOfClock.isEmpty, "\(later)")
        #expect(try phone.titles() == ["Oat milk", "Bread", "Eggs"])
    }

    @Test("A device whose clock ran a year ahead, once right, makes its changes again in time under a new id; an edit made after them wins, and every device ends the same", arguments: StoreKind.allCases)
    func recovery(kind: StoreKind) async throws {
        let clock = SimulatedClock(1_700_000_000_000)
        let (phone, laptop) = (try Device(kind: kind, clock: clock), try Device(kind: kind, clock: clock, offset: Self.year))
        try phone.add("Milk")
        _ = try await laptop.engine.exchange(with: phone.engine)
        let before = try #require(try await laptop.replica())
        clock.advance(by: 1_000)
        let ahead = try laptop.rename("Milk", to: "Oat milk")
        try laptop.add("Bread")
        #expect(try await laptop.engine.exchange(with: phone.engine).sent.held == 2, "held back by the phone")

        // The laptop's clock is set right. Its next exchange recovers first.
        laptop.offset.advance(by: -Self.year)
        clock.advance(by: 1_000)
        let exchange = try await laptop.engine.exchange(with: phone.engine)
        let recovery = try #require(exchange.clockRecovery, "\(exchange)")
        #expect(recovery.leftReplica == before && recovery.restated == 2)
        #expect(recovery.aheadByMilliseconds > Self.year - 60_000 && recovery.aheadByMilliseconds <= Self.year)
        #expect(exchange.sent.held == 0 && exchange.sent.aheadOfClock.isEmpty, "\(exchange.sent)")
        #expect(try await laptop.replica() != before, "it left the id it stamped ahead under")
        #expect(try phone.titles() == ["Oat milk", "Bread"])

        // What the laptop makes now is stamped in time, and an edit the phone makes after
        // seeing the rename wins over it.
        clock.advance(by: 1_000)
        let next = try laptop.add("Tea")
        #expect(next.clock.milliseconds <= clock.read() + HybridLogicalClock.maximumDrift && next.clock < ahead.clock, "stamped in time")
        clock.advance(by: 1_000)
        try phone.rename("Oat milk", to: "Whole milk")
        _ = try await phone.engine.exchange(with: laptop.engine)
        #expect(try laptop.titles() == ["Whole milk", "Bread", "Tea"])
        #expect(try Simulation.dump(laptop.engine.repository) == Simulation.dump(phone.engine.repository))

        // One merge of every operation, the ones stamped ahead included, ends the same.
        let all = Set(try await laptop.operations() + phone.operations())
        let reference = SyncEngine(repository: InMemoryItemRepository(), wallClock: { clock.read() })
        let merged = try await reference.merge(all.sorted { $0.order < $1.order })
        #expect(merged.held == 0, "an operation whose replacement is let in is let in however far ahead: it has no effect")
        #expect(try Simulation.dump(reference.repository) == Simulation.dump(phone.engine.repository))
    }

    @Test("A device whose clock is right makes nothing again and keeps its replica id", arguments: StoreKind.allCases)
    func rightClockChangesNothing(kind: StoreKind) async throws {
        let clock = SimulatedClock(1_700_000_000_000)
        // Within the drift a device takes in.
        let (phone, laptop) = (try Device(kind: kind, clock: clock), try Device(kind: kind, clock: clock, offset: HybridLogicalClock.maximumDrift - 1_000))
        try laptop.add("Milk")
        let id = try await laptop.replica()
        let exchange = try await laptop.engine.exchange(with: phone.engine)
        #expect(exchange.clockRecovery == nil && exchange.peerClockRecovery == nil && exchange.sent.held == 0)
        laptop.offset.advance(by: -(HybridLogicalClock.maximumDrift - 1_000))
        try laptop.add("Eggs")
        #expect(try await laptop.replica() == id)
        _ = try await laptop.engine.exchange(with: phone.engine)
        #expect(try phone.titles() == ["Milk", "Eggs"])
    }
}
