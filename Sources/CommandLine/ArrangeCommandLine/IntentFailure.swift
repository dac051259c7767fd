import ArgumentParser
import ArrangeArchive
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import ArrangeSync
import ArrangeSyncHTTPCore
import Foundation

/// An error as the command line reports it: a stable code for programs and a message for people.
///
/// ```swift
/// IntentFailure(IntentError.nothingToUndo)  // code "nothingToUndo", message "Nothing to undo in this session."
/// ```
///
/// The codes are part of the JSON Lines protocol; docs/json-lines.md lists them.
public struct IntentFailure: Error, Hashable, Sendable, Codable {
    /// A short, stable name for the kind of error.
    public var code: String
    /// What went wrong, in a sentence a person can act on.
    public var message: String

    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// Describes any error a request can end in.
    public init(_ error: any Error) {
        // The command line keeps the core's English, with its ids and paths (the errors'
        // debug descriptions), where an app shows their messages in the person's language.
        let english = String(describing: error)
        let message = (error as? any LocalizedError)?.errorDescription ?? english
        switch error {
        case let failure as IntentFailure: self = failure
        case let error as ReferenceError: self.init(code: error.code, message: message)
        case let error as IntentError: self.init(code: Self.code(of: error), message: Self.withHint(english, for: error))
        case let error as TitleError: self.init(code: Self.code(of: error), message: english)
        case let error as StoreError: self.init(code: Self.code(of: error), message: english)
        case let error as OrderingError: self.init(code: Self.code(of: error), message: english)
        case let error as ArchiveError: self.init(code: Self.code(of: error), message: english)
        case let error as OperationFileError: self.init(code: Self.code(of: error), message: english)
        case let error as SyncError: self.init(code: Self.code(of: error), message: english)
        case is OperationCheckError: self.init(code: "invalidOperations", message: english)
        case is WhenPhraseError: self.init(code: "invalidWhen", message: english)
        case let error as ThingsLinkError: self.init(code: Self.code(of: error), message: Self.withHint(message, for: error))
        case let error as ValidationError: self.init(code: "invalidRequest", message: error.message)
        case let error as SyncServerError: self.init(code: error.code.rawValue, message: english)
        case is HTTPSyncError: self.init(code: "serverUnreachable", message: english)
        default: self.init(code: "internal", message: message)
        }
    }

    private static func code(of error: IntentError) -> String {
        switch error {
        case .unknownItem: "unknownItem"
        case .unknownList: "unknownList"
        case .unknownChecklistItem: "unknownChecklistItem"
        case .unknownArea: "unknownArea"
        case .unknownHeading: "unknownHeading"
        case .unknownTag: "unknownTag"
        case .unknownSeries: "unknownSeries"
        case .projectionTooLong: "projectionTooLong"
        case .noTagsNamed: "noTags"
        case .tagCycle: "tagCycle"
        case .headingInAnotherList: "headingInAnotherList"
        case .noChecklistItemsNamed: "noChecklistItems"
        case .noDefaultList: "noDefaultList"
        case .defaultListProtected: "defaultListProtected"
        case .defaultListStaysOpen: "defaultListStaysOpen"
        case .defaultListStaysInSidebar: "defaultListStaysInSidebar"
        case .noItemsNamed: "noItems"
        case .reminderWithoutDay: "reminderWithoutDay"
        case .negativeOffset: "offsetOutOfRange"
        case .emptyPage: "emptyPage"
        case .notInToday: "notInToday"
        case .nothingToUndo: "nothingToUndo"
        case .nothingToRedo: "nothingToRedo"
        case .historyConflict: "historyConflict"
        case .readOnlyIntent: "internal"
        case .notInTrash: "notInTrash"
        case .inTrashWith: "inTrashWith"
        case .inTrash: "inTrash"
        case .nothingToRestore: "nothingToRestore"
        case .crossesShare: "crossesShare"
        case .viewOnlyList: "viewOnlyList"
        case .sharedListOfAnother: "sharedListOfAnother"
        }
    }

    /// The core's message, with what to do about it on the command line.
    private static func withHint(_ message: String, for error: IntentError) -> String {
        switch error {
        case .defaultListProtected, .defaultListStaysOpen, .defaultListStaysInSidebar: message + " Make another list the default first (the defaultList setting)."
        case .noItemsNamed: message + " Use #N (as `list` numbers them), an id, or the start of one."
        default: message
        }
    }

