import Foundation
import Testing

/// Database files arrange cannot use: each gives one clear line, and the file keeps its bytes.
@Suite("Unusable database files", .enabled(if: Executable.url != nil, "arrange is built by swift build --build-tests"))
struct BadFileTests {
    enum Damage: String, CaseIterable, CustomTestStringConvertible {
        case text = "a text file"
        case truncated = "a truncated database"
        case readOnly = "a read-only database"

        var testDescription: String { rawValue }
    }

    @Test("arrange refuses the file with one error line and does not modify it", arguments: Damage.allCases, [["list"], ["add", "Milk"], ["run"]])
    func refused(_ damage: Damage, arguments: [String]) async throws {
        try await withTemporaryFolder { home in
            let arrange = Executable(home: home)
            let database = home.appendingPathComponent("bad.sqlite")
            switch damage {
            case .text:
                try Data("Milk\nEggs\n".utf8).write(to: database)
            case .truncated, .readOnly:
                for title in ["Milk", "Eggs", "Bread"] {
                    #expect(try arrange.run(["add", title, "--db", database.path]).status == 0)
                }
                #expect(try arrange.run(["run", "--db", database.path], input: "").status == 0)
                if damage == .truncated {
                    let whole = try Data(contentsOf: database)
                    try whole.prefix(whole.count / 2).write(to: database)
                } else {
                    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: database.path)
                }
            }
            defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: database.path) }
            let bytes = try Data(contentsOf: database)
            let run = try arrange.run(arguments + ["--db", database.path], input: #"{"intent": "lists"}"# + "\n")
            #expect(run.status != 0)
            let lines = run.error.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("error: ") && lines[0].contains(database.path), "\(run.error)")
            #expect(try Data(contentsOf: database) == bytes, "the file must keep its bytes")
        }
    }
}
