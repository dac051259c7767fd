public import ArrangeModel
import ArrangeStore
public import Foundation

/// What ``SyncEngine/applyShares(_:)`` did to the lists shared with this store.
public struct ShareUpdate: Hashable, Sendable {
    /// The lists the server says are shared with the user that this store does not hold yet:
    /// pull each from its log, then apply the shares again.
    public var missing: [ItemList.ID] = []
    /// For each list the user is no longer in, removed or gone, the list of their own that
    /// took its place, with everything it held.
    public var kept: [ItemList.ID: ItemList.ID] = [:]

    /// An update that changed nothing.
    public init() {}
}

extension SyncEngine {
    /// Shares a list of this store: records that `share.list` is shared, and logs what it holds
    /// (the list, its headings, items, checklists and repeating series, each person's own
    /// placements left out) as this store's replica of the list, so that the list's first
    /// sync (``SyncRemote/list``) carries it to its members.
    ///
    /// The list lands at the bottom of each member's sidebar, in no area.
    ///
    /// - Returns: How many operations were logged for the list's log.
    /// - Throws: `StoreError.listNotFound` when the store holds no such list.
    /// - Complexity: O(n) for the list's n items.
    @discardableResult
    public func startSharing(_ share: ListShare) async throws -> Int {
        try await repository.write { transaction in
            let log = try Self.log(of: transaction)
            guard try log.list(id: share.list) != nil else { throw StoreError.listNotFound(share.list) }
            let replica = try self.preparedReplica(in: log)
            try log.apply(.setListShare(share, of: share.list))
            let items = try log.items(in: share.list, visibility: .all, offset: 0, limit: .max)
            let entries = try log.checklists(of: items.map(\.id)).values.joined()
            let series = try log.allSeries().filter { $0.listID == share.list }
            let restated = try SyncChange.changes(
                bringingLists: [share.list: nil], items: Dictionary(uniqueKeysWithValues: items.map { ($0.id, nil) }),
                checklistItems: Dictionary(uniqueKeysWithValues: entries.map { ($0.id, nil) }),
                headings: Dictionary(uniqueKeysWithValues: try log.headings(in: share.list).map { ($0.id, nil) }),
                series: Dictionary(uniqueKeysWithValues: series.map { ($0.id, nil) }), upToDateIn: log)
            .map(Self.restatedForMembers)
            // What is each person's own is logged already, in the user's own log.
            let routing = try SharedLogRouting(log, rewind: Rewind())
            let shared = try restated.filter { try routing.list(of: $0) == share.list }
            return try self.log(shared, of: replica, rewind: Rewind(), in: log).count
        }
    }

    /// A change that makes part of a list that is being shared, as its members take it:
    /// - where the list is in the sidebar, and in which area, is each member's own, so it goes
    ///   nowhere in particular (the bottom);
    /// - each thing is placed after the one before it alone, which the list's log holds
    ///   already: the one after it comes later, and the server takes no name of a thing that
    ///   the list's log does not hold yet.
    private static func restatedForMembers(_ change: SyncChange) -> SyncChange {
        switch change {
        case .createList(var created):
            (created.place, created.area) = (SyncPlace(after: nil, before: nil), nil)
            return created.change
        case .addItem(var added):
            added.place.before = nil
            return added.change
        case .createHeading(var created):
            created.place.before = nil
            return created.change
        case .addChecklistItem(var added):
            added.place.before = nil
            return added.change
        default:
            return change
        }
    }

    /// Records the lists the sync server says are shared with the user (`ListShare`), and
    /// keeps, as lists of the user's own, those the user is no longer in: a list they were
    /// removed from, or left, stays with everything it held, under ids derived from the shared
    /// ones (``keptID(of:)``), so that each of the user's devices makes the same copy.
    ///
    /// - Parameter shares: Every list shared with the user, their own included.
    /// - Returns: The lists to pull first, and the lists kept.
    /// - Complexity: O(n) for the n items of the lists kept.
    public func applyShares(_ shares: [ListShare]) async throws -> ShareUpdate {
        try await repository.write { transaction in
            let log = try Self.log(of: transaction)
            var update = ShareUpdate()
            let told = Set(shares.map(\.list))
            for share in shares {
                guard try log.list(id: share.list) != nil else {
                    update.missing.append(share.list)
                    continue
                }
                if try log.share(of: share.list) != share { try log.apply(.setListShare(share, of: share.list)) }
            }
            for gone in try log.listShares() where !told.contains(gone.list) {
                update.kept[gone.list] = try self.keep(gone.list, in: log)
            }
            return update
        }
    }

