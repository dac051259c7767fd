public import ArrangeModel
public import ArrangeOrdering
public import ArrangeStore
public import Foundation

/// The items in Today, of every list, in Today's order.
public struct ShowToday: ArrangeIntent {
    public static let title = "Show Today"

    /// Which items to show; open ones by default.
    public var visibility: ItemVisibility

    /// Lists the items in Today seen under `visibility`.
    public init(visibility: ItemVisibility = .open) {
        self.visibility = visibility
    }

    public var isReadOnly: Bool { true }

    /// Reads Today's items, in Today's order.
    ///
    /// - Returns: The items; open ones carry their 1-based place among the open items in
    ///   Today in ``ItemSummary/position``.
    public func run(in context: IntentContext) throws -> TodayListing {
        let items = try context.transaction.todayItems(visibility: visibility, offset: 0, limit: .max)
        var position = 0
        return TodayListing(items: try context.summaries(of: items) { item in
            guard !item.isCompleted else { return nil }
            position += 1
            return position
        })
    }
}

/// Puts items in Today, at the bottom or at a placement among Today's items; items already
/// there move. Their places in their lists do not change.
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
        for item in try context.distinctItems(items) where !item.isInToday { throw IntentError.notInToday(item.id) }
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
        try context.result(of: try moveAtOffsets(
            fromOffsets, to: toOffset, in: .today, visibility: visibility, shown: shown?.map(\.entryID), context: context, action: Self.title))
    }
}

/// Takes items out of Today; their places in their lists do not change.
public struct RemoveFromToday: ArrangeIntent {
    public static let title = "Remove from Today"

    /// The items, each once; each must be in Today.
    public var items: [Item.ID]

    /// Takes `items` out of Today.
    public init(_ items: [Item.ID]) {
        self.items = items
    }

    public func run(in context: IntentContext) throws -> ItemsResult {
        let transaction = try context.writing(Self.title)
        let items = try context.distinctItems(self.items)
        for item in items where !item.isInToday { throw IntentError.notInToday(item.id) }
        let places = context.recordsHistory ? try ChangeRecord.todayPlaces(of: items, in: transaction) : []
        try transaction.removeFromToday(items.map(\.id), updatedAt: context.now())
        try context.record(.leftToday(items.map(\.id), from: places))
        return ItemsResult(items: try context.summaries(of: try items.map { try context.item($0.id) }), changed: items.count)
    }
}

/// Places items in Today and records how to undo it: those already there move back, the others leave.
private func placeInToday(
    _ ids: [Item.ID], at placement: ItemPlacement, visibility: ItemVisibility, context: IntentContext, action: String
) throws -> PlacementResult {
    let transaction = try context.writing(action)
    let items = try context.distinctItems(ids)
    try context.check(placement)
    let places = context.recordsHistory ? try ChangeRecord.todayPlaces(of: items, in: transaction) : []
    let report = try context.ordering.place(ids.map(\.entryID), at: placement.map(\.entryID), in: .today, visibility: visibility, in: transaction)
    try context.recordPlacement(report, in: .today, joining: items.filter { !$0.isInToday }.map(\.id), from: places)
    return try context.result(of: report)
}
