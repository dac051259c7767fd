public import Foundation

/// A named list of items.
public struct ItemList: Identifiable, Hashable, Sendable, Codable {
    public typealias ID = Identifier<ItemList>

    /// The list's stable identity.
    public var id: ID
    /// The list's name, unique among lists ignoring case.
    public var name: String
    /// When the list was created.
    public var createdAt: Date

    public init(id: ID = ID(), name: String, createdAt: Date) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
    }

    /// The form under which two list names count as the same: case and width folded.
    ///
    /// ```swift
    /// ItemList.nameKey("Groceries") == ItemList.nameKey("GROCERIES")  // true
    /// ```
    public static func nameKey(_ name: String) -> String {
        name.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }
}
