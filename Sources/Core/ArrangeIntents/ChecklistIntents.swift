public import ArrangeModel
public import ArrangeOrdering
import ArrangeChanges
import ArrangeStore
public import Foundation

/// Adds an entry to an item's checklist.
///
/// ```swift
/// try await AddChecklistItem(title: "Passport", to: trip).perform(in: environment)
/// ```
public struct AddChecklistItem: ArrangeIntent {
    public static let title = "Add Checklist Item"

    /// The entry's title; surrounding white space is trimmed.
    public var title: String
    /// The item whose checklist gets the entry.
    public var item: Item.ID
    /// Where the entry goes in the checklist; an offset counts every entry, ticked off or not.
    public var placement: ChecklistPlacement

    /// Adds an entry titled `title` to the checklist of `item`, at `placement`.
    public init(title: String, to item: Item.ID, at placement: ChecklistPlacement = .bottom) {
        self.title = title
        self.item = item
        self.placement = placement
    }

    /// - Throws: ``IntentError/unknownItem(_:)``, ``IntentError/unknownChecklistItem(_:)`` for an
    ///   unknown anchor, `OrderingError.notInChecklist(_:item:)` for an anchor of another
    ///   checklist, `TitleError` for a title that breaks the rules of titles.
    public func run(in context: IntentContext) throws -> ChecklistResult {
        let transaction = try context.writing(Self.title)
        let title = try Title.validated(title)
        let item = try context.item(self.item)
        try context.check(placement)
        let entry = ChecklistItem(id: ChecklistItem.ID(rawValue: context.environment.newID()), itemID: item.id, title: title)
        let report = try context.ordering.add(entry, at: placement, in: transaction)
        try context.record(made: SyncChange.creation(of: entry, at: SyncPlace(report)))
        return try context.checklistResult(of: item.id, changed: [entry.id], rowsWritten: report.rowsWritten)
    }
}

/// Gives a checklist entry a new title.
public struct EditChecklistItem: ArrangeIntent {
    public static let title = "Edit Checklist Item"

    /// The entry.
    public var entry: ChecklistItem.ID
    /// The new title; surrounding white space is trimmed.
    public var title: String

    /// Gives `entry` the title `title`.
    public init(_ entry: ChecklistItem.ID, title: String) {
        self.entry = entry
        self.title = title
    }

    /// - Throws: ``IntentError/unknownChecklistItem(_:)``; `TitleError` for a title that breaks
    ///   the rules of titles.
    public func run(in context: IntentContext) throws -> ChecklistResult {
        let entry = try context.checklistItem(self.entry)
        let title = try Title.validated(title)
        guard title != entry.title else { return try context.checklistResult(of: entry.itemID, changed: [], rowsWritten: 0) }
        try context.apply(ChecklistItemRetitled(id: entry.id, title: title), action: Self.title)
        return try context.checklistResult(of: entry.itemID, changed: [entry.id], rowsWritten: 1)
    }
}

/// Moves entries of one checklist to a place in it, keeping their order.
///
/// ```swift
/// try await MoveChecklistItems([passport], to: .top).perform(in: environment)
/// ```
public struct MoveChecklistItems: ArrangeIntent {
    public static let title = "Move Checklist Items"

    /// The entries to move, each once, all of one checklist.
    public var entries: [ChecklistItem.ID]
    /// Where the moved run goes; an anchor must be an entry of the same checklist.
    public var placement: ChecklistPlacement

    /// Moves `entries` to `placement` in their checklist.
    public init(_ entries: [ChecklistItem.ID], to placement: ChecklistPlacement) {
        self.entries = entries
        self.placement = placement
    }

