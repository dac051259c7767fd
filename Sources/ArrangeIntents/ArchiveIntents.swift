public import ArrangeArchive
public import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

/// Every list with its items, or one list, as an ``Archive``: what an app's "Export…" writes.
public struct ExportArchive: ArrangeIntent {
    public static let title = "Export"

    /// The list to export; `nil` for every list, with the default list and Today.
    public var list: ItemList.ID?

    /// Exports `list`, or everything for `nil`.
    public init(list: ItemList.ID? = nil) {
        self.list = list
    }

    public var isReadOnly: Bool { true }

    /// - Complexity: O(n) for n items: one read of each list.
    public func run(in context: IntentContext) throws -> Archive {
        let transaction = context.transaction
        let lists = try list.map { [try context.list($0)] } ?? transaction.lists()
        let archived = try lists.map { list in
            ArchivedList(list, items: try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max).map(ArchivedItem.init))
        }
        return Archive(defaultList: list == nil ? try transaction.defaultListID() : nil, lists: archived)
    }
}

/// Brings an ``Archive`` into the store, merging by id: what an app's "Import…" does.
///
/// - Into an empty store (no items, and no list but an empty default list), it reproduces the
///   archive exactly: lists, items, ids, keys, Today and the default list.
/// - Into a store with data, a list or item whose id the store knows is updated from the
///   archive; a list whose name the store has already takes the archive list's items; anything
///   else is added. Keys come from the archive, and where they tie with the store's, the ties
///   are resolved as ``OrderingService/checkUniqueness(_:in:)`` does.
///
/// Nothing is imported unless everything is. An import is not a step of the undo history.
public struct ImportArchive: ArrangeIntent {
    public static let title = "Import"

    /// The archive, read and checked (``Archive/init(jsonData:)``).
    public var archive: Archive

    /// Imports `archive`.
    public init(_ archive: Archive) {
        self.archive = archive
    }

    public func run(in context: IntentContext) throws -> ImportResult {
        let transaction = try context.writing(Self.title)
        var result = ImportResult()
        if let defaultList = archive.defaultList, try Self.isEmpty(transaction) {
            for list in try transaction.lists() { try transaction.deleteList(id: list.id) }
            try insert(into: transaction, result: &result)
            try transaction.setDefaultListID(defaultList)
            return result
        }
        try merge(into: transaction, context: context, result: &result)
        return result
    }

    /// Whether the store holds nothing but, at most, an empty default list.
    private static func isEmpty(_ transaction: any ItemReading) throws -> Bool {
        let lists = try transaction.lists()
        guard lists.count <= 1 else { return false }
        return try lists.allSatisfy { try $0.id == transaction.defaultListID() && transaction.itemCount(in: $0.id, visibility: .all) == 0 }
    }

    /// Adds everything as it is, keys included, into a store that has nothing.
    private func insert(into transaction: any ItemWriting, result: inout ImportResult) throws {
        for archived in archive.lists {
            try transaction.insert(archived.list)
            result.listsAdded += 1
            for item in archived.items {
                try transaction.insert(item.item(in: archived.id))
                result.itemsAdded += 1
            }
        }
    }

    /// Merges by id, then by list name, and resolves the ties the archive's keys make.
    private func merge(into transaction: any ItemWriting, context: IntentContext, result: inout ImportResult) throws {
        let listsByName = Dictionary(try transaction.lists().map { (ItemList.nameKey($0.name), $0) }, uniquingKeysWith: { first, _ in first })
        for archived in archive.lists {
            let target: ItemList.ID
            if var existing = try transaction.list(id: archived.id) {
                if existing.name != archived.name, listsByName[ItemList.nameKey(archived.name)].map({ $0.id == existing.id }) ?? true {
                    existing.name = archived.name
                    try transaction.update(existing)
                }
                target = existing.id
                result.listsMerged += 1
            } else if let named = listsByName[ItemList.nameKey(archived.name)] {
                target = named.id
                result.listsMerged += 1
            } else {
                try transaction.insert(archived.list)
                target = archived.id
                result.listsAdded += 1
            }
            for archivedItem in archived.items {
                let item = archivedItem.item(in: target)
                if try transaction.item(id: item.id) != nil {
                    try transaction.update(item)
                    result.itemsUpdated += 1
                } else {
                    try transaction.insert(item)
                    result.itemsAdded += 1
                }
            }
            result.keysRepaired += try context.ordering.checkUniqueness(.items(target), in: transaction).rowsWritten
        }
        result.keysRepaired += try context.ordering.checkUniqueness(.lists, in: transaction).rowsWritten
        result.keysRepaired += try context.ordering.checkUniqueness(.today, in: transaction).rowsWritten
        if try transaction.defaultListID() == nil, let defaultList = archive.defaultList, try transaction.list(id: defaultList) != nil {
            try transaction.setDefaultListID(defaultList)
        }
    }
}

/// What ``ImportArchive`` did.
public struct ImportResult: Hashable, Sendable, Codable {
    /// Lists the store did not have.
    public var listsAdded = 0
    /// Lists of the archive that went into a list the store had, by id or by name.
    public var listsMerged = 0
    /// Items the store did not have.
    public var itemsAdded = 0
    /// Items the store had, updated from the archive.
    public var itemsUpdated = 0
    /// Rows given new keys because the archive's keys tied with the store's.
    public var keysRepaired = 0

    public init() {}
}
