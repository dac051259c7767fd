@testable import ArrangeLineEditor
import Testing

@Suite("What Tab does to the line")
struct CompletionTests {
    @Test("The word is the text after the last space or tab")
    func word() {
        #expect(Completion(lineBeforeCursor: "move #5 aft", candidates: []).word == "aft")
        #expect(Completion(lineBeforeCursor: "he", candidates: []).word == "he")
        #expect(Completion(lineBeforeCursor: "show\t", candidates: []).word == "")
        #expect(Completion(lineBeforeCursor: "", candidates: []).word == "")
    }

    @Test("No candidate leaves the line alone and lists nothing")
    func noCandidate() {
        let completion = Completion(lineBeforeCursor: "xyz", candidates: [])
        #expect(completion.replacement == nil)
        #expect(completion.listing.isEmpty)
    }

    @Test("A single candidate replaces the word, followed by a space")
    func singleCandidate() {
        #expect(Completion(lineBeforeCursor: "he", candidates: ["help"])
            == Completion(word: "he", replacement: "help ", listing: []))
        #expect(Completion(lineBeforeCursor: "add mi", candidates: ["Milk", "Milk"]).replacement == "Milk ")
    }

    @Test("Several candidates are listed, and their common prefix is put in when it is longer")
    func severalCandidates() {
        #expect(Completion(lineBeforeCursor: "he", candidates: ["help", "hello"])
            == Completion(word: "he", replacement: "hel", listing: ["help", "hello"]))
        #expect(Completion(lineBeforeCursor: "hel", candidates: ["help", "hello", "help"])
            == Completion(word: "hel", replacement: nil, listing: ["help", "hello"]))
    }

    @Test("Common prefixes compare characters as people see them, and never split one")
    func commonPrefixOfCharacters() {
        #expect(Completion.commonPrefix(of: ["café", "cafe\u{301}s"]) == "café")
        #expect(Completion.commonPrefix(of: ["e\u{301}a", "eb"]) == "")
        #expect(Completion.commonPrefix(of: ["👨‍👩‍👧‍👦 a", "👨‍👩‍👧‍👦 b"]) == "👨‍👩‍👧‍👦 ")
        #expect(Completion.commonPrefix(of: ["👨‍👩‍👧‍👦", "👨‍👩‍👧"]) == "")
        #expect(Completion.commonPrefix(of: []) == "")
        #expect(Completion.commonPrefix(of: ["only"]) == "only")
    }

    @Test("Candidates are laid out in columns filled top to bottom")
    func columns() {
        #expect(Completion.columns(["add", "delete", "help", "move"], width: 20) == ["add     help", "delete  move"])
        #expect(Completion.columns(["add", "delete", "help"], width: 80) == ["add     delete  help"])
        #expect(Completion.columns(["a-long-candidate", "b"], width: 10) == ["a-long-candidate", "b"])
    }
}
