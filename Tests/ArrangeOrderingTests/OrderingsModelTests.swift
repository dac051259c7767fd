import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation
import PropertyBased
import Testing

/// Random sessions over every ordering at once (the items of three lists, under no heading and
/// under each heading, the lists' headings, the lists in no area and those of each area, the
/// areas, Today, the items' checklists), applied both to plain
/// arrays and to the service. After every step each order must
/// equal the model's, keys must rise strictly in every ordering, and an operation on one
/// ordering must have written no key of another.
@Suite("Model-based orderings: lists, their items, headings, Today, checklists and areas together")
struct OrderingsModelTests {
    @Test("Random sessions keep every order, strictly rising keys per ordering, and each ordering's keys to itself", arguments: Backend.allCases, ModelBasedTests.configurations)
    func randomSessions(backend: Backend, named: NamedConfiguration) async throws {
        await propertyCheck(count: 40, input: Gen.int(in: 0...Int(UInt32.max)).array(of: 4...200)) { words in
            var run = try OrderingsRun(repository: try backend.makeRepository(), configuration: named.configuration)
            for operation in stride(from: 0, to: words.count - 3, by: 4) {
                let before = try run.keys()
                let touched = try run.apply(Array(words[operation..<operation + 4]))
                try run.expectAgreement()
                try run.expectOnly(touched, changedFrom: before)
            }
        }
    }
}

/// Which ordering an operation works on.
enum Touched: Equatable {
    case listItems
    /// The lists of any group: in no area, or in an area.
    case lists
    case areas
    /// The headings of any list.
    case headings
    case today
    /// The checklist of one item.
    case checklist(Item.ID)
    /// An operation that changes no key: completion.
    case none
}

/// Every key of every ordering, by id.
struct AllKeys: Equatable {
    var lists: [ItemList.ID: Int64] = [:]
    var areaOf: [ItemList.ID: Area.ID] = [:]
    var areas: [Area.ID: Int64] = [:]
    var headings: [Heading.ID: Int64] = [:]
    var headingListOf: [Heading.ID: ItemList.ID] = [:]
    var listItems: [Item.ID: OrderKey] = [:]
    /// The ordering each item is in: its list's items under no heading, or its heading's.
    var sectionOf: [Item.ID: OrderScope] = [:]
    /// The keys of the items in Today only.
    var today: [Item.ID: Int64] = [:]
    /// The keys of every checklist entry, by the item whose checklist holds it.
    var checklists: [Item.ID: [ChecklistItem.ID: Int64]] = [:]
}

/// One session: the service on a repository, and the same orders as arrays.
struct OrderingsRun {
    let repository: any ItemRepository
    let service: OrderingService
    /// The lists in no area.
    var lists: [ItemList.ID] = []
    var areas: [Area.ID] = []
    /// The lists of each area.
    var areaLists: [Area.ID: [ItemList.ID]] = [:]
    /// The items of each list under no heading.
    var items: [ItemList.ID: [Item.ID]] = [:]
    /// The headings of each list.
    var headings: [ItemList.ID: [Heading.ID]] = [:]
    /// The items under each heading.
    var headingItems: [Heading.ID: [Item.ID]] = [:]
    var today: [Item.ID] = []
    var completed: Set<Item.ID> = []
    var checklists: [Item.ID: [ChecklistItem.ID]] = [:]
    var log: [String] = []

    init(repository: any ItemRepository, configuration: OrderingConfiguration) throws {
        self.repository = repository
        service = try OrderingService(repository: repository, configuration: configuration, random: SeededRandomNumberGenerator(seed: 5))
        for name in ["One", "Two", "Three"] {
            let list = ItemList(name: name, createdAt: Date(timeIntervalSince1970: 0))
            _ = try repository.write { [service] in try service.add(list, at: .bottom, in: $0) }
            lists.append(list.id)
            items[list.id] = []
        }
        for name in ["Work", "Home"] {
            let area = Area(name: name, createdAt: Date(timeIntervalSince1970: 0))
            _ = try repository.write { [service] in try service.add(area, at: .bottom, in: $0) }
            areas.append(area.id)
            areaLists[area.id] = []
        }
    }

    /// Every list, in the sidebar's order.
    var allLists: [ItemList.ID] { lists + areas.flatMap { areaLists[$0] ?? [] } }

    /// The items of a list as it shows them: those under no heading, then each heading's.
    func shown(_ list: ItemList.ID) -> [Item.ID] {
        (items[list] ?? []) + (headings[list] ?? []).flatMap { headingItems[$0] ?? [] }
    }

