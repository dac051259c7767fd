public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

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

extension AreaDeleted: ReversibleChange {
    /// The area back where it is now, then the lists still in it back in it.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        guard let area = try store.area(id: id) else { return [] }
        return [AreaRestored(area, place: try ChangeRecord.place(of: area.entry, in: .areas, transaction: store))]
            + (try EntriesPutBack.everything(in: .area(id), of: store))
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        guard let area = try store.area(id: id) else { return nil }
        return .areaExistsAgain(name: area.name)
    }
}

/// A deleted area put back as it was, after the area that was before it: how undo takes a
/// delete back. It refuses when it exists again, or the area before it is gone.
package struct AreaRestored: ReversibleChange {
    /// The area as it was.
    package var area: Area
    /// Where it was among the areas.
    package var place: ChangeRecord.Place

    package init(_ area: Area, place: ChangeRecord.Place) { (self.area, self.place) = (area, place) }

    package func apply(in context: ChangeContext) throws {
        guard try context.transaction.area(id: area.id) == nil else { throw ChangeConflict.areaExistsAgain(name: area.name) }
        try context.ordering.add(area, at: try context.placement(after: place).map { Area.ID(entry: $0) }, in: context.transaction)
    }

    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        [AreaDeleted(id: area.id)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try store.area(id: area.id) == nil ? .areaGone(area.id) : nil
    }

    /// The area as it is now, told as made.
    package func told(in store: any ItemReading) throws -> [SyncChange] {
        try SyncChange.changes(bringingLists: [:], items: [:], areas: [area.id: nil], upToDateIn: store)
    }
}

extension SyncChange {
    /// A change of the kind ``AreaDeleted``, of these parts.
    public static func deleteArea(id: Area.ID) -> SyncChange {
        .deleteArea(AreaDeleted(id: id))
    }
}
