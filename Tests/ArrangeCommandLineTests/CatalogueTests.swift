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
            "lists", "createList", "moveList", "renameList", "deleteList", "list", "show", "add", "rename", "edit",
            "complete", "reopen", "delete", "move", "today", "addToToday", "removeFromToday", "moveInToday",
            "validate", "normalize", "undo", "redo",
        ])
        for form in RequestCatalogue.forms {
            #expect(!intentTitle(of: form).isEmpty && form.summary.hasSuffix("."), "\(form.name)")
            #expect(form.parameters.allSatisfy { $0.help.hasSuffix(".") }, "\(form.name)")
            #expect(Set(form.parameters.map(\.name)).count == form.parameters.count, "\(form.name) names a parameter twice")
        }
        #expect(intentTitle(of: MoveRequest.self) == "Move Items")
        #expect(CreateListRequest.commandName == "create-list")
    }

    @Test("Every subcommand's help comes from its form's parameters")
    func help() {
        let add = Arrange.helpMessage(for: AddCommand.self, columns: 1_000)
        for parameter in AddRequest.parameters where parameter.name != "placement" {
            #expect(add.contains(parameter.help), "\(parameter.name)")
        }
        #expect(Arrange.helpMessage(for: CompleteCommand.self, columns: 1_000).contains(CompleteRequest.items.help))
        #expect(Arrange.helpMessage(for: ReopenCommand.self, columns: 1_000).contains(ReopenRequest.items.help))
    }

    @Test("The two forms of move are told apart by fromOffsets")
    func moveForms() {
        func form(_ name: String, _ keys: Set<String>) -> ObjectIdentifier? {
            RequestCatalogue.form(named: name, keys: keys).map(ObjectIdentifier.init)
        }
        #expect(form("move", ["items", "placement"]) == ObjectIdentifier(MoveRequest.self))
        #expect(form("move", ["fromOffsets", "toOffset"]) == ObjectIdentifier(MoveAtOffsetsRequest.self))
        #expect(form("add", []) == ObjectIdentifier(AddRequest.self))
        #expect(form("moveList", ["list", "placement"]) == ObjectIdentifier(MoveListRequest.self))
        #expect(form("moveList", ["fromOffsets", "toOffset"]) == ObjectIdentifier(MoveListsAtOffsetsRequest.self))
        #expect(form("moveInToday", ["items", "placement"]) == ObjectIdentifier(MoveInTodayRequest.self))
        #expect(form("moveInToday", ["fromOffsets", "toOffset"]) == ObjectIdentifier(MoveInTodayAtOffsetsRequest.self))
        #expect(form("nope", []) == nil)
    }

    @Test("Requests read their fields, with what they leave out left out")
    func fields() throws {
        let add = try RunRequest(##"{"title": "Milk", "placement": {"after": "#2"}, "intent": "add"}"##)
        #expect(add.fields[AddRequest.title] == "Milk" && add.fields[AddRequest.placement] == .after("#2"))
        #expect(add.fields[AddRequest.list] == nil && add.fields[AddRequest.notes] == nil)
        let move = try RunRequest(##"{"intent": "move", "items": ["3f2a", "#1"], "placement": "top", "list": "Work"}"##)
        #expect(move.fields[MoveRequest.items] == ["3f2a", "#1"] && move.fields[MoveRequest.list] == "Work")
        #expect(try RunRequest(##"{"intent": "validate", "repair": true}"##).fields[ValidateRequest.repair] == true)
        #expect(throws: IntentFailure.self) { try RunRequest(##"{"intent": "add", "title": "x", "placement": {"before": "#1", "after": "#2"}}"##) }
        #expect(throws: IntentFailure.self) { try RunRequest(##"{"intent": "add", "title": "x", "placement": {"below": "#1"}}"##) }
    }
}

/// The title of the intent a form asks for ("Move Items").
func intentTitle(of form: any RequestForm.Type) -> String {
    func title<Form: RequestForm>(_ form: Form.Type) -> String { Form.Intent.title }
    return title(form)
}
