public import ArrangeModel
public import ArrangeStore
import ArrangeOrdering
import Foundation

extension SyncChange {
    /// The changes that bring lists, items, checklist entries, areas, headings, tags and
    /// repeating series from how they were to how they are now: what an import or a restore did, told as operations.
    ///
    /// Each created, moved or changed entry is placed after the entry before it now, ordering by
    /// ordering and top to bottom, so that replaying the changes in order puts everything where
    /// it is.
    ///
    /// - Parameters:
    ///   - lists: Lists as they were, by id; `nil` for a list that did not exist.
    ///   - items: Items as they were, by id; `nil` for an item that did not exist.
    ///   - checklistItems: Checklist entries as they were, by id; `nil` for an entry that did not exist.
    ///   - areas: Areas as they were, by id; `nil` for an area that did not exist.
    ///   - headings: Headings as they were, by id; `nil` for a heading that did not exist.
    ///   - tags: Tags as they were, by id; `nil` for a tag that did not exist.
    ///   - series: Repeating series as they were, by id; `nil` for a series that did not exist.
    ///   - transaction: The store as it is now.
    public static func changes(
        bringingLists lists: [ItemList.ID: ItemList?], items: [Item.ID: Item?], checklistItems: [ChecklistItem.ID: ChecklistItem?] = [:],
        areas: [Area.ID: Area?] = [:], headings: [Heading.ID: Heading?] = [:], tags: [Tag.ID: Tag?] = [:], series: [Series.ID: Series?] = [:],
        upToDateIn transaction: any ItemReading
    ) throws -> [SyncChange] {
        var changes: [SyncChange] = try self.changes(bringing: tags, upToDateIn: transaction)
        for (id, old) in series.sorted(by: { $0.key < $1.key }) {
            let now = try transaction.series(id: id)
            changes += RepeatSet.changes(from: old, to: now).map(\.change)
            if let now { changes += RepeatPaused.changes(from: old, to: now).map(\.change) }
        }
        let areasNow = try areas.isEmpty ? [] : transaction.areas()
        for area in areasNow {
            guard let entry = areas[area.id] else { continue }
            let place = try SyncPlace(of: [area.entry], in: .areas, transaction: transaction)
            guard let old = entry else {
                // A creation makes an area without tags: its tags are told after it.
                changes.append(creation(of: area, at: place).change)
                changes += TagsChanged.changes(from: [], to: area.tags) { $0.areas = [area.id] }
                continue
            }
            changes += self.changes(from: old, to: area, tellingBy: areaChanges)
            changes += TagsChanged.changes(from: old.tags, to: area.tags) { $0.areas = [area.id] }
            if old.sortIndex != area.sortIndex { changes += try placing(area.entry.id, in: .areas, at: place, in: transaction) }
        }
        let listsNow = try transaction.lists()
        for list in listsNow {
            guard let entry = lists[list.id] else { continue }
            let place = try SyncPlace(of: [list.entry], in: list.scope, transaction: transaction)
            if let old = entry {
                if old.sortIndex != list.sortIndex || old.area != list.area { changes += try placing(list.entry.id, in: list.scope, at: place, in: transaction) }
            } else {
                changes.append(creation(of: list, at: place).change)
            }
            // A creation makes an open list without tags: a finished one is told finished after it, and its tags.
            changes += self.changes(from: entry ?? nil, to: list, tellingBy: listChanges)
            changes += TagsChanged.changes(from: (entry ?? nil)?.tags ?? [], to: list.tags) { $0.lists = [list.id] }
        }
        let existing = Set(listsNow.map(\.id))
        changes += lists.filter { $0.value != nil && !existing.contains($0.key) }.keys.sorted().map { deletion(ofList: $0).change }
        // Once no list is in them.
        let existingAreas = Set(areasNow.map(\.id))
        changes += areas.filter { $0.value != nil && !existingAreas.contains($0.key) }.keys.sorted().map { deletion(ofArea: $0).change }

        // Headings before the items under them.
        var headingsNow = Set<Heading.ID>()
        for list in headings.isEmpty ? [] : listsNow {
            for heading in try transaction.headings(in: list.id) {
                headingsNow.insert(heading.id)
                guard let entry = headings[heading.id] else { continue }
                let place = try SyncPlace(of: [heading.entry], in: .headings(list.id), transaction: transaction)
                guard let old = entry else {
                    changes.append(creation(of: heading, at: place).change)
                    continue
                }
                changes += self.changes(from: old, to: heading, tellingBy: headingChanges)
                if old.sortIndex != heading.sortIndex || old.listID != heading.listID { changes += try placing(heading.entry.id, in: .headings(list.id), at: place, in: transaction) }
            }
        }

        var itemsNow: [Item] = []
        for list in listsNow {
            for item in try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max) where items[item.id] != nil {
                itemsNow.append(item)
                let old = items[item.id] ?? nil
                let place = try SyncPlace(of: [item.entry(in: item.scope)].compactMap { $0 }, in: item.scope, transaction: transaction)
                if let old {
                    if old.listID != item.listID || old.heading != item.heading || old.sortIndex != item.sortIndex {
                        changes += try placing(item.id.entryID, in: item.scope, at: place, in: transaction)
                    }
                } else {
                    changes.append(creation(of: item, at: place).change)
                }
                changes += self.changes(from: old, to: item, tellingBy: itemChanges)
                changes += TagsChanged.changes(from: old?.tags ?? [], to: item.tags) { $0.items = [item.id] }
            }
        }
        for item in try transaction.todayItems(visibility: .all, offset: 0, limit: .max) where items[item.id] != nil {
            let old = items[item.id] ?? nil
            guard old?.todayIndex != item.todayIndex, let entry = item.entry(in: .today) else { continue }
            changes += try placing(entry.id, in: .today, at: try SyncPlace(of: [entry], in: .today, transaction: transaction), joiningToday: true, in: transaction)
        }
        let present = Set(itemsNow.map(\.id))
        let gone = items.filter { $0.value != nil && !present.contains($0.key) }
        let deleted = gone.keys.filter { id in gone[id].flatMap { $0 }.map { !lists.keys.contains($0.listID) || existing.contains($0.listID) } ?? false }
        if !deleted.isEmpty { changes.append(deletion(ofItems: deleted.sorted()).change) }
        let leftToday = itemsNow.filter { ((items[$0.id] ?? nil)?.isKeyedInToday ?? false) && !$0.isKeyedInToday }.map(\.id)
        if !leftToday.isEmpty { changes.append(removal(fromToday: leftToday).change) }
        // Once the items they held are told; those of a deleted list went with it.
        changes += headings.filter { id, old in old.map { headingsNow.contains(id) == false && existing.contains($0.listID) } ?? false }
            .keys.sorted().map { deletion(ofHeading: $0).change }
        return changes + (try self.changes(bringing: checklistItems, upToDateIn: transaction))
    }

    /// The changes that bring tags from how they were to how they are now, depth first, each
    /// placed after the tag before it; a tag gone is told by the deletion of the highest one
    /// gone, which takes its children along.
    private static func changes(bringing tags: [Tag.ID: Tag?], upToDateIn transaction: any ItemReading) throws -> [SyncChange] {
        guard !tags.isEmpty else { return [] }
        var changes: [SyncChange] = []
        let tagsNow = try transaction.tags()
        for tag in tagsNow {
            guard let entry = tags[tag.id] else { continue }
            let place = try SyncPlace(of: [tag.entry], in: tag.scope, transaction: transaction)
            if let old = entry {
                if old.sortIndex != tag.sortIndex || old.parent != tag.parent { changes += try placing(tag.entry.id, in: tag.scope, at: place, in: transaction) }
            } else {
                changes.append(creation(of: tag, at: place).change)
            }
            changes += self.changes(from: entry ?? nil, to: tag, tellingBy: tagChanges)
        }
        let existing = Set(tagsNow.map(\.id))
        let gone = tags.filter { $0.value != nil && !existing.contains($0.key) }
        // The highest gone: those whose parent is not gone too.
        changes += gone.filter { _, old in old?.parent.map { gone[$0] == nil } ?? true }.keys.sorted().map { deletion(ofTag: $0).change }
        return changes
    }

    /// The changes that bring checklist entries from how they were to how they are now, checklist
    /// by checklist, each top to bottom. An entry gone with its item is told by the item's delete.
    private static func changes(bringing entries: [ChecklistItem.ID: ChecklistItem?], upToDateIn transaction: any ItemReading) throws -> [SyncChange] {
        guard !entries.isEmpty else { return [] }
        var changes: [SyncChange] = []
        var entriesNow: [ChecklistItem] = []
        for id in entries.keys { if let entry = try transaction.checklistItem(id: id) { entriesNow.append(entry) } }
        for entry in entriesNow.sorted(by: { ($0.itemID, $0.orderKey) < ($1.itemID, $1.orderKey) }) {
            let old = entries[entry.id] ?? nil
            let place = try SyncPlace(of: [entry.entry], in: .checklist(entry.itemID), transaction: transaction)
            if let old {
                if old.itemID != entry.itemID || old.sortIndex != entry.sortIndex {
                    changes += try placing(entry.entry.id, in: .checklist(entry.itemID), at: place, in: transaction)
                }
            } else {
                changes.append(creation(of: entry, at: place).change)
            }
            changes += self.changes(from: old, to: entry, tellingBy: checklistItemChanges)
        }
        let present = Set(entriesNow.map(\.id))
        var deleted: [ChecklistItem.ID] = []
        for case let (id, old?) in entries where !present.contains(id) {
            if try transaction.item(id: old.itemID) != nil { deleted.append(id) }
        }
        if !deleted.isEmpty { changes.append(deletion(ofChecklistItems: deleted.sorted()).change) }
        return changes
    }

    /// The changes that place one entry at `place` in `scope`, as that ordering is logged.
    private static func placing(
        _ entry: OrderEntry.ID, in scope: OrderScope, at place: SyncPlace, joiningToday: Bool = false, in transaction: any ItemReading
    ) throws -> [SyncChange] {
        let run = ChangeRecord.Run(entries: [entry], scope: scope, neighbours: ChangeRecord.Neighbours(after: place.after, before: place.before))
        return try placing(run, joining: joiningToday ? [Item.ID(entry: entry)] : [], in: transaction)
    }
}
