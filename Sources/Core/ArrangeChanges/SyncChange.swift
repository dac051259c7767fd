package import ArrangeModel
package import ArrangeStore
public import Foundation

/// What an operation does: one case for each kind of change, and the registry of those kinds.
///
/// Each kind of change is a value type of its own, in a file of its own, which holds its
/// contract name, its JSON, its checks, its size, how it applies and how it is taken back
/// (`ChangeKind`). This enum lists them: a new kind is a new case here, an entry in `kinds`,
/// and, for a kind that tells a difference in a row's fields, an entry in the list of that row's
/// kinds (`itemChanges` and its kin). <doc:AddingAKindOfChange> walks through it.
///
/// Moves of several entries keep them one contiguous run, in the order given. Besides the
/// kinds, three cases carry what sync itself says of operations: a change of a kind this
/// version does not know (``unknown(kind:json:)``), a replacement and a renumbering.
public enum SyncChange: Hashable, Sendable {
    /// ``ListCreated``: a list was created at a place among the lists of an area, or of none (`area` `nil`, and
    case createList(ListCreated)
    /// ``ListRenamed``: a list was renamed.
    case renameList(ListRenamed)
    /// ``ListMoved``: a list was moved to a place among the lists of an area, or of none (`area` `nil`, and
    case moveList(ListMoved)
    /// ``ListDeleted``: a list was deleted with its items and headings.
    case deleteList(ListDeleted)
    /// ``ListFinished``: an open list was finished at a moment, completed or canceled.
    case finishList(ListFinished)
    /// ``ListReopened``: a finished list was reopened.
    case reopenList(ListReopened)
    /// ``ListWhenSet``: a list got a new when: a start date (perhaps in its evening), someday, or anytime.
    case setListWhen(ListWhenSet)
    /// ``ListDeadlineSet``: a list got a deadline, or lost its own (`nil`, absent from the JSON).
    case setListDeadline(ListDeadlineSet)
    /// ``ListCreationDateSet``: a list's moment of creation was set, as given.
    case setListCreatedAt(ListCreationDateSet)
    /// ``ListNotesSet``: a list got new notes.
    case setListNotes(ListNotesSet)
    /// ``ItemAdded``: an item was added to a list at a place, under a heading of it or under none (`heading`
    case addItem(ItemAdded)
    /// ``ItemCreationDateSet``: an item's moment of creation was set, as given.
    case setItemCreatedAt(ItemCreationDateSet)
    /// ``ItemEdited``: an item's title or notes (those given) changed.
    case editItem(ItemEdited)
    /// ``ItemsCompleted``: items were completed at a moment.
    case completeItems(ItemsCompleted)
    /// ``ItemsReopened``: items were reopened.
    case reopenItems(ItemsReopened)
    /// ``ItemsCanceled``: open items were canceled at a moment, as Things' status 2.
    case cancelItems(ItemsCanceled)
    /// ``ItemsDeleted``: items were deleted, from their lists and from Today, with their checklists.
    case deleteItems(ItemsDeleted)
    /// ``ItemsMoved``: items moved, as one run, to a place in a list (their own or another), under a heading of
    case moveItems(ItemsMoved)
    /// ``ItemsAddedToToday``: items joined Today, or moved in it, as one run at a place.
    case addToToday(ItemsAddedToToday)
    /// ``ItemsRemovedFromToday``: items left Today.
    case removeFromToday(ItemsRemovedFromToday)
    /// ``ItemsMovedInToday``: items of Today moved, as one run, to a place in it.
    case moveInToday(ItemsMovedInToday)
    /// ``WhenSet``: items got a new when: a start date (perhaps in its evening), someday, or anytime.
    case setWhen(WhenSet)
    /// ``DeadlineSet``: items got a deadline, or lost theirs (`nil`, absent from the JSON).
    case setDeadline(DeadlineSet)
    /// ``ReminderSet``: items got a reminder, or lost theirs (`nil`, absent from the JSON).
    case setReminder(ReminderSet)
    /// ``RepeatSet``: a repeating series got a rule and a template, new or changed, or was taken off (`rule`
    case setRepeat(RepeatSet)
    /// ``RepeatPaused``: a repeating series stopped making to-dos for now (`paused`), or started again.
    case pauseRepeat(RepeatPaused)
    /// ``RepeatMade``: a repeating series made a to-do from its template, starting on `day`, with an id every
    case makeRepeat(RepeatMade)
    /// ``SeriesSet``: items became to-dos of a repeating series, or stopped being any (`series` `nil`, absent
    case setSeries(SeriesSet)
    /// ``DeadlinesDismissed``: items' deadlines stopped bringing them into Today (`dismissed`), or started again.
    case dismissDeadlines(DeadlinesDismissed)
    /// ``TodayMarksSet``: items got the person's own mark in Today, added or taken out on a day, or lost it.
    case markToday(TodayMarksSet)
    /// ``ChecklistItemAdded``: an entry was added to an item's checklist at a place there.
    case addChecklistItem(ChecklistItemAdded)
    /// ``ChecklistItemRetitled``: a checklist entry got a new title.
    case editChecklistItem(ChecklistItemRetitled)
    /// ``ChecklistItemsMoved``: entries of an item's checklist moved, as one run, to a place in it; entries of another
    case moveChecklistItems(ChecklistItemsMoved)
    /// ``ChecklistItemsCompleted``: checklist entries were completed at a moment.
    case completeChecklistItems(ChecklistItemsCompleted)
    /// ``ChecklistItemsReopened``: checklist entries were reopened.
    case reopenChecklistItems(ChecklistItemsReopened)
    /// ``ChecklistItemsCanceled``: open checklist entries were canceled at a moment, as Things' status 2.
    case cancelChecklistItems(ChecklistItemsCanceled)
    /// ``ChecklistItemsDeleted``: checklist entries were deleted.
    case deleteChecklistItems(ChecklistItemsDeleted)
    /// ``AreaCreated``: an area was created at a place among the areas.
    case createArea(AreaCreated)
    /// ``AreaRenamed``: an area was renamed.
    case renameArea(AreaRenamed)
    /// ``AreaMoved``: an area was moved among the areas.
    case moveArea(AreaMoved)
    /// ``AreaDeleted``: an area was deleted. Its lists stay: those still in it move to the bottom of the lists in
    case deleteArea(AreaDeleted)
    /// ``HeadingCreated``: a heading was created at a place among the headings of a list.
    case createHeading(HeadingCreated)
    /// ``HeadingRenamed``: a heading got a new title.
    case renameHeading(HeadingRenamed)
    /// ``HeadingMoved``: a heading moved to a place among the headings of a list, its own or another; the items
    case moveHeading(HeadingMoved)
    /// ``HeadingDeleted``: a heading was deleted. The items it held are deleted by an ``ItemsDeleted`` before it;
    case deleteHeading(HeadingDeleted)
    /// ``TagCreated``: a tag was created at a place among the children of a tag, or at the top level.
    case createTag(TagCreated)
    /// ``TagRenamed``: a tag was renamed.
    case renameTag(TagRenamed)
    /// ``TagMoved``: a tag moved among the children of a tag, or to the top level, with its children.
    case moveTag(TagMoved)
    /// ``TagDeleted``: a tag was deleted with its children.
    case deleteTag(TagDeleted)
    /// ``TagsRepaired``: the keys of a tag's children, or of the tags at the top level, were repaired or spread evenly.
    case repairTags(TagsRepaired)
    /// ``TagsChanged``: tags were set on items, lists or areas, or taken off them.
    case changeTags(TagsChanged)
    /// ``ItemsTrashed``: items were moved to the Trash at a moment.
    case trashItems(ItemsTrashed)
    /// ``ItemsPutBack``: items were put back from the Trash.
    case restoreItems(ItemsPutBack)
    /// ``ListsTrashed``: lists were moved to the Trash at a moment, each with what it holds.
    case trashLists(ListsTrashed)
    /// ``ListsPutBack``: lists were put back from the Trash, each with what went there with it.
    case restoreLists(ListsPutBack)
    /// ``HeadingsTrashed``: headings were moved to the Trash at a moment, each with the items under it.
    case trashHeadings(HeadingsTrashed)
    /// ``HeadingsPutBack``: headings were put back from the Trash, each with what went there with it.
    case restoreHeadings(HeadingsPutBack)
    /// ``HeadingsRepaired``: the keys of a list's headings (`heading` `nil`) or of the items under one of its headings
    case repairHeadings(HeadingsRepaired)
    /// ``OrderRepaired``: the keys of an ordering were repaired (`normalize` false: ties and cramped gaps only) or
    case repairOrder(OrderRepaired)
    /// ``ChecklistRepaired``: the keys of an item's checklist were repaired or spread evenly, as ``OrderRepaired`` tells of
    case repairChecklist(ChecklistRepaired)
    /// ``AreasRepaired``: the keys of the areas (`area` `nil`) or of an area's lists were repaired or spread evenly: a
    case repairAreas(AreasRepaired)
    /// ``ReplicaRetired``: a replica was forgotten: a database that is gone (a lost phone, a file retired after a
    case retireReplica(ReplicaRetired)
    /// ``ForkedReplicaLeft``: a database left its replica id `id` on finding another line of that id's history: a copy
    case leaveForkedReplica(ForkedReplicaLeft)
    /// A change of a kind this version does not know, from a newer version of Arrange: `kind`
    /// is its name and `json` its JSON as it came. The merge keeps it in its place and passes it
    /// on, but does not apply it; a version that knows the kind applies it there.
    case unknown(kind: String, json: Data)
    /// The change of an operation that reached a replica after it had folded away the operations
    /// around it, made again there as an operation of its own. The operation it replaces is
    /// not applied anywhere, and of several replacements of one operation only the first, in
    /// the total order, is (see `SyncEngine`).
    indirect case replacement(of: OperationReference, change: SyncChange)
    /// An operation of a line of history that two databases made under one replica id (a copy,
    /// a restored backup), stated again under the new id of the database that made it, so that
    /// each replica's operations form one line again. It changes nothing itself: the operation
    /// it carries applies in its own place, on every replica, whether the original or this
    /// reached it first, and where the original was folded away this adds nothing.
    indirect case renumbering(of: OperationReference, change: SyncChange)

