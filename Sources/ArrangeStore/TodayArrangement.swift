public import ArrangeModel

/// Today on one day, as people see it: the day's items, then This Evening; in each, the items
/// that arrived, then those placed by hand.
///
/// Today holds an item by its dates (`Item.todaySection(on:)`). An item that
/// arrives, on its start date or its deadline, has no place in Today's hand order yet: it shows
/// at the top of its section, and every device shows the arrivals in the same order, by the
/// day they arrived, then by their lists' order in the sidebar, then by their places in their
/// lists. Nothing is written when a day begins. An arrival takes a key when someone moves it
/// or moves another item above it; from then on it keeps its place (`Item.keepsTodayPlace(on:)`).
///
/// ```swift
/// let today = try TodayArrangement(on: Day(.now, in: .current), visibility: .open, in: transaction)
/// today.items                  // every item, in the order shown
/// today.evening.arrivals       // the evening's items that have no place of their own yet
/// ```
public struct TodayArrangement: Hashable, Sendable {
    /// One section of Today: the items that arrived, then those placed by hand.
    public struct Section: Hashable, Sendable {
        /// The items with no place of their own in the section yet, in the arrivals' order.
        public var arrivals: [Item]
        /// The items placed by hand, in Today's hand order (`Item.todayIndex`, then id).
        public var placed: [Item]

        /// The section's items in the order shown: the arrivals, then the placed items.
        public var items: [Item] { arrivals + placed }
    }

    /// The day Today is of.
    public var day: Day
    /// The day's items, at the top of Today.
    public var ofDay: Section
    /// This Evening, at the bottom of Today.
    public var evening: Section

    /// Every item, in the order shown: the day's, then the evening's.
    public var items: [Item] { ofDay.items + evening.items }

    /// The section `section`.
    public subscript(section: TodaySection) -> Section {
        switch section {
        case .day: ofDay
        case .evening: evening
        }
    }

    /// Reads Today on `day`, its items seen under `visibility`.
    ///
    /// An item that is completed shows under ``ItemVisibility/all`` while it keeps its key in Today.
    ///
    /// - Complexity: O(n log n) for the n items Today holds, which it sorts, and one read of the
    ///   lists; one read of the headings of each list whose arrivals are under a heading; under
    ///   ``ItemVisibility/all``, one read of Today's hand order for the completed items.
    public init(on day: Day, visibility: ItemVisibility, in reader: any ItemReading) throws {
        self.day = day
        var placed: [TodaySection: [Item]] = [:]
        var arrivals: [TodaySection: [Item]] = [:]
        // The open items Today holds are all dated; the completed ones it shows keep a key.
        let dated = try reader.datedItems(through: day, visibility: .open)
        let completed = visibility == .open ? [] : try reader.todayItems(visibility: visibility, offset: 0, limit: .max).filter(\.isCompleted)
        for item in dated + completed {
            guard let section = item.todaySection(on: day) else { continue }
            if item.keepsTodayPlace(on: day) {
                placed[section, default: []].append(item)
            } else {
                arrivals[section, default: []].append(item)
            }
        }
        for section in TodaySection.allCases {
            placed[section]?.sort { $0.todayKey < $1.todayKey }
        }
        let order = try ArrivalOrder(of: arrivals.values.joined(), on: day, in: reader)
        ofDay = Section(arrivals: order.sorted(arrivals[.day] ?? []), placed: placed[.day] ?? [])
        evening = Section(arrivals: order.sorted(arrivals[.evening] ?? []), placed: placed[.evening] ?? [])
    }
}

extension Item {
    /// The item's place in Today's hand order: `todayIndex`, then `id`; for an item with a key.
    fileprivate var todayKey: OrderKey { OrderKey(sortIndex: todayIndex ?? .max, id: id.entryID) }
}

/// The order of the items that arrived in Today: by the day they arrived, then by their lists'
/// order in the sidebar, then by their places in their lists.
private struct ArrivalOrder {
    /// Each list's place in the sidebar.
    let listRanks: [ItemList.ID: Int]
    /// Each heading's place in its list, the items under none coming first.
    let headingRanks: [Heading.ID: Int]
    let day: Day

    init(of items: some Sequence<Item>, on day: Day, in reader: any ItemReading) throws {
        self.day = day
        var listRanks: [ItemList.ID: Int] = [:]
        var headingRanks: [Heading.ID: Int] = [:]
        var needsHeadings = Set<ItemList.ID>()
        for item in items where item.heading != nil { needsHeadings.insert(item.listID) }
        for (rank, list) in try reader.lists().enumerated() { listRanks[list.id] = rank }
        for list in needsHeadings {
            for (rank, heading) in try reader.headings(in: list).enumerated() { headingRanks[heading.id] = rank + 1 }
        }
        self.listRanks = listRanks
        self.headingRanks = headingRanks
    }

    func sorted(_ items: [Item]) -> [Item] {
        items.map { (key: key(of: $0), item: $0) }.sorted { $0.key < $1.key }.map(\.item)
    }

    private func key(of item: Item) -> Key {
        Key(
            arrival: item.arrivalInToday(on: day), list: listRanks[item.listID] ?? .max,
            heading: item.heading.map { headingRanks[$0] ?? .max } ?? 0, place: item.orderKey)
    }

    private struct Key: Comparable {
        var arrival: Day
        var list: Int
        var heading: Int
        var place: OrderKey

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.arrival, lhs.list, lhs.heading) != (rhs.arrival, rhs.list, rhs.heading)
                ? (lhs.arrival, lhs.list, lhs.heading) < (rhs.arrival, rhs.list, rhs.heading)
                : lhs.place < rhs.place
        }
    }
}
