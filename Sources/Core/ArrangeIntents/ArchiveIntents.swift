public import ArrangeArchive
public import ArrangeModel
import ArrangeChanges
import ArrangeOrdering
import ArrangeStore
import Foundation

/// Every list with its items, or one list, as an `Archive`: what an app's "Export…" writes.
public struct ExportArchive: ArrangeIntent {
    public static let title = "Export"

    /// The list to export; `nil` for every list, with the default list and Today.
    public var list: ItemList.ID?

    /// Exports `list`, or everything for `nil`.
    public init(list: ItemList.ID? = nil) {
        self.list = list
    }

    public var isReadOnly: Bool { true }

    /// Reads the lists and their items into an archive.
    ///
    /// - Complexity: O(n) for n items: one read of each list.
    public func run(in context: IntentContext) throws -> Archive {
        let transaction = context.transaction
        let lists = try list.map { [try context.list($0)] } ?? transaction.lists()
        let archived = try lists.map { list in
            let items = try transaction.items(in: list.id, visibility: .all, offset: 0, limit: .max)
            let checklists = try transaction.checklists(of: items.map(\.id))
            return ArchivedList(
                list, headings: try transaction.headings(in: list.id).map(ArchivedHeading.init),
                items: items.map { ArchivedItem($0, checklist: checklists[$0.id] ?? []) })
        }
        let tags = try transaction.tags().map(ArchivedTag.init)
        let series = try archivedSeries(of: archived, tags: Set(tags.map(\.id)), in: context)
        // One list goes without its area: the archive holds no areas, and the list none. It
        // keeps the tags, which its items name, and its repeating series.
        guard list == nil else {
            return Archive(defaultList: nil, lists: archived.map { var list = $0; list.area = nil; return list }, tags: tags, series: series)
        }
        return Archive(
            defaultList: try transaction.defaultListID(), areas: try transaction.areas().map(ArchivedArea.init), lists: archived, tags: tags, series: series)
    }
}

extension ExportArchive {
    /// The series of the lists archived, each as the archive can hold it: a series whose list
    /// was deleted goes with the whole store's export to the default list, and with a list's
    /// export nowhere; a heading or a tag deleted since it was set falls away.
    private func archivedSeries(of lists: [ArchivedList], tags: Set<Tag.ID>, in context: IntentContext) throws -> [Series] {
        let headings = Dictionary(uniqueKeysWithValues: lists.map { ($0.id, Set(($0.headings ?? []).map(\.id))) })
        let home = list == nil ? try context.transaction.defaultListID() : nil
        return try context.transaction.allSeries().compactMap { series in
            var archived = series
            if headings[series.listID] == nil {
                guard let home, headings[home] != nil else { return nil }
                archived.listID = home
            }
            if let heading = archived.heading, headings[archived.listID]?.contains(heading) != true { archived.heading = nil }
            archived.tags = series.tags.intersection(tags)
            return archived
        }
    }
}

/// Brings an `Archive` into the store, merging by id: what an app's "Import…" does.
///
/// - Into an empty store (no items, and no list but an empty default list), it reproduces the
///   archive exactly: lists, items, ids, keys, Today and the default list.
/// - Into a store with data, a list or item whose id the store knows is updated from the
///   archive (an item keeps its place in its list, unless it changes list); a list whose name
///   the store has already takes the archive list's items; anything else is added, after the
///   store's own lists or items, in the archive's order. Any keys that still tie are resolved
///   as `OrderingService/checkUniqueness(_:in:)` does.
///
/// Nothing is imported unless everything is. An import is not a step of the undo history.
public struct ImportArchive: ArrangeIntent {
    public static let title = "Import"

    /// The archive, read and checked (`Archive/init(jsonData:)`).
    public var archive: Archive
    /// The id of the archive's list that stands for the store's default list, whatever the
    /// store calls it: its items go there, its name and key are not used. An importer from
    /// another app puts that app's inbox there.
    public var defaultListStandIn: ItemList.ID?

