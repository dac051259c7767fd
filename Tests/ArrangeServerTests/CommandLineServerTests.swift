import ArrangeModel
import ArrangeSyncHTTPCore
import Foundation
import Testing

/// `arrange sync URL` and `arrange sync pair`, as a person runs them.
@Suite("arrange sync with a server")
struct CommandLineServerTests {
    /// Runs `arrange` with a home folder of its own; answers its status, output and error.
    static func arrange(
        _ arguments: [String], home: URL, environment: [String: String] = [:], executable: URL? = nil
    ) throws -> (status: Int32, output: String, error: String) {
        let executable = try executable ?? #require(ServerFixture.executable?.deletingLastPathComponent().appendingPathComponent("arrange"))
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("ARRANGE_") && !$0.key.hasPrefix("XDG_") }
            .merging(["HOME": home.path]) { $1 }.merging(environment) { $1 }
        return try ServerFixture.runProcess(executable, arguments, environment: environment)
    }

    @Test("Two databases sync through the server with arrange sync URL; a paired device finds its stored token")
    func syncAndPair() async throws {
        let fixture = try ServerFixture()
        let server = try fixture.startServer().absoluteString
        let token = try fixture.user("alice")
        try await withTemporaryFolder { home in
            let (laptop, phone) = (home.appendingPathComponent("laptop.sqlite").path, home.appendingPathComponent("phone.sqlite").path)
            #expect(try Self.arrange(["add", "Milk", "--db", laptop], home: home).status == 0)
            let pushed = try Self.arrange(["sync", server, "--db", laptop], home: home, environment: ["ARRANGE_SYNC_TOKEN": token])
            #expect(pushed.status == 0 && pushed.output.hasPrefix("Sent 2 operations to \(server)"), "\(pushed)")

            let code = try fixture.run(["pair", "--user", "alice"]).trimmingCharacters(in: .whitespacesAndNewlines)
            let paired = try Self.arrange(["sync", "pair", server, code, "--db", phone], home: home)
            #expect(paired.status == 0, "\(paired)")
            let stored = home.appendingPathComponent(".config/arrange/tokens.json").path
            let permissions = try FileManager.default.attributesOfItem(atPath: stored)[.posixPermissions] as? Int
            #expect(permissions == 0o600, "readable by the user alone")
            #expect(!paired.output.contains(try String(contentsOfFile: stored, encoding: .utf8).split(separator: "\"").dropLast().last.map(String.init) ?? "-"))

            let pulled = try Self.arrange(["sync", server, "--json", "--db", phone], home: home)
            #expect(pulled.status == 0, "\(pulled)")
            let summary = try #require(try JSONSerialization.jsonObject(with: Data(pulled.output.utf8)) as? [String: Any])
            #expect(summary["received"] as? Int == 2)
            #expect(try Self.arrange(["list", "--db", phone], home: home).output.contains("Milk"))
        }
    }

    @Test("A server that is down gets one line, a failing status, and the database stays as it was")
    func serverDown() async throws {
        try await withTemporaryFolder { home in
            let database = home.appendingPathComponent("here.sqlite").path
            #expect(try Self.arrange(["add", "Milk", "--db", database], home: home).status == 0)
            let down = try Self.arrange(["sync", "http://127.0.0.1:9", "--db", database], home: home, environment: ["ARRANGE_SYNC_TOKEN": "x"])
            #expect(down.status != 0)
            #expect(down.error.split(separator: "\n").count == 1 && down.error.contains("cannot be reached"), "\(down.error)")
            let missing = try Self.arrange(["sync", "http://127.0.0.1:9", "--db", database], home: home)
            #expect(missing.status != 0 && missing.error.contains("No token"), "\(missing.error)")
            #expect(try Self.arrange(["list", "--db", database], home: home).output.contains("Milk"))
        }
    }

    @Test("arrange without a working arrange-remote-http, beside it or on PATH, says so in one line when it syncs, and the database stays as it was")
    func helperMissing() async throws {
        try await withTemporaryFolder { home in
            // arrange alone in a folder of its own, with its resources, and a PATH without the build's folder.
            let built = try #require(ServerFixture.executable?.deletingLastPathComponent())
            let alone = home.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: alone, withIntermediateDirectories: true)
            for name in try FileManager.default.contentsOfDirectory(atPath: built.path) where name == "arrange" || name.hasSuffix(".resources") {
                try FileManager.default.copyItem(at: built.appendingPathComponent(name), to: alone.appendingPathComponent(name))
            }
            let arrange = alone.appendingPathComponent("arrange")
            let database = home.appendingPathComponent("here.sqlite").path
            #expect(try Self.arrange(["add", "Milk", "--db", database], home: home, executable: arrange).status == 0)
            let before = try Data(contentsOf: URL(fileURLWithPath: database))
            let sync = try Self.arrange(
                ["sync", "http://127.0.0.1:9", "--db", database], home: home,
                environment: ["ARRANGE_SYNC_TOKEN": "x", "PATH": "/usr/bin:/bin"], executable: arrange)
            #expect(sync.status != 0)
            #expect(sync.error.split(separator: "\n").count == 1 && sync.error.contains("needs arrange-remote-http"), "\(sync.error)")
            #expect(sync.error.contains(alone.path), "\(sync.error)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)

            // A helper that cannot run (its libraries missing, say) is named as the cause, with what it said.
            let broken = alone.appendingPathComponent("arrange-remote-http")
            try "#!/bin/sh\necho 'error while loading shared libraries: libcurl.so.4' >&2\nexit 127\n".write(to: broken, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: broken.path)
            let failed = try Self.arrange(
                ["sync", "http://127.0.0.1:9", "--db", database], home: home,
                environment: ["ARRANGE_SYNC_TOKEN": "x", "PATH": "/usr/bin:/bin"], executable: arrange)
            #expect(failed.status != 0)
            #expect(failed.error.split(separator: "\n").count == 1, "\(failed.error)")
            #expect(failed.error.contains("arrange-remote-http ended with status 127 before it answered: error while loading shared libraries"), "\(failed.error)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
        }
    }

    @Test("A statement the database refuses, in a transaction or not, gets one line with PostgreSQL's own message")
    func databaseRefuses() throws {
        let fixture = try ServerFixture()
        try fixture.run(["user", "add", "alice"])
        // A schema damaged by hand: the folds' table is gone.
        _ = try fixture.value("DROP TABLE folds")
        let executable = try #require(ServerFixture.executable)
        let run = try ServerFixture.runProcess(executable, ["fold", "--user", "alice"], environment: ["DATABASE_URL": fixture.databaseURL])
        #expect(run.status != 0)
        #expect(run.error == "Error: The database refused: relation \"folds\" does not exist.\n")
    }

    @Test("arrange share: create prints a code, join brings the list, members lists them, today add is the member's own, leave and a member's delete-list keep a copy; bad input gets one line and changes nothing")
    func share() async throws {
        let fixture = try ServerFixture()
        let server = try fixture.startServer().absoluteString
        let (alice, bob) = (try fixture.user("alice"), try fixture.user("bob"))
        try await withTemporaryFolder { home in
            let (mine, theirs) = (home.appendingPathComponent("alice.sqlite").path, home.appendingPathComponent("bob.sqlite").path)
            func run(_ arguments: [String], _ database: String, token: String) throws -> (status: Int32, output: String, error: String) {
                try Self.arrange(arguments + ["--db", database], home: home, environment: ["ARRANGE_SYNC_TOKEN": token])
            }
            #expect(try run(["create-list", "Groceries"], mine, token: alice).status == 0)
            #expect(try run(["add", "Milk", "--list", "Groceries"], mine, token: alice).status == 0)

            // Refused, each in one line, with nothing changed.
            let unsynced = try run(["share", "create", "Groceries"], mine, token: alice)
            #expect(unsynced.status != 0 && unsynced.error.contains("syncs with no server"), "\(unsynced)")
            #expect(try run(["sync", server], mine, token: alice).status == 0)
            let inbox = try run(["share", "create", "Inbox"], mine, token: alice)
            #expect(inbox.status != 0 && inbox.error.contains("default list"), "\(inbox)")
            let unknown = try run(["share", "join", "AAAA-BBBB-CCCC"], theirs, token: bob)
            #expect(unknown.status != 0 && unknown.error.split(separator: "\n").count == 1, "\(unknown)")

            let created = try run(["share", "create", "Groceries", "--role", "edit", "--json"], mine, token: alice)
            #expect(created.status == 0, "\(created)")
            let invite = try SyncProtocol.decoder.decode(ShareInvite.self, from: Data(created.output.utf8))
            #expect(invite.role == .edit)
            let joined = try run(["share", "join", invite.code, "--server", server], theirs, token: bob)
            #expect(joined.status == 0 && joined.output.contains("Joined Groceries, shared by alice (edit)"), "\(joined)")
            let lists = try run(["lists", "--json"], theirs, token: bob)
            #expect(lists.output.contains(#""shared":{"owned":false,"owner":"alice","role":"edit"}"#), "\(lists)")
            #expect(try run(["list", "Groceries"], theirs, token: bob).output.contains("Milk"))
            let members = try run(["share", "members", "Groceries", "--json"], mine, token: alice)
            #expect(members.output.contains(#"{"members":[{"owner":true,"role":"edit","user":"alice"},{"owner":false,"role":"edit","user":"bob"}]}"#), "\(members)")
            let again = try run(["share", "join", invite.code], theirs, token: bob)
            #expect(again.status != 0 && again.error.contains("used already"), "\(again)")

            // Bob's Today is his own: adding alice's item to it sets no date she sees.
            #expect(try run(["today", "add", "#1", "--list", "Groceries"], theirs, token: bob).status == 0)
            let shown = try run(["show", "#1", "--list", "Groceries"], theirs, token: bob)
            #expect(shown.output.contains("today:     added by you on") && !shown.output.contains("when:"), "\(shown)")
            #expect(try run(["today"], theirs, token: bob).output.contains("Milk"))
            for (database, token) in [(theirs, bob), (mine, alice)] { #expect(try run(["sync", server], database, token: token).status == 0) }
            #expect(!(try run(["today"], mine, token: alice).output.contains("Milk")), "alice's Today is hers")

            // A member who deletes a shared list leaves it; `share leave` does the same.
            #expect(try run(["create-list", "Garden"], mine, token: alice).status == 0)
            let garden = try SyncProtocol.decoder.decode(
                ShareInvite.self, from: Data(try run(["share", "create", "Garden", "--json"], mine, token: alice).output.utf8))
            #expect(try run(["share", "join", garden.code], theirs, token: bob).status == 0)
            let deleted = try run(["delete-list", "Garden"], theirs, token: bob)
            #expect(deleted.status == 0 && deleted.output.contains("Left Garden"), "\(deleted)")
            #expect(try run(["lists"], mine, token: alice).output.contains("Garden"), "alice's list is still hers")
            let left = try run(["share", "leave", "Groceries"], theirs, token: bob)
            #expect(left.status == 0, "\(left)")
            #expect(try run(["list", "Groceries"], theirs, token: bob).output.contains("Milk"), "bob keeps what the list held")
            #expect(!(try run(["lists", "--json"], theirs, token: bob).output.contains("shared")))
        }
    }
}
