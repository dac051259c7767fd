public import Foundation

/// One entry of an item's checklist, kept in its user's order by ``sortIndex``.
///
/// A checklist holds the small steps of one item ("passport", "charger", "tickets"), each
/// ticked off on its own. Its entries are ordered by hand like every other ordering, in
/// ``OrderScope/checklist(_:)``: a move writes one entry's key.
public struct ChecklistItem: Identifiable, Hashable, Sendable, Codable {
    /// A checklist entry's identity.
    public typealias ID = Identifier<ChecklistItem>

    /// The entry's stable identity.
    public var id: ID
    /// The item whose checklist holds the entry.
    public var itemID: Item.ID
    /// The entry's title, under the rules of an item's title (``Title``).
    public var title: String
    /// The entry's place in its checklist. Entries read in ascending `sortIndex`, then ascending `id`.
    public var sortIndex: Int64
    /// When the entry was ticked off, or `nil` while it is open.
    public var completedAt: Date?

    /// An entry with these fields; the ordering service chooses the `sortIndex` of a new entry.
    public init(id: ID = ID(), itemID: Item.ID, title: String, sortIndex: Int64 = 0, completedAt: Date? = nil) {
        self.id = id
        self.itemID = itemID
        self.title = title
        self.sortIndex = sortIndex
        self.completedAt = completedAt
    }

    /// Whether the entry has been ticked off.
    public var isCompleted: Bool { completedAt != nil }

    /// The entry's place in its checklist: `sortIndex`, then `id`.
    public var orderKey: OrderKey { OrderKey(sortIndex: sortIndex, id: id.entryID) }

    /// The entry's entry in the ordering of its checklist.
    public var entry: OrderEntry { OrderEntry(id: id.entryID, sortIndex: sortIndex, isOpen: !isCompleted) }
}
