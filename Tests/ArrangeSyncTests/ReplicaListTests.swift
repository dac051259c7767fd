import ArrangeModel
import ArrangeStore
import ArrangeSync
import Foundation
import Testing

/// The replicas a store knows of, and which of them hold compaction back.
@Suite("Sync: the replicas a database knows of")
struct ReplicaListTests {
    @Test("A store lists itself, those it holds changes of and those it heard of; one that has not acknowledged what it holds holds compaction back", arguments: StoreKind.allCases)
    func replicas(kind: StoreKind) async throws {
        let clock = SimulatedClock(1_000_000)
        let (here, there) = (SyncEngine(repository: try kind.makeRepository(), wallClock: { clock.read() }), SyncEngine(repository: try kind.makeRepository(), wallClock: { clock.read() }))
        try here.perform(.createList(id: ItemList.ID(), name: "Home", place: SyncPlace(after: nil, before: nil)))
        let hereID = try #require(try await here.replicas().first).id
        #expect(try await here.replicas().map(\.isThisDatabase) == [true])

        try there.perform(.createList(id: ItemList.ID(), name: "Work", place: SyncPlace(after: nil, before: nil)))
        try await here.merge(try await there.operations(after: 0).operations)
        let heard = try await here.replicas()
        #expect(heard.count == 2)
        let other = try #require(heard.last)
        #expect(!other.isThisDatabase && other.acknowledged == nil && other.holdsCompactionBack, "never acknowledged")
        #expect(other.lastHeard == HLCTimestamp(milliseconds: 1_000_000, counter: 0))

        clock.advance(by: 1_000)
        _ = try await here.exchange(with: there)
        for engine in [here, there] {
            let listed = try await engine.replicas()
            #expect(listed.count == 2)
            #expect(listed.allSatisfy { !$0.holdsCompactionBack }, "both acknowledged all they hold")
            #expect(listed.first?.isThisDatabase == true)
        }
        #expect(try await there.replicas().last?.id == hereID)

        // A change there that here holds and there has not acknowledged since.
        clock.advance(by: 1_000)
        try there.perform(.renameList(id: ItemList.ID(), name: "Nothing"))
        try await here.merge(try await there.operations(after: 0).operations)
        #expect(try await here.replicas().last?.holdsCompactionBack == true)
    }
}
