public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// An area was moved among the areas.
public struct AreaMoved: ChangeKind {
    package static let name: StaticString = "moveArea"

    /// The area.
    public var id: Area.ID
    /// Where it went among the areas.
    public var place: SyncPlace

    /// The change of these parts.
    public init(id: Area.ID, place: SyncPlace) {
        self.id = id
        self.place = place
    }

    package var change: SyncChange { .moveArea(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var id: Area.ID?, place: SyncPlace?
        try json.members(["id", "place"]) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: id = try json.identifier()
            default: place = try json.place()
            }
        }
        self.init(id: try json.required(id), place: try json.required(place))
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("id") { $0.id(id) }
        members.member("place") { $0.place(place) }
    }

    package var sizeBound: Int { 2 * ChangeSize.id + ChangeSize.place }

    package func apply(in context: ChangeContext) throws {
        guard try context.transaction.area(id: id) != nil else { return }
        try context.place([id.entryID], at: place, in: .areas)
    }
}

extension SyncChange {
    /// A change of the kind ``AreaMoved``, of these parts.
    public static func moveArea(id: Area.ID, place: SyncPlace) -> SyncChange {
        .moveArea(AreaMoved(id: id, place: place))
    }
}
