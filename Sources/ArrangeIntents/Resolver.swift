import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// Turns references into lists and items inside one transaction, and describes them.
///
/// A resolver belongs to one transaction: it caches the lists it reads, which stay valid only
/// while that transaction lasts.
final class Resolver {
    let transaction: any ItemReading
    private let environment: IntentEnvironment
    private var listsByID: [ItemList.ID: ItemList]?
    /// The most matches of an ambiguous id prefix that an error counts.
    static let prefixMatchesCounted = 1_000

    init(_ transaction: any ItemReading, environment: IntentEnvironment) {
        self.transaction = transaction
        self.environment = environment
    }

    // MARK: Lists

    /// The list `reference` names, or the session's current list when it is `nil`.
    ///
    /// - Throws: ``IntentError/unknownList(_:known:)``.
    func list(_ reference: ListReference?) throws -> ItemList {
        guard let reference else { return try currentList() }
        let lists = try allLists()
        let text = reference.text.trimmingWhitespace()
        if let id = ItemList.ID(text), let list = lists[id] {
            return list
        }
        let key = ItemList.nameKey(text)
        if let list = lists.values.first(where: { ItemList.nameKey($0.name) == key }) {
            return list
        }
        throw IntentError.unknownList(reference.text, known: try transaction.lists().map(\.name))
    }

    /// The session's current list: the one chosen with ``IntentEnvironment/useList(_:)``
    /// while it exists, else the default list.
    func currentList() throws -> ItemList {
        if let id = environment.currentList, let list = try allLists()[id] {
            return list
        }
        return try list(ListReference(environment.defaultListName))
    }

    func listName(_ id: ItemList.ID) throws -> String {
        try allLists()[id]?.name ?? id.text
    }

    private func allLists() throws -> [ItemList.ID: ItemList] {
        if let listsByID { return listsByID }
        let lists = Dictionary(uniqueKeysWithValues: try transaction.lists().map { ($0.id, $0) })
        listsByID = lists
        return lists
    }

    // MARK: Items

    /// The item `reference` names; `#N` counts the open items of `list`.
    ///
    /// - Throws: ``IntentError`` for a reference that is malformed, unknown, ambiguous or out of range.
    func item(_ reference: ItemReference, in list: ItemList) throws -> Item {
        switch try reference.form {
        case .id(let id):
            guard let item = try transaction.item(id: id) else { throw IntentError.unknownItem(reference.text) }
            return item
        case .position(let position):
            guard position >= 1,
                  let item = try transaction.items(in: list.id, visibility: .open, offset: position - 1, limit: 1).first
            else {
                let count = try transaction.itemCount(in: list.id, visibility: .open)
                throw IntentError.positionOutOfRange(position: position, count: count, list: list.name)
            }
            return item
        case .prefix(let prefix):
            let matches = try transaction.items(withIDPrefix: prefix, limit: Self.prefixMatchesCounted)
            guard let match = matches.first else { throw IntentError.unknownItem(reference.text) }
            guard matches.count == 1 else { throw IntentError.ambiguousPrefix(reference.text, matches: matches.count) }
            return match
        }
    }

    /// The items `references` name, in the order given, with repeats.
    ///
    /// - Throws: ``IntentError/noItemsNamed`` for an empty list of references.
    func items(_ references: [ItemReference], in list: ItemList) throws -> [Item] {
        guard !references.isEmpty else { throw IntentError.noItemsNamed }
        return try references.map { try item($0, in: list) }
    }

    /// The items `references` name, each once, in the order first named.
    func distinctItems(_ references: [ItemReference], in list: ItemList) throws -> [Item] {
        var seen = Set<Item.ID>()
        return try items(references, in: list).filter { seen.insert($0.id).inserted }
    }

    /// A placement with its anchor resolved; `#N` anchors count the open items of `list`.
    func placement(_ reference: PlacementReference, in list: ItemList) throws -> Placement {
        switch reference {
        case .top: return .top
        case .bottom: return .bottom
        case .before(let anchor): return .before(try item(anchor, in: list).id)
        case .after(let anchor): return .after(try item(anchor, in: list).id)
        case .offset(let offset):
            guard offset >= 0 else { throw IntentError.negativeOffset(offset) }
            return .offset(offset)
        }
    }

    // MARK: Describing

    func summary(of item: Item, position: Int? = nil) throws -> ItemSummary {
        ItemSummary(item, listName: try listName(item.listID), position: position)
    }

    func summary(of list: ItemList) throws -> ListSummary {
        ListSummary(
            list,
            openItems: try transaction.itemCount(in: list.id, visibility: .open),
            totalItems: try transaction.itemCount(in: list.id, visibility: .all))
    }

    func result(of report: OrderingReport) throws -> PlacementResult {
        PlacementResult(
            items: try report.placed.map { try summary(of: $0) },
            rowsWritten: report.rowsWritten,
            rowsRespread: report.rowsRespread)
    }
}