    /// The id a list, heading, item, checklist entry or series of a shared list takes in the
    /// list of the user's own that keeps it, once the user is no longer in the list: the same
    /// on every device.
    public static func keptID(of id: UUID) -> UUID {
        UUID(named: id.lowercasedString, in: keptNamespace)
    }

    /// The namespace of ``keptID(of:)``.
    private static let keptNamespace = UUID(uuid: (0x6B, 0x65, 0x70, 0x74, 0x2D, 0x73, 0x68, 0x61, 0x72, 0x65, 0x64, 0x2D, 0x6C, 0x69, 0x73, 0x74))

    /// Replaces the shared list `list` with a list of the user's own that holds the same, in
    /// the same place, logged in the user's own log alone: each of the user's devices makes
    /// the same copy, and a thing another device copied already is left as it is.
    private func keep(_ list: ItemList.ID, in log: any LogWriting) throws -> ItemList.ID {
        let copy = ItemList.ID(rawValue: Self.keptID(of: list.rawValue))
        _ = try logging(in: log, sharing: []) { recorder in
            guard let shared = try recorder.list(id: list) else { return ((), []) }
            let headings = try recorder.headings(in: list)
            let items = try recorder.items(in: list, visibility: .all, offset: 0, limit: .max)
            let entries = try recorder.checklists(of: items.map(\.id)).values.joined()
            let series = try recorder.allSeries().filter { $0.listID == list }
            // Gone first, so that the copy takes the name.
            try recorder.deleteList(id: list)
            func kept<Subject>(_ id: Identifier<Subject>) -> Identifier<Subject> { Identifier(rawValue: Self.keptID(of: id.rawValue)) }
            var made = (lists: [ItemList.ID: ItemList?](), headings: [Heading.ID: Heading?](), items: [Item.ID: Item?](),
                        entries: [ChecklistItem.ID: ChecklistItem?](), series: [Series.ID: Series?]())
            if try recorder.list(id: copy) == nil {
                var row = shared
                row.id = copy
                try recorder.insert(row)
                made.lists[copy] = .some(nil)
            }
            for var heading in headings where try recorder.heading(id: kept(heading.id)) == nil {
                (heading.id, heading.listID) = (kept(heading.id), copy)
                try recorder.insert(heading)
                made.headings[heading.id] = .some(nil)
            }
            for var repeating in series where try recorder.series(id: kept(repeating.id)) == nil {
                (repeating.id, repeating.listID, repeating.heading) = (kept(repeating.id), copy, repeating.heading.map(kept))
                try recorder.insert(repeating)
                made.series[repeating.id] = .some(nil)
            }
            for var item in items where try recorder.item(id: kept(item.id)) == nil {
                (item.id, item.listID, item.heading, item.series) = (kept(item.id), copy, item.heading.map(kept), item.series.map(kept))
                try recorder.insert(item)
                made.items[item.id] = .some(nil)
            }
            for var entry in entries where try recorder.checklistItem(id: kept(entry.id)) == nil {
                (entry.id, entry.itemID) = (kept(entry.id), kept(entry.itemID))
                try recorder.insert(entry)
                made.entries[entry.id] = .some(nil)
            }
            // The delete told first, as it was made: a device that replays the copy's creation
            // after it finds the name free.
            let creations = try SyncChange.changes(
                bringingLists: made.lists, items: made.items, checklistItems: made.entries, headings: made.headings, series: made.series,
                upToDateIn: recorder)
            return ((), [SyncChange.deletion(ofList: list).change] + creations)
        }
        return copy
    }
}
