import ArgumentParser
import ArrangeArchive
import ArrangeIntents
import ArrangeModel
import ArrangeThings
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The formats `arrange export` writes.
enum ExportFormat: String, CaseIterable, ExpressibleByArgument {
    /// The complete, versioned archive, which `arrange import` reads back.
    case json
    /// `# List` headings and `- [ ]` / `- [x]` lines.
    case markdown
    /// One row per item, RFC 4180, with a header.
    case csv

    /// The archive in this format.
    func text(of archive: Archive) throws -> String {
        switch self {
        case .json: String(decoding: try archive.jsonData(), as: UTF8.self)
        case .markdown: archive.markdown()
        case .csv: archive.csv()
        }
    }
}

/// `arrange export`: the lists and items, or one list, as JSON, Markdown or CSV.
struct ExportCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Write every list and item, or one list, as JSON (which import reads back), Markdown or CSV.",
        discussion: """
            Examples:
              arrange export --output arrange.json
              arrange export --list Groceries --format markdown
              arrange export --format csv > items.csv
            """)
    @OptionGroup var shared: SharedOptions
    @Option(help: ArgumentHelp("The list to export; every list, with Today and the default list, when not given.", valueName: "list"))
    var list: ListReference?
    @Option(help: ArgumentHelp("json (complete, versioned, for import), markdown or csv.", valueName: "format"))
    var format: ExportFormat = .json
    @Option(help: ArgumentHelp("The file to write; standard output when not given. An existing file is replaced whole.", valueName: "file"))
    var output: String?

    func run(in session: CommandSession) async throws {
        let list = list
        let archive = try await session.environment.perform(readOnly: true) { transaction in
            ExportArchive(list: try list.map { try ReferenceResolver(transaction, currentList: nil).list($0).id })
        }.result
        let text = try format.text(of: archive)
        guard let output else { return session.console.write(text) }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CommandLineError.output("Cannot write \(output): \(error.localizedDescription)")
        }
        let items = archive.lists.reduce(0) { $0 + $1.items.count }
        session.console.print("Exported \(archive.lists.count) list\(archive.lists.count == 1 ? "" : "s") and \(items) item\(items == 1 ? "" : "s") to \(output).")
    }
}

/// `arrange import`: a JSON export of Arrange (`arrange import FILE`) or a Things 3 database
/// (`arrange import things PATH`).
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Bring in a JSON export of Arrange (import FILE) or a Things 3 database (import things PATH).",
        subcommands: [ImportFileCommand.self, ImportThingsCommand.self],
        defaultSubcommand: ImportFileCommand.self)
}

