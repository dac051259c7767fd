public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// An area was created at a place among the areas.
public struct AreaCreated: ChangeKind {
    package static let name: StaticString = "createArea"

    /// The new area.
    public var id: Area.ID
    /// Its name; a number is added where another area has it.
    public var name: String
    /// Where it went among the areas.
    public var place: SyncPlace

    /// The change of these parts.
    public init(id: Area.ID, name: String, place: SyncPlace) {
        self.id = id
        self.name = name
        self.place = place
    }

    package var change: SyncChange { .createArea(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var id: Area.ID?, name: String?, place: SyncPlace?
        try json.members(["id", "name", "place"]) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: id = try json.identifier()
            case 1: name = try json.string()
            default: place = try json.place()
            }
        }
        self.init(id: try json.required(id), name: try json.required(name), place: try json.required(place))
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("id") { $0.id(id) }
        members.member("name") { $0.string(name) }
        members.member("place") { $0.place(place) }
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: name, as: .areaName)
    }

    package var sizeBound: Int { 2 * ChangeSize.id + ChangeSize.text(name) + ChangeSize.place }

    package func apply(in context: ChangeContext) throws {
        guard try context.transaction.area(id: id) == nil else { return }
        let area = Area(id: id, name: context.freeName(ChangeContext.storable(title: name), among: try context.transaction.areas()), createdAt: context.stamp)
        try context.ordering.add(area, at: try context.placement(place, in: .areas).map { Area.ID(entry: $0) }, in: context.transaction)
    }
}

extension SyncChange {
    /// A change of the kind ``AreaCreated``, of these parts.
    public static func createArea(id: Area.ID, name: String, place: SyncPlace) -> SyncChange {
        .createArea(AreaCreated(id: id, name: name, place: place))
    }
}
