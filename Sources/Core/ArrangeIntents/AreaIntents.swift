public import ArrangeModel
public import ArrangeOrdering
import ArrangeChanges
import ArrangeStore
public import Foundation

/// Creates an empty area, at the bottom of the areas unless a placement is given.
///
/// ```swift
/// let work = try await CreateArea(name: "Work").perform(in: environment).area.id
/// try await MoveList(launch, to: .bottom, in: .area(work)).perform(in: environment)
/// ```
public struct CreateArea: ArrangeIntent {
    public static let title = "Create Area"

    /// The new area's name; no two areas may share a name, ignoring case.
    public var name: String
    /// Where the area goes among the areas.
    public var placement: AreaPlacement

    /// Creates an area named `name` at `placement`.
    public init(name: String, placement: AreaPlacement = .bottom) {
        self.name = name
        self.placement = placement
    }

    /// - Throws: `TitleError` for a name that breaks the rules of names or that another area
    ///   has; ``IntentError/unknownArea(_:)`` for an unknown anchor.
    public func run(in context: IntentContext) throws -> AreaResult {
        let transaction = try context.writing(Self.title)
        let name = try Title.validated(name, as: .areaName)
        try context.check(placement)
        let area = Area(id: Area.ID(rawValue: context.environment.newID()), name: name, createdAt: context.now())
        let report = try context.ordering.add(area, at: placement, in: transaction)
        try context.record(made: SyncChange.creation(of: area, at: SyncPlace(report)))
        return AreaResult(area: try context.summary(of: try context.area(area.id)))
    }
}

/// Gives an area a new name.
public struct RenameArea: ArrangeIntent {
    public static let title = "Rename Area"

    /// The area.
    public var area: Area.ID
    /// The new name; no two areas may share a name, ignoring case.
    public var name: String

    /// Renames `area` to `name`.
    public init(area: Area.ID, name: String) {
        self.area = area
        self.name = name
    }

    /// - Throws: ``IntentError/unknownArea(_:)``; `TitleError` for a name that breaks the rules
    ///   of names or that another area has.
    public func run(in context: IntentContext) throws -> AreaResult {
        let area = try context.area(self.area)
        let name = try Title.validated(name, as: .areaName)
        guard name != area.name else { return AreaResult(area: try context.summary(of: area)) }
        try context.checkNameIsFree(name, for: .area(area.id))
        try context.apply(AreaRenamed(id: area.id, name: name), action: Self.title)
        return AreaResult(area: try context.summary(of: try context.area(area.id)))
    }
}

/// Moves an area to another place among the areas; its lists go with it.
public struct MoveArea: ArrangeIntent {
    public static let title = "Move Area"

    /// The area to move.
    public var area: Area.ID
    /// Where it goes.
    public var placement: AreaPlacement

    /// Moves `area` to `placement` among the areas.
    ///
    /// ```swift
    /// try await MoveArea(home, to: .before(work)).perform(in: environment)
    /// ```
    public init(_ area: Area.ID, to placement: AreaPlacement) {
        self.area = area
        self.placement = placement
    }

    /// - Throws: ``IntentError/unknownArea(_:)`` for the area or the anchor;
    ///   `OrderingError.placedRelativeToItself(_:)`.
    public func run(in context: IntentContext) throws -> AreaPlacementResult {
        let transaction = try context.writing(Self.title)
        let area = try context.area(self.area)
        try context.check(placement)
        let places = context.recordsHistory ? try ChangeRecord.places(of: [area.entry], in: .areas, transaction: transaction) : []
        let report = try context.ordering.place([area.id.entryID], at: placement.map(\.entryID), in: .areas, visibility: .all, in: transaction)
        try context.recordPlacement(report, in: .areas, from: places)
        return try context.areaResult(of: report)
    }
}

/// Moves the areas at some offsets to before the area at another, as SwiftUI's `onMove`
/// reports a drag of the sidebar's sections.
public struct MoveAreasAtOffsets: ArrangeIntent {
    public static let title = "Move Area"

