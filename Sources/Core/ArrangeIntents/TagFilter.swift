public import ArrangeModel
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
    /// For each requirement, the lists that meet it themselves or through their area.
    private let listsMeeting: [Set<ItemList.ID>]

    /// The filter of `tags`, or `nil` when there are none.
    ///
    /// - Throws: ``IntentError/unknownTag(_:)``.
    /// - Complexity: One read of the tags, the lists and the areas.
    init?(_ tags: [Tag.ID], in context: IntentContext) throws {
        guard !tags.isEmpty else { return nil }
        let named = try tags.map { try context.tag($0).id }
        let children = Dictionary(grouping: try context.transaction.tags(), by: \.parent)
        func subtree(_ tag: Tag.ID) -> Set<Tag.ID> {
            (children[tag] ?? []).reduce(into: [tag]) { $0.formUnion(subtree($1.id)) }
        }
        requirements = named.map(subtree)
        let areaTags = Dictionary(try context.transaction.areas().map { ($0.id, $0.tags) }, uniquingKeysWith: { first, _ in first })
        let lists = try context.transaction.lists()
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
