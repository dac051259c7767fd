import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

/// The `list` parameter of the intents that find items by `#N`.
private let contextList = IntentParameter(
    "list", .list, help: "The list whose open items #N counts; the current list when not given.")

/// Adds an item to a list.
public struct AddItem: ArrangeIntent {
    public static let title = "Add Item"
    public static let description = IntentDescription(
        name: "add", title: title, summary: "Add an item to a list, at the bottom unless told otherwise.",
        parameters: [
            IntentParameter("title", .text, required: true, help: "The item's title."),
            IntentParameter("list", .list, help: "The list to add to; the current list when not given."),
            IntentParameter("placement", .placement, help: "Where the item goes: top, bottom (the default), before or after an item, or at an offset."),
            IntentParameter("notes", .text, help: "Notes to keep with the item."),
        ])

    public var title: String
    public var list: ListReference?
    public var placement: PlacementReference
    public var notes: String

    public init(title: String, list: ListReference? = nil, placement: PlacementReference = .bottom, notes: String = "") {
        self.title = title
        self.list = list
        self.placement = placement
        self.notes = notes
    }

    private enum CodingKeys: String, CodingKey {
        case title, list, placement, notes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            title: try container.decode(String.self, forKey: .title),
            list: try container.decodeIfPresent(ListReference.self, forKey: .list),
            placement: try container.decodeIfPresent(PlacementReference.self, forKey: .placement) ?? .bottom,
            notes: try container.decodeIfPresent(String.self, forKey: .notes) ?? "")
    }

    public func perform(in environment: IntentEnvironment) async throws -> PlacementResult {
        try environment.write(Self.title) { transaction, resolve in
            let title = try Title.validated(title)
            let list = try resolve.list(self.list)
            let placement = try resolve.placement(placement, in: list)
            let item = Item(
                id: Item.ID(rawValue: environment.newID()), listID: list.id, title: title, notes: notes,
                sortIndex: 0, createdAt: environment.clock())
            let report = try environment.ordering.add(item, at: placement, visibility: .open, in: transaction)
            return (try resolve.result(of: report), .inserted([item.id]))
        }
    }
}

/// Gives an item a new title.
public struct RenameItem: ArrangeIntent {
    public static let title = "Rename Item"
    public static let description = IntentDescription(
        name: "rename", title: title, summary: "Give an item a new title.",
        parameters: [
            IntentParameter("item", .item, required: true, help: "The item to rename: #N, an id, or at least 4 characters of one."),
            IntentParameter("title", .text, required: true, help: "The item's new title."),
            contextList,
        ])

    public var item: ItemReference
    public var title: String
    public var list: ListReference?

    public init(item: ItemReference, title: String, list: ListReference? = nil) {
        self.item = item
        self.title = title
        self.list = list
    }

    public func perform(in environment: IntentEnvironment) async throws -> ItemResult {
        try environment.write(Self.title) { transaction, resolve in
            var item = try resolve.item(self.item, in: try resolve.list(list))
            let old = item.title
            item.title = try Title.validated(title)
            guard item.title != old else { return (ItemResult(item: try resolve.summary(of: item)), nil) }
            item.updatedAt = environment.clock()
            try transaction.update(item)
            return (ItemResult(item: try resolve.summary(of: item)), .retitled([item.id: old]))
        }
    }
}

/// Marks items done.
public struct CompleteItems: ArrangeIntent {
    public static let title = "Complete Items"
    public static let description = IntentDescription(
        name: "complete", title: title, summary: "Mark items done; they keep their place but `list` hides them.",
        parameters: [
            IntentParameter("items", .items, required: true, help: "The items to complete: #N, ids, or id prefixes."),
            contextList,
        ])

    public var items: [ItemReference]
    public var list: ListReference?

    public init(items: [ItemReference], list: ListReference? = nil) {
        self.items = items
        self.list = list
    }

    public func perform(in environment: IntentEnvironment) async throws -> ItemsResult {
        try setCompletion(items, list: list, completed: true, environment: environment, action: Self.title)
    }
}

/// Marks completed items open again.
public struct ReopenItems: ArrangeIntent {
    public static let title = "Reopen Items"
    public static let description = IntentDescription(
        name: "reopen", title: title, summary: "Mark completed items open again, in the place they had.",
        parameters: [
            IntentParameter("items", .items, required: true, help: "The items to reopen: ids or id prefixes (#N counts open items only)."),
            contextList,
        ])

    public var items: [ItemReference]
    public var list: ListReference?

    public init(items: [ItemReference], list: ListReference? = nil) {
        self.items = items
        self.list = list
    }

