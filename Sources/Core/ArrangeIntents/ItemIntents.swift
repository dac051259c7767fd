public import ArrangeModel
public import ArrangeOrdering
public import ArrangeStore
import ArrangeChanges
public import Foundation

/// Adds an item to a list.
public struct AddItem: ArrangeIntent {
    public static let title = "Add Item"

    /// The item's title; surrounding white space is trimmed.
    public var title: String
    /// The list to add to; `nil` for the default list.
    public var list: ItemList.ID?
    /// Where the item goes.
    public var placement: ItemPlacement
    /// Notes to keep with the item.
    public var notes: String
    /// Which items an `Placement/offset(_:)` placement counts.
    public var visibility: ItemVisibility
    /// Where the item goes in Today, in the same step; `nil` leaves it out of Today.
    public var today: ItemPlacement?
    /// The section of the list the item goes to: under a heading, or under none. Without it,
    /// a `before` or `after` placement puts it under its anchor's heading, and any other under none.
    public var section: ItemSection?
    /// When the item is meant to be done; `nil` for anytime, or today with `today`. Set after
    /// `today`: a when of another day takes the item out of Today again.
    public var when: When?
    /// The day the item is due; `nil` for none.
    public var deadline: Day?
    /// The time of its reminder on its start date; `nil` for none. Without a start date, it gets today's.
    public var reminder: TimeOfDay?

    /// Adds an item titled `title` to `list` (the default list for `nil`), in `section`, at
    /// `placement`, into Today at `today` as well when it is given, with `when` and `deadline`
    /// when they are given, as one step of the history (one Shortcuts action, one undo).
    public init(
        title: String, list: ItemList.ID? = nil, placement: ItemPlacement = .bottom, notes: String = "", visibility: ItemVisibility = .open,
        today: ItemPlacement? = nil, section: ItemSection? = nil, when: When? = nil, deadline: Day? = nil, reminder: TimeOfDay? = nil
    ) {
        self.title = title
        self.list = list
        self.placement = placement
        self.notes = notes
        self.visibility = visibility
        self.today = today
        self.section = section
        self.when = when
        self.deadline = deadline
        self.reminder = reminder
    }

    /// - Throws: `TitleError`; ``IntentError/unknownList(_:)``, ``IntentError/unknownItem(_:)``,
    ///   ``IntentError/unknownHeading(_:)``, ``IntentError/headingInAnotherList(heading:list:)``,
    ///   ``IntentError/reminderWithoutDay`` for a reminder with someday or anytime;
    ///   `OrderingError` for an anchor of another list or section.
    public func run(in context: IntentContext) throws -> PlacementResult {
        if reminder != nil, let when, when.startDate == nil { throw IntentError.reminderWithoutDay }
        let transaction = try context.writing(Self.title)
        let title = try Title.validated(title)
        try Item.validateNotes(notes)
        let list = try context.list(self.list)
        try context.check(placement)
        var item = Item(id: Item.ID(rawValue: context.environment.newID()), listID: list.id, title: title, notes: notes, sortIndex: 0, createdAt: context.now())
        if let section {
            _ = try context.scope(of: section, inList: list.id)
            item.heading = section.heading
        } else if let anchor = try placement.anchor.map(context.item), anchor.listID == list.id {
            item.heading = anchor.heading
        }
        let report = try context.ordering.add(item, at: placement, visibility: visibility, in: transaction)
        try context.record(made: SyncChange.creation(of: item, at: SyncPlace(report)))
        // Today first: joining it makes the item start today, which an evening then keeps.
        if let today { _ = try AddToToday([item.id], placement: today, visibility: visibility).run(in: context) }
        if let when { _ = try SetWhen([item.id], to: when).run(in: context) }
        if let deadline { _ = try SetDeadline([item.id], to: deadline).run(in: context) }
        if let reminder { _ = try SetReminder([item.id], at: reminder).run(in: context) }
        return try context.result(of: report)
    }
}

/// Gives an item a new title.
public struct RenameItem: ArrangeIntent {
    public static let title = "Rename Item"

    /// The item.
    public var item: Item.ID
    /// The new title; surrounding white space is trimmed.
    public var title: String

    /// Gives `item` the title `title`.
    public init(item: Item.ID, title: String) {
        self.item = item
        self.title = title
    }

    public func run(in context: IntentContext) throws -> ItemResult {
        try EditItem(item, title: title).run(in: context)
    }
}

