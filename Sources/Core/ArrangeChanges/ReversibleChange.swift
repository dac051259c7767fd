package import ArrangeModel
package import ArrangeStore
package import Foundation

/// A change that an intent makes by applying it, and that undo takes back by applying its
/// inverse: one code path for the intent, its replay on other devices, and its undo.
///
/// Every kind of change that people can undo conforms, in its own file (a `ChangeKind` that is
/// also reversible tells the log itself). So do the few changes that only undo makes: putting
/// deleted rows back where they were, and putting entries back after the entries that were
/// before them, which refuse, rather than guess, when the store changed around them.
///
/// ```swift
/// let inverse = try change.inverse(before: store)   // a rename's: the same rename, to the old name
/// try change.apply(in: context)
/// // later, to undo it:
/// if let conflict = try change.conflict(in: store) { throw … }  // changed since: not taken back
/// for change in inverse { try change.apply(in: context) }
/// ```
package protocol ReversibleChange: Sendable {
    /// Makes the change in the store of `context`.
    ///
    /// - Throws: The store's errors; a ``ChangeConflict`` for a change that only undo makes,
    ///   when the store no longer has what it needs, such as the entry to put a row back after.
    func apply(in context: ChangeContext) throws

    /// The changes that take this one back, read from the store before it applies: for each
    /// thing it changes, what that has now. Empty when it would change nothing.
    func inverse(before store: any ItemReading) throws -> [any ReversibleChange]

    /// Why this change can no longer be taken back: what it changed is gone, or has changed
    /// since, so that taking it back would undo someone else's change; `nil` when it can be.
    func conflict(in store: any ItemReading) throws -> ChangeConflict?

    /// What sync logs for this change, read against the store as the change left it.
    func told(in store: any ItemReading) throws -> [SyncChange]

    /// What of this change the store does not hold yet, read before it applies; `nil` when the
    /// store holds all of it, so that applying it would write nothing, and it is neither
    /// applied nor recorded.
    func pending(in store: any ItemReading) throws -> (any ReversibleChange)?
}

extension ReversibleChange {
    /// The whole change: most kinds write only what differs, and record what they were asked.
    package func pending(in store: any ItemReading) throws -> (any ReversibleChange)? { self }
}

extension ReversibleChange where Self: ChangeKind {
    /// A kind of change is logged as itself.
    package func told(in store: any ItemReading) throws -> [SyncChange] { [change] }
}

/// Why a change can no longer be taken back: what it changed is gone, changed since, or came
/// back; or where it would put a row back is gone.
package enum ChangeConflict: Error, Hashable, Sendable {
    case listGone(ItemList.ID)
    case itemGone(Item.ID)
    case checklistItemGone(ChecklistItem.ID)
    case areaGone(Area.ID)
    case headingGone(Heading.ID)
    case tagGone(Tag.ID)
    /// A tag that was deleted, named so, exists again.
    case tagExistsAgain(name: String)
    /// An item that should be in Today is no longer there.
    case itemLeftToday(Item.ID)
    /// A field of the item has another value than the change gave it.
    case itemEditedSince(ItemField, Item)
    /// The entry has another title or completion than the change gave it.
    case checklistItemEditedSince(ChecklistItem)
    /// The list was finished or reopened since, otherwise than the change left it.
    case listEditedSince(ItemList)
    /// The item, list or heading so named went to the Trash, or came back from it, since.
    case trashedOrPutBackSince(String)
    /// A list that was deleted, named so, exists again.
    case listExistsAgain(name: String)
    case itemExistsAgain(Item.ID)
    case checklistItemExistsAgain(ChecklistItem.ID)
    case areaExistsAgain(name: String)
    case headingExistsAgain(title: String)
    /// The list to delete has become the default list, which is not deleted.
    case becameDefault(name: String)
    /// The entry before a place is no longer in that ordering; `listName` names the list, for
    /// a list's items.
    case neighbourGone(OrderEntry.ID, in: OrderScope, listName: String?)

    /// A field of an item that a change edits.
    package enum ItemField: String, Hashable, Sendable {
        case title, notes, completion, when, deadline, reminder
    }
}

