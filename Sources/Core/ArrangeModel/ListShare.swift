/// A list shared with other people through a sync server, as this device knows it: one
/// hand-made order for every member, kept in a log of its own on the server.
///
/// A store keeps it for the device alone, as the server told it: never synced, exported or
/// undone. A list's items, headings, checklists, dates and order are the same for every member;
/// Today, evenings, reminders, tags and the list's place in the sidebar stay each person's own.
public struct ListShare: Hashable, Sendable, Codable {
    /// What a member of a shared list may do.
    public enum Role: String, Codable, Hashable, Sendable, CaseIterable {
        /// Changes the list, as its owner does.
        case edit
        /// Receives the list's changes, and makes none.
        case view
    }

    /// The shared list.
    public var list: ItemList.ID
    /// What this device's user may do in it.
    public var role: Role
    /// The server's name of the user who shared it.
    public var owner: String
    /// Whether this device's user shared it: only they invite people, remove them, and delete
    /// the list for everyone.
    public var isOwned: Bool

    /// The share of `list`, as the server tells it.
    public init(list: ItemList.ID, role: Role, owner: String, isOwned: Bool) {
        self.list = list
        self.role = role
        self.owner = owner
        self.isOwned = isOwned
    }
}