/// Changes an item's title, its notes, or both; what it is not given, it leaves alone.
public struct EditItem: ArrangeIntent {
    public static let title = "Edit Item"

    /// The item.
    public var item: Item.ID
    /// The new title, surrounding white space trimmed; `nil` keeps the title.
    public var title: String?
    /// The new notes, as given; `""` clears them, and `nil` keeps them.
    public var notes: String?

    /// Gives `item` the title and the notes given.
    ///
    /// - Parameters:
    ///   - item: The item.
    ///   - title: Its new title; `nil` keeps the one it has.
    ///   - notes: Its new notes; `""` clears them, and `nil` keeps the ones it has.
    public init(_ item: Item.ID, title: String? = nil, notes: String? = nil) {
        self.item = item
        self.title = title
        self.notes = notes
    }

    /// Writes what changed, as one step of the history.
    ///
    /// - Returns: The item as it is now.
    /// - Throws: ``IntentError/unknownItem(_:)``; `TitleError` for a title that breaks the
    ///   rules of titles, or notes past their limit. Nothing is written then.
    public func run(in context: IntentContext) throws -> ItemResult {
        let item = try context.item(self.item)
        let newTitle = try title.map { try Title.validated($0) }
        if let notes { try Item.validateNotes(notes) }
        // The title and the notes are changes of their own, each taken back alone.
        if let newTitle, newTitle != item.title { try context.apply(ItemEdited(id: item.id, title: newTitle, notes: nil), action: Self.title) }
        if let notes, notes != item.notes { try context.apply(ItemEdited(id: item.id, title: nil, notes: notes), action: Self.title) }
        return ItemResult(item: try context.summary(of: try context.item(item.id)))
    }
}

/// Marks items done; they keep their place, and views of open items hide them.
public struct CompleteItems: ArrangeIntent {
    public static let title = "Complete Items"

    /// The items, each once; repeats are ignored.
    public var items: [Item.ID]
    /// The day they are done, which the next to-do of a series after completion counts from;
    /// `nil` for today where the person is.
    public var day: Day?
    /// The moment they were done; `nil` for now.
    public var at: Date?

    /// Acts on `items`, done on `day` (today by default) at `at` (now by default).
    public init(_ items: [Item.ID], day: Day? = nil, at: Date? = nil) {
        self.items = items
        self.day = day
        self.at = at
    }

    /// - Returns: The items; a to-do of a series after completion made its next, in the same step.
    public func run(in context: IntentContext) throws -> ItemsResult {
        let open = try context.distinctItems(items).filter { !$0.isCompleted }
        let result = try setCompletion(of: items, to: true, at: at, in: context, action: Self.title)
        try context.makeNextRepeats(after: open, on: day ?? context.today(), action: Self.title)
        return result
    }
}

/// Marks open items canceled, as Things' status 2: they are done, and go to the Logbook marked
/// canceled. Completed items stay completed; undo reopens what it canceled.
public struct CancelItems: ArrangeIntent {
    public static let title = "Cancel Items"

    /// The items, each once; repeats are ignored.
    public var items: [Item.ID]
    /// The day they are canceled, which the next to-do of a series after completion counts
    /// from; `nil` for today where the person is.
    public var day: Day?
    /// The moment they were canceled; `nil` for now.
    public var at: Date?

    /// Acts on `items`, canceled on `day` (today by default) at `at` (now by default).
    public init(_ items: [Item.ID], day: Day? = nil, at: Date? = nil) {
        self.items = items
        self.day = day
        self.at = at
    }

    /// - Returns: The items; a to-do of a series after completion made its next, in the same step.
    /// - Throws: ``IntentError/noItemsNamed``, ``IntentError/unknownItem(_:)``, ``IntentError/inTrash(_:)``.
    public func run(in context: IntentContext) throws -> ItemsResult {
        let items = try context.distinctItems(self.items)
        try context.ensureOutOfTrash(items)
        let open = items.filter { !$0.isCompleted }
        let stamp = at ?? context.now()
        let result = try edit(\.completedAt, of: self.items, in: context, action: Self.title, at: stamp, to: { $0.completedAt ?? stamp }) { ids, _ in
            ItemsCanceled(ids: ids, at: stamp)
        }
        try context.makeNextRepeats(after: open, on: day ?? context.today(), action: Self.title)
        return result
    }
}

