import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
@testable import ArrangeSync
import Foundation
import Testing

/// What a logged operation keeps to take itself back.
@Suite("Sync: rewinds")
struct RewindTests {
    @Test("A move keeps where the item was, not the item; a merge that takes the move back puts it there", arguments: StoreKind.allCases)
    func movesKeepPlaces(kind: StoreKind) async throws {
        let (early, late) = (SimulatedClock(1_000), SimulatedClock(2_000))
        let here = try IntentReplica(kind: kind, wallClock: { late.read() })
        let there = try IntentReplica(kind: kind, wallClock: { early.read() })
        let notes = String(repeating: "Notes that a move does not copy. ", count: 300)
        for title in ["A", "B", "C"] {
            try await AddItem(title: title, notes: title == "A" ? notes : "").perform(in: here.environment)
        }
        _ = try await there.engine.merge(try here.operations())
        let ids = try await Self.ids(in: here)
        let (a, b, c) = try (#require(ids["A"]), #require(ids["B"]), #require(ids["C"]))
        let list = try await here.engine.repository.read { try #require(try $0.item(id: a)).listID }

        // B starts today already, so that putting it in Today writes its place there alone.
        let today = try await ShowToday().perform(in: here.environment).day
        try await SetWhen([b], to: .on(today)).perform(in: here.environment)
        _ = try await there.engine.merge(try here.operations())

        // Later than anything there makes, though there has heard of the items.
        late.advance(by: 1_000)
        try await MoveItems([a], to: .bottom).perform(in: here.environment)
        try await AddToToday([b]).perform(in: here.environment)
        let rewinds = try await here.engine.repository.read { transaction in
            try #require(transaction.operationLogReader).loggedOperations(afterPosition: 0, limit: .max).suffix(2).map { String(decoding: $0.rewind, as: UTF8.self) }
        }
        for rewind in rewinds {
            #expect(rewind.contains(#""keys":[{"id":"#), "\(rewind)")
            #expect(!rewind.contains(#""items""#) && !rewind.contains("Notes that"), "\(rewind)")
        }

        // Earlier in the total order, C goes between A and B, where A was: taking the move back
        // must put A there again first. Then A's move, logged as "after C", lands after C.
        try await MoveItems([c], to: .after(a)).perform(in: there.environment)
        let report = try await here.engine.merge(try there.operations())
        #expect(report.rewound >= 2)
        _ = try await there.engine.merge(try here.operations())

        for replica in [here, there] {
            let items = try await ListItems(list: list, visibility: .all).perform(in: replica.environment).items
            #expect(items.map(\.title) == ["C", "A", "B"])
            let today = try await ShowToday(visibility: .all).perform(in: replica.environment).items
            #expect(today.map(\.title) == ["B"])
            #expect(try await replica.engine.repository.read { try $0.item(id: a) }?.notes == notes)
        }
    }

    @Test("A rewind read back from the log puts placed items where they were, and keeps an item placed and edited whole", arguments: StoreKind.allCases)
    func placesRestored(kind: StoreKind) throws {
        let repository = try kind.makeRepository()
        let list = ItemList(name: "Home", createdAt: Date(timeIntervalSince1970: 1), sortIndex: 0)
        let stamp = Date(timeIntervalSince1970: 1_000)
        var (moved, edited, inToday) = (
            Item(listID: list.id, title: "Moved", notes: "Long notes", sortIndex: 10, createdAt: stamp),
            Item(listID: list.id, title: "Edited", sortIndex: 20, createdAt: stamp),
            Item(listID: list.id, title: "In Today", sortIndex: 30, createdAt: stamp))
        inToday.todayIndex = 5
        let before = [moved, edited, inToday]
        try repository.write { transaction in
            try transaction.insert(list)
            for item in before { try transaction.insert(item) }
        }
        let later = Date(timeIntervalSince1970: 2_000)
        let json = try repository.write { transaction in
            let recorder = RewindRecorder(try #require(transaction.operationLog))
            try recorder.setSortIndices([SortIndexChange(id: moved.id.entryID, sortIndex: 40), SortIndexChange(id: edited.id.entryID, sortIndex: 50)], in: .items(list.id), updatedAt: later)
            try recorder.setSortIndices([SortIndexChange(id: moved.id.entryID, sortIndex: 7)], in: .today, updatedAt: later)
            try recorder.removeFromToday([inToday.id], updatedAt: later)
            edited = try #require(try recorder.item(id: edited.id))
            edited.title = "Edited again"
            try recorder.update(edited)
            let rewind = try recorder.loggedRewind()
            return LogJSON.encode { $0.rewind(rewind) }
        }
        let rewind = try SyncCoding.decoder.decode(Rewind.self, from: json)
        #expect(Set(rewind.keys.map(\.id)) == [moved.id, inToday.id], "\(String(decoding: json, as: UTF8.self))")
        #expect(rewind.items.map(\.id) == [edited.id])
        #expect(!String(decoding: json, as: UTF8.self).contains("Long notes"))

        try repository.write { transaction in try rewind.restore(in: try #require(transaction.operationLog)) }
        let after = try repository.read { transaction in try before.map { try transaction.item(id: $0.id) } }
        #expect(after == before)
    }

    @Test("An item placed into a list the same operation created stays whole, and taking the operation back puts it back", arguments: StoreKind.allCases)
    func placedIntoNewList(kind: StoreKind) throws {
        let repository = try kind.makeRepository()
        let home = ItemList(name: "Home", createdAt: Date(timeIntervalSince1970: 1), sortIndex: 0)
        let item = Item(listID: home.id, title: "Milk", notes: "Long notes", sortIndex: 10, createdAt: Date(timeIntervalSince1970: 1_000))
        try repository.write { transaction in
            try transaction.insert(home)
            try transaction.insert(item)
        }
        // As a merge does when an operation moves an item into a list deleted elsewhere: it
        // makes the default list again, and the item goes there.
        let json = try repository.write { transaction in
            let recorder = RewindRecorder(try #require(transaction.operationLog))
            let inbox = ItemList(name: "Inbox", createdAt: Date(timeIntervalSince1970: 2), sortIndex: 5)
            try recorder.insert(inbox)
            try recorder.setSortIndices([SortIndexChange(id: item.id.entryID, sortIndex: 0)], in: .items(inbox.id), updatedAt: Date(timeIntervalSince1970: 2_000))
            let rewind = try recorder.loggedRewind()
            return LogJSON.encode { $0.rewind(rewind) }
        }
        let rewind = try SyncCoding.decoder.decode(Rewind.self, from: json)
        #expect(rewind.keys.isEmpty && rewind.items.map(\.id) == [item.id], "\(String(decoding: json, as: UTF8.self))")

        try repository.write { transaction in try rewind.restore(in: try #require(transaction.operationLog)) }
        #expect(try repository.read { try $0.item(id: item.id) } == item)
        #expect(try repository.read { try $0.lists() }.map(\.id) == [home.id])
    }

    private static func ids(in replica: IntentReplica) async throws -> [String: Item.ID] {
        let items = try await ListItems(list: nil, visibility: .all).perform(in: replica.environment).items
        return Dictionary(uniqueKeysWithValues: items.map { ($0.title, $0.id) })
    }
}