/// `arrange import FILE`: an export of `arrange export` (JSON), merged by id.
struct ImportFileCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "file", abstract: "Bring in a JSON export, merging by id: nothing is duplicated, and a bad file changes nothing.",
        discussion: """
            Into an empty database (no items), the export comes back exactly: lists, items, ids, orders, Today.
            Example: arrange import arrange.json
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp("The JSON file `arrange export` wrote.", valueName: "file"))
    var file: String

    func run(in session: CommandSession) async throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandLineError.input("Cannot read \(file): \(error.localizedDescription)")
        }
        let archive = try Archive(jsonData: data)
        let result = try await session.environment.perform(ImportArchive(archive)).result
        if shared.json {
            try session.printJSON(result)
        } else {
            session.console.print(Self.summary(result, file: file))
        }
    }

    /// `Imported from FILE: 2 lists added, 1 merged; 14 items added, 3 updated.`
    static func summary(_ result: ImportResult, file: String) -> String {
        var text = "Imported from \(file): \(result.listsAdded) list\(result.listsAdded == 1 ? "" : "s") added, \(result.listsMerged) merged; "
            + "\(result.itemsAdded) item\(result.itemsAdded == 1 ? "" : "s") added, \(result.itemsUpdated) updated."
        let series = result.seriesAdded + result.seriesMerged
        if series > 0 { text += " \(series) repeating to-do\(series == 1 ? "" : "s") (\(result.seriesAdded) added, \(result.seriesMerged) merged)." }
        if result.keysRepaired > 0 { text += " \(result.keysRepaired) keys that tied were given new ones." }
        return text
    }
}

/// `arrange import things PATH`: a Things 3 database, read without writing to it.
struct ImportThingsCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "things", abstract: "Bring in the lists and to-dos of a Things 3 database; importing it again updates, never duplicates.",
        discussion: """
            PATH is Things' main.sqlite (its -wal beside it is read too). The files are copied and the copy is read: \
            Things may keep them open. Inbox to-dos go to the default list, each project and area becomes a list, \
            in Things' sidebar order; Today is what Things would show today.
            Example: arrange import things ~/Library/Group\\ Containers/…/Things\\ Database.thingsdatabase/main.sqlite
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp("Things 3's main.sqlite.", valueName: "path"))
    var path: String

    func run(in session: CommandSession) async throws {
        // On a terminal, say what is happening: a big library takes a moment to copy and read.
        let progress = isatty(STDERR_FILENO) != 0 ? { (step: String) in FileHandle.standardError.write(Data((step + "\n").utf8)) } : { _ in }
        progress("Reading \(path)…")
        let library: ThingsLibrary
        do {
            library = try ThingsLibrary(contentsOf: path)
        } catch .unreadable(let path, let reason) {
            throw CommandLineError.input("Cannot read the Things database \(path): \(reason)")
        } catch {
            throw IntentFailure(code: "notThings", message: error.debugDescription)
        }
        progress("Importing \(library.tasks.count) tasks and \(library.areas.count) areas…")
        let result = try await session.environment.perform(ImportThings(library)).result
        if shared.json {
            try session.printJSON(result)
        } else {
            session.console.print(Self.summary(result))
        }
    }

    /// `Imported from Things: 5 lists, 12 to-dos (3 completed, 1 cancelled), 4 in Today, 2 in the Trash; skipped 1 repeating template.`
    static func summary(_ result: ThingsImportResult) -> String {
        let summary = result.summary
        let finished = summary.completedProjects + summary.cancelledProjects
        let trashed = summary.trashedToDos + summary.trashedProjects + summary.trashedHeadings
        let plural = { (count: Int, noun: String) in "\(count) \(noun)\(count == 1 ? "" : "s")" }
        var parts = [
            plural(summary.lists, "list") + (finished > 0 ? " (\(summary.completedProjects) completed, \(summary.cancelledProjects) cancelled)" : ""),
            plural(summary.toDos, "to-do") + " (\(summary.completed) completed, \(summary.cancelled) cancelled)", "\(summary.today) in Today",
        ]
        if summary.checklistItems > 0 { parts.append(plural(summary.checklistItems, "checklist item")) }
        if summary.headings > 0 { parts.append(plural(summary.headings, "heading")) }
        if summary.tags > 0 { parts.append(plural(summary.tags, "tag")) }
        if summary.reminders > 0 { parts.append(plural(summary.reminders, "reminder")) }
        if summary.scheduledProjects > 0 { parts.append(plural(summary.scheduledProjects, "scheduled project")) }
        if summary.repeating > 0 { parts.append(plural(summary.repeating, "repeating to-do")) }
        if trashed > 0 { parts.append("\(trashed) in the Trash") }
        var text = "Imported from Things: " + parts.joined(separator: ", ") + "."
        if !summary.unreadableRules.isEmpty {
            text += " The repeat of " + summary.unreadableRules.map { "'\($0)'" }.joined(separator: ", ")
                + " could not be read: \(summary.unreadableRules.count == 1 ? "its to-dos come" : "their to-dos come") in without it."
        }
        if result.merged.itemsUpdated > 0 { text += " \(result.merged.itemsUpdated) to-dos were there already and were updated." }
        return text
    }
}