    private static func code(of error: ThingsLinkError) -> String {
        switch error {
        case .malformedLink, .unknownScheme, .unknownCommand, .repeatedParameter, .missingParameter, .invalidValue, .tooManyObjects: "invalidLink"
        case .malformedJSON, .invalidObject: "invalidLinkData"
        case .refusedObject: "refusedLinkObject"
        case .noToken: "noLinkToken"
        case .missingToken, .wrongToken: "wrongLinkToken"
        case .unknownToDo, .nothingWithID: "unknownItem"
        case .unknownList, .toDoInArea: "unknownList"
        case .unknownArea: "unknownArea"
        case .unknownHeading, .headingWithoutProject: "unknownHeading"
        case .unknownTag: "unknownTag"
        case .futureDate, .reminderOnProject: "unsupportedLinkValue"
        case .notesTooLong: "notesTooLarge"
        }
    }

    /// The core's message, with the command that makes a link token.
    private static func withHint(_ message: String, for error: ThingsLinkError) -> String {
        switch error {
        case .noToken: message + " Run 'arrange url --new-token' to make it."
        default: message
        }
    }

    private static func code(of error: TitleError) -> String {
        switch error {
        case .empty(.title): "emptyTitle"
        case .empty(.listName): "emptyListName"
        case .empty(.areaName): "emptyAreaName"
        case .empty(.tagName): "emptyTagName"
        case .tooLong: "tooLong"
        case .controlCharacter: "controlCharacter"
        case .duplicateListName: "duplicateListName"
        case .duplicateAreaName: "duplicateAreaName"
        case .duplicateTagName: "duplicateTagName"
        case .notesTooLarge: "notesTooLarge"
        }
    }

    private static func code(of error: StoreError) -> String {
        switch error {
        case .listNotFound: "unknownList"
        case .itemNotFound: "unknownItem"
        case .duplicateList: "duplicateList"
        case .duplicateItem: "duplicateItem"
        case .checklistItemNotFound: "unknownChecklistItem"
        case .duplicateChecklistItem: "duplicateChecklistItem"
        case .areaNotFound: "unknownArea"
        case .duplicateArea: "duplicateArea"
        case .tagNotFound: "unknownTag"
        case .duplicateTag: "duplicateTag"
        case .headingNotFound: "unknownHeading"
        case .duplicateHeading: "duplicateHeading"
        case .seriesNotFound: "unknownSeries"
        case .duplicateSeries: "duplicateSeries"
        case .duplicateOperation: "duplicateOperation"
        case .operationNotFound: "unknownOperation"
        case .validation(let error): code(of: error)
        case .unusableDatabase: "unusableDatabase"
        case .database: "database"
        case .readOnly: "readOnly"
        case .unloggedChange: "unloggedChange"
        }
    }

    private static func code(of error: OperationFileError) -> String {
        switch error {
        case .newerVersion: "newerOperations"
        case .missingHeader, .truncated, .badLine, .missingTrailer, .badTrailer, .lineAfterTrailer, .countMismatch, .digestMismatch, .refusedOperation,
             .unexpectedSnapshot, .notASnapshot, .badSnapshotLine:
            "invalidOperations"
        }
    }

    private static func code(of error: SyncError) -> String {
        switch error {
        case .foldedApart: "foldedApart"
        case .missingFoldedOperations: "missingFoldedOperations"
        case .noOperationLog: "noOperationLog"
        case .unrecordedChange: "unrecordedChange"
        case .cannotForgetThisDatabase: "cannotForgetThisDatabase"
        case .unknownReplica: "unknownReplica"
        case .unknownCursor: "unknownCursor"
        case .replicaInUse: "replicaInUse"
        case .clockAhead: "clockAhead"
        case .sharedListGone: "sharedListGone"
        }
    }

    private static func code(of error: ArchiveError) -> String {
        switch error {
        case .newerVersion: "newerArchive"
        case .malformed, .notAnArchive, .invalid: "invalidArchive"
        }
    }

    private static func code(of error: OrderingError) -> String {
        switch error {
        case .offsetOutOfRange: "offsetOutOfRange"
        case .nothingToMove: "nothingToMove"
        case .duplicateItems: "duplicateItems"
        case .placedRelativeToItself: "placedRelativeToItself"
        case .anchorInAnotherList: "anchorInAnotherList"
        case .tagUnderAnotherParent: "tagUnderAnotherParent"
        case .anchorNotInToday: "anchorNotInToday"
        case .targetListAmbiguous: "targetListAmbiguous"
        case .notInChecklist: "notInChecklist"
        case .anchorInAnotherArea: "anchorInAnotherArea"
        case .anchorUnderAnotherHeading: "anchorUnderAnotherHeading"
        case .headingInAnotherList: "headingInAnotherList"
        }
    }
}

extension IntentFailure: CustomStringConvertible {
    public var description: String { message }
}
