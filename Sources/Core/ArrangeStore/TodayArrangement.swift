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
    /// The lists Today shows on the day, in the sidebar's order: those started by then, or
    /// due (`ItemList.todaySection(on:)`), which show above the items.
    public var lists: [ItemList]

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
    /// - Parameters:
    ///   - day: The day Today is of.
    ///   - visibility: Which items it shows.
    ///   - projectingRepeats: Whether the to-dos of repeating series due by `day` that are not
    ///     made yet show among the arrivals, as they will be made (`ItemReading.dueRepeats(on:)`):
    ///     for a view that cannot write them. An intent that places items in Today leaves them out.
    ///   - reader: The store.
    /// - Complexity: As ``Page/init(on:visibility:offset:limit:projectingRepeats:in:)`` says,
    ///   with every item of Today read in full as its order is found (`ItemReading.datedItems(through:)`).
    public init(on day: Day, visibility: ItemVisibility, projectingRepeats: Bool = false, in reader: any ItemReading) throws {
        let items = try reader.datedItems(through: day) + (projectingRepeats ? reader.dueRepeats(on: day) : [])
            + TodayOrder.completedItems(seenUnder: visibility, in: reader)
        let byID = Dictionary(items.map { ($0.id, $0) }) { first, _ in first }
        let order = try TodayOrder(of: items.map(DatedStanding.init), on: day, in: reader)
        let resolved = { (standings: [DatedStanding]) in standings.compactMap { byID[$0.id] } }
        self.day = day
        lists = try reader.lists().filter { $0.todaySection(on: day) != nil }
        ofDay = Section(arrivals: resolved(order.ofDay.arrivals), placed: resolved(order.ofDay.placed))
        evening = Section(arrivals: resolved(order.evening.arrivals), placed: resolved(order.evening.placed))
    }
}

extension TodayArrangement {
    /// A page of Today on one day: some of its items in the order shown, and where the page
    /// and This Evening begin among all of them.
    ///
    /// A view that shows Today a page at a time reads only the page's items in full:
    ///
    /// ```swift
    /// let page = try TodayArrangement.Page(on: day, visibility: .open, offset: 0, limit: 50, in: transaction)
    /// page.items                        // up to 50 items, in the order shown
    /// page.eveningOffset - page.offset  // where the page's This Evening header goes, if within it
    /// ```
    public struct Page: Hashable, Sendable {
        /// The day Today is of.
        public var day: Day
        /// The page's items, in the order shown.
        public var items: [Item]
        /// How many of Today's items come before the page.
        public var offset: Int
        /// How many items Today holds, under the page's visibility: the page is the last when
        /// `offset + items.count` reaches it.
        public var total: Int
        /// Where This Evening begins among Today's items: how many are the day's.
        public var eveningOffset: Int

        /// Reads the page of at most `limit` items of Today on `day`, seen under `visibility`,
        /// that come after its first `offset`; a negative offset or a limit below 1 reads none.
        /// With `projectingRepeats`, the to-dos of repeating series due by `day` that are not
        /// made yet count among the arrivals, as ``TodayArrangement/init(on:visibility:projectingRepeats:in:)`` counts them.
        ///
        /// - Complexity: O(m log m) for the m items Today holds, of which it reads only what
        ///   Today's order needs (`ItemReading.datedStandings(through:)`); one read of the
        ///   lists, and of the headings of each list with an arrival under a heading; the
        ///   page's items, read by id (`ItemReading.items(withIDs:)`); under ``ItemVisibility/all``, one read of Today's
        ///   hand order for the completed items.
        public init(on day: Day, visibility: ItemVisibility, offset: Int, limit: Int, projectingRepeats: Bool = false, in reader: any ItemReading) throws {
            let completed = try TodayOrder.completedItems(seenUnder: visibility, in: reader)
            let projected = projectingRepeats ? try reader.dueRepeats(on: day) : []
            let candidates = try reader.datedStandings(through: day) + (completed + projected).map(DatedStanding.init)
            let order = try TodayOrder(of: candidates, on: day, in: reader)
            let standings = order.ofDay.arrivals + order.ofDay.placed + order.evening.arrivals + order.evening.placed
            let page = offset < 0 || limit < 1 ? [] : standings.dropFirst(offset).prefix(limit)
            self.day = day
            if projected.isEmpty {
                items = try reader.items(withIDs: page.map(\.id))
            } else {
                // The projected to-dos are in no table: the page takes them as they are.
                let projectedByID = Dictionary(projected.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                let stored = try reader.items(withIDs: page.map(\.id).filter { projectedByID[$0] == nil })
                let storedByID = Dictionary(stored.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
                items = page.compactMap { storedByID[$0.id] ?? projectedByID[$0.id] }
            }
            self.offset = offset
            total = standings.count
            eveningOffset = order.ofDay.arrivals.count + order.ofDay.placed.count
        }
    }
}

/// Today's order on a day, over what it reads of each item: each section's arrivals in the
/// arrivals' order, then its placed items in Today's hand order.
private struct TodayOrder {
    typealias Section = (arrivals: [DatedStanding], placed: [DatedStanding])

