public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// Items moved, as one run, to a place in a list (their own or another), under a heading of
/// it or under none (`heading` `nil`, and absent from the JSON). Items moved under a heading
/// that is gone go under none.
public struct ItemsMoved: ChangeKind {
    package static let name: StaticString = "moveItems"

    /// The items, in their new order.
    public var ids: [Item.ID]
    /// The list they went to.
    public var list: ItemList.ID
    /// Where the run went.
    public var place: SyncPlace
    /// The heading they went under; `nil` for none.
    public var heading: Heading.ID?

    /// The change of these parts.
    public init(ids: [Item.ID], list: ItemList.ID, place: SyncPlace, heading: Heading.ID? = nil) {
        (self.ids, self.list, self.place, self.heading) = (ids, list, place, heading)
    }

    package var change: SyncChange { .moveItems(self) }

    package static let members: ChangeMembers<Self> = [
        .member("ids") { $0.ids }, .member("list") { $0.list }, .member("place") { $0.place }, .member("heading") { $0.heading },
    ]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(
            ids: try members.value("ids"), list: try members.value("list"), place: try members.value("place"),
            heading: try members.value("heading"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        runs(of: ids, at: place, maximum: maximumIDs) { ItemsMoved(ids: $0, list: list, place: $1, heading: heading) }
    }

    package func apply(in context: ChangeContext) throws {
        // Items moved under a heading deleted meanwhile go under none, in the list named.
        let items = try context.existingItems(ids)
        guard !items.isEmpty else { return }
        let target = try context.existingHeading(heading).map { OrderScope.heading($0.id) } ?? .items(try context.existingList(list))
        for item in items where item.scope != target { try context.bury(item.entry(in: item.scope), in: item.scope) }
        try context.place(items.map(\.id.entryID), at: place, in: target)
    }
}

extension SyncChange {
    /// A change of the kind ``ItemsMoved``, of these parts.
    public static func moveItems(ids: [Item.ID], list: ItemList.ID, place: SyncPlace, heading: Heading.ID? = nil) -> SyncChange {
        .moveItems(ItemsMoved(ids: ids, list: list, place: place, heading: heading))
    }
}
