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
    /// No checklist entry has this id.
    case unknownChecklistItem(ChecklistItem.ID)
    /// No area has this id.
    case unknownArea(Area.ID)
    /// No heading has this id.
    case unknownHeading(Heading.ID)
    /// No tag has this id, nor merged into another.
    case unknownTag(Tag.ID)
    /// No repeating series has this id: its repeat was taken off, or it never was.
    case unknownSeries(Series.ID)
    /// `upcoming` was asked to project repeating to-dos further than this many days.
    case projectionTooLong(Int)
    /// An intent that acts on tags was given none.
    case noTagsNamed
    /// A tag cannot go under itself or one of its own descendants: `tag` is the one moved.
    case tagCycle(tag: String, parent: String)
    /// The heading named is of another list than the one meant.
    case headingInAnotherList(heading: Heading.ID, list: ItemList.ID)
    /// An intent that acts on checklist entries was given none.
    case noChecklistItemsNamed
    /// The store has no default list yet, and an intent that only reads cannot create one.
    case noDefaultList
    /// The default list cannot be deleted; this is its name.
    case defaultListProtected(String)
    /// The default list cannot be completed or canceled, as new items go to it; this is its name.
    case defaultListStaysOpen(String)
    /// The default list cannot be put off to someday, out of the sidebar, as new items go to
    /// it; this is its name.
    case defaultListStaysInSidebar(String)
    /// An intent that acts on items was given none.
    case noItemsNamed
    /// A reminder was given with a when that has no day (someday or anytime): it fires on a start date.
    case reminderWithoutDay
    /// An offset is negative.
    case negativeOffset(Int)
    /// A page was asked to hold this many items, fewer than one.
    case emptyPage(Int)
    /// An item that must be in Today is not.
    case notInToday(Item.ID)
    /// There is nothing left to undo in this session.
    case nothingToUndo
    /// There is nothing left to redo in this session.
    case nothingToRedo
    /// A step of the history cannot be undone or redone: another step comes first, or the
    /// store changed outside this session so that the step no longer fits. `action` is the
    /// step's ``UndoStep/actionName``.
    case historyConflict(action: String, reason: HistoryConflict)
    /// An intent that declares itself read-only tried to write: a mistake in the intent.
    case readOnlyIntent(String)
    /// The item, list or heading so named is not in the Trash, and cannot be put back from it
    /// or emptied out of it.
    case notInTrash(String)
    /// The item `item` is in the Trash with its list or heading `container`, and comes back
    /// with it, not alone.
    case inTrashWith(item: String, container: String)
    /// The item so named is in the Trash: it is put back before it is completed, canceled or reopened.
    case inTrash(String)
    /// An intent that puts things back from the Trash was given none.
    case nothingToRestore
    /// The item, heading or checklist entry so named would move between list `from` and list
    /// `to`, one shared with other people and the other not, or shared with others: a shared
    /// list's things stay in it.
    case crossesShare(String, from: String, to: String)
    /// The list so named is shared with the user by `owner` to view: it changes in nothing
    /// every member sees.
    case viewOnlyList(String, owner: String)
    /// The list so named is shared with the user by `owner`, who alone deletes it for every
    /// member; the user leaves it instead, through the sync server, and keeps what it holds.
    case sharedListOfAnother(String, owner: String)
}

