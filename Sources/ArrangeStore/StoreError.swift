public import ArrangeModel
public import Foundation

/// Why a repository refused or failed an operation.
public enum StoreError: Error, Hashable, Sendable {
    /// No list has this id.
    case listNotFound(ItemList.ID)
    /// No item has this id.
    case itemNotFound(Item.ID)
    /// A list with this id exists already.
    case duplicateList(ItemList.ID)
    /// An item with this id exists already.
    case duplicateItem(Item.ID)
    /// An operation with this id is logged already.
    case duplicateOperation(UUID)
    /// No logged operation has this id.
    case operationNotFound(UUID)
    /// A value broke a rule of the model.
    case validation(TitleError)
    /// The database file cannot be used: it is not a database, is damaged, or cannot be opened.
    case unusableDatabase(path: String, reason: String)
    /// The database refused a change: it is read-only, locked for too long, or the disk is full.
    case database(reason: String)
    /// The repository was opened for reading only (a widget's view of an app's database), so
    /// it makes no change; the database was not touched.
    case readOnly(path: String)
    /// The store syncs with other devices, and the change was made without sync, so it would
    /// never reach them; nothing was changed. Reading is unaffected.
    case unloggedChange
}

extension StoreError: CustomStringConvertible {
    /// What went wrong, in a sentence a person can act on.
    public var description: String {
        switch self {
        case .listNotFound(let id): "No list has the id \(id)."
        case .itemNotFound(let id): "No item has the id \(id)."
        case .duplicateList(let id): "A list with the id \(id) exists already."
        case .duplicateItem(let id): "An item with the id \(id) exists already."
        case .duplicateOperation(let id): "An operation with the id \(id.lowercasedString) is logged already."
        case .operationNotFound(let id): "No logged operation has the id \(id.lowercasedString)."
        case .validation(let error): error.description
        case .unusableDatabase(let path, let reason): "Cannot use the database at \(path): \(reason)"
        case .database(let reason): "The database failed: \(reason)"
        case .readOnly(let path):
            "The database at \(path) was opened read-only, so nothing was changed; make the change where the database is open for writing, in the app that owns it."
        case .unloggedChange:
            "This database syncs with other devices, and the change was made with sync turned off, so it would never reach them; nothing was changed. Open the database with sync to change it."
        }
    }
}

extension StoreError: LocalizedError {
    public var errorDescription: String? { description }
}
