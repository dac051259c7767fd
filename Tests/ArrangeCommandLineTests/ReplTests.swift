@testable import ArrangeCommandLine
import ArrangeIntents
import ArrangeModel
import Foundation
import Testing

@Suite("The REPL's lines and completion, without a terminal")
struct ReplTests {
    @Test("Lines run commands in one session; errors print and the loop goes on")
    func lines() async throws {
        let (session, transcript) = try await makeSession(lists: ["Groceries"])
        let repl = Repl(session: session)
        #expect(await repl.prompt() == "arrange Inbox> ")
        for line in ["add Buy milk", "add 'Eggs' --top", "list"] {
            #expect(await repl.handle(line) == .proceed)
        }
        #expect(transcript.output.contains("Added \"Eggs\""))
        #expect(transcript.output.contains("now #1 of Inbox"))
        #expect(transcript.output.hasSuffix("Inbox: 2 open\n  #1  " + transcript.output.split(separator: "#1  ").last!))

        transcript.clear()
        for line in ["move '#9' --top", "bogus", "add", "add 'open quote", "repl", "add x --db /tmp/other.sqlite"] {
            #expect(await repl.handle(line) == .proceed)
        }
        let errors = transcript.error.split(separator: "\n")
        #expect(errors.count == 6, "\(transcript.error)")
        #expect(errors[0] == "error: #9 is past the end: 'Inbox' has 2 open items (#1 to #2).")
        #expect(errors[1] == "error: Unknown command 'bogus'; type help for the list.")
        #expect(errors[2] == "error: Missing expected argument '<title> ...' (see 'add --help')")
        #expect(errors[3].hasPrefix("error: The quote ' at position 5 is never closed"))
        #expect(transcript.output.contains("Usage: arrange add"), "a parse error shows the usage")

        transcript.clear()
        #expect(await repl.handle("use groceries") == .proceed)
        #expect(transcript.output == "Now using Groceries.\n")
        #expect(await repl.prompt() == "arrange Groceries> ")
        _ = await repl.handle("add Apples")
        _ = await repl.handle("undo")
        _ = await repl.handle("list --json")
        #expect(transcript.output.hasSuffix(#""openItems":0,"someday":false,"sortIndex":4294967296,"startDate":null,"status":"open","tags":[],"totalItems":0,"trashedAt":null}}"# + "\n"), "Groceries, made second, sits one end gap below the Inbox")
        #expect(await repl.handle("quit") == .quit)
        #expect(await repl.handle("  ") == .proceed)
    }

