public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// Items got a new when: a start date (perhaps in its evening), someday, or anytime.
public struct WhenSet: ChangeKind {
    package static let name: StaticString = "setWhen"

    /// The items.
    public var ids: [Item.ID]
    /// When they are meant to be done.
    public var when: When

    /// The change of these parts.
    public init(ids: [Item.ID], when: When) { (self.ids, self.when) = (ids, when) }

    package var change: SyncChange { .setWhen(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }, .member("when") { $0.when }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"), when: try members.value("when"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { WhenSet(ids: $0, when: when) }
    }

    package func apply(in context: ChangeContext) throws {
        try context.setItems(ids, \.when, to: when)
    }
}

extension WhenSet: ReversibleChange, FieldChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        Self.grouped(try existingItems(ids, in: store).filter { $0.when != when }, by: \.when) { WhenSet(ids: $0, when: $1) }
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try itemConflict(ids, in: store, field: .when) { $0.when == when }
    }

    package static func changes(from old: Item?, to item: Item) -> [Self] {
        (old?.when ?? .anytime) == item.when ? [] : [WhenSet(ids: [item.id], when: item.when)]
    }
}

extension SyncChange {
    /// A change of the kind ``WhenSet``, of these parts.
    public static func setWhen(ids: [Item.ID], when: When) -> SyncChange {
        .setWhen(WhenSet(ids: ids, when: when))
    }
}
