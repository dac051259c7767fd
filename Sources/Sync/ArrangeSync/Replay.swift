import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

/// Applies one operation to a store by the rules of the merge (see ``SyncEngine``), with keys
/// that depend on the store and the operation alone.
struct Replay {
    /// The transaction, which remembers what the replay writes.
    let transaction: RewindRecorder
    let change: SyncChange
    /// Places entries, and stamps what it writes with ``stamp``.
    let ordering: OrderingService
    /// The change's moment, stamped on what it writes.
    let stamp: Date

    /// A replay of an operation, by the merge: keys with jitter off.
    init(_ operation: SyncOperation, in transaction: RewindRecorder, repository: any ItemRepository) throws {
        try self.init(operation.change, at: operation.clock.date, in: transaction, ordering: OrderingConfiguration(jitter: false), repository: repository)
    }

    /// A change at a moment, with keys chosen by `configuration`.
    init(_ change: SyncChange, at stamp: Date, in transaction: RewindRecorder, ordering configuration: OrderingConfiguration, repository: any ItemRepository) throws {
        self.transaction = transaction
        self.change = change
        self.stamp = stamp
        self.ordering = try OrderingService(repository: repository, configuration: configuration, now: { stamp })
    }

    func apply() throws {
        switch change.effect {
        case .createList(let id, let name, let place, let area):
            guard try transaction.list(id: id) == nil else { return }
            let list = ItemList(id: id, name: try freeName(Title.sanitized(name, placeholder: "Untitled")), createdAt: stamp, area: try existingArea(area))
            try ordering.add(list, at: try placement(place, in: list.scope).map { ItemList.ID(entry: $0) }, in: transaction)
        case .renameList(let id, let name):
            guard var list = try transaction.list(id: id) else { return }
            list.name = try freeName(Title.sanitized(name, placeholder: "Untitled"), except: id)
            try transaction.update(list)
        case .moveList(let id, let place, let area):
            // A list moved into an area deleted meanwhile goes to the lists in no area.
            guard let list = try transaction.list(id: id) else { return }
            let scope = try existingArea(area).map(OrderScope.area) ?? .lists
            if list.scope != scope { try bury(list.entry, in: list.scope) }
            try ordering.place([id.entryID], at: try placement(place, in: scope, moving: [id.entryID]), in: scope, visibility: .all, in: transaction)
        case .deleteList(let id):
            guard let list = try transaction.list(id: id) else { return }
            try bury(list.entry, in: list.scope)
            for item in try transaction.items(in: id, visibility: .all, offset: 0, limit: .max) { try bury(item) }
            try transaction.deleteList(id: id)
        case .addItem(let id, let list, let title, let notes, let place, let heading):
            guard try transaction.item(id: id) == nil else { return }
            var item = Item(id: id, listID: try existingList(list), title: Title.sanitized(title, placeholder: "Untitled"), notes: Self.storable(notes), sortIndex: 0, createdAt: stamp)
            if let heading = try existingHeading(heading) { (item.listID, item.heading) = (heading.listID, heading.id) }
            try ordering.add(item, at: try placement(place, in: item.scope).map { Item.ID(entry: $0) }, visibility: .all, in: transaction)
        case .editItem(let id, let title, let notes):
            guard var item = try transaction.item(id: id) else { return }
            if let title { item.title = Title.sanitized(title, placeholder: "Untitled") }
            if let notes { item.notes = Self.storable(notes) }
            item.updatedAt = stamp
            try transaction.update(item)
        case .completeItems(let ids, let at):
            for var item in try existingItems(ids) where item.completedAt == nil {
                item.completedAt = at
                item.updatedAt = stamp
                try transaction.update(item)
            }
        case .reopenItems(let ids):
            for var item in try existingItems(ids) where item.completedAt != nil {
                item.completedAt = nil
                item.updatedAt = stamp
                try transaction.update(item)
            }
        case .setWhen(let ids, let when):
            for var item in try existingItems(ids) where item.when != when {
                item.when = when
                item.updatedAt = stamp
                try transaction.update(item)
            }
        case .setDeadline(let ids, let deadline):
            // A new deadline is not dismissed, as SetDeadline has it.
            for var item in try existingItems(ids) where item.deadline != deadline {
                item.deadline = deadline
                item.deadlineDismissed = false
                item.updatedAt = stamp
                try transaction.update(item)
            }
        case .dismissDeadlines(let ids, let dismissed):
            // Only a deadline can be dismissed: one taken away meanwhile leaves nothing to dismiss.
            for var item in try existingItems(ids) where item.deadlineDismissed != (dismissed && item.deadline != nil) {
                item.deadlineDismissed = dismissed && item.deadline != nil
                item.updatedAt = stamp
                try transaction.update(item)
            }
        case .deleteItems(let ids):
            for item in try existingItems(ids) {
                try bury(item)
                try transaction.deleteItem(id: item.id)
            }
        case .moveItems(let ids, let list, let place, let heading):
            // Items moved under a heading deleted meanwhile go under none, in the list named.
            let items = try existingItems(ids)
            guard !items.isEmpty else { return }
            let target = try existingHeading(heading).map { OrderScope.heading($0.id) } ?? .items(try existingList(list))
            for item in items where item.scope != target { try bury(item.entry(in: item.scope), in: item.scope) }
            let moving = items.map(\.id.entryID)
            try ordering.place(moving, at: try placement(place, in: target, moving: moving), in: target, visibility: .all, in: transaction)
        case .addToToday(let ids, let place), .moveInToday(let ids, let place):
            let moving = try existingItems(ids).map(\.id.entryID)
            guard !moving.isEmpty else { return }
            try ordering.place(moving, at: try placement(place, in: .today, moving: moving), in: .today, visibility: .all, in: transaction)
        case .removeFromToday(let ids):
            let items = try existingItems(ids).filter(\.isKeyedInToday)
            for item in items { try bury(item.entry(in: .today), in: .today) }
            try transaction.removeFromToday(items.map(\.id), updatedAt: stamp)
        case .addChecklistItem(let id, let item, let title, let place):
            // An entry of an item deleted meanwhile goes with the item.
            guard try transaction.checklistItem(id: id) == nil, try transaction.item(id: item) != nil else { return }
            let entry = ChecklistItem(id: id, itemID: item, title: Title.sanitized(title, placeholder: "Untitled"))
            try ordering.add(entry, at: try placement(place, in: .checklist(item)).map { ChecklistItem.ID(entry: $0) }, in: transaction)
        case .editChecklistItem(let id, let title):
            guard var entry = try transaction.checklistItem(id: id) else { return }
            entry.title = Title.sanitized(title, placeholder: "Untitled")
            try transaction.update(entry)
        case .moveChecklistItems(let ids, let item, let place):
            let moving = try existingChecklistItems(ids).filter { $0.itemID == item }.map(\.id.entryID)
            guard !moving.isEmpty else { return }
            let scope = OrderScope.checklist(item)
            try ordering.place(moving, at: try placement(place, in: scope, moving: moving), in: scope, visibility: .all, in: transaction)
        case .completeChecklistItems(let ids, let at):
            for var entry in try existingChecklistItems(ids) where entry.completedAt == nil {
                entry.completedAt = at
                try transaction.update(entry)
            }
        case .reopenChecklistItems(let ids):
            for var entry in try existingChecklistItems(ids) where entry.completedAt != nil {
                entry.completedAt = nil
                try transaction.update(entry)
            }
        case .deleteChecklistItems(let ids):
            for entry in try existingChecklistItems(ids) {
                try bury(entry.entry, in: .checklist(entry.itemID))
                try transaction.deleteChecklistItem(id: entry.id)
            }
        case .createArea(let id, let name, let place):
            guard try transaction.area(id: id) == nil else { return }
            let area = Area(id: id, name: try freeName(Title.sanitized(name, placeholder: "Untitled"), among: transaction.areas()), createdAt: stamp)
            try ordering.add(area, at: try placement(place, in: .areas).map { Area.ID(entry: $0) }, in: transaction)
        case .renameArea(let id, let name):
            guard var area = try transaction.area(id: id) else { return }
            area.name = try freeName(Title.sanitized(name, placeholder: "Untitled"), among: transaction.areas().filter { $0.id != id })
            try transaction.update(area)
        case .moveArea(let id, let place):
            guard try transaction.area(id: id) != nil else { return }
            try ordering.place([id.entryID], at: try placement(place, in: .areas, moving: [id.entryID]), in: .areas, visibility: .all, in: transaction)
        case .deleteArea(let id):
            // Its lists stay: those still in it (moved there meanwhile) go to the bottom of the lists in no area.
            guard let area = try transaction.area(id: id) else { return }
            let lists = try transaction.entries(in: .area(id), visibility: .all, offset: 0, limit: .max)
            for list in lists { try bury(list, in: .area(id)) }
            if !lists.isEmpty { try ordering.place(lists.map(\.id), at: .bottom, in: .lists, visibility: .all, in: transaction) }
            try bury(area.entry, in: .areas)
            try transaction.deleteArea(id: id)
        case .createHeading(let id, let list, let title, let place):
            guard try transaction.heading(id: id) == nil else { return }
            let heading = Heading(id: id, listID: try existingList(list), title: Title.sanitized(title, placeholder: "Untitled"), createdAt: stamp)
            try ordering.add(heading, at: try placement(place, in: .headings(heading.listID)).map { Heading.ID(entry: $0) }, in: transaction)
        case .renameHeading(let id, let title):
            guard var heading = try transaction.heading(id: id) else { return }
            heading.title = Title.sanitized(title, placeholder: "Untitled")
            try transaction.update(heading)
        case .moveHeading(let id, let list, let place):
            guard let heading = try transaction.heading(id: id) else { return }
            let scope = OrderScope.headings(try existingList(list))
            if scope != .headings(heading.listID) { try bury(heading.entry, in: .headings(heading.listID)) }
            try ordering.place([id.entryID], at: try placement(place, in: scope, moving: [id.entryID]), in: scope, visibility: .all, in: transaction)
        case .deleteHeading(let id):
            // The items still under it (moved there meanwhile) stay: at the bottom of their list's items under no heading.
            guard let heading = try transaction.heading(id: id) else { return }
            let items = try transaction.entries(in: .heading(id), visibility: .all, offset: 0, limit: .max)
            for item in items { try bury(item, in: .heading(id)) }
            if !items.isEmpty { try ordering.place(items.map(\.id), at: .bottom, in: .items(heading.listID), visibility: .all, in: transaction) }
            try bury(heading.entry, in: .headings(heading.listID))
            try transaction.deleteHeading(id: id)
        case .repairHeadings(let list, let heading, let normalize):
            try repair(heading.map(OrderScope.heading) ?? .headings(list), normalize: normalize)
        case .repairOrder(let scope, let normalize):
            try repair(scope, normalize: normalize)
        case .repairChecklist(let item, let normalize):
            try repair(.checklist(item), normalize: normalize)
        case .repairAreas(let area, let normalize):
            try repair(area.map(OrderScope.area) ?? .areas, normalize: normalize)
        case .retireReplica(let id):
            var progress = try transaction.log.replicaProgress(of: id.rawValue) ?? ReplicaProgress(replica: id.rawValue, sequence: 0, milliseconds: 0, counter: 0)
            guard !progress.isRetired else { return }
            progress.isRetired = true
            try transaction.log.setReplicaProgress(progress)
        case .replacement, .renumbering, .leaveForkedReplica, .unknown:
            // `effect` is never a replacement; the operation a renumbering carries applies in its
            // own place; a leave is read where it decides something (compaction, and the merge of
            // the line still under the id); a change of an unknown kind is not applied.
            break
        }
    }

