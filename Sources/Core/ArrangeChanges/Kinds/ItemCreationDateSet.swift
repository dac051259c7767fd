public import ArrangeModel
import ArrangeOrdering
import ArrangeStore
public import Foundation

/// An item's moment of creation was set, as given: a creation date that came from elsewhere,
/// such as a link of Things' URL scheme (`creation-date`), where its creation took the moment
/// of the operation that made it.
public struct ItemCreationDateSet: ChangeKind {
    package static let name: StaticString = "setItemCreatedAt"

    /// The item.
    public var id: Item.ID
    /// When it was created.
    public var at: Date

    /// The change of these parts.
    public init(id: Item.ID, at: Date) { (self.id, self.at) = (id, at) }

    package var change: SyncChange { .setItemCreatedAt(self) }

    package static let members: ChangeMembers<Self> = [.member("at") { $0.at }, .member("id") { $0.id }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), at: try members.value("at"))
    }
}

extension ItemCreationDateSet: ItemFieldChange {
    package var value: Date { at }
    package init(_ id: Item.ID, value: Date) { self.init(id: id, at: value) }
    package static var field: WritableKeyPath<Row, Date> { \.createdAt }
}

extension SyncChange {
    /// A change of the kind ``ItemCreationDateSet``, of these parts.
    public static func setItemCreatedAt(id: Item.ID, at: Date) -> SyncChange {
        .setItemCreatedAt(ItemCreationDateSet(id: id, at: at))
    }
}
