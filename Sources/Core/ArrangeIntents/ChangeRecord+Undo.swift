import ArrangeChanges
import ArrangeModel
import ArrangeOrdering
import ArrangeStore
import Foundation

/// Taking changes back: what ``Undo`` and ``Redo`` do with the records of a step.
///
/// A step of the history is the records an intent made, in the order made. Undoing it takes
/// each back, last first; taking a change back is itself a change, which records what it does,
/// and those records are the step that ``Redo`` takes back in turn. So undo and redo need no
/// inverse of their own, and when the environment syncs, they log what they do as any intent does.
///
/// Places are neighbours, never raw `sortIndex` values: a later insert may have re-spread the
/// neighbours' keys, and putting an old key back could land an entry in the wrong place. An
/// entry goes back directly after the entry that was before it in its ordering, through the
/// ordering service, which picks a fresh key (and re-spreads if the gap is full). This holds
/// alike for an item in its list, an item in Today, a list, a checklist entry and an area.
extension ChangeRecord {
    // MARK: Recording where things are

    /// The places of `entries` now, in `scope`, in an order in which they can be restored:
    /// in order, so that each predecessor is in place before its successor.
    static func places(of entries: [OrderEntry], in scope: OrderScope, transaction: any ItemReading) throws -> [Place] {
        try entries.sorted { $0.key < $1.key }.map { try place(of: $0, in: scope, transaction: transaction) }
    }

    /// The places in their lists, under their headings or none, of `items`, which may belong to
    /// several lists.
    static func listPlaces(of items: [Item], in transaction: any ItemReading) throws -> [Place] {
        let section = { (item: Item) in item.heading?.text ?? "" }
        return try items.sorted { ($0.listID, section($0), $0.orderKey) < ($1.listID, section($1), $1.orderKey) }.map { item in
            try place(of: OrderEntry(id: item.id.entryID, sortIndex: item.sortIndex, isOpen: !item.isCompleted), in: item.scope, transaction: transaction)
        }
    }

    /// The places in Today of those of `items` that are in Today.
    static func todayPlaces(of items: [Item], in transaction: any ItemReading) throws -> [Place] {
        try places(of: items.compactMap { $0.entry(in: .today) }, in: .today, transaction: transaction)
    }

    /// The items with where they are now, and their checklists, in an order in which they can be restored.
    static func placedItems(_ items: [Item], in transaction: any ItemReading) throws -> [PlacedItem] {
        let todayPlaces = Dictionary(uniqueKeysWithValues: try todayPlaces(of: items, in: transaction).map { ($0.id, $0) })
        let checklists = try transaction.checklists(of: items.map(\.id))
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id.entryID, $0) })
        return try listPlaces(of: items, in: transaction).compactMap { place in
            byID[place.id].map { PlacedItem(item: $0, place: place, todayPlace: todayPlaces[place.id], checklist: checklists[$0.id] ?? []) }
        }
    }

    /// The checklist entries with where they are now, in an order in which they can be restored.
    static func placedChecklistItems(_ entries: [ChecklistItem], in transaction: any ItemReading) throws -> [PlacedChecklistItem] {
        try entries.sorted { ($0.itemID, $0.orderKey) < ($1.itemID, $1.orderKey) }.map { entry in
            PlacedChecklistItem(entry: entry, place: try place(of: entry.entry, in: .checklist(entry.itemID), transaction: transaction))
        }
    }

    static func place(of entry: OrderEntry, in scope: OrderScope, transaction: any ItemReading) throws -> Place {
        Place(id: entry.id, scope: scope, predecessor: try transaction.keys(in: scope, before: entry.key, limit: 1).first?.id)
    }

    // MARK: Taking back

    /// Takes the change back in the transaction of `context`, which records what that does.
    ///
    /// - Parameter action: The title of the step, for error messages.
    /// - Throws: ``IntentError/historyConflict(action:reason:)`` when the store changed outside
    ///   the session so that the change can no longer be taken back.
    func takeBack(in context: IntentContext, action: String) throws {
        try TakingBack(context: context, action: action).takeBack(self)
    }
}

extension ChangeRecord.Neighbours {
    /// The neighbours an ordering service placed entries between.
    init(_ report: OrderingReport) {
        self.init(after: report.predecessor, before: report.successor)
    }
}