    /// The 0-based offsets of the areas to move.
    public var fromOffsets: IndexSet
    /// The offset to move them before, in the coordinates from before the move; the count of areas for the end.
    public var toOffset: Int
    /// The areas the view showed when the person dragged, in the order shown; the offsets
    /// index into it. `nil` counts the offsets among the areas as they are when the move runs.
    public var shown: [Area.ID]?

    /// Moves the areas at `fromOffsets` to before the one at `toOffset`; given `shown`, the
    /// areas the view showed in its order, the offsets index into it (``ShownDrag``).
    public init(fromOffsets: IndexSet, toOffset: Int, shown: [Area.ID]? = nil) {
        self.fromOffsets = fromOffsets
        self.toOffset = toOffset
        self.shown = shown
    }

    public func run(in context: IntentContext) throws -> AreaPlacementResult {
        try context.areaResult(of: try moveAtOffsets(
            fromOffsets, to: toOffset, in: .areas, visibility: .all, shown: shown?.map(\.entryID), context: context, action: Self.title))
    }
}

/// Deletes an area and keeps its lists: they move out, in their order, to the bottom of the
/// lists in no area. Undo brings the area back, with its lists in it.
public struct DeleteArea: ArrangeIntent {
    public static let title = "Delete Area"

    /// The area.
    public var area: Area.ID

    /// Deletes `area`, keeping its lists.
    public init(area: Area.ID) {
        self.area = area
    }

    /// - Throws: ``IntentError/unknownArea(_:)``.
    public func run(in context: IntentContext) throws -> DeletedAreaResult {
        _ = try context.writing(Self.title)
        let area = try context.area(self.area)
        let summary = try context.summary(of: area)
        try context.delete(area)
        return DeletedAreaResult(area: summary, movedLists: try summary.lists.map { try context.summary(of: try context.reading.existingList(id: $0.id)) })
    }
}

/// Every area, in the order people gave them, each with its lists.
public struct GetAreas: ArrangeIntent {
    public static let title = "Show Areas"

    /// Creates the intent; it takes no parameters.
    public init() {}

    public var isReadOnly: Bool { true }

    public func run(in context: IntentContext) throws -> AreasResult {
        AreasResult(areas: try context.areaSummaries())
    }
}

extension IntentContext {
    /// The area with its lists, in their order, as intents return it.
    func summary(of area: Area) throws -> AreaSummary {
        // The lists of the sidebar: a finished list is in the Logbook.
        AreaSummary(
            area,
            lists: try transaction.entries(in: .area(area.id), visibility: .open, offset: 0, limit: .max).map { entry in
                try summary(of: try list(ItemList.ID(entry: entry.id)))
            },
            tags: try ordered(area.tags))
    }

    /// Every area, in order, with its lists.
    func areaSummaries() throws -> [AreaSummary] {
        try transaction.areas().map(summary)
    }

    /// Every area, in order, and the rows an ordering of the areas wrote.
    func areaResult(of report: OrderingReport) throws -> AreaPlacementResult {
        AreaPlacementResult(areas: try areaSummaries(), rowsWritten: report.rowsWritten, rowsRespread: report.rowsRespread)
    }

    /// Deletes an area, once its lists have moved out of it, in their order, to the bottom of
    /// the lists in no area; records both, so that undo brings the area back with its lists.
    func delete(_ area: Area) throws {
        let transaction = try writing(DeleteArea.title)
        let lists = try transaction.entries(in: .area(area.id), visibility: .all, offset: 0, limit: .max)
        if !lists.isEmpty {
            let places = recordsHistory ? try ChangeRecord.places(of: lists, in: .area(area.id), transaction: transaction) : []
            let report = try ordering.place(lists.map(\.id), at: .bottom, in: .lists, visibility: .all, in: transaction)
            try recordPlacement(report, in: .lists, from: places)
        }
        try apply(AreaDeleted(id: area.id), action: DeleteArea.title)
    }
}
