import ArrangeChanges
public import ArrangeModel
public import ArrangeStore
import Foundation

// The Trash: deleting an item, a list or a heading moves it there (``DeleteItems``,
// ``DeleteList``, ``DeleteHeading``), where it keeps its places until it is put back
// (``RestoreFromTrash``) or the Trash is emptied (``EmptyTrash``), which deletes for good.

/// What the Trash holds: the items, lists and headings deleted and not yet put back or emptied,
/// each the most recently deleted first.
///
/// An item in the Trash with its list or its heading is not listed on its own: it comes back
/// with them.
public struct GetTrash: ArrangeIntent {
    public static let title = "Show Trash"

    /// Creates the intent; it takes no parameters.
    public init() {}

    public var isReadOnly: Bool { true }

    /// - Complexity: One read of the items and headings in the Trash themselves, from their
    ///   indexes on SQLite, and of the lists.
    public func run(in context: IntentContext) throws -> TrashResult {
        let lists = try context.transaction.lists().filter { $0.trashedAt != nil }
            .sorted { ($0.trashedAt ?? .distantPast, $1.id) > ($1.trashedAt ?? .distantPast, $0.id) }
        return TrashResult(
            items: try context.summaries(of: try context.transaction.items(.trashed)), lists: try lists.map(context.summary),
            headings: try context.transaction.headings(.trashed).map(context.summary))
    }
}

/// Puts items, lists and headings back from the Trash, each where it was: in its list, under
/// its heading and in Today, in the places its keys kept. A list or a heading comes back with
/// what went to the Trash with it, not with what was deleted before it.
///
/// Undo sends them back to the Trash.
public struct RestoreFromTrash: ArrangeIntent {
    public static let title = "Put Back"

    /// The items to put back, each in the Trash itself.
    public var items: [Item.ID]
    /// The lists to put back.
    public var lists: [ItemList.ID]
    /// The headings to put back.
    public var headings: [Heading.ID]

    /// Puts back `items`, `lists` and `headings`.
    public init(items: [Item.ID] = [], lists: [ItemList.ID] = [], headings: [Heading.ID] = []) {
        (self.items, self.lists, self.headings) = (items, lists, headings)
    }

    /// - Returns: What came back, as it is now.
    /// - Throws: ``IntentError/nothingToRestore``; ``IntentError/notInTrash(_:)`` for what is not
    ///   in the Trash; ``IntentError/inTrashWith(item:container:)`` for an item whose list or
    ///   heading is in the Trash, which brings it back; ``IntentError/unknownItem(_:)``,
    ///   ``IntentError/unknownList(_:)``, ``IntentError/unknownHeading(_:)``.
    public func run(in context: IntentContext) throws -> TrashResult {
        guard !(items.isEmpty && lists.isEmpty && headings.isEmpty) else { throw IntentError.nothingToRestore }
        let lists = try unique(self.lists).map { try context.list($0) }
        let headings = try unique(self.headings).map(context.heading)
        let items = try unique(self.items).map(context.item)
        for list in lists where list.trashedAt == nil { throw IntentError.notInTrash(list.name) }
        for heading in headings where heading.trashedAt == nil { throw IntentError.notInTrash(heading.title) }
        for item in items {
            if let container = try context.trashingContainer(of: item) { throw IntentError.inTrashWith(item: item.title, container: container) }
            guard item.trashedAt != nil else { throw IntentError.notInTrash(item.title) }
        }
        let stamp = context.now()
        if !lists.isEmpty { try context.apply(ListsPutBack(ids: lists.map(\.id)), action: Self.title, at: stamp) }
        if !headings.isEmpty { try context.apply(HeadingsPutBack(ids: headings.map(\.id)), action: Self.title, at: stamp) }
        if !items.isEmpty { try context.apply(ItemsPutBack(ids: items.map(\.id)), action: Self.title, at: stamp) }
        return TrashResult(
            items: try context.summaries(ofItems: items.map(\.id)), lists: try lists.map { try context.summary(of: try context.list($0.id)) },
            headings: try headings.map { try context.summary(of: try context.heading($0.id)) })
    }
}

/// Empties the Trash, or takes some items out of it: deletes them for good, on every device
/// the store syncs with. A list goes with everything it holds, a heading with the items under it.
///
/// Emptying wins over a putting back made meanwhile on another device, for what it had seen.
/// Undo puts them back in the Trash.
public struct EmptyTrash: ArrangeIntent {
    public static let title = "Empty Trash"

