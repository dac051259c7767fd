public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// An entry was added to an item's checklist at a place there.
public struct ChecklistItemAdded: ChangeKind {
    package static let name: StaticString = "addChecklistItem"

    /// The new entry.
    public var id: ChecklistItem.ID
    /// The item whose checklist it is in.
    public var item: Item.ID
    /// Its title.
    public var title: String
    /// Where it went in the checklist.
    public var place: SyncPlace

    /// The change of these parts.
    public init(id: ChecklistItem.ID, item: Item.ID, title: String, place: SyncPlace) {
        self.id = id
        self.item = item
        self.title = title
        self.place = place
    }

    package var change: SyncChange { .addChecklistItem(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var id: ChecklistItem.ID?, item: Item.ID?, title: String?, place: SyncPlace?
        try json.members(["id", "item", "title", "place"]) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: id = try json.identifier()
            case 1: item = try json.identifier()
            case 2: title = try json.string()
            default: place = try json.place()
            }
        }
        self.init(id: try json.required(id), item: try json.required(item), title: try json.required(title), place: try json.required(place))
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("id") { $0.id(id) }
        members.member("item") { $0.id(item) }
        members.member("title") { $0.string(title) }
        members.member("place") { $0.place(place) }
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: title, as: .title)
    }

    package var sizeBound: Int { 2 * ChangeSize.id + ChangeSize.text(title) + ChangeSize.place }

    package func apply(in context: ChangeContext) throws {
        // An entry of an item deleted meanwhile goes with the item.
        guard try context.transaction.checklistItem(id: id) == nil, try context.transaction.item(id: item) != nil else { return }
        let entry = ChecklistItem(id: id, itemID: item, title: ChangeContext.storable(title: title))
        try context.ordering.add(entry, at: try context.placement(place, in: .checklist(item)).map { ChecklistItem.ID(entry: $0) }, in: context.transaction)
    }
}

extension SyncChange {
    /// A change of the kind ``ChecklistItemAdded``, of these parts.
    public static func addChecklistItem(id: ChecklistItem.ID, item: Item.ID, title: String, place: SyncPlace) -> SyncChange {
        .addChecklistItem(ChecklistItemAdded(id: id, item: item, title: title, place: place))
    }
}
