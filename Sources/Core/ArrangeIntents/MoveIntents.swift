public import ArrangeModel
import ArrangeChanges
public import ArrangeOrdering
public import ArrangeStore
public import Foundation

/// Moves items to a place, keeping their order, in their list or into another, under a
/// heading or out of one.
public struct MoveItems: ArrangeIntent {
    public static let title = "Move Items"

    /// The items to move, each once.
    public var items: [Item.ID]
    /// Where the moved run goes.
    public var placement: ItemPlacement
    /// The list to move into; without it the items stay in their list, or go to the list of
    /// the item a `before` or `after` placement names, or of the heading ``section`` names.
    public var list: ItemList.ID?
    /// The section of the list the items go to: under a heading, or under none. Without it, a
    /// `before` or `after` placement takes them to its item's section; else they go under no
    /// heading of a list named, and otherwise stay in their section when they share one.
    public var section: ItemSection?
    /// Which items an `Placement/offset(_:)` placement counts.
    public var visibility: ItemVisibility

    /// Moves `items` to `placement`, into `list` and `section` when given; an `offset`
    /// placement counts the items seen under `visibility`.
    ///
    /// ```swift
    /// try await MoveItems([milk], to: .top).perform(in: environment)
    /// try await MoveItems([milk, eggs], to: .after(bread), into: groceries).perform(in: environment)
    /// try await MoveItems([tent], to: .bottom, section: .heading(packing)).perform(in: environment)
    /// ```
    public init(
        _ items: [Item.ID], to placement: ItemPlacement, into list: ItemList.ID? = nil, section: ItemSection? = nil, visibility: ItemVisibility = .open
    ) {
        self.items = items
        self.placement = placement
        self.list = list
        self.section = section
        self.visibility = visibility
    }

    /// - Throws: ``IntentError/unknownItem(_:)``, ``IntentError/unknownList(_:)``,
    ///   ``IntentError/unknownHeading(_:)``, ``IntentError/headingInAnotherList(heading:list:)``;
    ///   `OrderingError` for a move that cannot be made.
    public func run(in context: IntentContext) throws -> PlacementResult {
        let transaction = try context.writing(Self.title)
        guard !items.isEmpty else { throw OrderingError.nothingToMove }
        let destination = try list.map { try context.list($0).id }
        let moving = try context.distinctItems(items)
        try context.check(placement)
        let places = context.recordsHistory ? try ChangeRecord.listPlaces(of: moving, in: transaction) : []
        let report: OrderingReport
        if let section {
            let scope = try context.scope(of: section, in: destination, placement: placement, moving: moving)
            report = try context.ordering.move(items, to: placement, intoSection: scope, visibility: visibility, in: transaction)
        } else {
            report = try context.ordering.move(items, to: placement, into: destination, visibility: visibility, in: transaction)
        }
        if let first = report.placed.first {
            try context.recordPlacement(report, in: try context.item(Item.ID(entry: first.id)).scope, from: places)
        }
        return try context.result(of: report)
    }
}

/// Moves the items at some offsets to before the item at another, as SwiftUI's `onMove` reports
/// a drag: within one section of a list, or from one section to another.
///
/// A list with headings shows a section for its items under no heading, then one for each
/// heading; offsets count within a section. A drag within a section is the `onMove` of that
/// section's `ForEach`; a drag across sections names the section it ends in too (`destination`).
///
/// ```swift
/// .onMove { source, destination in
///     Task { try await MoveItemsAtOffsets(fromOffsets: source, toOffset: destination, in: list.id, visibility: .all).perform(in: environment) }
/// }
/// // A drag from the items under no heading to the third place under Packing.
/// try await MoveItemsAtOffsets(fromOffsets: [0], toOffset: 2, in: trip, destination: .heading(packing)).perform(in: environment)
/// ```
public struct MoveItemsAtOffsets: ArrangeIntent {
    public static let title = "Move Items"

    /// The 0-based offsets of the items to move, among the items seen under ``visibility``.
    public var fromOffsets: IndexSet
    /// The offset to move them before, in the coordinates from before the move; the count of
    /// items seen for the end.
    public var toOffset: Int
    /// The list the offsets count in.
    public var list: ItemList.ID
    /// The section of the list `fromOffsets` count in; and `toOffset` too, unless ``destination`` is another.
    public var section: ItemSection
    /// The section the items are dropped in, when it is another than ``section``: a drag across
    /// sections; `toOffset` then counts in it.
    public var destination: ItemSection?
    /// Which items the offsets count: the items the view shows.
    public var visibility: ItemVisibility
    /// The items the view showed in ``section`` when the person dragged, in the order shown;
    /// the offsets index into it. `nil` counts the offsets in the section as it is when the move runs.
    public var shown: [Item.ID]?
    /// The items the view showed in ``destination``, for a drag across sections: `toOffset`
    /// indexes into it, as `shown` for a drag within a section.
    public var destinationShown: [Item.ID]?

