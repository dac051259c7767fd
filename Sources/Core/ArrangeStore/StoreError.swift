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
    /// No checklist entry has this id.
    case checklistItemNotFound(ChecklistItem.ID)
    /// A checklist entry with this id exists already.
    case duplicateChecklistItem(ChecklistItem.ID)
    /// No area has this id.
    case areaNotFound(Area.ID)
    /// An area with this id exists already.
    case duplicateArea(Area.ID)
    /// No tag has this id.
    case tagNotFound(Tag.ID)
    /// A tag with this id exists already.
    case duplicateTag(Tag.ID)
    /// No heading has this id.
    case headingNotFound(Heading.ID)
    /// A heading with this id exists already.
    case duplicateHeading(Heading.ID)
    /// No repeating series has this id.
    case seriesNotFound(Series.ID)
    /// A repeating series with this id exists already.
    case duplicateSeries(Series.ID)
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
    /// never reach them; nothing was changed. Reading is unaffected. A store that has never
    /// synced takes changes without sync.
    case unloggedChange
}

extension StoreError: CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, in English, with the ids and paths a developer needs; a person sees
    /// ``errorDescription``.
    public var description: String { debugDescription }

    /// What went wrong, in English, with the ids and paths a developer needs.
    public var debugDescription: String {
        switch self {
        case .listNotFound(let id): "No list has the id \(id)."
        case .itemNotFound(let id): "No item has the id \(id)."
        case .duplicateList(let id): "A list with the id \(id) exists already."
        case .duplicateItem(let id): "An item with the id \(id) exists already."
        case .checklistItemNotFound(let id): "No checklist entry has the id \(id)."
        case .duplicateChecklistItem(let id): "A checklist entry with the id \(id) exists already."
        case .areaNotFound(let id): "No area has the id \(id)."
        case .tagNotFound(let id): "No tag has the id \(id)."
        case .duplicateTag(let id): "A tag with the id \(id) exists already."
        case .duplicateArea(let id): "An area with the id \(id) exists already."
        case .headingNotFound(let id): "No heading has the id \(id)."
        case .seriesNotFound(let id): "No repeating series has the id \(id)."
        case .duplicateSeries(let id): "A repeating series with the id \(id) exists already."
        case .duplicateHeading(let id): "A heading with the id \(id) exists already."
        case .duplicateOperation(let id): "An operation with the id \(id.lowercasedString) is logged already."
        case .operationNotFound(let id): "No logged operation has the id \(id.lowercasedString)."
        case .validation(let error): error.debugDescription
        case .unusableDatabase(let path, let reason): "Cannot use the database at \(path): \(reason)"
        case .database(let reason): "The database failed: \(reason)"
        case .readOnly(let path):
            "The database at \(path) was opened read-only, so nothing was changed; make the change where the database is open for writing, in the app that owns it."
        case .unloggedChange:
            "This database syncs with other devices, and the change was made with sync turned off, so it would never reach them; nothing was changed. Change it through an environment given its sync engine (IntentEnvironment's sync:)."
        }
    }
}

extension StoreError: LocalizedError {
    /// What went wrong, in the app's language, in a sentence a person can act on.
    public var errorDescription: String? {
        let table = MessageTable.store
        return switch self {
        case .listNotFound: table.message("StoreError.listNotFound")
        case .itemNotFound: table.message("StoreError.itemNotFound")
        case .duplicateList: table.message("StoreError.duplicateList")
        case .duplicateItem: table.message("StoreError.duplicateItem")
        case .checklistItemNotFound: table.message("StoreError.checklistItemNotFound")
        case .duplicateChecklistItem: table.message("StoreError.duplicateChecklistItem")
        case .areaNotFound: table.message("StoreError.areaNotFound")
        case .duplicateArea: table.message("StoreError.duplicateArea")
        case .tagNotFound: table.message("StoreError.tagNotFound")
        case .duplicateTag: table.message("StoreError.duplicateTag")
        case .headingNotFound: table.message("StoreError.headingNotFound")
        case .duplicateHeading: table.message("StoreError.duplicateHeading")
        case .seriesNotFound: table.message("StoreError.seriesNotFound")
        case .duplicateSeries: table.message("StoreError.duplicateSeries")
        case .duplicateOperation: table.message("StoreError.duplicateOperation")
        case .operationNotFound: table.message("StoreError.operationNotFound")
        case .validation(let error): error.errorDescription
        case .unusableDatabase: table.message("StoreError.unusableDatabase")
        case .database: table.message("StoreError.database")
        case .readOnly: table.message("StoreError.readOnly")
        case .unloggedChange: table.message("StoreError.unloggedChange")
        }
    }
}