extension ChangeRecord.Run {
    /// The entries an ordering service placed, in their new order, and their neighbours.
    init(_ report: OrderingReport, in scope: OrderScope) {
        self.init(entries: report.placed.sorted().map(\.id), scope: scope, neighbours: ChangeRecord.Neighbours(report))
    }
}

/// One change being taken back: the transaction, and how to report a conflict.
private struct TakingBack {
    typealias Place = ChangeRecord.Place

    let context: IntentContext
    let transaction: any ItemWriting
    let action: String

    init(context: IntentContext, action: String) throws {
        self.context = context
        self.transaction = try context.writing(action)
        self.action = action
    }

    var ordering: OrderingService { context.ordering }

    func conflict(_ reason: HistoryConflict) -> IntentError {
        IntentError.historyConflict(action: action, reason: reason)
    }

    func existing(_ id: Item.ID) throws -> Item {
        guard let item = try transaction.item(id: id) else { throw conflict(.itemGone(id)) }
        return item
    }

    func takeBack(_ change: ChangeRecord) throws {
        switch change {
        case .applied(let change, let inverse):
            if let reason = try change.conflict(in: transaction) { throw conflict(HistoryConflict(reason)) }
            for change in inverse { try context.apply(change, action: action) }

        case .itemAdded(let item, _):
            try delete([item.id])

        case .restored(let lists, _, let items, let checklistItems):
            if lists.isEmpty, items.isEmpty { try deleteChecklistItems(checklistItems) }
            if lists.isEmpty, !items.isEmpty { try delete(items) }
            for list in lists { try deleteList(list) }

        case .itemsDeleted(_, let placed):
            try restore(placed)
            try context.record(.restored(lists: [], items: placed.map(\.item.id), checklistItems: placed.flatMap { $0.checklist.map(\.id) }))

        case .moved(_, let joining, let places):
            if !joining.isEmpty {
                let items = try joining.map(existing)
                let from = try ChangeRecord.todayPlaces(of: items, in: transaction)
                try transaction.removeFromToday(joining, updatedAt: context.now())
                try context.record(.leftToday(joining, from: from))
            }
            for place in places where try currentEntry(place.id, like: place.scope) == nil { throw conflict(missing(place)) }
            try putBack(places)

        case .leftToday(let ids, let places):
            for id in ids { _ = try existing(id) }
            try putBack(places, joiningToday: true)

        case .listCreated(let list, _):
            try deleteList(list.id)

        case .listDeleted(let list, let place, let headings, let items):
            guard try transaction.list(id: list.id) == nil else { throw conflict(.listExistsAgain(name: list.name)) }
            let at = try place.map(placement(after:)) ?? .bottom
            try ordering.add(list, at: at.map { ItemList.ID(entry: $0) }, in: transaction)
            // Each at the bottom, in their old order: the list is new again, so it holds them in order.
            for heading in headings { try ordering.add(heading, at: .bottom, in: transaction) }
            try restore(items)
            try context.record(.restored(
                lists: [list.id], headings: headings.map(\.id), items: items.map(\.item.id), checklistItems: items.flatMap { $0.checklist.map(\.id) }))

        case .checklistItemAdded(let entry, _):
            try deleteChecklistItems([entry.id])

        case .checklistItemsDeleted(_, let placed):
            try restore(placed)
            try context.record(.restored(lists: [], items: [], checklistItems: placed.map(\.entry.id)))

        case .headingCreated(let heading, _):
            guard let heading = try transaction.heading(id: heading.id) else { throw conflict(.headingGone(heading.id)) }
            try deleteHeading(heading)

        case .headingDeleted(let heading, let place, _, let placed):
            guard try transaction.heading(id: heading.id) == nil else { throw conflict(.headingExistsAgain(title: heading.title)) }
            let at = try place.map(placement(after:)) ?? .bottom
            let report = try ordering.add(heading, at: at.map { Heading.ID(entry: $0) }, in: transaction)
            try restore(placed)
            try context.record(.headingCreated(heading, at: ChangeRecord.Neighbours(report)))
            if !placed.isEmpty {
                try context.record(.restored(lists: [], items: placed.map(\.item.id), checklistItems: placed.flatMap { $0.checklist.map(\.id) }))
            }

        case .areaCreated(let area, _):
            guard let area = try transaction.area(id: area.id) else { throw conflict(.areaGone(area.id)) }
            try context.delete(area)

        case .areaDeleted(let area, let place):
            guard try transaction.area(id: area.id) == nil else { throw conflict(.areaExistsAgain(name: area.name)) }
            let at = try place.map(placement(after:)) ?? .bottom
            let report = try ordering.add(area, at: at.map { Area.ID(entry: $0) }, in: transaction)
            try context.record(.areaCreated(area, at: ChangeRecord.Neighbours(report)))

        case .orderRepaired, .rowsWritten:
            // Never a step of the history.
            break
        }
    }

