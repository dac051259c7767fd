public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// A list was moved to a place among the lists of an area, or of none (`area` `nil`, and
/// absent from the JSON): into that area, or out of any, when it was elsewhere.
public struct ListMoved: ChangeKind {
    package static let name: StaticString = "moveList"
    /// A list's place in the sidebar, and its area, are personal.
    package static let isPersonal = true

    /// The list.
    public var id: ItemList.ID
    /// Where it went.
    public var place: SyncPlace
    /// The area it went to; `nil` for none.
    public var area: Area.ID?

    /// The change of these parts.
    public init(id: ItemList.ID, place: SyncPlace, area: Area.ID? = nil) { (self.id, self.place, self.area) = (id, place, area) }

    package var change: SyncChange { .moveList(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }, .member("place") { $0.place }, .member("area") { $0.area }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), place: try members.value("place"), area: try members.value("area"))
    }

    package func apply(in context: ChangeContext) throws {
        // A list moved into an area deleted meanwhile goes to the lists in no area.
        guard let list = try context.transaction.list(id: id) else { return }
        let scope = try context.existingArea(area).map(OrderScope.area) ?? .lists
        if list.scope != scope { try context.bury(list.entry, in: list.scope) }
        try context.place([id.entryID], at: place, in: scope)
    }
}

extension SyncChange {
    /// A change of the kind ``ListMoved``, of these parts.
    public static func moveList(id: ItemList.ID, place: SyncPlace, area: Area.ID? = nil) -> SyncChange {
        .moveList(ListMoved(id: id, place: place, area: area))
    }
}
