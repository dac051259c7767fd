public import ArrangeModel
public import Foundation

/// Where an item goes in its list.
public enum Placement: Hashable, Sendable {
    /// Before every other item.
    case top
    /// After every other item.
    case bottom
    /// Directly before the given item.
    case before(Item.ID)
    /// Directly after the given item.
    case after(Item.ID)
    /// At this 0-based offset among the visible items, counted once the placed items are out of the way.
    ///
    /// An offset equal to the visible count means after the last visible item.
    case offset(Int)
}

extension Placement {
    /// The item a `.before` or `.after` placement names.
    var anchorID: Item.ID? {
        switch self {
        case .before(let id), .after(let id): id
        case .top, .bottom, .offset: nil
        }
    }
}

/// What an operation did.
public struct OrderingReport: Hashable, Sendable, Codable {
    /// The items placed or moved, with their new `sortIndex`, in display order.
    public var placed: [Item]
    /// Every row written, the placed items and the re-spread neighbours together.
    public var rowsWritten: Int
    /// The rows of neighbours that were re-spread to make room (included in ``rowsWritten``).
    public var rowsRespread: Int

    public init(placed: [Item] = [], rowsWritten: Int = 0, rowsRespread: Int = 0) {
        self.placed = placed
        self.rowsWritten = rowsWritten
        self.rowsRespread = rowsRespread
    }
}

/// What ``OrderingService/validate(list:repair:)`` found in a list, and what it fixed.
public struct ValidationReport: Hashable, Sendable, Codable {
    /// How many items the list has.
    public var itemCount: Int
    /// The groups of items that share a `sortIndex`.
    public var tiedGroups: Int
    /// How many items are in those groups.
    public var tiedItems: Int
    /// Neighbouring keys closer than the configured minimum gap (ties not counted).
    public var crampedGaps: Int
    /// Whether the problems found were repaired.
    public var repaired: Bool
    /// The rows written by the repair.
    public var rowsWritten: Int

    /// Whether the list needed nothing.
    public var isHealthy: Bool { tiedGroups == 0 && crampedGaps == 0 }

    public init(itemCount: Int = 0, tiedGroups: Int = 0, tiedItems: Int = 0, crampedGaps: Int = 0, repaired: Bool = false, rowsWritten: Int = 0) {
        self.itemCount = itemCount
        self.tiedGroups = tiedGroups
        self.tiedItems = tiedItems
        self.crampedGaps = crampedGaps
        self.repaired = repaired
        self.rowsWritten = rowsWritten
    }
}

/// Why the ordering service refused an operation. Nothing was written.
public enum OrderingError: Error, Hashable, Sendable {
    /// An offset lies outside `0...count` (`count` is the largest offset allowed).
    case offsetOutOfRange(offset: Int, count: Int)
    /// A move named no items.
    case nothingToMove
    /// A move named the same item more than once.
    case duplicateItems([Item.ID])
    /// A move was placed before or after one of the items it moves.
    case placedRelativeToItself(Item.ID)
    /// The item a placement refers to is in another list than the target.
    case anchorInAnotherList(anchor: Item.ID, list: ItemList.ID)
    /// The moved items come from several lists and no target list was named.
    case targetListAmbiguous
}

extension OrderingError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .offsetOutOfRange(let offset, let count) where count < 0:
            "Offset \(offset) is out of range; the list has no items there."
        case .offsetOutOfRange(let offset, let count):
            "Offset \(offset) is out of range; use 0 to \(count)."
        case .nothingToMove:
            "Name at least one item to move."
        case .duplicateItems(let ids):
            "Each item may be moved once; repeated: \(ids.map(\.text).joined(separator: ", "))."
        case .placedRelativeToItself(let id):
            "Item \(id) cannot be placed next to itself; choose an item that is not being moved."
        case .anchorInAnotherList(let anchor, let list):
            "Item \(anchor) is not in the target list \(list)."
        case .targetListAmbiguous:
            "The items come from several lists; name the list to move them into."
        }
    }
}

extension OrderingError: LocalizedError {
    public var errorDescription: String? { description }
}