    /// Imports `archive`; the list with the id `defaultListStandIn`, if any, goes into the store's default list.
    public init(_ archive: Archive, defaultListStandIn: ItemList.ID? = nil) {
        self.archive = archive
        self.defaultListStandIn = defaultListStandIn
    }

    public func run(in context: IntentContext) throws -> ImportResult {
        let transaction = try context.writing(Self.title)
        try context.record(.rowsWritten)
        var result = ImportResult()
        if let defaultList = archive.defaultList, try Self.isEmpty(transaction) {
            for list in try transaction.lists() { try transaction.deleteList(id: list.id) }
            for area in try transaction.areas() { try transaction.deleteArea(id: area.id) }
            try insert(into: transaction, result: &result)
            try transaction.setDefaultListID(defaultList)
            return result
        }
        try merge(into: transaction, context: context, result: &result)
        return result
    }

    /// Whether the store holds nothing but, at most, an empty default list.
    private static func isEmpty(_ transaction: any ItemReading) throws -> Bool {
        let lists = try transaction.lists()
        guard lists.count <= 1, try transaction.areas().isEmpty, try transaction.tags().isEmpty else { return false }
        return try lists.allSatisfy { try $0.id == transaction.defaultListID() && transaction.itemCount(in: $0.id, visibility: .all) == 0 }
    }

    /// Adds everything as it is, keys included, into a store that has nothing.
    private func insert(into transaction: any ItemWriting, result: inout ImportResult) throws {
        for tag in archive.tags ?? [] {
            try transaction.insert(tag.tag)
            result.tagsAdded += 1
        }
        for area in archive.areas ?? [] {
            try transaction.insert(area.area)
            result.areasAdded += 1
        }
        for archived in archive.lists {
            try transaction.insert(archived.list)
            result.listsAdded += 1
            for heading in archived.headings ?? [] { try transaction.insert(heading.heading(in: archived.id)) }
            for item in archived.items {
                try transaction.insert(item.item(in: archived.id))
                result.itemsAdded += 1
                for entry in item.checklistItems { try transaction.insert(entry) }
            }
        }
        for series in archive.series ?? [] {
            try transaction.insert(series)
            result.seriesAdded += 1
        }
    }

