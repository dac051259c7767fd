/// What a Tab press does to the line, worked out from the text before the cursor and the
/// completer's candidates. Pure, so it can be tested without a terminal.
struct Completion: Equatable {
    /// The word being completed: the text after the last space or tab before the cursor.
    var word: Substring
    /// The text to put in place of ``word``, or `nil` to leave the line as it is.
    var replacement: String?
    /// The candidates to list below the line, in the completer's order without repeats; empty
    /// when there is nothing to list.
    var listing: [String]
}

extension Completion {
    /// Works out what Tab does.
    ///
    /// - Parameters:
    ///   - lineBeforeCursor: The line's text up to the cursor.
    ///   - candidates: Completions of the current word, as the completer returned them.
    init(lineBeforeCursor: String, candidates: [String]) {
        word = lineBeforeCursor.lastIndex(where: { $0 == " " || $0 == "\t" })
            .map { lineBeforeCursor[lineBeforeCursor.index(after: $0)...] } ?? lineBeforeCursor[...]
        var seen = Set<String>()
        let unique = candidates.filter { seen.insert($0).inserted }
        switch unique.count {
        case 0:
            replacement = nil
            listing = []
        case 1:
            replacement = unique[0] + " "
            listing = []
        default:
            let prefix = Self.commonPrefix(of: unique)
            replacement = prefix.count > word.count ? prefix : nil
            listing = unique
        }
    }

    /// The longest run of characters every string starts with.
    static func commonPrefix(of strings: [String]) -> String {
        guard let first = strings.first else { return "" }
        let length = strings.dropFirst()
            .map { zip(first, $0).prefix(while: { $0 == $1 }).count }
            .min() ?? first.count
        return String(first.prefix(length))
    }

    /// Lays `candidates` out in columns that fit `width`, filled top to bottom like `ls`.
    ///
    /// ```swift
    /// Completion.columns(["add", "delete", "help", "move"], width: 20)  // ["add     help", "delete  move"]
    /// ```
    ///
    /// - Returns: One string per screen line, without trailing spaces or line breaks.
    static func columns(_ candidates: [String], width: Int) -> [String] {
        let cellWidth = (candidates.map(\.count).max() ?? 0) + 2
        let columnCount = max(1, (width + 2) / cellWidth)
        let rowCount = (candidates.count + columnCount - 1) / columnCount
        return (0..<rowCount).map { row in
            let cells = stride(from: row, to: candidates.count, by: rowCount).map { candidates[$0] }
            return cells.enumerated()
                .map { $0.offset == cells.count - 1 ? $0.element : $0.element.padding(to: cellWidth) }
                .joined()
        }
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}
