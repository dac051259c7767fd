public import ArrangeModel
public import Foundation

extension SyncOperation {
    /// The most bytes of JSON one operation may take under the current rules: 16 KiB (16,384).
    ///
    /// In a file, the bytes of the operation's line without its line feed; for a value, the
    /// bytes of its JSON as ``OperationFile`` writes it.
    public static let maximumEncodedSize = 16_384

    /// The latest clock an operation may carry: the last millisecond of the year 9999 (UTC),
    /// 253,402,300,799,999 milliseconds since 1970. A later one comes from a wrong clock or a
    /// damaged file.
    public static let latestMilliseconds: Int64 = 253_402_300_799_999
}

/// The rules every operation that arrives from elsewhere must meet; one that breaks any of them
/// refuses its whole batch, with its position and the reason.
///
/// An operation is refused when:
/// - its ``SyncOperation/sequence`` is below 1;
/// - its clock's milliseconds are negative or after ``SyncOperation/latestMilliseconds`` (the
///   end of the year 9999), or the operation a ``SyncChange/replacement(of:change:)`` replaces
///   has such a sequence or clock;
/// - another operation of the batch has its id but different contents (the same operation
///   twice is fine: the merge applies it once);
/// - a title or a list name has more than `Title.maximumLength` characters;
/// - under the ``Rules/current`` rules only: its notes take more than `Item.maximumNotesSize`
///   bytes as JSON text, or its JSON takes more than
///   ``SyncOperation/maximumEncodedSize`` bytes.
///
/// The types hold the other rules: a ``SyncOperation`` value cannot have an id that is not a
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
    ///   more than ``SyncOperation/maximumEncodedSize`` bytes is encoded to measure it.
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
    /// - Throws: The ``OperationProblem`` of the first rule it breaks.
    public mutating func check(_ operation: SyncOperation, at position: Int, encodedSize: Int? = nil) throws(OperationProblem) {
        guard operation.sequence >= 1 else { throw .sequenceBelowOne(operation.sequence) }
        guard Self.isPlausible(operation.clock) else { throw .clockOutOfRange(milliseconds: operation.clock.milliseconds) }
        try check(operation.change)
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

    private func check(_ change: SyncChange) throws(OperationProblem) {
        switch change {
        case .createList(_, let name, _, _), .renameList(_, let name):
            try checkLength(of: name, as: .listName)
        case .createArea(_, let name, _), .renameArea(_, let name):
            try checkLength(of: name, as: .areaName)
        case .addItem(_, _, let title, let notes, _, _):
            try checkLength(of: title, as: .title)
            try checkNotes(notes)
        case .createHeading(_, _, let title, _), .renameHeading(_, let title):
            try checkLength(of: title, as: .title)
        case .editItem(_, let title, let notes):
            if let title { try checkLength(of: title, as: .title) }
            if let notes { try checkNotes(notes) }
        case .addChecklistItem(_, _, let title, _), .editChecklistItem(_, let title):
            try checkLength(of: title, as: .title)
        case .replacement(let original, let change), .renumbering(let original, let change):
            guard original.sequence >= 1, Self.isPlausible(original.clock) else {
                throw .replacedOperationOutOfRange(sequence: original.sequence, milliseconds: original.clock.milliseconds)
            }
            try check(change)
        case .moveList, .deleteList, .completeItems, .reopenItems, .deleteItems, .moveItems, .addToToday, .removeFromToday, .moveInToday, .repairOrder,
            .moveChecklistItems, .completeChecklistItems, .reopenChecklistItems, .deleteChecklistItems, .repairChecklist, .moveArea, .deleteArea, .repairAreas,
            .moveHeading, .deleteHeading, .repairHeadings, .setWhen, .setDeadline, .dismissDeadlines:
            break
        case .unknown, .retireReplica, .leaveForkedReplica:
            // Of a kind this version cannot read, or with nothing to check but its size.
            break
        }
    }

    private func checkLength(of text: String, as field: TitleError.Field) throws(OperationProblem) {
        // Counting characters walks the text: skip it when even one byte each keeps to the limit.
        guard text.utf8.count > Title.maximumLength else { return }
        let length = text.count
        guard length <= Title.maximumLength else { throw .textTooLong(field: field, length: length) }
    }

    private func checkNotes(_ notes: String) throws(OperationProblem) {
        guard rules == .current else { return }
        do {
            try Item.validateNotes(notes)
        } catch {
            throw .notesTooLarge(bytes: Item.notesSize(notes))
        }
    }

    private static func isPlausible(_ clock: HLCTimestamp) -> Bool {
        (0...SyncOperation.latestMilliseconds).contains(clock.milliseconds)
    }

    /// The bytes of `operation`'s JSON as the file writes it; an operation that cannot be
    /// encoded counts as too large.
    ///
    /// Encoding costs as much as the rest of the check many times over, so an operation whose
    /// JSON cannot reach the limit, by ``sizeBound(of:)``, is not encoded: its bound is given.
    static func encodedSize(of operation: SyncOperation) -> Int {
        if let original = operation.original { return original.count }
        let bound = 512 + sizeBound(of: operation.change)
        guard bound > SyncOperation.maximumEncodedSize else { return bound }
        return (try? SyncCoding.encoder.encode(operation).count) ?? .max
    }

    /// More bytes than the JSON of `change` can take, and than the 512 that the rest of an
    /// operation (its id, replica, sequence and clock, with their keys) can take besides: every
    /// id counted with its key at 64 bytes, every text at 6 bytes a UTF-8 byte (`\u001f` for a
    /// control character) and 16 for its key, and 128 for the keys and brackets of each change.
    private static func sizeBound(of change: SyncChange) -> Int {
        let id = 64
        let place = 2 * id + 32
        func text(_ value: String?) -> Int { 16 + 6 * (value?.utf8.count ?? 0) }
        let body = switch change {
        case .createList(_, let name, _, _), .createArea(_, let name, _): 2 * id + text(name) + place
        case .renameList(_, let name), .renameArea(_, let name): id + text(name)
        case .moveList, .moveArea: 2 * id + place
        case .deleteList, .deleteArea, .deleteHeading: id
        case .createHeading(_, _, let title, _): 2 * id + text(title) + place
        case .renameHeading(_, let title): id + text(title)
        case .moveHeading: 2 * id + place
        case .addItem(_, _, let title, let notes, _, _): 3 * id + text(title) + text(notes) + place
        case .editItem(_, let title, let notes): id + text(title) + text(notes)
        case .completeItems(let ids, _): id * ids.count + 64
        case .reopenItems(let ids), .deleteItems(let ids), .removeFromToday(let ids): id * ids.count
        case .setWhen(let ids, _), .setDeadline(let ids, _), .dismissDeadlines(let ids, _): id * ids.count + 64
        case .moveItems(let ids, _, _, _): id * (ids.count + 2) + place
        case .addToToday(let ids, _), .moveInToday(let ids, _): id * ids.count + place
        case .repairOrder, .repairChecklist, .repairAreas: id + 32
        case .repairHeadings: 2 * id + 32
        case .addChecklistItem(_, _, let title, _): 2 * id + text(title) + place
        case .editChecklistItem(_, let title): id + text(title)
        case .moveChecklistItems(let ids, _, _): id * (ids.count + 1) + place
        case .completeChecklistItems(let ids, _): id * ids.count + 64
        case .reopenChecklistItems(let ids), .deleteChecklistItems(let ids): id * ids.count
        case .replacement(_, let change), .renumbering(_, let change): 512 + sizeBound(of: change)
        case .unknown(_, let json): 2 * json.count
        case .retireReplica, .leaveForkedReplica: id
        }
        return 128 + body
    }
}

