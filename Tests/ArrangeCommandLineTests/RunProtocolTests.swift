@testable import ArrangeCommandLine
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("The JSON Lines protocol of arrange run")
struct RunProtocolTests {
    @Test("Good requests decode to their intents", arguments: [
        (##"{"intent": "createList", "name": "Groceries"}"##, "Create List"),
        (##"{"intent": "renameList", "list": "Groceries", "name": "Food"}"##, "Rename List"),
        (##"{"intent": "deleteList", "list": "Food"}"##, "Delete List"),
        (##"{"intent": "lists"}"##, "Show Lists"),
        (##"{"intent": "add", "list": "Groceries", "title": "Milk"}"##, "Add Item"),
        (##"{"intent": "add", "title": "Milk", "placement": {"before": "3f2a"}}"##, "Add Item"),
        (##"{"intent": "move", "items": ["#5"], "placement": "top"}"##, "Move Items"),
        (##"{"intent": "move", "items": ["#1"], "placement": {"offset": 2}, "list": "Work"}"##, "Move Items"),
        (##"{"intent": "move", "list": "Work", "fromOffsets": [0, 2], "toOffset": 4}"##, "Move Items"),
        (##"{"intent": "list", "list": "Work", "includeCompleted": true}"##, "List Items"),
        (##"{"intent": "show", "item": "#1"}"##, "Show Item"),
        (##"{"intent": "rename", "item": "#1", "title": "Oat milk"}"##, "Rename Item"),
        (##"{"intent": "edit", "item": "#1", "notes": "Two cartons"}"##, "Edit Item"),
        (##"{"intent": "add", "title": "Call the plumber", "today": true}"##, "Add Item"),
        (##"{"intent": "complete", "items": ["#1", "#2"]}"##, "Complete Items"),
        (##"{"intent": "reopen", "items": ["3f2a"]}"##, "Reopen Items"),
        (##"{"intent": "delete", "items": ["#1"], "list": null}"##, "Delete Items"),
        (##"{"intent": "validate", "list": "Work", "repair": true}"##, "Validate List"),
        (##"{"intent": "normalize", "list": "Work"}"##, "Normalize List"),
        (##"{"intent": "undo"}"##, "Undo"),
        (##"{"intent": "redo"}"##, "Redo"),
    ])
    func good(line: String, title: String) throws {
        let request = try RunRequest(line)
        #expect(intentTitle(of: type(of: request.request)) == title)
    }

    @Test("A line of bytes that are not UTF-8 is refused alone; the lines around it read")
    func invalidUTF8() async throws {
        try await withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("requests.jsonl")
            try Data(Array("one\n".utf8) + [0x66, 0xFF, 0xFE, 0x0A] + Array("zwei drei é\r\n".utf8) + [0xC3]).write(to: file)
            let reader = try LineReader(path: file.path)
            #expect(try reader.readLine() == .success("one"))
            #expect(try reader.readLine() == .failure(IntentFailure(code: "invalidUTF8", message: "The line is not valid UTF-8 text; send requests as UTF-8.")))
            #expect(try reader.readLine() == .success("zwei drei é"))
            #expect(try reader.readLine()?.isSuccess == false, "a character cut at the end")
            #expect(try reader.readLine() == nil)
        }
    }

    @Test("The offset form of move keeps its fields")
    func offsetForm() throws {
        let request = try RunRequest(##"{"intent": "move", "fromOffsets": [3, 1], "toOffset": 0}"##)
        #expect(request.request as? MoveAtOffsetsRequest == MoveAtOffsetsRequest(fromOffsets: [3, 1], toOffset: 0))
    }

    @Test("Bad lines get a code and a message that says what to fix", arguments: [
        ("", "invalidJSON", "not valid JSON"),
        ("{\"intent\": \"add\"", "invalidJSON", "not valid JSON"),
        ("[]", "invalidRequest", "a JSON object"),
        ("42", "invalidRequest", "a JSON object"),
        (##"{"title": "x"}"##, "invalidRequest", #"needs "intent""#),
        (##"{"intent": 3}"##, "invalidRequest", #"needs "intent""#),
        (##"{"intent": "fly"}"##, "unknownIntent", "Unknown intent 'fly'. `arrange run --help` lists every intent."),
        (##"{"intent": "add"}"##, "missingField", "add needs the field 'title', which must be a string."),
        (##"{"intent": "add", "title": "x", "colour": "red"}"##, "unknownField", "add has no field 'colour'; its fields are title, list, placement, notes, today, when, deadline, day."),
        (##"{"intent": "undo", "steps": 2}"##, "unknownField", "undo has no field 'steps'; it takes none."),
        (##"{"intent": "add", "title": ["x"]}"##, "invalidField", "The field 'title' of add must be a string."),
        (##"{"intent": "complete", "items": "#1"}"##, "invalidField", "The field 'items' of complete must be an array of item references (strings)."),
        (##"{"intent": "complete", "items": [1]}"##, "invalidField", "The field 'items' of complete must be an array"),
        (##"{"intent": "move", "items": ["#1"]}"##, "missingField", "move needs the field 'placement'"),
        (##"{"intent": "move", "items": ["#1"], "placement": "middle"}"##, "invalidField", "'middle' is not a placement"),
        (##"{"intent": "move", "items": ["#1"], "placement": {"offset": "2"}}"##, "invalidField", "The field 'placement' of move must be"),
        (##"{"intent": "move", "fromOffsets": [0]}"##, "missingField", "move needs the field 'toOffset', which must be a whole number."),
        (##"{"intent": "move", "fromOffsets": [0], "toOffset": 1.5}"##, "invalidField", "The field 'toOffset' of move must be a whole number"),
        (##"{"intent": "moveList", "fromOffsets": [1e20], "toOffset": 0}"##, "invalidField", "The field 'fromOffsets' of moveList must be an array of whole numbers."),
        (##"{"intent": "list", "includeCompleted": "yes"}"##, "invalidField", "The field 'includeCompleted' of list must be true or false."),
        (##"{"intent": "add", "title": null}"##, "invalidField", "The field 'title' of add must be a string."),
    ])
    func bad(line: String, code: String, message: String) {
        do throws(IntentFailure) {
            _ = try RunRequest(line)
            Issue.record("expected \(code)")
        } catch {
            #expect(error.code == code, "\(error.message)")
            #expect(error.message.contains(message), "\(error.message)")
        }
    }

    @Test("Mangled requests never crash the decoder: each gives an intent or a known error")
    func fuzz() {
        let seeds = [
            ##"{"intent": "move", "items": ["#1", "3f2a"], "placement": {"after": "#2"}, "list": "Work"}"##,
            ##"{"intent": "move", "list": "Work", "fromOffsets": [0, 2], "toOffset": 4}"##,
            ##"{"intent": "add", "title": "Milk", "placement": {"offset": 0}, "notes": "2%"}"##,
            ##"{"intent": "list", "includeCompleted": true}"##,
        ]
        let alphabet = Array(##"{}[]":,0123456789-.eE truefalsnul#\"##.utf8)
        // A malformed reference is refused as the line is read, with its own code.
        let codes: Set = ["invalidJSON", "invalidRequest", "unknownIntent", "unknownField", "missingField", "invalidField", "invalidReference", "prefixTooShort"]
        var random = SeededRandomNumberGenerator(seed: 5)
        for _ in 0..<3_000 {
            var bytes = Array(seeds[Int.random(in: 0..<seeds.count, using: &random)].utf8)
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes.remove(at: index)
                case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: index)
                default: bytes[index] = alphabet.randomElement(using: &random)!
                }
                if bytes.isEmpty { bytes = [UInt8(ascii: "{")] }
            }
            let line = String(decoding: bytes, as: UTF8.self)
            do throws(IntentFailure) {
                _ = try RunRequest(line)
            } catch {
                #expect(codes.contains(error.code), "\(line) → \(error.code): \(error.message)")
            }
        }
    }

    @Test("A conversation answers each line with one line of JSON, and goes on after bad lines")
    func conversation() async throws {
        let (session, _) = try await makeSession()
        let conversation = RunConversation(session: session)
        let lines = [
            ##"{"intent": "add", "title": "Milk"}"##,
            ##"{"intent": "add", "title": "Eggs", "placement": "top"}"##,
            "oops",
            "   ",
            ##"{"intent": "move", "items": ["#9"], "placement": "top"}"##,
            ##"{"intent": "move", "items": ["#2"], "placement": "top"}"##,
            ##"{"intent": "undo"}"##,
            ##"{"intent": "list"}"##,
        ]
        var input = lines.makeIterator()
        var answers: [String] = []
        try await conversation.run({ input.next() }, write: { answers.append($0) })
        #expect(answers.count == 7, "the blank line gets no answer")
        let decoded = try answers.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(decoded.map { $0["ok"] as? Bool } == [true, true, false, false, true, true, true])
        #expect(answers.allSatisfy { !$0.contains("\n") })
        let error = try #require(decoded[3]["error"] as? [String: Any])
        #expect(error["code"] as? String == "positionOutOfRange")
        let placed = try #require((decoded[0]["result"] as? [String: Any])?["items"] as? [[String: Any]])
        #expect(Set(placed[0].keys).isSuperset(of: ["id", "list", "title", "sortIndex", "completed"]))
        #expect((decoded[0]["result"] as? [String: Any])?["rowsWritten"] as? Int == 1)
        let listed = try #require((decoded[6]["result"] as? [String: Any])?["items"] as? [[String: Any]])
        #expect(listed.map { $0["title"] as? String } == ["Eggs", "Milk"], "undo put Milk back")
    }

    @Test("url answers what Things hands x-success, one step each; a refused link gets its code and changes nothing; setListNotes gives a list notes")
    func links() async throws {
        let (session, _) = try await makeSession()
        let lines = [
            #"{"intent": "url", "url": "things:///add?titles=Milk%0AEggs&x-success=drafts://x-callback-url/ok"}"#,
            #"{"intent": "url", "url": "arrange:///add-project?title=Trip&notes=Passports&to-dos=Tickets"}"#,
            #"{"intent": "url", "url": "things:///json?data=[{\"type\":\"to-do\",\"attributes\":{\"title\":\"A\"}},{\"type\":\"to-do\",\"attributes\":{\"title\":\"B\",\"list\":\"Nowhere\"}}]"}"#,
            #"{"intent": "url", "url": "things:///update?id=x&title=y"}"#,
            #"{"intent": "url", "url": "things:///bake?title=Cake"}"#,
            #"{"intent": "url", "url": "things:///show?id=inbox"}"#,
            #"{"intent": "setListNotes", "list": "Trip", "notes": "Passports first."}"#,
            #"{"intent": "undo"}"#,
        ]
        let (answers, results, codes) = try await Answers.of(lines, in: RunConversation(session: session))
        #expect(codes == [nil, nil, "refusedLinkObject", "noLinkToken", "invalidLink", nil, nil, nil], "\(answers)")
        let ids = try #require(results[0]?["x-things-id"] as? String).split(separator: ",")
        #expect(ids.count == 2 && results[0]?["x-success"] as? String == "drafts://x-callback-url/ok?x-things-id=" + ids.joined(separator: ","))
        #expect((results[5]?["view"] as? String) == "list")
        #expect(Answers.titles(results[5]?["result"] as? [String: Any]) == ["Milk", "Eggs"], "the refused json link added nothing")
        #expect((results[6]?["list"] as? [String: Any])?["notes"] as? String == "Passports first.")
        let trip = try await session.resolveList("Trip")
        #expect(try await session.environment.perform(readOnly: true) { _ in GetLists() }.result.lists.first { $0.id == trip.id }?.notes == "Passports", "undo took the new notes back")
    }

    @Test("An offset of the largest whole number is refused in every move by offsets, where an IndexSet could not hold it")
    func largestOffset() async throws {
        let (session, _) = try await makeSession()
        let lines = ["move", "moveList", "moveInToday"].map { #"{"intent": "\#($0)", "fromOffsets": [9223372036854775807], "toOffset": 0}"# }
        let (answers, _, codes) = try await Answers.of(lines, in: RunConversation(session: session))
        #expect(codes == ["offsetOutOfRange", "offsetOutOfRange", "offsetOutOfRange"], "\(answers)")
        #expect(answers.allSatisfy { $0.contains("Offset 9223372036854775807 is past the end of any list.") }, "\(answers)")
    }

    @Test("The contract of logbook: the completed items, the most recent first, in pages, with their total")
    func logbookContract() async throws {
        let (session, _) = try await makeSession()
        let conversation = RunConversation(session: session)
        let lines = [
            ##"{"intent": "add", "title": "A"}"##, ##"{"intent": "add", "title": "B"}"##, ##"{"intent": "add", "title": "C"}"##,
            ##"{"intent": "complete", "items": ["#2"]}"##, ##"{"intent": "complete", "items": ["#1"]}"##, ##"{"intent": "complete", "items": ["#1"]}"##,
            ##"{"intent": "logbook"}"##,
            ##"{"intent": "logbook", "offset": 1, "limit": 1}"##,
            ##"{"intent": "logbook", "offset": 5}"##,
            ##"{"intent": "logbook", "limit": 0}"##,
            ##"{"intent": "logbook", "offset": -1}"##,
            ##"{"intent": "logbook", "day": "nope"}"##,
            ##"{"intent": "logbook", "day": "2026-11-27", "limit": 1}"##,
        ]
        let (answers, results, codes) = try await Answers.of(lines, in: conversation)
        func titles(_ index: Int) -> [String]? { Answers.titles(results[index]) }

        // B was completed first, then A, then C: the Logbook shows C, A, B.
        #expect(titles(6) == ["C", "A", "B"] && results[6]?["total"] as? Int == 3 && results[6]?["offset"] as? Int == 0, "\(answers[6])")
        #expect(((results[6]?["items"] as? [[String: Any]])?.allSatisfy { $0["completed"] as? Bool == true && $0["completedAt"] != nil }) == true)
        #expect(titles(7) == ["A"] && results[7]?["offset"] as? Int == 1)
        #expect(titles(8) == [] && results[8]?["total"] as? Int == 3)
        #expect(codes[9] == "emptyPage" && codes[10] == "offsetOutOfRange" && codes[11] == "invalidField", "\(answers.suffix(3))")
        #expect(titles(12) == ["C"], "every view takes a day; the Logbook does not depend on it: \(answers[12])")
    }

    @Test("The contract of checklists: the entries named by #N or id, the item with its whole checklist in every answer, and every bad input refused")
    func checklistContract() async throws {
        let (session, _) = try await makeSession()
        let conversation = RunConversation(session: session)
        let lines = [
            ##"{"intent": "add", "title": "Trip"}"##,
            ##"{"intent": "add", "title": "Groceries"}"##,
            ##"{"intent": "addChecklistItem", "item": "#1", "title": "Passport"}"##,
            ##"{"intent": "addChecklistItem", "item": "#1", "title": "Charger"}"##,
            ##"{"intent": "addChecklistItem", "item": "#1", "title": "Tickets", "placement": {"before": "#2"}}"##,
            ##"{"intent": "completeChecklistItems", "item": "#1", "entries": ["#1", "#3"]}"##,
            ##"{"intent": "moveChecklistItems", "item": "#1", "entries": ["#3"], "placement": "top"}"##,
            ##"{"intent": "moveChecklistItems", "item": "#1", "fromOffsets": [0], "toOffset": 3}"##,
            ##"{"intent": "editChecklistItem", "item": "#1", "entry": "#1", "title": "Passports"}"##,
            ##"{"intent": "reopenChecklistItems", "item": "#1", "entries": ["#3"]}"##,
            ##"{"intent": "deleteChecklistItems", "item": "#1", "entries": ["#2"]}"##,
            ##"{"intent": "list"}"##,
            ##"{"intent": "addChecklistItem", "item": "#2", "title": "Milk"}"##,
            ##"{"intent": "completeChecklistItems", "item": "#1", "entries": ["#9"]}"##,
            ##"{"intent": "completeChecklistItems", "item": "#1", "entries": []}"##,
            ##"{"intent": "completeChecklistItems", "item": "#1", "entries": ["12345678-aaaa-4bbb-8ccc-1234567890ab"]}"##,
            ##"{"intent": "completeChecklistItems", "item": "#1", "entries": ["nope"]}"##,
            ##"{"intent": "addChecklistItem", "item": "#9", "title": "X"}"##,
            ##"{"intent": "addChecklistItem", "item": "#1", "title": "   "}"##,
            ##"{"intent": "addChecklistItem", "item": "#1"}"##,
            ##"{"intent": "undo"}"##,
            ##"{"intent": "show", "item": "#1"}"##,
        ]
        let (answers, results, codes) = try await Answers.of(lines, in: conversation)
        func checklist(_ index: Int) -> [String]? {
            ((results[index]?["item"] as? [String: Any])?["checklist"] as? [[String: Any]])?.compactMap { entry in
                (entry["title"] as? String).map { entry["completed"] as? Bool == true ? $0 + " ✓" : $0 }
            }
        }

        #expect(results.prefix(13).allSatisfy { $0 != nil }, "\(answers.prefix(13))")
        #expect(checklist(4) == ["Passport", "Tickets", "Charger"] && results[4]?["rowsWritten"] as? Int == 1)
        #expect(checklist(5) == ["Passport ✓", "Tickets", "Charger ✓"] && (results[5]?["changed"] as? [String])?.count == 2)
        #expect(checklist(6) == ["Charger ✓", "Passport ✓", "Tickets"] && results[6]?["rowsWritten"] as? Int == 1)
        #expect(checklist(7) == ["Passport ✓", "Tickets", "Charger ✓"])
        #expect(checklist(8) == ["Passports ✓", "Tickets", "Charger ✓"])
        #expect(checklist(9) == ["Passports ✓", "Tickets", "Charger"])
        #expect(checklist(10) == ["Passports ✓", "Charger"])
        let listed = try #require((results[11]?["items"] as? [[String: Any]])?.first)
        #expect((listed["checklist"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Passports", "Charger"], "\(answers[11])")
        #expect(Array(codes[13...19]) == [
            "positionOutOfRange", "noChecklistItems", "unknownChecklistItem", "invalidReference", "positionOutOfRange", "emptyTitle", "missingField",
        ], "\(answers[13...19])")
        #expect(checklist(21) == ["Passports ✓", "Charger"], "undo took back Milk on the other item")

        // An entry named by id must be of the item named: one of the other item's is refused.
        let groceries = try #require(try await Answers.of([##"{"intent": "addChecklistItem", "item": "#2", "title": "Milk"}"##], in: conversation).results[0])
        let milk = try #require((groceries["changed"] as? [String])?.first)
        let refused = try await Answers.of([##"{"intent": "deleteChecklistItems", "item": "#1", "entries": ["\##(milk)"]}"##], in: conversation)
        #expect(refused.codes == ["notInChecklist"], "\(refused.lines)")
    }

    @Test("The contract of areas: areas in order with their lists, a LIST's area (null for none), moveList into an area and out with null, and every bad input refused")
    func areaContract() async throws {
        let (session, _) = try await makeSession()
        let conversation = RunConversation(session: session)
        let lines = [
            ##"{"intent": "createArea", "name": "Work"}"##,
            ##"{"intent": "createArea", "name": "Home", "placement": "top"}"##,
            ##"{"intent": "createList", "name": "Launch", "area": "work"}"##,
            ##"{"intent": "createList", "name": "Groceries"}"##,
            ##"{"intent": "moveList", "list": "Groceries", "placement": "bottom", "area": "Home"}"##,
            ##"{"intent": "createList", "name": "Hiring", "area": "Work", "placement": "top"}"##,
            ##"{"intent": "moveList", "fromOffsets": [1], "toOffset": 0, "area": "Work"}"##,
            ##"{"intent": "moveArea", "area": "Work", "placement": {"before": "Home"}}"##,
            ##"{"intent": "moveArea", "fromOffsets": [1], "toOffset": 0}"##,
            ##"{"intent": "renameArea", "area": "Home", "name": "House"}"##,
            ##"{"intent": "moveList", "list": "Launch", "placement": "top", "area": null}"##,
            ##"{"intent": "moveList", "list": "Hiring", "placement": "top"}"##,
            ##"{"intent": "areas"}"##,
            ##"{"intent": "lists"}"##,
            ##"{"intent": "deleteArea", "area": "Work"}"##,
            ##"{"intent": "lists"}"##,
            ##"{"intent": "createArea", "name": "house"}"##,
            ##"{"intent": "createArea", "name": " "}"##,
            ##"{"intent": "renameArea", "area": "Nope", "name": "X"}"##,
            ##"{"intent": "moveList", "list": "Inbox", "placement": {"after": "Groceries"}, "area": null}"##,
            ##"{"intent": "moveArea", "area": "House", "placement": {"after": "House"}}"##,
            ##"{"intent": "deleteArea"}"##,
            ##"{"intent": "moveList", "list": "Inbox", "placement": "top", "area": 7}"##,
            ##"{"intent": "validate", "scope": "area", "area": "House"}"##,
            ##"{"intent": "normalize", "scope": "areas"}"##,
        ]
        let (answers, results, codes) = try await Answers.of(lines, in: conversation)
        func names(_ index: Int, _ key: String) -> [String]? {
            (results[index]?[key] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        }
        #expect(results.prefix(16).allSatisfy { $0 != nil }, "\(answers.prefix(16))")
        let work = try #require((results[0]?["area"] as? [String: Any])?["id"] as? String)
        #expect((results[2]?["list"] as? [String: Any])?["area"] as? String == work)
        #expect(names(4, "lists") == ["Inbox", "Groceries", "Launch"], "\(answers[4])")
        #expect(results[6]?["rowsWritten"] as? Int == 1)
        #expect(names(8, "areas") == ["Home", "Work"] && results[8]?["rowsWritten"] as? Int == 1, "\(answers[8])")
        #expect(names(12, "areas") == ["House", "Work"])
        #expect(((results[12]?["areas"] as? [[String: Any]])?.last?["lists"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Hiring"])
        let lists = try #require(results[13]?["lists"] as? [[String: Any]])
        #expect(lists.compactMap { $0["name"] as? String } == ["Launch", "Inbox", "Groceries", "Hiring"], "\(answers[13])")
        #expect(lists[0]["area"] is NSNull && lists[3]["area"] as? String == work, "a LIST's area is an id or null")
        #expect(((results[14]?["movedLists"] as? [[String: Any]])?.compactMap { $0["name"] as? String }) == ["Hiring"])
        #expect(names(15, "lists") == ["Launch", "Inbox", "Hiring", "Groceries"])
        #expect(Array(codes[16...22]) == [
            "duplicateAreaName", "emptyAreaName", "unknownArea", "anchorInAnotherArea", "placedRelativeToItself", "missingField", "invalidField",
        ], "\(answers[16...22])")
        #expect(results[23]?["healthy"] as? Bool == true && results[24] != nil, "\(answers[23...24])")
    }

    @Test("The contract of tags: the tree depth first in hand order, TAG's fields, createTag under a parent, moveTag with and without parent and by offsets, cycles and bad input refused")
    func tagContract() async throws {
        let (session, _) = try await makeSession()
        let conversation = RunConversation(session: session)
        let lines = [
            ##"{"intent": "createTag", "name": "Errand"}"##,
            ##"{"intent": "createTag", "name": "Home", "placement": "top"}"##,
            ##"{"intent": "createTag", "name": "Shops", "parent": "errand"}"##,
            ##"{"intent": "createTag", "name": "Bakery", "parent": "Errand", "placement": {"before": "Shops"}}"##,
            ##"{"intent": "moveTag", "tag": "Home", "placement": "bottom"}"##,
            ##"{"intent": "moveTag", "tag": "Shops", "placement": "top", "parent": null}"##,
            ##"{"intent": "moveTag", "tag": "Home", "placement": "bottom", "parent": "Errand"}"##,
            ##"{"intent": "moveTag", "fromOffsets": [1], "toOffset": 0, "parent": "Errand"}"##,
            ##"{"intent": "renameTag", "tag": "Home", "name": "House"}"##,
            ##"{"intent": "tags"}"##,
            ##"{"intent": "validate", "scope": "tags", "tag": "Errand"}"##,
            ##"{"intent": "normalize", "scope": "tags"}"##,
            ##"{"intent": "deleteTag", "tag": "Errand"}"##,
            ##"{"intent": "tags"}"##,
            ##"{"intent": "createTag", "name": "shops"}"##,
            ##"{"intent": "createTag", "name": " "}"##,
            ##"{"intent": "renameTag", "tag": "Nope", "name": "X"}"##,
            ##"{"intent": "createTag", "name": "Deep", "parent": "Gone"}"##,
            ##"{"intent": "createTag", "name": "Parent"}"##,
            ##"{"intent": "createTag", "name": "Child", "parent": "Parent"}"##,
            ##"{"intent": "moveTag", "tag": "Parent", "placement": "top", "parent": "Child"}"##,
            ##"{"intent": "moveTag", "tag": "Parent", "placement": "top", "parent": "Parent"}"##,
            ##"{"intent": "moveTag", "tag": "Child", "placement": {"after": "Shops"}}"##,
            ##"{"intent": "tags"}"##,
        ]
        let (answers, results, codes) = try await Answers.of(lines, in: conversation)
        func names(_ index: Int) -> [String]? {
            (results[index]?["tags"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        }
        #expect(results.prefix(14).allSatisfy { $0 != nil }, "\(answers.prefix(14))")
        let errand = try #require((results[0]?["tag"] as? [String: Any])?["id"] as? String)
        let shops = try #require(results[2]?["tag"] as? [String: Any])
        #expect(Set(shops.keys) == ["id", "name", "parent", "sortIndex", "shortcut", "createdAt"] && shops["parent"] as? String == errand, "\(answers[2])")
        #expect(shops["shortcut"] is NSNull && (results[0]?["tag"] as? [String: Any])?["parent"] is NSNull, "parent and shortcut are null when unset")
        #expect(names(4) == ["Errand", "Bakery", "Shops", "Home"] && results[4]?["rowsWritten"] as? Int == 1, "\(answers[4])")
        #expect(names(5) == ["Shops", "Errand", "Bakery", "Home"], "\(answers[5])")
        #expect(names(6) == ["Shops", "Errand", "Bakery", "Home"], "\(answers[6])")
        #expect(names(7) == ["Shops", "Errand", "Home", "Bakery"], "\(answers[7])")
        #expect(names(9) == ["Shops", "Errand", "House", "Bakery"], "\(answers[9])")
        let parents = (results[9]?["tags"] as? [[String: Any]])?.map { $0["parent"] as? String }
        #expect(parents == [nil, nil, errand, errand], "\(answers[9])")
        #expect(results[10]?["healthy"] as? Bool == true, "\(answers[10])")
        #expect((results[12]?["tags"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Errand", "House", "Bakery"], "\(answers[12])")
        #expect(names(13) == ["Shops"])
        #expect(Array(codes[14...17]) == ["duplicateTagName", "emptyTagName", "unknownTag", "unknownTag"], "\(answers[14...17])")
        #expect(Array(codes[20...22]) == ["tagCycle", "tagCycle", "tagUnderAnotherParent"], "\(answers[20...22])")
        #expect(names(23) == ["Shops", "Parent", "Child"], "nothing changed: \(answers[23])")
    }

    @Test("The contract of tag and untag: one target of items, a list or an area; ITEM, LIST and AREA carry their own tags in the tags' order; every bad input refused with nothing changed")
    func taggingContract() async throws {
        let (session, _) = try await makeSession()
        let conversation = RunConversation(session: session)
        let lines = [
            ##"{"intent": "createTag", "name": "Errand"}"##,
            ##"{"intent": "createTag", "name": "Shops", "parent": "Errand"}"##,
            ##"{"intent": "createTag", "name": "Home", "placement": "top"}"##,
            ##"{"intent": "add", "title": "Milk"}"##,
            ##"{"intent": "add", "title": "Eggs"}"##,
            ##"{"intent": "createArea", "name": "Office"}"##,
            ##"{"intent": "tag", "tags": ["Shops", "home", "Errand"], "items": ["#1", "#2"]}"##,
            ##"{"intent": "untag", "tags": ["Shops"], "items": ["#2"], "from": "Inbox"}"##,
            ##"{"intent": "tag", "tags": ["Errand"], "list": "Inbox"}"##,
            ##"{"intent": "tag", "tags": ["Home"], "area": "Office"}"##,
            ##"{"intent": "list"}"##,
            ##"{"intent": "tag", "tags": ["Errand"], "items": ["#1"], "list": "Inbox"}"##,
            ##"{"intent": "tag", "tags": ["Errand"]}"##,
            ##"{"intent": "tag", "tags": ["Nope"], "items": ["#1"]}"##,
            ##"{"intent": "tag", "tags": [], "items": ["#1"]}"##,
            ##"{"intent": "untag", "tags": ["Errand"], "items": []}"##,
            ##"{"intent": "tag", "tags": ["Errand"], "list": "Inbox", "from": "Inbox"}"##,
            ##"{"intent": "list"}"##,
        ]
        let (answers, results, codes) = try await Answers.of(lines, in: conversation)
        #expect(results.prefix(11).allSatisfy { $0 != nil }, "\(answers.prefix(11))")
        let id = { (index: Int) in (results[index]?["tag"] as? [String: Any])?["id"] as? String }
        let (errand, shops, home) = (try #require(id(0)), try #require(id(1)), try #require(id(2)))
        let tagged = try #require(results[6]?["items"] as? [[String: Any]])
        #expect(tagged.map { $0["tags"] as? [String] } == [[home, errand, shops], [home, errand, shops]], "in the tags' order: \(answers[6])")
        #expect((results[7]?["items"] as? [[String: Any]])?.first?["tags"] as? [String] == [home, errand])
        #expect((results[8]?["lists"] as? [[String: Any]])?.first?["tags"] as? [String] == [errand], "\(answers[8])")
        #expect((results[9]?["areas"] as? [[String: Any]])?.first?["tags"] as? [String] == [home], "\(answers[9])")
        #expect((results[10]?["list"] as? [String: Any])?["tags"] as? [String] == [errand])
        #expect(Array(codes[11...16]) == ["invalidField", "missingField", "unknownTag", "noTags", "noItems", "invalidField"], "\(answers[11...16])")
        #expect(answers[17] == answers[10], "nothing changed")

        // The views take tags: an item passes with every tag named, on itself, its list or its
        // area, the tag or one under it.
        let views = [
            ##"{"intent": "list", "tags": ["Shops"]}"##,
            ##"{"intent": "list", "tags": ["Errand", "Home"]}"##,
            ##"{"intent": "list", "tags": ["Home", "Shops"]}"##,
            ##"{"intent": "anytime", "tags": ["errand"]}"##,
            ##"{"intent": "search", "query": "milk", "tags": ["Shops"]}"##,
            ##"{"intent": "search", "query": "e", "tags": ["Nope"]}"##,
            ##"{"intent": "today", "tags": ["Shops"]}"##,
            ##"{"intent": "logbook", "tags": ["Shops"]}"##,
            ##"{"intent": "upcoming", "tags": ["Shops"]}"##,
            ##"{"intent": "someday", "tags": ["Shops"]}"##,
            ##"{"intent": "search", "query": "sho"}"##,
            ##"{"intent": "search", "query": "milk errand"}"##,
            ##"{"intent": "search", "query": "errand"}"##,
        ]
        let (viewAnswers, viewResults, viewCodes) = try await Answers.of(views, in: conversation)
        let titles = { (index: Int) in (viewResults[index]?["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } }
        #expect(titles(0) == ["Milk"], "Shops is on Milk alone: \(viewAnswers[0])")
        #expect(titles(1) == ["Milk", "Eggs"], "Errand is on the list; Home on both items")
        #expect(titles(2) == ["Milk"])
        #expect((viewResults[3]?["lists"] as? [[String: Any]])?.count == 1, "the Inbox carries Errand: \(viewAnswers[3])")
        #expect(((viewResults[4]?["items"] as? [[String: Any]])?.first?["item"] as? [String: Any])?["title"] as? String == "Milk")
        #expect(viewCodes[5] == "unknownTag")
        #expect(viewResults[6...9].allSatisfy { $0 != nil }, "\(viewAnswers[6...9])")
        #expect((viewResults[10]?["tags"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Shops"], "Quick Find finds tags by name: \(viewAnswers[10])")
        let found = { (index: Int) in (viewResults[index]?["items"] as? [[String: Any]])?.map { match in
            "\((match["item"] as? [String: Any])?["title"] as? String ?? "?") \((match["matched"] as? [String]) ?? [])"
        } }
        #expect(found(10) == ["Milk [\"tag\"]"], "an item found by a tag it carries: \(viewAnswers[10])")
        #expect(found(11) == ["Milk [\"title\", \"tag\"]"], "each word in the text or a tag; Errand is on the list: \(viewAnswers[11])")
        #expect(found(12)?.count == 2 && viewResults[12]?["total"] as? Int == 2, "both items of the Inbox, which carries Errand: \(viewAnswers[12])")
    }

    @Test("The contract of headings: a list's headings in order, an ITEM's heading (null for none), move with a heading and out with null, offsets within and across sections, and every bad input refused")
    func headingContract() async throws {
        let (session, _) = try await makeSession()
        let conversation = RunConversation(session: session)
        let lines = [
            ##"{"intent": "createList", "name": "Trip"}"##,
            ##"{"intent": "add", "title": "Map", "list": "Trip"}"##,
            ##"{"intent": "add", "title": "Tent", "list": "Trip"}"##,
            ##"{"intent": "add", "title": "Boots", "list": "Trip"}"##,
            ##"{"intent": "createHeading", "title": "Packing", "list": "Trip"}"##,
            ##"{"intent": "createHeading", "title": "Papers", "list": "Trip", "placement": "top"}"##,
            ##"{"intent": "move", "items": ["#2", "#3"], "placement": "top", "from": "Trip", "heading": "packing"}"##,
            ##"{"intent": "moveHeading", "heading": "Papers", "list": "Trip", "placement": {"after": "Packing"}}"##,
            ##"{"intent": "moveHeading", "fromOffsets": [1], "toOffset": 0, "list": "Trip"}"##,
            ##"{"intent": "renameHeading", "heading": "Papers", "list": "Trip", "title": "Documents"}"##,
            ##"{"intent": "move", "fromOffsets": [1], "toOffset": 0, "list": "Trip", "heading": "Packing"}"##,
            ##"{"intent": "move", "fromOffsets": [0], "toOffset": 0, "list": "Trip", "toHeading": "Documents"}"##,
            ##"{"intent": "list", "list": "Trip"}"##,
            ##"{"intent": "move", "items": ["#1"], "placement": "bottom", "from": "Trip", "heading": null}"##,
            ##"{"intent": "deleteHeading", "heading": "Packing", "list": "Trip"}"##,
            ##"{"intent": "list", "list": "Trip"}"##,
            ##"{"intent": "createHeading", "title": " ", "list": "Trip"}"##,
            ##"{"intent": "renameHeading", "heading": "Nope", "list": "Trip", "title": "X"}"##,
            ##"{"intent": "moveHeading", "heading": "Documents", "list": "Trip", "placement": {"after": "Documents"}}"##,
            ##"{"intent": "deleteHeading"}"##,
            ##"{"intent": "move", "items": ["#1"], "placement": "top", "from": "Trip", "heading": 7}"##,
            ##"{"intent": "validate", "scope": "heading", "list": "Trip", "heading": "Documents"}"##,
            ##"{"intent": "normalize", "scope": "headings", "list": "Trip"}"##,
            ##"{"intent": "validate", "scope": "heading", "list": "Trip"}"##,
        ]
        let (answers, results, codes) = try await Answers.of(lines, in: conversation)
        #expect(results.prefix(16).allSatisfy { $0 != nil }, "\(answers.prefix(16))")
        func titles(_ index: Int, _ key: String) -> [String]? {
            (results[index]?[key] as? [[String: Any]])?.compactMap { $0["title"] as? String }
        }
        let packing = try #require((results[4]?["heading"] as? [String: Any])?["id"] as? String)
        #expect((results[6]?["items"] as? [[String: Any]])?.allSatisfy { $0["heading"] as? String == packing } == true, "\(answers[6])")
        #expect(titles(7, "headings") == ["Packing", "Papers"] && results[7]?["rowsWritten"] as? Int == 1, "\(answers[7])")
        #expect(titles(8, "headings") == ["Papers", "Packing"], "\(answers[8])")
        #expect(results[10]?["rowsWritten"] as? Int == 1, "\(answers[10])")
        #expect(results[11]?["rowsWritten"] as? Int == 1, "a drag across sections writes one row: \(answers[11])")
        #expect(titles(12, "headings") == ["Documents", "Packing"], "\(answers[12])")
        let items = try #require(results[12]?["items"] as? [[String: Any]])
        #expect(items.compactMap { $0["title"] as? String } == ["Map", "Boots", "Tent"], "the items under no heading first, then each heading's: \(answers[12])")
        #expect(items[0]["heading"] as? String != nil && items[0]["heading"] as? String != packing, "moved across, under Documents")
        #expect(items[1]["heading"] as? String == packing && items[2]["heading"] as? String == packing)
        #expect((results[13]?["items"] as? [[String: Any]])?.first?["heading"] is NSNull, "null moves it out: \(answers[13])")
        #expect(results[14]?["deletedItems"] as? Int == 2, "\(answers[14])")
        #expect(titles(15, "headings") == ["Documents"])
        #expect((results[15]?["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Map"], "\(answers[15])")
        #expect(Array(codes[16...20]) == ["emptyTitle", "unknownHeading", "placedRelativeToItself", "missingField", "invalidField"], "\(answers[16...20])")
        #expect(results[21]?["healthy"] as? Bool == true && results[22] != nil, "\(answers[21...22])")
        #expect(codes[23] == "missingField", "\(answers[23])")
    }

    @Test("The contract of dates: setWhen with a day, today, anytime or someday and evening, setDeadline with a day or null, an ITEM's date fields, and every bad input refused")
    func dateContract() async throws {
        let (session, _) = try await makeSession()
        let conversation = RunConversation(session: session)
        let lines = [
            ##"{"intent": "add", "title": "Taxes"}"##,
            ##"{"intent": "add", "title": "Novel"}"##,
            ##"{"intent": "setWhen", "items": ["#1"], "when": "2026-12-01", "evening": true}"##,
            ##"{"intent": "setWhen", "items": ["#2"], "when": "someday"}"##,
            ##"{"intent": "setDeadline", "items": ["#1", "#2"], "deadline": "2027-04-15"}"##,
            ##"{"intent": "setDeadline", "items": ["#2"], "deadline": null}"##,
            ##"{"intent": "setWhen", "items": ["#2"], "when": "anytime"}"##,
            ##"{"intent": "list"}"##,
            ##"{"intent": "setWhen", "items": ["#1"], "when": "today"}"##,
            ##"{"intent": "setWhen", "items": ["#1"], "when": "2026-02-30"}"##,
            ##"{"intent": "setWhen", "items": ["#1"], "when": "someday", "evening": true}"##,
            ##"{"intent": "setDeadline", "items": ["#1"], "deadline": "soon"}"##,
            ##"{"intent": "setDeadline", "items": ["#9"], "deadline": "2027-01-01"}"##,
            ##"{"intent": "setWhen", "items": ["#1"]}"##,
            ##"{"intent": "setDeadline", "items": ["#1"]}"##,
            ##"{"intent": "setWhen", "items": [], "when": "anytime"}"##,
            ##"{"intent": "undo"}"##,
            ##"{"intent": "upcoming", "day": "2026-11-30"}"##,
            ##"{"intent": "anytime", "day": "2026-11-30"}"##,
            ##"{"intent": "someday"}"##,
            ##"{"intent": "upcoming", "day": "2026-13-01"}"##,
        ]
        let (answers, results, codes) = try await Answers.of(lines, in: conversation)
        #expect(results.prefix(9).allSatisfy { $0 != nil }, "\(answers.prefix(9))")
        func item(_ index: Int, _ position: Int = 0) -> [String: Any]? { (results[index]?["items"] as? [[String: Any]])?[position] }
        #expect(item(2)?["startDate"] as? String == "2026-12-01" && item(2)?["evening"] as? Bool == true && item(2)?["someday"] as? Bool == false, "\(answers[2])")
        #expect(item(3)?["someday"] as? Bool == true && item(3)?["startDate"] is NSNull, "someday and startDate are never both set: \(answers[3])")
        #expect(item(4, 1)?["deadline"] as? String == "2027-04-15" && results[4]?["changed"] as? Int == 2, "\(answers[4])")
        #expect(item(5)?["deadline"] is NSNull, "\(answers[5])")
        let listed = try #require(results[7]?["items"] as? [[String: Any]])
        #expect(listed[0]["startDate"] as? String == "2026-12-01" && listed[0]["deadline"] as? String == "2027-04-15", "\(answers[7])")
        #expect(listed[1]["startDate"] is NSNull && listed[1]["someday"] as? Bool == false && listed[1]["evening"] as? Bool == false && listed[1]["deadline"] is NSNull)
        let today = Day(Date(), in: .current).description
        #expect([today, Day(Date(), in: .current).adding(days: -1).description].contains(item(8)?["startDate"] as? String ?? ""), "\(answers[8])")
        #expect(item(8)?["evening"] as? Bool == false, "evening is false unless given")
        #expect(Array(codes[9...15]) == [
            "invalidWhen", "eveningWithoutDay", "invalidWhen", "positionOutOfRange", "missingField", "missingField", "noItems",
        ], "\(answers[9...15])")
        #expect(answers[9].contains("'2026-02-30' is not a when"), "\(answers[9])")
        #expect(results[16] != nil, "undo takes back the last change: \(answers[16])")
        let days = try #require(results[17]?["days"] as? [[String: Any]], "\(answers[17])")
        #expect(results[17]?["day"] as? String == "2026-11-30" && days.count == 1 && days[0]["day"] as? String == "2026-12-01")
        #expect((days[0]["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Taxes"], "\(answers[17])")
        let anytime = try #require(results[18]?["lists"] as? [[String: Any]], "\(answers[18])")
        #expect(anytime.count == 1 && (anytime[0]["list"] as? [String: Any])?["name"] as? String == "Inbox")
        #expect((anytime[0]["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Novel"], "\(answers[18])")
        #expect((results[19]?["lists"] as? [Any])?.isEmpty == true, "\(answers[19])")
        #expect(codes[20] == "invalidField", "\(answers[20])")
    }

    @Test("The contract of scheduled lists: setWhen and setDeadline without items take the list; LIST's dates; the views; and bad input refused")
    func scheduledListContract() async throws {
        let (session, _) = try await makeSession()
        let conversation = RunConversation(session: session)
        let lines = [
            ##"{"intent": "createList", "name": "Garden"}"##,
            ##"{"intent": "createList", "name": "Novel"}"##,
            ##"{"intent": "setWhen", "list": "Garden", "when": "next monday", "evening": true, "day": "2026-11-27"}"##,
            ##"{"intent": "setDeadline", "list": "Garden", "deadline": "dec 24", "day": "2026-11-27"}"##,
            ##"{"intent": "setWhen", "list": "Novel", "when": "someday"}"##,
            ##"{"intent": "lists"}"##,
            ##"{"intent": "someday"}"##,
            ##"{"intent": "upcoming", "day": "2026-11-27"}"##,
            ##"{"intent": "today", "day": "2026-12-24"}"##,
            ##"{"intent": "setWhen", "list": "Garden", "when": "tomorrow at 9"}"##,
            ##"{"intent": "setWhen", "list": "Inbox", "when": "someday"}"##,
            ##"{"intent": "setDeadline", "list": "Nowhere", "deadline": null}"##,
            ##"{"intent": "setWhen", "when": "today"}"##,
            ##"{"intent": "setDeadline", "list": "Garden", "deadline": null}"##,
        ]
        let (answers, results, codes) = try await Answers.of(lines, in: conversation)
        #expect(results.prefix(9).allSatisfy { $0 != nil }, "\(answers.prefix(9))")
        let garden = try #require(results[3]?["list"] as? [String: Any], "\(answers[3])")
        #expect(garden["startDate"] as? String == "2026-11-30" && garden["evening"] as? Bool == true && garden["someday"] as? Bool == false, "\(answers[3])")
        #expect(garden["deadline"] as? String == "2026-12-24", "\(answers[3])")
        #expect((results[4]?["list"] as? [String: Any])?["someday"] as? Bool == true, "\(answers[4])")
        #expect((results[5]?["lists"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Inbox", "Garden"], "someday leaves the sidebar: \(answers[5])")
        #expect((results[6]?["lists"] as? [[String: Any]])?.compactMap { ($0["list"] as? [String: Any])?["name"] as? String } == ["Novel"], "\(answers[6])")
        let days = try #require(results[7]?["days"] as? [[String: Any]], "\(answers[7])")
        #expect(days.count == 1 && days[0]["day"] as? String == "2026-11-30", "\(answers[7])")
        #expect((days[0]["lists"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Garden"], "\(answers[7])")
        #expect((results[8]?["lists"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Garden"], "\(answers[8])")
        #expect(Array(codes[9...12]) == ["reminderOnList", "defaultListStaysInSidebar", "unknownList", "missingField"], "\(answers[9...12])")
        #expect(answers[12].contains("'items'"), "the message names the other form: \(answers[12])")
        #expect((results[13]?["list"] as? [String: Any])?["deadline"] is NSNull, "\(answers[13])")
    }

    @Test("Dates in words: setWhen, setDeadline and add read words relative to their day; a time, and any other words, are refused and change nothing")
    func datesInWords() async throws {
        let (session, _) = try await makeSession()
        let conversation = RunConversation(session: session)
        // Friday 2026-11-27.
        let lines = [
            ##"{"intent": "add", "title": "Rent", "when": "next friday", "deadline": "dec 1", "day": "2026-11-27"}"##,
            ##"{"intent": "setWhen", "items": ["#1"], "when": "This Weekend", "day": "2026-11-27"}"##,
            ##"{"intent": "setWhen", "items": ["#1"], "when": "tonight", "day": "2026-11-27"}"##,
            ##"{"intent": "setWhen", "items": ["#1"], "when": "in 1 month", "evening": true, "day": "2027-01-31"}"##,
            ##"{"intent": "setDeadline", "items": ["#1"], "deadline": "24 dec", "day": "2026-12-24"}"##,
            ##"{"intent": "setWhen", "items": ["#1"], "when": "next fridya", "day": "2026-11-27"}"##,
            ##"{"intent": "setWhen", "items": ["#1"], "when": "tomorrow @9", "day": "2026-11-27"}"##,
            ##"{"intent": "setDeadline", "items": ["#1"], "deadline": "someday"}"##,
            ##"{"intent": "add", "title": "Never", "when": "yesterday"}"##,
            ##"{"intent": "list"}"##,
            ##"{"intent": "setDeadline", "items": ["#1"], "deadline": "none"}"##,
            ##"{"intent": "add", "title": "Call", "when": "tonight", "today": true}"##,
            ##"{"intent": "add", "title": "Later", "when": "tomorrow", "today": true}"##,
            ##"{"intent": "setReminder", "items": ["#1"], "time": "18:30"}"##,
            ##"{"intent": "reminders", "from": "2026-11-27T00:00:00Z", "to": "2026-11-30T00:00:00Z"}"##,
            ##"{"intent": "setReminder", "items": ["#1"], "time": "25:00"}"##,
            ##"{"intent": "setReminder", "items": ["#1"], "time": null}"##,
            ##"{"intent": "reminders", "from": "yesterday"}"##,
        ]
        let (answers, results, codes) = try await Answers.of(lines, in: conversation)
        func item(_ index: Int) -> [String: Any]? { (results[index]?["items"] as? [[String: Any]])?.first }
        #expect(item(0)?["startDate"] as? String == "2026-12-04" && item(0)?["deadline"] as? String == "2026-12-01", "\(answers[0])")
        #expect(item(1)?["startDate"] as? String == "2026-11-28" && item(1)?["evening"] as? Bool == false, "\(answers[1])")
        #expect(item(2)?["startDate"] as? String == "2026-11-27" && item(2)?["evening"] as? Bool == true, "\(answers[2])")
        #expect(item(3)?["startDate"] as? String == "2027-02-28" && item(3)?["evening"] as? Bool == true, "\(answers[3])")
        #expect(item(4)?["deadline"] as? String == "2027-12-24", "a date on its own day is next year's: \(answers[4])")
        #expect([codes[5], codes[7], codes[8]] == ["invalidWhen", "invalidWhen", "invalidWhen"], "\(answers[5...8])")
        #expect(answers[5].contains("'next fridya' is not a when; write a day as YYYY-MM-DD, or today, tonight, tomorrow"), "\(answers[5])")
        #expect(item(6)?["startDate"] as? String == "2026-11-28" && item(6)?["reminder"] as? String == "09:00", "a time sets the reminder: \(answers[6])")
        let listed = try #require(results[9]?["items"] as? [[String: Any]], "\(answers[9])")
        #expect(listed.map { $0["title"] as? String } == ["Rent"], "the refused add added nothing")
        #expect(listed[0]["startDate"] as? String == "2026-11-28" && listed[0]["deadline"] as? String == "2027-12-24", "the refusals changed nothing")
        #expect(listed[0]["reminder"] as? String == "09:00")
        #expect(item(10)?["deadline"] is NSNull, "none, as on the command line: \(answers[10])")
        #expect(item(11)?["today"] as? Bool == true && item(11)?["evening"] as? Bool == true, "in Today, this evening: \(answers[11])")
        #expect(codes[12] == "invalidRequest" && answers[12].contains("An item added to Today starts today"), "\(answers[12])")
        #expect(item(13)?["reminder"] as? String == "18:30", "\(answers[13])")
        let reminders = try #require(results[14]?["reminders"] as? [[String: Any]], "\(answers[14])")
        #expect(reminders.compactMap { ($0["item"] as? [String: Any])?["title"] as? String } == ["Rent"], "\(answers[14])")
        #expect((reminders.first?["at"] as? String)?.hasPrefix("2026-11-28T") == true, "\(answers[14])")
        #expect(codes[15] == "invalidField" && answers[15].contains("'25:00' is not a time"), "\(answers[15])")
        #expect(item(16)?["reminder"] is NSNull, "\(answers[16])")
        #expect(codes[17] == "invalidField", "\(answers[17])")
    }

    @Test("The contract of the orderings: lists, createList with a placement, moveList, today, addToToday, removeFromToday, moveInToday, validate and normalize by scope")
    func orderingsContract() async throws {
        let (session, _) = try await makeSession()
        let conversation = RunConversation(session: session)
        let lines = [
            ##"{"intent": "add", "title": "A"}"##,
            ##"{"intent": "add", "title": "B"}"##,
            ##"{"intent": "add", "title": "C"}"##,
            ##"{"intent": "createList", "name": "Work"}"##,
            ##"{"intent": "createList", "name": "Errands", "placement": {"before": "Work"}}"##,
            ##"{"intent": "moveList", "list": "Work", "placement": "top"}"##,
            ##"{"intent": "moveList", "fromOffsets": [0], "toOffset": 3}"##,
            ##"{"intent": "lists"}"##,
            ##"{"intent": "addToToday", "items": ["#3", "#1"]}"##,
            ##"{"intent": "addToToday", "items": ["#2"], "placement": {"after": "#1"}}"##,
            ##"{"intent": "moveInToday", "items": ["#3"], "placement": "top"}"##,
            ##"{"intent": "moveInToday", "fromOffsets": [0], "toOffset": 2}"##,
            ##"{"intent": "removeFromToday", "items": ["#3"]}"##,
            ##"{"intent": "today", "includeCompleted": true}"##,
            ##"{"intent": "validate", "scope": "today"}"##,
            ##"{"intent": "normalize", "scope": "lists"}"##,
            ##"{"intent": "validate", "scope": "lists", "list": "Work"}"##,
            ##"{"intent": "removeFromToday", "items": ["#5"]}"##,
            ##"{"intent": "moveList", "list": "Work", "placement": {"after": "Work"}}"##,
            ##"{"intent": "moveList", "list": "Work", "placement": {"before": "Nowhere"}}"##,
            ##"{"intent": "moveList", "list": "Work", "placement": {"offset": 9}}"##,
            ##"{"intent": "undo"}"##,
            ##"{"intent": "today"}"##,
        ]
        let (answers, results, codes) = try await Answers.of(lines, in: conversation)
        func names(_ index: Int) -> [String]? { (results[index]?["lists"] as? [[String: Any]])?.compactMap { $0["name"] as? String } }
        func titles(_ index: Int) -> [String]? { Answers.titles(results[index]) }

        #expect(results.prefix(16).allSatisfy { $0 != nil }, "\(answers.prefix(16))")
        #expect((results[5]?["rowsWritten"] as? Int) == 1 && names(5) == ["Work", "Inbox", "Errands"])
        #expect(names(6) == ["Inbox", "Errands", "Work"])
        #expect(names(7) == ["Inbox", "Errands", "Work"])
        #expect(titles(8) == ["C", "A"] && (results[8]?["rowsWritten"] as? Int) == 2)
        let added = try #require((results[8]?["items"] as? [[String: Any]])?.first)
        #expect(added["today"] as? Bool == true && added["todayIndex"] is Int)
        // Today: C A, then B after C: C B A; A to the top: A C B; offset 0 to 2: C A B; B out: C A.
        #expect(titles(13) == ["C", "A"])
        let removed = try #require((results[12]?["items"] as? [[String: Any]])?.first)
        #expect(removed["title"] as? String == "B" && removed["today"] as? Bool == false && removed["todayIndex"] == nil && results[12]?["changed"] as? Int == 1)
        #expect(results[14]?["scope"] as? String == "today" && results[14]?["healthy"] as? Bool == true)
        #expect(results[15]?["scope"] as? String == "lists")
        #expect(Array(codes[16...20]) == ["invalidField", "positionOutOfRange", "placedRelativeToItself", "unknownList", "offsetOutOfRange"])
        #expect(titles(22) == ["C", "A", "B"], "undo put B back in Today at its place")
    }
}

extension Result {
    var isSuccess: Bool {
        if case .success = self { true } else { false }
    }
}

/// The answers of a conversation, read as JSON.
private enum Answers {
    /// Answers `lines` in `conversation`: each answer line, its result (`nil` for an error), and its error code (`nil` for a result).
    static func of(_ lines: [String], in conversation: RunConversation) async throws -> (lines: [String], results: [[String: Any]?], codes: [String?]) {
        var input = lines.makeIterator()
        var answers: [String] = []
        try await conversation.run({ input.next() }, write: { answers.append($0) })
        let decoded = try answers.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        return (answers, decoded.map { $0["result"] as? [String: Any] }, decoded.map { ($0["error"] as? [String: Any])?["code"] as? String })
    }

    /// The titles of a result's items.
    static func titles(_ result: [String: Any]?) -> [String]? {
        (result?["items"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
    }
}
