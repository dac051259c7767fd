public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// Items joined Today, or moved in it, as one run at a place.
public struct ItemsAddedToToday: ChangeKind {
    package static let name: StaticString = "addToToday"
    /// Today is personal: each person's own, in their own order.
    package static let isPersonal = true

    /// The items, in their new order.
    public var ids: [Item.ID]
    /// Where the run went in Today.
    public var place: SyncPlace

    /// The change of these parts.
    public init(ids: [Item.ID], place: SyncPlace) { (self.ids, self.place) = (ids, place) }

    package var change: SyncChange { .addToToday(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }, .member("place") { $0.place }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"), place: try members.value("place"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        runs(of: ids, at: place, maximum: maximumIDs) { ItemsAddedToToday(ids: $0, place: $1) }
    }

    package func apply(in context: ChangeContext) throws {
        let moving = try context.existingItems(ids).map(\.id.entryID)
        guard !moving.isEmpty else { return }
        try context.place(moving, at: place, in: .today)
    }
}

extension SyncChange {
    /// A change of the kind ``ItemsAddedToToday``, of these parts.
    public static func addToToday(ids: [Item.ID], place: SyncPlace) -> SyncChange {
        .addToToday(ItemsAddedToToday(ids: ids, place: place))
    }
}
