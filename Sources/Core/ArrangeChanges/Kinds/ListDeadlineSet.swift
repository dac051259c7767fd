public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// A list got a deadline, or lost its own (`nil`, absent from the JSON).
public struct ListDeadlineSet: ChangeKind {
    package static let name: StaticString = "setListDeadline"

    /// The list.
    public var id: ItemList.ID
    /// The deadline; `nil` for none.
    public var deadline: Day?

    /// The change of these parts.
    public init(id: ItemList.ID, deadline: Day?) { (self.id, self.deadline) = (id, deadline) }

    package var change: SyncChange { .setListDeadline(self) }

    package static let members: ChangeMembers<Self> = [.member("deadline") { $0.deadline }, .member("id") { $0.id }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), deadline: try members.value("deadline"))
    }
}

extension ListDeadlineSet: ListFieldChange {
    package var value: Day? { deadline }
    package init(_ id: ItemList.ID, value: Day?) { self.init(id: id, deadline: value) }
    package static var field: WritableKeyPath<Row, Day?> { \.deadline }
    package static var valueOnCreation: Day?? { .some(nil) }
}

extension SyncChange {
    /// A change of the kind ``ListDeadlineSet``, of these parts.
    public static func setListDeadline(id: ItemList.ID, deadline: Day?) -> SyncChange {
        .setListDeadline(ListDeadlineSet(id: id, deadline: deadline))
    }
}
