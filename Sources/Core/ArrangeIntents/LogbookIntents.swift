public import ArrangeModel
import Foundation
import ArrangeStore

/// The Logbook: the completed items of every list, the most recently completed first, a page
/// at a time; and, on the first page, the finished lists.
public struct ShowLogbook: ArrangeIntent {
    public static let title = "Show Logbook"

    /// How many items a page holds when none is asked for.
    public static let defaultLimit = 50

    /// How many completed items to pass over, the most recent first.
    public var offset: Int
    /// The most items the page holds.
    public var limit: Int
    /// Only the items, and finished lists, that carry every one of these tags; all for none.
    public var tags: [Tag.ID]

    /// Reads the page of `limit` completed items after the `offset` most recently completed,
    /// of those that carry every one of `tags`.
    public init(offset: Int = 0, limit: Int = ShowLogbook.defaultLimit, tags: [Tag.ID] = []) {
        self.offset = offset
        self.limit = limit
        self.tags = tags
    }

    public var isReadOnly: Bool { true }

    /// Reads the page.
    ///
    /// - Returns: The page's items, the most recently completed first, and how many items are
    ///   completed in all; on the first page, the finished lists, the most recently finished first.
    /// - Throws: ``IntentError/negativeOffset(_:)``, ``IntentError/emptyPage(_:)``, ``IntentError/unknownTag(_:)``.
    /// - Complexity: O(offset + limit) for the page on SQLite, from its table of completions,
    ///   and O(c) for the count of the c completed items; with tags, O(c) reads of items.
    public func run(in context: IntentContext) throws -> LogbookPage {
        guard offset >= 0 else { throw IntentError.negativeOffset(offset) }
        guard limit > 0 else { throw IntentError.emptyPage(limit) }
        let filter = try TagFilter(tags, in: context)
        let finished = offset > 0 ? [] : try context.transaction.lists().filter { list in
            list.isFinished && list.trashedAt == nil && filter?.passesAll(of: list.id) != false
        }.sorted { first, second in
            (first.completedAt ?? .distantPast, second.id) > (second.completedAt ?? .distantPast, first.id)
        }
        guard let filter else {
            return LogbookPage(
                items: try context.summaries(of: try context.transaction.completedItems(offset: offset, limit: limit)), offset: offset,
                total: try context.transaction.completedItemCount(), lists: try finished.map(context.summary))
        }
        let passing = try context.transaction.completedItems(offset: 0, limit: .max).filter(filter.passes)
        return LogbookPage(
            items: try context.summaries(of: Array(passing.dropFirst(offset).prefix(limit))), offset: offset, total: passing.count,
            lists: try finished.map(context.summary))
    }
}
