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
    /// The operation as it arrived from elsewhere, byte for byte, when that holds what this
    /// version does not read: a field, or a kind of change, of a newer version. It is logged and
    /// passed on as it came, so that a device of an older version that relays operations for a
    /// newer one strips nothing. It is not part of the operation's value: two operations that
    /// differ only in it are equal.
    public var original: Data?

    /// An operation of these parts.
    public init(id: ID = ID(), replica: ReplicaID, sequence: Int64, clock: HLCTimestamp, change: SyncChange, original: Data? = nil) {
        self.id = id
        self.replica = replica
        self.sequence = sequence
        self.clock = clock
        self.change = change
        self.original = original
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        (lhs.id, lhs.replica, lhs.sequence, lhs.clock) == (rhs.id, rhs.replica, rhs.sequence, rhs.clock) && lhs.change == rhs.change
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(sequence)
        hasher.combine(change)
    }

    /// Whether two operations are the same one, as each arrived: equal, and, when both came
    /// with what this version does not read, with the same bytes.
    public func isSame(as other: Self) -> Bool {
        self == other && (original == nil || other.original == nil || original == other.original)
    }

    private enum CodingKeys: String, CodingKey {
        case id, replica, sequence, clock, change
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
        self.init(id: operation.id, replica: operation.replica, sequence: operation.sequence, clock: operation.clock)
    }

    /// A reference to the operation of these parts.
    init(id: SyncOperation.ID, replica: ReplicaID, sequence: Int64, clock: HLCTimestamp) {
        self.id = id
        self.replica = replica
        self.sequence = sequence
        self.clock = clock
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
    /// A list was created at a place among the lists of an area, or of none (`area` `nil`,
    /// and absent from the JSON).
    case createList(id: ItemList.ID, name: String, place: SyncPlace, area: Area.ID? = nil)
    /// A list was renamed.
    case renameList(id: ItemList.ID, name: String)
    /// A list was moved to a place among the lists of an area, or of none (`area` `nil`, and
    /// absent from the JSON): into that area, or out of any, when it was elsewhere.
    case moveList(id: ItemList.ID, place: SyncPlace, area: Area.ID? = nil)
    /// A list was deleted with its items.
    case deleteList(id: ItemList.ID)
    /// An item was added to a list at a place, under a heading of it or under none (`heading`
    /// `nil`, and absent from the JSON).
    case addItem(id: Item.ID, list: ItemList.ID, title: String, notes: String, place: SyncPlace, heading: Heading.ID? = nil)
    /// An item's title or notes (those given) changed.
    case editItem(id: Item.ID, title: String?, notes: String?)
    /// Items were completed at a moment.
    case completeItems(ids: [Item.ID], at: Date)
    /// Items were reopened.
    case reopenItems(ids: [Item.ID])
    /// Items were deleted, from their lists and from Today.
    case deleteItems(ids: [Item.ID])
    /// Items moved, as one run, to a place in a list (their own or another), under a heading of
    /// it or under none (`heading` `nil`, and absent from the JSON). Items moved under a heading
    /// that is gone go under none.
    case moveItems(ids: [Item.ID], list: ItemList.ID, place: SyncPlace, heading: Heading.ID? = nil)
    /// Items joined Today, or moved in it, as one run at a place.
    case addToToday(ids: [Item.ID], place: SyncPlace)
    /// Items left Today.
    case removeFromToday(ids: [Item.ID])
    /// Items of Today moved, as one run, to a place in it.
    case moveInToday(ids: [Item.ID], place: SyncPlace)
    /// Sets when items are meant to be done: a start date (perhaps in its evening), someday, or anytime.
    case setWhen(ids: [Item.ID], when: When)
    /// Sets items' deadline, or takes it away (`nil`, absent from the JSON).
    case setDeadline(ids: [Item.ID], deadline: Day?)
    /// Items' deadlines stopped bringing them into Today (`dismissed`), or started again.
    case dismissDeadlines(ids: [Item.ID], dismissed: Bool)
    /// An entry was added to an item's checklist at a place there.
    case addChecklistItem(id: ChecklistItem.ID, item: Item.ID, title: String, place: SyncPlace)
    /// A checklist entry got a new title.
    case editChecklistItem(id: ChecklistItem.ID, title: String)
    /// Entries of an item's checklist moved, as one run, to a place in it; entries of another
    /// item's checklist stay where they are.
    case moveChecklistItems(ids: [ChecklistItem.ID], item: Item.ID, place: SyncPlace)
    /// Checklist entries were completed at a moment.
    case completeChecklistItems(ids: [ChecklistItem.ID], at: Date)
    /// Checklist entries were reopened.
    case reopenChecklistItems(ids: [ChecklistItem.ID])
    /// Checklist entries were deleted.
    case deleteChecklistItems(ids: [ChecklistItem.ID])
    /// An area was created at a place among the areas.
    case createArea(id: Area.ID, name: String, place: SyncPlace)
    /// An area was renamed.
    case renameArea(id: Area.ID, name: String)
    /// An area was moved among the areas.
    case moveArea(id: Area.ID, place: SyncPlace)
    /// An area was deleted. Its lists stay: those still in it move to the bottom of the lists in no area, in their order.
    case deleteArea(id: Area.ID)
    /// A heading was created at a place among the headings of a list.
    case createHeading(id: Heading.ID, list: ItemList.ID, title: String, place: SyncPlace)
    /// A heading got a new title.
    case renameHeading(id: Heading.ID, title: String)
    /// A heading moved to a place among the headings of a list, its own or another; the items
    /// under it go with it.
    case moveHeading(id: Heading.ID, list: ItemList.ID, place: SyncPlace)
    /// A heading was deleted. The items it held are deleted by a ``deleteItems(ids:)`` before
    /// it; those still under it (moved there meanwhile on another device) stay, and move to
    /// the bottom of their list's items under no heading, in their order.
    case deleteHeading(id: Heading.ID)
    /// The keys of a list's headings (`heading` `nil`) or of the items under one of its
    /// headings were repaired or spread evenly: a kind of its own, as
    /// ``repairChecklist(item:normalize:)`` is.
    case repairHeadings(list: ItemList.ID, heading: Heading.ID?, normalize: Bool)
    /// The keys of an ordering were repaired (`normalize` false: ties and cramped gaps only) or
    /// spread evenly (`normalize` true); its order did not change. A checklist's are logged as
    /// ``repairChecklist(item:normalize:)``, the areas' and an area's lists' as
    /// ``repairAreas(area:normalize:)``.
    case repairOrder(scope: OrderScope, normalize: Bool)
    /// The keys of an item's checklist were repaired or spread evenly, as ``repairOrder(scope:normalize:)``
    /// tells of other orderings: a kind of its own, so that a version without checklists takes
    /// it for a change of a newer version, not for a damaged `repairOrder`.
    case repairChecklist(item: Item.ID, normalize: Bool)
    /// The keys of the areas (`area` `nil`) or of an area's lists were repaired or spread
    /// evenly: a kind of its own, as ``repairChecklist(item:normalize:)`` is, so that a version
    /// without areas keeps it as a change of a newer version.
    case repairAreas(area: Area.ID?, normalize: Bool)
    /// A replica was forgotten: a database that is gone (a lost phone, a file retired after a
    /// restore or a copy). Its operations stay; it no longer holds compaction back anywhere.
    case retireReplica(id: ReplicaID)
    /// A database left its replica id `id` on finding another line of that id's history: a
    /// copy of it, or itself restored from a backup. The other line may still be in use, and
    /// unaware: the id holds compaction back until that line leaves the id too, which it does
    /// on learning of this (``retireReplica(id:)``), or until
    /// ``SyncEngine/forkedReplicaGrace`` has passed, for a line that is gone.
    case leaveForkedReplica(id: ReplicaID)
    /// A change of a kind this version does not know, from a newer version of Arrange: `kind`
    /// is its name and `json` its JSON as it came. The merge keeps it in its place and passes it
    /// on, but does not apply it; a version that knows the kind applies it there.
    case unknown(kind: String, json: Data)
    /// The change of an operation that reached a replica after it had folded away the operations
    /// around it, made again there as an operation of its own. The operation it replaces is
    /// not applied anywhere, and of several replacements of one operation only the first, in
    /// the total order, is (see ``SyncEngine``).
    indirect case replacement(of: OperationReference, change: SyncChange)
    /// An operation of a line of history that two databases made under one replica id (a copy,
    /// a restored backup), stated again under the new id of the database that made it, so that
    /// each replica's operations form one line again. It changes nothing itself: the operation
    /// it carries applies in its own place, on every replica, whether the original or this
    /// reached it first, and where the original was folded away this adds nothing.
    indirect case renumbering(of: OperationReference, change: SyncChange)

    /// The change itself: for a replacement, the change it makes again.
    public var effect: SyncChange {
        if case .replacement(_, let change) = self { change.effect } else { self }
    }

    /// The operation that a renumbering carries, as it was made; `nil` for another change.
    var renumberedOperation: SyncOperation? {
        guard case .renumbering(let original, let carried) = self else { return nil }
        return SyncOperation(id: original.id, replica: original.replica, sequence: original.sequence, clock: original.clock, change: carried)
    }

    /// The name of every kind of change this version knows, as the JSON of an operation names it.
    static let knownKinds: Set<String> = [
        "createList", "renameList", "moveList", "deleteList", "addItem", "editItem", "completeItems", "reopenItems",
        "deleteItems", "moveItems", "addToToday", "removeFromToday", "moveInToday", "repairOrder", "replacement", "retireReplica",
        "leaveForkedReplica", "renumbering", "addChecklistItem", "editChecklistItem", "moveChecklistItems", "completeChecklistItems",
        "reopenChecklistItems", "deleteChecklistItems", "repairChecklist", "createArea", "renameArea", "moveArea", "deleteArea", "repairAreas",
        "createHeading", "renameHeading", "moveHeading", "deleteHeading", "repairHeadings", "setWhen", "setDeadline", "dismissDeadlines",
    ]

    /// The change that JSON of a change tells: of a kind this version knows, or else
    /// ``unknown(kind:json:)``.
    ///
    /// - Throws: `DecodingError` when the JSON is not one change, or is a change of a known kind
    ///   that does not read.
    static func decoding(_ json: Data) throws -> SyncChange {
        do {
            return try SyncCoding.decoder.decode(SyncChange.self, from: json)
        } catch {
            guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any], object.count == 1,
                  let kind = object.keys.first, !knownKinds.contains(kind)
            else { throw error }
            return .unknown(kind: kind, json: json)
        }
    }

    /// Whether the change is of a kind this version does not know.
    public var isUnknown: Bool {
        if case .unknown = effect { true } else { false }
    }
}

