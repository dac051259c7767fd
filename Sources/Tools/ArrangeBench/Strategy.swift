import ArgumentParser
import ArrangeBenchSupport
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

/// A way of keeping a list in its user's order: Arrange's ordering service, or one of the
/// approaches people used before it.
enum StrategyKind: String, CaseIterable, ExpressibleByArgument, Sendable {
    case arrange
    /// Arrange on the order of the lists: the same operations move and add lists.
    case arrangeLists = "arrange-lists"
    /// Arrange on Today: the same operations move items in Today and add new items to it.
    case arrangeToday = "arrange-today"
    /// Arrange on a checklist: the same operations move and add the entries of one item's checklist.
    case arrangeChecklist = "arrange-checklist"
    /// Arrange on the areas: the same operations move and add areas.
    case arrangeAreas = "arrange-areas"
    /// Arrange on the lists of one area: the same operations move and add lists there.
    case arrangeAreaLists = "arrange-area-lists"
    /// Arrange on the headings of a list: the same operations move and add headings.
    case arrangeHeadings = "arrange-headings"
    /// Arrange on the items under one heading: the same operations move and add items there.
    case arrangeHeadingItems = "arrange-heading-items"
    case dense
    case midpoint
    case randomDouble = "random-double"
    case randomInteger = "random-integer"
    case linkedList = "linked-list"

    /// The name in the tables.
    /// The title without Markdown, for a picture's legend.
    var plainTitle: String {
        title.replacingOccurrences(of: "**", with: "")
    }

    var title: String {
        switch self {
        case .arrange: "**Arrange**"
        case .arrangeLists: "**Arrange**, the lists"
        case .arrangeToday: "**Arrange**, Today"
        case .arrangeChecklist: "**Arrange**, a checklist"
        case .arrangeAreas: "**Arrange**, the areas"
        case .arrangeAreaLists: "**Arrange**, an area's lists"
        case .arrangeHeadings: "**Arrange**, a list's headings"
        case .arrangeHeadingItems: "**Arrange**, a heading's items"
        case .dense: "dense 0..n-1, renumbered"
        case .midpoint: "Double midpoint"
        case .randomDouble: "Double, random in middle third"
        case .randomInteger: "random integer in [-99,999, 0]"
        case .linkedList: "doubly linked list"
        }
    }

    /// How the approach places keys, for the help text.
    var summary: String {
        switch self {
        case .arrange: "OrderingService: gapped Int64 keys, a window re-spread when a gap is full"
        case .arrangeLists: "the same service on the order of the lists: each list one row"
        case .arrangeToday: "the same service on Today, over items whose list order is the reverse: each item's Today key"
        case .arrangeChecklist: "the same service on one item's checklist: each entry one row"
        case .arrangeAreas: "the same service on the order of the areas: each area one row"
        case .arrangeAreaLists: "the same service on the lists of one area, beside lists in no area: each list one row"
        case .arrangeHeadings: "the same service on the headings of one list: each heading one row"
        case .arrangeHeadingItems: "the same service on the items under one heading, beside an item under none: each item one row"
        case .dense: "keys 0..n-1, every row whose offset changes is renumbered"
        case .midpoint: "Double keys, the midpoint of the neighbours; append at last+25, top at half the first"
        case .randomDouble: "Double keys, a random point in the middle third of the gap; append at max + random(1, 2)"
        case .randomInteger: "a random integer between the neighbours, keys in [-99,999, 0], the bottom item pinned at 0"
        case .linkedList: "prev/next ids in every row; finding an offset walks the list from its nearer end"
        }
    }

    /// Whether this is Arrange itself, on one of its orderings.
    var isArrange: Bool { scope != nil }

    /// The ordering Arrange works on, or `nil` for a baseline.
    var scope: ArrangeStrategy.Ordering? {
        switch self {
        case .arrange: .listItems
        case .arrangeLists: .lists
        case .arrangeToday: .today
        case .arrangeChecklist: .checklist
        case .arrangeAreas: .areas
        case .arrangeAreaLists: .areaLists
        case .arrangeHeadings: .headings
        case .arrangeHeadingItems: .headingItems
        case .dense, .midpoint, .randomDouble, .randomInteger, .linkedList: nil
        }
    }

