import Foundation
import GRDB
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

    @Test("A sync log that another program damaged is refused with one line, by sync export, import and PEER")
    func damagedLog() async throws {
        try await withTemporaryFolder { home in
            let arrange = Executable(home: home)
            let (damaged, other) = (home.appendingPathComponent("damaged.sqlite").path, home.appendingPathComponent("other.sqlite").path)
            let operations = home.appendingPathComponent("ops.jsonl").path
            // Both sync: an export logs what each holds.
            for database in [damaged, other] {
                #expect(try arrange.run(["add", "Milk", "--db", database]).status == 0)
                #expect(try arrange.run(["sync", "export", operations, "--db", database]).status == 0)
            }
            // Text where the log keeps a number.
            try DatabaseQueue(path: damaged).write { try $0.execute(sql: "UPDATE sync_operations SET sequence = 'x'") }
            let contents = {
                try DatabaseQueue(path: damaged).read { db in
                    try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").map { table in
                        try Row.fetchAll(db, sql: "SELECT * FROM \(table)").description
                    }
                }
            }
            let before = try contents()
            for arguments in [["sync", "export", "-", "--db", damaged], ["sync", "import", operations, "--db", damaged],
                              ["sync", damaged, "--db", other], ["sync", other, "--db", damaged]] {
                let run = try arrange.run(arguments)
                #expect(run.status != 0, "\(arguments)")
                let lines = run.error.split(separator: "\n")
                #expect(lines.count == 1 && lines[0].hasPrefix("error: ") && lines[0].contains("a row cannot be read"), "\(run.error)")
            }
            #expect(try contents() == before, "nothing written")
        }
    }
}
