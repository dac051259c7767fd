import ArrangeModel
import ArrangeStore
import Foundation

extension SyncChange {
    /// The operations that tell a change an intent recorded, read against the store as the
    /// change left it: what sync logs for it.
    ///
    /// ``ChangeRecord/rowsWritten`` tells nothing by itself: the change it stands for is told by
    /// its rows, once the whole change is made.
    static func changes(telling record: ChangeRecord, in transaction: any ItemReading) throws -> [SyncChange] {
        switch record {
        case .itemAdded(let item, let neighbours):
            return [.addItem(id: item.id, list: item.listID, title: item.title, notes: item.notes, place: SyncPlace(neighbours), heading: item.heading)]
        case .itemsDeleted(let ids, _):
            return [.deleteItems(ids: ids)]
        case .restored(let lists, let headings, let items, let checklistItems):
            return try changes(
                bringingLists: Dictionary(uniqueKeysWithValues: lists.map { ($0, nil) }),
                items: Dictionary(uniqueKeysWithValues: items.map { ($0, nil) }),
                checklistItems: Dictionary(uniqueKeysWithValues: checklistItems.map { ($0, nil) }),
                headings: Dictionary(uniqueKeysWithValues: headings.map { ($0, nil) }),
                upToDateIn: transaction)
        case .moved(let run, let joining, _):
            let place = SyncPlace(run.neighbours)
            let items = run.entries.map { Item.ID(entry: $0) }
            switch run.scope {
            case .items(let list):
                return [.moveItems(ids: items, list: list, place: place)]
            case .heading(let heading):
                return [.moveItems(ids: items, list: try transaction.existingHeading(id: heading).listID, place: place, heading: heading)]
            case .headings(let list):
                return run.oneAtATime { .moveHeading(id: Heading.ID(entry: $0), list: list, place: $1) }
            case .today:
                return [joining.isEmpty ? .moveInToday(ids: items, place: place) : .addToToday(ids: items, place: place)]
            case .lists, .area:
                let area: Area.ID? = if case .area(let area) = run.scope { area } else { nil }
                return run.oneAtATime { .moveList(id: ItemList.ID(entry: $0), place: $1, area: area) }
            case .areas:
                return run.oneAtATime { .moveArea(id: Area.ID(entry: $0), place: $1) }
            case .checklist(let item):
                return [.moveChecklistItems(ids: run.entries.map { ChecklistItem.ID(entry: $0) }, item: item, place: place)]
            }
        case .leftToday(let ids, _):
            return [.removeFromToday(ids: ids)]
        case .retitled(let edits):
            return edits.sorted { $0.key < $1.key }.map { .editItem(id: $0.key, title: $0.value.new, notes: nil) }
        case .renoted(let edits):
            return edits.sorted { $0.key < $1.key }.map { .editItem(id: $0.key, title: nil, notes: $0.value.new) }
        case .completion(let edits):
            return completions(edits, reopening: SyncChange.reopenItems, completing: SyncChange.completeItems)
        case .scheduled(let edits):
            return grouped(edits) { .setWhen(ids: $0, when: $1) }
        case .deadlines(let edits):
            return grouped(edits) { .setDeadline(ids: $0, deadline: $1) }
        case .deadlineDismissals(let edits):
            return grouped(edits) { .dismissDeadlines(ids: $0, dismissed: $1) }
        case .listCreated(let list, let neighbours):
            return [.createList(id: list.id, name: list.name, place: SyncPlace(neighbours), area: list.area)]
        case .listDeleted(let list, _, _, _):
            return [.deleteList(id: list.id)]
        case .listRenamed(let id, let edit):
            return [.renameList(id: id, name: edit.new)]
        case .checklistItemAdded(let entry, let neighbours):
            return [.addChecklistItem(id: entry.id, item: entry.itemID, title: entry.title, place: SyncPlace(neighbours))]
        case .checklistRetitled(let edits):
            return edits.sorted { $0.key < $1.key }.map { .editChecklistItem(id: $0.key, title: $0.value.new) }
        case .checklistCompletion(let edits):
            return completions(edits, reopening: SyncChange.reopenChecklistItems, completing: SyncChange.completeChecklistItems)
        case .checklistItemsDeleted(let ids, _):
            return [.deleteChecklistItems(ids: ids)]
        case .headingCreated(let heading, let neighbours):
            return [.createHeading(id: heading.id, list: heading.listID, title: heading.title, place: SyncPlace(neighbours))]
        case .headingRenamed(let id, let edit):
            return [.renameHeading(id: id, title: edit.new)]
        case .headingDeleted(let heading, _, let items, _):
            // The items it held first, by id: one that another device moved under it meanwhile stays.
            return (items.isEmpty ? [] : [.deleteItems(ids: items)]) + [.deleteHeading(id: heading.id)]
        case .areaCreated(let area, let neighbours):
            return [.createArea(id: area.id, name: area.name, place: SyncPlace(neighbours))]
        case .areaRenamed(let id, let edit):
            return [.renameArea(id: id, name: edit.new)]
        case .areaDeleted(let area, _):
            return [.deleteArea(id: area.id)]
        case .orderRepaired(.checklist(let item), let normalized):
            return [.repairChecklist(item: item, normalize: normalized)]
        case .orderRepaired(.areas, let normalized):
            return [.repairAreas(area: nil, normalize: normalized)]
        case .orderRepaired(.area(let area), let normalized):
            return [.repairAreas(area: area, normalize: normalized)]
        case .orderRepaired(.headings(let list), let normalized):
            return [.repairHeadings(list: list, heading: nil, normalize: normalized)]
        case .orderRepaired(.heading(let heading), let normalized):
            return [.repairHeadings(list: try transaction.existingHeading(id: heading).listID, heading: heading, normalize: normalized)]
        case .orderRepaired(let scope, let normalized):
            return [.repairOrder(scope: scope, normalize: normalized)]
        case .rowsWritten:
            return []
        }
    }

    /// What completions and reopenings tell: the reopened ones in one change, then the
    /// completed ones, one change for each moment.
    private static func completions<Subject>(
        _ edits: [Identifier<Subject>: ChangeRecord.Edit<Date?>], reopening: ([Identifier<Subject>]) -> SyncChange,
        completing: ([Identifier<Subject>], Date) -> SyncChange
    ) -> [SyncChange] {
        var changes: [SyncChange] = []
        let reopened = edits.filter { $0.value.new == nil }.keys.sorted()
        if !reopened.isEmpty { changes.append(reopening(reopened)) }
        let completed = Dictionary(grouping: edits.compactMap { id, edit in edit.new.map { (id, $0) } }, by: \.1)
        for (moment, group) in completed.sorted(by: { $0.key < $1.key }) {
            changes.append(completing(group.map(\.0).sorted(), moment))
        }
        return changes
    }

    /// One change for each new value the edits give, naming the items that get it, in the
    /// order of the values' first items.
    private static func grouped<Value: Hashable>(
        _ edits: [Item.ID: ChangeRecord.Edit<Value>], _ make: ([Item.ID], Value) -> SyncChange
    ) -> [SyncChange] {
        let groups = Dictionary(grouping: edits.sorted { $0.key < $1.key }, by: \.value.new)
        return groups.map { value, edits in (edits.map(\.key), value) }.sorted { $0.0[0] < $1.0[0] }.map { make($0.0, $0.1) }
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

extension SyncPlace {
    /// The place between recorded neighbours.
    init(_ neighbours: ChangeRecord.Neighbours) {
        self.init(after: neighbours.after, before: neighbours.before)
    }
}
