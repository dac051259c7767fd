public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// Entries of an item's checklist moved, as one run, to a place in it; entries of another
/// item's checklist stay where they are.
public struct ChecklistItemsMoved: ChangeKind {
    package static let name: StaticString = "moveChecklistItems"

    /// The entries, in their new order.
    public var ids: [ChecklistItem.ID]
    /// The item whose checklist they are in.
    public var item: Item.ID
    /// Where the run went.
    public var place: SyncPlace

    /// The change of these parts.
    public init(ids: [ChecklistItem.ID], item: Item.ID, place: SyncPlace) { (self.ids, self.item, self.place) = (ids, item, place) }

    package var change: SyncChange { .moveChecklistItems(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }, .member("item") { $0.item }, .member("place") { $0.place }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"), item: try members.value("item"), place: try members.value("place"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        runs(of: ids, at: place, maximum: maximumIDs) { ChecklistItemsMoved(ids: $0, item: item, place: $1) }
    }

    package func apply(in context: ChangeContext) throws {
        let moving = try context.existingChecklistItems(ids).filter { $0.itemID == item }.map(\.id.entryID)
        guard !moving.isEmpty else { return }
        try context.place(moving, at: place, in: .checklist(item))
    }
}

extension SyncChange {
    /// A change of the kind ``ChecklistItemsMoved``, of these parts.
    public static func moveChecklistItems(ids: [ChecklistItem.ID], item: Item.ID, place: SyncPlace) -> SyncChange {
        .moveChecklistItems(ChecklistItemsMoved(ids: ids, item: item, place: place))
    }
}