    /// Deletes checklist entries again, with where they are now.
    private func deleteChecklistItems(_ ids: [ChecklistItem.ID]) throws {
        let entries = try ids.map { id in
            guard let entry = try transaction.checklistItem(id: id) else { throw conflict(.checklistItemGone(id)) }
            return entry
        }
        let placed = try ChangeRecord.placedChecklistItems(entries, in: transaction)
        for entry in entries { try transaction.deleteChecklistItem(id: entry.id) }
        try context.record(.checklistItemsDeleted(ids, placed: placed))
    }

    /// Deletes items again, with where they are now.
    private func delete(_ ids: [Item.ID]) throws {
        let placed = try ChangeRecord.placedItems(try ids.map(existing), in: transaction)
        for entry in placed { try transaction.deleteItem(id: entry.item.id) }
        try context.record(.itemsDeleted(ids, placed: placed))
    }

    /// Deletes a heading again with whatever items are under it, and records where they were.
    private func deleteHeading(_ heading: Heading) throws {
        let items = try transaction.items(in: .heading(heading.id))
        let place = try ChangeRecord.place(of: heading.entry, in: .headings(heading.listID), transaction: transaction)
        let placed = try ChangeRecord.placedItems(items, in: transaction)
        try transaction.deleteHeading(id: heading.id)
        try context.record(.headingDeleted(heading, place: place, items: items.map(\.id), placed: placed))
    }

    /// Deletes a list again with whatever items it has, unless it has become the default list.
    private func deleteList(_ id: ItemList.ID) throws {
        guard let list = try transaction.list(id: id) else { throw conflict(.listGone(id)) }
        guard try transaction.defaultListID() != id else { throw conflict(.becameDefault(name: list.name)) }
        let place = try ChangeRecord.place(of: list.entry, in: list.scope, transaction: transaction)
        let headings = try transaction.headings(in: id)
        let items = try ChangeRecord.placedItems(try transaction.items(in: id, visibility: .all, offset: 0, limit: .max), in: transaction)
        try transaction.deleteList(id: id)
        try context.record(.listDeleted(list, place: place, headings: headings, items: items))
    }

    /// Why the entry of a place cannot be put back.
    private func missing(_ place: Place) -> HistoryConflict {
        switch place.scope {
        case .lists, .area: .listGone(ItemList.ID(entry: place.id))
        case .areas: .areaGone(Area.ID(entry: place.id))
        case .items, .heading: .itemGone(Item.ID(entry: place.id))
        case .headings: .headingGone(Heading.ID(entry: place.id))
        case .today: .itemLeftToday(Item.ID(entry: place.id))
        case .checklist: .checklistItemGone(ChecklistItem.ID(entry: place.id))
        }
    }

    /// The entry of an item, list, checklist entry, area or heading in the ordering a place was
    /// recorded in: for an item recorded in a list, its entry in whatever list and heading it is
    /// in now; for a list, in whatever area (or none) it is in now; for a heading, in whatever list.
    private func currentEntry(_ id: OrderEntry.ID, like scope: OrderScope) throws -> (entry: OrderEntry, scope: OrderScope)? {
        switch scope {
        case .lists, .area:
            return try transaction.list(id: ItemList.ID(entry: id)).map { ($0.entry, $0.scope) }
        case .areas:
            return try transaction.area(id: Area.ID(entry: id)).map { ($0.entry, .areas) }
        case .today:
            return try transaction.entry(id: id, in: .today).map { ($0, .today) }
        case .items, .heading:
            guard let item = try transaction.item(id: Item.ID(entry: id)) else { return nil }
            return item.entry(in: item.scope).map { ($0, item.scope) }
        case .headings:
            return try transaction.heading(id: Heading.ID(entry: id)).map { ($0.entry, .headings($0.listID)) }
        case .checklist:
            return try transaction.checklistItem(id: ChecklistItem.ID(entry: id)).map { ($0.entry, .checklist($0.itemID)) }
        }
    }

