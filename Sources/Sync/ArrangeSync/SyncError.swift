public import ArrangeModel
public import Foundation

/// Why sync refused to merge. Nothing was merged.
public enum SyncError: Error, Hashable, Sendable {
    /// Two replicas each folded away operations the other never had: an operation one of them
    /// folded into its rows, the other replaced, so no order of the two histories fits both.
    case foldedApart
    /// Operations come from a replica that folded away operations this store never received:
    /// it must take a snapshot from a store that has them first.
    case missingFoldedOperations
    /// The store's backend keeps no operation log, so its changes cannot be logged or merged.
    case noOperationLog
    /// A change wrote lists or items and recorded nothing, so it could not be logged and would
    /// never reach the other replicas; nothing was changed. It is a mistake in the code that
    /// made the change, not in the data.
    case unrecordedChange
    /// The remote no longer holds the history this store's cursor points into, as when it was
    /// restored from a backup: the store pulls from the start again.
    case unknownCursor
    /// The remote says another database syncs under this database's replica id: one of them is
    /// a copy of the other, or a backup restored beside it. The store leaves that id for a new
    /// one, and pushes again.
    case replicaInUse
    /// The remote refused operations stamped too far ahead of its clock, which it gave in
    /// milliseconds since 1970: this device's clock is ahead. The store tells the time by the
    /// remote's clock from then on, stamps its operations again, and pushes again.
    case clockAhead(remoteClock: Int64)
    /// The replica to forget is this database's own.
    case cannotForgetThisDatabase
    /// The replica to forget is none this database knows of.
    case unknownReplica
    /// The snapshot of a shared list's log, which a store that lacked what the server folded
    /// away took, holds no such list: it was deleted there. Nothing of the list was merged.
    case sharedListGone(ItemList.ID)
}

extension SyncError: LocalizedError {
    /// What happened, and what it means for the person, in the app's language.
    public var errorDescription: String? {
        let table = MessageTable.sync
        return switch self {
        case .foldedApart: table.message("SyncError.foldedApart")
        case .missingFoldedOperations: table.message("SyncError.missingFoldedOperations")
        case .noOperationLog: table.message("SyncError.noOperationLog")
        case .unrecordedChange: table.message("SyncError.unrecordedChange")
        case .unknownCursor: table.message("SyncError.unknownCursor")
        case .replicaInUse: table.message("SyncError.replicaInUse")
        case .clockAhead: table.message("SyncError.clockAhead")
        case .cannotForgetThisDatabase: table.message("SyncError.cannotForgetThisDatabase")
        case .unknownReplica: table.message("SyncError.unknownReplica")
        case .sharedListGone: table.message("SyncError.sharedListGone")
        }
    }
}

extension SyncError: CustomStringConvertible, CustomDebugStringConvertible {
    /// What happened, in English, as the command line and logs say it; a person sees
    /// ``errorDescription``.
    public var description: String { debugDescription }

    /// What happened, in English, as the command line and logs say it.
    public var debugDescription: String {
        switch self {
        case .foldedApart:
            "These two databases each folded away operations the other never received, so their histories cannot be merged; their lists and items are unchanged."
        case .missingFoldedOperations:
            "The operations come after operations that were folded into a snapshot, and this database lacks some of them: it must take that snapshot first; nothing was merged."
        case .unknownCursor:
            "The sync server no longer holds the history this database last pulled from, as after it was restored from a backup; syncing again pulls everything from the start."
        case .replicaInUse:
            "Another database syncs as this one: one of them is a copy of the other. Syncing again gives this one an identity of its own; nothing is lost."
        case .clockAhead:
            "This device's clock is ahead of the sync server's, and its changes are stamped with the wrong time; set the device's clock right, then sync again. Nothing was lost."
        case .noOperationLog:
            "This store keeps no log of its changes, so it cannot sync; nothing was changed."
        case .cannotForgetThisDatabase:
            "That replica is this database; a database cannot forget itself. Forget it from another device."
        case .unknownReplica:
            "This database knows of no such replica; list those it knows of, and forget one of them."
        case .unrecordedChange:
            "A change was made without being recorded, so it could not be synced; nothing was changed. This is a mistake in Arrange, not in your data: please report it."
        case .sharedListGone(let list):
            "Shared list \(list.rawValue.lowercasedString) was deleted on the sync server; nothing of it was merged, and the rest syncs on."
        }
    }
}
