import ArgumentParser
@testable import ArrangeCommandLine
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import Foundation
import Testing

@Suite("The request catalogue")
struct CatalogueTests {
    @Test("Every form is listed once, with a title, a summary and documented parameters")
    func entries() {
        #expect(RequestCatalogue.names == [
            "lists", "createList", "moveList", "renameList", "setListNotes", "deleteList", "completeList", "cancelList", "reopenList", "areas", "createArea", "renameArea", "moveArea", "deleteArea",
            "tags", "createTag", "renameTag", "moveTag", "deleteTag", "tag", "untag",
            "createHeading", "renameHeading", "moveHeading", "deleteHeading", "list", "show", "add", "rename", "edit",
            "complete", "cancel", "reopen", "delete", "move", "setWhen", "setDeadline", "setReminder", "reminders",
            "setRepeat", "pauseRepeat", "resumeRepeat", "repeats", "today", "addToToday", "removeFromToday", "moveInToday",
            "upcoming", "anytime", "someday", "logbook", "trash", "restore", "emptyTrash", "search",
            "addChecklistItem", "editChecklistItem", "moveChecklistItems", "completeChecklistItems", "cancelChecklistItems", "reopenChecklistItems", "deleteChecklistItems",
            "validate", "normalize", "undo", "redo", "url",
        ])
        for request in RequestCatalogue.requests {
            let fields = fieldDescriptions(of: request)
            #expect(!intentTitle(of: request).isEmpty && request.summary.hasSuffix("."), "\(request.name)")
            #expect(fields.allSatisfy { $0.help.hasSuffix(".") }, "\(request.name)")
            #expect(Set(fields.map(\.name)).count == fields.count, "\(request.name) names a field twice")
            #expect(request.selector.map { selector in fields.contains { $0.name == selector } } ?? true, "\(request.name)'s selector is a field")
        }
        #expect(intentTitle(of: MoveRequest.self) == "Move Items")
        #expect(CreateListRequest.commandName == "create-list")
    }

    @Test("A request's fields are its table: their JSON names, whether they are required (not optional), and their types")
    func shape() {
        let add = AddRequest.fields
        #expect(add.map(\.name) == ["title", "list", "placement", "notes", "today", "when", "deadline", "day"])
        #expect(add.map(\.isRequired) == [true, false, false, false, false, false, false, false])
        #expect(add.map(\.jsonForm) == [
            String.jsonForm, ListReference.jsonForm, PlacementReference.jsonForm, String.jsonForm, Bool.jsonForm, WhenChoice.jsonForm,
            DeadlineChoice.jsonForm, Day.jsonForm,
        ])
        let createList = CreateListRequest.fields
        #expect(createList.map(\.name) == ["name", "placement", "area"] && createList.map(\.isRequired) == [true, false, false])
        #expect(MoveListRequest.fields.map(\.name) == ["list", "placement", "area"] && MoveListRequest.fields[2].jsonForm == AreaChoice.jsonForm)
        #expect(RequestCatalogue.unknownIntentMessage("createAera") == "Unknown intent 'createAera'. Did you mean 'createList', 'createArea', 'createTag', 'createHeading'? `arrange run --help` lists every intent.")
        #expect(createList[1].jsonForm == ListPlacementReference.jsonForm)
        #expect(MoveAtOffsetsRequest.fields.map(\.jsonForm) == [
            "an array of whole numbers", "a whole number", ListReference.jsonForm, HeadingReference.jsonForm, HeadingChoice.jsonForm,
        ])
        #expect(CompleteRequest.fields.map(\.name) == ["items", "list", "day"] && CompleteRequest.fields[0].help == CompleteRequest.itemsHelp)
        #expect(ReopenRequest.fields.map(\.name) == ["items", "list"])
        #expect(UndoRequest.fields.isEmpty)
    }

    @Test("Every subcommand's help comes from its request's fields")
    func help() {
        let add = Arrange.helpMessage(for: AddCommand.self, columns: 1_000)
        for field in AddRequest.fields where field.name != "placement" {
            #expect(add.contains(field.help), "\(field.name)")
        }
        #expect(Arrange.helpMessage(for: CompleteCommand.self, columns: 1_000).contains(CompleteRequest.itemsHelp))
        #expect(Arrange.helpMessage(for: ReopenCommand.self, columns: 1_000).contains(ReopenRequest.itemsHelp))
        // Every command's help renders: each option's help is found among its request's fields.
        func commands(under command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
            [command] + command.configuration.subcommands.flatMap { commands(under: $0) }
        }
        for command in commands(under: Arrange.self) {
            #expect(!Arrange.helpMessage(for: command, columns: 1_000).isEmpty, "\(command)")
        }
    }

    @Test("The two forms of move are told apart by fromOffsets")
    func moveForms() {
        func request(_ name: String, _ keys: Set<String>) -> ObjectIdentifier? {
            RequestCatalogue.request(named: name, keys: keys).map(ObjectIdentifier.init)
        }
        #expect(request("move", ["items", "placement"]) == ObjectIdentifier(MoveRequest.self))
        #expect(request("move", ["fromOffsets", "toOffset"]) == ObjectIdentifier(MoveAtOffsetsRequest.self))
        #expect(request("add", []) == ObjectIdentifier(AddRequest.self))
        #expect(request("moveList", ["list", "placement"]) == ObjectIdentifier(MoveListRequest.self))
        #expect(request("moveList", ["fromOffsets", "toOffset"]) == ObjectIdentifier(MoveListsAtOffsetsRequest.self))
        #expect(request("moveInToday", ["items", "placement"]) == ObjectIdentifier(MoveInTodayRequest.self))
        #expect(request("moveInToday", ["fromOffsets", "toOffset"]) == ObjectIdentifier(MoveInTodayAtOffsetsRequest.self))
        #expect(request("nope", []) == nil)
    }

    @Test("Requests read their fields, with what they leave out left out, and write them back the same")
    func fields() throws {
        let add = try RunRequest(##"{"title": "Milk", "placement": {"after": "#2"}, "intent": "add"}"##)
        #expect(add.request as? AddRequest == AddRequest(title: "Milk", placement: .after("#2")))
        let move = try RunRequest(##"{"intent": "move", "items": ["3f2a", "#1"], "placement": "top", "list": "Work"}"##)
        #expect(move.request as? MoveRequest == MoveRequest(items: ["3f2a", "#1"], placement: .top, list: "Work"))
        #expect(try RunRequest(##"{"intent": "validate", "repair": true}"##).request as? ValidateRequest == ValidateRequest(repair: true))
        #expect(throws: IntentFailure.self) { try RunRequest(##"{"intent": "add", "title": "x", "placement": {"before": "#1", "after": "#2"}}"##) }
        #expect(throws: IntentFailure.self) { try RunRequest(##"{"intent": "add", "title": "x", "placement": {"below": "#1"}}"##) }

        let placements: [(json: String, placement: PlacementReference)] = [
            (#""top""#, .top), (#""bottom""#, .bottom), (##"{"before": "#1"}"##, .before("#1")), (#"{"after": "3f2a"}"#, .after("3f2a")),
            (#"{"offset": 4}"#, .offset(4)),
        ]
        for (json, placement) in placements {
            let line = ##"{"intent": "move", "items": ["#2"], "from": "Work", "placement": "##  + json + "}"
            #expect(try RunRequest(line).request as? MoveRequest == MoveRequest(items: ["#2"], placement: placement, from: "Work"), "\(line)")
        }
        // null is a value of its own for a heading (none), and leaves out a list.
        let out = try RunRequest(##"{"intent": "move", "items": ["#2"], "placement": "top", "heading": null, "list": null}"##)
        #expect(out.request as? MoveRequest == MoveRequest(items: ["#2"], placement: .top, heading: .noHeading))
    }

    @Test("A malformed reference in a JSON line is refused as it is read, with its own code, before any store is opened")
    func malformedReferences() {
        for (line, code) in [
            (##"{"intent": "move", "items": ["#x"], "placement": "top"}"##, "invalidReference"),
            (##"{"intent": "move", "items": ["#1"], "placement": {"after": "abc"}}"##, "prefixTooShort"),
            (##"{"intent": "deleteChecklistItems", "item": "#1", "entries": ["milk"]}"##, "invalidReference"),
            (##"{"intent": "validate", "scope": "checklist", "item": "zz"}"##, "invalidReference"),
        ] {
            let failure = #expect(throws: IntentFailure.self, "\(line)") { try RunRequest(line) }
            #expect(failure?.code == code, "\(line)")
        }
    }

    @Test("A malformed reference on a command line is refused as it is parsed, with exit status 1 and the reference's own message")
    func malformedArguments() {
        for arguments in [["move", "#x", "--top"], ["show", "zzzz"], ["today", "move", "#1", "--after", "abc"], ["checklist", "move", "#1", "x", "--top"]] {
            #expect(throws: (any Error).self, "\(arguments)") { try Arrange.parseAsRoot(arguments) }
            do {
                _ = try Arrange.parseAsRoot(arguments)
            } catch {
                #expect(Arrange.exitCode(for: error) == .refused, "\(arguments)")
                #expect(!Arrange.usageError(error, arguments: arguments).contains("--help"), "\(arguments)")
            }
        }
        #expect(throws: Never.self) { try Arrange.parseAsRoot(["move", "#1", "3f2a", "--after", "#2"]) }
    }
}

/// What help, completion and the JSON protocol say of the fields of a request of any kind.
func fieldDescriptions(of request: any Request.Type) -> [(name: String, help: String, isRequired: Bool)] {
    func describe<Asked: Request>(_ request: Asked.Type) -> [(name: String, help: String, isRequired: Bool)] {
        Asked.fields.map { ($0.name, $0.help, $0.isRequired) }
    }
    return describe(request)
}

/// The title of the intent a request asks for ("Move Items").
func intentTitle(of request: any Request.Type) -> String {
    func title<Asked: Request>(_ request: Asked.Type) -> String { Asked.Intent.title }
    return title(request)
}
