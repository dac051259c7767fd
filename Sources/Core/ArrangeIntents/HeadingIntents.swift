public import ArrangeModel
public import ArrangeOrdering
import ArrangeChanges
import ArrangeStore
public import Foundation

/// A section of a list: its items under no heading, which come first, or those under one heading.
///
/// ```swift
/// try await MoveItems([passport], to: .top, section: .heading(beforeTheTrip)).perform(in: environment)
/// try await MoveItems([passport], to: .bottom, section: .noHeading).perform(in: environment)
/// ```
public enum ItemSection: Hashable, Sendable, Codable {
    /// The items of the list under no heading.
    case noHeading
    /// The items under a heading.
    case heading(Heading.ID)

    /// The section of the items under `heading`, or of those under none for `nil`.
    public init(_ heading: Heading.ID?) {
        self = heading.map(ItemSection.heading) ?? .noHeading
    }

    /// The heading, or `nil` for the items under none.
    public var heading: Heading.ID? {
        if case .heading(let heading) = self { heading } else { nil }
    }

    /// The ordering of the section's items in `list`.
    public func scope(in list: ItemList.ID) -> OrderScope {
        heading.map(OrderScope.heading) ?? .items(list)
    }
}

/// Creates a heading in a list, at the bottom of its headings unless a placement is given.
///
/// ```swift
/// let packing = try await CreateHeading(title: "Packing", in: trip).perform(in: environment).heading.id
/// try await MoveItems([tent, boots], to: .top, section: .heading(packing)).perform(in: environment)
/// ```
public struct CreateHeading: ArrangeIntent {
    public static let title = "Create Heading"

    /// The new heading's title, under the rules of an item's title.
    public var title: String
    /// The list; `nil` for the default list.
    public var list: ItemList.ID?
    /// Where the heading goes among the list's headings.
    public var placement: HeadingPlacement

    /// Creates a heading titled `title` in `list` at `placement`.
    public init(title: String, in list: ItemList.ID? = nil, placement: HeadingPlacement = .bottom) {
        self.title = title
        self.list = list
        self.placement = placement
    }

    /// - Throws: `TitleError` for a title that breaks the rules; ``IntentError/unknownList(_:)``,
    ///   ``IntentError/unknownHeading(_:)`` for an unknown anchor; `OrderingError` for an anchor of another list.
    public func run(in context: IntentContext) throws -> HeadingResult {
        let transaction = try context.writing(Self.title)
        let title = try Title.validated(title)
        let list = try context.list(self.list)
        try context.check(placement)
        let heading = Heading(id: Heading.ID(rawValue: context.environment.newID()), listID: list.id, title: title, createdAt: context.now())
        let report = try context.ordering.add(heading, at: placement, in: transaction)
        try context.record(made: SyncChange.creation(of: heading, at: SyncPlace(report)))
        return HeadingResult(heading: try context.summary(of: try context.heading(heading.id)))
    }
}

/// Gives a heading a new title.
public struct RenameHeading: ArrangeIntent {
    public static let title = "Rename Heading"

    /// The heading.
    public var heading: Heading.ID
    /// The new title.
    public var title: String

    /// Renames `heading` to `title`.
    public init(heading: Heading.ID, title: String) {
        self.heading = heading
        self.title = title
    }

    /// - Throws: ``IntentError/unknownHeading(_:)``; `TitleError` for a title that breaks the rules.
    public func run(in context: IntentContext) throws -> HeadingResult {
        let heading = try context.heading(self.heading)
        let title = try Title.validated(title)
        if title != heading.title { try context.apply(HeadingRenamed(id: heading.id, title: title), action: Self.title) }
        return HeadingResult(heading: try context.summary(of: try context.heading(heading.id)))
    }
}

/// Moves a heading among the headings of its list, or into another list; the items under it go with it.
public struct MoveHeading: ArrangeIntent {
    public static let title = "Move Heading"

    /// The heading to move.
    public var heading: Heading.ID
    /// Where it goes among the headings of the list.
    public var placement: HeadingPlacement
    /// The list to move it into; without it, the list of the heading a `before` or `after`
    /// placement names, or else its own.
    public var list: ItemList.ID?

    /// Moves `heading` to `placement`, into `list` when given.
    ///
    /// ```swift
    /// try await MoveHeading(packing, to: .before(onTheRoad)).perform(in: environment)
    /// try await MoveHeading(packing, to: .bottom, in: nextTrip).perform(in: environment)
    /// ```
    public init(_ heading: Heading.ID, to placement: HeadingPlacement, in list: ItemList.ID? = nil) {
        self.heading = heading
        self.placement = placement
        self.list = list
    }

    /// - Throws: ``IntentError/unknownHeading(_:)`` for the heading or the anchor,
    ///   ``IntentError/unknownList(_:)``; `OrderingError` for an anchor of another list or the
    ///   heading itself.
    public func run(in context: IntentContext) throws -> HeadingPlacementResult {
        let transaction = try context.writing(Self.title)
        let heading = try context.heading(self.heading)
        try context.check(placement)
        let anchorList = try placement.anchor.map { try context.heading($0).listID }
        let target = try list.map { try context.list($0).id } ?? anchorList ?? heading.listID
        let places = context.recordsHistory ? try ChangeRecord.places(of: [heading.entry], in: .headings(heading.listID), transaction: transaction) : []
        let report = try context.ordering.place([heading.id.entryID], at: placement.map(\.entryID), in: .headings(target), visibility: .all, in: transaction)
        try context.recordPlacement(report, in: .headings(target), from: places)
        return try context.headingResult(of: report, in: target)
    }
}

