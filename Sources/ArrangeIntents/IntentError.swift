public import ArrangeModel
public import Foundation

/// Why an intent refused to run. Nothing was written.
///
/// Each case has an ``errorDescription`` a person can act on, whatever the front end; a front
/// end that names things its own way adds its own hints.
public enum IntentError: Error, Hashable, Sendable {
    /// No item has this id.
    case unknownItem(Item.ID)
    /// No list has this id.
    case unknownList(ItemList.ID)
    /// The store has no default list yet, and an intent that only reads cannot create one.
    case noDefaultList
    /// The default list cannot be deleted; this is its name.
    case defaultListProtected(String)
    /// An intent that acts on items was given none.
    case noItemsNamed
    /// An offset is negative.
    case negativeOffset(Int)
    /// An item that must be in Today is not.
    case notInToday(Item.ID)
    /// There is nothing left to undo in this session.
    case nothingToUndo
    /// There is nothing left to redo in this session.
    case nothingToRedo
    /// The store changed outside this session, so a step cannot be undone or redone.
    case historyConflict(action: String, reason: String)
    /// An intent that declares itself read-only tried to write: a mistake in the intent.
    case readOnlyIntent(String)
}

extension IntentError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .unknownItem(let id):
            "No item has the id \(id); it may have been deleted."
        case .unknownList(let id):
            "No list has the id \(id); it may have been deleted."
        case .noDefaultList:
            "There is no default list yet; create a list or add an item first."
        case .defaultListProtected(let name):
            "'\(name)' is the default list and cannot be deleted."
        case .noItemsNamed:
            "Name at least one item."
        case .negativeOffset(let offset):
            "Offset \(offset) is negative; offsets start at 0."
        case .notInToday(let id):
            "Item \(id) is not in Today; add it to Today first."
        case .nothingToUndo:
            "Nothing to undo in this session."
        case .nothingToRedo:
            "Nothing to redo in this session."
        case .historyConflict(let action, let reason):
            "Cannot go back over '\(action)': \(reason)"
        case .readOnlyIntent(let action):
            "'\(action)' tried to change the store while reading it; this is a bug in Arrange."
        }
    }
}

extension IntentError: CustomStringConvertible {
    /// The ``errorDescription``.
    public var description: String { errorDescription ?? "" }
}
