import ArrangeModel
import Foundation
import Testing

@Suite("Title and list name validation")
struct ValidationTests {
    @Test("Surrounding white space is trimmed")
    func trims() throws {
        #expect(try Title.validated("  Buy milk \n") == "Buy milk")
    }

    @Test("An empty or blank title is refused", arguments: ["", "   ", "\n\t"])
    func refusesBlank(text: String) {
        #expect(throws: TitleError.empty(field: .title)) { try Title.validated(text) }
    }

    @Test("A control character is refused, and its position named")
    func refusesControlCharacters() {
        #expect(throws: TitleError.controlCharacter(field: .title, position: 4)) {
            try Title.validated("Buy\u{0}milk")
        }
        #expect(throws: TitleError.controlCharacter(field: .listName, position: 2)) {
            try Title.validated("a\nb", as: .listName)
        }
    }

    @Test("Every code point of the general category Cc is a control character, and none other: validated refuses it, sanitized makes it a space")
    func everyControlCharacter() throws {
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(Character(scalar)) + "b"
            let isControl = scalar.properties.generalCategory == .control
            #expect((try? Title.validated(text)) == (isControl ? nil : text), "U+\(String(value, radix: 16))")
            if isControl { #expect(Title.sanitized(text, placeholder: "-") == "a b", "U+\(String(value, radix: 16))") }
        }
    }

    @Test("sanitized keeps a title that breaks no rule as it is, and mends one that breaks any",
          arguments: [
            ("Buy milk", "Buy milk"), ("e\u{301}clair 🥛", "e\u{301}clair 🥛"), (" Buy milk", "Buy milk"), ("Buy milk\n", "Buy milk"),
            ("Buy\r\nmilk", "Buy milk"), ("\u{85}", "-"), ("", "-"), (String(repeating: "é", count: 1_001), String(repeating: "é", count: 1_000)),
            (String(repeating: "👨‍👩‍👧‍👦", count: 1_000), String(repeating: "👨‍👩‍👧‍👦", count: 1_000)),
          ])
    func sanitizes(text: String, expected: String) {
        #expect(Title.sanitized(text, placeholder: "-") == expected)
    }

    @Test("Titles may hold up to 1,000 characters, counted as people see them")
    func limitsLength() throws {
        let family = "👨‍👩‍👧‍👦"
        #expect(try Title.validated(String(repeating: family, count: 1_000)).count == 1_000)
        #expect(throws: TitleError.tooLong(field: .title, length: 1_001, limit: 1_000)) {
            try Title.validated(String(repeating: "x", count: 1_001))
        }
    }

    @Test("Emoji, combining marks, right-to-left text and SQL pass unchanged",
          arguments: ["🥛 Milk", "e\u{301}clair", "שלום עולם", "'); DROP TABLE items;--"])
    func keepsText(text: String) throws {
        #expect(try Title.validated(text) == text)
    }

    @Test("Errors read as sentences a person can act on")
    func messages() {
        #expect(TitleError.empty(field: .title).description == "The title is empty; give it at least one visible character.")
        #expect(TitleError.duplicateListName("Inbox").description.contains("'Inbox' already exists"))
    }

    @Test("List names that differ only in case share one key")
    func nameKeys() {
        #expect(ItemList.nameKey("Groceries") == ItemList.nameKey("GROCERIES"))
        #expect(ItemList.nameKey("Groceries") != ItemList.nameKey("Grocery"))
    }
}

@Suite("Identifiers and display order")
struct IdentifierTests {
    @Test("Identifiers order like their text, and round-trip through JSON")
    func ordering() throws {
        let ids = (0..<50).map { _ in Item.ID() }
        #expect(ids.sorted().map(\.text) == ids.map(\.text).sorted())
        let data = try JSONEncoder().encode(ids)
        #expect(try JSONDecoder().decode([Item.ID].self, from: data) == ids)
    }

    @Test("Text that is not a UUID does not decode")
    func refusesBadText() {
        #expect(Item.ID("not-a-uuid") == nil)
        #expect(Item.ID("3f2a0000-0000-4000-8000-00000000000g") == nil)
        #expect(Item.ID("3f2a0000-0000-4000-8000+000000000001") == nil)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Item.ID].self, from: Data(#"["x"]"#.utf8)) }
    }

    @Test("Either case parses to the same identifier, which prints in lowercase")
    func parsesEitherCase() throws {
        let id = try #require(Item.ID("3F2A9C00-0000-4000-8000-00000000BEEF"))
        #expect(id == Item.ID("3f2a9c00-0000-4000-8000-00000000beef"))
        #expect(id.text == "3f2a9c00-0000-4000-8000-00000000beef")
        #expect(id.rawValue == UUID(uuidString: "3F2A9C00-0000-4000-8000-00000000BEEF"))
    }

    @Test("Display order is sortIndex first, then id")
    func orderKeys() {
        let (low, high) = (OrderEntry.ID("00000000-0000-0000-0000-000000000001")!, OrderEntry.ID("00000000-0000-0000-0000-000000000002")!)
        #expect(OrderKey(sortIndex: 1, id: high) < OrderKey(sortIndex: 2, id: low))
        #expect(OrderKey(sortIndex: 1, id: low) < OrderKey(sortIndex: 1, id: high))
    }
}
