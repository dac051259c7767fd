import ArrangeCommandLine
import ArrangeIntents
import ArrangeModel
import ArrangeSQLite
import ArrangeStore
import Foundation
import Testing

/// One kind of bad input, as `arrange run`, a subcommand and the REPL each receive it.
/// docs/troubleshooting.md lists the same cases.
struct BadInput: CustomTestStringConvertible, Sendable {
    var name: String
    /// A line for `arrange run`.
    var request: String
    /// The same through a subcommand, where argv can carry it.
    var arguments: [String]?
    /// The same as a REPL line, where a line can carry it.
    var replLine: String?

    var testDescription: String { name }

    static let megabyte = String(repeating: "x", count: 1_000_000)

    static let cases: [BadInput] = [
        BadInput(name: "invalid JSON", request: ##"{"intent": "add", "title": "x""##),
        BadInput(name: "truncated line", request: ##"{"intent": "mo"##),
        BadInput(name: "not an object", request: "[1, 2]"),
        BadInput(name: "unknown intent", request: ##"{"intent": "explode"}"##, arguments: ["explode"], replLine: "explode"),
        BadInput(name: "unknown field", request: ##"{"intent": "lists", "colour": "red"}"##, arguments: ["lists", "--colour", "red"], replLine: "lists --colour red"),
        BadInput(name: "missing field", request: ##"{"intent": "rename", "item": "#1"}"##, arguments: ["rename", "#1"], replLine: "rename '#1'"),
        BadInput(name: "wrong field type", request: ##"{"intent": "add", "title": 42}"##,
                 arguments: ["move", "--from-offsets", "x", "--to-offset", "1"], replLine: "move --from-offsets x --to-offset 1"),
        BadInput(name: "huge title (1 MB)", request: ##"{"intent": "add", "title": "\##(megabyte)"}"##,
                 arguments: ["add", String(megabyte.prefix(120_000))], replLine: "add \(megabyte)"),
        BadInput(name: "huge notes (20 KB)", request: ##"{"intent": "add", "title": "x", "notes": "\##(String(megabyte.prefix(20_000)))"}"##,
                 arguments: ["add", "x", "--notes", String(megabyte.prefix(20_000))], replLine: "add x --notes \(megabyte.prefix(20_000))"),
        BadInput(name: "NUL byte", request: ##"{"intent": "add", "title": "a\u0000b"}"##, replLine: "add 'a\u{0}b'"),
        BadInput(name: "control character", request: ##"{"intent": "add", "title": "a\tb"}"##, arguments: ["add", "a\u{7}b"], replLine: "add 'a\u{1B}b'"),
        BadInput(name: "empty title", request: ##"{"intent": "rename", "item": "#1", "title": "  "}"##, arguments: ["add", "   "], replLine: "add '   '"),
        BadInput(name: "negative offset", request: ##"{"intent": "move", "fromOffsets": [-1], "toOffset": 0}"##,
                 arguments: ["move", "--from-offsets=-1", "--to-offset", "0"], replLine: "move --from-offsets=-1 --to-offset 0"),
        BadInput(name: "offset past the end", request: ##"{"intent": "move", "fromOffsets": [0], "toOffset": 99}"##,
                 arguments: ["move", "--from-offsets", "0", "--to-offset", "99"], replLine: "move --from-offsets 0 --to-offset 99"),
        BadInput(name: "placement offset past the end", request: ##"{"intent": "add", "title": "x", "placement": {"offset": 99}}"##,
                 arguments: ["add", "x", "--offset", "99"], replLine: "add x --offset 99"),
        BadInput(name: "duplicate ids in one move", request: ##"{"intent": "move", "items": ["#1", "#1"], "placement": "top"}"##,
                 arguments: ["move", "#1", "#1", "--top"], replLine: "move '#1' '#1' --top"),
        BadInput(name: "moving an item relative to itself", request: ##"{"intent": "move", "items": ["#2"], "placement": {"after": "#2"}}"##,
                 arguments: ["move", "#2", "--after", "#2"], replLine: "move '#2' --after '#2'"),
        BadInput(name: "unknown list", request: ##"{"intent": "add", "title": "x", "list": "Nope"}"##,
                 arguments: ["add", "x", "--list", "Nope"], replLine: "add x --list Nope"),
        BadInput(name: "ambiguous id prefix", request: ##"{"intent": "delete", "items": ["abcd"]}"##, arguments: ["delete", "abcd"], replLine: "delete abcd"),
        BadInput(name: "id prefix too short", request: ##"{"intent": "delete", "items": ["abc"]}"##, arguments: ["delete", "abc"], replLine: "delete abc"),
        BadInput(name: "position #0", request: ##"{"intent": "delete", "items": ["#0"]}"##, arguments: ["delete", "#0"], replLine: "delete '#0'"),
        BadInput(name: "duplicate list name", request: ##"{"intent": "createList", "name": "inbox"}"##, arguments: ["create-list", "INBOX"], replLine: "create-list inbox"),
    ]

    /// Ids that share the prefix `abcd`, so that it is ambiguous.
    static let seededIDs = [
        "abcd0000-0000-4000-8000-000000000001", "abcd0000-0000-4000-8000-000000000002", "ef010000-0000-4000-8000-000000000003",
    ].compactMap(Item.ID.init)

    /// Puts three items, two of them with ids that share a prefix, in the list named Inbox.
    static func seed(_ repository: any ItemRepository) throws {
        try repository.write { transaction in
            let inbox = try transaction.lists().first { $0.name == "Inbox" } ?? {
                let list = ItemList(name: "Inbox", createdAt: Date(timeIntervalSince1970: 1_800_000_000))
                try transaction.insert(list)
                return list
            }()
            for (offset, id) in seededIDs.enumerated() {
                try transaction.insert(Item(id: id, listID: inbox.id, title: "seed \(offset)", sortIndex: Int64(offset) << 32, createdAt: Date(timeIntervalSince1970: 1_800_000_000)))
            }
        }
    }

    /// Everything the repository holds, in a form to compare.
    static func contents(_ repository: any ItemRepository) throws -> [String] {
        try repository.read { transaction in
            try transaction.lists().flatMap { list in
                ["list \(list.id) \(list.name)"] + (try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max)).map {
                    "item \($0.id) \($0.sortIndex) \($0.title) \($0.isCompleted)"
                }
            }
        }
    }
}

@Suite("Bad input changes nothing and gets one clear line")
struct BadInputTests {
    @Test("arrange run answers with an error object and goes on", arguments: BadInput.cases)
    func run(_ input: BadInput) async throws {
        let (session, _) = try await makeSession()
        try BadInput.seed(session.environment.repository)
        let before = try BadInput.contents(session.environment.repository)
        let answer = await RunConversation(session: session).answer(input.request)
        #expect(!answer.contains("\n"))
        let error = try #require(try jsonObject(answer)["error"] as? [String: Any], "\(answer.prefix(300))")
        #expect((error["code"] as? String)?.isEmpty == false)
        #expect((error["message"] as? String).map { !$0.isEmpty && $0.count < 400 } == true, "\(error)")
        #expect(try BadInput.contents(session.environment.repository) == before)
    }

    @Test("The REPL prints one error line and goes on", arguments: BadInput.cases.filter { $0.replLine != nil })
    func repl(_ input: BadInput) async throws {
        let (session, transcript) = try await makeSession()
        try BadInput.seed(session.environment.repository)
        let before = try BadInput.contents(session.environment.repository)
        #expect(await Repl(session: session).handle(try #require(input.replLine)) == .proceed)
        let lines = transcript.error.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("error: "), "\(transcript.error.prefix(300))")
        #expect(try BadInput.contents(session.environment.repository) == before)
    }

    @Test("A subcommand prints one error line, exits non-zero, and leaves the file as it was",
          .enabled(if: Executable.url != nil, "arrange is built by swift build --build-tests"),
          arguments: BadInput.cases.filter { $0.arguments != nil })
    func subcommand(_ input: BadInput) async throws {
        try await withTemporaryFolder { home in
            let arrange = Executable(home: home)
            let database = home.appendingPathComponent("bad-input.sqlite").path
            try BadInput.seed(try SQLiteItemRepository(path: database))
            let before = try BadInput.contents(try SQLiteItemRepository(path: database))
            let run = try arrange.run(try #require(input.arguments) + ["--db", database])
            #expect(run.status != 0)
            #expect(run.output.isEmpty)
            let lines = run.error.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("error: "), "\(run.error.prefix(300))")
            #expect(try BadInput.contents(try SQLiteItemRepository(path: database)) == before)
        }
    }
}