    @Test("url runs a link in the session, undone as one step; a refused link prints its failure once; url - is refused")
    func links() async throws {
        let (session, transcript) = try await makeSession(lists: [])
        let repl = Repl(session: session)
        _ = await repl.handle("url 'things:///add?titles=Milk%0AEggs&tags=Errand'")
        #expect(transcript.output.hasPrefix(#"{"x-things-id":""#), "\(transcript.output)\(transcript.error)")
        _ = await repl.handle("undo")
        #expect(transcript.output.contains("Undid \"Open Link\""), "\(transcript.output)")
        transcript.clear()
        _ = await repl.handle("url things:///remove")
        _ = await repl.handle("url -")
        #expect(transcript.output.hasPrefix(#"{"code":"invalidLink""#))
        #expect(transcript.error.split(separator: "\n") == [
            "error: “remove” is no command of the link scheme; use one of add, add-project, update, update-project, json, show, search, version.",
            "error: url reads one link here: url LINK.",
        ])
    }

    @Test("use Today makes #N count Today and list show it; use LIST goes back")
    func useToday() async throws {
        let (session, transcript) = try await makeSession(lists: ["Work"])
        let repl = Repl(session: session)
        for line in ["add A", "add B", "add C", "today add '#3' '#2'"] { _ = await repl.handle(line) }
        transcript.clear()
        #expect(await repl.handle("use today") == .proceed)
        #expect(transcript.output == "Now using Today: #N counts its open items, list shows it and move moves in it.\n")
        #expect(await repl.prompt() == "arrange Today> ")
        transcript.clear()
        _ = await repl.handle("move '#2' --top")
        #expect(transcript.output.hasPrefix("Moved \"B\" (") && transcript.output.hasSuffix("), now #1 of Today.\n"), "a move in Today: \(transcript.output)\(transcript.error)")
        _ = await repl.handle("today add '#1'")
        #expect(transcript.output.contains("Added \"A\" ("), "#N of today add's items counts the list: \(transcript.output)")
        transcript.clear()
        _ = await repl.handle("complete '#1'")
        _ = await repl.handle("list --all")
        #expect(transcript.output.hasPrefix("Completed \"B\""), "#1 of Today is B: \(transcript.output)\(transcript.error)")
        #expect(transcript.output.contains("Today: 2 open, 1 done\n"))
        #expect(transcript.error.isEmpty, "\(transcript.error)")
        transcript.clear()
        _ = await repl.handle("use Work")
        _ = await repl.handle("use")
        #expect(transcript.output == "Now using Work.\nThe current list is Work.\n")
    }

    @Test("help lists every command and explains one")
    func help() async throws {
        let (session, _) = try await makeSession()
        let repl = Repl(session: session)
        let all = repl.help(for: nil)
        // Today's forms are subcommands of `today`, the checklist's of `checklist`; setWhen and
        // setDeadline are the commands `when` and `deadline`.
        let subcommandForms: Set = [
            "add-to-today", "remove-from-today", "move-in-today", "add-checklist-item", "edit-checklist-item", "move-checklist-items",
            "complete-checklist-items", "cancel-checklist-items", "reopen-checklist-items", "delete-checklist-items", "create-area", "rename-area", "move-area", "delete-area",
            "create-heading", "rename-heading", "move-heading", "delete-heading", "set-when", "set-deadline", "set-reminder", "set-repeat",
            "create-tag", "rename-tag", "move-tag", "delete-tag", "tag", "untag", "empty-trash", "set-list-notes",
        ]
        let names = RequestCatalogue.requests.map({ $0.commandName }).filter({ !subcommandForms.contains($0) })
        for name in names + ["checklist", "area", "heading", "tag", "when", "deadline", "remind", "repeat", "list-notes", "use LIST", "use Today", "quit", "run"] {
            #expect(all.contains("\n  \(name)"), "\(name)")
        }
        #expect(!all.contains("repl"))
        #expect(repl.help(for: "move").contains("--from-offsets"))
    }

    @Test("Tab offers commands, lists, #N and id prefixes")
    func completion() async throws {
        let (session, _) = try await makeSession(lists: ["Groceries", "Work"])
        let completer = Completer(session: session)
        for title in ["A", "B", "C"] { _ = try await AddItem(title: title).perform(in: session.environment) }
        _ = try await AddItem(title: "X", list: try await session.resolveList("Work").id).perform(in: session.environment)

        #expect(completer.candidates(lineBeforeCursor: "mo") == ["move-list", "move"])
        #expect(completer.candidates(lineBeforeCursor: "re") == ["rename-list", "reopen-list", "rename", "reopen", "remind", "reminders", "repeat", "resume-repeat", "repeats", "restore", "redo"])
        #expect(completer.candidates(lineBeforeCursor: "trash ") == ["show", "empty"])
        #expect(completer.candidates(lineBeforeCursor: "trash e") == ["empty"])
        #expect(completer.candidates(lineBeforeCursor: "u").sorted() == ["undo", "upcoming", "url", "use"])
        #expect(completer.candidates(lineBeforeCursor: "help com") == ["complete-list", "complete"])
        #expect(completer.candidates(lineBeforeCursor: "use gr") == ["Groceries"])
        #expect(completer.candidates(lineBeforeCursor: "complete-list gr") == ["Groceries"])
        #expect(completer.candidates(lineBeforeCursor: "reopen-list gr") == ["Groceries"])
        #expect(completer.candidates(lineBeforeCursor: "add x --list ") == ["Inbox", "Groceries", "Work"])
        #expect(completer.candidates(lineBeforeCursor: "complete #") == ["#1", "#2", "#3"])
        #expect(completer.candidates(lineBeforeCursor: "move #1 --after ") == ["#1", "#2", "#3"])
        #expect(completer.candidates(lineBeforeCursor: "move #1 --into Work --after #") == ["#1"])
        #expect(completer.candidates(lineBeforeCursor: "show --list Work ") == ["#1"])
        #expect(completer.candidates(lineBeforeCursor: "add ") == [])
        #expect(completer.candidates(lineBeforeCursor: "when ") == ["#1", "#2", "#3"], "the items first")
        #expect(completer.candidates(lineBeforeCursor: "when #1 ").prefix(4) == ["today", "tonight", "evening", "tomorrow"])
        #expect(completer.candidates(lineBeforeCursor: "when #1 ").suffix(5) == ["anytime", "someday", "#1", "#2", "#3"])
        #expect(completer.candidates(lineBeforeCursor: "when #1 s") == ["saturday", "sunday", "someday"])
        #expect(completer.candidates(lineBeforeCursor: "when #1 next fr") == ["friday"], "a word after the first")
        #expect(completer.candidates(lineBeforeCursor: "deadline #2 t") == ["today", "tomorrow", "tuesday", "thursday"])
        #expect(completer.candidates(lineBeforeCursor: "deadline #2 n") == ["next", "none"])
        #expect(completer.candidates(lineBeforeCursor: "remind #") == ["#1", "#2", "#3"])
        #expect(completer.candidates(lineBeforeCursor: "remind #1 n") == ["none"])
        #expect(completer.candidates(lineBeforeCursor: "repeat #") == ["#1", "#2", "#3"])
        #expect(completer.candidates(lineBeforeCursor: "repeat #1 n") == ["none"])
        #expect(completer.candidates(lineBeforeCursor: "pause-repeat ") == [], "nothing repeats yet")
        #expect(completer.candidates(lineBeforeCursor: "deadline --list Work #1 #") == ["#1"])
        #expect(completer.candidates(lineBeforeCursor: "to") == ["today"])
        #expect(completer.candidates(lineBeforeCursor: "today ") == ["show", "add", "remove", "move"])
        #expect(completer.candidates(lineBeforeCursor: "use to") == ["Today"])
        #expect(completer.candidates(lineBeforeCursor: "move-list W") == ["Work"])
        #expect(completer.candidates(lineBeforeCursor: "move-list Work --after ") == ["Inbox", "Groceries", "Work"])
        #expect(completer.candidates(lineBeforeCursor: "validate --scope ") == ["items", "lists", "today", "checklist", "areas", "area", "headings", "heading", "tags"])
        _ = try await CreateArea(name: "Home Life").perform(in: session.environment)
        _ = try await CreateArea(name: "Work").perform(in: session.environment)
        #expect(completer.candidates(lineBeforeCursor: "are") == ["areas", "area"])
        #expect(completer.candidates(lineBeforeCursor: "area ") == ["create", "rename", "move", "delete"])
        #expect(completer.candidates(lineBeforeCursor: "area move h") == ["Home\\ Life"])
        #expect(completer.candidates(lineBeforeCursor: "area move Work --before ") == ["Home\\ Life", "Work"])
        #expect(completer.candidates(lineBeforeCursor: "area create ") == [])
        #expect(completer.candidates(lineBeforeCursor: "move-list Groceries --area w") == ["Work"])
        #expect(completer.candidates(lineBeforeCursor: "create-list Garden --area ") == ["Home\\ Life", "Work"])
        let errand = try await CreateTag(name: "Errand").perform(in: session.environment).tag.id
        _ = try await CreateTag(name: "Eat out", in: .children(of: errand)).perform(in: session.environment)
        #expect(completer.candidates(lineBeforeCursor: "tag ") == ["create", "rename", "move", "delete", "add", "remove"])
        #expect(completer.candidates(lineBeforeCursor: "tag move e") == ["Errand", "Eat\\ out"])
        #expect(completer.candidates(lineBeforeCursor: "tag create Shops --parent er") == ["Errand"])
        #expect(completer.candidates(lineBeforeCursor: "tag create ") == [])
        #expect(completer.candidates(lineBeforeCursor: "list --tag ea") == ["Eat\\ out"])
        #expect(completer.candidates(lineBeforeCursor: "list-when Gr") == ["Groceries"])
        #expect(completer.candidates(lineBeforeCursor: "list-when Groceries so") == ["someday"])
        #expect(completer.candidates(lineBeforeCursor: "list-deadline Groceries n") == ["next", "none"])
        #expect(completer.candidates(lineBeforeCursor: "tag add Errand e") == ["Errand", "Eat\\ out"], "tags, one after another")
        #expect(completer.candidates(lineBeforeCursor: "tag add Errand #") == ["#1", "#2", "#3"], "then the items")
        #expect(completer.candidates(lineBeforeCursor: "tag remove Errand #1 ") == ["#1", "#2", "#3"])
        #expect(completer.candidates(lineBeforeCursor: "tag add Errand --area ho") == ["Home\\ Life"])
        let groceries = try await session.resolveList("Groceries").id
        for title in ["Dairy", "Bakery goods"] { _ = try await CreateHeading(title: title, in: groceries).perform(in: session.environment) }
        #expect(completer.candidates(lineBeforeCursor: "heading ") == ["create", "rename", "move", "delete"])
        #expect(completer.candidates(lineBeforeCursor: "heading move b") == [], "the current list, Inbox, has no headings")
        #expect(completer.candidates(lineBeforeCursor: "heading move --list Groceries b") == ["Bakery\\ goods"])
        #expect(completer.candidates(lineBeforeCursor: "heading move Dairy --list Groceries --after ") == ["Dairy", "Bakery\\ goods"])
        #expect(completer.candidates(lineBeforeCursor: "heading create ") == [])
        #expect(completer.candidates(lineBeforeCursor: "move #1 --into Groceries --heading d") == ["Dairy"])
        #expect(completer.candidates(lineBeforeCursor: "today add #") == ["#1", "#2", "#3"], "#N of the list for the items added")
        #expect(completer.candidates(lineBeforeCursor: "today remove #") == [], "Today is empty")
        let work = try await ListItems(list: try await session.resolveList("Work").id).perform(in: session.environment)
        _ = try await AddToToday(work.items.map(\.id)).perform(in: session.environment)
        #expect(completer.candidates(lineBeforeCursor: "today move #") == ["#1"])
        #expect(completer.candidates(lineBeforeCursor: "today add #1 --before #") == ["#1"], "the anchor counts Today")

        let ids = try await ListItems().perform(in: session.environment).items.map { String($0.id.text.prefix(8)) }
        let first = try #require(ids.first)
        #expect(completer.candidates(lineBeforeCursor: "show " + first.prefix(6)).contains(first))
        #expect(completer.candidates(lineBeforeCursor: "show zz") == [])
        let rent = try await AddItem(title: "Pay rent").perform(in: session.environment).items[0].id
        _ = try await SetRepeat(item: rent, repeat: try RepeatRule(.fixed, every: 1, .day)).perform(in: session.environment)
        #expect(completer.candidates(lineBeforeCursor: "resume-repeat p") == [#"Pay\ rent"#])
    }

    @Test("Tab offers the checklist's subcommands, the item, then its entries where a subcommand takes them")
    func checklistCompletion() async throws {
        let (session, _) = try await makeSession(lists: ["Work"])
        let completer = Completer(session: session)
        let trip = try await AddItem(title: "Trip").perform(in: session.environment).items[0].id
        _ = try await AddItem(title: "Report", list: try await session.resolveList("Work").id).perform(in: session.environment)
        for title in ["Passport", "Charger"] { _ = try await AddChecklistItem(title: title, to: trip).perform(in: session.environment) }

        #expect(completer.candidates(lineBeforeCursor: "che") == ["checklist"])
        #expect(completer.candidates(lineBeforeCursor: "checklist ") == ["show", "add", "edit", "move", "complete", "cancel", "reopen", "delete"])
        #expect(completer.candidates(lineBeforeCursor: "checklist complete #") == ["#1"], "the item: #N of the current list")
        #expect(completer.candidates(lineBeforeCursor: "checklist complete --list Work #") == ["#1"])
        #expect(completer.candidates(lineBeforeCursor: "checklist complete #1 ") == ["#1", "#2"], "the entries of Trip's checklist")
        #expect(completer.candidates(lineBeforeCursor: "checklist move #1 #2 --after #") == ["#1", "#2"])
        #expect(completer.candidates(lineBeforeCursor: "checklist add #1 ") == [], "a title")
        #expect(completer.candidates(lineBeforeCursor: "checklist add #1 Map --before ") == ["#1", "#2"])
        #expect(completer.candidates(lineBeforeCursor: "checklist edit #1 ") == ["#1", "#2"])
        #expect(completer.candidates(lineBeforeCursor: "checklist edit #1 #2 ") == [], "the new title")
        #expect(completer.candidates(lineBeforeCursor: "checklist show #1 ") == [])
        #expect(completer.candidates(lineBeforeCursor: "checklist complete --list ") == ["Inbox", "Work"])
    }
}
