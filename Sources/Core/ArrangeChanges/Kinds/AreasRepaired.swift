public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// The keys of the areas (`area` `nil`) or of an area's lists were repaired or spread evenly: a
/// kind of its own, as ``ChecklistRepaired`` is, so that a version without areas keeps it as a
/// change of a newer version.
public struct AreasRepaired: ChangeKind {
    package static let name: StaticString = "repairAreas"

    /// The area whose lists were repaired; `nil` for the areas themselves.
    public var area: Area.ID?
    /// Whether the keys were spread evenly, not only repaired.
    public var normalize: Bool

    /// The change of these parts.
    public init(area: Area.ID?, normalize: Bool) {
        self.area = area
        self.normalize = normalize
    }

    package var change: SyncChange { .repairAreas(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var area: Area.ID?, normalize: Bool?
        try json.members(["area", "normalize"]) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: area = try json.identifier()
            default: normalize = try json.boolean()
            }
        }
        self.init(area: area, normalize: try json.required(normalize))
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("area", ifPresent: area) { $0.id($1) }
        members.member("normalize") { $0.bool(normalize) }
    }

    package var sizeBound: Int { ChangeSize.id + 32 }

    package func apply(in context: ChangeContext) throws {
        try context.repair(area.map(OrderScope.area) ?? .areas, normalize: normalize)
    }
}

extension SyncChange {
    /// A change of the kind ``AreasRepaired``, of these parts.
    public static func repairAreas(area: Area.ID?, normalize: Bool) -> SyncChange {
        .repairAreas(AreasRepaired(area: area, normalize: normalize))
    }
}
