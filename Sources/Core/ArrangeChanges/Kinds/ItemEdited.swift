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
    public init(id: Item.ID, title: String?, notes: String?) {
        self.id = id
        self.title = title
        self.notes = notes
    }

    package var change: SyncChange { .editItem(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var id: Item.ID?, title: String?, notes: String?
        try json.members(["id", "title", "notes"]) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: id = try json.identifier()
            case 1: title = try json.isNull() ? nil : json.string()
            default: notes = try json.isNull() ? nil : json.string()
            }
        }
        self.init(id: try json.required(id), title: title, notes: notes)
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("id") { $0.id(id) }
        members.member("title", ifPresent: title) { $0.string($1) }
        members.member("notes", ifPresent: notes) { $0.string($1) }
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        if let title { try check.length(of: title, as: .title) }
        if let notes { try check.notes(notes) }
    }

    package var sizeBound: Int { ChangeSize.id + ChangeSize.text(title) + ChangeSize.text(notes) }

    package func apply(in context: ChangeContext) throws {
        guard var item = try context.transaction.item(id: id) else { return }
        if let title { item.title = ChangeContext.storable(title: title) }
        if let notes { item.notes = ChangeContext.storable(notes) }
        item.updatedAt = context.stamp
        try context.transaction.update(item)
    }
}

extension ItemEdited: ReversibleChange, RowChange {
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