    /// Repairs or spreads the keys of an ordering that still exists.
    func repair(_ scope: OrderScope, normalize: Bool) throws {
        switch scope {
        case .items(let list), .headings(let list): guard try transaction.list(id: list) != nil else { return }
        case .checklist(let item): guard try transaction.item(id: item) != nil else { return }
        case .area(let area): guard try transaction.area(id: area) != nil else { return }
        case .heading(let heading): guard try transaction.heading(id: heading) != nil else { return }
        case .lists, .today, .areas: break
        }
        if normalize {
            try ordering.normalize(scope, in: transaction)
        } else {
            _ = try ordering.validate(scope, repair: true, in: transaction)
        }
    }

    /// Where a recorded place lands now: at the top when it had no `after` neighbour; after that
    /// neighbour if it is still in the ordering, else before its `before` neighbour, else where
    /// `after` was when it left (its tombstone), else at the bottom.
    func placement(_ place: SyncPlace, in scope: OrderScope, moving: [OrderEntry.ID] = []) throws -> Placement<OrderEntry.ID> {
        let excluded = Set(moving)
        guard place.after != nil else { return .top }
        if let after = place.after, !excluded.contains(after), try transaction.entry(id: after, in: scope) != nil { return .after(after) }
        if let before = place.before, !excluded.contains(before), try transaction.entry(id: before, in: scope) != nil { return .before(before) }
        if let after = place.after, let sortIndex = try transaction.tombstone(of: after, in: scope) {
            let grave = OrderKey(sortIndex: sortIndex, id: after)
            let next = try transaction.keys(in: scope, after: grave, limit: excluded.count + 1).first { !excluded.contains($0.id) }
            return next.map { .before($0.id) } ?? .bottom
        }
        return .bottom
    }

