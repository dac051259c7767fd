import ArrangeModel
public import Foundation

/// Why a link of Things' URL scheme was refused. Nothing was written.
///
/// Each case has an ``errorDescription`` a person can act on; ``filling(_:)`` hands it to a
/// link's `x-error` callback as Things does.
public enum ThingsLinkError: Error, Hashable, Sendable {
    /// The text is not a link.
    case malformedLink
    /// The link's scheme is neither `things` nor `arrange`.
    case unknownScheme(String)
    /// The link names no command of the scheme.
    case unknownCommand(String)
    /// The link gives a parameter twice.
    case repeatedParameter(String)
    /// The command needs this parameter, and the link lacks it.
    case missingParameter(String)
    /// A parameter's value is not of the form it takes.
    case invalidValue(parameter: String, value: String)
    /// The link creates or updates more than ``ThingsLink/maximumObjects`` objects.
    case tooManyObjects(Int)
    /// `data` is not a JSON array.
    case malformedJSON
    /// The top-level object of `data` at this 1-based place cannot be read.
    case invalidObject(number: Int, reason: ThingsObjectProblem)
    /// The top-level object of `data` at this 1-based place was refused; `reason` says why.
    case refusedObject(number: Int, reason: String)
    /// The link updates, and the store has no token yet.
    case noToken
    /// The link updates, and gives no `auth-token`.
    case missingToken
    /// The link's `auth-token` is not the store's.
    case wrongToken
    /// No to-do has the id the link gives.
    case unknownToDo(String)
    /// No list has the id or the name the link gives.
    case unknownList(String)
    /// No area has the id or the name the link gives.
    case unknownArea(String)
    /// No heading of the list has the id the link gives.
    case unknownHeading(String)
    /// The link names an area where a to-do's list goes: Arrange keeps to-dos in lists.
    case toDoInArea(String)
    /// The link names a heading, and no project (list) for it.
    case headingWithoutProject
    /// A date of creation or completion is later than now.
    case futureDate(parameter: String)
    /// A project's when ends with a time: lists take no reminder.
    case reminderOnProject(String)
    /// No tag has the name a view's filter gives.
    case unknownTag(String)
    /// No to-do or list has the id a `show` link gives.
    case nothingWithID(String)
    /// A to-do's notes run to this many characters, over ``ThingsLink/maximumNotesLength``.
    case notesTooLong(Int)
}

/// Why one object of a `json` link's `data` cannot be read.
public enum ThingsObjectProblem: Error, Hashable, Sendable {
    /// It is not a JSON object.
    case notAnObject
    /// It has no `type`.
    case missingType
    /// Its `type` is not one this place holds.
    case unknownType(String)
    /// Its `operation` is neither `create` nor `update`.
    case unknownOperation(String)
    /// It updates, and has no `id`.
    case updateWithoutID
    /// An attribute's value is not of the form it takes.
    case wrongForm(attribute: String, expected: ThingsValueForm)
    /// A heading outside a project's `items`.
    case headingOutsideProject
    /// A checklist item outside a to-do's `checklist-items`.
    case checklistItemOutsideToDo
    /// An archived heading: Arrange's headings are not archived.
    case archivedHeading
    /// A to-do in a project's `items` that updates: those are created.
    case updateInProject
}

/// The forms of the values of a `json` link's attributes.
public enum ThingsValueForm: String, Hashable, Sendable {
    case text, boolean, date, array, object, names
}

