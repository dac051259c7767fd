public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// A replica was forgotten: a database that is gone (a lost phone, a file retired after a
/// restore or a copy). Its operations stay; it no longer holds compaction back anywhere.
public struct ReplicaRetired: ChangeKind {
    package static let name: StaticString = "retireReplica"

    /// The replica.
    public var id: ReplicaID

    /// The change of these parts.
    public init(id: ReplicaID) { self.id = id }

    package var change: SyncChange { .retireReplica(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"))
    }

    package func apply(in context: ChangeContext) throws {
        guard let log = context.log else { return }
        var progress = try log.replicaProgress(of: id.rawValue) ?? ReplicaProgress(replica: id.rawValue, sequence: 0, milliseconds: 0, counter: 0)
        guard !progress.isRetired else { return }
        progress.isRetired = true
        try log.setReplicaProgress(progress)
    }
}

extension SyncChange {
    /// A change of the kind ``ReplicaRetired``, of these parts.
    public static func retireReplica(id: ReplicaID) -> SyncChange {
        .retireReplica(ReplicaRetired(id: id))
    }
}