/// Moves the headings of a list at some offsets to before the heading at another, as SwiftUI's
/// `onMove` reports a drag of a list's sections.
public struct MoveHeadingsAtOffsets: ArrangeIntent {
    public static let title = "Move Heading"

    /// The 0-based offsets of the headings to move.
    public var fromOffsets: IndexSet
    /// The offset to move them before, in the coordinates from before the move; the count of headings for the end.
    public var toOffset: Int
    /// The list whose headings the offsets count.
    public var list: ItemList.ID
    /// The headings the view showed when the person dragged, in the order shown; the offsets
    /// index into it. `nil` counts the offsets among the headings as they are when the move runs.
    public var shown: [Heading.ID]?

    /// Moves the headings of `list` at `fromOffsets` to before the one at `toOffset`; given
    /// `shown`, the headings the view showed in its order, the offsets index into it (``ShownDrag``).
    public init(fromOffsets: IndexSet, toOffset: Int, in list: ItemList.ID, shown: [Heading.ID]? = nil) {
        self.fromOffsets = fromOffsets
        self.toOffset = toOffset
        self.list = list
        self.shown = shown
    }

    public func run(in context: IntentContext) throws -> HeadingPlacementResult {
        let list = try context.list(self.list)
        let report = try moveAtOffsets(
            fromOffsets, to: toOffset, in: .headings(list.id), visibility: .all, shown: shown?.map(\.entryID), context: context, action: Self.title)
        return try context.headingResult(of: report, in: list.id)
    }
}

/// Deletes a heading and the items under it. Undo brings all of them back, in their places.
public struct DeleteHeading: ArrangeIntent {
    public static let title = "Delete Heading"

    /// The heading.
    public var heading: Heading.ID

    /// Moves `heading` to the Trash, with the items under it.
    public init(heading: Heading.ID) {
        self.heading = heading
    }

    /// - Returns: The heading as it was, and how many items went to the Trash with it: those
    ///   under it that were not there already. A heading in the Trash stays as it is.
    /// - Throws: ``IntentError/unknownHeading(_:)``.
    public func run(in context: IntentContext) throws -> DeletedHeadingResult {
        let heading = try context.heading(self.heading)
        let summary = try context.summary(of: heading)
        guard heading.trashedAt == nil else { return DeletedHeadingResult(heading: summary, deletedItems: 0) }
        try context.apply(HeadingsTrashed(ids: [heading.id], at: context.now()), action: Self.title)
        return DeletedHeadingResult(heading: summary, deletedItems: summary.totalItems)
    }
}

extension IntentContext {
    /// The heading with this id.
    ///
    /// - Throws: ``IntentError/unknownHeading(_:)``.
    public func heading(_ id: Heading.ID) throws -> Heading {
        guard let heading = try transaction.heading(id: id) else { throw IntentError.unknownHeading(id) }
        return heading
    }

    /// The heading as intents return it, with how many items out of the Trash are under it.
    func summary(of heading: Heading) throws -> HeadingSummary {
        HeadingSummary(
            heading, openItems: try transaction.entryCount(in: .heading(heading.id), visibility: .open),
            totalItems: try transaction.entryCount(in: .heading(heading.id), visibility: .openAndCompleted))
    }

    /// The headings of `list`, in order, and the rows an ordering of headings wrote.
    func headingResult(of report: OrderingReport, in list: ItemList.ID) throws -> HeadingPlacementResult {
        HeadingPlacementResult(
            headings: try transaction.headings(in: list).map(summary), rowsWritten: report.rowsWritten, rowsRespread: report.rowsRespread)
    }

    /// The ordering of a section of `list`.
    ///
    /// - Throws: ``IntentError/unknownHeading(_:)``, ``IntentError/headingInAnotherList(heading:list:)``.
    func scope(of section: ItemSection, inList list: ItemList.ID) throws -> OrderScope {
        guard let id = section.heading else { return .items(list) }
        let heading = try heading(id)
        guard heading.listID == list else { throw IntentError.headingInAnotherList(heading: id, list: list) }
        return .heading(id)
    }

    /// The ordering of the section items move to: under a heading (of `list`, when named), or
    /// under no heading of `list`, else of the list of the placement's anchor, else of the
    /// moving items' one list.
    ///
    /// - Throws: ``IntentError/unknownHeading(_:)``, ``IntentError/headingInAnotherList(heading:list:)``;
    ///   `OrderingError.targetListAmbiguous` for items of several lists and no list to go to.
    func scope(of section: ItemSection, in list: ItemList.ID?, placement: ItemPlacement, moving: [Item]) throws -> OrderScope {
        if let heading = section.heading {
            return try scope(of: section, inList: list ?? self.heading(heading).listID)
        }
        if let list { return .items(list) }
        if let anchor = placement.anchor { return .items(try item(anchor).listID) }
        let lists = Set(moving.map(\.listID))
        guard lists.count == 1, let only = lists.first else { throw OrderingError.targetListAmbiguous }
        return .items(only)
    }

    /// Throws unless a placement of headings can be made: its anchor exists, its offset is not negative.
    ///
    /// - Throws: ``IntentError/unknownHeading(_:)``, ``IntentError/negativeOffset(_:)``.
    func check(_ placement: HeadingPlacement) throws {
        try check(placement, anchorExists: { _ = try heading($0) })
    }
}

extension ItemReading {
    /// Every item of a section of a list, in its order.
    func items(in section: OrderScope) throws -> [Item] {
        try entries(in: section, visibility: .all, offset: 0, limit: .max).map { try existingItem(id: Item.ID(entry: $0.id)) }
    }
}
