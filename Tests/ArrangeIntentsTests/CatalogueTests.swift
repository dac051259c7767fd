import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import Testing

@Suite("The catalogue and the intents' JSON form")
struct CatalogueTests {
    @Test("Every intent is listed once, with a title, a summary and documented parameters")
    func entries() {
        let descriptions = IntentCatalogue.descriptions
        #expect(descriptions.count == IntentCatalogue.intents.count)
        #expect(IntentCatalogue.names == [
            "lists", "createList", "renameList", "deleteList", "list", "show", "add", "rename",
            "complete", "reopen", "delete", "move", "validate", "normalize", "undo", "redo",
        ])
        for description in descriptions {
            #expect(!description.title.isEmpty && description.summary.hasSuffix("."))
            #expect(description.parameters.allSatisfy { $0.help.hasSuffix(".") }, "\(description.name)")
        }
        #expect(MoveItems.title == "Move Items")
        #expect(CreateList.description.commandName == "create-list")
    }

    @Test("The two forms of move are told apart by fromOffsets")
    func moveForms() {
        #expect(IntentCatalogue.intent(named: "move", keys: ["items", "placement"]) == MoveItems.self)
        #expect(IntentCatalogue.intent(named: "move", keys: ["fromOffsets", "toOffset"]) == MoveItemsAtOffsets.self)
        #expect(IntentCatalogue.intent(named: "add", keys: []) == AddItem.self)
        #expect(IntentCatalogue.intent(named: "nope", keys: []) == nil)
    }

    @Test("Intents decode from their request form, defaults included")
    func decoding() throws {
        let decoder = JSONDecoder()
        let add = try decoder.decode(AddItem.self, from: Data(##"{"title": "Milk", "placement": {"after": "#2"}}"##.utf8))
        #expect(add.title == "Milk" && add.placement == .after("#2") && add.list == nil && add.notes == "")
        #expect(try decoder.decode(AddItem.self, from: Data(##"{"title": "Milk"}"##.utf8)).placement == .bottom)
        let move = try decoder.decode(MoveItems.self, from: Data(##"{"items": ["3f2a", "#1"], "placement": "top", "list": "Work"}"##.utf8))
        #expect(move.items == ["3f2a", "#1"] && move.placement == .top && move.list == "Work")
        #expect(try decoder.decode(ListItems.self, from: Data("{}".utf8)).includeCompleted == false)
        #expect(try decoder.decode(ValidateList.self, from: Data(##"{"repair": true}"##.utf8)).repair)
        #expect(throws: DecodingError.self) { try decoder.decode(AddItem.self, from: Data(##"{"title": "x", "placement": "middle"}"##.utf8)) }
        #expect(throws: DecodingError.self) {
            try decoder.decode(AddItem.self, from: Data(##"{"title": "x", "placement": {"before": "#1", "after": "#2"}}"##.utf8))
        }
    }

    @Test("Placements encode as they decode", arguments: [
        PlacementReference.top, .bottom, .before("#3"), .after("3f2a"), .offset(0),
    ])
    func placementRoundTrip(placement: PlacementReference) throws {
        let data = try JSONEncoder().encode([placement])
        #expect(try JSONDecoder().decode([PlacementReference].self, from: data) == [placement])
    }
}
