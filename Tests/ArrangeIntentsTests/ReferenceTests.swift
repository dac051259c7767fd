import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("Item references")
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
        let error = #expect(throws: IntentError.self) { try ItemReference(text).form }
        #expect(error?.code == code)
    }

    @Test("Resolution: #0 and #N past the end, unknown, ambiguous and unique prefixes")
    func resolution() async throws {
        let session = try await Session()
        // Items get ids 00000002…00000004 (the Inbox list took 00000001).
        let added = try await session.add("A", "B", "C")
        #expect(added.map { String($0.id.text.prefix(8)) } == ["00000002", "00000003", "00000004"])

        let zero = await expectFailure("positionOutOfRange") { try await session.run(ShowItem(item: "#0")) }
        #expect(zero == "Positions start at #1; 'Inbox' has 3 open items.")
        let past = await expectFailure("positionOutOfRange") { try await session.run(ShowItem(item: "#4")) }
        #expect(past == "#4 is past the end: 'Inbox' has 3 open items (#1 to #3).")
        let ambiguous = await expectFailure("ambiguousPrefix") { try await session.run(ShowItem(item: "0000")) }
        #expect(ambiguous == "'0000' matches 3 items; type more characters of the id.", "the list's id does not count")
        await expectFailure("unknownItem") { try await session.run(ShowItem(item: "abcd")) }
        await expectFailure("unknownItem") { try await session.run(ShowItem(item: ItemReference(Item.ID().text))) }
        let short = await expectFailure("prefixTooShort") { try await session.run(ShowItem(item: "000")) }
        #expect(short == "'000' is too short; give at least 4 characters of an id, or #N.")

        #expect(try await session.run(ShowItem(item: "00000003")).item.title == "B")
        #expect(try await session.run(ShowItem(item: "0000000300004000")).item.title == "B", "dashes may be left out")
    }

    @Test("An empty list of items is refused")
    func noItems() async throws {
        let session = try await Session()
        await expectFailure("nothingToMove") { try await session.run(CompleteItems(items: [])) }
        await expectFailure("nothingToMove") { try await session.run(MoveItems(items: [], placement: .top)) }
    }
}
