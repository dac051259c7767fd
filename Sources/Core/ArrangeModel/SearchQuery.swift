import Foundation

/// What Quick Find looks for: the words of a query, and the rule by which a word of the query
/// matches a word of a text.
///
/// Text and query are folded first: case, accents and width are ignored, so `cafe` finds
/// "Café" and `ETE` finds "été". A word is a run of characters between spaces, punctuation
/// and control characters, counted in Unicode scalars. A query word matches a word of the text
/// when
/// - the text's word begins with it (`mil` finds "Milk");
/// - it has three or more characters and the text's word holds it (`ilk` finds "Milk");
/// - it has two characters, one of them Chinese, Japanese or Korean, and the text's word holds
///   it: those languages put no spaces between words (`牛奶` finds "买牛奶").
///
/// Any text is a query: punctuation separates words, so quotes, `*`, `-` and `(` are never
/// syntax, and a query of punctuation alone has no words and matches nothing.
///
/// ```swift
/// let query = SearchQuery("Café mil")
/// query.isMatched(by: ["Milk from the café"])  // true: every word matches a word of the text
/// ```
public struct SearchQuery: Hashable, Sendable {
    /// The query's words, folded, each once, in the order typed.
    public let words: [String]

    /// The query of `text`: its words, folded.
    public init(_ text: String) {
        var seen = Set<String>()
        words = Self.words(of: text).filter { seen.insert($0).inserted }
    }

    /// Whether the query has no words, and so matches nothing.
    public var isEmpty: Bool { words.isEmpty }

    /// Whether every word of the query matches a word of one of `texts`: a thing matches when
    /// each word is found in any of its fields.
    public func isMatched(by texts: [String]) -> Bool {
        isMatched(byWords: texts.flatMap(Self.words(of:)))
    }

    /// Whether every word of the query matches one of `textWords`, words of a text as
    /// ``words(of:)`` makes them.
    public func isMatched(byWords textWords: [String]) -> Bool {
        !words.isEmpty && words.allSatisfy { word in textWords.contains { Self.word(word, matches: $0) } }
    }

    /// Whether some word of the query matches a word of `text`: what tells which fields of a
    /// thing a search matched.
    public func matchesAnyWord(in text: String) -> Bool {
        let textWords = Self.words(of: text)
        return words.contains { word in textWords.contains { Self.word(word, matches: $0) } }
    }

    /// Whether `textWords`, words of a text as ``words(of:)`` makes them, begin with the query's:
    /// its words but the last equal, and the last the beginning of the text's next one. A title
    /// that starts with the query ranks first.
    public func isPrefix(ofWords textWords: [String]) -> Bool {
        guard let last = words.last, textWords.count >= words.count else { return false }
        return zip(words.dropLast(), textWords).allSatisfy { $0 == $1 } && textWords[words.count - 1].unicodeScalars.starts(with: last.unicodeScalars)
    }

    /// Whether the query word `word`, folded, matches a word of `text`: what tells which names
    /// of lists and headings one word of a query finds.
    public static func word(_ word: String, matchesAnyWordOf text: String) -> Bool {
        words(of: text).contains { Self.word(word, matches: $0) }
    }

    /// Whether the query word `word` matches the text's word `textWord`, both folded.
    static func word(_ word: String, matches textWord: String) -> Bool {
        let (query, text) = (Array(word.unicodeScalars), Array(textWord.unicodeScalars))
        if text.starts(with: query) { return true }
        guard query.count >= 3 || (query.count == 2 && query.contains(where: isCJK)) else { return false }
        return text.count > query.count && (1...(text.count - query.count)).contains { start in text[start..<(start + query.count)].elementsEqual(query) }
    }

    // MARK: The words of a text

    /// The words of `text`, folded, in order, repeats kept.
    public static func words(of text: String) -> [String] {
        if let ascii = asciiWords(of: text) { return ascii }
        var words: [String] = []
        var word = String.UnicodeScalarView()
        for scalar in fold(text).unicodeScalars {
            if isSeparator(scalar) {
                if !word.isEmpty { words.append(String(word)) }
                word = String.UnicodeScalarView()
            } else {
                word.append(scalar)
            }
        }
        if !word.isEmpty { words.append(String(word)) }
        return words
    }

    /// The words of an ASCII text, folded by lowercasing its bytes, as ``words(of:)`` makes them
    /// of any text, and much faster: `nil` for a text that is not ASCII.
    private static func asciiWords(of text: String) -> [String]? {
        var words: [String] = []
        var word: [UInt8] = []
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            if asciiSeparators[Int(byte)] {
                if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
                word.removeAll(keepingCapacity: true)
            } else {
                word.append(byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte)
            }
        }
        if !word.isEmpty { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }

    /// Whether each ASCII character separates words, by the rule of ``isSeparator(_:)``.
    private static let asciiSeparators: [Bool] = (0..<128).map { isSeparator(Unicode.Scalar(UInt8($0))) }

    /// `text` with case, accents and width folded, then composed, so that every way of writing
    /// a character folds alike.
    private static func fold(_ text: String) -> String {
        // ASCII has no accents, and is its own width: lowercasing folds it, and costs far less.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).precomposedStringWithCanonicalMapping
    }

    /// Whether a scalar separates words: a space, punctuation or a control character.
    static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control,
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation, .otherPunctuation:
            true
        default:
            scalar.properties.isWhitespace
        }
    }

    /// Whether a scalar is of Chinese, Japanese or Korean, which write words without spaces.
    public static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x3040...0x30FF, 0x3130...0x318F, 0x31F0...0x31FF, 0xAC00...0xD7AF, 0xFF66...0xFF9F: true
        default: scalar.properties.isIdeographic
        }
    }
}
