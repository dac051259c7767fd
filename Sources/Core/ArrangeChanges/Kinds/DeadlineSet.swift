public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// Items got a deadline, or lost theirs (`nil`, absent from the JSON).
public struct DeadlineSet: ChangeKind {
    package static let name: StaticString = "setDeadline"

    /// The items.
    public var ids: [Item.ID]
    /// The deadline; `nil` for none.
    public var deadline: Day?

    /// The change of these parts.
    public init(ids: [Item.ID], deadline: Day?) { (self.ids, self.deadline) = (ids, deadline) }

    package var change: SyncChange { .setDeadline(self) }

    package static let members: ChangeMembers<Self> = [.member("deadline") { $0.deadline }, .member("ids") { $0.ids }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"), deadline: try members.value("deadline"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { DeadlineSet(ids: $0, deadline: deadline) }
    }

    package func apply(in context: ChangeContext) throws {
        // A new deadline is not dismissed, as SetDeadline has it.
        try context.updateItems(ids) { item in
            guard item.deadline != deadline else { return false }
            item.deadline = deadline
            item.deadlineDismissed = false
            return true
        }
    }
}

extension DeadlineSet: ReversibleChange, FieldChange {
    /// The old deadlines back, then the dismissals that the new deadline took away.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        let changing = try existingItems(ids, in: store).filter { $0.deadline != deadline }
        let dismissed = changing.filter(\.deadlineDismissed).map(\.id)
        return Self.grouped(changing, by: { .some($0.deadline) }) { DeadlineSet(ids: $0, deadline: $1) }
            + (dismissed.isEmpty ? [] : [DeadlinesDismissed(ids: dismissed, dismissed: true)])
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try itemConflict(ids, in: store, field: .deadline) { $0.deadline == deadline }
    }

    package static func changes(from old: Item?, to item: Item) -> [Self] {
        old?.deadline == item.deadline ? [] : [DeadlineSet(ids: [item.id], deadline: item.deadline)]
    }
}

extension SyncChange {
    /// A change of the kind ``DeadlineSet``, of these parts.
    public static func setDeadline(ids: [Item.ID], deadline: Day?) -> SyncChange {
        .setDeadline(DeadlineSet(ids: ids, deadline: deadline))
    }
}
