import ArrangeModel
import Foundation
import Testing

@Suite("Messages come from the tables in the resources")
struct MessageTableTests {
    /// A bundle holding ArrangeModel's English table and a French one that translates a single
    /// message, with its placeholders moved.
    static func translatedBundle(in folder: URL) throws -> Bundle {
        let bundle = folder.appendingPathComponent("Translated.resources")
        let files = FileManager.default
        try files.createDirectory(at: bundle.appendingPathComponent("fr.lproj"), withIntermediateDirectories: true)
        try files.copyItem(
            at: URL(fileURLWithPath: MessageTable.model.bundle.bundlePath).appendingPathComponent("en.lproj"),
            to: bundle.appendingPathComponent("en.lproj"))
        let french = #""TitleError.tooLong.title" = "Limite de {limit} caractères dépassée : le titre en compte {length}.";"#
        try Data(french.utf8).write(to: bundle.appendingPathComponent("fr.lproj/Messages.strings"))
        return try #require(Bundle(path: bundle.path))
    }

    @Test("A second table's translation is picked up for its language, with its placeholders filled in where it put them")
    func translationPickedUp() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arrange-messages-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let table = MessageTable(bundle: try Self.translatedBundle(in: folder))

        let arguments: KeyValuePairs = ["length": "1200", "limit": "1000"]
        #expect(table.message("TitleError.tooLong.title", arguments, languages: ["fr-CA", "en"]) == "Limite de 1000 caractères dépassée : le titre en compte 1200.")
        #expect(table.message("TitleError.tooLong.title", arguments, languages: ["de", "en"]) == "The title has 1200 characters; the limit is 1000.")
        #expect(
            table.message("TitleError.empty.title", languages: ["fr"]) == "The title is empty; give it at least one visible character.",
            "a message the translation lacks comes in English")
    }

    @Test("The English table is what the app's language reads, and every entry of it parses")
    func englishTable() throws {
        let entries = MessageTable.model.entries(localization: "en")
        #expect(entries.count >= 8)
        #expect(MessageTable.model.message("TitleError.notesTooLarge", ["size": "20000", "limit": "10240", "characters": "10000"])
            == "The notes are too long: they take 20000 bytes, and the limit is 10240 (about 10000 characters of plain text). Shorten them.")
        #expect(MessageTable.model.message("NoSuchCode") == "NoSuchCode", "a missing entry shows its code, which a test of each table rules out")
    }

    @Test("A title error's message is from the table, in the app's language; its debug description keeps the English the command line prints")
    func titleError() throws {
        #expect(throws: TitleError.tooLong(field: .listName, length: 1001, limit: 1000)) { try Title.validated(String(repeating: "x", count: 1001), as: .listName) }
        let error = TitleError.duplicateListName("Work")
        #expect(error.localizedDescription == "A list named “Work” already exists (names ignore case).")
        #expect(error.debugDescription == "A list named 'Work' already exists (names ignore case).")
        #expect("\(error)" == error.debugDescription)
    }
}