/// Marks completed and canceled items open again, in the place they had.
public struct ReopenItems: ArrangeIntent {
    public static let title = "Reopen Items"

    /// The items, each once; repeats are ignored.
    public var items: [Item.ID]

    /// Acts on `items`.
    public init(_ items: [Item.ID]) {
        self.items = items
    }

    public func run(in context: IntentContext) throws -> ItemsResult {
        try setCompletion(of: items, to: false, at: nil, in: context, action: Self.title)
    }
}

/// Completes or reopens items; items already so are left alone, and items in the Trash refused.
private func setCompletion(of ids: [Item.ID], to completed: Bool, at moment: Date?, in context: IntentContext, action: String) throws -> ItemsResult {
    try context.ensureOutOfTrash(try context.distinctItems(ids))
    let stamp = moment ?? context.now()
    return try edit(\.completedAt, of: ids, in: context, action: action, at: stamp, to: { item in item.isCompleted == completed ? item.completedAt : completed ? stamp : nil }) {
        ids, moment -> any ReversibleChange in
        if let moment { ItemsCompleted(ids: ids, at: moment) } else { ItemsReopened(ids: ids) }
    }
}

/// Gives each of the items the value `newValue` makes of it in one field, by the changes
/// `change` makes of the items that get one value, stamped with `stamp` (else now), and returns
/// the items; an item whose value stays is left alone.
func edit<Value: Hashable>(
    _ field: KeyPath<Item, Value>, of ids: [Item.ID], in context: IntentContext, action: String, at stamp: Date? = nil,
    to newValue: (Item) -> Value, by change: ([Item.ID], Value) -> any ReversibleChange
) throws -> ItemsResult {
    let items = try context.distinctItems(ids)
    var groups: [Value: [Item.ID]] = [:]
    for item in items where newValue(item) != item[keyPath: field] { groups[newValue(item), default: []].append(item.id) }
    // One change a value, in the order of the values' first items.
    for (value, ids) in groups.map({ ($0.key, $0.value.sorted()) }).sorted(by: { $0.1[0] < $1.1[0] }) {
        try context.apply(change(ids, value), action: action, at: stamp)
    }
    return ItemsResult(items: try context.summaries(ofItems: items.map(\.id)), changed: groups.values.reduce(0) { $0 + $1.count })
}

/// Moves items to the Trash, where they keep their places in their lists and in Today; undo,
/// or ``RestoreFromTrash``, puts them back there. ``EmptyTrash`` deletes them for good.
public struct DeleteItems: ArrangeIntent {
    public static let title = "Delete Items"

    /// The items, each once; repeats are ignored.
    public var items: [Item.ID]

    /// Acts on `items`.
    public init(_ items: [Item.ID]) {
        self.items = items
    }

    /// - Returns: The items as they are now, in the Trash; `changed` counts those that were not
    ///   in it themselves.
    /// - Throws: ``IntentError/noItemsNamed``, ``IntentError/unknownItem(_:)``.
    public func run(in context: IntentContext) throws -> ItemsResult {
        let items = try context.distinctItems(self.items)
        let trashing = items.filter { $0.trashedAt == nil }.map(\.id)
        if !trashing.isEmpty { try context.apply(ItemsTrashed(ids: trashing, at: context.now()), action: Self.title) }
        return ItemsResult(items: try context.summaries(ofItems: items.map(\.id)), changed: trashing.count)
    }
}

/// The items of a list in display order.
public struct ListItems: ArrangeIntent {
    public static let title = "List Items"

    /// The list; `nil` for the default list.
    public var list: ItemList.ID?
    /// Which items to show; open ones by default.
    public var visibility: ItemVisibility
    /// Only the items that carry every one of these tags, on themselves, their list or its area, each tag or one under it; every item for none.
    public var tags: [Tag.ID]

    /// Lists the items of `list` (the default list for `nil`) seen under `visibility`, those
    /// that carry every one of `tags` (on themselves, their list or its area, or a tag under one).
    public init(list: ItemList.ID? = nil, visibility: ItemVisibility = .open, tags: [Tag.ID] = []) {
        self.list = list
        self.visibility = visibility
        self.tags = tags
    }

    public var isReadOnly: Bool { true }

