public import ArrangeModel

/// A database left its replica id `id` on finding another line of that id's history: a copy
/// of it, or itself restored from a backup. The other line may still be in use, and unaware:
/// the id holds compaction back until that line leaves the id too, which it does on learning
/// of this (``ReplicaRetired``), or until a grace period has passed, for a line that is gone.
///
/// It changes no rows: sync reads it where it decides something, in compaction and in the
/// merge of the line still under the id.
public struct ForkedReplicaLeft: ChangeKind {
    package static let name: StaticString = "leaveForkedReplica"

    /// The replica id left.
    public var id: ReplicaID

    /// The change of these parts.
    public init(id: ReplicaID) { self.id = id }

    package var change: SyncChange { .leaveForkedReplica(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"))
    }

    /// Changes no rows.
    package func apply(in context: ChangeContext) throws {}
}

extension SyncChange {
    /// A change of the kind ``ForkedReplicaLeft``, of these parts.
    public static func leaveForkedReplica(id: ReplicaID) -> SyncChange {
        .leaveForkedReplica(ForkedReplicaLeft(id: id))
    }
}