    /// Every kind of change this version knows.
    package static let kinds: [any ChangeKind.Type] = [
        ListCreated.self,
        ListRenamed.self,
        ListMoved.self,
        ListDeleted.self,
        ListFinished.self,
        ListReopened.self,
        ListWhenSet.self,
        ListDeadlineSet.self,
        ListCreationDateSet.self,
        ListNotesSet.self,
        ItemAdded.self,
        ItemCreationDateSet.self,
        ItemEdited.self,
        ItemsCompleted.self,
        ItemsReopened.self,
        ItemsCanceled.self,
        ItemsDeleted.self,
        ItemsMoved.self,
        ItemsAddedToToday.self,
        ItemsRemovedFromToday.self,
        ItemsMovedInToday.self,
        WhenSet.self,
        DeadlineSet.self,
        DeadlinesDismissed.self,
        TodayMarksSet.self,
        ReminderSet.self,
        RepeatSet.self,
        RepeatPaused.self,
        RepeatMade.self,
        SeriesSet.self,
        ChecklistItemAdded.self,
        ChecklistItemRetitled.self,
        ChecklistItemsMoved.self,
        ChecklistItemsCompleted.self,
        ChecklistItemsReopened.self,
        ChecklistItemsCanceled.self,
        ChecklistItemsDeleted.self,
        AreaCreated.self,
        AreaRenamed.self,
        AreaMoved.self,
        AreaDeleted.self,
        HeadingCreated.self,
        HeadingRenamed.self,
        HeadingMoved.self,
        HeadingDeleted.self,
        TagCreated.self,
        TagRenamed.self,
        TagMoved.self,
        TagDeleted.self,
        TagsRepaired.self,
        TagsChanged.self,
        ItemsTrashed.self,
        ItemsPutBack.self,
        ListsTrashed.self,
        ListsPutBack.self,
        HeadingsTrashed.self,
        HeadingsPutBack.self,
        HeadingsRepaired.self,
        OrderRepaired.self,
        ChecklistRepaired.self,
        AreasRepaired.self,
        ReplicaRetired.self,
        ForkedReplicaLeft.self,
    ]