    public func perform(in environment: IntentEnvironment) async throws -> ItemsResult {
        try setCompletion(items, list: list, completed: false, environment: environment, action: Self.title)
    }
}

/// Completes or reopens items in one transaction; items already so are left alone.
private func setCompletion(
    _ references: [ItemReference], list: ListReference?, completed: Bool, environment: IntentEnvironment, action: String
) throws -> ItemsResult {
    try environment.write(action) { transaction, resolve in
        let stamp = environment.clock()
        var previous: [Item.ID: Date?] = [:]
        let items = try resolve.distinctItems(references, in: try resolve.list(list)).map { item in
            guard item.isCompleted != completed else { return item }
            var changed = item
            previous[item.id] = item.completedAt
            changed.completedAt = completed ? stamp : nil
            changed.updatedAt = stamp
            try transaction.update(changed)
            return changed
        }
        let result = ItemsResult(items: try items.map { try resolve.summary(of: $0) }, changed: previous.count)
        return (result, previous.isEmpty ? nil : .completion(previous))
    }
}

/// Deletes items.
public struct DeleteItems: ArrangeIntent {
    public static let title = "Delete Items"
    public static let description = IntentDescription(
        name: "delete", title: title, summary: "Delete items (undo puts them back where they were).",
        parameters: [
            IntentParameter("items", .items, required: true, help: "The items to delete: #N, ids, or id prefixes."),
            contextList,
        ])

    public var items: [ItemReference]
    public var list: ListReference?

    public init(items: [ItemReference], list: ListReference? = nil) {
        self.items = items
        self.list = list
    }

    public func perform(in environment: IntentEnvironment) async throws -> ItemsResult {
        try environment.write(Self.title) { transaction, resolve in
            let items = try resolve.distinctItems(self.items, in: try resolve.list(list))
            let placed = try Change.placedItems(items.map(\.id), in: transaction)
            let summaries = try items.map { try resolve.summary(of: $0) }
            for item in items { try transaction.deleteItem(id: item.id) }
            return (ItemsResult(items: summaries, changed: items.count), .deleted(placed))
        }
    }
}

/// Lists the items of a list in display order.
public struct ListItems: ArrangeIntent {
    public static let title = "List Items"
    public static let description = IntentDescription(
        name: "list", title: title, summary: "Show the items of a list in their order, numbered #1, #2, … for use in other commands.",
        parameters: [
            IntentParameter("list", .list, help: "The list to show; the current list when not given."),
            IntentParameter("includeCompleted", .flag, help: "Show completed items too (they get no #N)."),
        ])

    public var list: ListReference?
    public var includeCompleted: Bool

    public init(list: ListReference? = nil, includeCompleted: Bool = false) {
        self.list = list
        self.includeCompleted = includeCompleted
    }

    private enum CodingKeys: String, CodingKey {
        case list, includeCompleted
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            list: try container.decodeIfPresent(ListReference.self, forKey: .list),
            includeCompleted: try container.decodeIfPresent(Bool.self, forKey: .includeCompleted) ?? false)
    }

    public func perform(in environment: IntentEnvironment) async throws -> ItemListing {
        try environment.read { resolve in
            let list = try resolve.list(self.list)
            let items = try resolve.transaction.items(in: list.id, visibility: includeCompleted ? .all : .open, offset: 0, limit: .max)
            var position = 0
            let summaries = try items.map { item in
                if !item.isCompleted { position += 1 }
                return try resolve.summary(of: item, position: item.isCompleted ? nil : position)
            }
            return ItemListing(list: try resolve.summary(of: list), items: summaries)
        }
    }
}

/// Shows one item.
public struct ShowItem: ArrangeIntent {
    public static let title = "Show Item"
    public static let description = IntentDescription(
        name: "show", title: title, summary: "Show one item with all its fields.",
        parameters: [
            IntentParameter("item", .item, required: true, help: "The item to show: #N, an id, or at least 4 characters of one."),
            contextList,
        ])

    public var item: ItemReference
    public var list: ListReference?

    public init(item: ItemReference, list: ListReference? = nil) {
        self.item = item
        self.list = list
    }

    public func perform(in environment: IntentEnvironment) async throws -> ItemResult {
        try environment.read { resolve in
            let context = try resolve.list(list)
            let item = try resolve.item(self.item, in: context)
            // Only a #N reference says where the item stands without counting the list.
            let position: Int? = if case .position(let position) = try self.item.form { position } else { nil }
            return ItemResult(item: try resolve.summary(of: item, position: position))
        }
    }
}
