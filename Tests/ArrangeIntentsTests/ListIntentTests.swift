import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("List intents")
struct ListIntentTests {
    @Test("Create, rename and delete lists; lists shows them oldest first with counts")
    func lifecycle() async throws {
        let session = try await Session()
        let groceries = try await session.run(CreateList(name: "  Groceries "))
        #expect(groceries.list.name == "Groceries")
        try await session.add("Milk", "Eggs", to: "groceries")

        let renamed = try await session.run(RenameList(list: "GROCERIES", name: "Shopping"))
        #expect(renamed.list.name == "Shopping")
        #expect(renamed.list.openItems == 2)

        let lists = try await session.run(GetLists())
        #expect(lists.lists.map(\.name) == ["Inbox", "Shopping"])
        #expect(lists.lists.map(\.totalItems) == [0, 2])

        let deleted = try await session.run(DeleteList(list: ListReference(groceries.list.id.text)))
        #expect(deleted.deletedItems == 2)
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["Inbox"])
    }

    @Test("List errors name what is wrong")
    func errors() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        await expectFailure("emptyListName") { try await session.run(CreateList(name: "   ")) }
        let duplicate = await expectFailure("duplicateListName") { try await session.run(CreateList(name: "work")) }
        #expect(duplicate == "A list named 'Work' already exists (names ignore case).")
        let unknown = await expectFailure("unknownList") { try await session.run(RenameList(list: "Wrok", name: "Job")) }
        #expect(unknown == "No list is named 'Wrok'. Lists: Inbox, Work.")
        let protected = await expectFailure("defaultListProtected") { try await session.run(DeleteList(list: "inbox")) }
        #expect(protected?.contains("default list") == true)
        await expectFailure("duplicateListName") { try await session.run(RenameList(list: "Work", name: "INBOX")) }
    }

    @Test("The current list is what intents use when they name none")
    func currentList() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        try session.environment.useList("work")
        try await session.add("Report")
        #expect(try await session.titles("Work") == "Report")
        #expect(try await session.run(ListItems()).list.name == "Work")
        await expectFailure("unknownList") { try session.environment.useList("Nowhere") }

        // A current list that goes away falls back to the default list.
        try session.environment.useList("Inbox")
        try await session.run(DeleteList(list: "Work"))
        #expect(try session.environment.resolveList().name == "Inbox")
    }

    @Test("ensureDefaultList creates the default list once")
    func defaultList() async throws {
        let session = try await Session(lists: [])
        #expect(try session.environment.ensureDefaultList())
        #expect(try !session.environment.ensureDefaultList())
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["Inbox"])
    }
}
