public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// An item's title or notes (those given) changed.
public struct ItemEdited: ChangeKind {
    package static let name: StaticString = "editItem"

    /// The item.
    public var id: Item.ID
    /// Its new title; `nil` to keep it.
    public var title: String?
    /// Its new notes; `nil` to keep them.
    public var notes: String?

    /// The change of these parts.
    public init(id: Item.ID, title: String?, notes: String?) { (self.id, self.title, self.notes) = (id, title, notes) }

    package var change: SyncChange { .editItem(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }, .member("title") { $0.title }, .member("notes") { $0.notes }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), title: try members.value("title"), notes: try members.value("notes"))
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        if let title { try check.length(of: title, as: .title) }
        if let notes { try check.notes(notes) }
    }

    package func apply(in context: ChangeContext) throws {
        guard var item = try context.transaction.item(id: id) else { return }
        if let title { item.title = ChangeContext.storable(title: title) }
        if let notes { item.notes = ChangeContext.storable(notes) }
        item.updatedAt = context.stamp
        try context.transaction.update(item)
    }
}

extension ItemEdited: ReversibleChange, FieldChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        guard let item = try store.item(id: id) else { return [] }
        let (oldTitle, oldNotes) = (title.flatMap { $0 == item.title ? nil : item.title }, notes.flatMap { $0 == item.notes ? nil : item.notes })
        return oldTitle == nil && oldNotes == nil ? [] : [ItemEdited(id: id, title: oldTitle, notes: oldNotes)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        guard let item = try store.item(id: id) else { return .itemGone(id) }
        if let title, item.title != title { return .itemEditedSince(.title, item) }
        if let notes, item.notes != notes { return .itemEditedSince(.notes, item) }
        return nil
    }

    package static func changes(from old: Item?, to item: Item) -> [Self] {
        guard let old, old.title != item.title || old.notes != item.notes else { return [] }
        return [ItemEdited(id: item.id, title: old.title != item.title ? item.title : nil, notes: old.notes != item.notes ? item.notes : nil)]
    }
}

extension SyncChange {
    /// A change of the kind ``ItemEdited``, of these parts.
    public static func editItem(id: Item.ID, title: String?, notes: String?) -> SyncChange {
        .editItem(ItemEdited(id: id, title: title, notes: notes))
    }
}
