import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("Quick Find")
struct SearchIntentTests {
    @Test("Titles that start with the query first, then titles that match elsewhere, then the rest; each tier in Today's order, then the sidebar's")
    func ranking() async throws {
        let session = try await Session(lists: ["Inbox", "Groceries"])
        try await session.add("Oat milk", "Milk", to: "Groceries")
        try await session.add("Shopping", "Milkshake", to: "Inbox")
        try await session.run(EditItem(try session.item(1, in: "Inbox"), notes: "buy milk"))
        let shake = try session.item(2, in: "Inbox")
        let milk = try session.item(2, in: "Groceries")
        // In Today, the milk of Groceries comes before the milkshake of the Inbox.
        try await session.run(AddToToday([milk]))

        let found = try await session.run(Search(query: "mil"))
        #expect(found.items.map(\.item.title) == ["Milk", "Milkshake", "Oat milk", "Shopping"])
        #expect(found.items.map(\.matched) == [[.title], [.title], [.title], [.notes]])
        #expect(found.total == 4)
        let limited = try await session.run(Search(query: "MIL", limit: 2))
        #expect(limited.items.map(\.item.id) == [milk, shake] && limited.total == 4)
        await expectFailure(IntentError.emptyPage(0)) { try await session.run(Search(query: "mil", limit: 0)) }
    }

    @Test("Lists, areas and headings whose names match; items through their list, heading and checklist; completed only when asked")
    func fields() async throws {
        let session = try await Session(lists: ["Inbox", "Garden"])
        let area = try await session.run(CreateArea(name: "Gardening club")).area
        let heading = try await session.run(CreateHeading(title: "Garden tools", in: try session.list("Garden"))).heading
        let items = try await session.add("Rake", "Seeds", to: "Garden")
        try await session.run(MoveItems([items[0].id], to: .top, section: .heading(heading.id)))
        try await session.run(AddChecklistItem(title: "Garden gloves", to: items[1].id))
        try await session.add("Water the garden")
        try await session.run(CompleteItems([try session.item(1)]))

        let found = try await session.run(Search(query: "gard"))
        #expect(found.items.map(\.item.title) == ["Seeds", "Rake"])
        #expect(found.items.map(\.matched) == [[.checklist, .list], [.heading, .list]])
        #expect(found.lists.map(\.name) == ["Garden"])
        #expect(found.areas.map(\.name) == ["Gardening club"] && area.name == "Gardening club")
        #expect(found.headings.map(\.title) == ["Garden tools"])
        let all = try await session.run(Search(query: "gard", includeCompleted: true))
        #expect(all.items.map(\.item.title) == ["Water the garden", "Seeds", "Rake"] && all.total == 3, "a title that matches ranks first")
    }

    @Test("Any text is a query: syntax characters, an emoji, a long query each get an answer; no words find nothing")
    func anyText() async throws {
        let session = try await Session()
        try await session.add("Call \"Bob\" (AND Alice) 🎉", "Milk")
        for query in ["\"", "AND", "OR", "NOT", "*", "-", "(", "NEAR", "🎉", "\"Bob\"", String(repeating: "x", count: 1_000), String(repeating: "mi ", count: 333)] {
            let found = try await session.run(Search(query: query))
            #expect(found.total == found.items.count, "\(query.prefix(10))")
        }
        #expect(try await session.run(Search(query: "🎉")).items.map(\.item.title) == ["Call \"Bob\" (AND Alice) 🎉"])
        #expect(try await session.run(Search(query: "\"bob\" alice")).total == 1)
        for query in ["", "   ", "*", "\"\"", "-(-)"] {
            #expect(try await session.run(Search(query: query)) == SearchResult(items: [], lists: [], areas: [], headings: [], total: 0))
        }
    }
}