    /// - Throws: ``IntentError/noChecklistItemsNamed``, ``IntentError/unknownChecklistItem(_:)``,
    ///   `OrderingError.notInChecklist(_:item:)` for entries or an anchor of several checklists.
    /// - Complexity: One row written for the moved entry, unless its gap is full.
    public func run(in context: IntentContext) throws -> ChecklistResult {
        let transaction = try context.writing(Self.title)
        let (item, moving) = try context.checklistItems(entries)
        try context.check(placement)
        let scope = OrderScope.checklist(item)
        let places = context.recordsHistory ? try ChangeRecord.places(of: moving.map(\.entry), in: scope, transaction: transaction) : []
        let report = try context.ordering.place(moving.map(\.id.entryID), at: placement.map(\.entryID), in: scope, visibility: .all, in: transaction)
        try context.recordPlacement(report, in: scope, from: places)
        return try context.checklistResult(of: item, changed: report.rowsWritten > 0 ? moving.map(\.id) : [], rowsWritten: report.rowsWritten)
    }
}

/// Moves the entries at some offsets of a checklist to before the entry at another, as
/// SwiftUI's `onMove` reports a drag in a view of the checklist.
///
/// Offsets count every entry of the checklist, ticked off or not, as a checklist shows them.
public struct MoveChecklistItemsAtOffsets: ArrangeIntent {
    public static let title = "Move Checklist Items"

    /// The 0-based offsets of the entries to move.
    public var fromOffsets: IndexSet
    /// The offset to move them before, in the coordinates from before the move; the count of
    /// entries for the end.
    public var toOffset: Int
    /// The item whose checklist the offsets count in.
    public var item: Item.ID
    /// The entries the view showed when the person dragged, in the order shown; the offsets
    /// index into it. `nil` counts the offsets in the checklist as it is when the move runs.
    public var shown: [ChecklistItem.ID]?

    /// Moves the entries at `fromOffsets` of the checklist of `item` to before the one at `toOffset`.
    ///
    /// Give `shown`, the entries the view showed in its order, so that a view that another
    /// change made stale moves the entry the person dragged (``ShownDrag``).
    public init(fromOffsets: IndexSet, toOffset: Int, in item: Item.ID, shown: [ChecklistItem.ID]? = nil) {
        self.fromOffsets = fromOffsets
        self.toOffset = toOffset
        self.item = item
        self.shown = shown
    }

    public func run(in context: IntentContext) throws -> ChecklistResult {
        let item = try context.item(self.item)
        let report = try moveAtOffsets(
            fromOffsets, to: toOffset, in: .checklist(item.id), visibility: .all, shown: shown?.map(\.entryID), context: context, action: Self.title)
        let moved = report.rowsWritten > 0 ? report.placed.map { ChecklistItem.ID(entry: $0.id) } : []
        return try context.checklistResult(of: item.id, changed: moved, rowsWritten: report.rowsWritten)
    }
}

/// Ticks off entries of one checklist; they keep their place.
public struct CompleteChecklistItems: ArrangeIntent {
    public static let title = "Complete Checklist Items"

    /// The entries, each once, all of one checklist; repeats are ignored.
    public var entries: [ChecklistItem.ID]

    /// Acts on `entries`.
    public init(_ entries: [ChecklistItem.ID]) {
        self.entries = entries
    }

    public func run(in context: IntentContext) throws -> ChecklistResult {
        try setCompletion(of: entries, to: true, in: context, action: Self.title)
    }
}

/// Marks open entries of one checklist canceled, as Things' status 2; ticked-off entries stay
/// ticked off.
public struct CancelChecklistItems: ArrangeIntent {
    public static let title = "Cancel Checklist Items"

    /// The entries, each once, all of one checklist; repeats are ignored.
    public var entries: [ChecklistItem.ID]

    /// Acts on `entries`.
    public init(_ entries: [ChecklistItem.ID]) {
        self.entries = entries
    }

    public func run(in context: IntentContext) throws -> ChecklistResult {
        let (item, entries) = try context.checklistItems(self.entries)
        let canceling = entries.filter { !$0.isCompleted }.map(\.id).sorted()
        if !canceling.isEmpty {
            let stamp = context.now()
            try context.apply(ChecklistItemsCanceled(ids: canceling, at: stamp), action: Self.title, at: stamp)
        }
        return try context.checklistResult(of: item, changed: canceling, rowsWritten: canceling.count)
    }
}