/// Why one operation was refused.
public enum OperationProblem: Error, Hashable, Sendable {
    /// Its sequence number is below 1, where every replica's sequence starts.
    case sequenceBelowOne(Int64)
    /// Its clock's milliseconds are before 1970 or after ``SyncOperation/latestMilliseconds``.
    case clockOutOfRange(milliseconds: Int64)
    /// The operation its ``SyncChange/replacement(of:change:)`` replaces has a sequence below 1,
    /// or a clock before 1970 or after ``SyncOperation/latestMilliseconds``.
    case replacedOperationOutOfRange(sequence: Int64, milliseconds: Int64)
    /// An operation earlier in the batch, at `firstPosition`, has its id but different contents.
    case idReused(SyncOperation.ID, firstPosition: Int)
    /// This database's log holds another operation under its id.
    case idLoggedOtherwise(SyncOperation.ID)
    /// A title or a list name has more than `Title.maximumLength` characters.
    case textTooLong(field: TitleError.Field, length: Int)
    /// Its notes take more than `Item.maximumNotesSize` bytes as JSON text.
    case notesTooLarge(bytes: Int)
    /// Its JSON takes more than ``SyncOperation/maximumEncodedSize`` bytes.
    case tooLarge(bytes: Int)

    /// Why the operation is refused, as a clause that follows "is refused: ", naming an earlier
    /// operation by `name(position)`.
    public func reason(naming name: (Int) -> String) -> String {
        switch self {
        case .sequenceBelowOne(let sequence):
            "its sequence is \(sequence); sequences start at 1."
        case .clockOutOfRange(let milliseconds) where milliseconds < 0:
            "its clock is \(milliseconds) milliseconds, before 1970; clocks count milliseconds since 1970."
        case .clockOutOfRange(let milliseconds):
            "its clock is \(milliseconds) milliseconds since 1970, after the year 9999; the device that made it has a wrong clock."
        case .replacedOperationOutOfRange(let sequence, let milliseconds):
            "the operation it replaces has sequence \(sequence) and clock \(milliseconds); sequences start at 1 and clocks lie between 1970 and the year 9999."
        case .idReused(let id, let first):
            "its id \(id) is also the id of \(name(first)), which is different; one id names one operation."
        case .idLoggedOtherwise(let id):
            "its id \(id) names another operation in this database's log; one id names one operation."
        case .textTooLong(let field, let length):
            "its \(field.rawValue) has \(length) characters; the limit is \(Title.maximumLength)."
        case .notesTooLarge(let bytes):
            "its notes take \(bytes) bytes; the limit is \(Item.maximumNotesSize)."
        case .tooLarge(let bytes):
            "it takes \(bytes) bytes of JSON; the limit is \(SyncOperation.maximumEncodedSize) (16 KiB)."
        }
    }
}

extension OperationProblem: CustomStringConvertible {
    /// Why the operation is refused, as a clause: "its sequence is 0; sequences start at 1."
    public var description: String { reason { "operation \($0)" } }
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
