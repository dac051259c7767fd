public import ArrangeModel
package import ArrangeStore
public import Foundation

/// The identity of a replica: one database, on one device.
public typealias ReplicaID = Identifier<Replica>

/// A database that makes and receives operations, as sync names it.
public enum Replica {}

/// One change a person made, as replicas exchange it: what they meant, not the keys it wrote.
///
/// A placement records the visible neighbours an entry went between, in the ordering it went
/// to, so that a replica that replays it later lands it next to the same neighbours, whatever
/// keys they have there by then.
public struct SyncOperation: Codable, Hashable, Sendable, Identifiable {
    /// The operation's globally unique identity.
    public typealias ID = Identifier<SyncOperation>

    /// The operation's identity.
    public var id: ID
    /// The replica that made it.
    public var replica: ReplicaID
    /// Its number among that replica's operations, from 1, without gaps.
    public var sequence: Int64
    /// When it was made, on the replica's hybrid logical clock.
    public var clock: HLCTimestamp
    /// What it does.
    public var change: SyncChange

    /// An operation of these parts.
    public init(id: ID = ID(), replica: ReplicaID, sequence: Int64, clock: HLCTimestamp, change: SyncChange) {
        self.id = id
        self.replica = replica
        self.sequence = sequence
        self.clock = clock
        self.change = change
    }

    /// The operation's place in the one order every replica applies operations in:
    /// `(clock, replica, sequence, id)`.
    package var order: OperationOrder {
        OperationOrder(milliseconds: clock.milliseconds, counter: Int64(clock.counter), replica: replica.rawValue, sequence: sequence, id: id.rawValue)
    }
}

/// Which operation another one names: its identity and its place in the total order.
public struct OperationReference: Codable, Hashable, Sendable {
    /// The operation's id.
    public var id: SyncOperation.ID
    /// The replica that made it.
    public var replica: ReplicaID
    /// Its sequence number on that replica.
    public var sequence: Int64
    /// Its clock.
    public var clock: HLCTimestamp

    /// A reference to `operation`.
    public init(_ operation: SyncOperation) {
        self.id = operation.id
        self.replica = operation.replica
        self.sequence = operation.sequence
        self.clock = operation.clock
    }

    /// The operation's place in the total order.
    package var order: OperationOrder {
        OperationOrder(milliseconds: clock.milliseconds, counter: Int64(clock.counter), replica: replica.rawValue, sequence: sequence, id: id.rawValue)
    }
}

/// Where entries went in an ordering: between the visible neighbours they were dropped between.
/// A missing neighbour is an end.
public struct SyncPlace: Codable, Hashable, Sendable {
    /// The entry just before, or `nil` at the top.
    public var after: OrderEntry.ID?
    /// The entry just after, or `nil` at the bottom.
    public var before: OrderEntry.ID?

    /// A place between `after` and `before`.
    public init(after: OrderEntry.ID?, before: OrderEntry.ID?) {
        self.after = after
        self.before = before
    }
}

/// What an operation does: one case for each kind of change an intent makes.
///
/// Moves of several entries keep them one contiguous run, in the order given.
public enum SyncChange: Codable, Hashable, Sendable {
    /// A list was created at a place among the lists.
    case createList(id: ItemList.ID, name: String, place: SyncPlace)
    /// A list was renamed.
    case renameList(id: ItemList.ID, name: String)
    /// A list was moved among the lists.
    case moveList(id: ItemList.ID, place: SyncPlace)
    /// A list was deleted with its items.
    case deleteList(id: ItemList.ID)
    /// An item was added to a list at a place.
    case addItem(id: Item.ID, list: ItemList.ID, title: String, notes: String, place: SyncPlace)
    /// An item's title or notes (those given) changed.
    case editItem(id: Item.ID, title: String?, notes: String?)
    /// Items were completed at a moment.
    case completeItems(ids: [Item.ID], at: Date)
    /// Items were reopened.
    case reopenItems(ids: [Item.ID])
    /// Items were deleted, from their lists and from Today.
    case deleteItems(ids: [Item.ID])
    /// Items moved, as one run, to a place in a list (their own or another).
    case moveItems(ids: [Item.ID], list: ItemList.ID, place: SyncPlace)
    /// Items joined Today, or moved in it, as one run at a place.
    case addToToday(ids: [Item.ID], place: SyncPlace)
    /// Items left Today.
    case removeFromToday(ids: [Item.ID])
    /// Items of Today moved, as one run, to a place in it.
    case moveInToday(ids: [Item.ID], place: SyncPlace)
    /// The keys of an ordering were repaired (`normalize` false: ties and cramped gaps only) or
    /// spread evenly (`normalize` true); its order did not change.
    case repairOrder(scope: OrderScope, normalize: Bool)
    /// The change of an operation that reached a replica after it had folded away the operations
    /// around it, made again there as an operation of its own. The operation it replaces is
    /// not applied anywhere, and of several replacements of one operation only the first, in
    /// the total order, is (see ``SyncEngine``).
    indirect case replacement(of: OperationReference, change: SyncChange)

    /// The change itself: for a replacement, the change it makes again.
    public var effect: SyncChange {
        if case .replacement(_, let change) = self { change.effect } else { self }
    }
}