    /// The kinds that tell a difference in an item's fields, in the order they tell it.
    package static let itemChanges: [any FieldChange<Item>.Type] = [
        ItemEdited.self, ItemsReopened.self, ItemsCompleted.self, ItemsCanceled.self, WhenSet.self, DeadlineSet.self, DeadlinesDismissed.self,
        TodayMarksSet.self, ReminderSet.self, SeriesSet.self, ItemCreationDateSet.self, ItemsPutBack.self, ItemsTrashed.self,
    ]
    /// The kinds that tell a difference in a list's fields.
    package static let listChanges: [any FieldChange<ItemList>.Type] = [
        ListRenamed.self, ListReopened.self, ListFinished.self, ListWhenSet.self, ListDeadlineSet.self, ListCreationDateSet.self, ListNotesSet.self, ListsPutBack.self, ListsTrashed.self,
    ]
    /// The kinds that tell a difference in an area's fields.
    package static let areaChanges: [any FieldChange<Area>.Type] = [AreaRenamed.self]
    /// The kinds that tell a difference in a tag's fields.
    package static let tagChanges: [any FieldChange<Tag>.Type] = [TagRenamed.self]
    /// The kinds that tell a difference in a heading's fields.
    package static let headingChanges: [any FieldChange<Heading>.Type] = [HeadingRenamed.self, HeadingsPutBack.self, HeadingsTrashed.self]
    /// The kinds that tell a difference in a checklist entry's fields, in the order they tell it.
    package static let checklistItemChanges: [any FieldChange<ChecklistItem>.Type] = [
        ChecklistItemRetitled.self, ChecklistItemsReopened.self, ChecklistItemsCompleted.self, ChecklistItemsCanceled.self,
    ]

