import Foundation
import GRDB
import Testing

/// The built `arrange`, run as a person or a script would, each test in a home folder of its own.
@Suite("arrange, end to end", .enabled(if: Executable.url != nil, "arrange is built by swift build --build-tests"))
struct EndToEndTests {
    /// Runs `body` with an executable whose home is a fresh temporary folder.
    func withArrange(_ body: (Executable) async throws -> Void) async throws {
        try await withTemporaryFolder { home in try await body(Executable(home: home)) }
    }

    /// The result of a `--json` run as a dictionary.
    func json(_ run: Executable.Run, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(run.status == 0, "\(run.error)", sourceLocation: sourceLocation)
        return try jsonObject(run.output)
    }

    /// The titles `list --json` shows, in order.
    func titles(_ arrange: Executable, _ arguments: [String] = []) throws -> [String] {
        let items = try #require(try json(arrange.run(["list", "--json"] + arguments))["items"] as? [[String: Any]])
        return items.compactMap { $0["title"] as? String }
    }

    @Test("The first run creates the database under XDG_DATA_HOME's default, with an Inbox")
    func firstRun() async throws {
        try await withArrange { arrange in
            let run = try arrange.run(["lists"])
            #expect(run.status == 0, "\(run.error)")
            #expect(run.output == "Inbox  0 open  (default)\n")
            let database = arrange.home.appendingPathComponent(".local/share/arrange/arrange.sqlite")
            #expect(FileManager.default.fileExists(atPath: database.path))

            let elsewhere = arrange.home.appendingPathComponent("data")
            #expect(try arrange.run(["lists"], environment: ["XDG_DATA_HOME": elsewhere.path]).status == 0)
            #expect(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("arrange/arrange.sqlite").path))
        }
    }

    @Test("Output that cannot be written ends the command with one error line and status 73", .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func unwritableOutput() async throws {
        try await withArrange { arrange in
            #expect(try arrange.run(["add", "Milk"]).status == 0)
            let executable: URL = try #require(Executable.url)
            // Every write to /dev/full fails as a full disk does.
            let full: FileHandle = try #require(FileHandle(forWritingAtPath: "/dev/full"))
            let process = Process()
            process.executableURL = executable
            process.arguments = ["list", "--json"]
            process.environment = arrange.environment()
            process.standardOutput = full
            let error = Pipe()
            process.standardError = error
            try process.run()
            let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 73)
            #expect(message.hasPrefix("error: The output cannot be written") && message.filter { $0 == "\n" }.count == 1, "\(message)")
        }
    }

    @Test("The default list is remembered by id: renaming Inbox keeps it the default; a chosen name moves the default")
    func defaultListByID() async throws {
        try await withArrange { arrange in
            #expect(try arrange.run(["rename-list", "Inbox", "Home"]).status == 0)
            #expect(try arrange.run(["add", "Milk"]).status == 0)
            #expect(try arrange.run(["lists"]).output == "Home  1 open  (default)\n", "no second Inbox")
            #expect(try titles(arrange) == ["Milk"])

            let chosen = try arrange.run(["lists"], environment: ["ARRANGE_DEFAULT_LIST": "Inbox"])
            #expect(chosen.output == "Home   1 open\nInbox  0 open  (default)\n", "\(chosen.output)\(chosen.error)")
            #expect(try arrange.run(["delete-list", "Inbox"]).status == 1, "the default list cannot be deleted")
            #expect(try arrange.run(["lists", "--default-list", "home"]).output == "Home   1 open  (default)\nInbox  0 open\n")
        }
    }

    @Test("edit changes a title, notes or both; --notes '' clears them, and an edit of nothing is refused")
    func edit() async throws {
        try await withArrange { arrange in
            #expect(try arrange.run(["add", "Milk"]).status == 0)
            #expect(try arrange.run(["edit", "#1", "--notes", "Oat, not soy"]).status == 0)
            let shown = try json(arrange.run(["show", "#1", "--json"]))
            #expect((shown["item"] as? [String: Any])?["notes"] as? String == "Oat, not soy")
            #expect(try arrange.run(["edit", "#1", "--title", "Oat milk", "--notes", ""]).output.hasPrefix("Edited "))
            let edited = try #require(try json(arrange.run(["show", "#1", "--json"]))["item"] as? [String: Any])
            #expect(edited["title"] as? String == "Oat milk" && edited["notes"] as? String == "")

            let nothing = try arrange.run(["edit", "#1"])
            #expect(nothing.status != 0)
            #expect(nothing.error.contains("Say what to change") && nothing.error.split(separator: "\n").count == 1, "\(nothing.error)")
            #expect(try titles(arrange) == ["Oat milk"])

            #expect(try arrange.run(["add", "Call", "the", "plumber", "--today"]).status == 0)
            let today = try #require(try json(arrange.run(["today", "--json"]))["items"] as? [[String: Any]])
            #expect(today.compactMap { $0["title"] as? String } == ["Call the plumber"])
        }
    }

