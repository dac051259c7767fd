public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// A list got a new when: a start date (perhaps in its evening), someday, or anytime.
public struct ListWhenSet: ChangeKind {
    package static let name: StaticString = "setListWhen"

    /// The list.
    public var id: ItemList.ID
    /// When it is meant to be worked on.
    public var when: When

    /// The change of these parts.
    public init(id: ItemList.ID, when: When) { (self.id, self.when) = (id, when) }

    package var change: SyncChange { .setListWhen(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }, .member("when") { $0.when }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), when: try members.value("when"))
    }
}

extension ListWhenSet: ListFieldChange {
    package var value: When { when }
    package init(_ id: ItemList.ID, value: When) { self.init(id: id, when: value) }
    package static var field: WritableKeyPath<Row, When> { \.when }
    package static var valueOnCreation: When? { .anytime }
}

extension SyncChange {
    /// A change of the kind ``ListWhenSet``, of these parts.
    public static func setListWhen(id: ItemList.ID, when: When) -> SyncChange {
        .setListWhen(ListWhenSet(id: id, when: when))
    }
}
