import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeStore
import Foundation

/// What Tab offers in the REPL: command names, list, area and heading names, and item references.
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
        RequestCatalogue.requests.flatMap { $0.fieldNames(holding: [ListReference.self]) }.map { "--" + $0 } + ["--into"])

    /// The commands whose arguments are items: those whose requests take items, in the catalogue.
    static let itemCommands = Set(
        RequestCatalogue.requests
            .filter { !$0.fieldNames(holding: [ItemReference.self, [ItemReference].self]).isEmpty }
            .map { $0.commandName })

    /// The words that end `when`, `deadline` and `remind`, after their items.
    static let dateWords = [
        WhenCommand.configuration.commandName: whenWords,
        DeadlineCommand.configuration.commandName: deadlineWords,
        RemindCommand.configuration.commandName: ["none"],
    ]

    /// The words that end `list-when` and `list-deadline`, after their list.
    static let listDateWords = [ListWhenCommand.configuration.commandName: whenWords, ListDeadlineCommand.configuration.commandName: deadlineWords]

    /// The words a when starts with.
    private static let whenWords = [
        "today", "tonight", "evening", "tomorrow", "this", "next", "in", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
        "sunday", "anytime", "someday",
    ]

    /// The words a deadline starts with.
    private static let deadlineWords = [
        "today", "tomorrow", "next", "in", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "none",
    ]

    /// The commands whose first argument is a list.
    static let listCommands: Set = [
        "use", "list", "move-list", "rename-list", "delete-list", "complete-list", "cancel-list", "reopen-list", "list-when", "list-deadline", "list-notes",
    ]

    /// The subcommands of `today`.
    static let todayCommands = TodayCommand.configuration.subcommands.compactMap { $0.configuration.commandName }

    /// The subcommands of `today` whose items `#N` counts in Today.
    static let todayNumbered: Set = ["remove", "move"]

    /// The subcommands of `checklist`.
    static let checklistCommands = ChecklistCommand.configuration.subcommands.compactMap { $0.configuration.commandName }

    /// The subcommands of `area`.
    static let areaCommands = AreaCommand.configuration.subcommands.compactMap { $0.configuration.commandName }

    /// The options followed by an area: the catalogue's area parameters.
    static let areaOptions = Set(
        RequestCatalogue.requests.flatMap { $0.fieldNames(holding: [AreaReference.self, AreaChoice.self]) }.map { "--" + $0 })

    /// The subcommands of `tag`.
    static let tagCommands = TagCommand.configuration.subcommands.compactMap { $0.configuration.commandName }

    /// The options followed by a tag: the catalogue's tag parameters, and the views' `--tag`.
    static let tagOptions = Set(
        RequestCatalogue.requests.flatMap { $0.fieldNames(holding: [TagReference.self, TagParentChoice.self]) }.map { "--" + $0 } + ["--tag"])

    /// The subcommands of `trash`.
    static let trashCommands = TrashCommand.configuration.subcommands.compactMap { $0.configuration.commandName }

    /// The subcommands of `heading`.
    static let headingCommands = HeadingCommand.configuration.subcommands.compactMap { $0.configuration.commandName }

    /// The options followed by a heading: the catalogue's heading parameters, and `move`'s `--to-heading`.
    static let headingOptions = Set(
        RequestCatalogue.requests.flatMap { $0.fieldNames(holding: [HeadingReference.self, HeadingChoice.self]) }.map { "--" + $0 } + ["--to-heading"])

    /// The options of the checklist commands that take a value.
    static let checklistValueOptions: Set = ["--list", "--before", "--after", "--offset", "--to-offset", "--from-offsets"]

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
        if command == TodayCommand.configuration.commandName {
            return todayCandidates(before: before, current: current)
        }
        if command == ChecklistCommand.configuration.commandName {
            return checklistCandidates(before: before, current: current)
        }
        if command == AreaCommand.configuration.commandName {
            return areaCandidates(before: before, current: current)
        }
        if command == HeadingCommand.configuration.commandName {
            return headingCandidates(before: before, current: current)
        }
        if command == TagCommand.configuration.commandName {
            return tagCandidates(before: before, current: current)
        }
        if command == TrashCommand.configuration.commandName {
            // Its subcommands, then the items `empty` takes, by id: what is in the Trash has no `#N`.
            guard before.count > 1 else { return Self.trashCommands.filter { $0.hasPrefix(current) } }
            return current.isEmpty ? [] : itemReferences(matching: current, numbering: .asSession(nil))
        }
        let previous = before.last ?? ""
        if Self.seriesCommands.contains(command), before.count == 1 {
            return seriesTitles(matching: current)
        }
        if command == RepeatCommand.configuration.commandName, !previous.hasPrefix("--") {
            // The item, then the rule, which is JSON or none.
            guard before.count > 1 else { return itemReferences(matching: current, numbering: .asSession(option(["--list"], in: before))) }
            return before.count == 2 ? ["none"].filter { $0.hasPrefix(current) } : []
        }
        if let words = Self.listDateWords[command], before.count > 1, !previous.hasPrefix("--") {
            return words.filter { $0.hasPrefix(current) }
        }
        if let words = Self.dateWords[command], !previous.hasPrefix("--") {
            // The items, then the word that says when: once there is an item, either may come.
            let items = itemReferences(matching: current, numbering: .asSession(option(["--list"], in: before)))
            return (before.count > 1 ? words.filter { $0.hasPrefix(current) } : []) + items
        }
        if Self.areaOptions.contains(previous) {
            return areaNames(matching: current)
        }
        if Self.tagOptions.contains(previous) {
            return tagNames(matching: current)
        }
        if Self.headingOptions.contains(previous) {
            return headingTitles(matching: current, inList: option(["--into", "--list", "--from"], in: before))
        }
        if previous == "--scope" {
            return OrderingKind.allCases.map(\.rawValue).filter { $0.hasPrefix(current) }
        }
        let placesAnchor = previous == "--before" || previous == "--after"
        if Self.listOptions.contains(previous) || (before.count == 1 && Self.listCommands.contains(command)) || (placesAnchor && command == "move-list") {
            return listNames(matching: current) + (command == "use" && before.count == 1 && Repl.today.lowercased().hasPrefix(current.lowercased()) ? [Repl.today] : [])
        }
        guard placesAnchor || (Self.itemCommands.contains(command) && !previous.hasPrefix("--")) else { return [] }
        let context = option(placesAnchor ? ["--into", "--list", "--from"] : ["--from", "--list"], in: before)
        return itemReferences(matching: current, numbering: .asSession(context))
    }

    /// The candidates after `today`: its subcommands, then items, which `#N` counts in Today
    /// for `remove`, `move` and the placement of `add`.
    private func todayCandidates(before: [String], current: String) -> [String] {
        guard before.count > 1 else { return Self.todayCommands.filter { $0.hasPrefix(current) } }
        let previous = before.last ?? ""
        if previous == "--list" { return listNames(matching: current) }
        let placesAnchor = previous == "--before" || previous == "--after"
        guard placesAnchor || !previous.hasPrefix("--") else { return [] }
        let inToday = placesAnchor || Self.todayNumbered.contains(before[1])
        return itemReferences(matching: current, numbering: inToday ? .today : .list(option(["--list"], in: before)))
    }

    /// The candidates after `area`: its subcommands, then the area that `rename`, `move` and
    /// `delete` name, and the area a placement names; nothing for a new name.
    private func areaCandidates(before: [String], current: String) -> [String] {
        guard before.count > 1 else { return Self.areaCommands.filter { $0.hasPrefix(current) } }
        let previous = before.last ?? ""
        let placesAnchor = previous == "--before" || previous == "--after"
        let namesArea = before.count == 2 && before[1] != "create"
        return placesAnchor || namesArea ? areaNames(matching: current) : []
    }

    /// The candidates after `tag`: its subcommands, then the tag that `rename`, `move` and
    /// `delete` name, and the tag a placement or `--parent` names; the tags `add` and `remove`
    /// name, until the first `#N`, then the items; lists and areas after `--list`, `--from` and
    /// `--area`; nothing for a new name.
    private func tagCandidates(before: [String], current: String) -> [String] {
        guard before.count > 1 else { return Self.tagCommands.filter { $0.hasPrefix(current) } }
        let previous = before.last ?? ""
        if ["--list", "--from"].contains(previous) { return listNames(matching: current) }
        if previous == "--area" { return areaNames(matching: current) }
        if ["add", "remove"].contains(before[1]), !previous.hasPrefix("--") {
            // Tags first; a `#` starts the items, which `#N` counts in --from, else the current list.
            let items = itemReferences(matching: current, numbering: .asSession(option(["--from"], in: before)))
            return before.dropFirst(2).contains { $0.hasPrefix("#") } || current.hasPrefix("#") ? items : tagNames(matching: current)
        }
        let namesTag = ["--before", "--after", "--parent"].contains(previous) || (before.count == 2 && before[1] != "create")
        return namesTag ? tagNames(matching: current) : []
    }

    /// The candidates after `heading`: its subcommands, then the heading that `rename`, `move`
    /// and `delete` name and the heading a placement names, among the headings of `--list` (of
    /// `--into` for a placement), and lists after `--list` and `--into`; nothing for a title.
    private func headingCandidates(before: [String], current: String) -> [String] {
        guard before.count > 1 else { return Self.headingCommands.filter { $0.hasPrefix(current) } }
        let previous = before.last ?? ""
        if previous == "--list" || previous == "--into" { return listNames(matching: current) }
        let placesAnchor = previous == "--before" || previous == "--after"
        guard !previous.hasPrefix("--") || placesAnchor else { return [] }
        // The heading named is the first argument: a word that is neither an option nor an option's value.
        let valueOptions: Set = ["--list", "--into", "--before", "--after", "--offset", "--to-offset"]
        let arguments = before.indices.dropFirst(2).filter { !before[$0].hasPrefix("--") && !valueOptions.contains(before[$0 - 1]) }
        let namesHeading = arguments.isEmpty && before[1] != "create"
        guard placesAnchor || namesHeading else { return [] }
        return headingTitles(matching: current, inList: option(placesAnchor ? ["--into", "--list"] : ["--list"], in: before))
    }

    /// The candidates after `checklist`: its subcommands, then the item, then entries of the
    /// item's checklist (`#1`…`#N`), where the subcommand takes entries: not the title of `add`
    /// or `edit`.
    private func checklistCandidates(before: [String], current: String) -> [String] {
        guard before.count > 1 else { return Self.checklistCommands.filter { $0.hasPrefix(current) } }
        let previous = before.last ?? ""
        if previous == "--list" { return listNames(matching: current) }
        let placesAnchor = previous == "--before" || previous == "--after"
        guard placesAnchor || !previous.hasPrefix("--") else { return [] }
        // The words that are arguments, not options or their values.
        var arguments: [String] = []
        for (index, word) in before.enumerated().dropFirst(2)
        where !word.hasPrefix("--") && !Self.checklistValueOptions.contains(before[index - 1]) && !(placesAnchor && index == before.count - 1) {
            arguments.append(word)
        }
        let list = option(["--list"], in: before)
        guard let item = arguments.first else { return itemReferences(matching: current, numbering: .asSession(list)) }
        let takesEntry = switch before[1] {
        case "show": false
        case "add": placesAnchor
        case "edit": placesAnchor || arguments.count == 1
        default: true
        }
        guard takesEntry, current.isEmpty || current.hasPrefix("#") else { return [] }
        let count = (try? checklistCount(of: item, list: list)) ?? 0
        return (0..<count).map { "#\($0 + 1)" }.filter { $0.hasPrefix(current) }
    }

    /// How many entries the checklist of the item `reference` names has.
    private func checklistCount(of reference: String, list: String?) throws -> Int {
        let (currentList, countsToday) = (session.currentList, session.isUsingToday)
        return try repository.read { transaction in
            let resolver = ReferenceResolver(transaction, currentList: currentList, countsToday: countsToday)
            let item = try resolver.checklistOwner(ItemReference(reference), list: list.map(ListReference.init(_:)))
            return try transaction.entryCount(in: .checklist(item.id), visibility: .all)
        }
    }

    /// The value after the first of `names` found in `words`.
    private func option(_ names: [String], in words: [String]) -> String? {
        for name in names {
            if let index = words.firstIndex(of: name), index + 1 < words.count { return words[index + 1] }
        }
        return nil
    }

    private func listNames(matching prefix: String) -> [String] {
        names((try? repository.read { try $0.lists() })?.map(\.name) ?? [], matching: prefix)
    }

    private func areaNames(matching prefix: String) -> [String] {
        names((try? repository.read { try $0.areas() })?.map(\.name) ?? [], matching: prefix)
    }

    /// The commands whose argument is a repeating series: `pause-repeat`, `resume-repeat`.
    static let seriesCommands = Set([PauseRepeatCommand.configuration, ResumeRepeatCommand.configuration].compactMap(\.commandName))

    /// The titles of the repeating to-dos.
    private func seriesTitles(matching prefix: String) -> [String] {
        names((try? repository.read { try $0.allSeries() })?.map(\.title) ?? [], matching: prefix)
    }

    private func tagNames(matching prefix: String) -> [String] {
        names((try? repository.read { try $0.tags() })?.map(\.name) ?? [], matching: prefix)
    }

    /// The titles of the headings of the list named (as typed, spaces escaped), else of the current list.
    private func headingTitles(matching prefix: String, inList name: String?) -> [String] {
        let currentList = session.currentList
        let titles = try? repository.read { transaction in
            let list = try ReferenceResolver(transaction, currentList: currentList).list(name.map { ListReference($0.replacingOccurrences(of: "\\ ", with: " ")) })
            return try transaction.headings(in: list.id).map(\.title)
        }
        return names(titles ?? [], matching: prefix)
    }

    /// The names that start with `prefix`, ignoring case, with their spaces escaped.
    private func names(_ names: [String], matching prefix: String) -> [String] {
        let key = ItemList.nameKey(prefix)
        return names.filter { ItemList.nameKey($0).hasPrefix(key) }.map { $0.replacingOccurrences(of: " ", with: "\\ ") }
    }

    /// `#1`…`#N` for the open items of a list, or ids that start with `prefix`, found through
    /// the index of ids rather than by reading every list.
    private func itemReferences(matching prefix: String, numbering: Numbering) -> [String] {
        if prefix.isEmpty || prefix.hasPrefix("#") {
            let count = (try? openCount(numbering)) ?? 0
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

    /// What `#N` counts where the cursor is.
    private enum Numbering {
        /// Today's open items.
        case today
        /// The open items of the list named, else of the current list (never Today).
        case list(String?)
        /// As a request counts them: the list named; else Today after `use Today`, else the current list.
        case asSession(String?)
    }

    /// How many open items `#N` counts.
    private func openCount(_ numbering: Numbering) throws -> Int {
        let (currentList, countsToday) = (session.currentList, session.isUsingToday)
        return try repository.read { transaction in
            let resolver = ReferenceResolver(transaction, currentList: currentList, countsToday: countsToday)
            return switch numbering {
            case .today: try resolver.openItemCount(of: .today)
            case .list(let name): try resolver.openItemCount(of: .list(try resolver.list(name.map(ListReference.init(_:)))))
            case .asSession(let name): try resolver.openItemCount(of: try resolver.numbering(name.map(ListReference.init(_:))))
            }
        }
    }

    /// The store; completion reads it synchronously, as the line editor asks from its own callback.
    private var repository: any ItemRepository { session.environment.repository }
}
