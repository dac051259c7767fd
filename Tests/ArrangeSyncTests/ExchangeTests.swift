import ArrangeModel
import ArrangeSQLite
import ArrangeStore
import ArrangeSync
import Foundation
import Testing

/// `SyncEngine.exchange(with:)`: each side reads the other's log from the cursor it keeps for
/// it, and the replicas still end identical.
@Suite("Sync: exchanges between replicas")
struct ExchangeTests {
    @Test("Replicas that meet in pairs and fold what all hold converge, and a third exchange of a pair reads nothing; in pages of 3 operations too", arguments: StoreKind.allCases, 0..<4)
    func pairs(kind: StoreKind, seed: Int) async throws {
        var random = SeededRandomNumberGenerator(seed: UInt64(seed))
        // Odd seeds merge what an exchange sends 3 operations to a transaction.
        let simulation = try Simulation(replicas: 2 + seed % 3, kind: kind, pageSize: seed % 2 == 1 ? 3 : 1_000)
        let engines = simulation.engines
        var folded = 0
        /// An exchange, then each side folds what every replica it knows of holds.
        func meet(_ first: Int, _ second: Int) async throws {
            _ = try await engines[first].exchange(with: engines[second])
            try simulation.archiveLogs()
            folded += try await engines[first].compact() + engines[second].compact()
        }
        for _ in 0..<160 {
            if Int.random(in: 0..<5, using: &random) == 0 {
                let first = Int.random(in: 0..<engines.count, using: &random)
                try await meet(first, (first + Int.random(in: 1..<engines.count, using: &random)) % engines.count)
            } else {
                try simulation.step((0..<4).map { _ in Int.random(in: 0...Int(UInt32.max), using: &random) })
            }
        }
        // Twice round the ring: every operation reaches every replica by exchanges alone.
        for _ in 0..<2 {
            for index in engines.indices { try await meet(index, (index + 1) % engines.count) }
        }
        try simulation.expectConvergence()
        #expect(folded > 0, "the replicas folded operations away")

        // The second exchange reads back only what the first sent; the third, nothing.
        for _ in 0..<2 { _ = try await engines[0].exchange(with: engines[1]) }
        let third = try await engines[0].exchange(with: engines[1])
        #expect(third.received.received == 0 && third.sent.received == 0, "\(third)")
    }