extension SyncOperation {
    /// An operation read from its JSON, keeping the JSON as it came when it holds what this
    /// version does not read (``original``): a field it does not know, or a change of a kind it
    /// does not know (``SyncChange/unknown(kind:json:)``).
    ///
    /// ```swift
    /// let operation = try SyncOperation(json: line)  // a line of a sync file, or a server's page
    /// try operation.json() == line                   // true when the line holds what this version does not read
    /// ```
    ///
    /// - Throws: `DecodingError` when the JSON is not an operation.
    public init(json: Data) throws {
        try self.init(json: json, keepingLine: false)
    }

    /// An operation read from its JSON for a relay, which passes it on as it came: it keeps the
    /// JSON as ``original`` whatever it holds, so that ``json()`` gives it back byte for byte,
    /// and it is not written again to tell whether the JSON holds what this version does not read.
    ///
    /// - Throws: `DecodingError` when the JSON is not an operation.
    package init(relaying json: Data) throws {
        try self.init(json: json, keepingLine: true)
    }

    private init(json: Data, keepingLine: Bool) throws {
        if let operation = OperationJSONReader.operation(from: json) {
            self = operation
        } else {
            try self.init(decoding: json)
        }
        if keepingLine || (try? SyncCoding.encoder.encode(self)) != json { original = json }
    }

