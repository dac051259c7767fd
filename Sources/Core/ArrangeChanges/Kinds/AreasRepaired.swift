public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// The keys of the areas (`area` `nil`) or of an area's lists were repaired or spread evenly: a
/// kind of its own, as ``ChecklistRepaired`` is, so that a version without areas keeps it as a
/// change of a newer version.
public struct AreasRepaired: ChangeKind {
    package static let name: StaticString = "repairAreas"
    /// The areas and their lists' order are personal.
    package static let isPersonal = true

    /// The area whose lists were repaired; `nil` for the areas themselves.
    public var area: Area.ID?
    /// Whether the keys were spread evenly, not only repaired.
    public var normalize: Bool

    /// The change of these parts.
    public init(area: Area.ID?, normalize: Bool) { (self.area, self.normalize) = (area, normalize) }

    package var change: SyncChange { .repairAreas(self) }

    package static let members: ChangeMembers<Self> = [.member("area") { $0.area }, .member("normalize") { $0.normalize }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(area: try members.value("area"), normalize: try members.value("normalize"))
    }

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
