package import Foundation

/// What every change does through its kind: its JSON, its checks, its size and how it applies,
/// found through ``SyncChange/kind``, for every kind alike.
extension SyncChange {
    /// The change itself: for a replacement, the change it makes again.
    public var effect: SyncChange {
        if case .replacement(_, let change) = self { change.effect } else { self }
    }

    /// The operation that a renumbering carries, as it was made; `nil` for another change.
    package var renumberedOperation: SyncOperation? {
        guard case .renumbering(let original, let carried) = self else { return nil }
        return SyncOperation(id: original.id, replica: original.replica, sequence: original.sequence, clock: original.clock, change: carried)
    }

    /// Whether the change is of a kind this version does not know.
    public var isUnknown: Bool {
        if case .unknown = effect { true } else { false }
    }

    /// The name of every kind of change this version knows, as the JSON of an operation names
    /// it, and of the changes that carry another.
    package static let knownKinds = Set(kinds.map { $0.name.description } + ["replacement", "renumbering"])

    /// The change that JSON of a change tells: of a kind this version knows, or else
    /// ``unknown(kind:json:)``.
    ///
    /// - Throws: `DecodingError` when the JSON is not one change, or is a change of a known kind
    ///   that does not read.
    package static func decoding(_ json: Data) throws -> SyncChange {
        do {
            return try SyncCoding.decoder.decode(SyncChange.self, from: json)
        } catch {
            guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any], object.count == 1,
                  let kind = object.keys.first, !knownKinds.contains(kind)
            else { throw error }
            return .unknown(kind: kind, json: json)
        }
    }

    // MARK: Through the kind

    /// The changes that take a row from `old` (`nil`: just made) to `row`, told by the kinds
    /// of `kinds` in their order: what a row's fields tell of how it changed.
    package static func changes<Row>(from old: Row?, to row: Row, tellingBy kinds: [any FieldChange<Row>.Type]) -> [SyncChange] {
        kinds.flatMap { tell($0, from: old, to: row) }
    }

    private static func tell<Kind: FieldChange>(_ kind: Kind.Type, from old: Kind.Row?, to row: Kind.Row) -> [SyncChange] {
        kind.changes(from: old, to: row).map(\.change)
    }

    /// The most ids one operation made here names: 256, about 10 KB of JSON, so that every
    /// operation fits within ``SyncOperation/maximumEncodedSize`` with room to spare.
    package static let maximumIDsPerOperation = 256

    /// The change as operations that each name at most ``maximumIDsPerOperation`` ids
    /// (``ChangeKind/split(maximumIDs:)``), which applied in order do what it does.
    package func split() -> [SyncChange] {
        kind?.splitChanges ?? [self]
    }

    /// Applies the change to the store of `context` by the rules of the merge: for a
    /// replacement, the change it makes again. A renumbering applies nothing itself (the
    /// operation it carries applies in its own place), nor does a change of an unknown kind.
    package func apply(in context: ChangeContext) throws {
        try effect.kind?.apply(in: context)
    }

    /// Checks the change, and the one a replacement or a renumbering carries, against the rules
    /// for operations from elsewhere.
    ///
    /// - Throws: The ``OperationProblem`` of the first rule it breaks.
    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        switch self {
        case .replacement(let original, let change), .renumbering(let original, let change):
            guard original.sequence >= 1, (0...SyncOperation.latestMilliseconds).contains(original.clock.milliseconds) else {
                throw .replacedOperationOutOfRange(sequence: original.sequence, milliseconds: original.clock.milliseconds)
            }
            try change.check(check)
        case .unknown:
            // Of a kind this version cannot read: nothing to check but its size.
            break
        default:
            try kind?.check(check)
        }
    }

    /// More bytes than the change's JSON can take: its kind's bound, and 128 for the keys and
    /// brackets around it.
    package var sizeBound: Int {
        switch self {
        case .replacement(_, let change), .renumbering(_, let change): 128 + 512 + change.sizeBound
        case .unknown(_, let json): 128 + 2 * json.count
        default: 128 + (kind?.sizeBound ?? 0)
        }
    }
}

extension SyncChange: Codable {
    /// The key of a change's JSON: its kind's name.
    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) {
            self.stringValue = stringValue
        }

        init?(intValue: Int) {
            nil
        }
    }

    /// The members of a replacement or a renumbering, and of a change of an unknown kind as
    /// `JSONEncoder` writes it.
    private enum CarriedKeys: String, CodingKey {
        case of, change, kind, json
    }

    /// Writes `{"name":{members}}`, as `Codable` writes an enum case with associated values.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Name.self)
        switch self {
        case .unknown(let kind, let json):
            var members = container.nestedContainer(keyedBy: CarriedKeys.self, forKey: Name(stringValue: "unknown"))
            try members.encode(kind, forKey: .kind)
            try members.encode(json, forKey: .json)
        case .replacement(let original, let change), .renumbering(let original, let change):
            let name = if case .replacement = self { "replacement" } else { "renumbering" }
            var members = container.nestedContainer(keyedBy: CarriedKeys.self, forKey: Name(stringValue: name))
            try members.encode(original, forKey: .of)
            try members.encode(change, forKey: .change)
        default:
            guard let kind else { return }
            try Self.encode(kind, in: &container)
        }
    }

    private static func encode<Kind: ChangeKind>(_ kind: Kind, in container: inout KeyedEncodingContainer<Name>) throws {
        try container.encode(kind, forKey: Name(stringValue: Kind.name.description))
    }

    /// Reads `{"name":{members}}` of a kind this version knows, a replacement, a renumbering,
    /// or a change of an unknown kind as ``encode(to:)`` writes it.
    ///
    /// - Throws: `DecodingError` for any other JSON; `decoding(_:)` takes a change of an
    ///   unknown kind as it came.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Name.self)
        guard container.allKeys.count == 1, let name = container.allKeys.first else {
            throw DecodingError.typeMismatch(
                SyncChange.self, DecodingError.Context(codingPath: container.codingPath, debugDescription: "Invalid number of keys found, expected one."))
        }
        switch name.stringValue {
        case "unknown":
            let members = try container.nestedContainer(keyedBy: CarriedKeys.self, forKey: name)
            self = .unknown(kind: try members.decode(String.self, forKey: .kind), json: try members.decode(Data.self, forKey: .json))
        case "replacement", "renumbering":
            let members = try container.nestedContainer(keyedBy: CarriedKeys.self, forKey: name)
            let (original, change) = (try members.decode(OperationReference.self, forKey: .of), try members.decode(SyncChange.self, forKey: .change))
            self = name.stringValue == "replacement" ? .replacement(of: original, change: change) : .renumbering(of: original, change: change)
        default:
            guard let kind = Self.kindsByName[name.stringValue] else {
                throw DecodingError.dataCorruptedError(forKey: name, in: container, debugDescription: "No change of the kind \(name.stringValue) is known.")
            }
            self = try Self.decode(kind, forKey: name, in: container)
        }
    }

    private static func decode<Kind: ChangeKind>(_ kind: Kind.Type, forKey name: Name, in container: KeyedDecodingContainer<Name>) throws -> SyncChange {
        try container.decode(Kind.self, forKey: name).change
    }

    /// Every kind, by its name.
    private static let kindsByName = Dictionary(uniqueKeysWithValues: kinds.map { ($0.name.description, $0) })
}
