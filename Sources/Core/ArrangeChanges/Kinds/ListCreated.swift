public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

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
        (self.id, self.name, self.place, self.area) = (id, name, place, area)
    }

    package var change: SyncChange { .createList(self) }

    package static let members: ChangeMembers<Self> = [
        .member("id") { $0.id }, .member("name") { $0.name }, .member("place") { $0.place }, .member("area") { $0.area },
    ]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), name: try members.value("name"), place: try members.value("place"), area: try members.value("area"))
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: name, as: .listName)
    }

    package func apply(in context: ChangeContext) throws {
        guard try context.transaction.list(id: id) == nil else { return }
        let name = try context.freeName(ChangeContext.storable(title: name))
        let list = ItemList(id: id, name: name, createdAt: context.stamp, area: try context.existingArea(area))
        try context.ordering.add(list, at: try context.placement(place, in: list.scope).map { ItemList.ID(entry: $0) }, in: context.transaction)
    }
}

extension ListCreated: RowCreation {
    /// Deleting it, with the items put in it since.
    package var deletion: any ReversibleChange { SyncChange.deletion(ofList: id) }
    package func deletionConflict(in store: any ItemReading) throws -> ChangeConflict? { try store.listDeletionConflict(id) }
}

extension SyncChange {
    /// A change of the kind ``ListCreated``, of these parts.
    public static func createList(id: ItemList.ID, name: String, place: SyncPlace, area: Area.ID? = nil) -> SyncChange {
        .createList(ListCreated(id: id, name: name, place: place, area: area))
    }
}