    /// Merges by id, then by name (areas, then lists), and resolves the ties the archive's keys make.
    private func merge(into transaction: any ItemWriting, context: IntentContext, result: inout ImportResult) throws {
        let tagTargets = try mergeTags(into: transaction, context: context, result: &result)
        let areaTargets = try mergeAreas(into: transaction, tags: tagTargets, result: &result)
        let listsByName = Dictionary(try transaction.lists().map { (ItemList.nameKey($0.name), $0) }, uniquingKeysWith: { first, _ in first })
        var listTargets: [ItemList.ID: ItemList.ID] = [:]
        // New lists go after the store's own of their area (or of none), in the archive's order.
        let groups = Dictionary(grouping: archive.lists.filter { $0.id != defaultListStandIn }, by: { $0.area.flatMap { areaTargets[$0] } })
        var listShifts: [Area.ID?: Int128] = [:]
        for (area, lists) in groups {
            listShifts[area] = try Self.shift(after: area.map(OrderScope.area) ?? .lists, in: transaction, placing: lists.map(\.sortIndex))
        }
        for archived in archive.lists {
            let target: ItemList.ID
            let area = archived.area.flatMap { areaTargets[$0] }
            let listTags = Set((archived.tags ?? []).compactMap { tagTargets[$0] })
            if archived.id == defaultListStandIn {
                target = try context.defaultList().id
                result.listsMerged += 1
            } else if var existing = try transaction.list(id: archived.id) {
                let before = existing
                if existing.name != archived.name, listsByName[ItemList.nameKey(archived.name)].map({ $0.id == existing.id }) ?? true {
                    existing.name = archived.name
                }
                // The list takes the archive's dates and notes, as its items take all of theirs.
                (existing.when, existing.deadline, existing.notes) = (archived.list.when, archived.list.deadline, archived.list.notes)
                if existing != before { try transaction.update(existing) }
                // An archive of areas puts the list in its area, at the bottom; one of a version
                // before areas, or of one list, says nothing of them.
                if archive.areas != nil, existing.area != area {
                    try context.ordering.place([existing.id.entryID], at: .bottom, in: ListGroup(area).scope, visibility: .all, in: transaction)
                }
                target = existing.id
                result.listsMerged += 1
            } else if let named = listsByName[ItemList.nameKey(archived.name)] {
                target = named.id
                result.listsMerged += 1
            } else {
                var list = archived.list
                (list.area, list.tags) = (area, listTags)
                list.sortIndex = Self.shifted(list.sortIndex, by: listShifts[area] ?? 0)
                try transaction.insert(list)
                target = archived.id
                result.listsAdded += 1
            }
            // The list of the same id takes the archive's tags; another list the archive's went into adds them.
            if var stored = try transaction.list(id: target) {
                let tags = archived.id == target ? listTags : stored.tags.union(listTags)
                if tags != stored.tags {
                    stored.tags = tags
                    try transaction.update(stored)
                }
            }
            listTargets[archived.id] = target
            try mergeHeadings(of: archived, into: target, in: transaction)
            // Items new to a section of the list go after its own, in the archive's order; items it has keep their place.
            let existing = try archived.items.map { try transaction.item(id: $0.id) }
            let newKeys = Dictionary(grouping: zip(archived.items, existing).filter { $1 == nil }.map(\.0), by: \.heading).mapValues { $0.map(\.sortIndex) }
            var itemShifts: [Heading.ID?: Int128] = [:]
            for (heading, keys) in newKeys { itemShifts[heading] = try Self.shift(after: ItemSection(heading).scope(in: target), in: transaction, placing: keys) }
            for (archivedItem, existing) in zip(archived.items, existing) {
                var item = archivedItem.item(in: target)
                item.tags = Set(item.tags.compactMap { tagTargets[$0] })
                if let existing {
                    if existing.listID == target, existing.heading == item.heading { item.sortIndex = existing.sortIndex }
                    try transaction.update(item)
                    result.itemsUpdated += 1
                } else {
                    item.sortIndex = Self.shifted(item.sortIndex, by: itemShifts[item.heading] ?? 0)
                    try transaction.insert(item)
                    result.itemsAdded += 1
                }
                result.keysRepaired += try mergeChecklist(of: archivedItem, into: transaction, context: context)
            }
            for section in try transaction.sections(of: target) + [.headings(target)] {
                result.keysRepaired += try context.ordering.checkUniqueness(section, in: transaction).rowsWritten
            }
        }
        for scope in try [OrderScope.lists, .areas, .today] + transaction.areas().map({ .area($0.id) }) {
            result.keysRepaired += try context.ordering.checkUniqueness(scope, in: transaction).rowsWritten
        }
        try mergeSeries(into: transaction, lists: listTargets, tags: tagTargets, context: context, result: &result)
        if try transaction.defaultListID() == nil, let defaultList = archive.defaultList, try transaction.list(id: defaultList) != nil {
            try transaction.setDefaultListID(defaultList)
        }
    }
}

extension ImportArchive {
    /// Merges the archive's repeating series by id: one the store has takes the archive's rule
    /// and template, keeping the dates it made; the others are added. Each goes with its list,
    /// to the list the archive's went into, and its tags with theirs.
    private func mergeSeries(
        into transaction: any ItemWriting, lists: [ItemList.ID: ItemList.ID], tags: [Tag.ID: Tag.ID], context: IntentContext, result: inout ImportResult
    ) throws {
        for archived in archive.series ?? [] {
            var series = archived
            series.listID = try lists[archived.listID] ?? context.defaultList().id
            if series.listID != archived.listID { series.heading = nil }
            series.tags = Set(archived.tags.compactMap { tags[$0] })
            if let stored = try transaction.series(id: series.id) {
                series.madeThrough = [stored.madeThrough, series.madeThrough].compactMap { $0 }.max()
                series.madeCount = max(stored.madeCount, series.madeCount)
                try transaction.update(series)
                result.seriesMerged += 1
            } else {
                try transaction.insert(series)
                result.seriesAdded += 1
            }
        }
    }

