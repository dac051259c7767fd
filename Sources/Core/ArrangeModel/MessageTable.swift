package import Foundation

/// The messages a person may see, in a `.strings` table of a target's resources, each keyed by
/// a stable code: `"StoreError.listNotFound"`, `"Action.MoveItems"`.
///
/// Every library target that has messages ships its English table as
/// `Resources/en.lproj/Messages.strings`. A translation is a table of the same name in another
/// `<language>.lproj` folder; the message is read in the language the app runs in, as `Bundle`
/// chooses it. A message names what it is about with placeholders in braces, `{limit}`, which
/// ``message(_:_:)`` fills in: a translation may move them or leave them out, but never
/// breaks the message, as a format string with too few arguments would.
///
/// Ids, paths and hints for developers stay out of the tables: they belong in an error's
/// `debugDescription`.
package struct MessageTable: @unchecked Sendable {
    /// The bundle whose table is read: a target's `Bundle.module`.
    package let bundle: Bundle
    /// The table's name: `Messages`, for `Messages.strings`.
    package let name: String

    package init(bundle: Bundle, name: String = "Messages") {
        self.bundle = bundle
        self.name = name
    }

    /// The message for `code` in the app's language, with its placeholders filled in.
    ///
    /// ```swift
    /// table.message("TitleError.tooLong.title", ["length": "1200", "limit": "1000"])
    /// // "The title has 1200 characters; the limit is 1000."
    /// ```
    ///
    /// - Returns: The message; the code itself when the table has no such entry, which a test
    ///   of each table rules out.
    package func message(_ code: String, _ arguments: KeyValuePairs<String, String> = [:]) -> String {
        Self.fill(bundle.localizedString(forKey: code, value: code, table: name), with: arguments)
    }

    /// The message for `code` in the first of `languages` that the bundle has a table for
    /// (`["fr-CA", "en"]`), else in English: what ``message(_:_:)`` gives an app that runs in
    /// that language.
    package func message(_ code: String, _ arguments: KeyValuePairs<String, String> = [:], languages: [String]) -> String {
        let localization = Self.localization(among: bundle.localizations, for: languages) ?? "en"
        let text = entries(localization: localization)[code] ?? entries(localization: "en")[code] ?? code
        return Self.fill(text, with: arguments)
    }

    /// Every entry of the table in `localization`; none when the bundle has no such table.
    package func entries(localization: String) -> [String: String] {
        guard let path = bundle.path(forResource: name, ofType: "strings", inDirectory: nil, forLocalization: localization),
              let data = FileManager.default.contents(atPath: path),
              let entries = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: String]
        else { return [:] }
        return entries
    }

    /// The first of `languages` that one of `available` serves, as itself (`fr-CA`) or as its
    /// language (`fr`). Foundation's `Bundle.preferredLocalizations(from:forPreferences:)`
    /// answers otherwise on Linux.
    static func localization(among available: [String], for languages: [String]) -> String? {
        for language in languages {
            if available.contains(language) { return language }
            if let base = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first, available.contains(String(base)) {
                return String(base)
            }
        }
        return nil
    }

    /// `text` with each `{name}` of `arguments` replaced by its value.
    private static func fill(_ text: String, with arguments: KeyValuePairs<String, String>) -> String {
        arguments.reduce(text) { text, argument in text.replacingOccurrences(of: "{\(argument.key)}", with: argument.value) }
    }
}

extension MessageTable {
    /// ArrangeModel's messages.
    package static let model = MessageTable(bundle: .module)
}