extension ReversibleChange {
    /// The first conflict among `ids`: an item gone, or one whose `field` no longer holds what
    /// `holds` expects.
    package func itemConflict(
        _ ids: [Item.ID], in store: any ItemReading, field: ChangeConflict.ItemField, holds: (Item) -> Bool
    ) throws -> ChangeConflict? {
        for id in ids.sorted() {
            guard let item = try store.item(id: id) else { return .itemGone(id) }
            guard holds(item) else { return .itemEditedSince(field, item) }
        }
        return nil
    }

    /// The first conflict among `ids`: a checklist entry gone, or one that no longer holds what
    /// `holds` expects.
    package func checklistConflict(_ ids: [ChecklistItem.ID], in store: any ItemReading, holds: (ChecklistItem) -> Bool) throws -> ChangeConflict? {
        for id in ids.sorted() {
            guard let entry = try store.checklistItem(id: id) else { return .checklistItemGone(id) }
            guard holds(entry) else { return .checklistItemEditedSince(entry) }
        }
        return nil
    }

    /// The items of `ids` that exist, each once, in the order of their ids.
    package func existingItems(_ ids: [Item.ID], in store: any ItemReading) throws -> [Item] {
        try Set(ids).sorted().compactMap(store.item)
    }

    /// The checklist entries of `ids` that exist, each once, in the order of their ids.
    package func existingChecklistItems(_ ids: [ChecklistItem.ID], in store: any ItemReading) throws -> [ChecklistItem] {
        try Set(ids).sorted().compactMap(store.checklistItem)
    }

    /// Whether two completion moments are the same, to the millisecond that every store keeps.
    package static func isSameMoment(_ first: Date?, _ second: Date?) -> Bool {
        switch (first, second) {
        case (nil, nil): true
        case (let first?, let second?): abs(first.timeIntervalSince(second)) < 0.001
        default: false
        }
    }

    /// One change for each value that `value` reads of `subjects` (those it reads none of are
    /// left out), naming those that have it,
    /// in the order of their first ids: the inverse of an edit of many things, which gives each
    /// its own value back.
    package static func grouped<Subject: Identifiable, Value: Hashable>(
        _ subjects: [Subject], by value: (Subject) -> Value?, _ make: ([Subject.ID], Value) -> any ReversibleChange
    ) -> [any ReversibleChange] {
        var groups: [Value: [Subject.ID]] = [:]
        var order: [Value] = []
        for subject in subjects {
            guard let old = value(subject) else { continue }
            if groups[old] == nil { order.append(old) }
            groups[old, default: []].append(subject.id)
        }
        return order.map { make(groups[$0] ?? [], $0) }
    }
}

/// A kind of change that tells a difference in the fields of one row, such as a new title or
/// a new deadline: the changes that bring rows up to date (an import, a restore, a first sync)
/// are found through the registry's lists of them (``SyncChange/itemChanges`` and its kin).
package protocol FieldChange<Row>: ChangeKind {
    /// The row whose fields the kind changes.
    associatedtype Row

    /// The changes of this kind that take a row from `old` to `row`: none when the field it
    /// changes is the same. `old` is `nil` for a row just made, which its creation made with
    /// the defaults.
    static func changes(from old: Row?, to row: Row) -> [Self]
}

