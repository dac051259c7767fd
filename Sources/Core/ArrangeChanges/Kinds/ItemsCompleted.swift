public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore
public import Foundation

/// Items were completed at a moment.
public struct ItemsCompleted: ChangeKind {
    package static let name: StaticString = "completeItems"

    /// The items.
    public var ids: [Item.ID]
    /// The moment.
    public var at: Date

    /// The change of these parts.
    public init(ids: [Item.ID], at: Date) { (self.ids, self.at) = (ids, at) }

    package var change: SyncChange { .completeItems(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }, .member("at") { $0.at }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"), at: try members.value("at"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { ItemsCompleted(ids: $0, at: at) }
    }

    package func apply(in context: ChangeContext) throws {
        try context.updateItems(ids) { item in
            guard item.completedAt == nil else { return false }
            (item.completedAt, item.isCanceled) = (at, false)
            return true
        }
    }
}

extension ItemsCompleted: ReversibleChange, FieldChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        let completing = try existingItems(ids, in: store).filter { $0.completedAt == nil }.map(\.id)
        return completing.isEmpty ? [] : [SyncChange.reopening(completing)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try itemConflict(ids, in: store, field: .completion) { !$0.isCanceled && Self.isSameMoment($0.completedAt, at) }
    }

    /// A completion at a new moment, or of an item canceled before; a reopening, before it
    /// in the registry, reopens first.
    package static func changes(from old: Item?, to item: Item) -> [Self] {
        guard let done = item.completedAt, !item.isCanceled, old?.isCanceled == true || !isSameMoment(old?.completedAt, done) else { return [] }
        return [ItemsCompleted(ids: [item.id], at: done)]
    }
}

extension SyncChange {
    /// A change of the kind ``ItemsCompleted``, of these parts.
    public static func completeItems(ids: [Item.ID], at: Date) -> SyncChange {
        .completeItems(ItemsCompleted(ids: ids, at: at))
    }
}
