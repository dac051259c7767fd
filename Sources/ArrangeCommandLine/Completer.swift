import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation

/// What Tab offers in the REPL: command names, list names and item references.
public struct Completer: Sendable {
    public let session: CommandSession

    public init(session: CommandSession) {
        self.session = session
    }

    /// The most ids Tab offers for a prefix.
    static let idCandidatesLimit = 100

    /// The REPL's own commands, besides those of the command tree.
    static let builtins = ["use", "help", "quit"]

    /// The options followed by a list: the catalogue's list parameters, and `--into`, the
    /// command line's name for the list `move` moves into.
    static let listOptions = Set(
        RequestCatalogue.forms.flatMap { $0.parameters }.filter { $0.valueType == ListReference.self }.map { "--" + $0.name } + ["--into"])

    /// The commands whose arguments are items: those whose requests take items, in the catalogue.
    static let itemCommands = Set(
        RequestCatalogue.forms
            .filter { $0.parameters.contains { $0.valueType == ItemReference.self || $0.valueType == [ItemReference].self } }
            .map { $0.commandName })

    /// The commands whose first argument is a list.
    static let listCommands: Set = ["use", "list", "rename-list", "delete-list"]

    /// The words that could replace the last word of `lineBeforeCursor`.
    ///
    /// Unknown lists and unreadable stores give no candidates.
    ///
    /// ```swift
    /// completer.candidates(lineBeforeCursor: "mo")            // ["move"]
    /// completer.candidates(lineBeforeCursor: "use gro")       // ["Groceries"]
    /// completer.candidates(lineBeforeCursor: "complete #")    // ["#1", "#2", "#3"]
    /// completer.candidates(lineBeforeCursor: "show 00")       // ["00000002", "00000003"]
    /// ```
    public func candidates(lineBeforeCursor line: String) -> [String] {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let endsWord = !(line.last.map { $0 == " " || $0 == "\t" } ?? true)
        let current = endsWord ? words.last ?? "" : ""
        let before = endsWord ? Array(words.dropLast()) : words
        guard let command = before.first else {
            return (Repl.commands.compactMap { $0.configuration.commandName } + Self.builtins).filter { $0.hasPrefix(current) }
        }
        if command == "help", before.count == 1 {
            return Repl.commands.compactMap { $0.configuration.commandName }.filter { $0.hasPrefix(current) }
        }
        let previous = before.last ?? ""
        if Self.listOptions.contains(previous) || (before.count == 1 && Self.listCommands.contains(command)) {
            return listNames(matching: current)
        }
        let placesAnchor = previous == "--before" || previous == "--after"
        guard placesAnchor || (Self.itemCommands.contains(command) && !previous.hasPrefix("--")) else { return [] }
        let context = option(placesAnchor ? ["--into", "--list", "--from"] : ["--from", "--list"], in: before)
        return itemReferences(matching: current, countingIn: context)
    }

    /// The value after the first of `names` found in `words`.
    private func option(_ names: [String], in words: [String]) -> String? {
        for name in names {
            if let index = words.firstIndex(of: name), index + 1 < words.count { return words[index + 1] }
        }
        return nil
    }

    private func listNames(matching prefix: String) -> [String] {
        let lists = (try? repository.read { try $0.lists() }) ?? []
        let key = ItemList.nameKey(prefix)
        return lists.map(\.name)
            .filter { ItemList.nameKey($0).hasPrefix(key) }
            .map { $0.replacingOccurrences(of: " ", with: "\\ ") }
    }

    /// `#1`…`#N` for the open items of a list, or ids that start with `prefix`, found through
    /// the index of ids rather than by reading every list.
    private func itemReferences(matching prefix: String, countingIn list: String?) -> [String] {
        if prefix.isEmpty || prefix.hasPrefix("#") {
            let count = (try? openCount(in: list)) ?? 0
            return (0..<count).map { "#\($0 + 1)" }.filter { $0.hasPrefix(prefix) }
        }
        let lowered = prefix.lowercased()
        guard lowered.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return [] }
        let digits = lowered.filter(\.isHexDigit)
        let matches = (try? repository.read { transaction in
            try transaction.items(withIDPrefix: digits, limit: Self.idCandidatesLimit).map(\.id.text)
        }) ?? []
        // Offer the short form `list` shows unless two matches share it.
        let short = matches.map { String($0.prefix(8)) }
        return Set(short).count == short.count ? short : matches
    }

    private func openCount(in list: String?) throws -> Int {
        let currentList = session.currentList
        return try repository.read { transaction in
            let list = try ReferenceResolver(transaction, currentList: currentList).list(list.map(ListReference.init(_:)))
            return try transaction.itemCount(in: list.id, visibility: .open)
        }
    }

    /// The store; completion reads it synchronously, as the line editor asks from its own callback.
    private var repository: any ItemRepository { session.environment.repository }
}
