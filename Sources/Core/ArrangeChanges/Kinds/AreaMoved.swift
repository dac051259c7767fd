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
    public init(id: Area.ID, place: SyncPlace) { (self.id, self.place) = (id, place) }

    package var change: SyncChange { .moveArea(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }, .member("place") { $0.place }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), place: try members.value("place"))
    }

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