    @Test("move --into LIST with no placement puts the items at the bottom of LIST")
    func moveIntoBottom() async throws {
        try await withArrange { arrange in
            for (title, list) in [("A", "Inbox"), ("B", "Inbox"), ("X", "Work"), ("Y", "Work")] {
                if list == "Work", title == "X" { #expect(try arrange.run(["create-list", "Work"]).status == 0) }
                #expect(try arrange.run(["add", title, "--list", list]).status == 0)
            }
            let moved = try arrange.run(["move", "#1", "--into", "Work"])
            #expect(moved.output.hasPrefix("Moved \"A\" (") && moved.output.hasSuffix("), now #3 of Work.\n"), "\(moved.output)\(moved.error)")
            #expect(try titles(arrange, ["--list", "Work"]) == ["X", "Y", "A"])
            #expect(try titles(arrange) == ["B"])
        }
    }

    @Test("move-list and today: the lists in their order, Today across lists, in text")
    func orderingCommands() async throws {
        try await withArrange { arrange in
            for title in ["A", "B", "C"] { #expect(try arrange.run(["add", title]).status == 0) }
            #expect(try arrange.run(["create-list", "Work"]).status == 0)
            #expect(try arrange.run(["create-list", "Errands", "--top"]).status == 0)
            #expect(try arrange.run(["lists"]).output == "Errands  0 open\nInbox    3 open  (default)\nWork     0 open\n")
            #expect(try arrange.run(["move-list", "Work", "--after", "Errands"]).output
                == "Moved. The lists:\nErrands  0 open\nWork     0 open\nInbox    3 open  (default)\n")
            let added = try arrange.run(["today", "add", "#3", "#1"])
            #expect(added.output.hasPrefix("Added \"C\" (") && added.output.hasSuffix("), now #2 of Today.\n"), "\(added.output)\(added.error)")
            #expect(try arrange.run(["today", "move", "#2", "--top"]).status == 0)
            let today = try arrange.run(["today"]).output
            #expect(today.hasPrefix("Today: 2 open\n  #1  ") && today.contains("  A  (Inbox)\n  #2  "), "\(today)")
            #expect(try arrange.run(["complete", "#1"]).status == 0, "A, #1 of Inbox")
            #expect(try arrange.run(["today"]).output.hasPrefix("Today: 1 open\n"))
            #expect(try arrange.run(["today", "--all"]).output.hasPrefix("Today: 1 open, 1 done\n"))
            #expect(try arrange.run(["today", "remove", "#1"]).output == "Took \"C\" out of Today.\n")
            #expect(try arrange.run(["validate", "--scope", "lists"]).output == "The lists: 3 lists, keys in good order.\n")
            #expect(try arrange.run(["normalize", "--scope", "today"]).output.hasPrefix("Renumbered Today: "))

            let wrong = try arrange.run(["today", "remove", "#1"])
            #expect(wrong.status == 1 && wrong.error == "error: #1 is past the end: 'Today' has no open items.\n", "\(wrong.error)")
            let itself = try arrange.run(["move-list", "Work", "--before", "Work"])
            #expect(itself.status == 1 && itself.error.contains("cannot be placed next to itself"))
            #expect(try arrange.run(["move-list", "Work"]).error.hasPrefix("error: Say where: --top, --bottom, --before LIST"))
        }
    }

    @Test("export writes JSON, Markdown and CSV; import of the JSON into another database reproduces it byte for byte; a bad file changes nothing")
    func exportAndImport() async throws {
        try await withArrange { arrange in
            for title in ["Milk", "Eggs"] { #expect(try arrange.run(["add", title]).status == 0) }
            #expect(try arrange.run(["create-list", "Work", "--top"]).status == 0)
            #expect(try arrange.run(["complete", "#2"]).status == 0)
            #expect(try arrange.run(["today", "add", "#1"]).status == 0)
            // In the Trash: in the JSON, with its trashedAt, and in the CSV; not in the Markdown.
            #expect(try arrange.run(["add", "Bread"]).status == 0)
            #expect(try arrange.run(["delete", "#2"]).status == 0)
            #expect(try arrange.run(["export", "--format", "markdown"]).output == "# Work\n\n# Inbox\n\n- [ ] Milk\n- [x] Eggs\n")
            let csv = try arrange.run(["export", "--format", "csv", "--list", "Inbox"]).output
            #expect(csv.hasPrefix("list,title,notes,completed,completed_at,created_at,updated_at,today,id,list_id,start_date,someday,evening,deadline,status,trashed_at,reminder\r\nInbox,Milk,,false,,"))
            #expect(csv.split(separator: "\r\n").last?.hasPrefix("Inbox,Bread,") == true && csv.split(separator: "\r\n").last?.hasSuffix(",open,") == false)
            let file = arrange.home.appendingPathComponent("export.json").path
            #expect(try arrange.run(["export", "--output", file]).output == "Exported 2 lists and 3 items to \(file).\n")
            let exported = try String(contentsOfFile: file, encoding: .utf8)
            #expect(try arrange.run(["export"]).output == exported, "standard output gets the same JSON")

            let other = arrange.home.appendingPathComponent("other.sqlite").path
            let imported = try arrange.run(["import", file, "--db", other])
            #expect(imported.output == "Imported from \(file): 2 lists added, 0 merged; 3 items added, 0 updated.\n", "\(imported.error)")
            #expect(try arrange.run(["export", "--db", other]).output == exported)
            #expect(try arrange.run(["trash", "--db", other]).output.contains("  Bread  (Inbox)"), "it arrives in the Trash")
            #expect(try arrange.run(["import", file, "--db", other]).output.hasSuffix("0 lists added, 2 merged; 0 items added, 3 updated.\n"))

            let before = try arrange.run(["export"]).output
            let broken = arrange.home.appendingPathComponent("broken.json").path
            try String(exported.prefix(exported.count / 2)).write(toFile: broken, atomically: true, encoding: .utf8)
            let refused = try arrange.run(["import", broken])
            #expect(refused.status == 1 && refused.error.hasPrefix("error: The file is not valid JSON: it ends early, at line "), "\(refused.error)")
            let newer = arrange.home.appendingPathComponent("newer.json").path
            try exported.replacingOccurrences(of: #""version" : \d+"#, with: "\"version\" : 16", options: .regularExpression).write(toFile: newer, atomically: true, encoding: .utf8)
            #expect(try arrange.run(["import", newer]).error.hasPrefix("error: The file is in format version 16"))
            #expect(try arrange.run(["import", arrange.home.appendingPathComponent("missing.json").path]).status == 66)
            #expect(try arrange.run(["export", "--output", "/nonexistent/folder/x.json"]).status == 73)
            #expect(try arrange.run(["export"]).output == before, "the refused files changed nothing")
        }
    }

    @Test("import things reads a Things 3 database, prints a summary, updates on a second run, and refuses what is not one")
    func importThings() async throws {
        try await withArrange { arrange in
            let things = arrange.home.appendingPathComponent("main.sqlite").path
            let queue = try DatabaseQueue(path: things)
            try await queue.write { db in
                try db.execute(sql: #"CREATE TABLE TMArea (uuid TEXT, title TEXT, "index" INTEGER)"#)
                try db.execute(sql: """
                    CREATE TABLE TMTask (uuid TEXT, title TEXT, notes TEXT, type INTEGER, status INTEGER, trashed INTEGER, start INTEGER,
                      startDate INTEGER, deadline INTEGER, deadlineSuppressionDate INTEGER, area TEXT, project TEXT, heading TEXT,
                      "index" INTEGER, todayIndex INTEGER, creationDate REAL, userModificationDate REAL, stopDate REAL, rt1_recurrenceRule BLOB)
                    """)
                try db.execute(sql: #"CREATE TABLE TMChecklistItem (uuid TEXT, title TEXT, task TEXT, "index" INTEGER, status INTEGER, stopDate REAL)"#)
                try db.execute(sql: #"INSERT INTO TMChecklistItem VALUES ('x', 'Red ones', 'a', 0, 0, NULL)"#)
                try db.execute(sql: """
                    INSERT INTO TMTask (uuid, title, notes, type, status, trashed, start, "index", todayIndex, project, stopDate) VALUES
                      ('p', 'Garden', '', 1, 0, 0, 1, 0, 0, NULL, NULL),
                      ('a', 'Plant roses', '', 0, 0, 0, 1, 1, 0, 'p', NULL),
                      ('b', 'Buy milk', '', 0, 3, 0, 0, 0, 0, NULL, 1800000000),
                      ('c', 'Gone', '', 0, 0, 1, 0, 2, 0, NULL, NULL)
                    """)
            }
            try queue.close()
            let first = try arrange.run(["import", "things", things])
            #expect(
                first.output == "Imported from Things: 2 lists, 3 to-dos (1 completed, 0 cancelled), 0 in Today, 1 checklist item, 1 in the Trash.\n",
                "\(first.error)")
            #expect(try arrange.run(["lists"]).output == "Inbox   0 open, 1 done  (default)\nGarden  1 open\n")
            #expect(try arrange.run(["trash"]).output.contains("  Gone  (Inbox)"), "the trashed to-do arrives in the Trash")
            let second = try arrange.run(["import", "things", things])
            #expect(second.output.hasSuffix(" 3 to-dos were there already and were updated.\n"))
            #expect(try arrange.run(["lists"]).output == "Inbox   0 open, 1 done  (default)\nGarden  1 open\n", "nothing duplicated")

            let notThings = arrange.home.appendingPathComponent("other.sqlite").path
            try await DatabaseQueue(path: notThings).write { try $0.execute(sql: "CREATE TABLE t (x)") }
            let refused = try arrange.run(["import", "things", notThings])
            #expect(refused.status == 1 && refused.error.hasPrefix("error: \(notThings) is not a Things 3 database: "), "\(refused.error)")
            #expect(try arrange.run(["import", "things", arrange.home.appendingPathComponent("missing.sqlite").path]).status == 66)
        }
    }

    @Test("Every subcommand works on the same database, in text and in JSON")
    func subcommands() async throws {
        try await withArrange { arrange in
            #expect(try arrange.run(["create-list", "Groceries"]).output == "Created the list \"Groceries\".\n")
            let milk = try arrange.run(["add", "Buy milk", "--list", "Groceries"])
            #expect(milk.output.hasPrefix("Added \"Buy milk\" ("))
            #expect(milk.output.hasSuffix("), now #1 of Groceries.\n"))
            let eggs = try json(arrange.run(["add", "Eggs", "--list", "Groceries", "--top", "--json"]))
            let eggsID = try #require((eggs["items"] as? [[String: Any]])?.first?["id"] as? String)
            #expect(eggs["rowsWritten"] as? Int == 1)
            try arrange.run(["add", "Bread", "--list", "Groceries", "--after", String(eggsID.prefix(6))])
            #expect(try titles(arrange, ["--list", "Groceries"]) == ["Eggs", "Bread", "Buy milk"])

            let listing = try arrange.run(["list", "--list", "Groceries"])
            #expect(listing.output.hasPrefix("Groceries: 3 open\n  #1  \(eggsID.prefix(8))  Eggs\n  #2  "))

            let moved = try arrange.run(["move", "#3", "--top", "--from", "Groceries"])
            #expect(moved.output.contains("Moved \"Buy milk\""), "\(moved.error)")
            #expect(moved.output.contains("now #1 of Groceries"))
            try arrange.run(["move", "--from-offsets", "0", "--to-offset", "3", "--list", "Groceries"])
            #expect(try titles(arrange, ["--list", "Groceries"]) == ["Eggs", "Bread", "Buy milk"])

            try arrange.run(["rename", "#2", "Rye", "bread", "--list", "Groceries"])
            let shown = try json(arrange.run(["show", "#2", "--list", "Groceries", "--json"]))
            #expect((shown["item"] as? [String: Any])?["title"] as? String == "Rye bread")
            #expect(try arrange.run(["show", "#2", "--list", "Groceries"]).output.hasPrefix("title:     Rye bread\n"))

            #expect(try arrange.run(["complete", "#1", "--list", "Groceries"]).output == "Completed \"Eggs\".\n")
            #expect(try titles(arrange, ["--list", "Groceries"]) == ["Rye bread", "Buy milk"])
            #expect(try titles(arrange, ["--list", "Groceries", "--all"]) == ["Eggs", "Rye bread", "Buy milk"])
            #expect(try arrange.run(["reopen", eggsID]).output == "Reopened \"Eggs\".\n")
            // Canceled: done, shown marked, in the Logbook as canceled; reopen opens it again.
            #expect(try arrange.run(["cancel", "#1", "--list", "Groceries"]).output == "Canceled \"Eggs\".\n")
            let canceled = try json(arrange.run(["show", eggsID, "--json"]))["item"] as? [String: Any]
            #expect(canceled?["status"] as? String == "canceled" && canceled?["completed"] as? Bool == false && canceled?["completedAt"] != nil)
            #expect(try arrange.run(["show", eggsID]).output.contains("status:    canceled "))
            #expect(try arrange.run(["logbook"]).output.contains("✗ Eggs"))
            #expect(try arrange.run(["cancel", eggsID]).output == "Already done: \"Eggs\".\n")
            #expect(try arrange.run(["reopen", eggsID]).output == "Reopened \"Eggs\".\n")
            #expect(try json(arrange.run(["show", eggsID, "--json"]))["item"].flatMap { ($0 as? [String: Any])?["status"] as? String } == "open")
            #expect(try arrange.run(["delete", "#3", "--list", "Groceries"]).output == "Moved \"Buy milk\" to the Trash.\n")
            #expect(try arrange.run(["trash"]).output.contains("  Buy milk  (Groceries)"))
            #expect(try arrange.run(["trash", "empty"]).output == "Deleted 1 thing for good.\n")
            #expect(try arrange.run(["trash"]).output == "The Trash is empty.\n")

            #expect(try arrange.run(["validate", "--list", "Groceries"]).output == "Groceries: 2 items, keys in good order.\n")
            #expect(try json(arrange.run(["validate", "--list", "Groceries", "--repair", "--json"]))["healthy"] as? Bool == true)
            #expect(try arrange.run(["normalize", "--list", "Groceries"]).output.hasPrefix("Renumbered Groceries: "))
            #expect(try arrange.run(["rename-list", "Groceries", "Shopping"]).output == "Renamed the list to \"Shopping\".\n")
            let lists = try json(arrange.run(["lists", "--json"]))["lists"] as? [[String: Any]]
            #expect(lists?.compactMap { $0["name"] as? String } == ["Inbox", "Shopping"])
            #expect(try arrange.run(["delete-list", "shopping"]).output == "Moved the list \"Shopping\" and its 2 items to the Trash.\n")
        }
    }

    @Test("when and deadline set an item's dates, which list, show and --json tell; bad words are refused with usage and change nothing")
    func dates() async throws {
        try await withArrange { arrange in
            try arrange.run(["add", "Taxes"])
            try arrange.run(["add", "Novel"])
            let set = try arrange.run(["when", "#1", "2026-12-01", "--evening"])
            #expect(set.output == "\"Taxes\": from 2026-12-01, in the evening.\n", "\(set.error)")
            #expect(try arrange.run(["when", "#2", "someday"]).output == "\"Novel\": someday.\n")
            #expect(try arrange.run(["deadline", "#1", "#2", "2027-04-15"]).output == "\"Taxes\", \"Novel\": due 2027-04-15.\n")
            #expect(try arrange.run(["deadline", "#2", "none"]).output == "\"Novel\": no deadline.\n")
            let listing = try arrange.run(["list"]).output
            #expect(listing.contains("Taxes  [from 2026-12-01, in the evening, due 2027-04-15]\n"), "\(listing)")
            #expect(listing.contains("Novel  [someday]\n"), "\(listing)")
            let shown = try arrange.run(["show", "#1"]).output
            #expect(shown.contains("when:      from 2026-12-01, in the evening\ndeadline:  2027-04-15\n"), "\(shown)")
            let item = try #require((try json(arrange.run(["show", "#1", "--json"]))["item"] as? [String: Any]))
            #expect(item["startDate"] as? String == "2026-12-01" && item["evening"] as? Bool == true && item["deadline"] as? String == "2027-04-15")
            let evening = try json(arrange.run(["when", "#2", "evening", "--json"]))
            let novel = try #require((evening["items"] as? [[String: Any]])?.first)
            #expect(novel["evening"] as? Bool == true && novel["someday"] as? Bool == false && novel["startDate"] as? String != nil)
            // In words, relative to --day (Friday 2026-11-27).
            #expect(try arrange.run(["when", "#1", "next", "friday", "--day", "2026-11-27"]).output == "\"Taxes\": from 2026-12-04.\n")
            #expect(try arrange.run(["deadline", "#1", "#2", "in", "2", "weeks", "--day", "2026-11-27"]).output == "\"Taxes\", \"Novel\": due 2026-12-11.\n")
            try arrange.run(["add", "Rent", "--when", "this weekend", "--deadline", "dec 1", "--day", "2026-11-27"])
            #expect(try arrange.run(["list"]).output.contains("Rent  [from 2026-11-28, due 2026-12-01]\n"))
            // A time at the end sets a reminder; remind sets one alone, or takes it away.
            #expect(try arrange.run(["when", "#1", "dec", "24", "@9:30", "--day", "2026-11-27"]).output == "\"Taxes\": from 2026-12-24, reminder at 09:30.\n")
            #expect(try arrange.run(["remind", "#2", "18:00"]).output.hasPrefix("\"Novel\": reminder at 18:00 on "))
            #expect(try arrange.run(["remind", "#2", "none"]).output == "\"Novel\": no reminder.\n")
            try arrange.run(["when", "#1", "2026-12-01", "--evening"])
            try arrange.run(["remind", "#1", "none"])
            try arrange.run(["deadline", "#1", "2027-04-15"])
            try arrange.run(["delete", "#3"])

            let before = try arrange.run(["list", "--json", "--all"]).output
            for (arguments, message) in [
                (["when", "#1", "2026-02-30"], "'2026-02-30' is not a when"),
                (["when", "#1", "next", "fridya"], "'next fridya' is not a when; write a day as YYYY-MM-DD, or today, tonight, tomorrow"),
                (["when", "#1", "tomorrow", "@25"], "'tomorrow @25' is not a when"),
                (["remind", "#1", "25:00"], "'25:00' is not a time"),
                (["add", "Later", "--when", "yesterday"], "'yesterday' is not a when"),
                (["when", "#1"], "Give at least one item, then when"),
                (["deadline", "#1", "soon"], "'soon' is not a deadline"),
                (["when", "#1", "someday", "--evening"], "'someday' has no day whose evening it could be"),
                (["when", "#9", "today"], "#9 is past the end"),
            ] {
                let run = try arrange.run(arguments)
                #expect(run.status != 0 && run.output == "", "\(arguments)")
                #expect(run.error.contains(message), "\(arguments): \(run.error)")
            }
            #expect(try arrange.run(["list", "--json", "--all"]).output == before)
        }
    }

    @Test("today follows the dates: --day names the day, This Evening comes last, removing a due item dismisses its deadline")
    func todayByDates() async throws {
        try await withArrange { arrange in
            for title in ["Taxes", "Call", "Read"] { try arrange.run(["add", title]) }
            try arrange.run(["deadline", "#1", "2026-01-01"])
            try arrange.run(["when", "#2", "2026-12-01", "--evening"])
            try arrange.run(["when", "#3", "2026-12-02"])
            let first = try arrange.run(["today", "--day", "2026-12-01"]).output
            #expect(first.hasPrefix("Today: 2 open\n  #1  ") && first.contains("Taxes  [due 2026-01-01]  (Inbox)\nThis Evening:\n  #2  "), "\(first)")
            #expect(first.hasSuffix("Call  (Inbox)\n"), "the day's own start date is left out: \(first)")
            let next = try json(arrange.run(["today", "--day", "2026-12-02", "--json"]))
            #expect(next["day"] as? String == "2026-12-02")
            #expect((next["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Taxes", "Call", "Read"], "by the day each arrived")

            // Taxes is overdue whatever day the test runs: taking it out of Today dismisses its deadline.
            #expect(try arrange.run(["today", "remove", "#1"]).output == "Took \"Taxes\" out of Today.\n")
            #expect(try arrange.run(["show", "#1"]).output.contains("deadline:  2026-01-01 (dismissed from Today)\n"))
            #expect(!(try arrange.run(["today", "--day", "2026-12-01"]).output.contains("Taxes")))
            let refused = try arrange.run(["today", "--day", "2026-13-01"])
            #expect(refused.status != 0 && refused.error.contains("2026-13-01"), "\(refused.error)")
        }
    }

    @Test("Errors are one line on standard error, with a non-zero status, and change nothing")
    func errors() async throws {
        try await withArrange { arrange in
            try arrange.run(["add", "One"])
            try arrange.run(["add", "Two"])
            let before = try arrange.run(["list", "--json", "--all"]).output

            for (arguments, message) in [
                (["move", "#7", "--top"], "error: #7 is past the end: 'Inbox' has 2 open items (#1 to #2).\n"),
                (["complete", "#0"], "error: Positions start at #1; 'Inbox' has 2 open items.\n"),
                (["show", "zzzz"], "error: 'zzzz' is not an item reference; use #N (as `list` numbers them), an id, or at least 4 characters of one.\n"),
                (["show", "abc"], "error: 'abc' is too short; give at least 4 characters of an id, or #N.\n"),
                (["add", "  ", "--list", "Inbox"], "error: The title is empty; give it at least one visible character.\n"),
                (["add", "x", "--list", "Nowhere"], "error: No list is named 'Nowhere'. Lists: Inbox.\n"),
                (["move", "#1", "#2", "--after", "#2"], "error: The item or list "),
                (["undo"], "error: Nothing to undo in this session.\n"),
            ] {
                let run = try arrange.run(arguments)
                #expect(run.status == 1, "\(arguments)")
                #expect(run.output == "", "\(arguments)")
                #expect(run.error.hasPrefix(message), "\(arguments): \(run.error)")
                #expect(run.error.filter { $0 == "\n" }.count == 1, "\(arguments): \(run.error)")
            }
            #expect(try arrange.run(["list", "--json", "--all"]).output == before)

            let usage = try arrange.run(["move", "#1"])
            #expect(usage.status == 64)
            #expect(usage.error.contains("Say where: --top, --bottom"))
            let config = try arrange.run(["lists", "--minimum-gap", "0"])
            #expect(config.status == 78)
            #expect(config.error == "error: invalid configuration: The minimum gap must be at least 1; it is 0.\n")
            let input = try arrange.run(["run", arrange.home.appendingPathComponent("missing.jsonl").path])
            #expect(input.status == 66)
            #expect(input.error.hasPrefix("error: Cannot read "))
            let database = try arrange.run(["lists", "--db", arrange.home.path])
            #expect(database.status == 74, "a folder is no database: \(database.error)")
        }
    }

    @Test("A malformed reference is refused as the command line is parsed: exit status 1, its own message, and no database created")
    func malformedReferenceOpensNoDatabase() async throws {
        try await withArrange { arrange in
            let database = arrange.home.appendingPathComponent("NEW.sqlite").path
            for (arguments, message) in [
                (["move", "#x", "--top"], "error: '#x' is not an item reference; use #N (as `list` numbers them), an id, or at least 4 characters of one.\n"),
                (["complete", "#1", "abc"], "error: 'abc' is too short; give at least 4 characters of an id, or #N.\n"),
            ] {
                let run = try arrange.run(arguments + ["--db", database])
                #expect(run.status == 1, "\(arguments)")
                #expect(run.output == "" && run.error == message, "\(arguments): \(run.error)")
                #expect(!FileManager.default.fileExists(atPath: database), "\(arguments) created the database")
            }
        }
    }

    @Test("arrange run holds a conversation over a pipe, answering each line at once")
    func conversation() async throws {
        try await withArrange { arrange in
            let conversation = try Conversation(arrange, arguments: ["run"])
            func answer(_ line: String) throws -> [String: Any] {
                try jsonObject(try conversation.send(line))
            }
            #expect(try answer(##"{"intent": "createList", "name": "Groceries"}"##)["ok"] as? Bool == true)
            #expect(try answer(##"{"intent": "add", "list": "Groceries", "title": "Milk"}"##)["ok"] as? Bool == true)
            let bad = try answer("this is not json")
            #expect(bad["ok"] as? Bool == false)
            #expect((bad["error"] as? [String: Any])?["code"] as? String == "invalidJSON")
            #expect(((try answer(##"{"intent": "teleport"}"##))["error"] as? [String: Any])?["code"] as? String == "unknownIntent")
            #expect(((try answer(##"{"intent": "add", "list": "Groceries"}"##))["error"] as? [String: Any])?["code"] as? String == "missingField")
            #expect(((try answer(##"{"intent": "add", "title": 7}"##))["error"] as? [String: Any])?["code"] as? String == "invalidField")
            #expect(try answer(##"{"intent": "add", "list": "Groceries", "title": "Eggs", "placement": "top"}"##)["ok"] as? Bool == true)
            let moved = try answer(##"{"intent": "move", "items": ["#2"], "placement": {"before": "#1"}, "from": "Groceries"}"##)
            #expect((moved["result"] as? [String: Any])?["rowsWritten"] as? Int == 1)
            #expect(try answer(##"{"intent": "move", "list": "Groceries", "fromOffsets": [0], "toOffset": 2}"##)["ok"] as? Bool == true)
            #expect(try answer(##"{"intent": "undo"}"##)["ok"] as? Bool == true)
            let listed = try answer(##"{"intent": "list", "list": "Groceries"}"##)
            let items = try #require((listed["result"] as? [String: Any])?["items"] as? [[String: Any]])
            #expect(items.compactMap { $0["title"] as? String } == ["Milk", "Eggs"])
            #expect(Set(items[0].keys).isSuperset(of: ["id", "list", "title", "sortIndex", "completed"]))
            #expect(try conversation.finish() == 0, "error answers do not fail the run")
        }
    }

    @Test("Without a subcommand and with piped input, lines run as REPL commands")
    func pipedRepl() async throws {
        try await withArrange { arrange in
            let run = try arrange.run([], input: "add Call mum\nbogus\nadd Temp\nundo\nredo\nundo\nlist\nquit\nadd never\n")
            #expect(run.status == 0)
            #expect(run.output.hasSuffix("Inbox: 1 open\n  #1  " + (run.output.split(separator: "#1  ").last ?? "")))
            #expect(run.error == "error: Unknown command 'bogus'; type help for the list.\n")
            #expect(run.output.contains("Undid \"Add Item\".\nRedid \"Add Item\".\nUndid \"Add Item\".\n"))
            #expect(try titles(arrange) == ["Call mum"], "nothing runs after quit")
        }
    }

    @Test("url does what a link of Things' URL scheme asks, answers as x-success would, and refuses a bad link with status 65, changing nothing")
    func links() async throws {
        try await withArrange { arrange in
            let added = try json(arrange.run(["url", "things:///add?titles=Milk%0AEggs&list=Inbox&x-success=drafts://x-callback-url/ok"]))
            let ids = try #require(added["x-things-id"] as? String).split(separator: ",")
            #expect(ids.count == 2)
            #expect(added["x-success"] as? String == "drafts://x-callback-url/ok?x-things-id=" + ids.joined(separator: ","))
            #expect(try titles(arrange) == ["Milk", "Eggs"])

            let refused = try arrange.run(["url", "things:///update?id=\(ids[0])&title=Oat%20milk&x-error=drafts://x-callback-url/failed"])
            #expect(refused.status == 65)
            #expect(refused.error.contains("arrange url --new-token"))
            let failure = try jsonObject(refused.output)
            #expect(failure["code"] as? String == "noLinkToken")
            #expect((failure["x-error"] as? String)?.hasPrefix("drafts://x-callback-url/failed?errorMessage=Links") == true)

            let token = try #require(try json(arrange.run(["url", "--new-token", "--json"]))["token"] as? String)
            #expect(try arrange.run(["url", "things:///update?id=\(ids[0])&title=Oat%20milk&auth-token=wrong"]).status == 65)
            #expect(try titles(arrange) == ["Milk", "Eggs"], "a wrong token changes nothing")
            let updated = try json(arrange.run(["url", "things:///update?id=\(ids[0])&title=Oat%20milk&auth-token=\(token)"]))
            #expect(updated["x-things-id"] as? String == String(ids[0]))
            #expect(try titles(arrange) == ["Oat milk", "Eggs"])

            let lines = try arrange.run(["url", "-"], input: "arrange:///add?title=Bread\n\nthings:///launch\nthings:///add?title=Jam\n")
            #expect(lines.status == 65, "one of the links failed")
            #expect(lines.output.split(separator: "\n").count == 3)
            #expect(try titles(arrange) == ["Oat milk", "Eggs", "Bread", "Jam"], "each link is its own step")

            let version = try json(arrange.run(["url", "things:///version"]))
            #expect(version["x-things-scheme-version"] as? String == "2")
            #expect(try arrange.run(["url"]).status == 64)
        }
    }
}
