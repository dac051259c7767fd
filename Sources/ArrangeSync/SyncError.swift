public import Foundation

/// Why sync refused to merge. Nothing was merged.
public enum SyncError: Error, Hashable, Sendable {
    /// Two replicas each folded away operations the other never had: an operation one of them
    /// folded into its rows, the other replaced, so no order of the two histories fits both.
    case foldedApart
    /// Operations come from a replica that folded away operations this store never received:
    /// it must take a snapshot from a store that has them first.
    case missingFoldedOperations
}

extension SyncError: LocalizedError {
    /// What happened, and what it means for the person, in a sentence.
    public var errorDescription: String? {
        switch self {
        case .foldedApart:
            "These two databases each folded away operations the other never received, so their histories cannot be merged; their lists and items are unchanged."
        case .missingFoldedOperations:
            "The operations come after operations that were folded into a snapshot, and this database lacks some of them: it must take that snapshot first; nothing was merged."
        }
    }
}
