import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// Why an intent refused to run. Nothing was written.
///
/// Each case has a stable ``code`` for programs and a ``description`` a person can act on.
public enum IntentError: Error, Hashable, Sendable {
    /// No item matches the reference.
    case unknownItem(String)
    /// An id prefix matches more than one item.
    case ambiguousPrefix(String, matches: Int)
    /// An id prefix is shorter than ``ItemReference/minimumPrefixLength`` hex digits.
    case prefixTooShort(String)
    /// The text is neither `#N`, an id, nor an id prefix.
    case invalidItemReference(String)
    /// `#N` names a position the list does not have (`count` open items).
    case positionOutOfRange(position: Int, count: Int, list: String)
    /// No list has this name or id; `known` names the lists there are.
    case unknownList(String, known: [String])
    /// The default list cannot be deleted.
    case defaultListProtected(String)
    /// An intent that acts on items was given none.
    case noItemsNamed
    /// An offset is negative.
    case negativeOffset(Int)
    /// There is nothing left to undo in this session.
    case nothingToUndo
    /// There is nothing left to redo in this session.
    case nothingToRedo
    /// The store changed outside this session, so a step cannot be undone or redone.
    case historyConflict(action: String, reason: String)

    /// A short, stable name for the error, for programs (`"unknownItem"`, …).
    public var code: String {
        switch self {
        case .unknownItem: "unknownItem"
        case .ambiguousPrefix: "ambiguousPrefix"
        case .prefixTooShort: "prefixTooShort"
        case .invalidItemReference: "invalidReference"
        case .positionOutOfRange: "positionOutOfRange"
        case .unknownList: "unknownList"
        case .defaultListProtected: "defaultListProtected"
        case .noItemsNamed: "nothingToMove"
        case .negativeOffset: "offsetOutOfRange"
        case .nothingToUndo: "nothingToUndo"
        case .nothingToRedo: "nothingToRedo"
        case .historyConflict: "historyConflict"
        }
    }
}

extension IntentError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unknownItem(let reference):
            "No item matches '\(reference)'; use #N from `list`, or the start of an item's id."
        case .ambiguousPrefix(let prefix, let matches):
            "'\(prefix)' matches \(matches) items; type more characters of the id."
        case .prefixTooShort(let prefix):
            "'\(prefix)' is too short; give at least \(ItemReference.minimumPrefixLength) characters of an id, or #N."
        case .invalidItemReference(let text):
            "'\(text)' is not an item reference; use #N (as `list` numbers them), an id, or at least \(ItemReference.minimumPrefixLength) characters of one."
        case .positionOutOfRange(let position, let count, let list) where position < 1:
            "Positions start at #1; '\(list)' has \(count) open item\(count == 1 ? "" : "s")."
        case .positionOutOfRange(let position, let count, let list):
            count == 0
                ? "#\(position) is past the end: '\(list)' has no open items."
                : "#\(position) is past the end: '\(list)' has \(count) open item\(count == 1 ? "" : "s") (#1 to #\(count))."
        case .unknownList(let name, let known):
            "No list is named '\(name)'." + (known.isEmpty ? "" : " Lists: \(known.joined(separator: ", ")).")
        case .defaultListProtected(let name):
            "'\(name)' is the default list and cannot be deleted; set defaultList to another list first."
        case .noItemsNamed:
            "Name at least one item."
        case .negativeOffset(let offset):
            "Offset \(offset) is negative; offsets start at 0."
        case .nothingToUndo:
            "Nothing to undo in this session."
        case .nothingToRedo:
            "Nothing to redo in this session."
        case .historyConflict(let action, let reason):
            "Cannot go back over '\(action)': \(reason)"
        }
    }
}

/// An error as a front end reports it: a stable code and a message.
///
/// ```swift
/// IntentFailure(IntentError.nothingToUndo)  // code "nothingToUndo", message "Nothing to undo in this session."
/// ```
public struct IntentFailure: Error, Hashable, Sendable, Codable {
    /// A short, stable name for the kind of error.
    public var code: String
    /// What went wrong, in a sentence a person can act on.
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// Describes any error an intent can throw.
    public init(_ error: any Error) {
        switch error {
        case let failure as IntentFailure:
            self = failure
        case let error as IntentError:
            self.init(code: error.code, message: error.description)
        case let error as ValidationError:
            self.init(code: Self.code(of: error), message: error.description)
        case let error as StoreError:
            self.init(code: Self.code(of: error), message: error.description)
        case let error as OrderingError:
            self.init(code: Self.code(of: error), message: error.description)
        default:
            self.init(code: "internal", message: String(describing: error))
        }
    }

    private static func code(of error: ValidationError) -> String {
        switch error {
        case .empty(.title): "emptyTitle"
        case .empty(.listName): "emptyListName"
        case .tooLong: "tooLong"
        case .controlCharacter: "controlCharacter"
        case .duplicateListName: "duplicateListName"
        }
    }

    private static func code(of error: StoreError) -> String {
        switch error {
        case .listNotFound: "unknownList"
        case .itemNotFound: "unknownItem"
        case .duplicateList: "duplicateList"
        case .duplicateItem: "duplicateItem"
        case .validation(let error): code(of: error)
        case .unusableDatabase: "unusableDatabase"
        case .database: "database"
        }
    }

    private static func code(of error: OrderingError) -> String {
        switch error {
        case .offsetOutOfRange: "offsetOutOfRange"
        case .nothingToMove: "nothingToMove"
        case .duplicateItems: "duplicateItems"
        case .placedRelativeToItself: "placedRelativeToItself"
        case .anchorInAnotherList: "anchorInAnotherList"
        case .targetListAmbiguous: "targetListAmbiguous"
        }
    }
}

extension IntentFailure: CustomStringConvertible {
    public var description: String { message }
}
