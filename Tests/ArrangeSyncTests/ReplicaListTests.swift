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

    @Test("A replica that is gone holds compaction back until it is forgotten; every replica learns it, and if it returns it carries on under a new id", arguments: StoreKind.allCases)
    func forgetting(kind: StoreKind) async throws {
        let clock = SimulatedClock(1_000_000)
        let (laptop, desktop, phone) = (
            SyncEngine(repository: try kind.makeRepository(), wallClock: { clock.read() }),
            SyncEngine(repository: try kind.makeRepository(), wallClock: { clock.read() }),
            SyncEngine(repository: try kind.makeRepository(), wallClock: { clock.read() }))
        try phone.perform(.createList(id: ItemList.ID(), name: "Phone", place: SyncPlace(after: nil, before: nil)))
        _ = try await laptop.exchange(with: phone)
        let phoneID = try #require(try await phone.replicas().first?.id)
        // The phone is lost: the laptop and the desktop meet, and cannot fold what the phone never acknowledged.
        clock.advance(by: 1_000)
        try laptop.perform(.createList(id: ItemList.ID(), name: "Laptop", place: SyncPlace(after: nil, before: nil)))
        _ = try await laptop.exchange(with: desktop)
        // They fold what the phone acknowledged, and no more.
        _ = try await (laptop.compact(), desktop.compact())
        #expect(try await laptop.compact() == 0)
        #expect(try await laptop.replicas().first { $0.id == phoneID }?.holdsCompactionBack == true)

        await #expect(throws: SyncError.cannotForgetThisDatabase) { try await laptop.forget(try #require(try await laptop.replicas().first?.id)) }
        await #expect(throws: SyncError.unknownReplica) { try await laptop.forget(ReplicaID()) }
        #expect(try await laptop.forget(phoneID) != nil)
        #expect(try await laptop.forget(phoneID) == nil, "forgotten already")
        clock.advance(by: 1_000)
        _ = try await laptop.exchange(with: desktop)
        for engine in [laptop, desktop] {
            let phoneListed = try #require(try await engine.replicas().first { $0.id == phoneID })
            #expect(phoneListed.isForgotten && !phoneListed.holdsCompactionBack, "every replica learns it")
        }
        #expect(try await laptop.compact() + desktop.compact() > 0, "the others fold without it")

        // The phone returns: it takes what they folded, and carries on under a new id.
        clock.advance(by: 1_000)
        try phone.perform(.createList(id: ItemList.ID(), name: "Found", place: SyncPlace(after: nil, before: nil)))
        _ = try await phone.exchange(with: laptop)
        _ = try await laptop.exchange(with: desktop)
        _ = try await phone.exchange(with: laptop)
        #expect(try await phone.replicas().first?.id != phoneID, "a new id")
        let names = { (engine: SyncEngine) in try await engine.repository.read { try $0.lists().map(\.name).sorted() } }
        #expect(try await names(phone) == ["Found", "Laptop", "Phone"])
        #expect(try await names(laptop) == names(phone))
        #expect(try await names(desktop) == names(phone))
    }
}
