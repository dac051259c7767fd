import ArgumentParser
import ArrangeArchive
import ArrangeIntents
import ArrangeModel
import Foundation

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

/// `arrange import FILE`: an export of `arrange export` (JSON), merged by id.
struct ImportCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Bring in a JSON export, merging by id: nothing is duplicated, and a bad file changes nothing.",
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
        if result.keysRepaired > 0 { text += " \(result.keysRepaired) keys that tied were given new ones." }
        return text
    }
}
