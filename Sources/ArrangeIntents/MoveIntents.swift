import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

/// Moves items to a place, in their list or into another.
public struct MoveItems: ArrangeIntent {
    public static let title = "Move Items"
    public static let description = IntentDescription(
        name: "move", title: title, summary: "Move items, keeping their order, to the top, the bottom, next to an item or to an offset, in their list or into another.",
        parameters: [
            IntentParameter("items", .items, required: true, help: "The items to move: #N, ids, or id prefixes."),
            IntentParameter("placement", .placement, required: true, help: "Where they go: top, bottom, before or after an item, or at an offset."),
            IntentParameter("list", .list, help: "The list to move them into; #N in the placement counts this list's items."),
            IntentParameter("from", .list, help: "The list whose open items #N counts for the moved items; the current list when not given."),
        ])

    public var items: [ItemReference]
    public var placement: PlacementReference
    /// The list to move into; without it the items stay in their list, or go to the list
    /// of the item a `before` or `after` placement names.
    public var list: ListReference?
    /// The list in which `#N` references to the moved items count.
    public var from: ListReference?

    public init(items: [ItemReference], placement: PlacementReference, list: ListReference? = nil, from: ListReference? = nil) {
        self.items = items
        self.placement = placement
        self.list = list
        self.from = from
    }

    public func perform(in environment: IntentEnvironment) async throws -> PlacementResult {
        try environment.write(Self.title) { transaction, resolve in
            let source = try resolve.list(from)
            let ids = try resolve.items(items, in: source).map(\.id)
            let destination = try list.map { try resolve.list($0) }
            let placement = try resolve.placement(placement, in: destination ?? source)
            return try moveRecordingPlaces(ids, in: transaction, resolve: resolve) {
                try environment.ordering.move(ids, to: placement, into: destination?.id, visibility: .open, in: transaction)
            }
        }
    }
}

/// Moves items by their offsets, as SwiftUI's `onMove` reports a drag.
public struct MoveItemsAtOffsets: ArrangeIntent {
    public static let title = "Move Items"
    public static let description = IntentDescription(
        name: "move", title: title,
        summary: "Move the open items at some offsets to before the item at another, as SwiftUI's onMove does.",
        parameters: [
            IntentParameter("fromOffsets", .integers, required: true, help: "The 0-based offsets of the items to move, among the list's open items."),
            IntentParameter("toOffset", .integer, required: true, help: "The offset to move them before, counted before the move (the number of open items for the end)."),
            IntentParameter("list", .list, help: "The list; the current list when not given."),
        ],
        selector: "fromOffsets")

    public var fromOffsets: [Int]
    public var toOffset: Int
    public var list: ListReference?

    public init(fromOffsets: [Int], toOffset: Int, list: ListReference? = nil) {
        self.fromOffsets = fromOffsets
        self.toOffset = toOffset
        self.list = list
    }

    public func perform(in environment: IntentEnvironment) async throws -> PlacementResult {
        try environment.write(Self.title) { transaction, resolve in
            let list = try resolve.list(self.list)
            if let negative = (fromOffsets + [toOffset]).first(where: { $0 < 0 }) { throw IntentError.negativeOffset(negative) }
            let source = IndexSet(fromOffsets)
            let ids = try source.rangeView.flatMap { range in
                try transaction.items(in: list.id, visibility: .open, offset: range.lowerBound, limit: range.count).map(\.id)
            }
            return try moveRecordingPlaces(ids, in: transaction, resolve: resolve) {
                try environment.ordering.move(fromOffsets: source, toOffset: toOffset, in: list.id, visibility: .open, in: transaction)
            }
        }
    }
}

/// Runs a move, and records where the items were so that undo can put them back.
private func moveRecordingPlaces(
    _ ids: [Item.ID], in transaction: any ItemWriting, resolve: Resolver, move: () throws -> OrderingReport
) throws -> (PlacementResult, Change?) {
    let places = try Change.places(of: Set(ids), in: transaction)
    let report = try move()
    return (try resolve.result(of: report), report.rowsWritten == 0 ? nil : .moved(places))
}
