import ArrangeModel
import ArrangeStore
import ArrangeSync
import Foundation
import Testing

/// Devices of two versions side by side: what a newer version writes passes through an older
/// one unchanged, and a change of a kind it does not know is kept, passed on, and not applied.
@Suite("Sync: operations of a newer version")
struct NewerVersionTests {
    static let clock = HLCTimestamp(milliseconds: 1_700_000_000_000, counter: 0)

    /// A list made by a replica, as its first operation.
    static func listOperation() throws -> SyncOperation {
        let maker = SyncEngine(repository: InMemoryItemRepository(), wallClock: { clock.milliseconds })
        return try maker.perform(.createList(id: ItemList.ID(), name: "Home", place: SyncPlace(after: nil, before: nil)))
    }

    /// The list a `createList` operation creates.
    static func listID(of operation: SyncOperation) -> ItemList.ID? {
        if case .createList(let created) = operation.change { created.id } else { nil }
    }

    /// The JSON of `operation` with `extra` spliced in before its last brace, and in its change's.
    static func withFieldsOfANewerVersion(_ operation: SyncOperation) throws -> Data {
        var text = String(String(decoding: try OperationFile.encode(OperationFile.Contents(operations: [operation])), as: UTF8.self)
            .split(separator: "\n")[1])
        text = text.replacingOccurrences(of: #""place":{}"#, with: #""place":{},"colour":"teal""#)
        text.removeLast()
        return Data((text + #","signature":{"alg":"x","value":[1,2,3]}}"#).utf8)
    }

    /// An operation of a kind of change this version does not know.
    static func unknownKind(of replica: ReplicaID, sequence: Int64, about list: ItemList.ID) -> Data {
        Data(#"""
            {"change":{"archiveList":{"id":"\#(list.text)","reason":"done"}},"clock":{"counter":1,"milliseconds":\#(clock.milliseconds)},"id":"\#(UUID().uuidString.lowercased())","replica":"\#(replica.text)","sequence":\#(sequence)}
            """#.utf8)
    }

    @Test("A field this version does not know survives the log, the merge, an exchange and an export, byte for byte", arguments: StoreKind.allCases)
    func unknownFields(kind: StoreKind) async throws {
        let json = try Self.withFieldsOfANewerVersion(try Self.listOperation())
        let operation = try SyncOperation(json: json)
        #expect(operation.original == json)
        #expect(operation.change.isUnknown == false)

        let relay = SyncEngine(repository: try kind.makeRepository())
        try await relay.merge([operation])
        #expect(try await relay.repository.read { try $0.lists().map(\.name) } == ["Home"], "what it knows, it applies")
        let onward = SyncEngine(repository: try kind.makeRepository())
        _ = try await onward.exchange(with: relay)
        for engine in [relay, onward] {
            let exported = try OperationFile.encode(OperationFile.Contents(operations: try await engine.operations(after: 0).operations))
            let lines = exported.split(separator: UInt8(ascii: "\n")).map { Data($0) }
            #expect(lines.contains(json), "passed on byte for byte")
        }
    }

    @Test("An operation of a kind this version does not know is kept in its place and passed on, not applied, and holds folding back", arguments: StoreKind.allCases)
    func unknownKind(kind: StoreKind) async throws {
        let list = try Self.listOperation()
        let listID = try #require(Self.listID(of: list))
        let json = Self.unknownKind(of: list.replica, sequence: 2, about: listID)
        let operation = try SyncOperation(json: json)
        #expect(operation.change.isUnknown)

        let relay = SyncEngine(repository: try kind.makeRepository())
        let report = try await relay.merge([list, operation])
        #expect(report.unapplied == 1)
        #expect(try await relay.repository.read { try $0.lists().map(\.name) } == ["Home"], "not applied")
        let merged = try await relay.repository.read { try relay.merged(in: $0) }
        #expect(merged[list.replica.rawValue] == 1, "not acknowledged, so never folded away")
        let exported = try OperationFile.encode(OperationFile.Contents(operations: try await relay.operations(after: 0).operations))
        #expect(exported.split(separator: UInt8(ascii: "\n")).map { Data($0) }.contains(json), "passed on as it came")
        #expect(try OperationFile.decode(exported).operations.contains { $0.change.isUnknown })
    }

    @Test("A snapshot carries an operation of an unknown kind, and the fields this version does not know", arguments: StoreKind.allCases)
    func snapshotCarriesThem(kind: StoreKind) async throws {
        let list = try Self.listOperation()
        let listID = try #require(Self.listID(of: list))
        let withFields = try SyncOperation(json: try Self.withFieldsOfANewerVersion(list))
        let unknown = try SyncOperation(json: Self.unknownKind(of: list.replica, sequence: 2, about: listID))
        let relay = SyncEngine(repository: try kind.makeRepository())
        try await relay.merge([withFields, unknown])

        let carried = try SnapshotFile.decode(try SnapshotFile.encode(try await relay.snapshot())).operations()
        #expect(carried.contains { $0.id == unknown.id && $0.change.isUnknown }, "kept, of a kind this version does not know")
        let fields = try #require(carried.first { $0.id == withFields.id })
        #expect(String(decoding: try fields.json(), as: UTF8.self).contains(#""colour":"teal""#), "with the fields it came with")
        #expect(String(decoding: try fields.json(), as: UTF8.self).contains(#""signature":"#))
    }

    @Test("An operation kept without being applied is applied in its place once this version knows its kind", arguments: StoreKind.allCases)
    func appliedAfterAnUpgrade(kind: StoreKind) async throws {
        let list = try Self.listOperation()
        let listID = try #require(Self.listID(of: list))
        let rename = SyncOperation(replica: list.replica, sequence: 2, clock: HLCTimestamp(milliseconds: Self.clock.milliseconds + 1, counter: 0), change: .renameList(id: listID, name: "Work"))
        let replica = SyncEngine(repository: try kind.makeRepository())
        try await replica.merge([list])
        // As an older version logged it: a change it could not read, kept without being applied.
        try replica.repository.writeLog { log in
            let position = try log.log(LoggedOperation(
                order: OperationOrder(milliseconds: rename.clock.milliseconds, counter: 0, replica: rename.replica.rawValue, sequence: 2, id: rename.id.rawValue),
                change: Data(#"{"renameList":{"id":"\#(listID.text)","name":"Work"}}"#.utf8), rewind: Data("{}".utf8), isReplayed: true, isUnapplied: true))
            #expect(position > 0)
        }
        #expect(try await replica.repository.read { try $0.lists().map(\.name) } == ["Home"])
        let report = try await replica.merge([])
        #expect(report.applied >= 1 && report.unapplied == 0)
        #expect(try await replica.repository.read { try $0.lists().map(\.name) } == ["Work"])
        #expect(try await replica.repository.readLog { try $0.unappliedOperations() }.isEmpty)
    }
}
