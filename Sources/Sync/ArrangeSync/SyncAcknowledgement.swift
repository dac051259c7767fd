public import ArrangeModel
import ArrangeStore
import Foundation

/// What a replica said of itself: its clock then, and for each replica the sequence number up to
/// which it held all of that replica's operations. Stores pass these on, newest per replica, and
/// fold away what every replica they know of holds (``SyncEngine/compact()``); files carry them
/// (``OperationFile/Contents/acknowledgements``), so that devices that meet only through files
/// fold too.
public struct SyncAcknowledgement: Hashable, Sendable, Codable {
    /// The replica that said it.
    public var replica: ReplicaID
    /// Its hybrid logical clock then: every operation it makes after comes later.
    public var clock: HLCTimestamp
    /// For each replica, by id, the sequence number up to which it held all of its operations.
    public var merged: [String: Int64]
    /// For each replica in ``merged``, by id, the id of the operation it held at that sequence
    /// number, which tells apart the operations that two databases sharing a replica id (a
    /// copy, a restored backup) made under one number; `nil` in files from before.
    public var tips: [String: SyncOperation.ID]?

    /// What `replica` said at `clock`, having merged `merged` up to the operations `tips`.
    public init(replica: ReplicaID, clock: HLCTimestamp, merged: [String: Int64], tips: [String: SyncOperation.ID]? = nil) {
        self.replica = replica
        self.clock = clock
        self.merged = merged
        self.tips = tips
    }
}

extension SyncAcknowledgement {
    /// An acknowledgement as the log keeps it.
    init(_ acknowledgement: Acknowledgement) {
        self.init(
            replica: ReplicaID(rawValue: acknowledgement.replica),
            clock: HLCTimestamp(milliseconds: acknowledgement.milliseconds, counter: UInt32(clamping: acknowledgement.counter)),
            merged: Dictionary(uniqueKeysWithValues: acknowledgement.merged.map { ($0.key.lowercasedString, $0.value) }),
            tips: Dictionary(uniqueKeysWithValues: acknowledgement.tips.map { ($0.key.lowercasedString, SyncOperation.ID(rawValue: $0.value)) }))
    }

    /// The acknowledgement as the log keeps it; `nil` when it names a replica by text that is
    /// not a replica id.
    var logged: Acknowledgement? {
        var merged: [UUID: Int64] = [:]
        for (replica, sequence) in self.merged {
            guard let id = UUID(uuidString: replica) else { return nil }
            merged[id] = sequence
        }
        var tips: [UUID: UUID] = [:]
        for (replica, operation) in self.tips ?? [:] {
            guard let id = UUID(uuidString: replica) else { return nil }
            tips[id] = operation.rawValue
        }
        return Acknowledgement(replica: replica.rawValue, milliseconds: clock.milliseconds, counter: Int64(clock.counter), merged: merged, tips: tips)
    }
}

extension SyncEngine {
    /// What this store says of itself now, recorded, with every acknowledgement it has heard:
    /// what a file it writes carries.
    ///
    /// They are of the user's own log: what the store and the others say of the lists shared
    /// with it goes to those lists' logs alone.
    public func acknowledgements() async throws -> [SyncAcknowledgement] {
        try await repository.write { transaction in
            try self.acknowledgements(of: nil, in: Self.log(of: transaction)).sorted { $0.replica < $1.replica }
        }
    }

    /// What this store says it holds now, as its replica of `list`'s log or as its own, first,
    /// and what it heard each other replica of that log say, by replica, each of what that log
    /// holds alone: a store of another log would take the rest for operations it lacks.
    func acknowledgements(of list: ItemList.ID?, in log: any LogWriting) throws -> [SyncAcknowledgement] {
        let own = try acknowledge(in: log)
        let logs = try ReplicaLogs(in: log)
        var mine = logs.restricted(own, to: list)
        mine.replica = list.map { Self.sharedReplica(of: $0, under: ReplicaID(rawValue: own.replica)).rawValue } ?? own.replica
        let heard = try log.acknowledgements().filter { !logs.isThisStore($0.replica) && logs.list(of: $0.replica) == list }
        return [SyncAcknowledgement(mine)] + heard.map { SyncAcknowledgement(logs.restricted($0, to: list)) }.sorted { $0.replica < $1.replica }
    }

    /// Records what other replicas said of themselves, newer than what this store heard of each.
    public func hear(_ acknowledgements: [SyncAcknowledgement]) async throws {
        try await repository.write { try self.hear(acknowledgements.compactMap(\.logged), in: Self.log(of: $0)) }
    }
}
