/// Splits a line typed at the REPL into words, with the quoting rules of a POSIX shell.
///
/// - Spaces, tabs and line breaks separate words; runs of them count as one.
/// - `'single quotes'` keep every character as it is, backslashes included.
/// - `"double quotes"` keep every character too, except that `\"` stands for `"` and `\\` for `\`.
///   Any other backslash stays: `"a\b"` is `a\b`.
/// - Outside quotes, a backslash keeps the next character as it is: `a\ b` is one word, `a b`.
/// - Quoted and unquoted parts next to each other make one word: `a"b c"d` is `ab cd`.
/// - `''` and `""` make an empty word.
/// - `#` starts no comment, so `#5` (an item reference) is a word.
public enum ShellWords {
    /// Returns the words of `line`.
    ///
    /// ```swift
    /// try ShellWords.split(#"move #5 after "Buy milk""#)  // ["move", "#5", "after", "Buy milk"]
    /// try ShellWords.split(#"add it\'s"#)                 // ["add", "it's"]
    /// try ShellWords.split("   ")                         // []
    /// try ShellWords.split("add 'milk")                   // throws ShellWordsError.unterminatedQuote("'", position: 5)
    /// ```
    ///
    /// - Parameter line: The line as typed, without its line break.
    /// - Returns: The words, with quotes and escaping backslashes removed.
    /// - Throws: ``ShellWordsError/unterminatedQuote(_:position:)`` when a quote is never closed,
    ///   ``ShellWordsError/trailingBackslash`` when the line ends in an escaping backslash.
    /// - Complexity: O(*n*), where *n* is the length of `line`.
    public static func split(_ line: String) throws(ShellWordsError) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        // A word exists once any part of it, even an empty quoted part, has been read.
        var inWord = false
        var quote: (mark: Unicode.Scalar, index: String.Index)?
        var escaped = false

        let scalars = line.unicodeScalars
        for index in scalars.indices {
            let scalar = scalars[index]
            if escaped {
                escaped = false
                if quote?.mark == "\"" && scalar != "\"" && scalar != "\\" {
                    word.append("\\")
                }
                word.append(scalar)
            } else if let open = quote {
                switch scalar {
                case open.mark: quote = nil
                case "\\" where open.mark == "\"": escaped = true
                default: word.append(scalar)
                }
            } else {
                switch scalar {
                case " ", "\t", "\n", "\r":
                    if inWord {
                        words.append(String(word))
                        word = String.UnicodeScalarView()
                        inWord = false
                    }
                case "'", "\"":
                    quote = (scalar, index)
                    inWord = true
                case "\\":
                    escaped = true
                    inWord = true
                default:
                    word.append(scalar)
                    inWord = true
                }
            }
        }

        if let open = quote {
            throw .unterminatedQuote(Character(open.mark), position: line[..<open.index].count + 1)
        }
        if escaped { throw .trailingBackslash }
        if inWord { words.append(String(word)) }
        return words
    }
}

/// Why a line could not be split into words.
public enum ShellWordsError: Error, Hashable, Sendable {
    /// A quote (`'` or `"`) opened at a 1-based character position is never closed.
    case unterminatedQuote(Character, position: Int)
    /// The line ends in a backslash that has no character to escape.
    case trailingBackslash
}

extension ShellWordsError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unterminatedQuote(let mark, let position):
            "The quote \(mark) at position \(position) is never closed; add a closing \(mark)."
        case .trailingBackslash:
            #"The line ends in a backslash; remove it, or write \\ for a backslash."#
        }
    }
}
