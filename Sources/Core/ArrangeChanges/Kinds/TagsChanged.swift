public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// Tags were set on items, lists or areas, or taken off them (`removing`).
///
/// Each thing's tags are a set: setting a tag it has, or taking off one it lacks, changes
/// nothing, so changes made apart on two devices all hold once merged. A tag merged into another
/// (``TagCreated``) names the tag it merged into; a tag or a thing that is gone is passed over.
public struct TagsChanged: ChangeKind {
    package static let name: StaticString = "changeTags"

    /// The tags.
    public var tags: [Tag.ID]
    /// The items they go on or come off.
    public var items: [Item.ID]
    /// The lists they go on or come off.
    public var lists: [ItemList.ID]
    /// The areas they go on or come off.
    public var areas: [Area.ID]
    /// Whether the tags come off, rather than go on.
    public var removing: Bool

    /// The change of these parts.
    public init(tags: [Tag.ID], items: [Item.ID] = [], lists: [ItemList.ID] = [], areas: [Area.ID] = [], removing: Bool = false) {
        (self.tags, self.items, self.lists, self.areas, self.removing) = (tags, items, lists, areas, removing)
    }

    package var change: SyncChange { .changeTags(self) }

    package static let members: ChangeMembers<Self> = [
        .member("tags") { $0.tags }, .member("items") { $0.items }, .member("lists") { $0.lists }, .member("areas") { $0.areas },
        .member("removing") { $0.removing },
    ]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(
            tags: try members.value("tags"), items: try members.value("items"), lists: try members.value("lists"), areas: try members.value("areas"),
            removing: try members.value("removing"))
    }

    package func split(maximumIDs: Int) -> [Self] {
        guard items.count > maximumIDs else { return [self] }
        return chunks(of: items, maximum: maximumIDs) { TagsChanged(tags: tags, items: $0, removing: removing) }
            + (lists.isEmpty && areas.isEmpty ? [] : [TagsChanged(tags: tags, lists: lists, areas: areas, removing: removing)])
    }

    package func apply(in context: ChangeContext) throws {
        let tags = Set(try self.tags.compactMap { try context.transaction.tag(id: $0)?.id })
        guard !tags.isEmpty else { return }
        try context.updateItems(items) { item in changed(&item.tags, by: tags) }
        for var list in try Set(lists).sorted().compactMap(context.transaction.list) where changed(&list.tags, by: tags) {
            try context.transaction.update(list)
        }
        for var area in try Set(areas).sorted().compactMap(context.transaction.area) where changed(&area.tags, by: tags) {
            try context.transaction.update(area)
        }
    }

    /// Puts `tags` into `set`, or takes them out; whether that changed it.
    private func changed(_ set: inout Set<Tag.ID>, by tags: Set<Tag.ID>) -> Bool {
        let new = removing ? set.subtracting(tags) : set.union(tags)
        guard new != set else { return false }
        set = new
        return true
    }
}

extension TagsChanged: ReversibleChange {
    /// The opposite change, of the tags each thing did not have (or had) before: each thing's
    /// own, so that undo takes off only what this change set.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        let tags = Set(try self.tags.compactMap { try store.tag(id: $0)?.id })
        var inverse: [any ReversibleChange] = []
        func undoing(_ held: Set<Tag.ID>) -> [Tag.ID] { (removing ? tags.intersection(held) : tags.subtracting(held)).sorted() }
        for item in try existingItems(items, in: store) where !undoing(item.tags).isEmpty {
            inverse.append(TagsChanged(tags: undoing(item.tags), items: [item.id], removing: !removing))
        }
        for list in try Set(lists).sorted().compactMap(store.list) where !undoing(list.tags).isEmpty {
            inverse.append(TagsChanged(tags: undoing(list.tags), lists: [list.id], removing: !removing))
        }
        for area in try Set(areas).sorted().compactMap(store.area) where !undoing(area.tags).isEmpty {
            inverse.append(TagsChanged(tags: undoing(area.tags), areas: [area.id], removing: !removing))
        }
        return inverse
    }

    /// None: setting or taking off a tag again changes nothing that another change made.
    package func conflict(in store: any ItemReading) throws -> ChangeConflict? { nil }

    /// The changes that take a thing's tags from `old` to `new`: off, then on.
    package static func changes(from old: Set<Tag.ID>, to new: Set<Tag.ID>, on thing: (inout TagsChanged) -> Void) -> [SyncChange] {
        [(old.subtracting(new), true), (new.subtracting(old), false)].compactMap { tags, removing in
            guard !tags.isEmpty else { return nil }
            var change = TagsChanged(tags: tags.sorted(), removing: removing)
            thing(&change)
            return change.change
        }
    }
}

extension SyncChange {
    /// A change of the kind ``TagsChanged``, of these parts.
    public static func changeTags(tags: [Tag.ID], items: [Item.ID] = [], lists: [ItemList.ID] = [], areas: [Area.ID] = [], removing: Bool = false) -> SyncChange {
        .changeTags(TagsChanged(tags: tags, items: items, lists: lists, areas: areas, removing: removing))
    }
}
