public import Foundation

/// One entry of a list, kept in its user's order by ``sortIndex``.
public struct Item: Identifiable, Hashable, Sendable, Codable {
    /// An item's identity.
    public typealias ID = Identifier<Item>

    /// The item's stable identity.
    public var id: ID
    /// The list the item belongs to.
    public var listID: ItemList.ID
    /// The item's title: non-empty, at most ``Title/maximumLength`` characters, no control characters.
    public var title: String
    /// Free-form notes; may be empty. Sync refuses an operation whose notes have more than
    /// ``maximumNotesLength`` characters.
    public var notes: String
    /// The item's place in its list. Lists read in ascending `sortIndex`, then ascending `id`.
    public var sortIndex: Int64
    /// When the item was created.
    public var createdAt: Date
    /// When the item's content or place last changed.
    public var updatedAt: Date
    /// When the item was completed, or `nil` while it is open.
    public var completedAt: Date?
    /// The item's place in Today, or `nil` when it is not in Today. Today reads in ascending
    /// `todayIndex`, then ascending `id`, whatever the items' lists.
    public var todayIndex: Int64?

    /// An item with these fields; `updatedAt` defaults to `createdAt`.
    public init(
        id: ID = ID(),
        listID: ItemList.ID,
        title: String,
        notes: String = "",
        sortIndex: Int64,
        createdAt: Date,
        updatedAt: Date? = nil,
        completedAt: Date? = nil,
        todayIndex: Int64? = nil
    ) {
        self.id = id
        self.listID = listID
        self.title = title
        self.notes = notes
        self.sortIndex = sortIndex
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.completedAt = completedAt
        self.todayIndex = todayIndex
    }

    /// The most characters an item's notes may have in an operation that sync accepts: 100,000.
    ///
    /// Sync's current rules refuse an operation with longer notes (`OperationCheck` in
    /// ArrangeSync); operations of sync files older than version 3 were made before this limit,
    /// and are not held to it. Intents do not check it.
    public static let maximumNotesLength = 100_000

    /// Whether the item has been completed.
    public var isCompleted: Bool { completedAt != nil }

    /// Whether the item is in Today.
    public var isInToday: Bool { todayIndex != nil }

    /// The item's place in its list: `sortIndex`, then `id`.
    public var orderKey: OrderKey { OrderKey(sortIndex: sortIndex, id: id.entryID) }

    /// The item's entry in `scope`, or `nil` when it is not in that ordering.
    public func entry(in scope: OrderScope) -> OrderEntry? {
        let sortIndex: Int64? = switch scope {
        case .items(let list): list == listID ? self.sortIndex : nil
        case .today: todayIndex
        case .lists: nil
        }
        return sortIndex.map { OrderEntry(id: id.entryID, sortIndex: $0, isOpen: !isCompleted) }
    }
}


