public import ArrangeModel
public import ArrangeOrdering
import ArrangeChanges
import ArrangeStore
public import Foundation

/// Which lists of the sidebar a list is among: those in no area, which come first, or an area's.
public enum ListGroup: Hashable, Sendable, Codable {
    /// The lists in no area.
    case noArea
    /// The lists of an area.
    case area(Area.ID)

    /// The group of the lists of `area`, or of those in no area for `nil`.
    public init(_ area: Area.ID?) {
        self = area.map(ListGroup.area) ?? .noArea
    }

    /// The area, or `nil` for the lists in no area.
    public var area: Area.ID? {
        if case .area(let area) = self { area } else { nil }
    }

    /// The ordering of the group's lists.
    public var scope: OrderScope {
        area.map(OrderScope.area) ?? .lists
    }
}

/// Creates an empty list, at the bottom of the lists in no area unless a placement or an area is given.
public struct CreateList: ArrangeIntent {
    public static let title = "Create List"

    /// The new list's name; no two lists may share a name, ignoring case.
    public var name: String
    /// Where the list goes among the lists of its group.
    public var placement: ListPlacement
    /// The lists it goes among: those in no area, or an area's.
    public var group: ListGroup

    /// Creates a list named `name` at `placement` among the lists of `group`.
    ///
    /// ```swift
    /// try await CreateList(name: "Groceries").perform(in: environment)
    /// try await CreateList(name: "Launch", placement: .top, in: .area(work)).perform(in: environment)
    /// ```
    public init(name: String, placement: ListPlacement = .bottom, in group: ListGroup = .noArea) {
        self.name = name
        self.placement = placement
        self.group = group
    }

    public func run(in context: IntentContext) throws -> ListResult {
        let transaction = try context.writing(Self.title)
        let name = try Title.validated(name, as: .listName)
        try context.check(placement)
        try context.check(group)
        let list = ItemList(id: ItemList.ID(rawValue: context.environment.newID()), name: name, createdAt: context.now(), area: group.area)
        let report = try context.ordering.add(list, at: placement, in: transaction)
        try context.record(made: SyncChange.creation(of: list, at: SyncPlace(report)))
        return ListResult(list: try context.summary(of: try context.list(ItemList.ID(entry: report.placed[0].id))))
    }
}

/// Moves a list to another place among the lists of its area, or into an area, or out of one.
public struct MoveList: ArrangeIntent {
    public static let title = "Move List"

    /// The list to move.
    public var list: ItemList.ID
    /// Where it goes among the lists of its group.
    public var placement: ListPlacement
    /// The lists it goes among; `nil` keeps it among those of its own area, or of none.
    public var group: ListGroup?

    /// Moves `list` to `placement` among the lists of `group`, which it joins; without a group,
    /// among the lists of its own area (or of none).
    ///
    /// ```swift
    /// try await MoveList(groceries, to: .top).perform(in: environment)
    /// try await MoveList(groceries, to: .after(errands)).perform(in: environment)
    /// try await MoveList(groceries, to: .bottom, in: .area(home)).perform(in: environment)  // into Home
    /// try await MoveList(groceries, to: .top, in: .noArea).perform(in: environment)         // out of any area
    /// ```
    public init(_ list: ItemList.ID, to placement: ListPlacement, in group: ListGroup? = nil) {
        self.list = list
        self.placement = placement
        self.group = group
    }

    public func run(in context: IntentContext) throws -> ListPlacementResult {
        let transaction = try context.writing(Self.title)
        let list = try context.list(self.list)
        try context.check(placement)
        if let group { try context.check(group) }
        let scope = group?.scope ?? list.scope
        let places = context.recordsHistory ? try ChangeRecord.places(of: [list.entry], in: list.scope, transaction: transaction) : []
        // Among the lists of the sidebar: a finished list keeps its key, and counts in no offset.
        let report = try context.ordering.place([list.id.entryID], at: placement.map(\.entryID), in: scope, visibility: .open, in: transaction)
        try context.recordPlacement(report, in: scope, from: places)
        return try context.listResult(of: report)
    }
}

/// Moves the lists at some offsets of one group (the lists in no area, or an area's) to before
/// the list at another, as SwiftUI's `onMove` reports a drag within a section of the sidebar.
public struct MoveListsAtOffsets: ArrangeIntent {
    public static let title = "Move List"

