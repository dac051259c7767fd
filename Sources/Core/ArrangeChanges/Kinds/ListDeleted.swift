public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// A list was deleted with its items and headings.
public struct ListDeleted: ChangeKind {
    package static let name: StaticString = "deleteList"

    /// The list.
    public var id: ItemList.ID

    /// The change of these parts.
    public init(id: ItemList.ID) { self.id = id }

    package var change: SyncChange { .deleteList(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"))
    }

    package func apply(in context: ChangeContext) throws {
        guard let list = try context.transaction.list(id: id) else { return }
        try context.bury(list.entry, in: list.scope)
        if context.tombstones != nil {
            for item in try context.transaction.items(in: id, visibility: .all, offset: 0, limit: .max) { try context.bury(item) }
        }
        try context.transaction.deleteList(id: id)
    }
}

extension ListDeleted: ReversibleChange {
    /// The list back where it is now, with its headings and its items.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        guard let list = try store.list(id: id) else { return [] }
        return [ListRestored(
            list, place: try ChangeRecord.place(of: list.entry, in: list.scope, transaction: store), headings: try store.headings(in: id),
            items: try ChangeRecord.placedItems(try store.items(in: id, visibility: .all, offset: 0, limit: .max), in: store))]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        guard let list = try store.list(id: id) else { return nil }
        return .listExistsAgain(name: list.name)
    }
}

extension ItemReading {
    /// Why the list `id` cannot be deleted to take back its making: it is gone, or it has
    /// become the default list, which is not deleted; `nil` when it can be.
    package func listDeletionConflict(_ id: ItemList.ID) throws -> ChangeConflict? {
        guard let list = try list(id: id) else { return .listGone(id) }
        return try defaultListID() == id ? .becameDefault(name: list.name) : nil
    }
}

/// A deleted list put back as it was, after the list that was before it, with its headings
/// and its items: how undo takes a delete back. It refuses when it exists again, or the list
/// before it is gone.
package struct ListRestored: ReversibleChange {
    /// The list as it was.
    package var list: ItemList
    /// Where it was among the lists (of its area, if any).
    package var place: ChangeRecord.Place
    /// Its headings, in their order.
    package var headings: [Heading]
    /// Its items, with where they were.
    package var items: [ChangeRecord.PlacedItem]

    package init(_ list: ItemList, place: ChangeRecord.Place, headings: [Heading], items: [ChangeRecord.PlacedItem]) {
        (self.list, self.place, self.headings, self.items) = (list, place, headings, items)
    }

    package func apply(in context: ChangeContext) throws {
        guard try context.transaction.list(id: list.id) == nil else { throw ChangeConflict.listExistsAgain(name: list.name) }
        try context.ordering.add(list, at: try context.placement(after: place).map { ItemList.ID(entry: $0) }, in: context.transaction)
        // Each at the bottom, in their old order: the list is new again, so it holds them in order.
        for heading in headings { try context.ordering.add(heading, at: .bottom, in: context.transaction) }
        try context.restore(items)
    }

    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        [ListDeleted(id: list.id)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try store.listDeletionConflict(list.id)
    }

    /// The list as it is now, told as made, with its headings and items.
    package func told(in store: any ItemReading) throws -> [SyncChange] {
        try SyncChange.changes(
            bringingLists: [list.id: nil], items: Dictionary(uniqueKeysWithValues: items.map { ($0.item.id, nil) }),
            checklistItems: Dictionary(uniqueKeysWithValues: items.flatMap(\.checklist).map { ($0.id, nil) }),
            headings: Dictionary(uniqueKeysWithValues: headings.map { ($0.id, nil) }), upToDateIn: store)
    }
}

extension SyncChange {
    /// A change of the kind ``ListDeleted``, of these parts.
    public static func deleteList(id: ItemList.ID) -> SyncChange {
        .deleteList(ListDeleted(id: id))
    }
}