extension IntentError: LocalizedError {
    /// What went wrong, in the app's language, in a sentence a person can act on.
    public var errorDescription: String? {
        let table = MessageTable.intents
        return switch self {
        case .unknownItem: table.message("IntentError.unknownItem")
        case .unknownList: table.message("IntentError.unknownList")
        case .unknownChecklistItem: table.message("IntentError.unknownChecklistItem")
        case .unknownArea: table.message("IntentError.unknownArea")
        case .unknownHeading: table.message("IntentError.unknownHeading")
        case .unknownTag: table.message("IntentError.unknownTag")
        case .unknownSeries: table.message("IntentError.unknownSeries")
        case .projectionTooLong(let days): table.message("IntentError.projectionTooLong", ["days": String(days)])
        case .noTagsNamed: table.message("IntentError.noTagsNamed")
        case .tagCycle(let tag, let parent): table.message("IntentError.tagCycle", ["tag": tag, "parent": parent])
        case .headingInAnotherList: table.message("IntentError.headingInAnotherList")
        case .noChecklistItemsNamed: table.message("IntentError.noChecklistItemsNamed")
        case .noDefaultList: table.message("IntentError.noDefaultList")
        case .defaultListProtected(let name): table.message("IntentError.defaultListProtected", ["name": name])
        case .defaultListStaysOpen(let name): table.message("IntentError.defaultListStaysOpen", ["name": name])
        case .defaultListStaysInSidebar(let name): table.message("IntentError.defaultListStaysInSidebar", ["name": name])
        case .noItemsNamed: table.message("IntentError.noItemsNamed")
        case .reminderWithoutDay: table.message("IntentError.reminderWithoutDay")
        case .negativeOffset(let offset): table.message("IntentError.negativeOffset", ["offset": "\(offset)"])
        case .emptyPage(let limit): table.message("IntentError.emptyPage", ["limit": "\(limit)"])
        case .notInToday: table.message("IntentError.notInToday")
        case .nothingToUndo: table.message("IntentError.nothingToUndo")
        case .nothingToRedo: table.message("IntentError.nothingToRedo")
        case .historyConflict(let action, let reason): table.message("IntentError.historyConflict", ["action": action, "reason": reason.message])
        case .readOnlyIntent(let action): table.message("IntentError.readOnlyIntent", ["action": action])
        case .notInTrash(let title): table.message("IntentError.notInTrash", ["title": title])
        case .inTrashWith(let item, let container): table.message("IntentError.inTrashWith", ["item": item, "container": container])
        case .inTrash(let title): table.message("IntentError.inTrash", ["title": title])
        case .nothingToRestore: table.message("IntentError.nothingToRestore")
        case .crossesShare(let title, let from, let to): table.message("IntentError.crossesShare", ["title": title, "from": from, "to": to])
        case .viewOnlyList(let list, let owner): table.message("IntentError.viewOnlyList", ["list": list, "owner": owner])
        case .sharedListOfAnother(let list, let owner): table.message("IntentError.sharedListOfAnother", ["list": list, "owner": owner])
        }
    }
}

extension IntentError: CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, in English, with the ids a developer needs; a person sees
    /// ``errorDescription``.
    public var description: String { debugDescription }

    /// What went wrong, in English, with the ids a developer needs.
    public var debugDescription: String {
        switch self {
        case .unknownItem(let id):
            "No item has the id \(id); it may have been deleted."
        case .unknownList(let id):
            "No list has the id \(id); it may have been deleted."
        case .unknownChecklistItem(let id):
            "No checklist entry has the id \(id); it may have been deleted."
        case .unknownArea(let id):
            "No area has the id \(id); it may have been deleted."
        case .unknownHeading(let id):
            "No heading has the id \(id); it may have been deleted."
        case .unknownTag(let id):
            "No tag has the id \(id); it may have been deleted."
        case .unknownSeries(let id):
            "No repeating to-do has the id \(id); its repeat may have been taken off."
        case .projectionTooLong(let days):
            "Upcoming projects repeating to-dos \(days) days ahead at most; name an earlier day to project through."
        case .noTagsNamed:
            "Name at least one tag."
        case .tagCycle(let tag, let parent) where tag == parent:
            "The tag '\(tag)' cannot go under itself."
        case .tagCycle(let tag, let parent):
            "The tag '\(tag)' cannot go under '\(parent)', which is one of its own children; move '\(parent)' out first."
        case .headingInAnotherList(let heading, let list):
            "Heading \(heading) is not in the list \(list); name a heading of that list."
        case .noChecklistItemsNamed:
            "Name at least one checklist entry."
        case .noDefaultList:
            "There is no default list yet; create a list or add an item first."
        case .defaultListProtected(let name):
            "'\(name)' is the default list and cannot be deleted."
        case .defaultListStaysOpen(let name):
            "'\(name)' is the default list, where new items go, and cannot be completed or canceled."
        case .defaultListStaysInSidebar(let name):
            "'\(name)' is the default list, where new items go, and cannot be put off to someday."
        case .noItemsNamed:
            "Name at least one item."
        case .reminderWithoutDay:
            "A reminder fires on a start date; give a day with it, or leave the reminder out."
        case .negativeOffset(let offset):
            "Offset \(offset) is negative; offsets start at 0."
        case .emptyPage(let limit):
            "A page of \(limit) items holds nothing; ask for at least 1."
        case .notInToday(let id):
            "Item \(id) is not in Today; add it to Today first."
        case .nothingToUndo:
            "Nothing to undo in this session."
        case .nothingToRedo:
            "Nothing to redo in this session."
        case .historyConflict(let action, let reason):
            "Cannot go back over '\(action)': \(reason.debugDescription)"
        case .readOnlyIntent(let action):
            "'\(action)' tried to change the store while reading it; this is a bug in Arrange."
        case .notInTrash(let title):
            "'\(title)' is not in the Trash."
        case .inTrashWith(let item, let container):
            "'\(item)' is in the Trash with '\(container)'; put '\(container)' back to bring it back."
        case .inTrash(let title):
            "'\(title)' is in the Trash; put it back first."
        case .nothingToRestore:
            "Name at least one item, list or heading to put back."
        case .crossesShare(let title, let from, let to):
            "'\(title)' cannot move from '\(from)' to '\(to)': a list shared with other people keeps its own things, and takes none from another list."
        case .viewOnlyList(let list, let owner):
            "'\(list)' is shared with you by \(owner) to view: you cannot change it; your Today, its place in your sidebar, reminders and tags stay yours to set."
        case .sharedListOfAnother(let list, let owner):
            "'\(list)' is shared with you by \(owner), who alone deletes it for everyone; leave it instead, and what it holds stays yours."
        }
    }
}