    // MARK: Which kind makes, moves and deletes each row

    /// The change that adds `item`, as it is, at `place`.
    package static func creation(of item: Item, at place: SyncPlace) -> any ReversibleKind {
        ItemAdded(id: item.id, list: item.listID, title: item.title, notes: item.notes, place: place, heading: item.heading)
    }

    /// The change that creates `list`, as it is, at `place`.
    package static func creation(of list: ItemList, at place: SyncPlace) -> any ReversibleKind {
        ListCreated(id: list.id, name: list.name, place: place, area: list.area)
    }

    /// The change that creates `heading`, as it is, at `place`.
    package static func creation(of heading: Heading, at place: SyncPlace) -> any ReversibleKind {
        HeadingCreated(id: heading.id, list: heading.listID, title: heading.title, place: place)
    }

    /// The change that creates `area`, as it is, at `place`.
    package static func creation(of area: Area, at place: SyncPlace) -> any ReversibleKind {
        AreaCreated(id: area.id, name: area.name, place: place)
    }

    /// The change that creates `tag`, as it is, at `place`.
    package static func creation(of tag: Tag, at place: SyncPlace) -> any ReversibleKind {
        TagCreated(id: tag.id, name: tag.name, parent: tag.parent, place: place)
    }

    /// The change that adds the checklist entry `entry`, as it is, at `place`.
    package static func creation(of entry: ChecklistItem, at place: SyncPlace) -> any ReversibleKind {
        ChecklistItemAdded(id: entry.id, item: entry.itemID, title: entry.title, place: place)
    }