    /// Remembers where an item was, in its list (under its heading, if any) and in Today, as it goes.
    func bury(_ item: Item) throws {
        for scope in [item.scope, .today] {
            if let entry = item.entry(in: scope) { try bury(entry, in: scope) }
        }
    }

    func bury(_ entry: OrderEntry?, in scope: OrderScope) throws {
        guard let entry else { return }
        try transaction.setTombstone(entry.sortIndex, of: entry.id, in: scope)
    }

    /// The items of `ids` that exist, each once, in the order of `ids`: an operation from another
    /// program may name one twice.
    func existingItems(_ ids: [Item.ID]) throws -> [Item] {
        var seen = Set<Item.ID>()
        return try ids.filter { seen.insert($0).inserted }.compactMap(transaction.item)
    }

    /// The checklist entries of `ids` that exist, each once, in the order of `ids`.
    func existingChecklistItems(_ ids: [ChecklistItem.ID]) throws -> [ChecklistItem] {
        var seen = Set<ChecklistItem.ID>()
        return try ids.filter { seen.insert($0).inserted }.compactMap(transaction.checklistItem)
    }

    /// Notes as every backend can store them: without U+0000, which SQLite cannot hold, and cut
    /// to `Item.maximumNotesSize`, as an operation made before the limit may hold longer ones,
    /// so that an operation one replica took never stops another's merge.
    static func storable(_ notes: String) -> String {
        Item.fittedNotes(notes.utf8.contains(0) ? String(String.UnicodeScalarView(notes.unicodeScalars.filter { $0.value != 0 })) : notes)
    }