    var allItems: [Item.ID] { allLists.flatMap(shown) }

    var allHeadings: [Heading.ID] { allLists.flatMap { headings[$0] ?? [] } }

    /// The items of a section of a list, and where they are kept.
    func section(_ scope: OrderScope) -> [Item.ID] {
        switch scope {
        case .items(let list): items[list] ?? []
        case .heading(let heading): headingItems[heading] ?? []
        default: []
        }
    }

    /// Takes items out of every section.
    mutating func removeFromSections(_ ids: Set<Item.ID>) {
        for list in allLists { items[list]?.removeAll(where: ids.contains) }
        for heading in allHeadings { headingItems[heading]?.removeAll(where: ids.contains) }
    }

    mutating func setSection(_ scope: OrderScope, to order: [Item.ID]) {
        switch scope {
        case .items(let list): items[list] = order
        case .heading(let heading): headingItems[heading] = order
        default: break
        }
    }

    /// Decodes one operation from four random words and applies it to both sides.
    ///
    /// - Returns: The ordering whose keys the operation may write.
    mutating func apply(_ words: [Int]) throws -> Touched {
        let list = allLists[words[1] % allLists.count]
        switch words[0] % 22 {
        case 0, 1:
            let order = items[list] ?? []
            let placement = Self.placement(from: words[2], staying: order)
            log.append("add \(placement)")
            let item = Item(listID: list, title: "t", sortIndex: 0, createdAt: Date(timeIntervalSince1970: 0))
            try service.add(item, at: placement)
            items[list] = Self.inserting([item.id], at: placement, into: order)
            return .listItems
        case 2:
            let source = items[list] ?? []
            guard !source.isEmpty else { return .none }
            let picked = Set((0..<(1 + words[2] % 3)).map { source[(words[2] >> (4 + $0 * 8)) % source.count] })
            let moving = source.filter(picked.contains)
            let target = allLists[(words[3] >> 1) % allLists.count]
            let staying = (items[target] ?? []).filter { !picked.contains($0) }
            // An anchor under no heading: an item under a heading would take them under it.
            let placement = Self.placement(from: words[3] >> 3, staying: staying)
            log.append("move \(moving.count) items to \(placement)")
            try service.move(moving, to: placement, into: target)
            removeFromSections(picked)
            items[target] = Self.inserting(moving, at: placement, into: staying)
            return .listItems
        case 3:
            guard let list = lists.randomElement(seed: words[1]) else { return .none }
            let staying = lists.filter { $0 != list }
            let placement = Self.placement(from: words[2], staying: staying)
            log.append("move a list to \(placement)")
            _ = try repository.write { [service] in try service.place([list.entryID], at: placement.map(\.entryID), in: .lists, visibility: .all, in: $0) }
            lists = Self.inserting([list], at: placement, into: staying)
            return .lists
        case 4:
            guard !lists.isEmpty else { return .none }
            lists = try dragged(lists, in: .lists, named: "lists", bits: words[2], destination: words[3])
            return .lists
        case 5, 6:
            let candidates = allItems
            guard !candidates.isEmpty else { return .none }
            var picked: [Item.ID] = []
            for index in 0..<(1 + words[1] % 3) {
                let id = candidates[(words[2] >> (index * 8)) % candidates.count]
                if !picked.contains(id) { picked.append(id) }
            }
            let staying = today.filter { !picked.contains($0) }
            let placement = Self.placement(from: words[3], staying: staying)
            log.append("add \(picked.count) to Today at \(placement)")
            _ = try repository.write { [service] in
                try service.place(picked.map(\.entryID), at: placement.map(\.entryID), in: .today, visibility: .all, in: $0)
            }
            // The items already in Today keep their order, then the others join in the order given.
            let run = today.filter(picked.contains) + picked.filter { !today.contains($0) }
            today = Self.inserting(run, at: placement, into: staying)
            return .today
        case 7:
            let visible = today.filter { !completed.contains($0) }
            guard !visible.isEmpty else { return .none }
            let (offsets, destination) = Self.drag(among: visible.count, bits: words[2], destination: words[3])
            log.append("move Today's open items at \(Array(offsets)) to \(destination)")
            try service.move(fromOffsets: offsets, toOffset: destination, in: .today, visibility: .open)
            let moving = offsets.map { visible[$0] }
            let staying = today.filter { !moving.contains($0) }
            let landing = destination - offsets.count(in: 0..<destination)
            today = Self.inserting(moving, at: .offset(landing), into: staying, isVisible: { !completed.contains($0) })
            return .today
        case 8:
            guard let id = today.randomElement(seed: words[2]) else { return .none }
            log.append("remove from Today")
            try repository.write { try $0.removeFromToday([id], updatedAt: Date(timeIntervalSince1970: 2)) }
            today.removeAll { $0 == id }
            return .today
        case 10:
            guard let item = allItems.randomElement(seed: words[2]) else { return .none }
            let order = checklists[item] ?? []
            let placement = Self.placement(from: words[3], staying: order)
            log.append("add an entry to a checklist at \(placement)")
            let entry = ChecklistItem(itemID: item, title: "c")
            _ = try repository.write { [service] in try service.add(entry, at: placement, in: $0) }
            checklists[item] = Self.inserting([entry.id], at: placement, into: order)
            return .checklist(item)
        case 11:
            guard let item = checklists.keys.sorted().randomElement(seed: words[2]), let order = checklists[item] else { return .none }
            let picked = Set((0..<(1 + words[1] % 3)).map { order[(words[2] >> (4 + $0 * 8)) % order.count] })
            let moving = order.filter(picked.contains)
            let staying = order.filter { !picked.contains($0) }
            let placement = Self.placement(from: words[3], staying: staying)
            log.append("move \(moving.count) entries of a checklist to \(placement)")
            _ = try repository.write { [service] in
                try service.place(moving.map(\.entryID), at: placement.map(\.entryID), in: .checklist(item), visibility: .all, in: $0)
            }
            checklists[item] = Self.inserting(moving, at: placement, into: staying)
            return .checklist(item)
        case 12:
            guard let item = checklists.keys.sorted().randomElement(seed: words[2]), let order = checklists[item] else { return .none }
            checklists[item] = try dragged(order, in: .checklist(item), named: "a checklist's entries", bits: words[1], destination: words[3])
            return .checklist(item)
        case 13:
            let area = areas[words[1] % areas.count]
            let staying = areas.filter { $0 != area }
            let placement = Self.placement(from: words[2], staying: staying)
            log.append("move an area to \(placement)")
            _ = try repository.write { [service] in try service.place([area.entryID], at: placement.map(\.entryID), in: .areas, visibility: .all, in: $0) }
            areas = Self.inserting([area], at: placement, into: staying)
            return .areas
        case 14:
            areas = try dragged(areas, in: .areas, named: "areas", bits: words[2], destination: words[3])
            return .areas
        case 15:
            // A list into an area, out of one, or within its own.
            let target: Area.ID? = [nil, areas[0], areas[1]][words[2] % 3]
            let staying = (target.map { areaLists[$0] ?? [] } ?? lists).filter { $0 != list }
            let placement = Self.placement(from: words[3], staying: staying)
            log.append("move a list into \(target.map { _ in "an area" } ?? "no area") at \(placement)")
            let scope = target.map(OrderScope.area) ?? .lists
            _ = try repository.write { [service] in try service.place([list.entryID], at: placement.map(\.entryID), in: scope, visibility: .all, in: $0) }
            lists.removeAll { $0 == list }
            for area in areas { areaLists[area]?.removeAll { $0 == list } }
            if let target { areaLists[target] = Self.inserting([list], at: placement, into: staying) } else { lists = Self.inserting([list], at: placement, into: staying) }
            return .lists
        case 16:
            let order = headings[list] ?? []
            let placement = Self.placement(from: words[2], staying: order)
            log.append("add a heading at \(placement)")
            let heading = Heading(listID: list, title: "h", createdAt: Date(timeIntervalSince1970: 0))
            _ = try repository.write { [service] in try service.add(heading, at: placement, in: $0) }
            headings[list] = Self.inserting([heading.id], at: placement, into: order)
            headingItems[heading.id] = []
            return .headings
        case 17:
            // A heading within its list, or to another, with its items.
            guard let heading = allHeadings.randomElement(seed: words[2]) else { return .none }
            let target = words[3] % 2 == 0 ? allLists.first { headings[$0]?.contains(heading) == true } ?? list : list
            let staying = (headings[target] ?? []).filter { $0 != heading }
            let placement = Self.placement(from: words[3] >> 1, staying: staying)
            log.append("move a heading to \(placement)")
            _ = try repository.write { [service] in
                try service.place([heading.entryID], at: placement.map(\.entryID), in: .headings(target), visibility: .all, in: $0)
            }
            for list in allLists { headings[list]?.removeAll { $0 == heading } }
            headings[target] = Self.inserting([heading], at: placement, into: staying)
            return .headings
        case 18:
            // Items of one list, shown in its order, into a section of any list: under no heading, or a heading.
            let source = shown(list)
            guard !source.isEmpty else { return .none }
            let picked = Set((0..<(1 + words[2] % 3)).map { source[(words[2] >> (4 + $0 * 8)) % source.count] })
            let moving = source.filter(picked.contains)
            let targetList = allLists[(words[3] >> 1) % allLists.count]
            let sections = [OrderScope.items(targetList)] + (headings[targetList] ?? []).map(OrderScope.heading)
            let target = sections[(words[3] >> 3) % sections.count]
            let current = section(target)
            let staying = current.filter { !picked.contains($0) }
            let placement = Self.placement(from: words[1] >> 2, staying: staying)
            log.append("move \(moving.count) items into \(target) at \(placement)")
            _ = try repository.write { [service] in try service.move(moving, to: placement, intoSection: target, visibility: .all, in: $0) }
            // Those already in the section keep their order; the others join after them.
            let run = moving.filter(current.contains) + moving.filter { !current.contains($0) }
            removeFromSections(picked)
            setSection(target, to: Self.inserting(run, at: placement, into: staying))
            return .listItems
        case 19:
            guard let heading = allHeadings.filter({ !(headingItems[$0] ?? []).isEmpty }).randomElement(seed: words[2]),
                  let order = headingItems[heading]
            else { return .none }
            headingItems[heading] = try dragged(order, in: .heading(heading), named: "a heading's items", bits: words[1], destination: words[3])
            return .listItems
        case 20:
            guard let order = headings[list], !order.isEmpty else { return .none }
            headings[list] = try dragged(order, in: .headings(list), named: "a list's headings", bits: words[1], destination: words[3])
            return .headings
        case 21:
            let area = areas[words[1] % areas.count]
            guard let order = areaLists[area], !order.isEmpty else { return .none }
            areaLists[area] = try dragged(order, in: .area(area), named: "an area's lists", bits: words[2], destination: words[3])
            return .lists
        default:
            guard let id = allItems.randomElement(seed: words[2]) else { return .none }
            log.append("toggle completion")
            try repository.write { transaction in
                var item = try transaction.existingItem(id: id)
                item.completedAt = item.isCompleted ? nil : Date(timeIntervalSince1970: 1)
                try transaction.update(item)
            }
            if completed.remove(id) == nil { completed.insert(id) }
            return .none
        }
    }

