public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// Items got a deadline, or lost theirs (`nil`, absent from the JSON).
public struct DeadlineSet: ChangeKind {
    package static let name: StaticString = "setDeadline"

    /// The items.
    public var ids: [Item.ID]
    /// The deadline; `nil` for none.
    public var deadline: Day?

    /// The change of these parts.
    public init(ids: [Item.ID], deadline: Day?) {
        self.ids = ids
        self.deadline = deadline
    }

    package var change: SyncChange { .setDeadline(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var ids: [Item.ID]?, deadline: Day?
        try json.members(["ids", "deadline"]) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: ids = try json.identifiers()
            default: deadline = try json.day()
            }
        }
        self.init(ids: try json.required(ids), deadline: deadline)
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("deadline", ifPresent: deadline) { $0.day($1) }
        members.member("ids") { $0.ids(ids) }
    }

    package var sizeBound: Int { ChangeSize.ids(ids) + ChangeSize.value }

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

extension SyncChange {
    /// A change of the kind ``DeadlineSet``, of these parts.
    public static func setDeadline(ids: [Item.ID], deadline: Day?) -> SyncChange {
        .setDeadline(DeadlineSet(ids: ids, deadline: deadline))
    }
}
