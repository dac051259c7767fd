public import Foundation

/// A tag ("Errand", "Home"), which to-dos, lists and areas carry; tags form a tree, each
/// ordered by hand among the children of its parent, as Things' tag manager orders them.
///
/// A tag's children are an ordering of their own, ``OrderScope/tags(_:)``: the tags at the
/// top level (`parent` `nil`), or the children of one tag. Names are unique among all tags,
/// ignoring case.
public struct Tag: Identifiable, Hashable, Sendable, Codable {
    /// A tag's identity.
    public typealias ID = Identifier<Tag>

    /// The tag's stable identity.
    public var id: ID
    /// The tag's name, unique among tags ignoring case, under the rules of a list's name.
    public var name: String
    /// The tag it is a child of, or `nil` at the top level.
    public var parent: ID?
    /// The tag's place among the children of its parent. Tags read in ascending `sortIndex`,
    /// then ascending `id`.
    public var sortIndex: Int64
    /// The one character that sets the tag from the keyboard, as Things' shortcuts do; `nil` for none.
    public var shortcut: String?
    /// When the tag was created.
    public var createdAt: Date

    /// A tag with these fields; the ordering service chooses the `sortIndex` of a new tag.
    public init(id: ID = ID(), name: String, parent: ID? = nil, sortIndex: Int64 = 0, shortcut: String? = nil, createdAt: Date) {
        self.id = id
        self.name = name
        self.parent = parent
        self.sortIndex = sortIndex
        self.shortcut = shortcut
        self.createdAt = createdAt
    }

    /// The ordering the tag is in: the children of its parent, or the top level.
    public var scope: OrderScope { .tags(parent) }

    /// The tag's place among its siblings: `sortIndex`, then `id`.
    public var orderKey: OrderKey { OrderKey(sortIndex: sortIndex, id: id.entryID) }

    /// The tag's entry in the ordering of its siblings.
    public var entry: OrderEntry { OrderEntry(id: id.entryID, sortIndex: sortIndex, isOpen: true) }

    private enum CodingKeys: String, CodingKey {
        case id, name, parent, sortIndex, shortcut, createdAt
    }

    /// Writes every field, `parent` and `shortcut` as `null` when they are `nil`: the form of a
    /// tag that programs read.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(parent, forKey: .parent)
        try container.encode(sortIndex, forKey: .sortIndex)
        try container.encode(shortcut, forKey: .shortcut)
        try container.encode(createdAt, forKey: .createdAt)
    }

    /// The form under which two tag names count as the same: case and width folded, as list names.
    public static func nameKey(_ name: String) -> String {
        ItemList.nameKey(name)
    }
}