    /// The 0-based offsets of the lists to move.
    public var fromOffsets: IndexSet
    /// The offset to move them before, in the coordinates from before the move; the count of lists for the end.
    public var toOffset: Int
    /// The group the offsets count in.
    public var group: ListGroup
    /// The lists the view showed when the person dragged, in the order shown; the offsets
    /// index into it. `nil` counts the offsets among the lists as they are when the move runs.
    public var shown: [ItemList.ID]?

    /// Moves the lists at `fromOffsets` of `group` to before the one at `toOffset`; given
    /// `shown`, the lists the view showed in its order, the offsets index into it, so that a
    /// stale view moves the list the person dragged (``ShownDrag``).
    public init(fromOffsets: IndexSet, toOffset: Int, in group: ListGroup = .noArea, shown: [ItemList.ID]? = nil) {
        self.fromOffsets = fromOffsets
        self.toOffset = toOffset
        self.group = group
        self.shown = shown
    }

    public func run(in context: IntentContext) throws -> ListPlacementResult {
        try context.check(group)
        return try context.listResult(of: try moveAtOffsets(
            fromOffsets, to: toOffset, in: group.scope, visibility: .open, shown: shown?.map(\.entryID), context: context, action: Self.title))
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
        let list = try context.list(self.list)
        let name = try Title.validated(name, as: .listName)
        guard name != list.name else { return ListResult(list: try context.summary(of: list)) }
        try context.checkNameIsFree(name, for: .list(list.id))
        try context.apply(ListRenamed(id: list.id, name: name), action: Self.title)
        return ListResult(list: try context.summary(of: try context.list(list.id)))
    }
}

/// Gives a list new notes, as a Things project has; empty notes take them away.
public struct SetListNotes: ArrangeIntent {
    public static let title = "Set List Notes"

    /// The list.
    public var list: ItemList.ID
    /// The new notes, as given.
    public var notes: String

    /// Gives `list` the notes `notes`.
    public init(list: ItemList.ID, notes: String) {
        self.list = list
        self.notes = notes
    }

    /// - Returns: The list as it is now.
    /// - Throws: ``IntentError/unknownList(_:)``; `TitleError.notesTooLarge` for notes over
    ///   `Item.maximumNotesSize` bytes. Nothing is written then.
    public func run(in context: IntentContext) throws -> ListResult {
        let list = try context.list(self.list)
        try Item.validateNotes(notes)
        if notes != list.notes { try context.apply(ListNotesSet(id: list.id, notes: notes), action: Self.title) }
        return ListResult(list: try context.summary(of: try context.list(list.id)))
    }
}

/// Deletes a list and its items; undo brings both back. The default list cannot be deleted.
public struct DeleteList: ArrangeIntent {
    public static let title = "Delete List"

    /// The list.
    public var list: ItemList.ID

    /// Moves `list` to the Trash, with its items and headings.
    public init(list: ItemList.ID) {
        self.list = list
    }

    /// - Returns: The list as it was, and how many items went to the Trash with it: those
    ///   that were not there already. A list in the Trash stays as it is.
    /// - Throws: ``IntentError/unknownList(_:)``, ``IntentError/defaultListProtected(_:)``.
    public func run(in context: IntentContext) throws -> DeletedListResult {
        let transaction = try context.writing(Self.title)
        let list = try context.list(self.list)
        guard try transaction.defaultListID() != list.id else { throw IntentError.defaultListProtected(list.name) }
        let summary = try context.summary(of: list)
        guard list.trashedAt == nil else { return DeletedListResult(list: summary, deletedItems: 0) }
        try context.apply(ListsTrashed(ids: [list.id], at: context.now()), action: Self.title)
        return DeletedListResult(list: summary, deletedItems: summary.totalItems)
    }
}

/// The lists of the sidebar, in the order people gave them, with their item counts: the open
/// lists, as finished ones are in the Logbook.
public struct GetLists: ArrangeIntent {
    public static let title = "Show Lists"

    /// Creates the intent; it takes no parameters.
    public init() {}

    public var isReadOnly: Bool { true }

    public func run(in context: IntentContext) throws -> ListsResult {
        ListsResult(lists: try context.transaction.listSummaries())
    }
}

