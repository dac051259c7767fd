public import Foundation

/// One entry of a list, kept in its user's order by ``sortIndex``.
public struct Item: Identifiable, Hashable, Sendable, Codable {
    public typealias ID = Identifier<Item>

    /// The item's stable identity.
    public var id: ID
    /// The list the item belongs to.
    public var listID: ItemList.ID
    /// The item's title: non-empty, at most ``Title/maximumLength`` characters, no control characters.
    public var title: String
    /// Free-form notes; may be empty.
    public var notes: String
    /// The item's place in its list. Lists read in ascending `sortIndex`, then ascending `id`.
    public var sortIndex: Int64
    /// When the item was created.
    public var createdAt: Date
    /// When the item's content or place last changed.
    public var updatedAt: Date
    /// When the item was completed, or `nil` while it is open.
    public var completedAt: Date?

    public init(
        id: ID = ID(),
        listID: ItemList.ID,
        title: String,
        notes: String = "",
        sortIndex: Int64,
        createdAt: Date,
        updatedAt: Date? = nil,
        completedAt: Date? = nil
    ) {
        self.id = id
        self.listID = listID
        self.title = title
        self.notes = notes
        self.sortIndex = sortIndex
        self.createdAt = createdAt
        self.updatedAt = updatedAt ?? createdAt
        self.completedAt = completedAt
    }

    /// Whether the item has been completed.
    public var isCompleted: Bool { completedAt != nil }

    /// The item's place in display order: `sortIndex`, then `id`.
    public var orderKey: OrderKey { OrderKey(sortIndex: sortIndex, id: id) }
}

/// A position in a list's display order: `sortIndex` first, the item's id breaks ties.
///
/// Every backend orders items exactly by this key, so two items that share a
/// `sortIndex` still have one well-defined order.
public struct OrderKey: Hashable, Comparable, Sendable {
    public var sortIndex: Int64
    public var id: Item.ID

    public init(sortIndex: Int64, id: Item.ID) {
        self.sortIndex = sortIndex
        self.id = id
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.sortIndex != rhs.sortIndex ? lhs.sortIndex < rhs.sortIndex : lhs.id < rhs.id
    }
}