    /// Moves the items at `fromOffsets` of a section of `list`, counted among those seen under
    /// `visibility`, to before the one at `toOffset`, in the same section or in `destination`.
    ///
    /// Give `shown`, the items the view showed in its order, so that a view that another change
    /// made stale moves the item the person dragged, next to the items they dropped it between
    /// (``ShownDrag``); and `destinationShown` for a drag across sections.
    public init(
        fromOffsets: IndexSet, toOffset: Int, in list: ItemList.ID, section: ItemSection = .noHeading, destination: ItemSection? = nil,
        visibility: ItemVisibility = .open, shown: [Item.ID]? = nil, destinationShown: [Item.ID]? = nil
    ) {
        self.fromOffsets = fromOffsets
        self.toOffset = toOffset
        self.list = list
        self.section = section
        self.destination = destination
        self.visibility = visibility
        self.shown = shown
        self.destinationShown = destinationShown
    }

    /// - Throws: ``IntentError/unknownList(_:)``, ``IntentError/unknownHeading(_:)``,
    ///   ``IntentError/headingInAnotherList(heading:list:)``, ``IntentError/negativeOffset(_:)``;
    ///   `OrderingError.offsetOutOfRange(offset:count:)`.
    public func run(in context: IntentContext) throws -> PlacementResult {
        let list = try context.list(self.list)
        let source = try context.scope(of: section, inList: list.id)
        guard let destination, destination != section else {
            return try context.result(of: try moveAtOffsets(
                fromOffsets, to: toOffset, in: source, visibility: visibility, shown: shown?.map(\.entryID), context: context, action: Self.title))
        }
        let target = try context.scope(of: destination, inList: list.id)
        let transaction = try context.writing(Self.title)
        if let negative = [fromOffsets.first ?? 0, toOffset].first(where: { $0 < 0 }) { throw IntentError.negativeOffset(negative) }
        let dragged = try draggedEntries(in: source, transaction: transaction)
        guard !dragged.isEmpty else { throw OrderingError.nothingToMove }
        let placement = try dropPlacement(in: target, transaction: transaction)
        let places = context.recordsHistory ? try ChangeRecord.places(of: dragged, in: source, transaction: transaction) : []
        let report = try context.ordering.place(dragged.map(\.id), at: placement, in: target, visibility: visibility, in: transaction)
        try context.recordPlacement(report, in: target, from: places)
        return try context.result(of: report)
    }

    /// The entries dragged out of `source`: those `shown` at the offsets that are still there,
    /// or those at the offsets among the entries seen.
    private func draggedEntries(in source: OrderScope, transaction: any ItemReading) throws -> [OrderEntry] {
        guard let shown else {
            return try fromOffsets.rangeView.flatMap { range in
                let page = try transaction.entries(in: source, visibility: visibility, offset: range.lowerBound, limit: range.count)
                guard page.count == range.count else {
                    throw OrderingError.offsetOutOfRange(offset: range.lowerBound + page.count, count: try transaction.entryCount(in: source, visibility: visibility) - 1)
                }
                return page
            }
        }
        if let outside = fromOffsets.first(where: { $0 >= shown.count }) { throw OrderingError.offsetOutOfRange(offset: outside, count: shown.count - 1) }
        return try fromOffsets.compactMap { try transaction.shownEntry(id: shown[$0].entryID, in: source) }
    }

    /// Where the drop lands in `target`: after the nearest item shown above it that is still
    /// there, else before the nearest shown below it; without `destinationShown`, at `toOffset`
    /// among the items seen.
    private func dropPlacement(in target: OrderScope, transaction: any ItemReading) throws -> Placement<OrderEntry.ID> {
        guard let destinationShown else { return .offset(toOffset) }
        guard toOffset <= destinationShown.count else { throw OrderingError.offsetOutOfRange(offset: toOffset, count: destinationShown.count) }
        let isPresent = { (id: Item.ID) in try transaction.shownEntry(id: id.entryID, in: target) != nil }
        if let above = try destinationShown[..<toOffset].reversed().first(where: isPresent) { return .after(above.entryID) }
        if let below = try destinationShown[toOffset...].first(where: isPresent) { return .before(below.entryID) }
        return .top
    }
}

