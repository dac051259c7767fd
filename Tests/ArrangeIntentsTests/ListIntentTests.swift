import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("List intents")
struct ListIntentTests {
    @Test("Create, rename and delete lists; lists shows them in their order with counts")
    func lifecycle() async throws {
        let session = try await Session()
        let groceries = try await session.run(CreateList(name: "  Groceries "))
        #expect(groceries.list.name == "Groceries")
        try await session.add("Milk", "Eggs", to: "Groceries")

        let renamed = try await session.run(RenameList(list: groceries.list.id, name: "Shopping"))
        #expect(renamed.list.name == "Shopping")
        #expect(renamed.list.openItems == 2)

        let lists = try await session.run(GetLists())
        #expect(lists.lists.map(\.name) == ["Inbox", "Shopping"])
        #expect(lists.lists.map(\.totalItems) == [0, 2])

        let deleted = try await session.run(DeleteList(list: groceries.list.id))
        #expect(deleted.deletedItems == 2)
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["Inbox"])
    }

    @Test("List errors name what is wrong")
    func errors() async throws {
        let session = try await Session(lists: ["Inbox", "Work"])
        await expectFailure(TitleError.empty(field: .listName)) { try await session.run(CreateList(name: "   ")) }
        let duplicate = await expectFailure(StoreError.validation(.duplicateListName("Work"))) { try await session.run(CreateList(name: "work")) }
        #expect(duplicate == "A list named 'Work' already exists (names ignore case).")
        let gone = ItemList.ID()
        await expectFailure(IntentError.unknownList(gone)) { try await session.run(RenameList(list: gone, name: "Job")) }
        let protected = await expectFailure(IntentError.defaultListProtected("Inbox")) { try await session.run(DeleteList(list: try session.list("Inbox"))) }
        #expect(protected == "'Inbox' is the default list and cannot be deleted.")
        await expectFailure(StoreError.validation(.duplicateListName("Inbox"))) { try await session.run(RenameList(list: try session.list("Work"), name: "INBOX")) }
    }

    @Test("A store without a default list gets one on the first write, or from prepareDefaultList, once")
    func defaultList() async throws {
        let session = try await Session(lists: [])
        await expectFailure(IntentError.noDefaultList) { try await session.run(ListItems()) }
        let prepared = try await session.environment.prepareDefaultList()
        #expect(prepared.name == "Inbox")
        #expect(try await session.environment.prepareDefaultList().id == prepared.id)
        #expect(try await session.run(GetLists()).lists.map(\.name) == ["Inbox"])

        let fresh = try await Session(lists: [])
        try await fresh.run(AddItem(title: "A"))
        #expect(try await fresh.titles("Inbox") == "A")
    }

    @Test("prepareDefaultList adopts a list of that name, and a chosen name moves the default")
    func chosenDefaultList() async throws {
        let session = try await Session(lists: [])
        let work = try await session.run(CreateList(name: "Inbox")).list
        #expect(try await session.environment.prepareDefaultList().id == work.id, "an existing Inbox is adopted, not doubled")
        let chosen = try await session.environment.prepareDefaultList(named: "someday")
        #expect(chosen.name == "someday")
        try await session.run(AddItem(title: "Later"))
        #expect(try await session.titles("someday") == "Later")
        #expect(try await session.environment.prepareDefaultList(named: "INBOX").id == work.id)
        await expectFailure(TitleError.empty(field: .listName)) { try await session.environment.prepareDefaultList(named: " ") }
    }
}
