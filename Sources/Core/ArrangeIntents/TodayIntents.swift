public import ArrangeModel
public import ArrangeOrdering
public import ArrangeStore
import ArrangeChanges
public import Foundation

/// Today on a day, as people see it: the day's items, then This Evening; in each, the items
/// that arrived by their dates, then those placed by hand (`TodayArrangement`).
///
/// ```swift
/// let today = try await ShowToday().perform(in: environment)
/// let sunday = try await ShowToday(day: try Day(parsing: "2026-11-29")).perform(in: environment)
/// ```
public struct ShowToday: ArrangeIntent {
    public static let title = "Show Today"

    /// The day Today is of; `nil` for today where the person is (``IntentContext/today()``).
    public var day: Day?
    /// Which items to show; open ones by default.
    public var visibility: ItemVisibility
    /// Only the items that carry every one of these tags, on themselves, their list or its area, each tag or one under it; every item for none.
    public var tags: [Tag.ID]

    /// Lists the items in Today on `day` seen under `visibility`, those that carry every one of `tags`.
    public init(day: Day? = nil, visibility: ItemVisibility = .open, tags: [Tag.ID] = []) {
        self.day = day
        self.visibility = visibility
        self.tags = tags
    }

    public var isReadOnly: Bool { true }

    /// Reads Today's items, in the order shown.
    ///
    /// - Returns: The items; open ones carry their 1-based place among the open items of
    ///   Today in ``ItemSummary/position``, the evening's counting on from the day's, and those
    ///   the tags leave out counted too.
    /// - Complexity: As `TodayArrangement.init(on:visibility:in:)` says.
    public func run(in context: IntentContext) throws -> TodayListing {
        let day = self.day ?? context.today()
        let filter = try TagFilter(tags, in: context)
        // Through `perform`, the day's due to-dos are made first; a read-only store shows them as they will be.
        let today = try TodayArrangement(on: day, visibility: visibility, projectingRepeats: true, in: context.reading)
        var position = 0
        var positions: [Item.ID: Int] = [:]
        for item in today.items where !item.isCompleted {
            position += 1
            positions[item.id] = position
        }
        let shown = filter.map { today.items.filter($0.passes) } ?? today.items
        let lists = filter.map { filter in today.lists.filter { filter.passesAll(of: $0.id) } } ?? today.lists
        return TodayListing(
            day: day, items: try context.summaries(of: shown, on: day) { positions[$0.id] }, lists: try lists.map(context.summary(of:)))
    }
}

/// Puts items in Today, at the bottom of the day's items or at a placement among Today's
/// items; items already there move. Their places in their lists do not change.
///
/// An item that was not in Today starts today; one placed among the evening's items starts in
/// the evening of today, and one placed among the day's leaves the evening. An item of a list
/// shared with others keeps its dates, which are every member's: the person adds it to their
/// own Today (`TodayMark.added(_:evening:)`).
public struct AddToToday: ArrangeIntent {
    public static let title = "Add to Today"

    /// The items, each once.
    public var items: [Item.ID]
    /// Where they go in Today; an anchor must be in Today.
    public var placement: ItemPlacement
    /// Which items of Today an `Placement/offset(_:)` placement counts.
    public var visibility: ItemVisibility

    /// Puts `items` in Today at `placement`; an `offset` placement counts the items of Today seen under `visibility`.
    ///
    /// ```swift
    /// try await AddToToday([milk, eggs]).perform(in: environment)
    /// try await AddToToday([bread], placement: .before(milk)).perform(in: environment)
    /// ```
    public init(_ items: [Item.ID], placement: ItemPlacement = .bottom, visibility: ItemVisibility = .open) {
        self.items = items
        self.placement = placement
        self.visibility = visibility
    }

    public func run(in context: IntentContext) throws -> PlacementResult {
        try placeInToday(items, at: placement, visibility: visibility, context: context, action: Self.title)
    }
}

/// Moves items that are in Today to another place in Today; their places in their lists do not change.
public struct MoveInToday: ArrangeIntent {
    public static let title = "Move in Today"

    /// The items, each once; each must be in Today.
    public var items: [Item.ID]
    /// Where they go in Today; an anchor must be in Today.
    public var placement: ItemPlacement
    /// Which items of Today an `Placement/offset(_:)` placement counts.
    public var visibility: ItemVisibility

    /// Moves `items` to `placement` in Today.
    public init(_ items: [Item.ID], to placement: ItemPlacement, visibility: ItemVisibility = .open) {
        self.items = items
        self.placement = placement
        self.visibility = visibility
    }

