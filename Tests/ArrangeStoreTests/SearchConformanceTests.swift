import ArrangeModel
@testable import ArrangeSQLite
import ArrangeStore
import Foundation
import GRDB
import Testing

/// Quick Find's matching on every backend (`ItemRequest.matching`), held to a matcher written
/// here from the rule alone: fold, split into words, and match each query word at a word's
/// beginning, anywhere from three characters, or anywhere from two for Chinese, Japanese and
/// Korean.
@Suite("ItemRepository conformance: Quick Find")
struct SearchConformanceTests {
    /// The rule, by brute force.
    enum BruteForce {
        static func fold(_ text: String) -> String {
            text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).precomposedStringWithCanonicalMapping
        }

        static func words(_ text: String) -> [[Unicode.Scalar]] {
            var words: [[Unicode.Scalar]] = [[]]
            for scalar in fold(text).unicodeScalars {
                let category = scalar.properties.generalCategory
                let separates = scalar.properties.isWhitespace
                    || [.spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .connectorPunctuation, .dashPunctuation, .openPunctuation,
                        .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation].contains(category)
                if separates { words.append([]) } else { words[words.count - 1].append(scalar) }
            }
            return words.filter { !$0.isEmpty }
        }

        static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
            scalar.properties.isIdeographic || (0x3040...0x30FF).contains(scalar.value) || (0xAC00...0xD7AF).contains(scalar.value)
                || (0x1100...0x11FF).contains(scalar.value) || (0x3130...0x318F).contains(scalar.value) || (0x31F0...0x31FF).contains(scalar.value)
                || (0xFF66...0xFF9F).contains(scalar.value)
        }

        static func matches(_ query: [Unicode.Scalar], _ word: [Unicode.Scalar]) -> Bool {
            if word.count >= query.count, Array(word.prefix(query.count)) == query { return true }
            let inside = query.count >= 3 || (query.count == 2 && query.contains(where: isCJK))
            guard inside, word.count >= query.count else { return false }
            return (0...(word.count - query.count)).contains { Array(word[$0..<($0 + query.count)]) == query }
        }

        static func matches(query: String, texts: [String]) -> Bool {
            let queryWords = words(query)
            let textWords = texts.flatMap(words)
            return !queryWords.isEmpty && queryWords.allSatisfy { query in textWords.contains { matches(query, $0) } }
        }
    }

    /// What the store finds for `query`, as titles, sorted.
    private func found(_ query: String, includeCompleted: Bool = true, in store: Store) throws -> [String] {
        try store.repository.read { try $0.items(.matching(SearchQuery(query), includeCompleted: includeCompleted)) }.map(\.title).sorted()
    }

    @Test("Case, accents and width are folded; a word's beginning, three characters inside it, or two of CJK match", arguments: Backend.allCases)
    func rule(backend: Backend) throws {
        let store = try backend.makeStore()
        let list = Sample.list("Errands")
        let titles = ["Milk", "Café au lait", "L'été", "买牛奶", "Party 🎉 prep", "Ｆｕｌｌ width", "e\u{301}clair", "Oat-milk (2)"]
        try store.repository.write { transaction in
            try transaction.insert(list)
            for (offset, title) in titles.enumerated() { try transaction.insert(Sample.item(in: list.id, title, sortIndex: Int64(offset))) }
        }
        #expect(try found("mil", in: store) == ["Milk", "Oat-milk (2)"])
        #expect(try found("ilk", in: store) == ["Milk", "Oat-milk (2)"])
        #expect(try found("il", in: store).isEmpty, "two characters inside a word are not enough")
        #expect(try found("cafe", in: store) == ["Café au lait"])
        #expect(try found("ETE", in: store) == ["L'été"])
        #expect(try found("牛奶", in: store) == ["买牛奶"])
        #expect(try found("买", in: store) == ["买牛奶"])
        #expect(try found("牛", in: store).isEmpty, "one character inside a word is not enough")
        #expect(try found("🎉", in: store) == ["Party 🎉 prep"])
        #expect(try found("full", in: store) == ["Ｆｕｌｌ width"])
        #expect(try found("ECLA", in: store) == ["e\u{301}clair"])
        #expect(try found("milk prep", in: store).isEmpty, "every word must match")
        #expect(try found("\"milk\"", in: store) == ["Milk", "Oat-milk (2)"], "quotes are no syntax")
        for query in ["", "   ", "***", "\"", "AND", "OR NOT", "NEAR(milk)", "-", "(", "milk*", String(repeating: "milk ", count: 200)] {
            let expected = titles.filter { BruteForce.matches(query: query, texts: [$0, "Notes for \($0)", list.name]) }.sorted()
            #expect(try found(query, in: store) == expected, "\(query.prefix(20))")
        }
    }

    @Test("Notes, checklist entries, the heading and the list match; completed items only when asked; edits and deletions are found as they are", arguments: Backend.allCases)
    func fields(backend: Backend) throws {
        let store = try backend.makeStore()
        let list = Sample.list("Groceries")
        let heading = Heading(listID: list.id, title: "Bakery", createdAt: Sample.date(0), sortIndex: 0)
        var bread = Sample.item(in: list.id, "Bread", sortIndex: 0)
        bread.heading = heading.id
        let done = Sample.item(in: list.id, "Done thing", sortIndex: 1, completed: true)
        let entry = ChecklistItem(itemID: done.id, title: "Sourdough", sortIndex: 0)
        try store.repository.write { transaction in
            try transaction.insert(list)
            try transaction.insert(heading)
            try transaction.insert(bread)
            try transaction.insert(done)
            try transaction.insert(entry)
        }
        #expect(try found("bake", in: store) == ["Bread"])
        #expect(try found("groc done", in: store) == ["Done thing"])
        #expect(try found("sourd", in: store) == ["Done thing"])
        #expect(try found("sourd", includeCompleted: false, in: store).isEmpty)
        #expect(try found("notes for", in: store) == ["Bread", "Done thing"])

        try store.repository.write { transaction in
            var renamed = bread
            (renamed.title, renamed.notes) = ("Baguette", "crusty")
            try transaction.update(renamed)
            var retitled = entry
            retitled.title = "Rye"
            try transaction.update(retitled)
        }
        #expect(try found("bread", in: store).isEmpty)
        #expect(try found("crust", in: store) == ["Baguette"])
        #expect(try found("sourd", in: store).isEmpty)
        #expect(try found("rye", in: store) == ["Done thing"])
        try store.repository.write { transaction in try transaction.deleteChecklistItem(id: entry.id) }
        #expect(try found("rye", in: store).isEmpty)
        try store.repository.write { transaction in try transaction.deleteItem(id: done.id) }
        #expect(try found("done", in: store).isEmpty)
        try store.repository.write { transaction in try transaction.deleteList(id: list.id) }
        #expect(try found("baguette", in: store).isEmpty)
    }

    @Test("Random texts of accents, CJK, emoji and query syntax, edited and deleted: the store finds what the rule does, in the index and in what waits for it", arguments: Backend.allCases)
    func random(backend: Backend) throws {
        var random = SeededRandomNumberGenerator(seed: 61)
        let pieces = [
            "a", "b", "ab", "abc", "é", "E", "Ü", "ß", "ﬁ", "Ａ", "牛", "奶", "买", "の", "한", "국", "🎉", "👨‍👩‍👧", "e\u{301}",
            " ", " ", " ", "-", "\"", "*", "(", ")", "AND", "OR", "NOT", "NEAR", ".", "'", "\t", "_", "+",
        ]
        func text(_ count: Int) -> String { (0..<Int.random(in: 1...count, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined() }
        let store = try backend.makeStore()
        let lists = [Sample.list(text(4), at: 1), Sample.list(text(4), at: 2)]
        var items: [Item] = []
        var entries: [ChecklistItem] = []
        try store.repository.write { transaction in
            for list in lists where (try? transaction.insert(list)) != nil {
                for index in 0..<100 {
                    var item = Sample.item(in: list.id, text(8), sortIndex: Int64(index), completed: index % 5 == 0)
                    item.notes = text(10)
                    try transaction.insert(item)
                    items.append(item)
                    if index % 3 == 0 {
                        let entry = ChecklistItem(itemID: item.id, title: text(5), sortIndex: 0)
                        try transaction.insert(entry)
                        entries.append(entry)
                    }
                }
            }
        }
        // Edits and deletions, some in the FTS5 index's batches (of 64), some still waiting.
        for round in 0..<90 {
            let index = Int.random(in: 0..<items.count, using: &random)
            try store.repository.write { transaction in
                switch round % 3 {
                case 0:
                    items[index].title = text(8)
                    try transaction.update(items[index])
                case 1 where !entries.isEmpty:
                    let entry = Int.random(in: 0..<entries.count, using: &random)
                    entries[entry].title = text(5)
                    try transaction.update(entries[entry])
                default:
                    try transaction.deleteItem(id: items[index].id)
                    entries.removeAll { $0.itemID == items[index].id }
                    items.remove(at: index)
                }
            }
        }
        if let sqlite = store.sqlite {
            // Both tiers hold texts: the FTS5 index its batches, `search_pending` fewer than one.
            let (indexed, waiting) = try sqlite.writer.read { db in
                (try Int.fetchOne(db, sql: "SELECT count(*) FROM search_indexed") ?? 0, try Int.fetchOne(db, sql: "SELECT count(*) FROM search_pending") ?? 0)
            }
            #expect(indexed > 100 && (1..<SearchIndex.batchSize).contains(waiting), "\(indexed) indexed, \(waiting) waiting")
        }
        let listNames = try store.repository.read { try $0.lists() }.reduce(into: [ItemList.ID: String]()) { $0[$1.id] = $1.name }
        let corpus = items.flatMap { [$0.title, $0.notes] } + entries.map(\.title) + listNames.values
        var finding = 0
        for round in 0..<150 {
            // Pieces of the texts, and now and then anything.
            let source = corpus.randomElement(using: &random)!.unicodeScalars.map { $0 }
            let start = Int.random(in: 0..<max(1, source.count), using: &random)
            let piece = String(String.UnicodeScalarView(source.dropFirst(start).prefix(Int.random(in: 1...4, using: &random))))
            let query = round % 4 == 0 ? text(3) : piece + (round % 3 == 0 ? " " + text(2) : "")
            let expected = items.filter { item in
                BruteForce.matches(query: query, texts: [item.title, item.notes, listNames[item.listID] ?? ""] + entries.filter { $0.itemID == item.id }.map(\.title))
            }
            let found = try store.repository.read { try $0.items(.matching(SearchQuery(query), includeCompleted: true)) }
            #expect(Set(found.map(\.id)) == Set(expected.map(\.id)), "query \(query.debugDescription)")
            if !found.isEmpty { finding += 1 }
            let open = try store.repository.read { try $0.items(.matching(SearchQuery(query), includeCompleted: false)) }
            #expect(Set(open.map(\.id)) == Set(expected.filter { !$0.isCompleted }.map(\.id)))
        }
        #expect(finding > 50, "most queries find something: \(finding) of 150")
    }
}
