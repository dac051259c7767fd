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
    /// The tags set on the area; they apply to its lists' items too.
    public var tags: Set<Tag.ID>

    /// An area with these fields; the ordering service chooses the `sortIndex` of a new area.
    public init(id: ID = ID(), name: String, createdAt: Date, sortIndex: Int64 = 0, tags: Set<Tag.ID> = []) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.sortIndex = sortIndex
        self.tags = tags
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, createdAt, sortIndex, tags
    }

    /// Reads the form ``encode(to:)`` writes; an area written before tags has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(ID.self, forKey: .id), name: try container.decode(String.self, forKey: .name),
            createdAt: try container.decode(Date.self, forKey: .createdAt), sortIndex: try container.decode(Int64.self, forKey: .sortIndex),
            tags: Set(try container.decodeIfPresent([Tag.ID].self, forKey: .tags) ?? []))
    }

    /// Writes every field; `tags` is left out when there are none (else by id), so that an area
    /// without tags reads as it did before them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(sortIndex, forKey: .sortIndex)
        if !tags.isEmpty { try container.encode(tags.sorted(), forKey: .tags) }
    }

    /// The area's place among the areas: `sortIndex`, then `id`.
    public var orderKey: OrderKey { OrderKey(sortIndex: sortIndex, id: id.entryID) }

    /// The area's entry in the order of the areas.
    public var entry: OrderEntry { OrderEntry(id: id.entryID, sortIndex: sortIndex, isOpen: true) }
}
