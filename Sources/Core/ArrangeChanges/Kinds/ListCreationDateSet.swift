public import ArrangeModel
import ArrangeOrdering
import ArrangeStore
public import Foundation

/// A list's moment of creation was set, as given: a creation date that came from elsewhere,
/// such as a link of Things' URL scheme (`creation-date`), where its creation took the moment
/// of the operation that made it.
public struct ListCreationDateSet: ChangeKind {
    package static let name: StaticString = "setListCreatedAt"

    /// The list.
    public var id: ItemList.ID
    /// When it was created.
    public var at: Date

    /// The change of these parts.
    public init(id: ItemList.ID, at: Date) { (self.id, self.at) = (id, at) }

    package var change: SyncChange { .setListCreatedAt(self) }

    package static let members: ChangeMembers<Self> = [.member("at") { $0.at }, .member("id") { $0.id }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), at: try members.value("at"))
    }
}

extension ListCreationDateSet: ListFieldChange {
    package var value: Date { at }
    package init(_ id: ItemList.ID, value: Date) { self.init(id: id, at: value) }
    package static var field: WritableKeyPath<Row, Date> { \.createdAt }
}

extension SyncChange {
    /// A change of the kind ``ListCreationDateSet``, of these parts.
    public static func setListCreatedAt(id: ItemList.ID, at: Date) -> SyncChange {
        .setListCreatedAt(ListCreationDateSet(id: id, at: at))
    }
}