    /// Merges the archive's areas by id (renamed to the archive's name when no other area has
    /// it), then by name; the others are added after the store's own, in the archive's order.
    ///
    /// - Returns: The area of the store that each area of the archive went into, by the archive's id.
    private func mergeAreas(into transaction: any ItemWriting, tags: [Tag.ID: Tag.ID], result: inout ImportResult) throws -> [Area.ID: Area.ID] {
        let archived = archive.areas ?? []
        guard !archived.isEmpty else { return [:] }
        let byName = Dictionary(try transaction.areas().map { (ItemList.nameKey($0.name), $0) }, uniquingKeysWith: { first, _ in first })
        let shift = try Self.shift(after: .areas, in: transaction, placing: archived.map(\.sortIndex))
        var targets: [Area.ID: Area.ID] = [:]
        for area in archived {
            let areaTags = Set((area.tags ?? []).compactMap { tags[$0] })
            if var existing = try transaction.area(id: area.id) {
                let renamed = existing.name != area.name && byName[ItemList.nameKey(area.name)].map({ $0.id == existing.id }) ?? true
                if renamed { existing.name = area.name }
                if renamed || existing.tags != areaTags {
                    existing.tags = areaTags
                    try transaction.update(existing)
                }
                targets[area.id] = existing.id
                result.areasMerged += 1
            } else if let named = byName[ItemList.nameKey(area.name)] {
                targets[area.id] = named.id
                result.areasMerged += 1
            } else {
                var added = area.area
                added.sortIndex = Self.shifted(added.sortIndex, by: shift)
                added.tags = areaTags
                try transaction.insert(added)
                targets[area.id] = added.id
                result.areasAdded += 1
            }
        }
        return targets
    }

    /// Merges the archive's tags by id (renamed to the archive's name when no other tag has it;
    /// the tag keeps its place), then by name; the others are added under the tag their parent
    /// went into, after its own children, in the archive's order.
    ///
    /// - Returns: The tag of the store that each tag of the archive went into, by the archive's id.
    private func mergeTags(into transaction: any ItemWriting, context: IntentContext, result: inout ImportResult) throws -> [Tag.ID: Tag.ID] {
        let archived = archive.tags ?? []
        guard !archived.isEmpty else { return [:] }
        let byName = Dictionary(try transaction.tags().map { (Tag.nameKey($0.name), $0) }, uniquingKeysWith: { first, _ in first })
        var targets: [Tag.ID: Tag.ID] = [:]
        var shifts: [Tag.ID?: Int128] = [:]
        var parents = Set<Tag.ID?>()
        for tag in archived {
            if var existing = try transaction.tag(id: tag.id) {
                if existing.name != tag.name, byName[Tag.nameKey(tag.name)].map({ $0.id == existing.id }) ?? true {
                    existing.name = tag.name
                    try transaction.update(existing)
                }
                targets[tag.id] = existing.id
                result.tagsMerged += 1
            } else if let named = byName[Tag.nameKey(tag.name)] {
                targets[tag.id] = named.id
                result.tagsMerged += 1
            } else {
                var added = tag.tag
                added.parent = tag.parent.flatMap { targets[$0] }
                if shifts[added.parent] == nil {
                    // The keys of the archive's new siblings, placed after the store's own.
                    let siblings = try archived.filter { $0.parent == tag.parent }.filter { try transaction.tag(id: $0.id) == nil }.map(\.sortIndex)
                    shifts[added.parent] = try Self.shift(after: added.scope, in: transaction, placing: siblings)
                }
                added.sortIndex = Self.shifted(added.sortIndex, by: shifts[added.parent] ?? 0)
                try transaction.insert(added)
                parents.insert(added.parent)
                targets[tag.id] = added.id
                result.tagsAdded += 1
            }
        }
        for parent in parents {
            result.keysRepaired += try context.ordering.checkUniqueness(.tags(parent), in: transaction).rowsWritten
        }
        return targets
    }