    /// A placement among `staying`, the entries that do not move.
    /// A drag among `count` entries drawn from two words: the offsets whose bits `bits` sets
    /// (its bits repeat past 30), always with one of them, and a destination from 0 to `count`.
    /// Drags the entries of `order` at offsets drawn from `bits` to the offset drawn from
    /// `destination`, in the store's ordering `scope` (logged as a move of `entries`), and
    /// answers `order` as the same drag leaves it.
    mutating func dragged<ID>(_ order: [ID], in scope: OrderScope, named entries: String, bits: Int, destination word: Int) throws -> [ID] {
        let (offsets, destination) = Self.drag(among: order.count, bits: bits, destination: word)
        log.append("move \(entries) at \(Array(offsets)) to \(destination)")
        try service.move(fromOffsets: offsets, toOffset: destination, in: scope)
        var moved = order
        moved.referenceMove(fromOffsets: offsets, toOffset: destination)
        return moved
    }

    static func drag(among count: Int, bits: Int, destination word: Int) -> (offsets: IndexSet, destination: Int) {
        (IndexSet((0..<count).filter { (bits >> ($0 % 30)) & 1 == 1 || $0 == bits % count }), word % (count + 1))
    }

    static func placement<ID>(from word: Int, staying: [ID]) -> Placement<ID> {
        switch (word % 5, staying.randomElement(seed: word >> 3)) {
        case (0, _): .top
        case (1, _): .bottom
        case (2, let anchor?): .before(anchor)
        case (3, let anchor?): .after(anchor)
        default: .offset((word >> 3) % (staying.count + 1))
        }
    }

