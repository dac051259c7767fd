public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// Items' deadlines stopped bringing them into Today (`dismissed`), or started again.
public struct DeadlinesDismissed: ChangeKind {
    package static let name: StaticString = "dismissDeadlines"
    /// A dismissed deadline is personal: it keeps an item out of one person's Today.
    package static let isPersonal = true

    /// The items.
    public var ids: [Item.ID]
    /// Whether their deadlines are dismissed.
    public var dismissed: Bool

    /// The change of these parts.
    public init(ids: [Item.ID], dismissed: Bool) { (self.ids, self.dismissed) = (ids, dismissed) }

    package var change: SyncChange { .dismissDeadlines(self) }

    package static let members: ChangeMembers<Self> = [.member("dismissed") { $0.dismissed }, .member("ids") { $0.ids }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"), dismissed: try members.value("dismissed"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { DeadlinesDismissed(ids: $0, dismissed: dismissed) }
    }

    package func apply(in context: ChangeContext) throws {
        // Only a deadline can be dismissed: one taken away meanwhile leaves nothing to dismiss.
        try context.updateItems(ids) { item in
            let isDismissed = dismissed && item.deadline != nil
            guard item.deadlineDismissed != isDismissed else { return false }
            item.deadlineDismissed = isDismissed
            return true
        }
    }
}

extension DeadlinesDismissed: ReversibleChange, FieldChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        let changing = try existingItems(ids, in: store).filter { $0.deadlineDismissed != isDismissed(in: $0) }
        return Self.grouped(changing, by: \.deadlineDismissed) { DeadlinesDismissed(ids: $0, dismissed: $1) }
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try itemConflict(ids, in: store, field: .deadline) { $0.deadlineDismissed == isDismissed(in: $0) }
    }

    /// Whether the change leaves `item`'s deadline dismissed: only a deadline can be.
    private func isDismissed(in item: Item) -> Bool {
        dismissed && item.deadline != nil
    }

    /// A dismissal, told after a new deadline (before it in the registry), which takes one away.
    package static func changes(from old: Item?, to item: Item) -> [Self] {
        (old?.deadlineDismissed ?? false) == item.deadlineDismissed ? [] : [DeadlinesDismissed(ids: [item.id], dismissed: item.deadlineDismissed)]
    }
}

extension SyncChange {
    /// A change of the kind ``DeadlinesDismissed``, of these parts.
    public static func dismissDeadlines(ids: [Item.ID], dismissed: Bool) -> SyncChange {
        .dismissDeadlines(DeadlinesDismissed(ids: ids, dismissed: dismissed))
    }
}
