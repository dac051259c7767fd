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
    package init(id: SyncOperation.ID, replica: ReplicaID, sequence: Int64, clock: HLCTimestamp) {
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