    /// The model's placement rule: a visible offset lands directly before the visible entry
    /// there, or directly after the last visible entry.
    static func inserting<ID: Equatable>(_ ids: [ID], at placement: Placement<ID>, into order: [ID], isVisible: (ID) -> Bool = { _ in true }) -> [ID] {
        var order = order
        let index: Int
        switch placement {
        case .top: index = 0
        case .bottom: index = order.count
        case .before(let anchor): index = order.firstIndex(of: anchor) ?? -1
        case .after(let anchor): index = (order.firstIndex(of: anchor) ?? -2) + 1
        case .offset(let offset):
            let visible = order.indices.filter { isVisible(order[$0]) }
            index = offset < visible.count ? visible[offset] : (visible.last.map { $0 + 1 } ?? order.count)
        }
        order.insert(contentsOf: ids, at: index)
        return order
    }

    func keys() throws -> AllKeys {
        try repository.read { transaction in
            var keys = AllKeys()
            for area in try transaction.areas() { keys.areas[area.id] = area.sortIndex }
            for list in try transaction.lists() {
                keys.lists[list.id] = list.sortIndex
                keys.areaOf[list.id] = list.area
                for heading in try transaction.headings(in: list.id) {
                    keys.headings[heading.id] = heading.sortIndex
                    keys.headingListOf[heading.id] = heading.listID
                }
                for item in try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max) {
                    keys.listItems[item.id] = item.orderKey
                    keys.sectionOf[item.id] = item.scope
                    keys.today[item.id] = item.todayIndex
                    let entries = try transaction.checklist(of: item.id)
                    if !entries.isEmpty { keys.checklists[item.id] = Dictionary(uniqueKeysWithValues: entries.map { ($0.id, $0.sortIndex) }) }
                }
            }
            return keys
        }
    }

    func expectAgreement() throws {
        try repository.read { transaction in
            let storedLists = try transaction.lists()
            #expect(storedLists.map(\.id) == allLists, "the lists' order differs after \(log)")
            let storedAreas = try transaction.areas()
            #expect(storedAreas.map(\.id) == areas, "the areas' order differs after \(log)")
            #expect(Self.risesStrictly(storedAreas.map(\.sortIndex)), "area keys do not rise after \(log)")
            for group in [nil] + areas.map(Optional.some) {
                let keys = storedLists.filter { $0.area == group }.map(\.sortIndex)
                #expect(Self.risesStrictly(keys), "list keys do not rise in their group after \(log)")
            }
            for list in allLists {
                let stored = try transaction.items(in: list, visibility: .all, offset: 0, limit: .max)
                #expect(stored.map(\.id) == shown(list), "a list's order differs after \(log)")
                let storedHeadings = try transaction.headings(in: list)
                #expect(storedHeadings.map(\.id) == headings[list] ?? [], "a list's headings differ after \(log)")
                #expect(Self.risesStrictly(storedHeadings.map(\.sortIndex)), "heading keys do not rise after \(log)")
                for section in [OrderScope.items(list)] + storedHeadings.map({ .heading($0.id) }) {
                    let keys = stored.filter { $0.scope == section }.map(\.sortIndex)
                    #expect(Self.risesStrictly(keys), "item keys do not rise in \(section) after \(log)")
                    #expect(try transaction.entryCount(in: section, visibility: .all) == self.section(section).count)
                }
            }
            let storedToday = try transaction.todayItems(visibility: .all, offset: 0, limit: .max)
            #expect(storedToday.map(\.id) == today, "Today's order differs after \(log)")
            #expect(Self.risesStrictly(storedToday.compactMap(\.todayIndex)), "Today's keys do not rise after \(log)")
            #expect(try transaction.entryCount(in: .today, visibility: .open) == today.count { !completed.contains($0) })
            for (item, order) in checklists {
                let stored = try transaction.checklist(of: item)
                #expect(stored.map(\.id) == order, "a checklist's order differs after \(log)")
                #expect(Self.risesStrictly(stored.map(\.sortIndex)), "checklist keys do not rise after \(log)")
            }
        }
    }

    /// Expects the keys of every ordering but `touched` to be as they were.
    func expectOnly(_ touched: Touched, changedFrom before: AllKeys) throws {
        let after = try keys()
        if touched != .lists { #expect(after.lists == before.lists && after.areaOf == before.areaOf, "list keys changed after \(log)") }
        if touched != .areas { #expect(after.areas == before.areas, "area keys changed after \(log)") }
        if touched != .headings {
            #expect(after.headings.filter { before.headings[$0.key] != nil } == before.headings, "heading keys changed after \(log)")
            #expect(after.headingListOf.filter { before.headingListOf[$0.key] != nil } == before.headingListOf, "a heading changed lists after \(log)")
        }
        if touched != .today { #expect(after.today == before.today, "Today's keys changed after \(log)") }
        if touched != .listItems {
            #expect(after.listItems == before.listItems && after.sectionOf == before.sectionOf, "item keys changed after \(log)")
        }
        for (item, keys) in after.checklists {
            guard touched != .checklist(item) else { continue }
            #expect(keys == before.checklists[item] ?? [:], "the keys of another checklist changed after \(log)")
        }
    }

    static func risesStrictly(_ keys: [Int64]) -> Bool {
        zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }
    }
}
