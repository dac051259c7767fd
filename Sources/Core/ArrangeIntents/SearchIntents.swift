public import ArrangeModel
public import ArrangeStore
import Foundation

/// Quick Find: the items, lists, areas and headings whose words match a query, the best first.
///
/// Matching ignores case and accents, and finds a word's beginning, any run of three
/// characters inside a word, and any two characters of Chinese, Japanese or Korean
/// (`SearchQuery`). An item matches when every word of the query is found in its title, notes,
/// checklist, heading or list.
///
/// ```swift
/// let found = try await Search(query: "mil").perform(in: environment)
/// found.items.map(\.item.title)   // ["Milk", "Oat milk", …]
/// ```
public struct Search: ArrangeIntent {
    public static let title = "Quick Find"

    /// How many items an answer holds when no limit is asked for.
    public static let defaultLimit = 20

    /// What to look for; any text. A query without words (empty, or punctuation alone) finds nothing.
    public var query: String
    /// The most items to answer, the best first.
    public var limit: Int
    /// Whether completed and canceled items, and finished lists, are found too.
    public var includeCompleted: Bool
    /// The day whose Today ranks first; the person's today when `nil`.
    public var day: Day?
    /// Only the items that carry every one of these tags, on themselves, their list or its area, each tag or one under it; every item for none.
    public var tags: [Tag.ID]

    /// Looks for `query` among the items that carry every one of `tags`.
    public init(query: String, limit: Int = Search.defaultLimit, includeCompleted: Bool = false, day: Day? = nil, tags: [Tag.ID] = []) {
        self.query = query
        self.limit = limit
        self.includeCompleted = includeCompleted
        self.day = day
        self.tags = tags
    }

    public var isReadOnly: Bool { true }

    /// Finds what matches.
    ///
    /// Items rank in three tiers: those whose title starts with the query, then those whose
    /// title matches it elsewhere, then the rest. Within a tier they go in Things' order: the
    /// items Today holds first, in Today's order, then the lists in the sidebar's order, each
    /// list's items in their place.
    ///
    /// - Returns: Up to `limit` items, with the fields each matched in, and how many match in
    ///   all; and the lists, areas, tags and headings whose names match, in the sidebar's order
    ///   (the tags in theirs).
    /// - Throws: ``IntentError/emptyPage(_:)`` for a limit below 1, ``IntentError/unknownTag(_:)``.
    /// - Complexity: The store's search, then O(m log m) to rank the m items that match, and a
    ///   read of Today on the day.
    public func run(in context: IntentContext) throws -> SearchResult {
        guard limit > 0 else { throw IntentError.emptyPage(limit) }
        let filter = try TagFilter(tags, in: context)
        let query = SearchQuery(query)
        guard !query.isEmpty else { return SearchResult(items: [], lists: [], areas: [], tags: [], headings: [], total: 0) }
        let reading = context.reading
        let found = try TagMatches(for: query, includeCompleted: includeCompleted, in: reading)
        let matches = found.items.filter { filter?.passes($0) != false }
        let ranking = try SearchRanking(of: matches, for: query, on: day ?? context.today(), in: reading)
        let page = matches.map { (key: ranking.key(of: $0), item: $0) }.sorted { $0.key < $1.key }.prefix(limit).map(\.item)
        let items = try context.summaries(of: page, on: day).map { summary in
            SearchResult.Match(item: summary, matched: try matchedFields(of: summary, for: query, in: context) + (found.byTag.contains(summary.id) ? [.tag] : []))
        }
        let lists = ranking.listOrder.filter { (includeCompleted || !$0.isFinished) && query.isMatched(by: [$0.name]) }
        let headings = try ranking.listOrder.flatMap { try reading.headings(in: $0.id) }.filter { query.isMatched(by: [$0.title]) }
        return SearchResult(
            items: items, lists: try lists.map(context.summary), areas: try reading.areas().filter { query.isMatched(by: [$0.name]) }.map(context.summary),
            tags: try reading.tags().filter { query.isMatched(by: [$0.name]) }, headings: try headings.map(context.summary), total: matches.count)
    }

    /// The fields of `item` in which some word of `query` matched.
    private func matchedFields(of item: ItemSummary, for query: SearchQuery, in context: IntentContext) throws -> [SearchField] {
        let heading = try item.heading.flatMap { try context.reading.heading(id: $0) }
        let fields: [(SearchField, [String])] = [
            (.title, [item.title]), (.notes, [item.notes]), (.checklist, item.checklist.map(\.title)), (.heading, heading.map { [$0.title] } ?? []),
            (.list, [item.listName]),
        ]
        return fields.filter { _, texts in texts.contains(where: query.matchesAnyWord(in:)) }.map(\.0)
    }
}

/// Where Quick Find found a word of the query in an item.
public enum SearchField: String, Hashable, Sendable, Codable, CaseIterable {
    case title, notes, checklist, heading, list
    /// A tag the item carries, on itself, its list or its list's area.
    case tag
}

/// What ``Search`` found.
public struct SearchResult: Hashable, Sendable, Codable {
    /// An item found, and where.
    public struct Match: Hashable, Sendable, Codable {
        /// The item.
        public var item: ItemSummary
        /// The fields in which a word of the query matched, in the order of ``SearchField``.
        public var matched: [SearchField]

