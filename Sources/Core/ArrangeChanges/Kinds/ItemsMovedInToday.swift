public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// Items of Today moved, as one run, to a place in it.
public struct ItemsMovedInToday: ChangeKind {
    package static let name: StaticString = "moveInToday"
    /// Today is personal: each person's own, in their own order.
    package static let isPersonal = true

    /// The items, in their new order.
    public var ids: [Item.ID]
    /// Where the run went in Today.
    public var place: SyncPlace

    /// The change of these parts.
    public init(ids: [Item.ID], place: SyncPlace) { (self.ids, self.place) = (ids, place) }

    package var change: SyncChange { .moveInToday(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }, .member("place") { $0.place }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"), place: try members.value("place"))
    }

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
