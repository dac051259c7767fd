public import ArrangeModel
public import Foundation

/// Where something goes in its ordering, relative to the ends, to an `Anchor` (another
/// entry of the same ordering), or at an offset.
///
/// Items are placed with a `Placement<Item.ID>` (``ItemPlacement``), in their list and in
/// Today alike; lists with a `Placement<ItemList.ID>` (``ListPlacement``).
///
/// ```swift
/// let placement: ItemPlacement = .after(bread)
/// let first: ListPlacement = .top
/// ```
public enum Placement<Anchor: Hashable & Sendable>: Hashable, Sendable {
    /// Before every other entry.
    case top
    /// After every other entry.
    case bottom
    /// Directly before the given entry.
    case before(Anchor)
    /// Directly after the given entry.
    case after(Anchor)
    /// At this 0-based offset among the visible entries, counted once the placed ones are out of the way.
    ///
    /// An offset equal to the visible count means after the last visible entry.
    case offset(Int)
}

/// Where an item goes, in its list or in Today.
public typealias ItemPlacement = Placement<Item.ID>

/// Where a list goes among the lists.
public typealias ListPlacement = Placement<ItemList.ID>

/// Where a checklist entry goes in its item's checklist.
public typealias ChecklistPlacement = Placement<ChecklistItem.ID>

/// Where an area goes among the areas.
public typealias AreaPlacement = Placement<Area.ID>

/// Where a new heading goes among the headings of its list, or where moved headings go.
public typealias HeadingPlacement = Placement<Heading.ID>

/// Where a tag goes among the children of its parent, or the tags at the top level: anchors are its siblings.
public typealias TagPlacement = Placement<Tag.ID>

extension Placement {
    /// The entry a `.before` or `.after` placement names.
    public var anchor: Anchor? {
        switch self {
        case .before(let anchor), .after(let anchor): anchor
        case .top, .bottom, .offset: nil
        }
    }

    /// The same placement with its anchor transformed.
    public func map<Other>(_ transform: (Anchor) throws -> Other) rethrows -> Placement<Other> {
        switch self {
        case .top: .top
        case .bottom: .bottom
        case .before(let anchor): .before(try transform(anchor))
        case .after(let anchor): .after(try transform(anchor))
        case .offset(let offset): .offset(offset)
        }
    }
}

/// What an operation did.
public struct OrderingReport: Hashable, Sendable {
    /// The keys of the entries placed or moved, with their new `sortIndex`, in order.
    public var placed: [OrderKey]
    /// Every row written, the placed items and the re-spread neighbours together.
    public var rowsWritten: Int
    /// The rows of neighbours that were re-spread to make room (included in ``rowsWritten``).
    public var rowsRespread: Int
    /// The entry just before the placed entries once placed, `nil` at the top: what a person
    /// dropped them after. Sync records a placement by its two neighbours.
    public var predecessor: OrderEntry.ID?
    /// The entry just after the placed entries once placed, `nil` at the bottom.
    public var successor: OrderEntry.ID?

    /// A report of these figures.
    public init(
        placed: [OrderKey] = [], rowsWritten: Int = 0, rowsRespread: Int = 0, predecessor: OrderEntry.ID? = nil, successor: OrderEntry.ID? = nil
    ) {
        self.placed = placed
        self.rowsWritten = rowsWritten
        self.rowsRespread = rowsRespread
        self.predecessor = predecessor
        self.successor = successor
    }
}

/// What ``OrderingService/validate(_:repair:)`` found in an ordering, and what it fixed.
public struct ValidationReport: Hashable, Sendable, Codable {
    /// How many entries the ordering has.
    public var itemCount: Int
    /// The groups of entries that share a `sortIndex`.
    public var tiedGroups: Int
    /// How many entries are in those groups.
    public var tiedItems: Int
    /// Neighbouring keys closer than the configured minimum gap (ties not counted).
    public var crampedGaps: Int
    /// Whether the problems found were repaired.
    public var repaired: Bool
    /// The rows written by the repair.
    public var rowsWritten: Int

    /// Whether the ordering needed nothing.
    public var isHealthy: Bool { tiedGroups == 0 && crampedGaps == 0 }