    var ofDay: Section
    var evening: Section

    /// The completed items Today shows under `visibility`: those that keep a key in Today's
    /// hand order. The open items Today holds are all dated (`ItemReading.datedStandings(through:)`).
    static func completedItems(seenUnder visibility: ItemVisibility, in reader: any ItemReading) throws -> [Item] {
        visibility == .open ? [] : try reader.todayItems(visibility: visibility, offset: 0, limit: .max).filter(\.isCompleted)
    }

    /// Orders `candidates`, the items Today may hold on `day`, as Today shows them: those of a
    /// finished list stay out, as the list is in the Logbook, and so do those of a list or a
    /// heading in the Trash.
    init(of candidates: [DatedStanding], on day: Day, in reader: any ItemReading) throws {
        var placed: [TodaySection: [DatedStanding]] = [:]
        var arrivals: [TodaySection: [DatedStanding]] = [:]
        let lists = try reader.lists()
        let hiddenLists = Set(lists.lazy.filter { !$0.isActive }.map(\.id))
        let trashedHeadings = Set(try reader.headings(.trashed).map(\.id))
        let isHidden = { (standing: ItemStanding) in
            hiddenLists.contains(standing.list) || standing.heading.map(trashedHeadings.contains) == true
        }
        for standing in candidates where !isHidden(standing.standing) {
            guard let section = standing.todaySection(on: day) else { continue }
            if standing.keepsTodayPlace(on: day) {
                placed[section, default: []].append(standing)
            } else {
                arrivals[section, default: []].append(standing)
            }
        }
        for section in TodaySection.allCases {
            placed[section]?.sort { $0.todayKey < $1.todayKey }
        }
        let order = try ArrivalOrder(of: arrivals.values.joined(), on: day, lists: lists, in: reader)
        ofDay = (order.sorted(arrivals[.day] ?? []), placed[.day] ?? [])
        evening = (order.sorted(arrivals[.evening] ?? []), placed[.evening] ?? [])
    }
}

extension DatedStanding {
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

    init(of arrivals: some Sequence<DatedStanding>, on day: Day, lists: [ItemList], in reader: any ItemReading) throws {
        self.day = day
        var listRanks: [ItemList.ID: Int] = [:]
        var headingRanks: [Heading.ID: Int] = [:]
        var needsHeadings = Set<ItemList.ID>()
        for arrival in arrivals where arrival.standing.heading != nil { needsHeadings.insert(arrival.standing.list) }
        for (rank, list) in lists.enumerated() { listRanks[list.id] = rank }
        for list in needsHeadings {
            for (rank, heading) in try reader.headings(in: list).enumerated() { headingRanks[heading.id] = rank + 1 }
        }
        self.listRanks = listRanks
        self.headingRanks = headingRanks
    }

    func sorted(_ arrivals: [DatedStanding]) -> [DatedStanding] {
        arrivals.map { (key: key(of: $0), arrival: $0) }.sorted { $0.key < $1.key }.map(\.arrival)
    }

    private func key(of arrival: DatedStanding) -> Key {
        Key(
            arrival: arrival.arrivalInToday(on: day), list: listRanks[arrival.standing.list] ?? .max,
            heading: arrival.standing.heading.map { headingRanks[$0] ?? .max } ?? 0, place: arrival.standing.key)
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
