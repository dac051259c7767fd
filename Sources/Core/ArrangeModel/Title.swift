public import Foundation

/// Why a title or a list name was refused.
public enum TitleError: Error, Hashable, Sendable {
    /// The text is empty once surrounding white space is trimmed.
    case empty(field: Field)
    /// The text has more characters than allowed.
    case tooLong(field: Field, length: Int, limit: Int)
    /// The text holds a control character (a newline, a tab, NUL, …) at a 1-based character position.
    case controlCharacter(field: Field, position: Int)
    /// Another list already has this name, ignoring case.
    case duplicateListName(String)
    /// Another area already has this name, ignoring case.
    case duplicateAreaName(String)
    /// Another tag already has this name, ignoring case.
    case duplicateTagName(String)
    /// An item's notes take more bytes than allowed (`Item.notesSize(_:)`).
    case notesTooLarge(size: Int, limit: Int)

    /// The text a validation error is about.
    public enum Field: String, Hashable, Sendable {
        /// An item's title.
        case title
        /// A list's name.
        case listName = "list name"
        /// An area's name.
        case areaName = "area name"
        /// A tag's name.
        case tagName = "tag name"
    }
}

extension TitleError: CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, in English, as the command line and logs say it; a person sees
    /// ``errorDescription``.
    public var description: String { debugDescription }

    /// What went wrong, in English, as the command line and logs say it.
    public var debugDescription: String {
        switch self {
        case .empty(let field):
            "The \(field.rawValue) is empty; give it at least one visible character."
        case .tooLong(let field, let length, let limit):
            "The \(field.rawValue) has \(length) characters; the limit is \(limit)."
        case .controlCharacter(let field, let position):
            "The \(field.rawValue) has a control character at position \(position); remove it."
        case .duplicateListName(let name):
            "A list named '\(name)' already exists (names ignore case)."
        case .duplicateAreaName(let name):
            "An area named '\(name)' already exists (names ignore case)."
        case .duplicateTagName(let name):
            "A tag named '\(name)' already exists (names ignore case)."
        case .notesTooLarge(let size, let limit):
            "The notes take \(size) bytes; the limit is \(limit) (about \(limit / 1_000 * 1_000) characters of plain text); shorten them."
        }
    }
}

/// The rules for titles and list names.
public enum Title {
    /// The most characters a title or a list name may have.
    public static let maximumLength = 1_000

    /// Returns `text` trimmed of surrounding white space, or throws when it breaks a rule.
    ///
    /// ```swift
    /// try Title.validated("  Buy milk ")  // "Buy milk"
    /// try Title.validated("   ")          // throws TitleError.empty(field: .title)
    /// ```
    ///
    /// - Parameters:
    ///   - text: The text as the user gave it.
    ///   - field: What the text names, for the error message.
    /// - Throws: ``TitleError/empty(field:)``, ``TitleError/tooLong(field:length:limit:)``
    ///   or ``TitleError/controlCharacter(field:position:)``.
    public static func validated(_ text: String, as field: TitleError.Field = .title) throws(TitleError) -> String {
        let trimmed = text.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw .empty(field: field) }
        if let index = trimmed.firstIndex(where: { $0.unicodeScalars.contains(where: \.isControl) }) {
            throw .controlCharacter(field: field, position: trimmed.distance(from: trimmed.startIndex, to: index) + 1)
        }
        let length = trimmed.count
        guard length <= maximumLength else { throw .tooLong(field: field, length: length, limit: maximumLength) }
        return trimmed
    }

    /// A valid title made from text that another program wrote, which may break the rules:
    /// control characters (line breaks included) become spaces, the text is trimmed and cut to
    /// ``maximumLength`` characters, and empty text becomes `placeholder`.
    ///
    /// ```swift
    /// Title.sanitized("Buy\nmilk", placeholder: "Untitled")  // "Buy milk"
    /// Title.sanitized("  ", placeholder: "Untitled")         // "Untitled"
    /// ```
    public static func sanitized(_ text: String, placeholder: String) -> String {
        // Most text breaks no rule: it is kept as it is, with no new string built.
        if let first = text.first, let last = text.last, !first.isWhitespace, !last.isWhitespace, !text.unicodeScalars.contains(where: \.isControl),
           text.utf8.count <= maximumLength || text.count <= maximumLength
        {
            return text
        }
        let spaced = String(text.map { character in character.unicodeScalars.contains(where: \.isControl) ? " " : character })
        let trimmed = String(spaced.trimmingWhitespace().prefix(maximumLength)).trimmingWhitespace()
        return trimmed.isEmpty ? placeholder : trimmed
    }
}

extension Unicode.Scalar {
    /// Whether this is a C0 or C1 control character, or DEL: the general category Cc, which is
    /// these 65 code points.
    var isControl: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}

extension String {
    /// The string without leading and trailing white space and newlines.
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        guard let first = firstIndex(where: { !isSpace($0) }),
              let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}

extension TitleError: LocalizedError {
    /// What went wrong, in the app's language, in a sentence a person can act on.
    public var errorDescription: String? {
        let table = MessageTable.model
        return switch self {
        case .empty(let field): table.message("TitleError.empty.\(field.code)")
        case .tooLong(let field, let length, let limit): table.message("TitleError.tooLong.\(field.code)", ["length": "\(length)", "limit": "\(limit)"])
        case .controlCharacter(let field, let position): table.message("TitleError.controlCharacter.\(field.code)", ["position": "\(position)"])
        case .duplicateListName(let name): table.message("TitleError.duplicateListName", ["name": name])
        case .duplicateAreaName(let name): table.message("TitleError.duplicateAreaName", ["name": name])
        case .duplicateTagName(let name): table.message("TitleError.duplicateTagName", ["name": name])
        case .notesTooLarge(let size, let limit):
            table.message("TitleError.notesTooLarge", ["size": "\(size)", "limit": "\(limit)", "characters": "\(limit / 1_000 * 1_000)"])
        }
    }
}

extension TitleError.Field {
    /// The field in the codes of the messages: `title`, `listName`, `areaName`, `tagName`.
    var code: String {
        switch self {
        case .title: "title"
        case .listName: "listName"
        case .areaName: "areaName"
        case .tagName: "tagName"
        }
    }
}
