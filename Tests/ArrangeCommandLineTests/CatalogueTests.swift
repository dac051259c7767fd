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
            "lists", "createList", "moveList", "renameList", "deleteList", "areas", "createArea", "renameArea", "moveArea", "deleteArea",
            "createHeading", "renameHeading", "moveHeading", "deleteHeading", "list", "show", "add", "rename", "edit",
            "complete", "reopen", "delete", "move", "setWhen", "setDeadline", "today", "addToToday", "removeFromToday", "moveInToday",
            "upcoming", "anytime", "someday", "logbook",
            "addChecklistItem", "editChecklistItem", "moveChecklistItems", "completeChecklistItems", "reopenChecklistItems", "deleteChecklistItems",
            "validate", "normalize", "undo", "redo",
        ])
        for request in RequestCatalogue.requests {
            #expect(!intentTitle(of: request).isEmpty && request.summary.hasSuffix("."), "\(request.name)")
            #expect(request.fields.allSatisfy { $0.help.hasSuffix(".") }, "\(request.name)")
            #expect(Set(request.fields.map(\.name)).count == request.fields.count, "\(request.name) names a field twice")
        }
        #expect(intentTitle(of: MoveRequest.self) == "Move Items")
        #expect(CreateListRequest.commandName == "create-list")
    }

    @Test("A request's fields are its stored properties: their JSON names, whether they are required, and their types")
    func shape() {
        let add = AddRequest.fields
        #expect(add.map(\.name) == ["title", "list", "placement", "notes", "today"])
        #expect(add.map(\.isRequired) == [true, false, false, false, false])
        #expect(add.map(\.jsonForm) == [String.jsonForm, ListReference.jsonForm, PlacementReference.jsonForm, String.jsonForm, Bool.jsonForm])
        let createList = CreateListRequest.fields
        #expect(createList.map(\.name) == ["name", "placement", "area"] && createList.map(\.isRequired) == [true, false, false])
        #expect(MoveListRequest.fields.map(\.name) == ["list", "placement", "area"] && MoveListRequest.fields[2].jsonForm == AreaChoice.jsonForm)
        #expect(RequestCatalogue.unknownIntentMessage("createAera") == "Unknown intent 'createAera'. Did you mean 'createList', 'createArea', 'createHeading'? `arrange run --help` lists every intent.")
        #expect(createList[1].jsonForm == ListPlacementReference.jsonForm)
        #expect(MoveAtOffsetsRequest.fields.map(\.jsonForm) == [
            "an array of whole numbers", "a whole number", ListReference.jsonForm, HeadingReference.jsonForm, HeadingChoice.jsonForm,
        ])
        #expect(CompleteRequest.fields.map(\.name) == ["items", "list"] && CompleteRequest.fields[0].help == CompleteRequest.itemsHelp)
        #expect(UndoRequest.fields.isEmpty)
        // Every request's fields can be read: each value is a RequestValue.
        for request in RequestCatalogue.requests {
            #expect(throws: Never.self, "\(request.name)") { try RequestShape.fields(of: request) }
        }
    }

    @Test("Every subcommand's help comes from its request's fields")
    func help() {
        let add = Arrange.helpMessage(for: AddCommand.self, columns: 1_000)
        for field in AddRequest.fields where field.name != "placement" {
            #expect(add.contains(field.help), "\(field.name)")
        }
        #expect(Arrange.helpMessage(for: CompleteCommand.self, columns: 1_000).contains(CompleteRequest.itemsHelp))
        #expect(Arrange.helpMessage(for: ReopenCommand.self, columns: 1_000).contains(ReopenRequest.itemsHelp))
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

        let placements: [PlacementReference] = [.top, .bottom, .before("#1"), .after("3f2a"), .offset(4)]
        for placement in placements {
            let request = MoveRequest(items: ["#2"], placement: placement, from: "Work")
            let line = String(decoding: try JSONEncoder().encode(request), as: UTF8.self).replacingOccurrences(of: "{", with: #"{"intent":"move","#, options: .anchored)
            #expect(try RunRequest(line).request as? MoveRequest == request, "\(line)")
        }
    }
}

/// The title of the intent a request asks for ("Move Items").
func intentTitle(of request: any Request.Type) -> String {
    func title<Asked: Request>(_ request: Asked.Type) -> String { Asked.Intent.title }
    return title(request)
}
