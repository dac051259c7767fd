public import Foundation

/// A group of lists in the sidebar ("Work", "Home"), kept in its user's order by ``sortIndex``.
///
/// Areas are ordered by hand among themselves, in ``OrderScope/areas``, and each orders its
/// own lists, in ``OrderScope/area(_:)``; the lists in no area come before every area
/// (``OrderScope/lists``). A list is in at most one area (``ItemList/area``). Deleting an area
/// keeps its lists: they move out, with no area.
public struct Area: Identifiable, Hashable, Sendable, Codable {
    /// An area's identity.
    public typealias ID = Identifier<Area>

    /// The area's stable identity.
    public var id: ID
    /// The area's name, unique among areas ignoring case, under the rules of a list's name.
    public var name: String
    /// When the area was created.
    public var createdAt: Date
    /// The area's place among the areas. Areas read in ascending `sortIndex`, then ascending `id`.
    public var sortIndex: Int64

    /// An area with these fields; the ordering service chooses the `sortIndex` of a new area.
    public init(id: ID = ID(), name: String, createdAt: Date, sortIndex: Int64 = 0) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.sortIndex = sortIndex
    }

    /// The area's place among the areas: `sortIndex`, then `id`.
    public var orderKey: OrderKey { OrderKey(sortIndex: sortIndex, id: id.entryID) }

    /// The area's entry in the order of the areas.
    public var entry: OrderEntry { OrderEntry(id: id.entryID, sortIndex: sortIndex, isOpen: true) }
}
