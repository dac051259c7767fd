public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// A list was created at a place among the lists of an area, or of none (`area` `nil`, and
/// absent from the JSON).
public struct ListCreated: ChangeKind {
    package static let name: StaticString = "createList"

    /// The new list.
    public var id: ItemList.ID
    /// Its name; a number is added where another list has it.
    public var name: String
    /// Where it went among the lists of its area, or of none.
    public var place: SyncPlace
    /// Its area; `nil` for none, or for an area deleted meanwhile.
    public var area: Area.ID?

    /// The change of these parts.
    public init(id: ItemList.ID, name: String, place: SyncPlace, area: Area.ID? = nil) {
        self.id = id
        self.name = name
        self.place = place
        self.area = area
    }

    package var change: SyncChange { .createList(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var id: ItemList.ID?, name: String?, place: SyncPlace?, area: Area.ID?
        try json.members(["id", "name", "place", "area"]) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: id = try json.identifier()
            case 1: name = try json.string()
            case 2: place = try json.place()
            default: area = try json.identifier()
            }
        }
        self.init(id: try json.required(id), name: try json.required(name), place: try json.required(place), area: area)
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("id") { $0.id(id) }
        members.member("name") { $0.string(name) }
        members.member("place") { $0.place(place) }
        members.member("area", ifPresent: area) { $0.id($1) }
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: name, as: .listName)
    }

    package var sizeBound: Int { 2 * ChangeSize.id + ChangeSize.text(name) + ChangeSize.place }

    package func apply(in context: ChangeContext) throws {
        guard try context.transaction.list(id: id) == nil else { return }
        let name = try context.freeName(ChangeContext.storable(title: name))
        let list = ItemList(id: id, name: name, createdAt: context.stamp, area: try context.existingArea(area))
        try context.ordering.add(list, at: try context.placement(place, in: list.scope).map { ItemList.ID(entry: $0) }, in: context.transaction)
    }
}

extension SyncChange {
    /// A change of the kind ``ListCreated``, of these parts.
    public static func createList(id: ItemList.ID, name: String, place: SyncPlace, area: Area.ID? = nil) -> SyncChange {
        .createList(ListCreated(id: id, name: name, place: place, area: area))
    }
}