        /// Creates the match from its parts.
        public init(item: ItemSummary, matched: [SearchField]) {
            self.item = item
            self.matched = matched
        }
    }

    /// Up to the limit asked for, the best first.
    public var items: [Match]
    /// The lists whose names match, in the sidebar's order.
    public var lists: [ListSummary]
    /// The areas whose names match, in their order.
    public var areas: [AreaSummary]
    /// The tags whose names match, depth first in hand order.
    public var tags: [Tag]
    /// The headings whose titles match, list by list in the sidebar's order.
    public var headings: [HeadingSummary]
    /// How many items match in all.
    public var total: Int

    /// Creates the result from its parts.
    public init(items: [Match], lists: [ListSummary], areas: [AreaSummary], tags: [Tag] = [], headings: [HeadingSummary], total: Int) {
        self.items = items
        self.lists = lists
        self.areas = areas
        self.tags = tags
        self.headings = headings
        self.total = total
    }
}

/// The items that match a query when a word may match a tag's name: each word must match in the
/// item's text, as the store matches, or in the name of a tag the item carries, on itself, on its
/// list or on its list's area. A query none of whose words matches a tag's name is the store's
/// search alone.
private struct TagMatches {
    /// The items that match.
    var items: [Item]
    /// Those in which some word matched a tag's name.
    var byTag: Set<Item.ID> = []

    init(for query: SearchQuery, includeCompleted: Bool, in reader: any ItemReading) throws {
        let tags = try reader.tags()
        var tagsByWord: [String: Set<Tag.ID>] = [:]
        for word in query.words {
            let matching = Set(tags.filter { SearchQuery(word).isMatched(by: [$0.name]) }.map(\.id))
            if !matching.isEmpty { tagsByWord[word] = matching }
        }
        guard !tagsByWord.isEmpty else {
            items = try reader.items(.matching(query, includeCompleted: includeCompleted))
            return
        }
        var byID: [Item.ID: Item] = [:]
        var matching: Set<Item.ID>?
        for word in query.words {
            var found = try reader.items(.matching(SearchQuery(word), includeCompleted: includeCompleted))
            if let wordTags = tagsByWord[word] {
                let carrying = try Self.items(carrying: wordTags, includeCompleted: includeCompleted, in: reader)
                byTag.formUnion(carrying.map(\.id))
                found += carrying
            }
            for item in found { byID[item.id] = item }
            let ids = Set(found.map(\.id))
            matching = matching.map { $0.intersection(ids) } ?? ids
        }
        items = (matching ?? []).compactMap { byID[$0] }
        byTag.formIntersection(matching ?? [])
    }

    /// The items that carry one of `tags`, on themselves, their list or their list's area.
    private static func items(carrying tags: Set<Tag.ID>, includeCompleted: Bool, in reader: any ItemReading) throws -> [Item] {
        let visibility: ItemVisibility = includeCompleted ? .all : .open
        let areas = Set(try reader.areas().filter { !$0.tags.isDisjoint(with: tags) }.map(\.id))
        let lists = try reader.lists().filter { !$0.tags.isDisjoint(with: tags) || $0.area.map(areas.contains) == true }
        return try reader.items(.tagged(tags)).filter(visibility.includes)
            + lists.flatMap { try reader.items(in: $0.id, visibility: visibility, offset: 0, limit: .max) }
    }
}

/// The order of Quick Find's items: the tier of their titles, then Things' order.
private struct SearchRanking {
    /// Every list, in the sidebar's order.
    let listOrder: [ItemList]
    private let listRanks: [ItemList.ID: Int]
    private let headingRanks: [Heading.ID: Int]
    private let todayRanks: [Item.ID: Int]
    private let tiers: [Item.ID: Int]

    init(of items: [Item], for query: SearchQuery, on day: Day, in reader: any ItemReading) throws {
        listOrder = try reader.lists()
        listRanks = Dictionary(listOrder.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var headingRanks: [Heading.ID: Int] = [:]
        for list in Set(items.lazy.filter { $0.heading != nil }.map(\.listID)) {
            for (rank, heading) in try reader.headings(in: list).enumerated() { headingRanks[heading.id] = rank + 1 }
        }
        self.headingRanks = headingRanks
        let today = try TodayArrangement(on: day, visibility: .all, in: reader).items
        todayRanks = Dictionary(today.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        tiers = Dictionary(items.map { item in
            let title = SearchQuery.words(of: item.title)
            return (item.id, query.isPrefix(ofWords: title) ? 0 : query.isMatched(byWords: title) ? 1 : 2)
        }, uniquingKeysWith: { first, _ in first })
    }

    /// The item's place in the ranking.
    func key(of item: Item) -> Key {
        Key(
            tier: tiers[item.id] ?? 2, today: todayRanks[item.id] ?? .max, list: listRanks[item.listID] ?? .max,
            heading: item.heading.map { headingRanks[$0] ?? .max } ?? 0, place: item.orderKey)
    }

    struct Key: Comparable {
        var tier: Int
        var today: Int
        var list: Int
        var heading: Int
        var place: OrderKey

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.tier, lhs.today, lhs.list, lhs.heading) != (rhs.tier, rhs.today, rhs.list, rhs.heading)
                ? (lhs.tier, lhs.today, lhs.list, lhs.heading) < (rhs.tier, rhs.today, rhs.list, rhs.heading)
                : lhs.place < rhs.place
        }
    }
}
