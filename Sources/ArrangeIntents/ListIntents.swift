public import ArrangeModel
public import ArrangeOrdering
import ArrangeStore
public import Foundation

/// Creates an empty list, at the bottom of the lists unless a placement is given.
public struct CreateList: ArrangeIntent {
    public static let title = "Create List"

    /// The new list's name; no two lists may share a name, ignoring case.
    public var name: String
    /// Where the list goes among the lists.
    public var placement: ListPlacement

    /// Creates a list named `name` at `placement`.
    public init(name: String, placement: ListPlacement = .bottom) {
        self.name = name
        self.placement = placement
    }

    public func run(in context: IntentContext) throws -> ListResult {
        let transaction = try context.writing(Self.title)
        let name = try Title.validated(name, as: .listName)
        try context.check(placement)
        let list = ItemList(id: ItemList.ID(rawValue: context.environment.newID()), name: name, createdAt: context.now())
        let report = try context.ordering.add(list, at: placement, in: transaction)
        try context.record(.listCreated(list, at: ChangeRecord.Neighbours(report)))
        return ListResult(list: try context.summary(of: try context.list(ItemList.ID(entry: report.placed[0].id))))
    }
}

/// Moves a list to another place among the lists.
public struct MoveList: ArrangeIntent {
    public static let title = "Move List"

    /// The list to move.
    public var list: ItemList.ID
    /// Where it goes.
    public var placement: ListPlacement

    /// Moves `list` to `placement` among the lists.
    ///
    /// ```swift
    /// try await MoveList(groceries, to: .top).perform(in: environment)
    /// try await MoveList(groceries, to: .after(work)).perform(in: environment)
    /// ```
    public init(_ list: ItemList.ID, to placement: ListPlacement) {
        self.list = list
        self.placement = placement
    }

    public func run(in context: IntentContext) throws -> ListPlacementResult {
        let transaction = try context.writing(Self.title)
        let list = try context.list(self.list)
        try context.check(placement)
        let places = context.recordsHistory ? try ChangeRecord.places(of: [list.entry], in: .lists, transaction: transaction) : []
        let report = try context.ordering.place([list.id.entryID], at: placement.map(\.entryID), in: .lists, visibility: .all, in: transaction)
        try context.recordPlacement(report, in: .lists, from: places)
        return try context.listResult(of: report)
    }
}

/// Moves the lists at some offsets to before the list at another, as SwiftUI's `onMove` reports a drag in the sidebar.
public struct MoveListsAtOffsets: ArrangeIntent {
    public static let title = "Move List"

    /// The 0-based offsets of the lists to move.
    public var fromOffsets: IndexSet
    /// The offset to move them before, in the coordinates from before the move; the count of lists for the end.
    public var toOffset: Int
    /// The lists the view showed when the person dragged, in the order shown; the offsets
    /// index into it. `nil` counts the offsets among the lists as they are when the move runs.
    public var shown: [ItemList.ID]?

    /// Moves the lists at `fromOffsets` to before the one at `toOffset`; given `shown`, the
    /// lists the view showed in its order, the offsets index into it, so that a stale view moves
    /// the list the person dragged (``ShownDrag``).
    public init(fromOffsets: IndexSet, toOffset: Int, shown: [ItemList.ID]? = nil) {
        self.fromOffsets = fromOffsets
        self.toOffset = toOffset
        self.shown = shown
    }

    public func run(in context: IntentContext) throws -> ListPlacementResult {
        try context.listResult(of: try moveAtOffsets(
            fromOffsets, to: toOffset, in: .lists, visibility: .all, shown: shown?.map(\.entryID), context: context, action: Self.title))
    }
}

/// Gives a list a new name.
public struct RenameList: ArrangeIntent {
    public static let title = "Rename List"

    /// The list.
    public var list: ItemList.ID
    /// The new name; no two lists may share a name, ignoring case.
    public var name: String

    /// Renames `list` to `name`.
    public init(list: ItemList.ID, name: String) {
        self.list = list
        self.name = name
    }

    public func run(in context: IntentContext) throws -> ListResult {
        let transaction = try context.writing(Self.title)
        var list = try context.list(self.list)
        let old = list.name
        list.name = try Title.validated(name, as: .listName)
        guard list.name != old else { return ListResult(list: try context.summary(of: list)) }
        try transaction.update(list)
        try context.record(.listRenamed(list.id, ChangeRecord.Edit(old: old, new: list.name)))
        return ListResult(list: try context.summary(of: list))
    }
}

/// Deletes a list and its items; undo brings both back. The default list cannot be deleted.
public struct DeleteList: ArrangeIntent {
    public static let title = "Delete List"

    /// The list.
    public var list: ItemList.ID

    /// Deletes `list` and its items.
    public init(list: ItemList.ID) {
        self.list = list
    }

    public func run(in context: IntentContext) throws -> DeletedListResult {
        let transaction = try context.writing(Self.title)
        let list = try context.list(self.list)
        guard try transaction.defaultListID() != list.id else { throw IntentError.defaultListProtected(list.name) }
        let summary = try context.summary(of: list)
        var place: ChangeRecord.Place?
        var items: [ChangeRecord.PlacedItem] = []
        if context.recordsHistory {
            place = try ChangeRecord.place(of: list.entry, in: .lists, transaction: transaction)
            items = try ChangeRecord.placedItems(try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max), in: transaction)
        }
        try transaction.deleteList(id: list.id)
        try context.record(.listDeleted(list, place: place, items: items))
        return DeletedListResult(list: summary, deletedItems: summary.totalItems)
    }
}

/// Every list, in the order people gave them, with its item counts.
public struct GetLists: ArrangeIntent {
    public static let title = "Show Lists"

    /// Creates the intent; it takes no parameters.
    public init() {}

    public var isReadOnly: Bool { true }

    public func run(in context: IntentContext) throws -> ListsResult {
        ListsResult(lists: try context.transaction.lists().map { try context.summary(of: $0) })
    }
}
