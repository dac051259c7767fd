public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// An item was added to a list at a place, under a heading of it or under none (`heading`
/// `nil`, and absent from the JSON).
public struct ItemAdded: ChangeKind {
    package static let name: StaticString = "addItem"

    /// The new item.
    public var id: Item.ID
    /// Its list.
    public var list: ItemList.ID
    /// Its title.
    public var title: String
    /// Its notes.
    public var notes: String
    /// Where it went among the items of its heading, or of none.
    public var place: SyncPlace
    /// Its heading; `nil` for none.
    public var heading: Heading.ID?

    /// The change of these parts.
    public init(id: Item.ID, list: ItemList.ID, title: String, notes: String, place: SyncPlace, heading: Heading.ID? = nil) {
        self.id = id
        self.list = list
        self.title = title
        self.notes = notes
        self.place = place
        self.heading = heading
    }

    package var change: SyncChange { .addItem(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var id: Item.ID?, list: ItemList.ID?, title: String?, notes: String?, place: SyncPlace?, heading: Heading.ID?
        try json.members(["id", "list", "title", "notes", "place", "heading"]) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: id = try json.identifier()
            case 1: list = try json.identifier()
            case 2: title = try json.string()
            case 3: notes = try json.string()
            case 4: place = try json.place()
            default: heading = try json.identifier()
            }
        }
        self.init(id: try json.required(id), list: try json.required(list), title: try json.required(title), notes: try json.required(notes), place: try json.required(place), heading: heading)
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("id") { $0.id(id) }
        members.member("list") { $0.id(list) }
        members.member("title") { $0.string(title) }
        members.member("notes") { $0.string(notes) }
        members.member("place") { $0.place(place) }
        members.member("heading", ifPresent: heading) { $0.id($1) }
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: title, as: .title)
        try check.notes(notes)
    }

    package var sizeBound: Int { 3 * ChangeSize.id + ChangeSize.text(title) + ChangeSize.text(notes) + ChangeSize.place }

    package func apply(in context: ChangeContext) throws {
        guard try context.transaction.item(id: id) == nil else { return }
        var item = Item(
            id: id, listID: try context.existingList(list), title: ChangeContext.storable(title: title), notes: ChangeContext.storable(notes),
            sortIndex: 0, createdAt: context.stamp)
        if let heading = try context.existingHeading(heading) { (item.listID, item.heading) = (heading.listID, heading.id) }
        try context.ordering.add(item, at: try context.placement(place, in: item.scope).map { Item.ID(entry: $0) }, visibility: .all, in: context.transaction)
    }
}

extension SyncChange {
    /// A change of the kind ``ItemAdded``, of these parts.
    public static func addItem(id: Item.ID, list: ItemList.ID, title: String, notes: String, place: SyncPlace, heading: Heading.ID? = nil) -> SyncChange {
        .addItem(ItemAdded(id: id, list: list, title: title, notes: notes, place: place, heading: heading))
    }
}
