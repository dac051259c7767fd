public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// Items left Today.
public struct ItemsRemovedFromToday: ChangeKind {
    package static let name: StaticString = "removeFromToday"
    /// Today is personal: each person's own, in their own order.
    package static let isPersonal = true

    /// The items.
    public var ids: [Item.ID]

    /// The change of these parts.
    public init(ids: [Item.ID]) { self.ids = ids }

    package var change: SyncChange { .removeFromToday(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { ItemsRemovedFromToday(ids: $0) }
    }

    package func apply(in context: ChangeContext) throws {
        let items = try context.existingItems(ids).filter(\.isKeyedInToday)
        for item in items { try context.bury(item.entry(in: .today), in: .today) }
        try context.transaction.removeFromToday(items.map(\.id), updatedAt: context.stamp)
    }
}

extension ItemsRemovedFromToday: ReversibleChange {
    /// The items back in Today, where they are there now.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        let places = try ChangeRecord.todayPlaces(of: try existingItems(ids, in: store), in: store)
        return places.isEmpty ? [] : [EntriesPutBack(places, joiningToday: true)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        for id in Set(ids).sorted() where try store.item(id: id) == nil { return .itemGone(id) }
        return nil
    }
}

extension SyncChange {
    /// A change of the kind ``ItemsRemovedFromToday``, of these parts.
    public static func removeFromToday(ids: [Item.ID]) -> SyncChange {
        .removeFromToday(ItemsRemovedFromToday(ids: ids))
    }
}