    @Test("Pages of operations read from cursor to cursor read every operation once, whatever is logged between them", arguments: StoreKind.allCases)
    func pages(kind: StoreKind) async throws {
        let clock = SimulatedClock(1_000_000)
        let engine = SyncEngine(repository: try kind.makeRepository(), wallClock: { clock.read() })
        func add(_ title: String) throws {
            clock.advance(by: 1)
            try engine.perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: title, notes: "", place: SyncPlace(after: nil, before: nil)))
        }
        for number in 0..<7 { try add("Item \(number)") }
        let whole = try await engine.operations(after: 0)
        #expect(whole.isComplete && whole.operations.count == 7)

        var read: [SyncOperation] = []
        var cursor: Int64 = 0
        var pages = 0
        while true {
            let page = try await engine.operations(after: cursor, limit: 3)
            #expect(page.operations.count <= 3)
            read += page.operations
            cursor = page.cursor
            pages += 1
            // An operation logged between two pages comes in a later one.
            if pages == 1 { try add("Logged between pages") }
            if page.isComplete { break }
        }
        #expect(read.map(\.id) == (try await engine.operations(after: 0)).operations.map(\.id), "each once, in the order they were logged")
        #expect(pages == 3, "3 + 3 + 2")
        #expect(try await engine.operations(after: cursor, limit: 3).operations.isEmpty)
    }

    @Test("A replica away while the others fold takes a snapshot on its return, and its changes from before the fold are made again, once", arguments: StoreKind.allCases, 0..<4)
    func returning(kind: StoreKind, seed: Int) async throws {
        var random = SeededRandomNumberGenerator(seed: UInt64(seed))
        // Replica 0 is away; the last one's clock runs ahead, so replica 0's changes sort before what the others fold.
        let simulation = try Simulation(replicas: 3 + seed % 2, kind: kind)
        let engines = simulation.engines
        simulation.away = [0]
        // At least one change of its own, whatever the random steps make.
        try engines[0].perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: "Away", notes: "", place: SyncPlace(after: nil, before: nil)))
        var folded = 0
        func meet(_ first: Int, _ second: Int) async throws -> ExchangeReport {
            let report = try await engines[first].exchange(with: engines[second])
            try simulation.archiveLogs()
            folded += try await engines[first].compact() + engines[second].compact()
            return report
        }
        for _ in 0..<120 {
            if Int.random(in: 0..<5, using: &random) == 0 {
                let first = Int.random(in: 1..<engines.count, using: &random)
                _ = try await meet(first, 1 + (first + Int.random(in: 0..<engines.count - 2, using: &random)) % (engines.count - 1))
            } else {
                try simulation.step((0..<4).map { _ in Int.random(in: 0...Int(UInt32.max), using: &random) })
            }
        }
        for index in 1..<engines.count { _ = try await meet(index, 1 + index % (engines.count - 1)) }
        #expect(folded > 0, "the others folded operations away while replica 0 was away")
        let logBefore = try await engines[0].repository.readLog { try $0.loggedOperations(afterPosition: 0, limit: .max).count }

        simulation.away = []
        let id = { try await engines[0].repository.readLog { try $0.replicaState()?.id } }
        let idBefore = try await id()
        let back = try await meet(0, 1)
        #expect((back.adoption?.replaced ?? 0) > 0, "\(back)")
        #expect(try await id() == idBefore, "the returning replica keeps its id: its own operations are not a copy's")
        for _ in 0..<2 {
            for index in engines.indices { _ = try await meet(index, (index + 1) % engines.count) }
        }
        try simulation.expectConvergence()
        // Every replacement replaced a different operation.
        let replaced = try simulation.allOperations().compactMap { operation -> SyncOperation.ID? in
            if case .replacement(let original, _) = operation.change { original.id } else { nil }
        }
        #expect(!replaced.isEmpty && Set(replaced).count == replaced.count, "\(replaced.count) replacements")
        #expect(logBefore > 0)
    }

    @Test("A copy of a file is read from the start by a peer whose cursor for the original it no longer fits")
    func copiedFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arrange-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (original, copy) = (folder.appendingPathComponent("original.sqlite").path, folder.appendingPathComponent("copy.sqlite").path)
        let peer = SyncEngine(repository: try SQLiteItemRepository(path: folder.appendingPathComponent("peer.sqlite").path))
        let add = { (engine: SyncEngine, title: String) in
            _ = try engine.perform(.addItem(id: Item.ID(), list: ItemList.firstDefaultListID, title: title, notes: "", place: SyncPlace(after: nil, before: nil)))
        }

        let first = SyncEngine(repository: try SQLiteItemRepository(path: original))
        try add(first, "Milk")
        _ = try await first.exchange(with: peer)
        try (first.repository as? SQLiteItemRepository)?.close()
        try FileManager.default.copyItem(atPath: original, toPath: copy)

        // The original meets the peer again and gets the peer's change, which it sends back: the
        // peer's cursor for it moves past the copy's end. Nothing the original made itself
        // reaches the copy, so the copy has no cause to take a new replica id.
        let reopened = SyncEngine(repository: try SQLiteItemRepository(path: original))
        try add(peer, "Rice")
        _ = try await reopened.exchange(with: peer)

        // The copy, under the original's replica id, makes a change of its own and meets the peer.
        let copied = SyncEngine(repository: try SQLiteItemRepository(path: copy))
        try add(copied, "Bread")
        let met = try await copied.exchange(with: peer)
        #expect(!met.received.copiedReplicaDetected)
        #expect(met.sent.new == 1, "the peer gets the copy's change: \(met)")
        let titles = try await peer.repository.read { transaction in
            try transaction.items(in: ItemList.firstDefaultListID, visibility: .all, offset: 0, limit: .max).map(\.title)
        }
        #expect(Set(titles) == ["Milk", "Rice", "Bread"])
    }
}
