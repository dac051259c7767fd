public import Foundation

/// A named list of items.
public struct ItemList: Identifiable, Hashable, Sendable, Codable {
    /// A list's identity.
    public typealias ID = Identifier<ItemList>

    /// The list's stable identity.
    public var id: ID
    /// The list's name, unique among lists ignoring case.
    public var name: String
    /// When the list was created.
    public var createdAt: Date
    /// The list's place among the lists of its area, or among those in no area. Lists read in
    /// ascending `sortIndex`, then ascending `id`.
    public var sortIndex: Int64
    /// The area the list is in, or `nil` for none: the lists in no area come first in the sidebar.
    public var area: Area.ID?

    /// A list with these fields; the ordering service chooses the `sortIndex` of a new list.
    public init(id: ID = ID(), name: String, createdAt: Date, sortIndex: Int64 = 0, area: Area.ID? = nil) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.sortIndex = sortIndex
        self.area = area
    }

    /// The ordering the list is in: its area's lists, or the lists in no area.
    public var scope: OrderScope { area.map(OrderScope.area) ?? .lists }

    /// The id a store gives the first default list it makes: the same in every store, so that
    /// two stores that each made their default list, then sync, share one list instead of two.
    public static let firstDefaultListID = ID(rawValue: UUID(uuid: (0, 0, 0, 0, 0, 0, 0x80, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)))

    /// The list's place among the lists of its ``scope``: `sortIndex`, then `id`.
    public var orderKey: OrderKey { OrderKey(sortIndex: sortIndex, id: id.entryID) }

    /// The list's entry in the order of the lists of its ``scope``.
    public var entry: OrderEntry { OrderEntry(id: id.entryID, sortIndex: sortIndex, isOpen: true) }

    /// The form under which two list names count as the same: case and width folded.
    ///
    /// ```swift
    /// ItemList.nameKey("Groceries") == ItemList.nameKey("GROCERIES")  // true
    /// ```
    public static func nameKey(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }
}
