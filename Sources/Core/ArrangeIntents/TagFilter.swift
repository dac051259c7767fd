import ArrangeModel
import ArrangeStore

/// Which items a view shows by their tags, as Things filters by tag: those that carry every tag
/// named, each counted on the item itself, on its list, or on its list's area, and the tag
/// itself or any tag under it.
///
/// ```swift
/// let filter = try TagFilter([errand, home], in: context)   // nil for no tags: everything passes
/// let shown = items.filter { filter?.passes($0) ?? true }
/// ```
struct TagFilter {
    /// For each tag named, it and every tag under it.
    private let requirements: [Set<Tag.ID>]
    /// For each requirement, the lists that meet it themselves or through their area, of those
    /// the filter was made for.
    private let listsMeeting: [Set<ItemList.ID>]

    /// The filter of `tags`, or `nil` when there are none.
    ///
    /// - Parameters:
    ///   - tags: The tags an item must carry, each itself or through a tag under it.
    ///   - context: The context that reads the tags, and the lists and areas.
    ///   - list: The one list whose items the filter is for, to read that list alone; `nil`
    ///     for items of any list. A filter made for one list passes no item of another
    ///     that does not carry the tags itself.
    /// - Throws: ``IntentError/unknownTag(_:)``.
    /// - Complexity: One read of the tags, and of the lists and the areas (or of `list` and its area).
    init?(_ tags: [Tag.ID], in context: IntentContext, forItemsOf list: ItemList? = nil) throws {
        guard !tags.isEmpty else { return nil }
        let every = try context.transaction.tags()
        let known = Set(every.map(\.id))
        // A tag merged into another, or one that is not there, is looked up by its id.
        let named = try tags.map { known.contains($0) ? $0 : try context.tag($0).id }
        let children = Dictionary(grouping: every, by: \.parent)
        func subtree(_ tag: Tag.ID) -> Set<Tag.ID> {
            (children[tag] ?? []).reduce(into: [tag]) { $0.formUnion(subtree($1.id)) }
        }
        requirements = named.map(subtree)
        let lists = try list.map { [$0] } ?? context.transaction.lists()
        let areas = try list.map { try $0.area.flatMap(context.transaction.area).map { [$0] } ?? [] } ?? context.transaction.areas()
        let areaTags = Dictionary(areas.map { ($0.id, $0.tags) }, uniquingKeysWith: { first, _ in first })
        listsMeeting = requirements.map { required in
            Set(lists.filter { list in !list.tags.isDisjoint(with: required) || list.area.flatMap { areaTags[$0] }.map { !$0.isDisjoint(with: required) } == true }.map(\.id))
        }
    }

    /// Whether `item` carries every tag of the filter.
    func passes(_ item: Item) -> Bool {
        zip(requirements, listsMeeting).allSatisfy { required, lists in lists.contains(item.listID) || !item.tags.isDisjoint(with: required) }
    }

    /// Whether every item of `list` passes, whatever it carries itself.
    func passesAll(of list: ItemList.ID) -> Bool {
        listsMeeting.allSatisfy { $0.contains(list) }
    }

    /// A requirement that `list` does not meet itself, or through its area: the tags one of
    /// which each of its items must carry itself to pass; `nil` when it meets them all.
    func requirementUnmet(by list: ItemList.ID) -> Set<Tag.ID>? {
        zip(requirements, listsMeeting).first { !$1.contains(list) }?.0
    }
}