    /// Creates the strategy over a fresh list of `ids.count` items in `repository`.
    func make(
        repository: any ItemRepository, list: ItemList.ID, ids: [Item.ID], jitter: Bool, seed: UInt64, denseRowBudget: Int
    ) throws -> any OrderingStrategy {
        switch self {
        case .arrange, .arrangeLists, .arrangeToday, .arrangeChecklist, .arrangeAreas, .arrangeAreaLists, .arrangeHeadings, .arrangeHeadingItems:
            try ArrangeStrategy(scope ?? .listItems, repository: repository, list: list, ids: ids, jitter: jitter, seed: seed)
        case .dense: try DenseStrategy(repository: repository, list: list, ids: ids, rowBudget: denseRowBudget)
        case .midpoint: try KeyedStrategy(MidpointKeys(), repository: repository, list: list, ids: ids)
        case .randomDouble: try KeyedStrategy(RandomDoubleKeys(seed: seed), repository: repository, list: list, ids: ids)
        case .randomInteger: try KeyedStrategy(RandomIntegerKeys(seed: seed), repository: repository, list: list, ids: ids)
        case .linkedList: try LinkedListStrategy(repository: repository, list: list, ids: ids)
        }
    }
}

/// What a strategy is told about one operation.
struct OperationContext {
    let operation: Operation
    let geometry: ChangeGeometry
    /// The order before the operation, as indices into ``ids``.
    let order: [Int32]
    /// Every item id made so far; for an insert, the new item's is the last.
    let ids: [Item.ID]

    /// The id of the item at `offset` before the operation.
    func id(at offset: Int) -> Item.ID { ids[Int(order[offset])] }

    /// The id of the item `slot` names.
    func id(of slot: ChangeGeometry.Slot) -> Item.ID {
        switch slot {
        case .existing(let offset): id(at: offset)
        case .new: ids[ids.count - 1]
        }
    }
}

/// The rows one operation touched.
struct Outcome {
    var rowsWritten: Int
    /// Rows read only to find where an offset is (the linked list's walk).
    var rowsRead = 0
}

/// Why a strategy stopped.
enum StrategyFailure: Error, CustomStringConvertible {
    /// Two neighbours can no longer be told apart: no key is left between them.
    case noRoom
    /// The approach cannot even lay out the list.
    case cannotLayOut(count: Int)

    var description: String {
        switch self {
        case .noRoom: "no key left between two neighbours"
        case .cannotLayOut(let count): "cannot give \(count) items distinct keys"
        }
    }
}

/// One way of keeping a list in order, run over an ``ItemRepository``.
protocol OrderingStrategy: AnyObject {
    /// Performs one operation, in one write transaction, and tells what it wrote.
    ///
    /// - Throws: ``StrategyFailure/noRoom`` before writing anything when the approach fails here.
    func perform(_ context: OperationContext) throws -> Outcome

    /// The list's order as stored, or `nil` when the store no longer follows the operations.
    func storedOrder() throws -> StoredOrder?

    /// Whether the strategy stopped writing at some point and only counted the rows it would write.
    var onlyCounted: Bool { get }
}

extension OrderingStrategy {
    var onlyCounted: Bool { false }
}

/// A list's order read back from the store.
struct StoredOrder {
    var ids: [Item.ID]
    /// A problem with the keys themselves (two that do not rise), if any.
    var keyProblem: String?
}

/// Reads every item of a list in display order, and checks that the keys rise strictly.
func storedOrderByKey(of list: ItemList.ID, in repository: any ItemRepository) throws -> StoredOrder {
    let items = try repository.read { try $0.items(in: list, visibility: .all, offset: 0, limit: .max) }
    return StoredOrder(ids: items.map(\.id), keyProblem: keyProblem(items.map(\.sortIndex)))
}

/// Where keys in display order fail to rise strictly, if anywhere.
func keyProblem(_ keys: [Int64]) -> String? {
    zip(keys, keys.dropFirst()).enumerated().first { $0.element.0 >= $0.element.1 }
        .map { "keys do not rise at offset \($0.offset + 1): \($0.element.0), \($0.element.1)" }
}

/// Arrange itself: every operation goes through ``OrderingService``, on one of its orderings.
///
/// The workload's ids stand for the entries of that ordering: items of the list, lists (one
/// per id, in place of the list the runner made), items in Today (items of the list, in the
/// reverse order there, so that Today's order owes nothing to theirs), the entries of the
/// checklist of one item of the list, areas, the lists of one area (beside the list the
/// runner made, in no area), the headings of the list, or the items under one of its headings
/// (beside an item under none).
final class ArrangeStrategy: OrderingStrategy {
    /// The ordering the workload's operations run on.
    enum Ordering {
        case listItems
        case lists
        case today
        case checklist
        case areas
        case areaLists
        case headings
        case headingItems
    }