    /// The change that closes items at `moment`, as completed or as canceled: what takes back
    /// their reopening.
    package static func closing(_ ids: [Item.ID], at moment: Date, canceled: Bool) -> any ReversibleKind {
        canceled ? ItemsCanceled(ids: ids, at: moment) : ItemsCompleted(ids: ids, at: moment)
    }

    /// The change that reopens items: what takes back their closing.
    package static func reopening(_ ids: [Item.ID]) -> any ReversibleKind { ItemsReopened(ids: ids) }

    /// The change that closes checklist entries at `moment`, ticked off or canceled: what takes
    /// back their reopening.
    package static func closing(_ ids: [ChecklistItem.ID], at moment: Date, canceled: Bool) -> any ReversibleKind {
        canceled ? ChecklistItemsCanceled(ids: ids, at: moment) : ChecklistItemsCompleted(ids: ids, at: moment)
    }

    /// The change that reopens checklist entries: what takes back their closing.
    package static func reopening(_ ids: [ChecklistItem.ID]) -> any ReversibleKind { ChecklistItemsReopened(ids: ids) }

    /// The change that deletes items: what takes back their creation.
    package static func deletion(ofItems ids: [Item.ID]) -> any ReversibleKind { ItemsDeleted(ids: ids) }

    /// The change that deletes checklist entries: what takes back their creation.
    package static func deletion(ofChecklistItems ids: [ChecklistItem.ID]) -> any ReversibleKind { ChecklistItemsDeleted(ids: ids) }

    /// The change that deletes a list with its items: what takes back its creation.
    package static func deletion(ofList id: ItemList.ID) -> any ReversibleKind { ListDeleted(id: id) }

    /// The change that deletes a heading: what takes back its creation.
    package static func deletion(ofHeading id: Heading.ID) -> any ReversibleKind { HeadingDeleted(id: id) }

    /// The change that deletes a tag with its children: what takes back its creation.
    package static func deletion(ofTag id: Tag.ID) -> any ReversibleKind { TagDeleted(id: id) }

    /// The change that deletes an area: what takes back its creation.
    package static func deletion(ofArea id: Area.ID) -> any ReversibleKind { AreaDeleted(id: id) }

    /// The change that takes items out of Today: what takes back their joining it.
    package static func removal(fromToday ids: [Item.ID]) -> any ReversibleKind { ItemsRemovedFromToday(ids: ids) }

    /// The changes that place a run of entries of an ordering between its neighbours, as each
    /// ordering is logged: the move kind of its ordering; lists and areas one at a time, each
    /// after the one before it; in Today, a join of Today for items not in it yet (`joining`).
    package static func placing(_ run: ChangeRecord.Run, joining: [Item.ID], in store: any ItemReading) throws -> [SyncChange] {
        let place = SyncPlace(after: run.neighbours.after, before: run.neighbours.before)
        let items = run.entries.map { Item.ID(entry: $0) }
        switch run.scope {
        case .items(let list):
            return [.moveItems(ids: items, list: list, place: place)]
        case .heading(let heading):
            return [.moveItems(ids: items, list: try store.existingHeading(id: heading).listID, place: place, heading: heading)]
        case .headings(let list):
            return run.oneAtATime { .moveHeading(id: Heading.ID(entry: $0), list: list, place: $1) }
        case .today:
            return [joining.isEmpty ? .moveInToday(ids: items, place: place) : .addToToday(ids: items, place: place)]
        case .lists, .area:
            let area: Area.ID? = if case .area(let area) = run.scope { area } else { nil }
            return run.oneAtATime { .moveList(id: ItemList.ID(entry: $0), place: $1, area: area) }
        case .areas:
            return run.oneAtATime { .moveArea(id: Area.ID(entry: $0), place: $1) }
        case .tags(let parent):
            return run.oneAtATime { .moveTag(id: Tag.ID(entry: $0), parent: parent, place: $1) }
        case .checklist(let item):
            return [.moveChecklistItems(ids: run.entries.map { ChecklistItem.ID(entry: $0) }, item: item, place: place)]
        }
    }

