public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// Items left Today.
public struct ItemsRemovedFromToday: ChangeKind {
    package static let name: StaticString = "removeFromToday"

    /// The items.
    public var ids: [Item.ID]

    /// The change of these parts.
    public init(ids: [Item.ID]) {
        self.ids = ids
    }

    package var change: SyncChange { .removeFromToday(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var ids: [Item.ID]?
        try json.members(["ids"]) { json, _ throws(OperationJSONReader.GiveUp) in ids = try json.identifiers() }
        self.init(ids: try json.required(ids))
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("ids") { $0.ids(ids) }
    }

    package var sizeBound: Int { ChangeSize.ids(ids) }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { ItemsRemovedFromToday(ids: $0) }
    }

    package func apply(in context: ChangeContext) throws {
        let items = try context.existingItems(ids).filter(\.isKeyedInToday)
        for item in items { try context.bury(item.entry(in: .today), in: .today) }
        try context.transaction.removeFromToday(items.map(\.id), updatedAt: context.stamp)
    }
}

extension SyncChange {
    /// A change of the kind ``ItemsRemovedFromToday``, of these parts.
    public static func removeFromToday(ids: [Item.ID]) -> SyncChange {
        .removeFromToday(ItemsRemovedFromToday(ids: ids))
    }
}
