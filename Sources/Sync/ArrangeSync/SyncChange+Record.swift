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
        case .applied(let change, _):
            return [change.change]
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
        case .listCreated(let list, let neighbours):
            return [.createList(id: list.id, name: list.name, place: SyncPlace(neighbours), area: list.area)]
        case .listDeleted(let list, _, _, _):
            return [.deleteList(id: list.id)]
        case .checklistItemAdded(let entry, let neighbours):
            return [.addChecklistItem(id: entry.id, item: entry.itemID, title: entry.title, place: SyncPlace(neighbours))]
        case .checklistItemsDeleted(let ids, _):
            return [.deleteChecklistItems(ids: ids)]
        case .headingCreated(let heading, let neighbours):
            return [.createHeading(id: heading.id, list: heading.listID, title: heading.title, place: SyncPlace(neighbours))]
        case .headingDeleted(let heading, _, let items, _):
            // The items it held first, by id: one that another device moved under it meanwhile stays.
            return (items.isEmpty ? [] : [.deleteItems(ids: items)]) + [.deleteHeading(id: heading.id)]
        case .areaCreated(let area, let neighbours):
            return [.createArea(id: area.id, name: area.name, place: SyncPlace(neighbours))]
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
