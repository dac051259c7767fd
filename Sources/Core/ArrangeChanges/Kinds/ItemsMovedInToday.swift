public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// Items of Today moved, as one run, to a place in it.
public struct ItemsMovedInToday: ChangeKind {
    package static let name: StaticString = "moveInToday"

    /// The items, in their new order.
    public var ids: [Item.ID]
    /// Where the run went in Today.
    public var place: SyncPlace

    /// The change of these parts.
    public init(ids: [Item.ID], place: SyncPlace) {
        self.ids = ids
        self.place = place
    }

    package var change: SyncChange { .moveInToday(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var ids: [Item.ID]?, place: SyncPlace?
        try json.members(["ids", "place"]) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: ids = try json.identifiers()
            default: place = try json.place()
            }
        }
        self.init(ids: try json.required(ids), place: try json.required(place))
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("ids") { $0.ids(ids) }
        members.member("place") { $0.place(place) }
    }

    package var sizeBound: Int { ChangeSize.ids(ids) + ChangeSize.place }

    package func split(maximumIDs: Int) -> [Self] {
        runs(of: ids, at: place, maximum: maximumIDs) { ItemsMovedInToday(ids: $0, place: $1) }
    }

    package func apply(in context: ChangeContext) throws {
        // As joining it: Today's items are placed alike, whether they were in it or not.
        try ItemsAddedToToday(ids: ids, place: place).apply(in: context)
    }
}

extension SyncChange {
    /// A change of the kind ``ItemsMovedInToday``, of these parts.
    public static func moveInToday(ids: [Item.ID], place: SyncPlace) -> SyncChange {
        .moveInToday(ItemsMovedInToday(ids: ids, place: place))
    }
}