    /// `list` if it exists; else the default list, created the first time it is needed.
    func existingList(_ list: ItemList.ID) throws -> ItemList.ID {
        if try transaction.list(id: list) != nil { return list }
        if try transaction.list(id: ItemList.firstDefaultListID) == nil {
            let inbox = ItemList(id: ItemList.firstDefaultListID, name: try freeName(SyncEngine.defaultListName), createdAt: Date(timeIntervalSince1970: 0))
            try ordering.add(inbox, at: .top, in: transaction)
            if try transaction.defaultListID() == nil { try transaction.setDefaultListID(inbox.id) }
        }
        return ItemList.firstDefaultListID
    }

    /// The heading `heading` names, if it is given and exists; else `nil`, for none.
    func existingHeading(_ heading: Heading.ID?) throws -> Heading? {
        guard let heading else { return nil }
        return try transaction.heading(id: heading)
    }

    /// `area` if it is given and exists; else `nil`, for no area.
    func existingArea(_ area: Area.ID?) throws -> Area.ID? {
        guard let area, try transaction.area(id: area) != nil else { return nil }
        return area
    }

    /// `name`, or "name (2)", "name (3)"… when another list has it, ignoring case.
    func freeName(_ name: String, except excluded: ItemList.ID? = nil) throws -> String {
        try freeName(name, among: transaction.lists().filter { $0.id != excluded })
    }

    /// `name`, or "name (2)", "name (3)"… when one of `others` has it, ignoring case.
    func freeName(_ name: String, among others: [some Named]) -> String {
        let taken = Set(others.map { ItemList.nameKey($0.name) })
        var candidate = name
        var number = 2
        while taken.contains(ItemList.nameKey(candidate)) {
            candidate = "\(name) (\(number))"
            number += 1
        }
        return candidate
    }
}

/// What has a name that no other of its kind may share, ignoring case: a list, an area.
protocol Named {
    var name: String { get }
}

extension ItemList: Named {}
extension Area: Named {}