/// Why a step of the undo history cannot be taken: another step comes first, or the store
/// changed since, on this device or another, so that taking the step would undo someone
/// else's change.
public enum HistoryConflict: Hashable, Sendable {
    /// The step meant (`Undo(expecting:)`) is no longer in the history.
    case notInHistory
    /// A newer step comes first: undo that one.
    case newerChangeFirst
    /// A step undone after the one meant comes first: redo that one.
    case undoneChangeFirst
    /// A list the step changed no longer exists.
    case listGone(ItemList.ID)
    /// An item the step changed no longer exists.
    case itemGone(Item.ID)
    /// An item the step changed is no longer in Today.
    case itemLeftToday(Item.ID)
    /// A list the step deleted, named so, exists again.
    case listExistsAgain(name: String)
    /// An item the step deleted exists again.
    case itemExistsAgain(Item.ID)
    /// The list the step created has become the default list, which is not deleted.
    case becameDefault(name: String)
    /// The entry before a place the step takes back is no longer in that ordering; `listName`
    /// names the list, for a list's items.
    case neighbourGone(OrderEntry.ID, in: OrderScope, listName: String?)
    /// An item's field was edited since the step, and taking the step would overwrite that.
    case editedSince(EditedField, item: Item.ID, title: String)
    /// A checklist entry the step changed no longer exists.
    case checklistItemGone(ChecklistItem.ID)
    /// An area the step changed, or a list's area, no longer exists.
    case areaGone(Area.ID)
    /// An area the step deleted, named so, exists again.
    case areaExistsAgain(name: String)
    /// A heading the step changed, or an item's heading, no longer exists.
    case headingGone(Heading.ID)
    /// A heading the step deleted exists again.
    case headingExistsAgain(title: String)
    /// A tag the step changed no longer exists.
    case tagGone(Tag.ID)
    /// A tag the step deleted, named so, exists again.
    case tagExistsAgain(name: String)
    /// A checklist entry the step deleted exists again.
    case checklistItemExistsAgain(ChecklistItem.ID)
    /// A checklist entry was retitled, completed or reopened since the step, and taking the
    /// step would overwrite that.
    case checklistItemEditedSince(entry: ChecklistItem.ID, title: String)
    /// A list was finished or reopened since the step, and taking the step would overwrite that.
    case listEditedSince(list: ItemList.ID, name: String)
    /// An item, a list or a heading, so named, went to the Trash or came back from it since
    /// the step, and taking the step would overwrite that.
    case trashedOrPutBackSince(title: String)

    /// A field of an item that a step edits.
    public enum EditedField: String, Hashable, Sendable {
        case title, notes, completion, when, deadline, reminder
    }

