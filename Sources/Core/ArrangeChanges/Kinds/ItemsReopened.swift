public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// Items were reopened.
public struct ItemsReopened: ChangeKind {
    package static let name: StaticString = "reopenItems"

    /// The items.
    public var ids: [Item.ID]

    /// The change of these parts.
    public init(ids: [Item.ID]) { self.ids = ids }

    package var change: SyncChange { .reopenItems(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { ItemsReopened(ids: $0) }
    }

    package func apply(in context: ChangeContext) throws {
        try context.setItems(ids, \.completedAt, to: nil)
    }
}

extension ItemsReopened: ReversibleChange, FieldChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        Self.grouped(try existingItems(ids, in: store), by: \.completedAt) { ItemsCompleted(ids: $0, at: $1) }
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try itemConflict(ids, in: store, field: .completion) { $0.completedAt == nil }
    }

    /// A reopening, also of an item completed again at another moment.
    package static func changes(from old: Item?, to item: Item) -> [Self] {
        guard old?.completedAt != nil, !isSameMoment(old?.completedAt, item.completedAt) else { return [] }
        return [ItemsReopened(ids: [item.id])]
    }
}

extension SyncChange {
    /// A change of the kind ``ItemsReopened``, of these parts.
    public static func reopenItems(ids: [Item.ID]) -> SyncChange {
        .reopenItems(ItemsReopened(ids: ids))
    }
}