/// A kind of change that gives one row a new value in one field: a list's when or deadline,
/// or a new text (``RowTextChange``). Its apply, its inverse and the difference it tells come
/// from the field, the same for each such kind.
package protocol RowFieldChange: ReversibleChange, FieldChange where Row: Identifiable {
    /// What the field holds.
    associatedtype Value: Equatable
    /// The row.
    var id: Row.ID { get }
    /// The new value.
    var value: Value { get }
    /// The change of this kind that gives the row `id` the value `value`.
    init(_ id: Row.ID, value: Value)
    /// The field the kind changes.
    static var field: WritableKeyPath<Row, Value> { get }
    /// The value a row's creation gives the field, which a creation does not tell; `nil` when
    /// the creation carries the field itself (a name, a title).
    static var valueOnCreation: Value? { get }
    /// The row with this id, if the store has it.
    static func row(_ id: Row.ID, in store: any ItemReading) throws -> Row?
    /// The row as the store saves it.
    static func stored(_ row: Row) -> StoreRow
    /// The value as the row keeps it: ``value`` itself, unless the kind says more.
    func storable(in context: ChangeContext) throws -> Value
}

extension RowFieldChange {
    package static var valueOnCreation: Value? { nil }

    package func storable(in context: ChangeContext) throws -> Value { value }

    package func apply(in context: ChangeContext) throws {
        guard var row = try Self.row(id, in: context.transaction) else { return }
        row[keyPath: Self.field] = try storable(in: context)
        try context.transaction.apply(.update(Self.stored(row)))
    }

    /// The old value back.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        guard let row = try Self.row(id, in: store), row[keyPath: Self.field] != value else { return [] }
        return [Self(id, value: row[keyPath: Self.field])]
    }

    package static func changes(from old: Row?, to row: Row) -> [Self] {
        guard let before = old.map({ $0[keyPath: field] }) ?? valueOnCreation, before != row[keyPath: field] else { return [] }
        return [Self(row.id, value: row[keyPath: field])]
    }
}

/// A ``RowFieldChange`` of one of a list's fields: its name, its when, its deadline, its creation date.
package protocol ListFieldChange: RowFieldChange where Row == ItemList {}

/// A ``RowFieldChange`` of one of an item's fields that no other kind changes with it: its creation date.
package protocol ItemFieldChange: RowFieldChange where Row == Item {}

extension ItemFieldChange {
    package static func row(_ id: Item.ID, in store: any ItemReading) throws -> Item? { try store.item(id: id) }
    package static func stored(_ row: Item) -> StoreRow { .item(row) }
    package func conflict(in store: any ItemReading) throws -> ChangeConflict? { try store.item(id: id) == nil ? .itemGone(id) : nil }
}

extension ListFieldChange {
    package static func row(_ id: ItemList.ID, in store: any ItemReading) throws -> ItemList? { try store.list(id: id) }
    package static func stored(_ row: ItemList) -> StoreRow { .list(row) }
    package func conflict(in store: any ItemReading) throws -> ChangeConflict? { try store.list(id: id) == nil ? .listGone(id) : nil }
}

/// A kind of change that gives one row a new text in one field: a list's or an area's name, a
/// heading's or a checklist entry's title, kept as `Title` keeps it.
package protocol RowTextChange: RowFieldChange where Value == String {
    /// The new text.
    var text: String { get }
    /// The change of this kind that gives the row `id` the text `text`.
    init(_ id: Row.ID, text: String)
}

extension RowTextChange {
    package var value: String { text }

    package init(_ id: Row.ID, value: String) { self.init(id, text: value) }

    /// What `Title` keeps of the text, or "Untitled", unless the kind says more (a list's name
    /// that another list has gets a number).
    package func storable(in context: ChangeContext) throws -> String { ChangeContext.storable(title: text) }
}

/// A kind of change that makes one row, which its deletion takes back.
package protocol RowCreation: ReversibleChange {
    /// The change that deletes the row this one makes.
    var deletion: any ReversibleChange { get }
    /// Why the row this one makes cannot be deleted now: it is gone (or, for a list, has become
    /// the default list); `nil` when it can be.
    func deletionConflict(in store: any ItemReading) throws -> ChangeConflict?
}

extension RowCreation {
    /// Its deletion.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] { [deletion] }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? { try deletionConflict(in: store) }
}