extension ThingsLinkError: LocalizedError {
    /// What went wrong, in the app's language, in a sentence a person can act on.
    public var errorDescription: String? {
        let table = MessageTable.intents
        return switch self {
        case .malformedLink: table.message("ThingsLinkError.malformedLink")
        case .unknownScheme(let scheme): table.message("ThingsLinkError.unknownScheme", ["scheme": scheme])
        case .unknownCommand(let command):
            table.message("ThingsLinkError.unknownCommand", ["command": command, "commands": ThingsLink.Command.allCases.map(\.rawValue).joined(separator: ", ")])
        case .repeatedParameter(let name): table.message("ThingsLinkError.repeatedParameter", ["name": name])
        case .missingParameter(let name): table.message("ThingsLinkError.missingParameter", ["name": name])
        case .invalidValue(let name, let value): table.message("ThingsLinkError.invalidValue", ["name": name, "value": value])
        case .tooManyObjects(let count): table.message("ThingsLinkError.tooManyObjects", ["count": String(count), "maximum": String(ThingsLink.maximumObjects)])
        case .malformedJSON: table.message("ThingsLinkError.malformedJSON")
        case .invalidObject(let number, let reason): table.message("ThingsLinkError.invalidObject", ["number": String(number), "reason": reason.message])
        case .refusedObject(let number, let reason): table.message("ThingsLinkError.refusedObject", ["number": String(number), "reason": reason])
        case .noToken: table.message("ThingsLinkError.noToken")
        case .missingToken: table.message("ThingsLinkError.missingToken")
        case .wrongToken: table.message("ThingsLinkError.wrongToken")
        case .unknownToDo(let id): table.message("ThingsLinkError.unknownToDo", ["id": id])
        case .unknownList(let name): table.message("ThingsLinkError.unknownList", ["name": name])
        case .unknownArea(let name): table.message("ThingsLinkError.unknownArea", ["name": name])
        case .unknownHeading(let name): table.message("ThingsLinkError.unknownHeading", ["name": name])
        case .toDoInArea(let name): table.message("ThingsLinkError.toDoInArea", ["name": name])
        case .headingWithoutProject: table.message("ThingsLinkError.headingWithoutProject")
        case .futureDate(let name): table.message("ThingsLinkError.futureDate", ["name": name])
        case .reminderOnProject(let when): table.message("ThingsLinkError.reminderOnProject", ["when": when])
        case .unknownTag(let name): table.message("ThingsLinkError.unknownTag", ["name": name])
        case .nothingWithID(let id): table.message("ThingsLinkError.nothingWithID", ["id": id])
        case .notesTooLong(let length):
            table.message("ThingsLinkError.notesTooLong", ["length": String(length), "maximum": String(ThingsLink.maximumNotesLength)])
        }
    }

    /// `callback` with the failure added as Things adds it: `errorMessage`, for a link's `x-error`.
    public func filling(_ callback: URL) -> URL {
        ThingsCallback.filling(callback, with: [("errorMessage", errorDescription ?? "")])
    }
}

extension ThingsObjectProblem {
    /// Why the object cannot be read, in the app's language.
    public var message: String {
        let table = MessageTable.intents
        return switch self {
        case .notAnObject: table.message("ThingsObjectProblem.notAnObject")
        case .missingType: table.message("ThingsObjectProblem.missingType")
        case .unknownType(let type): table.message("ThingsObjectProblem.unknownType", ["type": type])
        case .unknownOperation(let operation): table.message("ThingsObjectProblem.unknownOperation", ["operation": operation])
        case .updateWithoutID: table.message("ThingsObjectProblem.updateWithoutID")
        case .wrongForm(let attribute, let form):
            table.message("ThingsObjectProblem.wrongForm", ["attribute": attribute, "form": table.message("ThingsValueForm.\(form.rawValue)")])
        case .headingOutsideProject: table.message("ThingsObjectProblem.headingOutsideProject")
        case .checklistItemOutsideToDo: table.message("ThingsObjectProblem.checklistItemOutsideToDo")
        case .archivedHeading: table.message("ThingsObjectProblem.archivedHeading")
        case .updateInProject: table.message("ThingsObjectProblem.updateInProject")
        }
    }
}

/// The callbacks of x-callback-url, filled in.
public enum ThingsCallback {
    /// `callback` with `values` added to its query, percent-encoded: what a link's `x-success`
    /// or `x-error` callback is opened with.
    public static func filling(_ callback: URL, with values: [(String, String)]) -> URL {
        guard var components = URLComponents(url: callback, resolvingAgainstBaseURL: false) else { return callback }
        components.queryItems = (components.queryItems ?? []) + values.map { URLQueryItem(name: $0.0, value: $0.1) }
        // `URLQueryItem` leaves `+` as it is, which a server may read as a space.
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return components.url ?? callback
    }
}