    /// The item whose checklist the ``Ordering/checklist`` ordering works on.
    static let checklistHolder = Item.ID(rawValue: UUID(uuid: (0xC4, 0xEC, 0x4C, 0x15, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0)))
    /// The area whose lists the ``Ordering/areaLists`` ordering works on.
    static let listsHolder = Area.ID(rawValue: UUID(uuid: (0xA4, 0xEA, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0)))
    /// The heading whose items the ``Ordering/headingItems`` ordering works on.
    static let itemsHolder = Heading.ID(rawValue: UUID(uuid: (0x4E, 0xAD, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0)))
    /// The item under no heading beside the ``Ordering/headingItems`` ordering.
    static let looseItem = Item.ID(rawValue: UUID(uuid: (0x10, 0x05, 0xE0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0)))

    let ordering: Ordering
    let service: OrderingService
    let list: ItemList.ID

    init(_ ordering: Ordering, repository: any ItemRepository, list: ItemList.ID, ids: [Item.ID], jitter: Bool, seed: UInt64) throws {
        self.ordering = ordering
        self.list = list
        self.service = try OrderingService(
            repository: repository, configuration: OrderingConfiguration(jitter: jitter),
            random: SeededRandomNumberGenerator(seed: seed), now: { BulkLoad.epoch })
        switch ordering {
        case .listItems:
            try BulkLoad.fill(list, ids: ids, keys: BulkLoad.appendedKey, in: repository)
        case .lists:
            // The lists are the workload's ids alone: the list the runner made goes.
            try repository.write { transaction in
                try transaction.deleteList(id: list)
                for (index, id) in ids.enumerated() {
                    try transaction.insert(Self.list(id, number: index, sortIndex: BulkLoad.appendedKey(index + 1)))
                }
            }
        case .today:
            try BulkLoad.fill(list, ids: ids.reversed(), keys: BulkLoad.appendedKey, in: repository)
            try repository.write { transaction in
                try transaction.setSortIndices(
                    ids.enumerated().map { SortIndexChange(id: $1.entryID, sortIndex: BulkLoad.appendedKey($0)) }, in: .today, updatedAt: BulkLoad.epoch)
            }
        case .checklist:
            try repository.write { transaction in
                try transaction.insert(BulkLoad.item(Self.checklistHolder, number: 0, in: list, sortIndex: 0))
                for (index, id) in ids.enumerated() {
                    try transaction.insert(Self.entry(id, number: index, sortIndex: BulkLoad.appendedKey(index)))
                }
            }
        case .areas:
            try repository.write { transaction in
                for (index, id) in ids.enumerated() {
                    try transaction.insert(Self.area(id, number: index, sortIndex: BulkLoad.appendedKey(index)))
                }
            }
        case .areaLists:
            try repository.write { transaction in
                try transaction.insert(Area(id: Self.listsHolder, name: "Area", createdAt: BulkLoad.epoch))
                for (index, id) in ids.enumerated() {
                    try transaction.insert(Self.list(id, number: index, sortIndex: BulkLoad.appendedKey(index), area: Self.listsHolder))
                }
            }
        case .headings:
            try repository.write { transaction in
                for (index, id) in ids.enumerated() {
                    try transaction.insert(Self.heading(Heading.ID(entry: id.entryID), number: index, in: list, sortIndex: BulkLoad.appendedKey(index)))
                }
            }
        case .headingItems:
            try repository.write { transaction in
                try transaction.insert(Self.heading(Self.itemsHolder, number: 0, in: list, sortIndex: 0))
                try transaction.insert(BulkLoad.item(Self.looseItem, number: 0, in: list, sortIndex: 0))
                for (index, id) in ids.enumerated() {
                    var item = BulkLoad.item(id, number: index, in: list, sortIndex: BulkLoad.appendedKey(index))
                    item.heading = Self.itemsHolder
                    try transaction.insert(item)
                }
            }
        }
    }

    /// A heading of `list` standing for the workload's `number`-th id.
    private static func heading(_ id: Heading.ID, number: Int, in list: ItemList.ID, sortIndex: Int64 = 0) -> Heading {
        Heading(id: id, listID: list, title: "Heading \(number)", createdAt: BulkLoad.epoch, sortIndex: sortIndex)
    }

    /// An area standing for the workload's `number`-th id.
    private static func area(_ id: Item.ID, number: Int, sortIndex: Int64 = 0) -> Area {
        Area(id: Area.ID(entry: id.entryID), name: "Area \(number)", createdAt: BulkLoad.epoch, sortIndex: sortIndex)
    }

    /// A checklist entry standing for the workload's `number`-th id.
    private static func entry(_ id: Item.ID, number: Int, sortIndex: Int64 = 0) -> ChecklistItem {
        ChecklistItem(id: ChecklistItem.ID(entry: id.entryID), itemID: checklistHolder, title: "Entry \(number)", sortIndex: sortIndex)
    }