    /// A report of these figures.
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
    /// A move named the same entry more than once.
    case duplicateItems([OrderEntry.ID])
    /// A move was placed before or after one of the entries it moves.
    case placedRelativeToItself(OrderEntry.ID)
    /// The item a placement refers to is in another list than the target.
    case anchorInAnotherList(anchor: Item.ID, list: ItemList.ID)
    /// The item a placement in Today refers to is not in Today.
    case anchorNotInToday(Item.ID)
    /// The moved items come from several lists and no target list was named.
    case targetListAmbiguous
    /// A checklist entry that a move or a placement names is in the checklist of another item:
    /// entries move only within their own checklist.
    case notInChecklist(ChecklistItem.ID, item: Item.ID)
    /// The list a placement refers to is in another area than the one the lists go to (`nil`:
    /// the lists in no area).
    case anchorInAnotherArea(anchor: ItemList.ID, area: Area.ID?)
    /// The item a placement refers to is in the target list, but under another heading than
    /// the one the items go under (`nil`: under none).
    case anchorUnderAnotherHeading(anchor: Item.ID, heading: Heading.ID?)
    /// The heading a placement refers to is of another list than the one the headings go to.
    case headingInAnotherList(anchor: Heading.ID, list: ItemList.ID)
    /// The tag a placement refers to is a child of another tag than the one the tags go under
    /// (`nil`: the top level).
    case tagUnderAnotherParent(anchor: Tag.ID, parent: Tag.ID?)
}

extension OrderingError: CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, in English, with the ids a developer needs; a person sees
    /// ``errorDescription``.
    public var description: String { debugDescription }

    /// What went wrong, in English, with the ids a developer needs.
    public var debugDescription: String {
        switch self {
        case .offsetOutOfRange(let offset, let count) where count < 0:
            "Offset \(offset) is out of range; there is nothing there to move."
        case .offsetOutOfRange(let offset, let count):
            "Offset \(offset) is out of range; use 0 to \(count)."
        case .nothingToMove:
            "Name at least one item or list to move."
        case .duplicateItems(let ids):
            "Each may be moved once; repeated: \(ids.map(\.text).joined(separator: ", "))."
        case .placedRelativeToItself(let id):
            "The item or list \(id) cannot be placed next to itself; choose one that is not being moved."
        case .anchorInAnotherList(let anchor, let list):
            "Item \(anchor) is not in the target list \(list)."
        case .anchorNotInToday(let anchor):
            "Item \(anchor) is not in Today; place items next to one that is."
        case .targetListAmbiguous:
            "The items come from several lists; name the list to move them into."
        case .notInChecklist(let entry, let item):
            "Checklist entry \(entry) is not in the checklist of item \(item); name entries of one checklist."
        case .anchorInAnotherArea(let anchor, let area?):
            "List \(anchor) is not in the area \(area); place lists next to one of that area."
        case .anchorInAnotherArea(let anchor, nil):
            "List \(anchor) is in an area; place lists that leave their area next to one in no area."
        case .anchorUnderAnotherHeading(let anchor, let heading?):
            "Item \(anchor) is not under the heading \(heading); place items next to one under it."
        case .anchorUnderAnotherHeading(let anchor, nil):
            "Item \(anchor) is under a heading; place items that leave their heading next to one under none."
        case .headingInAnotherList(let anchor, let list):
            "Heading \(anchor) is not in the list \(list); place headings next to one of that list."
        case .tagUnderAnotherParent(let anchor, let parent?):
            "Tag \(anchor) is not a child of the tag \(parent); place tags next to one of its children."
        case .tagUnderAnotherParent(let anchor, nil):
            "Tag \(anchor) is a child of another tag; place tags at the top level next to one there."
        }
    }
}

extension OrderingError: LocalizedError {
    /// What went wrong, in the app's language, in a sentence a person can act on.
    public var errorDescription: String? {
        let table = MessageTable.ordering
        return switch self {
        case .offsetOutOfRange(let offset, let count) where count < 0: table.message("OrderingError.offsetOutOfRange.empty", ["offset": "\(offset)"])
        case .offsetOutOfRange(let offset, let count): table.message("OrderingError.offsetOutOfRange", ["offset": "\(offset)", "count": "\(count)"])
        case .nothingToMove: table.message("OrderingError.nothingToMove")
        case .duplicateItems: table.message("OrderingError.duplicateItems")
        case .placedRelativeToItself: table.message("OrderingError.placedRelativeToItself")
        case .anchorInAnotherList: table.message("OrderingError.anchorInAnotherList")
        case .anchorNotInToday: table.message("OrderingError.anchorNotInToday")
        case .targetListAmbiguous: table.message("OrderingError.targetListAmbiguous")
        case .notInChecklist: table.message("OrderingError.notInChecklist")
        case .anchorInAnotherArea(_, .some): table.message("OrderingError.anchorInAnotherArea")
        case .anchorInAnotherArea(_, nil): table.message("OrderingError.anchorInAnotherArea.none")
        case .anchorUnderAnotherHeading(_, .some): table.message("OrderingError.anchorUnderAnotherHeading")
        case .anchorUnderAnotherHeading(_, nil): table.message("OrderingError.anchorUnderAnotherHeading.none")
        case .headingInAnotherList: table.message("OrderingError.headingInAnotherList")
        case .tagUnderAnotherParent(_, .some): table.message("OrderingError.tagUnderAnotherParent")
        case .tagUnderAnotherParent(_, nil): table.message("OrderingError.tagUnderAnotherParent.none")
        }
    }
}