    public func run(in context: IntentContext) throws -> PlacementResult {
        let today = context.today()
        for item in try context.distinctItems(items) where !item.isInToday(on: today) { throw IntentError.notInToday(item.id) }
        return try placeInToday(items, at: placement, visibility: visibility, context: context, action: Self.title)
    }
}

/// Moves the items at some offsets of Today to before the one at another, as SwiftUI's `onMove` reports a drag in Today.
public struct MoveInTodayAtOffsets: ArrangeIntent {
    public static let title = "Move in Today"

    /// The 0-based offsets of the items to move, among the items of Today seen under ``visibility``.
    public var fromOffsets: IndexSet
    /// The offset to move them before, in the coordinates from before the move.
    public var toOffset: Int
    /// Which items the offsets count: the items the view shows.
    public var visibility: ItemVisibility
    /// The items of Today the view showed when the person dragged, in the order shown; the
    /// offsets index into it. `nil` counts the offsets in Today as it is when the move runs.
    public var shown: [Item.ID]?

    /// Moves the items at `fromOffsets` of Today to before the one at `toOffset`; given `shown`,
    /// the items the view showed in its order, the offsets index into it, so that a stale view
    /// moves the item the person dragged (``ShownDrag``).
    public init(fromOffsets: IndexSet, toOffset: Int, visibility: ItemVisibility = .open, shown: [Item.ID]? = nil) {
        self.fromOffsets = fromOffsets
        self.toOffset = toOffset
        self.visibility = visibility
        self.shown = shown
    }

    public func run(in context: IntentContext) throws -> PlacementResult {
        try ShownDrag.checkOffsets(fromOffsets, toOffset)
        let day = context.today()
        let today = try TodayArrangement(on: day, visibility: visibility, in: context.reading)
        let drag = try ShownDrag(fromOffsets: fromOffsets, toOffset: toOffset, shown: (shown ?? today.items.map(\.id)).map(\.entryID))
        let inToday = Set(today.items.map(\.id.entryID))
        let dragged = drag.dragged.filter(inToday.contains).map(Item.ID.init(entry:))
        guard !dragged.isEmpty else { throw OrderingError.nothingToMove }
        let placement = drag.placement(among: inToday.contains).map(Item.ID.init(entry:))
        return try placeInToday(dragged, at: placement, visibility: visibility, context: context, action: Self.title)
    }
}

/// Takes items out of Today: they become anytime, a deadline that is due no longer brings
/// them back (`Item.deadlineDismissed`), and they lose their place in Today's hand order.
/// Their places in their lists do not change.
///
/// An item of a list shared with others keeps its start date, which is every member's: the
/// person takes it out of their own Today (`TodayMark.removed(_:)`).
public struct RemoveFromToday: ArrangeIntent {
    public static let title = "Remove from Today"

    /// The items, each once; each must be in Today.
    public var items: [Item.ID]

    /// Takes `items` out of Today.
    public init(_ items: [Item.ID]) {
        self.items = items
    }

    /// - Throws: ``IntentError/notInToday(_:)`` for an item Today does not hold, with nothing written.
    public func run(in context: IntentContext) throws -> ItemsResult {
        let day = context.today()
        let items = try context.distinctItems(self.items)
        for item in items where !item.isInToday(on: day) { throw IntentError.notInToday(item.id) }
        let ids = items.map(\.id)
        let shared = Set(items.filter(context.isShared).map(\.id))
        try releaseTodayKeys(of: items.filter(\.isKeyedInToday), in: context, action: Self.title)
        let own = ids.filter { !shared.contains($0) }
        if !own.isEmpty {
            _ = try edit(\.when, of: own, in: context, action: Self.title, to: { $0.when.startDate == nil ? $0.when : .anytime }) {
                WhenSet(ids: $0, when: $1)
            }
        }
        _ = try edit(\.todayMark, of: ids, in: context, action: Self.title, to: { item in
            guard shared.contains(item.id), let start = item.when.startDate, start <= day else { return nil }
            return .removed(day)
        }) { TodayMarksSet(ids: $0, mark: $1) }
        _ = try edit(\.deadlineDismissed, of: ids, in: context, action: Self.title, to: { item in
            item.deadlineDismissed || item.deadline.map { $0 <= day } ?? false
        }) { DeadlinesDismissed(ids: $0, dismissed: $1) }
        return ItemsResult(items: try context.summaries(ofItems: ids), changed: items.count)
    }
}

