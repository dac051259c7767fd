public import ArrangeModel
import Foundation

extension SyncOperation {
    /// The most bytes of JSON one operation may take under the current rules: 16 KiB (16,384).
    ///
    /// In a file, the bytes of the operation's line without its line feed; for a value, the
    /// bytes of its JSON as `OperationFile` writes it.
    public static let maximumEncodedSize = 16_384

    /// The latest clock an operation may carry: the last millisecond of the year 9999 (UTC),
    /// 253,402,300,799,999 milliseconds since 1970. A later one comes from a wrong clock or a
    /// damaged file.
    public static let latestMilliseconds: Int64 = 253_402_300_799_999
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