    /// The change that repairs (or, `normalized`, spreads) the keys of an ordering, as each
    /// ordering is logged.
    package static func repairing(_ scope: OrderScope, normalized: Bool, in store: any ItemReading) throws -> SyncChange {
        switch scope {
        case .checklist(let item): .repairChecklist(item: item, normalize: normalized)
        case .areas: .repairAreas(area: nil, normalize: normalized)
        case .tags(let parent): .repairTags(parent: parent, normalize: normalized)
        case .area(let area): .repairAreas(area: area, normalize: normalized)
        case .headings(let list): .repairHeadings(list: list, heading: nil, normalize: normalized)
        case .heading(let heading): .repairHeadings(list: try store.existingHeading(id: heading).listID, heading: heading, normalize: normalized)
        case .items, .lists, .today: .repairOrder(scope: scope, normalize: normalized)
        }
    }

    /// The change as a value of its kind; `nil` for a change of an unknown kind, a replacement
    /// and a renumbering, which are not of a kind.
    package var kind: (any ChangeKind)? {
        switch self {
        case .createList(let change): change
        case .renameList(let change): change
        case .moveList(let change): change
        case .deleteList(let change): change
        case .finishList(let change): change
        case .reopenList(let change): change
        case .setListWhen(let change): change
        case .setListDeadline(let change): change
        case .setListCreatedAt(let change): change
        case .setListNotes(let change): change
        case .addItem(let change): change
        case .setItemCreatedAt(let change): change
        case .editItem(let change): change
        case .completeItems(let change): change
        case .reopenItems(let change): change
        case .cancelItems(let change): change
        case .deleteItems(let change): change
        case .moveItems(let change): change
        case .addToToday(let change): change
        case .removeFromToday(let change): change
        case .moveInToday(let change): change
        case .setWhen(let change): change
        case .setDeadline(let change): change
        case .setReminder(let change): change
        case .setRepeat(let change): change
        case .pauseRepeat(let change): change
        case .makeRepeat(let change): change
        case .setSeries(let change): change
        case .dismissDeadlines(let change): change
        case .markToday(let change): change
        case .addChecklistItem(let change): change
        case .editChecklistItem(let change): change
        case .moveChecklistItems(let change): change
        case .completeChecklistItems(let change): change
        case .reopenChecklistItems(let change): change
        case .cancelChecklistItems(let change): change
        case .deleteChecklistItems(let change): change
        case .createArea(let change): change
        case .renameArea(let change): change
        case .moveArea(let change): change
        case .deleteArea(let change): change
        case .createHeading(let change): change
        case .renameHeading(let change): change
        case .moveHeading(let change): change
        case .deleteHeading(let change): change
        case .createTag(let change): change
        case .renameTag(let change): change
        case .moveTag(let change): change
        case .deleteTag(let change): change
        case .repairTags(let change): change
        case .changeTags(let change): change
        case .trashItems(let change): change
        case .restoreItems(let change): change
        case .trashLists(let change): change
        case .restoreLists(let change): change
        case .trashHeadings(let change): change
        case .restoreHeadings(let change): change
        case .repairHeadings(let change): change
        case .repairOrder(let change): change
        case .repairChecklist(let change): change
        case .repairAreas(let change): change
        case .retireReplica(let change): change
        case .leaveForkedReplica(let change): change
        case .unknown, .replacement, .renumbering: nil
        }
    }
}

extension ChangeRecord.Run {
    /// The run told one entry at a time, as lists and areas are logged: each placed after the
    /// one before it.
    fileprivate func oneAtATime(_ move: (OrderEntry.ID, SyncPlace) -> SyncChange) -> [SyncChange] {
        entries.enumerated().map { index, entry in
            let after = index == 0 ? neighbours.after : entries[index - 1]
            let before = index + 1 < entries.count ? entries[index + 1] : neighbours.before
            return move(entry, SyncPlace(after: after, before: before))
        }
    }
}

/// A kind of change that undo can take back.
package typealias ReversibleKind = ChangeKind & ReversibleChange
