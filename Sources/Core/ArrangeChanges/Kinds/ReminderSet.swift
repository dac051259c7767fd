public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// Items got a reminder, a time on their start date, or lost theirs (`nil`, absent from the JSON).
public struct ReminderSet: ChangeKind {
    package static let name: StaticString = "setReminder"
    /// A reminder is personal: it alerts one person.
    package static let isPersonal = true

    /// The items.
    public var ids: [Item.ID]
    /// The time; `nil` for none.
    public var reminder: TimeOfDay?

    /// The change of these parts.
    public init(ids: [Item.ID], reminder: TimeOfDay?) { (self.ids, self.reminder) = (ids, reminder) }

    package var change: SyncChange { .setReminder(self) }

    package static let members: ChangeMembers<Self> = [.member("ids") { $0.ids }, .member("reminder") { $0.reminder }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(ids: try members.value("ids"), reminder: try members.value("reminder"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        chunks(of: ids, maximum: maximumIDs) { ReminderSet(ids: $0, reminder: reminder) }
    }

    package func apply(in context: ChangeContext) throws {
        try context.setItems(ids, \.reminder, to: reminder)
    }
}

extension ReminderSet: ReversibleChange, FieldChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        Self.grouped(try existingItems(ids, in: store).filter { $0.reminder != reminder }, by: { .some($0.reminder) }) { ReminderSet(ids: $0, reminder: $1) }
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try itemConflict(ids, in: store, field: .reminder) { $0.reminder == reminder }
    }

    package static func changes(from old: Item?, to item: Item) -> [Self] {
        old?.reminder == item.reminder ? [] : [ReminderSet(ids: [item.id], reminder: item.reminder)]
    }
}

extension SyncChange {
    /// A change of the kind ``ReminderSet``, of these parts.
    public static func setReminder(ids: [Item.ID], reminder: TimeOfDay?) -> SyncChange {
        .setReminder(ReminderSet(ids: ids, reminder: reminder))
    }
}
