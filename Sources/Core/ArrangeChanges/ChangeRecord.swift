package import ArrangeModel
public import ArrangeStore
import Foundation

/// One change an intent made to the store, recorded once, as it is made.
///
/// The undo history keeps the records of an intent to take it back, and a ``ChangeLog`` (sync)
/// turns each into what it logs, so a new intent says what it did in one place. A record holds
/// what the change did (where entries went, what they became) and, when the environment keeps a
/// history, what taking it back needs (where they were, what they were). Places are neighbours,
/// never raw keys: a later change may re-spread the keys around them.
package enum ChangeRecord: Sendable {
    /// A change was made as every replica makes it; `inverse`, read before it applied when the
    /// environment keeps a history, takes it back.
    case applied(any ReversibleChange, inverse: [any ReversibleChange])
    /// The ordering service placed entries of an ordering as one run, in this order, between
    /// neighbours, at a place an intent chose (an offset, an anchor, with keys of its own); in
    /// Today, items not in it yet (`joining`) joined it. `inverse`, read before, takes it back.
    case placed(Run, joining: [Item.ID], inverse: [any ReversibleChange])
    /// The keys of an ordering were repaired (ties and cramped gaps) or, `normalized`, spread
    /// evenly; the order people see did not change. It is not a step of the history.
    case keysRepaired(OrderScope, normalized: Bool)
    /// Whatever the transaction writes, before and after, is told by its rows as they end: for a
    /// bulk write such as an import, whose every row is meant as it ends. It is not a step of the history.
    case rowsWritten

    /// The entries just before and just after a run of entries in an ordering; `nil` at an end.
    package struct Neighbours: Hashable, Sendable {
        package var after: OrderEntry.ID?
        package var before: OrderEntry.ID?

        package init(after: OrderEntry.ID?, before: OrderEntry.ID?) {
            (self.after, self.before) = (after, before)
        }
    }

    /// Entries of one ordering, in their order there, and their neighbours around them.
    package struct Run: Sendable {
        package var entries: [OrderEntry.ID]
        package var scope: OrderScope
        package var neighbours: Neighbours

        package init(entries: [OrderEntry.ID], scope: OrderScope, neighbours: Neighbours) {
            (self.entries, self.scope, self.neighbours) = (entries, scope, neighbours)
        }
    }

    /// Where an entry was: its ordering, and the entry just before it there (`nil` at the top).
    package struct Place: Sendable {
        package var id: OrderEntry.ID
        package var scope: OrderScope
        package var predecessor: OrderEntry.ID?

        package init(id: OrderEntry.ID, scope: OrderScope, predecessor: OrderEntry.ID?) {
            (self.id, self.scope, self.predecessor) = (id, scope, predecessor)
        }
    }

    /// A deleted item and where it was: in its list, and in Today when it was there; with its
    /// checklist, in order.
    package struct PlacedItem: Sendable {
        package var item: Item
        package var place: Place
        package var todayPlace: Place?
        package var checklist: [ChecklistItem]

        package init(item: Item, place: Place, todayPlace: Place?, checklist: [ChecklistItem] = []) {
            (self.item, self.place, self.todayPlace, self.checklist) = (item, place, todayPlace, checklist)
        }
    }

    /// A deleted checklist entry and where it was in its checklist.
    package struct PlacedChecklistItem: Sendable {
        package var entry: ChecklistItem
        package var place: Place

        package init(entry: ChecklistItem, place: Place) {
            (self.entry, self.place) = (entry, place)
        }
    }

    /// The operations that tell the change, read against the store as the change left it: what
    /// sync logs for it. ``rowsWritten`` tells nothing by itself: the change it stands for is
    /// told by its rows, once the whole change is made.
    package func told(in store: any ItemReading) throws -> [SyncChange] {
        switch self {
        case .applied(let change, _): try change.told(in: store)
        case .placed(let run, let joining, _): try SyncChange.placing(run, joining: joining, in: store)
        case .keysRepaired(let scope, let normalized): [try SyncChange.repairing(scope, normalized: normalized, in: store)]
        case .rowsWritten: []
        }
    }

    /// Whether the record is a step people can undo; repairs and bulk writes are not.
    package var isUndoable: Bool {
        switch self {
        case .applied, .placed: true
        case .keysRepaired, .rowsWritten: false
        }
    }
}

/// Logs the changes intents make, in their own transactions: what sync plugs into an
/// environment, so that an app that never syncs links no sync engine.
///
/// An environment runs each intent that writes through ``recording(in:_:)``; the intent records
/// each change in the ``ChangeJournal`` it is handed, and the log writes what it needs in the
/// same transaction, so the change and its record commit or roll back together.
public protocol ChangeLog: Sendable {
    /// Runs `body` in `transaction` with a journal to record its changes in, and logs them.
    ///
    /// - Parameters:
    ///   - transaction: The write transaction of an intent.
    ///   - body: Makes the change through the journal's ``ChangeJournal/transaction`` and records it there.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or the log's own errors; the caller's transaction then rolls back.
    func recording<Result>(in transaction: any ItemWriting, _ body: (ChangeJournal) throws -> Result) throws -> Result
}

/// Where an intent's transaction records its changes, as it makes them.
public final class ChangeJournal {
    /// The transaction to make the changes through: the log may watch what it writes.
    public let transaction: any ItemWriting
    /// Takes each record as it is made.
    private let take: (ChangeRecord) throws -> Void

    /// A journal whose changes are made through `transaction`, and each of whose records goes to `take`.
    package init(transaction: any ItemWriting, take: @escaping (ChangeRecord) throws -> Void) {
        self.transaction = transaction
        self.take = take
    }

    /// Records a change just made.
    package func record(_ change: ChangeRecord) throws {
        try take(change)
    }
}
