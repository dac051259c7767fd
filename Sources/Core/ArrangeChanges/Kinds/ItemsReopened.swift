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
        // Completed and canceled alike.
        try context.updateItems(ids) { item in
            guard item.completedAt != nil || item.isCanceled else { return false }
            (item.completedAt, item.isCanceled) = (nil, false)
            return true
        }
    }
}

extension ItemsReopened: ReversibleChange, FieldChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        let items = try existingItems(ids, in: store)
        return [false, true].flatMap { canceled in
            Self.grouped(items.filter { $0.isCanceled == canceled }, by: \.completedAt) { SyncChange.closing($0, at: $1, canceled: canceled) }
        }
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try itemConflict(ids, in: store, field: .completion) { $0.completedAt == nil }
    }

    /// A reopening, also of an item closed again at another moment, or the other way.
    package static func changes(from old: Item?, to item: Item) -> [Self] {
        guard let old, old.completedAt != nil, !isSameMoment(old.completedAt, item.completedAt) || old.isCanceled != item.isCanceled else {
            return []
        }
        return [ItemsReopened(ids: [item.id])]
    }
}

extension SyncChange {
    /// A change of the kind ``ItemsReopened``, of these parts.
    public static func reopenItems(ids: [Item.ID]) -> SyncChange {
        .reopenItems(ItemsReopened(ids: ids))
    }
}