    /// A list standing for the workload's `number`-th id.
    private static func list(_ id: Item.ID, number: Int, sortIndex: Int64 = 0, area: Area.ID? = nil) -> ItemList {
        ItemList(id: ItemList.ID(entry: id.entryID), name: "List \(number)", createdAt: BulkLoad.epoch, sortIndex: sortIndex, area: area)
    }

    /// The ordering's scope.
    private var scope: OrderScope {
        switch ordering {
        case .listItems: .items(list)
        case .lists: .lists
        case .today: .today
        case .checklist: .checklist(Self.checklistHolder)
        case .areas: .areas
        case .areaLists: .area(Self.listsHolder)
        case .headings: .headings(list)
        case .headingItems: .heading(Self.itemsHolder)
        }
    }

    func perform(_ context: OperationContext) throws -> Outcome {
        let report = switch context.operation {
        case .insert(let offset):
            try insert(context.ids[context.ids.count - 1], number: context.ids.count - 1, at: offset)
        case .move(let sources, let destination):
            try service.move(fromOffsets: IndexSet(sources), toOffset: destination, in: scope)
        }
        return Outcome(rowsWritten: report.rowsWritten)
    }

    /// Adds a new entry at an offset: an item, a list, or an item that joins Today as it is
    /// added to the bottom of its list (one row: its list key and its Today key).
    private func insert(_ id: Item.ID, number: Int, at offset: Int) throws -> OrderingReport {
        let item = BulkLoad.item(id, number: number, in: list, sortIndex: 0)
        switch ordering {
        case .listItems:
            return try service.add(item, at: .offset(offset))
        case .lists:
            return try service.repository.write { try service.add(Self.list(id, number: number), at: .offset(offset), in: $0) }
        case .today:
            return try service.repository.write { transaction in
                let added = try service.add(item, at: .bottom, visibility: .all, in: transaction)
                var placed = try service.place([id.entryID], at: .offset(offset), in: .today, visibility: .all, in: transaction)
                placed.rowsWritten += added.rowsRespread
                return placed
            }
        case .checklist:
            return try service.repository.write { try service.add(Self.entry(id, number: number), at: .offset(offset), in: $0) }
        case .areas:
            return try service.repository.write { try service.add(Self.area(id, number: number), at: .offset(offset), in: $0) }
        case .areaLists:
            return try service.repository.write { try service.add(Self.list(id, number: number, area: Self.listsHolder), at: .offset(offset), in: $0) }
        case .headings:
            return try service.repository.write { try service.add(Self.heading(Heading.ID(entry: id.entryID), number: number, in: list), at: .offset(offset), in: $0) }
        case .headingItems:
            var underHeading = item
            underHeading.heading = Self.itemsHolder
            return try service.add(underHeading, at: .offset(offset))
        }
    }

    func storedOrder() throws -> StoredOrder? {
        switch ordering {
        case .listItems:
            return try storedOrderByKey(of: list, in: service.repository)
        case .lists:
            let lists = try service.repository.read { try $0.lists() }
            return StoredOrder(ids: lists.map { Item.ID(entry: $0.id.entryID) }, keyProblem: keyProblem(lists.map(\.sortIndex)))
        case .today:
            let items = try service.repository.read { try $0.todayItems(visibility: .all, offset: 0, limit: .max) }
            return StoredOrder(ids: items.map(\.id), keyProblem: keyProblem(items.compactMap(\.todayIndex)))
        case .checklist:
            let entries = try service.repository.read { try $0.checklist(of: Self.checklistHolder) }
            return StoredOrder(ids: entries.map { Item.ID(entry: $0.id.entryID) }, keyProblem: keyProblem(entries.map(\.sortIndex)))
        case .areas:
            let areas = try service.repository.read { try $0.areas() }
            return StoredOrder(ids: areas.map { Item.ID(entry: $0.id.entryID) }, keyProblem: keyProblem(areas.map(\.sortIndex)))
        case .areaLists:
            let lists = try service.repository.read { try $0.lists() }.filter { $0.area == Self.listsHolder }
            return StoredOrder(ids: lists.map { Item.ID(entry: $0.id.entryID) }, keyProblem: keyProblem(lists.map(\.sortIndex)))
        case .headings:
            let headings = try service.repository.read { try $0.headings(in: list) }
            return StoredOrder(ids: headings.map { Item.ID(entry: $0.id.entryID) }, keyProblem: keyProblem(headings.map(\.sortIndex)))
        case .headingItems:
            let items = try service.repository.read { try $0.items(in: list, visibility: .all, offset: 0, limit: .max) }.filter { $0.heading == Self.itemsHolder }
            return StoredOrder(ids: items.map(\.id), keyProblem: keyProblem(items.map(\.sortIndex)))
        }
    }
}
