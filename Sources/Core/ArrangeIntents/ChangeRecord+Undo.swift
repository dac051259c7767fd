import ArrangeChanges
import ArrangeModel
import ArrangeStore
import Foundation

/// Taking changes back: what ``Undo`` and ``Redo`` do with the records of a step.
///
/// A step of the history is the records an intent made, in the order made. Undoing it takes
/// each back, last first, by applying the inverse it recorded; taking a change back is itself a
/// change, which records what it does, and those records are the step that ``Redo`` takes back
/// in turn. So undo and redo need no inverse of their own, and when the environment syncs, they
/// log what they do as any intent does.
///
/// Places are neighbours, never raw `sortIndex` values: a later insert may have re-spread the
/// neighbours' keys, and putting an old key back could land an entry in the wrong place. An
/// entry goes back directly after the entry that was before it in its ordering, through the
/// ordering service, which picks a fresh key (and re-spreads if the gap is full).
extension ChangeRecord {
    /// Takes the change back in the transaction of `context`, which records what that does.
    ///
    /// - Parameter action: The title of the step, for error messages.
    /// - Throws: ``IntentError/historyConflict(action:reason:)`` when the store changed outside
    ///   the session so that the change can no longer be taken back.
    func takeBack(in context: IntentContext, action: String) throws {
        let transaction = try context.writing(action)
        do {
            switch self {
            case .applied(let change, let inverse):
                if let conflict = try change.conflict(in: transaction) { throw conflict }
                for change in inverse { try context.apply(change, action: action) }
            case .placed(_, let joining, let inverse):
                for id in joining where try transaction.item(id: id) == nil { throw ChangeConflict.itemGone(id) }
                for change in inverse { try context.apply(change, action: action) }
            case .keysRepaired, .rowsWritten:
                // Never a step of the history.
                break
            }
        } catch let conflict as ChangeConflict {
            throw IntentError.historyConflict(action: action, reason: HistoryConflict(conflict))
        }
    }
}

extension HistoryConflict {
    /// The conflict that keeps a change from being taken back, as the history tells it.
    init(_ conflict: ChangeConflict) {
        self = switch conflict {
        case .listGone(let id): .listGone(id)
        case .itemGone(let id): .itemGone(id)
        case .checklistItemGone(let id): .checklistItemGone(id)
        case .areaGone(let id): .areaGone(id)
        case .headingGone(let id): .headingGone(id)
        case .tagGone(let id): .tagGone(id)
        case .tagExistsAgain(let name): .tagExistsAgain(name: name)
        case .itemLeftToday(let id): .itemLeftToday(id)
        case .itemEditedSince(let field, let item): .editedSince(EditedField(field), item: item.id, title: item.title)
        case .checklistItemEditedSince(let entry): .checklistItemEditedSince(entry: entry.id, title: entry.title)
        case .listEditedSince(let list): .listEditedSince(list: list.id, name: list.name)
        case .trashedOrPutBackSince(let title): .trashedOrPutBackSince(title: title)
        case .listExistsAgain(let name): .listExistsAgain(name: name)
        case .itemExistsAgain(let id): .itemExistsAgain(id)
        case .checklistItemExistsAgain(let id): .checklistItemExistsAgain(id)
        case .areaExistsAgain(let name): .areaExistsAgain(name: name)
        case .headingExistsAgain(let title): .headingExistsAgain(title: title)
        case .becameDefault(let name): .becameDefault(name: name)
        case .neighbourGone(let entry, let scope, let listName): .neighbourGone(entry, in: scope, listName: listName)
        }
    }
}

extension HistoryConflict.EditedField {
    /// The field a change edits.
    init(_ field: ChangeConflict.ItemField) {
        self = switch field {
        case .title: .title
        case .notes: .notes
        case .completion: .completion
        case .when: .when
        case .deadline: .deadline
        case .reminder: .reminder
        }
    }
}
