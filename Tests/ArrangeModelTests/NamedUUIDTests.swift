import ArrangeModel
import Foundation
import Testing

@Suite struct NamedUUIDTests {
    @Test func matchesTheVersion5IDsOfOtherImplementations() throws {
        // Python's uuid.uuid5 of these names in the DNS and URL namespaces.
        let dns = try #require(UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8"))
        let url = try #require(UUID(uuidString: "6ba7b811-9dad-11d1-80b4-00c04fd430c8"))
        #expect(UUID(named: "python.org", in: dns).uuidString.lowercased() == "886313e1-3b8a-5372-9b90-0c9aee199e5d")
        #expect(UUID(named: "", in: dns).uuidString.lowercased() == "4ebd0208-8328-5d69-8c44-ec50939c0967")
        #expect(
            UUID(named: String(repeating: "a long name that spans more than one block of sixty-four bytes ", count: 3), in: url)
                .uuidString.lowercased() == "30278b58-ce13-54b2-9da9-d31d2a8b1c13")
    }

    @Test func differsByNameAndByNamespace() throws {
        let space = UUID()
        #expect(UUID(named: "a", in: space) != UUID(named: "b", in: space))
        #expect(UUID(named: "a", in: space) != UUID(named: "a", in: UUID()))
        #expect(UUID(named: "a", in: space) == UUID(named: "a", in: space))
    }
}
