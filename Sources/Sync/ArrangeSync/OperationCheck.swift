import ArrangeModel
public import Foundation

/// The rules every operation that arrives from elsewhere must meet; one that breaks any of them
/// refuses its whole batch, with its position and the reason.
///
/// An operation is refused when:
/// - its `SyncOperation.sequence` is below 1;
/// - its clock's milliseconds are negative or after `SyncOperation.latestMilliseconds` (the
///   end of the year 9999), or the operation a `SyncChange.replacement(of:change:)` replaces
///   has such a sequence or clock;
/// - another operation of the batch has its id but different contents (the same operation
///   twice is fine: the merge applies it once);
/// - a title or a list name has more than `Title.maximumLength` characters;
/// - under the ``Rules/current`` rules only: its notes take more than `Item.maximumNotesSize`
///   bytes as JSON text, or its JSON takes more than
///   `SyncOperation.maximumEncodedSize` bytes.
///
/// The types hold the other rules: a `SyncOperation` value cannot have an id that is not a
/// UUID, or a clock counter outside `UInt32`. ``OperationFile/decode(_:)`` refuses a line that
/// has one, naming the field.
///
/// ## Operations made before the limits
/// The size and notes limits came with version 3 of the operations file. Version 1 and 2 files,
/// and the logs they were exported from, may hold operations made before them: a move of 2,000
/// items takes about 78 KB of JSON, and notes had no limit. Those operations are part of every
/// replica's history, and refusing them would stop those replicas from syncing for good. So
/// ``Rules/carriedForward`` checks all but those two limits, and ``OperationFile/decode(_:)``
/// uses it for files older than version 3, and ``Rules/current`` for version 3. Every
/// version of Arrange has kept titles and list names to 1,000 characters, so both rule sets
/// check them.
///
/// ```swift
/// try OperationCheck.validate(operations, rules: .current)         // a batch made under the current rules
/// try OperationCheck.validate(fromOldLog, rules: .carriedForward)  // may hold older operations
/// ```
public struct OperationCheck: Sendable {
    /// Which rules operations are held to.
    public enum Rules: Hashable, Sendable {
        /// Every rule: for version 3 files, and operations made under these limits.
        case current
        /// Every rule but the size and notes limits: for operations that may have been made
        /// before those limits, as version 1 and 2 files hold.
        case carriedForward

        /// The rules for the operations of a file in format `version`.
        ///
        /// - Parameter version: The version its header names.
        public init(fileVersion version: Int) {
            self = version >= OperationFile.firstVersionWithTrailer ? .current : .carriedForward
        }
    }

    /// The rules this check holds operations to.
    public let rules: Rules
    /// Each id seen so far, with the first operation that had it and its position.
    private var seen: [SyncOperation.ID: (position: Int, operation: SyncOperation)] = [:]

    /// A check of one batch, which has seen no operation yet.
    ///
    /// - Parameter rules: The rules the batch's operations are held to.
    public init(rules: Rules) {
        self.rules = rules
    }

    /// Checks a whole batch, and refuses it at the first operation that breaks a rule.
    ///
    /// ```swift
    /// try OperationCheck.validate([good, good, bad], rules: .current)
    /// // throws OperationCheckError.refused(position: 3, .sequenceBelowOne(0))
    /// ```
    ///
    /// - Parameters:
    ///   - operations: The batch, in the order it arrived.
    ///   - rules: The rules its operations are held to.
    /// - Throws: ``OperationCheckError/refused(position:_:)``, with the 1-based position of
    ///   the first operation that breaks a rule.
    /// - Complexity: O(n) for n operations; under ``Rules/current``, an operation that might take
    ///   more than `SyncOperation.maximumEncodedSize` bytes is encoded to measure it.
    public static func validate(_ operations: some Sequence<SyncOperation>, rules: Rules) throws(OperationCheckError) {
        var check = OperationCheck(rules: rules)
        for (offset, operation) in operations.enumerated() {
            do {
                try check.check(operation, at: offset + 1)
            } catch {
                throw .refused(position: offset + 1, error)
            }
        }
    }

    /// Checks the next operation of the batch.
    ///
    /// - Parameters:
    ///   - operation: The operation.
    ///   - position: Its 1-based position, which a later operation with its id names.
    ///   - encodedSize: The bytes of its JSON when the caller has them (a file's line without its
    ///     line feed), or `nil` to measure them when the rules need it.
    /// - Throws: The `OperationProblem` of the first rule it breaks.
    public mutating func check(_ operation: SyncOperation, at position: Int, encodedSize: Int? = nil) throws(OperationProblem) {
        guard operation.sequence >= 1 else { throw .sequenceBelowOne(operation.sequence) }
        guard Self.isPlausible(operation.clock) else { throw .clockOutOfRange(milliseconds: operation.clock.milliseconds) }
        try operation.change.check(ChangeCheck(checksNotes: rules == .current))
        if rules == .current {
            let size = encodedSize ?? Self.encodedSize(of: operation)
            guard size <= SyncOperation.maximumEncodedSize else { throw .tooLarge(bytes: size) }
        }
        if let first = seen[operation.id] {
            guard first.operation.isSame(as: operation) else { throw .idReused(operation.id, firstPosition: first.position) }
        } else {
            seen[operation.id] = (position, operation)
        }
    }

    private static func isPlausible(_ clock: HLCTimestamp) -> Bool {
        (0...SyncOperation.latestMilliseconds).contains(clock.milliseconds)
    }

    /// The bytes of `operation`'s JSON as the file writes it; an operation that cannot be
    /// encoded counts as too large.
    ///
    /// Encoding costs as much as the rest of the check many times over, so an operation whose
    /// JSON cannot reach the limit by its change's bound, and 512 bytes for its id, replica,
    /// sequence and clock, is not encoded: its bound is given.
    static func encodedSize(of operation: SyncOperation) -> Int {
        if let original = operation.original { return original.count }
        let bound = 512 + operation.change.sizeBound
        guard bound > SyncOperation.maximumEncodedSize else { return bound }
        return (try? SyncCoding.encoder.encode(operation).count) ?? .max
    }
}

/// Why a batch of operations was refused. Nothing of it was merged.
public enum OperationCheckError: Error, Hashable, Sendable {
    /// The operation at `position` (from 1) breaks a rule of ``OperationCheck``.
    case refused(position: Int, OperationProblem)
}

extension OperationCheckError: LocalizedError {
    /// Which operation, and that nothing was merged, in the app's language.
    public var errorDescription: String? {
        switch self {
        case .refused(let position, _): MessageTable.sync.message("OperationCheckError.refused", ["position": "\(position)"])
        }
    }
}

extension OperationCheckError: CustomStringConvertible, CustomDebugStringConvertible {
    /// Which operation, why, and that nothing was merged, in English; a person sees ``errorDescription``.
    public var description: String { debugDescription }

    /// Which operation, why, and that nothing was merged, in English.
    public var debugDescription: String {
        switch self {
        case .refused(let position, let problem):
            "Operation \(position) of the batch is refused: \(problem.reason { "operation \($0)" }) Nothing was merged."
        }
    }
}
