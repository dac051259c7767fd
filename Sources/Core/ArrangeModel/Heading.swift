public import Foundation

/// A heading of a list ("Before the trip", "On the road"), kept in its user's order by ``sortIndex``.
///
/// A list's headings are ordered by hand among themselves, in ``OrderScope/headings(_:)``, and
/// each orders the items under it, in ``OrderScope/heading(_:)``. An item is under at most one
/// heading of its list, by its own field (``Item/heading``), not by where it stands: two
/// devices that move items under and out of headings at once merge cleanly. The items under no
/// heading come first (``OrderScope/items(_:)``), then each heading's, in the order of the
/// headings. Deleting a heading moves it to the Trash with the items under it (``trashedAt``).
public struct Heading: Identifiable, Hashable, Sendable, Codable {
    /// A heading's identity.
    public typealias ID = Identifier<Heading>

    /// The heading's stable identity.
    public var id: ID
    /// The list the heading belongs to.
    public var listID: ItemList.ID
    /// The heading's title, under the rules of an item's title (``Title``); two headings may share one.
    public var title: String
    /// When the heading was created.
    public var createdAt: Date
    /// The heading's place among the headings of its list. Headings read in ascending
    /// `sortIndex`, then ascending `id`.
    public var sortIndex: Int64
    /// When the heading was moved to the Trash, with the items under it, or `nil` when it was
    /// not. A heading in the Trash keeps its place, and its items theirs, for when it is put back.
    public var trashedAt: Date?

    /// A heading with these fields; the ordering service chooses the `sortIndex` of a new heading.
    public init(id: ID = ID(), listID: ItemList.ID, title: String, createdAt: Date, sortIndex: Int64 = 0, trashedAt: Date? = nil) {
        self.id = id
        self.listID = listID
        self.title = title
        self.createdAt = createdAt
        self.sortIndex = sortIndex
        self.trashedAt = trashedAt
    }

    /// The heading's place among the headings of its list: `sortIndex`, then `id`.
    public var orderKey: OrderKey { OrderKey(sortIndex: sortIndex, id: id.entryID) }

    /// The heading's entry in the order of its list's headings.
    public var entry: OrderEntry { OrderEntry(id: id.entryID, sortIndex: sortIndex, isOpen: true, isTrashed: trashedAt != nil) }
}