/// A drag over the entries a view showed, as SwiftUI's `onMove` reports it, told by ids: the
/// entries dragged, and those shown above and below where they were dropped.
///
/// A move by offsets alone counts them in the ordering as it is when the move runs; when
/// another change came in between (a sync, another window), the offsets name other entries
/// than the person saw. A move given what was shown moves the entries the person dragged, next
/// to the nearest of their shown neighbours still in the ordering: after the one above, or
/// else before the one below. A dragged entry that has left the ordering since (deleted, or
/// moved away elsewhere) stays where it is.
public struct ShownDrag: Hashable, Sendable {
    /// The entries dragged, in the order shown.
    public var dragged: [OrderEntry.ID]
    /// The entries shown above where the dragged ones were dropped, nearest first.
    public var above: [OrderEntry.ID]
    /// The entries shown below where the dragged ones were dropped, nearest first.
    public var below: [OrderEntry.ID]

    /// The drag that `onMove(fromOffsets:toOffset:)` reports over `shown`.
    ///
    /// - Throws: `OrderingError.offsetOutOfRange(offset:count:)` for an offset past `shown`.
    public init(fromOffsets: IndexSet, toOffset: Int, shown: [OrderEntry.ID]) throws(OrderingError) {
        if let outside = fromOffsets.first(where: { $0 >= shown.count }) ?? (toOffset > shown.count ? toOffset : nil) {
            throw .offsetOutOfRange(offset: outside, count: shown.count)
        }
        dragged = fromOffsets.map { shown[$0] }
        let rest = shown.indices.filter { !fromOffsets.contains($0) }
        let drop = toOffset - fromOffsets.count(in: 0..<toOffset)
        above = rest[..<drop].reversed().map { shown[$0] }
        below = rest[drop...].map { shown[$0] }
    }

    /// Where the dragged entries go among those for which `isPresent` holds: after the nearest
    /// one shown above the drop, else before the nearest one below, else at the top.
    func placement(among isPresent: (OrderEntry.ID) throws -> Bool) rethrows -> Placement<OrderEntry.ID> {
        if let above = try above.first(where: isPresent) { return .after(above) }
        if let below = try below.first(where: isPresent) { return .before(below) }
        return .top
    }

    /// Throws for a negative offset among `fromOffsets` and `toOffset`, as `onMove` never reports one.
    ///
    /// - Throws: ``IntentError/negativeOffset(_:)``.
    static func checkOffsets(_ fromOffsets: IndexSet, _ toOffset: Int) throws {
        if let negative = [fromOffsets.first ?? 0, toOffset].first(where: { $0 < 0 }) { throw IntentError.negativeOffset(negative) }
    }
}

/// Moves the entries at some offsets of an ordering as SwiftUI's `onMove` reports a drag,
/// and records how to undo it: the one body of every intent that moves by offsets.
///
/// - Parameter shown: The entries the view showed, which the offsets index into; `nil` counts
///   them in the ordering as it is.
func moveAtOffsets(
    _ fromOffsets: IndexSet, to toOffset: Int, in scope: OrderScope, visibility: ItemVisibility, shown: [OrderEntry.ID]?, context: IntentContext,
    action: String
) throws -> OrderingReport {
    let transaction = try context.writing(action)
    try ShownDrag.checkOffsets(fromOffsets, toOffset)
    if let shown {
        let drag = try ShownDrag(fromOffsets: fromOffsets, toOffset: toOffset, shown: shown)
        let dragged = try drag.dragged.compactMap { try transaction.shownEntry(id: $0, in: scope) }
        guard !dragged.isEmpty else { throw OrderingError.nothingToMove }
        let placement = try drag.placement { try transaction.shownEntry(id: $0, in: scope) != nil }
        let places = context.recordsHistory ? try ChangeRecord.places(of: dragged, in: scope, transaction: transaction) : []
        let report = try context.ordering.place(dragged.map(\.id), at: placement, in: scope, visibility: visibility, in: transaction)
        try context.recordPlacement(report, in: scope, from: places)
        return report
    }
    let places = context.recordsHistory ? try ChangeRecord.places(of: try fromOffsets.rangeView.flatMap { range in
        try transaction.entries(in: scope, visibility: visibility, offset: range.lowerBound, limit: range.count)
    }, in: scope, transaction: transaction) : []
    let report = try context.ordering.move(fromOffsets: fromOffsets, toOffset: toOffset, in: scope, visibility: visibility, in: transaction)
    try context.recordPlacement(report, in: scope, from: places)
    return report
}

extension ItemReading {
    /// The entry with this id in `scope` when a view may show it: there, and out of the Trash.
    func shownEntry(id: OrderEntry.ID, in scope: OrderScope) throws -> OrderEntry? {
        try entry(id: id, in: scope).flatMap { $0.isTrashed ? nil : $0 }
    }
}
