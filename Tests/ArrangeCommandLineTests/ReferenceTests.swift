@testable import ArrangeCommandLine
import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation
import Synchronization
import Testing

@Suite("Item and list references")
struct ReferenceTests {
    @Test("Forms: #N, a full id in either case, and a prefix with or without dashes")
    func forms() throws {
        #expect(try ItemReference("#5").form == .position(5))
        #expect(try ItemReference(" #12 ").form == .position(12))
        let id = Item.ID()
        #expect(try ItemReference(id.text.uppercased()).form == .id(id))
        #expect(try ItemReference("3F2A").form == .prefix("3f2a"))
        #expect(try ItemReference("3f2a91c0-77").form == .prefix("3f2a91c077"))
    }

    @Test("Malformed references are refused with a message", arguments: [
        ("3f2", "prefixTooShort"), ("#", "invalidReference"), ("#x", "invalidReference"), ("#-1", "invalidReference"),
        ("milk", "invalidReference"), ("", "invalidReference"), ("#99999999999999999999999", "invalidReference"),
    ])
    func malformed(text: String, code: String) throws {
        let error = #expect(throws: ReferenceError.self) { try ItemReference(text).form }
        #expect(error?.code == code)
    }

    @Test("References are command-line arguments")
    func arguments() {
        #expect(ItemReference(argument: "#3") == "#3")
        #expect(ListReference(argument: "Groceries")?.text == "Groceries")
    }

    @Test("Resolution: #0 and #N past the end, unknown, ambiguous and unique prefixes, all in the request's transaction")
    func resolution() async throws {
        let (session, _) = try await makeSession()
        let conversation = RunConversation(session: session)
        var ids: [String] = []
        for title in ["A", "B", "C"] {
            let answer = await conversation.answer(#"{"intent": "add", "title": "\#(title)"}"#)
            ids.append(try #require(answer.firstMatch(of: /"id":"([0-9a-f-]{36})"/)?.1).description)
        }
        func failure(_ request: String) async -> (code: String, message: String)? {
            let answer = await conversation.answer(request)
            guard let match = answer.firstMatch(of: /"code":"(\w+)","message":"((?:[^"\\]|\\.)*)"/) else { return nil }
            return (String(match.1), String(match.2))
        }
        let zero = await failure(##"{"intent": "show", "item": "#0"}"##)
        #expect(zero?.code == "positionOutOfRange")
        #expect(zero?.message == "Positions start at #1; 'Inbox' has 3 open items.")
        let past = await failure(##"{"intent": "show", "item": "#4"}"##)
        #expect(past?.message == "#4 is past the end: 'Inbox' has 3 open items (#1 to #3).")
        let unknown = await failure(##"{"intent": "show", "item": "\##(Item.ID().text)"}"##)
        #expect(unknown?.code == "unknownItem")
        let short = await failure(##"{"intent": "show", "item": "000"}"##)
        #expect(short?.message == "'000' is too short; give at least 4 characters of an id, or #N.")
        let unknownList = await failure(##"{"intent": "list", "list": "Wrok"}"##)
        #expect(unknownList?.code == "unknownList")
        #expect(unknownList?.message == "No list is named 'Wrok'. Lists: Inbox.")
        let noItems = await failure(##"{"intent": "complete", "items": []}"##)
        #expect(noItems?.code == "noItems")
        let repeated = await failure(##"{"intent": "move", "fromOffsets": [1, 0, 1], "toOffset": 0}"##)
        #expect(repeated?.code == "duplicateOffsets")
        #expect(repeated?.message == "Each offset may be given once; repeated: 1.")

        let shown = await conversation.answer(#"{"intent": "show", "item": "\#(ids[1].prefix(13))"}"#)
        #expect(shown.contains(#""title":"B""#), "\(shown)")
    }

    @Test("An id prefix that matches several items is refused with how many; the list's id does not count")
    func ambiguous() async throws {
        let counter = Mutex(0)
        let environment = try IntentEnvironment(repository: InMemoryItemRepository(), historyLimit: 0, newID: {
            UUID(uuidString: String(format: "%08x-0000-4000-8000-000000000000", counter.withLock { $0 += 1; return $0 }))!
        })
        try await environment.prepareDefaultList()
        let (session, _) = try await makeSession(environment: environment)
        let conversation = RunConversation(session: session)
        for title in ["A", "B", "C"] { _ = await conversation.answer(#"{"intent": "add", "title": "\#(title)"}"#) }
        let answer = await conversation.answer(##"{"intent": "show", "item": "0000"}"##)
        #expect(answer.contains(#""code":"ambiguousPrefix","message":"'0000' matches 3 items; type more characters of the id.""#), "\(answer)")
        #expect(await conversation.answer(##"{"intent": "show", "item": "00000002"}"##).contains(#""title":"B""#))
        #expect(await conversation.answer(##"{"intent": "show", "item": "0000000200004000"}"##).contains(#""title":"B""#), "dashes may be left out")
    }
}

@Suite("The current list")
struct CurrentListTests {
    @Test("use LIST makes a list current; using none goes back to the default list")
    func useAndReturn() async throws {
        let (session, _) = try await makeSession(lists: ["Work"])
        #expect(try await session.useList("work").name == "Work")
        #expect(try await session.resolveList().name == "Work")
        #expect(try await session.useList(nil).name == "Inbox")
        #expect(session.currentList == nil)
        #expect(try await session.resolveList().name == "Inbox")
    }
}
