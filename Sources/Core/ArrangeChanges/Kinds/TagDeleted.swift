public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// A tag was deleted, with its children, and theirs: each comes off everything it was set on.
public struct TagDeleted: ChangeKind {
    package static let name: StaticString = "deleteTag"

    /// The tag.
    public var id: Tag.ID

    /// The change of these parts.
    public init(id: Tag.ID) { self.id = id }

    package var change: SyncChange { .deleteTag(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"))
    }

    package func apply(in context: ChangeContext) throws {
        // Ids merged into another tag name that tag.
        guard let tag = try context.transaction.tag(id: id) else { return }
        let subtree = try Self.subtree(of: tag.id, in: context.transaction)
        try Self.takingOff(Set(subtree.map(\.id)), in: context.transaction)?.apply(in: context)
        // Where each went, for a later placement after one of them.
        for tag in subtree { try context.bury(tag.entry, in: tag.scope) }
        try context.transaction.deleteTag(id: tag.id)
    }

    /// The change that takes `tags` off every item, list and area that carries one of them
    /// itself; `nil` when none does.
    package static func takingOff(_ tags: Set<Tag.ID>, in store: any ItemReading) throws -> TagsChanged? {
        let items = try store.items(.tagged(tags)).map(\.id).sorted()
        let lists = try store.lists().filter { !$0.tags.isDisjoint(with: tags) }.map(\.id)
        let areas = try store.areas().filter { !$0.tags.isDisjoint(with: tags) }.map(\.id)
        guard !items.isEmpty || !lists.isEmpty || !areas.isEmpty else { return nil }
        return TagsChanged(tags: tags.sorted(), items: items, lists: lists, areas: areas, removing: true)
    }

    /// The tag and every tag under it, depth first in hand order.
    package static func subtree(of id: Tag.ID, in store: any ItemReading) throws -> [Tag] {
        let tags = try store.tags()
        guard let start = tags.firstIndex(where: { $0.id == id }) else { return [] }
        var inside: Set<Tag.ID> = [id]
        return [tags[start]] + tags[(start + 1)...].prefix { tag in
            guard let parent = tag.parent, inside.contains(parent) else { return false }
            inside.insert(tag.id)
            return true
        }
    }
}

extension TagDeleted: ReversibleChange {
    /// The tag and its descendants back, each after the tag that was before it, then set again
    /// on what carried them.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        guard let tag = try store.tag(id: id) else { return [] }
        let tags = try Self.subtree(of: tag.id, in: store)
        let restored = TagsRestored(try tags.map { ($0, try ChangeRecord.place(of: $0.entry, in: $0.scope, transaction: store)) })
        return [restored] + (try Self.takingOff(Set(tags.map(\.id)), in: store)?.inverse(before: store) ?? [])
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        guard let tag = try store.tag(id: id) else { return nil }
        return .tagExistsAgain(name: tag.name)
    }
}

/// Deleted tags put back as they were, depth first, each after the tag that was before it: how
/// undo takes a delete back. It refuses when one exists again, or the tag before it is gone.
package struct TagsRestored: ReversibleChange {
    /// The tags as they were, depth first, and where each was among its siblings.
    package var tags: [(tag: Tag, place: ChangeRecord.Place)]

    package init(_ tags: [(tag: Tag, place: ChangeRecord.Place)]) { self.tags = tags }

    package func apply(in context: ChangeContext) throws {
        for (tag, place) in tags {
            guard try context.transaction.tag(id: tag.id) == nil else { throw ChangeConflict.tagExistsAgain(name: tag.name) }
            try context.ordering.add(tag, at: try context.placement(after: place).map { Tag.ID(entry: $0) }, in: context.transaction)
        }
    }

    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        tags.first.map { [TagDeleted(id: $0.tag.id)] } ?? []
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        guard let first = tags.first else { return nil }
        return try store.tag(id: first.tag.id) == nil ? .tagGone(first.tag.id) : nil
    }

    /// The tags as they are now, told as made, each after the tag before it.
    package func told(in store: any ItemReading) throws -> [SyncChange] {
        try tags.compactMap { try store.tag(id: $0.tag.id) }.map { tag in
            SyncChange.creation(of: tag, at: try SyncPlace(of: [tag.entry], in: tag.scope, transaction: store)).change
        }
    }
}

extension SyncChange {
    /// A change of the kind ``TagDeleted``, of these parts.
    public static func deleteTag(id: Tag.ID) -> SyncChange {
        .deleteTag(TagDeleted(id: id))
    }
}