/// Marks ticked-off and canceled entries of one checklist open again, in the place they had.
public struct ReopenChecklistItems: ArrangeIntent {
    public static let title = "Reopen Checklist Items"

    /// The entries, each once, all of one checklist; repeats are ignored.
    public var entries: [ChecklistItem.ID]

    /// Acts on `entries`.
    public init(_ entries: [ChecklistItem.ID]) {
        self.entries = entries
    }

    public func run(in context: IntentContext) throws -> ChecklistResult {
        try setCompletion(of: entries, to: false, in: context, action: Self.title)
    }
}

/// Completes or reopens checklist entries; entries already so are left alone.
private func setCompletion(of ids: [ChecklistItem.ID], to completed: Bool, in context: IntentContext, action: String) throws -> ChecklistResult {
    let (item, entries) = try context.checklistItems(ids)
    let changing = entries.filter { $0.isCompleted != completed }.map(\.id)
    if !changing.isEmpty {
        let ids = changing.sorted()
        if completed {
            let stamp = context.now()
            try context.apply(ChecklistItemsCompleted(ids: ids, at: stamp), action: action, at: stamp)
        } else {
            try context.apply(ChecklistItemsReopened(ids: ids), action: action)
        }
    }
    return try context.checklistResult(of: item, changed: changing, rowsWritten: changing.count)
}

/// Deletes entries of one checklist; undo puts them back where they were.
public struct DeleteChecklistItems: ArrangeIntent {
    public static let title = "Delete Checklist Items"

    /// The entries, each once, all of one checklist; repeats are ignored.
    public var entries: [ChecklistItem.ID]

    /// Acts on `entries`.
    public init(_ entries: [ChecklistItem.ID]) {
        self.entries = entries
    }

    public func run(in context: IntentContext) throws -> ChecklistResult {
        let (item, entries) = try context.checklistItems(self.entries)
        try context.apply(ChecklistItemsDeleted(ids: entries.map(\.id)), action: Self.title)
        return try context.checklistResult(of: item, changed: entries.map(\.id), rowsWritten: entries.count)
    }
}

extension IntentContext {
    /// The checklist entry with this id.
    ///
    /// - Throws: ``IntentError/unknownChecklistItem(_:)``.
    func checklistItem(_ id: ChecklistItem.ID) throws -> ChecklistItem {
        guard let entry = try transaction.checklistItem(id: id) else { throw IntentError.unknownChecklistItem(id) }
        return entry
    }

    /// The checklist entries with these ids, each once, in the order first named, and the item
    /// whose checklist holds them all.
    ///
    /// - Throws: ``IntentError/noChecklistItemsNamed`` for no ids, ``IntentError/unknownChecklistItem(_:)``,
    ///   `OrderingError.notInChecklist(_:item:)` for entries of several checklists.
    func checklistItems(_ ids: [ChecklistItem.ID]) throws -> (item: Item.ID, entries: [ChecklistItem]) {
        guard let first = ids.first else { throw IntentError.noChecklistItemsNamed }
        var seen = Set<ChecklistItem.ID>()
        let entries = try ids.filter { seen.insert($0).inserted }.map(checklistItem)
        let item = try checklistItem(first).itemID
        if let stranger = entries.first(where: { $0.itemID != item }) { throw OrderingError.notInChecklist(stranger.id, item: item) }
        return (item, entries)
    }

    /// Throws unless a placement in a checklist can be made: its anchor exists, its offset is not negative.
    ///
    /// - Throws: ``IntentError/unknownChecklistItem(_:)``, ``IntentError/negativeOffset(_:)``.
    func check(_ placement: ChecklistPlacement) throws {
        try check(placement, anchorExists: { _ = try checklistItem($0) })
    }

    /// The item with its checklist as it is now, the entries changed, and the rows written.
    func checklistResult(of item: Item.ID, changed: [ChecklistItem.ID], rowsWritten: Int) throws -> ChecklistResult {
        ChecklistResult(item: try summary(of: try self.item(item)), changed: changed, rowsWritten: rowsWritten)
    }
}