    /// Reads the list's items, in display order, with its headings.
    ///
    /// - Returns: The list, its headings, and its items: those under no heading, then each
    ///   heading's; open items carry their 1-based place among the open items in ``ItemSummary/position``,
    ///   counting those the tags leave out too, so that `#N` names the same item either way.
    /// - Throws: ``IntentError/unknownList(_:)``, ``IntentError/unknownTag(_:)``.
    /// - Complexity: One read of the list's items; with tags the list does not carry, a read
    ///   of the items that carry one of them, and of the list's order alone.
    public func run(in context: IntentContext) throws -> ItemListing {
        let list = try context.list(self.list)
        let headings = try context.transaction.headings(in: list.id, visibility: visibility)
        if let filter = try TagFilter(tags, in: context, forItemsOf: list), let required = filter.requirementUnmet(by: list.id) {
            let sections = [OrderScope.items(list.id)] + headings.map { .heading($0.id) }
            let (items, summary) = try filtered(list, sections: sections, by: filter, carrying: required, in: context)
            return ItemListing(list: summary, headings: try headings.map(context.summary), items: items)
        }
        let items = try context.transaction.items(in: list.id, visibility: visibility, offset: 0, limit: .max)
        var position = 0
        let summaries = try context.summaries(of: items) { item in
            guard !item.isCompleted else { return nil }
            position += 1
            return position
        }
        // The items read are the list's open items, or all of them out of the Trash: one of its two counts.
        let summary = switch visibility {
        case .open: ListSummary(list, openItems: items.count, totalItems: try context.transaction.itemCount(in: list.id, visibility: .openAndCompleted))
        case .openAndCompleted: ListSummary(list, openItems: position, totalItems: items.count)
        case .all: try context.transaction.summary(of: list)
        }
        return ItemListing(list: summary, headings: try headings.map(context.summary), items: summaries)
    }

    /// The items of `list` that pass `filter`, which the list does not pass as a whole: only items
    /// that carry one of `required` themselves can pass, so those are read, then placed in each
    /// section by one pass over its order (`ItemReading.ranks(of:in:)`), which
    /// gives their `#N` too, and the list's counts.
    /// `sections` are the list's sections in display order: the items under no heading, then each heading's.
    private func filtered(
        _ list: ItemList, sections: [OrderScope], by filter: TagFilter, carrying required: Set<Tag.ID>, in context: IntentContext
    ) throws -> (items: [ItemSummary], list: ListSummary) {
        let passing = try context.transaction.items(.tagged(required)).filter { $0.listID == list.id && visibility.includes($0) && filter.passes($0) }
        // Indices stand for the items while they are sorted and grouped: an item is a large value to move.
        let keys = passing.map(\.orderKey)
        let bySection = Dictionary(grouping: passing.indices.sorted { keys[$0] < keys[$1] }) { passing[$0].scope }
        var (openCount, keptCount) = (0, 0)
        var (shown, positions): ([Item], [Int?]) = ([], [])
        for section in sections {
            let members = bySection[section] ?? []
            let ranks = try context.transaction.ranks(of: members.map { keys[$0] }, in: section)
            for (index, openBefore) in zip(members, ranks.openBefore) {
                let item = passing[index]
                shown.append(item)
                positions.append(!item.isCompleted && item.trashedAt == nil ? openCount + openBefore + 1 : nil)
            }
            openCount += ranks.openCount
            keptCount += ranks.keptCount
        }
        var summaries = try context.summaries(of: shown)
        for index in summaries.indices { summaries[index].position = positions[index] }
        return (summaries, ListSummary(list, openItems: openCount, totalItems: keptCount))
    }
}

/// One item with all its fields, and its place among the open items of its list.
public struct ShowItem: ArrangeIntent {
    public static let title = "Show Item"

    /// The item.
    public var item: Item.ID

    /// Shows `item`.
    public init(item: Item.ID) {
        self.item = item
    }

    public var isReadOnly: Bool { true }

    /// Reads the item, and counts its place when it is open.
    ///
    /// - Returns: The item; an open one carries its 1-based place among the open items of its
    ///   list in ``ItemSummary/position``.
    /// - Complexity: One count of the items before it in its list.
    public func run(in context: IntentContext) throws -> ItemResult {
        let item = try context.item(item)
        let position = item.isCompleted ? nil : try context.transaction.itemCount(in: item.listID, section: item.scope, visibility: .open, before: item.orderKey) + 1
        return ItemResult(item: try context.summary(of: item, position: position))
    }
}
