public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// An entry was added to an item's checklist at a place there.
public struct ChecklistItemAdded: ChangeKind {
    package static let name: StaticString = "addChecklistItem"

    /// The new entry.
    public var id: ChecklistItem.ID
    /// The item whose checklist it is in.
    public var item: Item.ID
    /// Its title.
    public var title: String
    /// Where it went in the checklist.
    public var place: SyncPlace

    /// The change of these parts.
    public init(id: ChecklistItem.ID, item: Item.ID, title: String, place: SyncPlace) {
        (self.id, self.item, self.title, self.place) = (id, item, title, place)
    }

    package var change: SyncChange { .addChecklistItem(self) }

    package static let members: ChangeMembers<Self> = [
        .made("id") { $0.id }, .member("item") { $0.item }, .member("title") { $0.title }, .member("place") { $0.place },
    ]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), item: try members.value("item"), title: try members.value("title"), place: try members.value("place"))
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: title, as: .title)
    }

    package func apply(in context: ChangeContext) throws {
        // An entry of an item deleted meanwhile goes with the item.
        guard try context.transaction.checklistItem(id: id) == nil, try context.transaction.item(id: item) != nil else { return }
        let entry = ChecklistItem(id: id, itemID: item, title: ChangeContext.storable(title: title))
        try context.ordering.add(entry, at: try context.placement(place, in: .checklist(item)).map { ChecklistItem.ID(entry: $0) }, in: context.transaction)
    }
}

extension ChecklistItemAdded: RowCreation {
    /// Deleting it.
    package var deletion: any ReversibleChange { SyncChange.deletion(ofChecklistItems: [id]) }
    package func deletionConflict(in store: any ItemReading) throws -> ChangeConflict? { try store.checklistItem(id: id) == nil ? .checklistItemGone(id) : nil }
}

extension SyncChange {
    /// A change of the kind ``ChecklistItemAdded``, of these parts.
    public static func addChecklistItem(id: ChecklistItem.ID, item: Item.ID, title: String, place: SyncPlace) -> SyncChange {
        .addChecklistItem(ChecklistItemAdded(id: id, item: item, title: title, place: place))
    }
}
