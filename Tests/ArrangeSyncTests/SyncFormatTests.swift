import ArrangeModel
import ArrangeSync
import Foundation
import Synchronization
import Testing

@Suite("Sync: the hybrid logical clock and the operations file")
struct SyncFormatTests {
    /// A wall clock the test sets.
    final class Wall: Sendable {
        let now = Mutex<Int64>(1_000)
        var read: @Sendable () -> Int64 { { self.now.withLock { $0 } } }
    }

    @Test("Local events rise strictly, even when the wall clock goes back or stands still")
    func localEvents() {
        let wall = Wall()
        var clock = HybridLogicalClock(wallClock: wall.read)
        var stamps = [clock.tick(), clock.tick()]
        wall.now.withLock { $0 = 500 }
        stamps += [clock.tick(), clock.tick()]
        wall.now.withLock { $0 = 2_000 }
        stamps.append(clock.tick())
        #expect(stamps == [
            HLCTimestamp(milliseconds: 1_000, counter: 0), HLCTimestamp(milliseconds: 1_000, counter: 1),
            HLCTimestamp(milliseconds: 1_000, counter: 2), HLCTimestamp(milliseconds: 1_000, counter: 3),
            HLCTimestamp(milliseconds: 2_000, counter: 0),
        ])
    }

    @Test("A received event moves the clock past it; one far in the future is clamped to the wall clock plus the drift")
    func receiving() {
        let wall = Wall()
        var clock = HybridLogicalClock(wallClock: wall.read)
        let remote = HLCTimestamp(milliseconds: 1_500, counter: 7)
        let received = clock.receive(remote)
        #expect(received == HLCTimestamp(milliseconds: 1_500, counter: 8) && received > remote)
        #expect(clock.tick() == HLCTimestamp(milliseconds: 1_500, counter: 9))

        let future = HLCTimestamp(milliseconds: 1_000 + 365 * 24 * 3_600_000, counter: 0)
        let clamped = clock.receive(future)
        #expect(clamped == HLCTimestamp(milliseconds: 1_000 + HybridLogicalClock.maximumDrift, counter: 1))
        #expect(HybridLogicalClock.clamped(future, wall: 1_000).milliseconds == 1_000 + 300_000)
        #expect(HybridLogicalClock.clamped(remote, wall: 1_000) == remote)
    }

    @Test("The total order is clock, then replica, then sequence")
    func order() throws {
        let (low, high) = (try #require(ReplicaID("00000001-0000-4000-8000-000000000000")), try #require(ReplicaID("00000002-0000-4000-8000-000000000000")))
        let stamp = HLCTimestamp(milliseconds: 5, counter: 0)
        let operations = [
            SyncOperation(replica: high, sequence: 1, clock: stamp, change: .deleteList(id: ItemList.ID())),
            SyncOperation(replica: low, sequence: 2, clock: stamp, change: .deleteList(id: ItemList.ID())),
            SyncOperation(replica: low, sequence: 1, clock: stamp, change: .deleteList(id: ItemList.ID())),
            SyncOperation(replica: high, sequence: 2, clock: HLCTimestamp(milliseconds: 4, counter: 9), change: .deleteList(id: ItemList.ID())),
        ]
        let sorted = operations.sorted { $0.order < $1.order }
        #expect(sorted.map { [$0.replica == low ? 1 : 2, Int($0.sequence)] } == [[2, 2], [1, 1], [1, 2], [2, 1]])
    }

    static let sample: [SyncOperation] = {
        let replica = ReplicaID()
        let list = ItemList.ID()
        let item = Item.ID()
        let changes: [SyncChange] = [
            .createList(id: list, name: "Groceries", place: SyncPlace(after: nil, before: nil)),
            .addItem(id: item, list: list, title: "Milk", notes: "", place: SyncPlace(after: nil, before: nil)),
            .moveItems(ids: [item], list: list, place: SyncPlace(after: OrderEntry.ID(), before: nil)),
            .completeItems(ids: [item], at: Date(timeIntervalSince1970: 1_800_000_000.5)),
            .addToToday(ids: [item], place: SyncPlace(after: nil, before: OrderEntry.ID())),
            .editItem(id: item, title: "Oat milk", notes: nil),
        ]
        return changes.enumerated().map { SyncOperation(replica: replica, sequence: Int64($0 + 1), clock: HLCTimestamp(milliseconds: 10, counter: UInt32($0)), change: $1) }
    }()

    @Test("Operations round-trip through the file, one line each between a versioned header and a trailer")
    func roundTrip() throws {
        let data = try OperationFile.encode(OperationFile.Contents(operations: Self.sample))
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.hasPrefix(#"{"format":"arrange-sync","version":3}"# + "\n"))
        #expect(text.split(separator: "\n").count == 1 + Self.sample.count + 1 && text.hasSuffix("\n"))
        #expect(try OperationFile.decode(data) == OperationFile.Contents(operations: Self.sample))
    }

    @Test("What a file's store had folded away comes back from its header; a version 1 file still reads")
    func foldedHeader() throws {
        let replica = ReplicaID()
        let contents = OperationFile.Contents(operations: Self.sample, folded: [replica: 42])
        let data = try OperationFile.encode(contents)
        #expect(String(decoding: data, as: UTF8.self).hasPrefix(#"{"folded":{"\#(replica.text)":42},"format":"arrange-sync","version":3}"#))
        #expect(try OperationFile.decode(data) == contents)
        let version1 = String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst().dropLast().map { $0 + "\n" }.joined()
        #expect(try OperationFile.decode(Data((#"{"format":"arrange-sync","version":1}"# + "\n" + version1).utf8)) == OperationFile.Contents(operations: Self.sample))
    }

    @Test("A bad file is refused whole, with the line at fault")
    func refused() throws {
        let good = String(decoding: try OperationFile.encode(OperationFile.Contents(operations: Self.sample)), as: UTF8.self)
        var lines = good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let cases: [(String, OperationFileError)] = [
            ("", .missingHeader),
            ("{\"format\":\"other\",\"version\":1}\n", .missingHeader),
            ("{\"format\":\"arrange-sync\",\"version\":4}\n", .newerVersion(4)),
            ("{\"folded\":{\"nope\":1},\"format\":\"arrange-sync\",\"version\":2}\n", .badLine(1, reason: "folded names 'nope', which is not a replica id.")),
            (String(good.dropLast(10)), .truncated(line: 8)),
        ]
        for (text, error) in cases {
            #expect(throws: error) { try OperationFile.decode(Data(text.utf8)) }
        }
        lines[3] = #"{"id": "nope"}"#
        lines.removeLast(2)
        do {
            _ = try OperationFile.decode(sealed(lines.joined(separator: "\n") + "\n"))
            Issue.record("a bad line was accepted")
        } catch {
            #expect(String(describing: error).hasPrefix("Line 4 is not an operation: "), "\(error)")
        }
    }
}