    /// Merges a list's headings by id into the list `target`: a heading the store has takes the
    /// archive's title, and moves into `target` with its items when it was elsewhere, at the
    /// bottom of its headings; a new one goes after the list's own headings, in the archive's order.
    private func mergeHeadings(of archived: ArchivedList, into target: ItemList.ID, in transaction: any ItemWriting) throws {
        let headings = archived.headings ?? []
        guard !headings.isEmpty else { return }
        let existing = try headings.map { try transaction.heading(id: $0.id) }
        let shift = try Self.shift(after: .headings(target), in: transaction, placing: headings.map(\.sortIndex))
        for (archivedHeading, existing) in zip(headings, existing) {
            var heading = archivedHeading.heading(in: target)
            if let existing {
                heading.sortIndex = existing.listID == target ? existing.sortIndex : Self.shifted(heading.sortIndex, by: shift)
                try transaction.update(heading)
            } else {
                heading.sortIndex = Self.shifted(heading.sortIndex, by: shift)
                try transaction.insert(heading)
            }
        }
    }

    /// Merges an item's checklist by id: an entry the store has is updated and keeps its place,
    /// in its own item's checklist, since entries move only within their own checklist; a new
    /// one goes after the checklist's own entries, in the archive's order.
    ///
    /// - Returns: The rows given new keys because the archive's keys tied with the store's.
    private func mergeChecklist(of item: ArchivedItem, into transaction: any ItemWriting, context: IntentContext) throws -> Int {
        let entries = item.checklistItems
        guard !entries.isEmpty else { return 0 }
        let existing = try entries.map { try transaction.checklistItem(id: $0.id) }
        let shift = try Self.shift(after: .checklist(item.id), in: transaction, placing: zip(entries, existing).filter { $1 == nil }.map(\.0.sortIndex))
        for (entry, existing) in zip(entries, existing) {
            var entry = entry
            if let existing {
                (entry.itemID, entry.sortIndex) = (existing.itemID, existing.sortIndex)
                try transaction.update(entry)
            } else {
                entry.sortIndex = Self.shifted(entry.sortIndex, by: shift)
                try transaction.insert(entry)
            }
        }
        return try context.ordering.checkUniqueness(.checklist(item.id), in: transaction).rowsWritten
    }

    /// How far to move keys so that the smallest of `keys` lands one end gap (2^32) after the
    /// last entry of `scope`; 0 when the scope is empty or nothing is placed.
    fileprivate static func shift(after scope: OrderScope, in transaction: any ItemReading, placing keys: [Int64]) throws -> Int128 {
        guard let lowest = keys.min(), let last = try transaction.keys(in: scope, before: .afterAll, limit: 1).first else { return 0 }
        return Int128(last.sortIndex) + (1 << 32) - Int128(lowest)
    }

    /// A key moved by `shift`, kept within the 64-bit range (ties that clamping makes are resolved afterwards).
    fileprivate static func shifted(_ key: Int64, by shift: Int128) -> Int64 {
        Int64(max(Int128(Int64.min), min(Int128(Int64.max), Int128(key) + shift)))
    }
}

/// What ``ImportArchive`` did.
public struct ImportResult: Hashable, Sendable, Codable {
    /// Lists the store did not have.
    public var listsAdded = 0
    /// Lists of the archive that went into a list the store had, by id or by name.
    public var listsMerged = 0
    /// Items the store did not have.
    public var itemsAdded = 0
    /// Items the store had, updated from the archive.
    public var itemsUpdated = 0
    /// Rows given new keys because the archive's keys tied with the store's.
    public var keysRepaired = 0
    /// Tags the store did not have.
    public var tagsAdded = 0
    /// Tags of the archive that went into a tag the store had, by id or by name.
    public var tagsMerged = 0
    /// Areas the store did not have.
    public var areasAdded = 0
    /// Areas of the archive that went into an area the store had, by id or by name.
    public var areasMerged = 0
    /// Repeating series the store did not have.
    public var seriesAdded = 0
    /// Repeating series the store had, which took the archive's rule and template.
    public var seriesMerged = 0

    /// A result of nothing done.
    public init() {}
}