    /// Why, in the app's language, as a clause after "Cannot go back over “Move Items”: ".
    public var message: String {
        let table = MessageTable.intents
        return switch self {
        case .notInHistory: table.message("HistoryConflict.notInHistory")
        case .newerChangeFirst: table.message("HistoryConflict.newerChangeFirst")
        case .undoneChangeFirst: table.message("HistoryConflict.undoneChangeFirst")
        case .listGone: table.message("HistoryConflict.listGone")
        case .itemGone: table.message("HistoryConflict.itemGone")
        case .itemLeftToday: table.message("HistoryConflict.itemLeftToday")
        case .listExistsAgain(let name): table.message("HistoryConflict.listExistsAgain", ["name": name])
        case .itemExistsAgain: table.message("HistoryConflict.itemExistsAgain")
        case .becameDefault(let name): table.message("HistoryConflict.becameDefault", ["name": name])
        case .neighbourGone(_, .today, _): table.message("HistoryConflict.neighbourGone.today")
        case .neighbourGone(_, .lists, _): table.message("HistoryConflict.neighbourGone.lists")
        case .neighbourGone(_, .items, let name): table.message("HistoryConflict.neighbourGone.list", ["name": name ?? ""])
        case .neighbourGone(_, .checklist, _): table.message("HistoryConflict.neighbourGone.checklist")
        case .neighbourGone(_, .areas, _): table.message("HistoryConflict.neighbourGone.areas")
        case .neighbourGone(_, .area, _): table.message("HistoryConflict.neighbourGone.area")
        case .neighbourGone(_, .headings, _): table.message("HistoryConflict.neighbourGone.headings")
        case .neighbourGone(_, .heading, _): table.message("HistoryConflict.neighbourGone.heading")
        case .headingGone: table.message("HistoryConflict.headingGone")
        case .headingExistsAgain(let title): table.message("HistoryConflict.headingExistsAgain", ["title": title])
        case .tagGone: table.message("HistoryConflict.tagGone")
        case .tagExistsAgain(let name): table.message("HistoryConflict.tagExistsAgain", ["name": name])
        case .neighbourGone(_, .tags, _): table.message("HistoryConflict.neighbourGone.tags")
        case .areaGone: table.message("HistoryConflict.areaGone")
        case .areaExistsAgain(let name): table.message("HistoryConflict.areaExistsAgain", ["name": name])
        case .editedSince(let field, _, let title): table.message("HistoryConflict.editedSince.\(field.rawValue)", ["title": title])
        case .checklistItemGone: table.message("HistoryConflict.checklistItemGone")
        case .checklistItemExistsAgain: table.message("HistoryConflict.checklistItemExistsAgain")
        case .checklistItemEditedSince(_, let title): table.message("HistoryConflict.checklistItemEditedSince", ["title": title])
        case .listEditedSince(_, let name): table.message("HistoryConflict.listEditedSince", ["name": name])
        case .trashedOrPutBackSince(let title): table.message("HistoryConflict.trashedOrPutBackSince", ["title": title])
        }
    }
}

extension HistoryConflict: CustomDebugStringConvertible {
    /// Why, in English, with the ids a developer needs.
    public var debugDescription: String {
        switch self {
        case .notInHistory: "the change meant is no longer in the history."
        case .newerChangeFirst: "a newer change came after it; undo that first."
        case .undoneChangeFirst: "a change undone after it comes first."
        case .listGone(let id): "list \(id) no longer exists."
        case .itemGone(let id): "item \(id) no longer exists."
        case .itemLeftToday(let id): "item \(id) is no longer in Today."
        case .listExistsAgain(let name): "the list '\(name)' exists again."
        case .itemExistsAgain(let id): "item \(id) exists again."
        case .becameDefault(let name): "'\(name)' has become the default list, which is not deleted."
        case .neighbourGone(let entry, .today, _): "what was before it (\(entry)) is no longer in Today."
        case .neighbourGone(let entry, .lists, _): "what was before it (\(entry)) is no longer in the order of the lists."
        case .neighbourGone(let entry, .items, let name): "what was before it (\(entry)) is no longer in '\(name ?? "")'."
        case .neighbourGone(let entry, .checklist(let item), _): "what was before it (\(entry)) is no longer in the checklist of item \(item)."
        case .neighbourGone(let entry, .areas, _): "what was before it (\(entry)) is no longer among the areas."
        case .neighbourGone(let entry, .area(let area), _): "what was before it (\(entry)) is no longer in the area \(area)."
        case .neighbourGone(let entry, .headings(let list), _): "what was before it (\(entry)) is no longer among the headings of list \(list)."
        case .neighbourGone(let entry, .heading(let heading), _): "what was before it (\(entry)) is no longer under the heading \(heading)."
        case .areaGone(let id): "area \(id) no longer exists."
        case .headingGone(let id): "heading \(id) no longer exists."
        case .headingExistsAgain(let title): "the heading '\(title)' exists again."
        case .tagGone(let id): "tag \(id) no longer exists."
        case .tagExistsAgain(let name): "the tag '\(name)' exists again."
        case .neighbourGone(let entry, .tags(let parent), _):
            "what was before it (\(entry)) is no longer among the \(parent.map { "children of the tag \($0)" } ?? "tags at the top level")."
        case .areaExistsAgain(let name): "the area '\(name)' exists again."
        case .editedSince(let field, _, let title): "the \(field == .when ? "date" : field.rawValue) of '\(title)' has changed since."
        case .checklistItemGone(let id): "checklist entry \(id) no longer exists."
        case .checklistItemExistsAgain(let id): "checklist entry \(id) exists again."
        case .checklistItemEditedSince(_, let title): "the checklist entry '\(title)' has changed since."
        case .listEditedSince(_, let name): "the list '\(name)' was finished or reopened since."
        case .trashedOrPutBackSince(let title): "'\(title)' went to the Trash or came back from it since."
        }
    }
}
