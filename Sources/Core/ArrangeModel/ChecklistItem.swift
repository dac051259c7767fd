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
    /// When the entry was ticked off or canceled (``isCanceled``), or `nil` while it is open.
    public var completedAt: Date?
    /// Whether the entry was canceled rather than ticked off, as Things' status 2.
    public var isCanceled: Bool

    /// An entry with these fields; the ordering service chooses the `sortIndex` of a new entry.
    public init(id: ID = ID(), itemID: Item.ID, title: String, sortIndex: Int64 = 0, completedAt: Date? = nil, isCanceled: Bool = false) {
        self.id = id
        self.itemID = itemID
        self.title = title
        self.sortIndex = sortIndex
        self.completedAt = completedAt
        self.isCanceled = isCanceled
    }

    /// Whether the entry is done: ticked off, or canceled.
    public var isCompleted: Bool { completedAt != nil }

    /// Whether the entry is open, completed or canceled.
    public var status: ItemStatus {
        completedAt == nil ? .open : isCanceled ? .canceled : .completed
    }

    /// The entry's place in its checklist: `sortIndex`, then `id`.
    public var orderKey: OrderKey { OrderKey(sortIndex: sortIndex, id: id.entryID) }

    /// The entry's entry in the ordering of its checklist.
    public var entry: OrderEntry { OrderEntry(id: id.entryID, sortIndex: sortIndex, isOpen: !isCompleted) }
}

extension ChecklistItem {
    private enum CodingKeys: String, CodingKey {
        case id, itemID, title, sortIndex, completedAt
        case isCanceled = "canceled"
    }

    /// Reads the form ``encode(to:)`` writes; an entry written before cancelation is not canceled.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(ID.self, forKey: .id),
            itemID: try container.decode(Item.ID.self, forKey: .itemID),
            title: try container.decode(String.self, forKey: .title),
            sortIndex: try container.decode(Int64.self, forKey: .sortIndex),
            completedAt: try container.decodeIfPresent(Date.self, forKey: .completedAt),
            // Only a done entry is canceled.
            isCanceled: try container.decodeIfPresent(Bool.self, forKey: .isCanceled) == true && container.contains(.completedAt))
    }

    /// Writes every field; `completedAt` when it is `nil` and `canceled` when it is `false` are
    /// left out, so that an entry without them reads as it did before they existed.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(itemID, forKey: .itemID)
        try container.encode(title, forKey: .title)
        try container.encode(sortIndex, forKey: .sortIndex)
        try container.encodeIfPresent(completedAt, forKey: .completedAt)
        if isCanceled { try container.encode(true, forKey: .isCanceled) }
    }
}