/// Takes away the keys of `leaving` in Today's hand order, so that an item that comes back into
/// Today arrives at the top, and records it.
func releaseTodayKeys(of leaving: [Item], in context: IntentContext, action: String) throws {
    guard !leaving.isEmpty else { return }
    try context.apply(ItemsRemovedFromToday(ids: leaving.map(\.id)), action: action)
}

/// Places items in Today, as a person sees it, and records how to undo it.
///
/// The items go to a section of Today: the anchor's; the day's for the top and the bottom; for
/// an offset, the day's up to its end, the evening's past it. An item that was not in that section starts today, in the
/// evening for This Evening. Among the section's placed items they take keys in Today's hand
/// order; among its arrivals, which have none, they take keys with the arrivals that end up
/// below them, as one run above the section's placed items. No other item is written.
private func placeInToday(
    _ ids: [Item.ID], at placement: ItemPlacement, visibility: ItemVisibility, context: IntentContext, action: String
) throws -> PlacementResult {
    let transaction = try context.writing(action)
    let day = context.today()
    let items = try context.distinctItems(ids)
    try context.check(placement)
    let moving = Set(items.map(\.id))
    let today = try TodayArrangement(on: day, visibility: visibility, in: transaction)
    let (section, drop) = try TodayDrop.of(placement, in: today, moving: moving)
    let shown = today[section]
    let arrivals = shown.arrivals.filter { !moving.contains($0.id) }
    let placed = shown.placed.filter { !moving.contains($0.id) }

    try bring(items, into: section, on: day, context: context, action: action)
    let run = items + (drop < arrivals.count ? arrivals[drop...] : [])
    let keyPlacement: Placement<Item.ID> =
        if drop <= arrivals.count { placed.first.map { .before($0.id) } ?? .bottom }
        else if drop - arrivals.count < placed.count { .before(placed[drop - arrivals.count].id) }
        else { placed.last.map { .after($0.id) } ?? .bottom }
    let places = context.recordsHistory ? try ChangeRecord.todayPlaces(of: run, in: transaction) : []
    let report = try context.ordering.place(
        run.map(\.id.entryID), at: keyPlacement.map(\.entryID), in: .today, visibility: .all, in: transaction)
    try context.recordPlacement(report, in: .today, joining: run.filter { !$0.isKeyedInToday }.map(\.id), from: places)
    return try context.result(of: report)
}

/// Brings `items` into `section` of Today on `day`, those there already staying: by their start
/// dates, or, for the items of a list shared with others, by the person's own mark, which
/// changes no date every member sees. An item of the user's own loses its mark, its start in
/// Today becoming its start date.
private func bring(_ items: [Item], into section: TodaySection, on day: Day, context: IntentContext, action: String) throws {
    let isThere = { (item: Item) in item.todaySection(on: day) == section }
    let own = items.filter { !context.isShared($0) }.map(\.id)
    if !own.isEmpty {
        _ = try edit(\.when, of: own, in: context, action: action, to: { item in
            guard isThere(item) else { return .on(day, evening: section == .evening) }
            return item.todayMark == nil ? item.when : item.startInToday.map { .on($0.day, evening: $0.evening) } ?? item.when
        }) { WhenSet(ids: $0, when: $1) }
    }
    _ = try edit(\.todayMark, of: items.map(\.id), in: context, action: action, to: { item in
        guard context.isShared(item) else { return nil }
        return isThere(item) ? item.todayMark : .added(day, evening: section == .evening)
    }) { TodayMarksSet(ids: $0, mark: $1) }
}

/// Where a placement puts items in Today: a section, and how many of the section's items that
/// are not moving come before them.
private enum TodayDrop {
    static func of(_ placement: ItemPlacement, in today: TodayArrangement, moving: Set<Item.ID>) throws -> (TodaySection, Int) {
        let staying = { (section: TodaySection) in today[section].items.filter { !moving.contains($0.id) } }
        switch placement {
        case .top:
            return (.day, 0)
        case .bottom:
            return (.day, staying(.day).count)
        case .offset(let offset):
            let (ofDay, evening) = (staying(.day).count, staying(.evening).count)
            guard offset <= ofDay + evening else { throw OrderingError.offsetOutOfRange(offset: offset, count: ofDay + evening) }
            return offset <= ofDay ? (.day, offset) : (.evening, offset - ofDay)
        case .before(let anchor), .after(let anchor):
            if moving.contains(anchor) { throw OrderingError.placedRelativeToItself(anchor.entryID) }
            for section in TodaySection.allCases {
                guard let index = staying(section).firstIndex(where: { $0.id == anchor }) else { continue }
                return (section, placement == .before(anchor) ? index : index + 1)
            }
            throw OrderingError.anchorNotInToday(anchor)
        }
    }
}
