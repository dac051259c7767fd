public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

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
    public init(id: Area.ID, name: String, place: SyncPlace) { (self.id, self.name, self.place) = (id, name, place) }

    package var change: SyncChange { .createArea(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }, .member("name") { $0.name }, .member("place") { $0.place }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), name: try members.value("name"), place: try members.value("place"))
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: name, as: .areaName)
    }

    package func apply(in context: ChangeContext) throws {
        guard try context.transaction.area(id: id) == nil else { return }
        let area = Area(id: id, name: context.freeName(ChangeContext.storable(title: name), among: try context.transaction.areas()), createdAt: context.stamp)
        try context.ordering.add(area, at: try context.placement(place, in: .areas).map { Area.ID(entry: $0) }, in: context.transaction)
    }
}

extension AreaCreated: RowCreation {
    /// Deleting it; the lists put in it since stay, in no area.
    package var deletion: any ReversibleChange { SyncChange.deletion(ofArea: id) }
    package func deletionConflict(in store: any ItemReading) throws -> ChangeConflict? { try store.area(id: id) == nil ? .areaGone(id) : nil }
}

extension SyncChange {
    /// A change of the kind ``AreaCreated``, of these parts.
    public static func createArea(id: Area.ID, name: String, place: SyncPlace) -> SyncChange {
        .createArea(AreaCreated(id: id, name: name, place: place))
    }
}
