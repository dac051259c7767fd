public import ArrangeModel
public import ArrangeSync
public import Foundation

// The bodies of the endpoints of protocol version 1 that share a list with other people
// (``SyncProtocol/invitePath`` and its kin). A shared list has a log of its own on the server,
// beside each member's own; a request names it with ``SyncProtocol/listParameter``.

/// What a member of a shared list may do: `edit` or `view`.
public typealias ShareRole = ListShare.Role

/// What `POST /v1/shares/invite` takes: the list to share, and the role its invite gives.
public struct ShareInvitation: Codable, Hashable, Sendable {
    /// The list's id.
    public var list: UUID
    /// The role of whoever joins with the code.
    public var role: ShareRole

    /// An invitation to `list`, as `role`.
    public init(list: UUID, role: ShareRole = .edit) {
        self.list = list
        self.role = role
    }
}

/// What `POST /v1/shares/invite` answers: a code that joins one person to the list, once,
/// until it expires.
public struct ShareInvite: Codable, Hashable, Sendable {
    /// The code, as `XXXX-XXXX-XXXX`: for a person to pass on.
    public var code: String
    /// When the code stops working.
    public var expiresAt: Date
    /// The role it gives.
    public var role: ShareRole

    /// An invite of these parts.
    public init(code: String, expiresAt: Date, role: ShareRole) {
        self.code = code
        self.expiresAt = expiresAt
        self.role = role
    }

    private enum CodingKeys: String, CodingKey { case code, expiresAt, role }

    /// `expiresAt` as ISO 8601, to the second.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code, forKey: .code)
        try container.encode(expiresAt.formatted(.iso8601), forKey: .expiresAt)
        try container.encode(role, forKey: .role)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let text = try container.decode(String.self, forKey: .expiresAt)
        guard let expiresAt = try? Date(text, strategy: .iso8601) else {
            throw DecodingError.dataCorruptedError(forKey: .expiresAt, in: container, debugDescription: "'\(text)' is not an ISO 8601 moment.")
        }
        self.init(code: try container.decode(String.self, forKey: .code), expiresAt: expiresAt, role: try container.decode(ShareRole.self, forKey: .role))
    }
}

/// What `POST /v1/shares/join` takes: an invite code.
public struct ShareJoining: Codable, Hashable, Sendable {
    /// The code, as it was passed on; case, dashes and spaces do not matter.
    public var code: String

    /// A joining with `code`.
    public init(code: String) {
        self.code = code
    }
}

/// A shared list the user is a member of: what `POST /v1/shares/join` answers, and what
/// `GET /v1/shares` lists.
public struct SharedList: Codable, Hashable, Sendable {
    /// The list's id.
    public var list: UUID
    /// The user's role in it.
    public var role: ShareRole
    /// The name of the user who shared it.
    public var owner: String
    /// Whether the user asking shared it: only they invite, remove members, and delete it for
    /// everyone.
    public var owned: Bool
    /// The cursor after the newest operation of its log, as a pull that reached it answers: a
    /// device whose cursor in the log is there has nothing to pull
    /// (`SyncEngine.hasNews(for:at:)`).
    public var head: SyncCursor

    /// A shared list of these parts.
    public init(list: UUID, role: ShareRole, owner: String, owned: Bool = false, head: SyncCursor) {
        self.list = list
        self.role = role
        self.owner = owner
        self.owned = owned
        self.head = head
    }

    /// The share as a device keeps it (`ListShare`).
    public var share: ListShare {
        ListShare(list: ItemList.ID(rawValue: list), role: role, owner: owner, isOwned: owned)
    }
}

/// What `GET /v1/shares` and `POST /v1/shares/leave` answer: the shared lists the user is a
/// member of, their owner's included.
public struct SharedLists: Codable, Hashable, Sendable {
    /// The lists, by id.
    public var lists: [SharedList]

    /// These lists.
    public init(lists: [SharedList]) {
        self.lists = lists
    }
}

/// A member of a shared list.
public struct ShareMember: Codable, Hashable, Sendable {
    /// The member's user name on the server.
    public var user: String
    /// What they may do.
    public var role: ShareRole
    /// Whether they shared the list, and so may remove others.
    public var owner: Bool

    /// A member of these parts.
    public init(user: String, role: ShareRole, owner: Bool) {
        self.user = user
        self.role = role
        self.owner = owner
    }
}

/// What `GET /v1/shares/members` and `POST /v1/shares/remove` answer: a list's members, its
/// owner first, then by name.
public struct ShareMembers: Codable, Hashable, Sendable {
    /// The members.
    public var members: [ShareMember]

    /// These members.
    public init(members: [ShareMember]) {
        self.members = members
    }
}

/// What `POST /v1/shares/remove` takes: the member the list's owner removes.
public struct ShareRemoval: Codable, Hashable, Sendable {
    /// The list's id.
    public var list: UUID
    /// The member's user name.
    public var user: String

    /// The removal of `user` from `list`.
    public init(list: UUID, user: String) {
        self.list = list
        self.user = user
    }
}

/// What `POST /v1/shares/leave` takes: the list a member leaves.
public struct ShareLeaving: Codable, Hashable, Sendable {
    /// The list's id.
    public var list: UUID

    /// Leaving `list`.
    public init(list: UUID) {
        self.list = list
    }
}
