import ArrangeModel
import ArrangeStore
import Foundation

/// The write transaction of an intent on a store with lists shared with other people: it
/// refuses, before it is done, what the device may not do to them.
///
/// - An item, a heading or a checklist entry never moves between a shared list and another
///   list (``IntentError/crossesShare(_:from:to:)``): each list's log holds its own things.
/// - A list the user only views changes in nothing that is the same for every member
///   (``IntentError/viewOnlyList(_:owner:)``): its items, headings, checklists, dates, order and
///   name. What stays each person's own still changes: whether an item is in their Today
///   (`Item.todayMark`) and its place there, its evening, reminder, tags and dismissed deadline,
///   and the list's place in the sidebar.
/// - Only its owner deletes a shared list, for every member
///   (``IntentError/sharedListOfAnother(_:owner:)``): a member leaves it instead.
///
/// It watches the rows written (``apply(_:)``), so every intent, and every intent an app
/// composes of them, is held to the same rules. Changes merged from other devices do not pass
/// through it.
final class ShareGuard: ForwardingTransaction {
    private let shares: [ItemList.ID: ListShare]

    /// A guard in front of `base`, which holds `shares`.
    init(_ base: any ItemWriting, shares: [ListShare]) {
        self.shares = Dictionary(shares.map { ($0.list, $0) }, uniquingKeysWith: { $1 })
        super.init(base)
    }

    override func apply(_ change: RowChange) throws {
        try check(change)
        try super.apply(change)
    }

    private func check(_ change: RowChange) throws {
        switch change {
        case .insert(.item(let item)):
            try ensureEditable(item.listID)
        case .update(.item(let item)):
            guard let old = try base.item(id: item.id) else { return }
            try ensureSameLog(item.title, from: old.listID, to: item.listID)
            if old.shared != item.shared { try ensureEditable(item.listID) }
        case .delete(.item(let id)):
            if let old = try base.item(id: id) { try ensureEditable(old.listID) }
        case .insert(.heading(let heading)):
            try ensureEditable(heading.listID)
        case .update(.heading(let heading)):
            guard let old = try base.heading(id: heading.id) else { return }
            try ensureSameLog(heading.title, from: old.listID, to: heading.listID)
            if old != heading { try ensureEditable(heading.listID) }
        case .delete(.heading(let id)):
            if let old = try base.heading(id: id) { try ensureEditable(old.listID) }
        case .insert(.checklistItem(let entry)):
            try ensureEditable(try list(ofItem: entry.itemID))
        case .update(.checklistItem(let entry)):
            guard let old = try base.checklistItem(id: entry.id) else { return }
            try ensureSameLog(entry.title, from: try list(ofItem: old.itemID), to: try list(ofItem: entry.itemID))
            if old != entry { try ensureEditable(try list(ofItem: entry.itemID)) }
        case .delete(.checklistItem(let id)):
            if let old = try base.checklistItem(id: id) { try ensureEditable(try list(ofItem: old.itemID)) }
        case .update(.list(let list)):
            guard let old = try base.list(id: list.id) else { return }
            if old.trashedAt == nil, list.trashedAt != nil { try ensureOwned(list.id) }
            if old.shared != list.shared { try ensureEditable(list.id) }
        case .delete(.list(let id)):
            try ensureOwned(id)
        case .insert(.series(let series)), .update(.series(let series)):
            try ensureEditable(series.listID)
        case .delete(.series(let id)):
            if let old = try base.series(id: id) { try ensureEditable(old.listID) }
        case .setSortIndices(let changes, let scope, _):
            try check(changes.map(\.id), placedIn: scope)
        case .insert, .update, .delete, .removeFromToday, .setDefaultList, .mergeTag, .unmergeTag, .setValue, .setListShare:
            break
        }
    }

    /// Checks entries given keys in `scope`: those it takes in from elsewhere move there, and
    /// an ordering of a shared list's changes it.
    private func check(_ entries: [OrderEntry.ID], placedIn scope: OrderScope) throws {
        let target: ItemList.ID
        switch scope {
        case .items(let list): target = list
        case .heading(let heading): target = try base.existingHeading(id: heading).listID
        case .headings(let list):
            for id in entries {
                if let heading = try base.heading(id: Heading.ID(entry: id)) { try ensureSameLog(heading.title, from: heading.listID, to: list) }
            }
            try ensureEditable(list)
            return
        case .checklist(let item): target = try list(ofItem: item)
        case .today, .lists, .areas, .area, .tags: return
        }
        for id in entries {
            if let item = try base.item(id: Item.ID(entry: id)) { try ensureSameLog(item.title, from: item.listID, to: target) }
            if let entry = try base.checklistItem(id: ChecklistItem.ID(entry: id)) {
                try ensureSameLog(entry.title, from: try list(ofItem: entry.itemID), to: target)
            }
        }
        try ensureEditable(target)
    }

    /// The list of an item.
    private func list(ofItem id: Item.ID) throws -> ItemList.ID {
        try base.existingItem(id: id).listID
    }

    /// Throws ``IntentError/crossesShare(_:from:to:)`` when `from` and `to` are not of the same
    /// log: one shared and the other not, or two shared lists.
    private func ensureSameLog(_ title: String, from: ItemList.ID, to: ItemList.ID) throws {
        guard from != to, shares[from] != nil || shares[to] != nil else { return }
        throw IntentError.crossesShare(title, from: try name(of: from), to: try name(of: to))
    }

    /// Throws ``IntentError/sharedListOfAnother(_:owner:)`` for a list shared by someone else:
    /// deleting it, or putting it in the Trash, would do so for every member.
    private func ensureOwned(_ list: ItemList.ID) throws {
        guard let share = shares[list], !share.isOwned else { return }
        throw IntentError.sharedListOfAnother(try name(of: list), owner: share.owner)
    }

    /// Throws ``IntentError/viewOnlyList(_:owner:)`` for a list the user only views.
    private func ensureEditable(_ list: ItemList.ID) throws {
        guard let share = shares[list], share.role == .view else { return }
        throw IntentError.viewOnlyList(try name(of: list), owner: share.owner)
    }

    private func name(of list: ItemList.ID) throws -> String {
        try base.list(id: list)?.name ?? list.description
    }
}

extension Item {
    /// The item as every member of its shared list sees it: what stays each person's own
    /// (Today's mark and order, the evening, the reminder, tags, a dismissed deadline) and the
    /// moment of the last write left out.
    fileprivate var shared: Item {
        var item = self
        (item.todayIndex, item.todayMark, item.reminder, item.deadlineDismissed, item.tags, item.updatedAt) = (nil, nil, nil, false, [], .distantPast)
        if case .on(let day, _) = when { item.when = .on(day) }
        return item
    }
}

extension ItemList {
    /// The list as every member sees it: its place in the sidebar, its area, tags and evening
    /// left out, which are each person's own.
    fileprivate var shared: ItemList {
        var list = self
        (list.sortIndex, list.area, list.tags) = (0, nil, [])
        if case .on(let day, _) = when { list.when = .on(day) }
        return list
    }
}