    /// The items to delete for good, each in the Trash, itself or with its list or heading;
    /// `nil` for everything in the Trash.
    public var items: [Item.ID]?

    /// Deletes `items` for good, or everything in the Trash for `nil`.
    public init(items: [Item.ID]? = nil) {
        self.items = items
    }

    /// - Returns: How many items, lists and headings were deleted for good.
    /// - Throws: ``IntentError/notInTrash(_:)``, ``IntentError/unknownItem(_:)``.
    public func run(in context: IntentContext) throws -> EmptiedTrashResult {
        let transaction = try context.writing(Self.title)
        if let items {
            let named = try unique(items).map(context.item)
            for item in named where try item.trashedAt == nil && context.trashingContainer(of: item) == nil { throw IntentError.notInTrash(item.title) }
            if !named.isEmpty { try context.apply(ItemsDeleted(ids: named.map(\.id)), action: Self.title) }
            return EmptiedTrashResult(deleted: named.count)
        }
        let lists = try transaction.lists().filter { $0.trashedAt != nil }
        let inTrashedLists = Set(lists.map(\.id))
        let headings = try transaction.headings(.trashed).filter { !inTrashedLists.contains($0.listID) }
        // The items by id first, those under a heading included: one that another device
        // moves meanwhile stays, as a deleted heading's items do.
        var itemIDs = try transaction.items(.trashed).filter { !inTrashedLists.contains($0.listID) }.map(\.id)
        for heading in headings { itemIDs += try transaction.entries(in: .heading(heading.id), visibility: .all, offset: 0, limit: .max).map { Item.ID(entry: $0.id) } }
        let itemsOfLists = try lists.reduce(0) { $0 + (try transaction.itemCount(in: $1.id, visibility: .all)) }
        let headingsOfLists = try lists.reduce(0) { $0 + (try transaction.headings(in: $1.id).count) }
        let ids = unique(itemIDs)
        if !ids.isEmpty { try context.apply(ItemsDeleted(ids: ids), action: Self.title) }
        for heading in headings { try context.apply(HeadingDeleted(id: heading.id), action: Self.title) }
        for list in lists { try context.apply(ListDeleted(id: list.id), action: Self.title) }
        return EmptiedTrashResult(deleted: ids.count + itemsOfLists + headings.count + headingsOfLists + lists.count)
    }
}

/// What the Trash holds, or what came back from it.
public struct TrashResult: Hashable, Sendable, Codable {
    /// The items, each with ``ItemSummary/trashedAt`` (`nil` once back).
    public var items: [ItemSummary]
    /// The lists.
    public var lists: [ListSummary]
    /// The headings.
    public var headings: [HeadingSummary]

    /// Creates the result from its parts.
    public init(items: [ItemSummary], lists: [ListSummary], headings: [HeadingSummary]) {
        (self.items, self.lists, self.headings) = (items, lists, headings)
    }
}

/// What emptying the Trash deleted for good.
public struct EmptiedTrashResult: Hashable, Sendable, Codable {
    /// How many items, lists and headings it deleted.
    public var deleted: Int

    /// Creates the result from its parts.
    public init(deleted: Int) {
        self.deleted = deleted
    }
}

extension IntentContext {
    /// The name of the list, or the title of the heading, in the Trash that `item` is in the
    /// Trash with; `nil` when neither is there.
    func trashingContainer(of item: Item) throws -> String? {
        if let heading = try item.heading.flatMap({ try transaction.heading(id: $0) }), heading.trashedAt != nil { return heading.title }
        let list = try list(item.listID)
        return list.trashedAt != nil ? list.name : nil
    }

    /// Throws when one of `items` is in the Trash, itself or with its list or heading.
    ///
    /// - Throws: ``IntentError/inTrash(_:)``.
    func ensureOutOfTrash(_ items: [Item]) throws {
        for item in items where try item.trashedAt != nil || trashingContainer(of: item) != nil { throw IntentError.inTrash(item.title) }
    }
}

/// `ids` without repeats, in the order of their first appearance.
private func unique<Subject>(_ ids: [Identifier<Subject>]) -> [Identifier<Subject>] {
    var seen = Set<Identifier<Subject>>()
    return ids.filter { seen.insert($0).inserted }
}