    /// An operation read with `JSONDecoder`, for JSON that ``OperationJSONReader`` does not
    /// read: with ``original`` set when its change is of a kind this version does not know.
    private init(decoding json: Data) throws {
        do {
            self = try SyncCoding.decoder.decode(SyncOperation.self, from: json)
        } catch {
            // The rest of an operation whose change may be of an unknown kind.
            struct Envelope: Decodable {
                var id: ID
                var replica: ReplicaID
                var sequence: Int64
                var clock: HLCTimestamp
            }
            guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any], let change = object["change"] as? [String: Any],
                  let changeJSON = try? JSONSerialization.data(withJSONObject: change, options: [.sortedKeys, .withoutEscapingSlashes]),
                  case .unknown? = try? SyncChange.decoding(changeJSON),
                  let envelope = try? SyncCoding.decoder.decode(Envelope.self, from: json)
            else { throw error }
            self.init(
                id: envelope.id, replica: envelope.replica, sequence: envelope.sequence, clock: envelope.clock,
                change: try SyncChange.decoding(changeJSON), original: json)
        }
    }

    /// The operation's JSON, as a file holds it: as it came, when it came with what this version
    /// does not read.
    ///
    /// - Throws: `EncodingError` when the operation cannot be written as JSON.
    public func json() throws -> Data {
        try original ?? SyncCoding.encoder.encode(self)
    }
}