/// What becomes of a list's open items when the list is finished.
public enum OpenItemsOnFinish: String, Hashable, Sendable, Codable, CaseIterable {
    /// They are completed with the list.
    case complete
    /// They are canceled with the list.
    case cancel
    /// They stay open, in the finished list.
    case keep
}

/// Completes a list, as Things completes a project: it leaves the sidebar for the Logbook, and
/// its open items are completed with it unless `items` says otherwise. Undo reopens both.
public struct CompleteList: ArrangeIntent {
    public static let title = "Complete List"

    /// The list.
    public var list: ItemList.ID
    /// What becomes of its open items.
    public var items: OpenItemsOnFinish
    /// The moment it was done; `nil` for now.
    public var at: Date?

    /// Completes `list` at `at` (now for `nil`), and does `items` to its open items.
    public init(list: ItemList.ID, items: OpenItemsOnFinish = .complete, at: Date? = nil) {
        self.list = list
        self.items = items
        self.at = at
    }

    /// - Returns: The list as it is now, in the Logbook.
    /// - Throws: ``IntentError/unknownList(_:)``; ``IntentError/defaultListStaysOpen(_:)`` for
    ///   the default list, where new items go. Nothing is written then.
    public func run(in context: IntentContext) throws -> ListResult {
        try finish(list, canceled: false, items: items, at: at, in: context, action: Self.title)
    }
}

/// Cancels a list, as Things cancels a project: it leaves the sidebar for the Logbook, marked
/// canceled, and its open items are canceled with it unless `items` says otherwise. Undo reopens both.
public struct CancelList: ArrangeIntent {
    public static let title = "Cancel List"

    /// The list.
    public var list: ItemList.ID
    /// What becomes of its open items.
    public var items: OpenItemsOnFinish
    /// The moment it was done; `nil` for now.
    public var at: Date?

    /// Cancels `list` at `at` (now for `nil`), and does `items` to its open items.
    public init(list: ItemList.ID, items: OpenItemsOnFinish = .cancel, at: Date? = nil) {
        self.list = list
        self.items = items
        self.at = at
    }

    /// - Returns: The list as it is now, in the Logbook.
    /// - Throws: ``IntentError/unknownList(_:)``; ``IntentError/defaultListStaysOpen(_:)`` for
    ///   the default list, where new items go. Nothing is written then.
    public func run(in context: IntentContext) throws -> ListResult {
        try finish(list, canceled: true, items: items, at: at, in: context, action: Self.title)
    }
}

/// Brings a completed or canceled list back to the sidebar, in the place it had. Its items stay
/// as they are: reopen those wanted open.
public struct ReopenList: ArrangeIntent {
    public static let title = "Reopen List"

    /// The list.
    public var list: ItemList.ID

    /// Reopens `list`.
    public init(list: ItemList.ID) {
        self.list = list
    }

    /// - Returns: The list as it is now; an open list is left as it is.
    /// - Throws: ``IntentError/unknownList(_:)``.
    public func run(in context: IntentContext) throws -> ListResult {
        let list = try context.list(self.list)
        try context.apply(ListReopened(id: list.id), action: Self.title)
        return ListResult(list: try context.summary(of: try context.list(list.id)))
    }
}

/// Finishes a list, closing its open items as `disposition` says first, in one step of the
/// history; a finished list is left as it is.
private func finish(
    _ id: ItemList.ID, canceled: Bool, items disposition: OpenItemsOnFinish, at moment: Date?, in context: IntentContext, action: String
) throws -> ListResult {
    let transaction = try context.writing(action)
    let list = try context.list(id)
    guard !list.isFinished else { return ListResult(list: try context.summary(of: list)) }
    guard try transaction.defaultListID() != list.id else { throw IntentError.defaultListStaysOpen(list.name) }
    let stamp = moment ?? context.now()
    let open = try transaction.items(in: list.id, visibility: .open, offset: 0, limit: .max).map(\.id)
    if disposition != .keep, !open.isEmpty {
        try context.apply(SyncChange.closing(open, at: stamp, canceled: disposition == .cancel), action: action, at: stamp)
    }
    try context.apply(ListFinished(id: list.id, at: stamp, canceled: canceled), action: action, at: stamp)
    return ListResult(list: try context.summary(of: try context.list(list.id)))
}
