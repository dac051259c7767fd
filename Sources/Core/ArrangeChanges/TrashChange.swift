package import ArrangeModel
package import ArrangeStore
package import Foundation

/// A row that goes to the Trash when it is deleted, and can be put back: an item, a list or a
/// heading. It keeps its keys there, so that it comes back where it was.
package protocol TrashableRow: Identifiable, Sendable where ID: Comparable {
    /// When the row went to the Trash, or `nil` while it is out of it.
    var trashedAt: Date? { get set }
    /// The rows of `ids` that exist, each once, in the order of their ids.
    static func existing(_ ids: [ID], in store: any ItemReading) throws -> [Self]
    /// Saves the row, as a change made in `context` stamps it.
    static func save(_ row: Self, in context: ChangeContext) throws
    /// Why a change of the row `id` cannot be taken back: it is gone.
    static func gone(_ id: ID) -> ChangeConflict
    /// What a person calls the row, for a conflict.
    var label: String { get }
}

extension TrashableRow {
    /// The conflict when the row is not in or out of the Trash as `holds` expects.
    fileprivate var trashedOrPutBack: ChangeConflict { .trashedOrPutBackSince(label) }
}

extension Item: TrashableRow {
    package static func existing(_ ids: [ID], in store: any ItemReading) throws -> [Item] { try Set(ids).sorted().compactMap(store.item) }
    package static func save(_ row: Item, in context: ChangeContext) throws {
        var item = row
        item.updatedAt = context.stamp
        try context.transaction.update(item)
    }
    package static func gone(_ id: ID) -> ChangeConflict { .itemGone(id) }
    package var label: String { title }
}

extension ItemList: TrashableRow {
    package static func existing(_ ids: [ID], in store: any ItemReading) throws -> [ItemList] { try Set(ids).sorted().compactMap(store.list) }
    package static func save(_ row: ItemList, in context: ChangeContext) throws { try context.transaction.update(row) }
    package static func gone(_ id: ID) -> ChangeConflict { .listGone(id) }
    package var label: String { name }
}

extension Heading: TrashableRow {
    package static func existing(_ ids: [ID], in store: any ItemReading) throws -> [Heading] { try Set(ids).sorted().compactMap(store.heading) }
    package static func save(_ row: Heading, in context: ChangeContext) throws { try context.transaction.update(row) }
    package static func gone(_ id: ID) -> ChangeConflict { .headingGone(id) }
    package var label: String { title }
}

/// A kind of change that moves rows of one sort to the Trash at a moment: its inverse, its
/// conflict and the difference it tells come from ``TrashableRow``, the same for items, lists
/// and headings.
///
/// A row in the Trash already keeps the moment it went there.
package protocol TrashingChange: ReversibleChange, FieldChange where Row: TrashableRow {
    /// The kind that puts the same sort of rows back.
    associatedtype PutBack: PuttingBackChange where PutBack.Row == Row
    /// The rows.
    var ids: [Row.ID] { get }
    /// The moment.
    var at: Date { get }
    /// The change of these parts.
    init(ids: [Row.ID], at: Date)
}

extension TrashingChange {
    package func apply(in context: ChangeContext) throws {
        for var row in try Row.existing(ids, in: context.transaction) where row.trashedAt == nil {
            row.trashedAt = at
            try Row.save(row, in: context)
        }
    }

    /// Putting back the rows that were out of the Trash.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        let trashing = try Row.existing(ids, in: store).filter { $0.trashedAt == nil }.map(\.id)
        return trashing.isEmpty ? [] : [PutBack(ids: trashing)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        let rows = try Row.existing(ids, in: store)
        if let gone = Set(ids).subtracting(rows.map(\.id)).min() { return Row.gone(gone) }
        return rows.first { !Self.isSameMoment($0.trashedAt, at) }?.trashedOrPutBack
    }

    /// A move to the Trash at a new moment; a putting back, before it in the registry, comes first.
    package static func changes(from old: Row?, to row: Row) -> [Self] {
        guard let at = row.trashedAt, !isSameMoment(old?.trashedAt, at) else { return [] }
        return [Self(ids: [row.id], at: at)]
    }
}

/// A kind of change that puts rows of one sort back from the Trash, where their keys kept their
/// places: the inverse of a ``TrashingChange``.
package protocol PuttingBackChange: ReversibleChange, FieldChange where Row: TrashableRow {
    /// The kind that moves the same sort of rows to the Trash.
    associatedtype Trashing: TrashingChange where Trashing.Row == Row
    /// The rows.
    var ids: [Row.ID] { get }
    /// The change of these parts.
    init(ids: [Row.ID])
}

extension PuttingBackChange {
    package func apply(in context: ChangeContext) throws {
        for var row in try Row.existing(ids, in: context.transaction) where row.trashedAt != nil {
            row.trashedAt = nil
            try Row.save(row, in: context)
        }
    }

    /// Each row back in the Trash at the moment it went there.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        Self.grouped(try Row.existing(ids, in: store), by: \.trashedAt) { Trashing(ids: $0, at: $1) }
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        let rows = try Row.existing(ids, in: store)
        if let gone = Set(ids).subtracting(rows.map(\.id)).min() { return Row.gone(gone) }
        return rows.first { $0.trashedAt != nil }?.trashedOrPutBack
    }

    /// A putting back, also of a row trashed again at another moment.
    package static func changes(from old: Row?, to row: Row) -> [Self] {
        guard let old, let at = old.trashedAt, !isSameMoment(at, row.trashedAt) else { return [] }
        return [Self(ids: [row.id])]
    }
}