    /// Puts entries back at their places, a run of neighbours at a time, and records each move.
    ///
    /// - Parameters:
    ///   - recording: Whether to record the moves; a restore records what it restores whole.
    ///   - joiningToday: Whether items join Today rather than move in it.
    private func putBack(_ places: [Place], recording: Bool = true, joiningToday: Bool = false) throws {
        for run in places.chunked(by: { $1.scope == $0.scope && $1.predecessor == $0.id }) {
            let scope = run[0].scope
            var from: [Place] = []
            if recording, !joiningToday {
                for place in run {
                    guard let current = try currentEntry(place.id, like: scope) else { continue }
                    from.append(try ChangeRecord.place(of: current.entry, in: current.scope, transaction: transaction))
                }
            }
            let report = try ordering.place(run.map(\.id), at: try placement(after: run[0]), in: scope, visibility: .all, in: transaction)
            guard recording else { continue }
            try context.recordPlacement(report, in: scope, joining: joiningToday ? run.map { Item.ID(entry: $0.id) } : [], from: from)
        }
    }

    /// Adds deleted items back, each after its predecessor in its list, then in Today, with
    /// their checklists as they were.
    private func restore(_ placed: [ChangeRecord.PlacedItem]) throws {
        for entry in placed where try transaction.item(id: entry.item.id) != nil {
            throw conflict(.itemExistsAgain(entry.item.id))
        }
        for entry in placed {
            var item = entry.item
            item.todayIndex = nil
            try ordering.add(item, at: try placement(after: entry.place).map { Item.ID(entry: $0) }, visibility: .all, in: transaction)
            // The checklist was whole, and its keys are free in the new item's empty checklist.
            for checklistItem in entry.checklist { try transaction.insert(checklistItem) }
        }
        // In their old order in Today, so that each predecessor is back before its successor.
        let todayPlaces = placed.compactMap { entry -> (key: OrderKey, place: Place)? in
            guard let place = entry.todayPlace, let key = entry.item.entry(in: .today)?.key else { return nil }
            return (key, place)
        }
        try putBack(todayPlaces.sorted { $0.key < $1.key }.map(\.place), recording: false)
    }

    /// Adds deleted checklist entries back, each after its predecessor in its checklist.
    private func restore(_ placed: [ChangeRecord.PlacedChecklistItem]) throws {
        for placed in placed where try transaction.checklistItem(id: placed.entry.id) != nil {
            throw conflict(.checklistItemExistsAgain(placed.entry.id))
        }
        for placed in placed {
            try ordering.add(placed.entry, at: try placement(after: placed.place).map { ChecklistItem.ID(entry: $0) }, in: transaction)
        }
    }

    /// Directly after a place's predecessor, or at the top when there is none.
    ///
    /// - Throws: ``IntentError/historyConflict(action:reason:)`` when the place's list, its
    ///   checklist's item, its area, or its predecessor is gone.
    private func placement(after place: Place) throws -> Placement<OrderEntry.ID> {
        var listName: String?
        switch place.scope {
        case .items(let id):
            guard let list = try transaction.list(id: id) else { throw conflict(.listGone(id)) }
            listName = list.name
        case .checklist(let id):
            guard try transaction.item(id: id) != nil else { throw conflict(.itemGone(id)) }
        case .area(let id):
            guard try transaction.area(id: id) != nil else { throw conflict(.areaGone(id)) }
        case .headings(let id):
            guard try transaction.list(id: id) != nil else { throw conflict(.listGone(id)) }
        case .heading(let id):
            guard try transaction.heading(id: id) != nil else { throw conflict(.headingGone(id)) }
        case .lists, .today, .areas:
            break
        }
        guard let predecessor = place.predecessor else { return .top }
        guard try transaction.entry(id: predecessor, in: place.scope) != nil else {
            throw conflict(.neighbourGone(predecessor, in: place.scope, listName: listName))
        }
        return .after(predecessor)
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
        case .itemEditedSince(let field, let item): .editedSince(EditedField(field), item: item.id, title: item.title)
        case .checklistItemEditedSince(let entry): .checklistItemEditedSince(entry: entry.id, title: entry.title)
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
        }
    }
}
