public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// An item was added to a list at a place, under a heading of it or under none (`heading`
/// `nil`, and absent from the JSON).
public struct ItemAdded: ChangeKind {
    package static let name: StaticString = "addItem"

    /// The new item.
    public var id: Item.ID
    /// Its list.
    public var list: ItemList.ID
    /// Its title.
    public var title: String
    /// Its notes.
    public var notes: String
    /// Where it went among the items of its heading, or of none.
    public var place: SyncPlace
    /// Its heading; `nil` for none.
    public var heading: Heading.ID?

    /// The change of these parts.
    public init(id: Item.ID, list: ItemList.ID, title: String, notes: String, place: SyncPlace, heading: Heading.ID? = nil) {
        (self.id, self.list, self.title, self.notes, self.place, self.heading) = (id, list, title, notes, place, heading)
    }

    package var change: SyncChange { .addItem(self) }

    package static let members: ChangeMembers<Self> = [
        .made("id") { $0.id }, .member("list") { $0.list }, .member("title") { $0.title }, .member("notes") { $0.notes },
        .member("place") { $0.place }, .member("heading") { $0.heading },
    ]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(
            id: try members.value("id"), list: try members.value("list"), title: try members.value("title"),
            notes: try members.value("notes"), place: try members.value("place"), heading: try members.value("heading"))
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: title, as: .title)
        try check.notes(notes)
    }

    package func apply(in context: ChangeContext) throws {
        guard try context.transaction.item(id: id) == nil else { return }
        var item = Item(
            id: id, listID: try context.existingList(list), title: ChangeContext.storable(title: title), notes: ChangeContext.storable(notes),
            sortIndex: 0, createdAt: context.stamp)
        if let heading = try context.existingHeading(heading) { (item.listID, item.heading) = (heading.listID, heading.id) }
        try context.ordering.add(item, at: try context.placement(place, in: item.scope).map { Item.ID(entry: $0) }, visibility: .all, in: context.transaction)
    }
}

extension ItemAdded: RowCreation {
    /// Deleting it.
    package var deletion: any ReversibleChange { SyncChange.deletion(ofItems: [id]) }
    package func deletionConflict(in store: any ItemReading) throws -> ChangeConflict? { try store.item(id: id) == nil ? .itemGone(id) : nil }
}

extension SyncChange {
    /// A change of the kind ``ItemAdded``, of these parts.
    public static func addItem(id: Item.ID, list: ItemList.ID, title: String, notes: String, place: SyncPlace, heading: Heading.ID? = nil) -> SyncChange {
        .addItem(ItemAdded(id: id, list: list, title: title, notes: notes, place: place, heading: heading))
    }
}
