import ArrangeIntents
import ArrangeModel
import Foundation
import Testing

@Suite("The Logbook")
struct LogbookIntentTests {
    @Test("ShowLogbook pages the completed items of every list, the most recently completed first, with their total")
    func pages() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        try await session.add("A", "B", "C")
        try await session.run(AddItem(title: "W", list: try session.list("Work")))
        // Completed in this order, a tick of the clock apart: B, W, A; C stays open.
        try await session.run(CompleteItems([try session.item(2)]))
        try await session.run(CompleteItems([try session.item(1, in: "Work")]))
        try await session.run(CompleteItems([try session.item(1)]))

        let all = try await session.run(ShowLogbook())
        #expect(all.items.map(\.title) == ["A", "W", "B"] && all.offset == 0 && all.total == 3)
        #expect(all.items.map(\.listName) == ["Inbox", "Work", "Inbox"] && all.items.allSatisfy(\.completed))
        let second = try await session.run(ShowLogbook(offset: 1, limit: 1))
        #expect(second.items.map(\.title) == ["W"] && second.offset == 1 && second.total == 3)
        #expect(try await session.run(ShowLogbook(offset: 3)).items.isEmpty)

        try await session.run(ReopenItems([all.items[0].id]))
        #expect(try await session.run(ShowLogbook()).items.map(\.title) == ["W", "B"])
    }

    @Test("A negative offset or a page of no items is refused")
    func badPages() async throws {
        let session = try await Session()
        await #expect(throws: IntentError.negativeOffset(-1)) { try await session.run(ShowLogbook(offset: -1)) }
        await #expect(throws: IntentError.emptyPage(0)) { try await session.run(ShowLogbook(limit: 0)) }
        #expect(IntentError.emptyPage(0).errorDescription?.contains("at least 1") == true)
    }
}
