public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// An area was deleted. Its lists stay: those still in it move to the bottom of the lists in
/// no area, in their order.
public struct AreaDeleted: ChangeKind {
    package static let name: StaticString = "deleteArea"

    /// The area.
    public var id: Area.ID

    /// The change of these parts.
    public init(id: Area.ID) { self.id = id }

    package var change: SyncChange { .deleteArea(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"))
    }

    package func apply(in context: ChangeContext) throws {
        // Its lists stay: those still in it (moved there meanwhile) go to the bottom of the lists in no area.
        guard let area = try context.transaction.area(id: id) else { return }
        try context.rehome(try context.transaction.entries(in: .area(id), visibility: .all, offset: 0, limit: .max), from: .area(id), toBottomOf: .lists)
        try context.bury(area.entry, in: .areas)
        try context.transaction.deleteArea(id: id)
    }
}

extension SyncChange {
    /// A change of the kind ``AreaDeleted``, of these parts.
    public static func deleteArea(id: Area.ID) -> SyncChange {
        .deleteArea(AreaDeleted(id: id))
    }
}
