import ArrangeModel
@testable import ArrangeSync
import Foundation
import Testing

/// The hand-written reader of an operation's JSON reads what `JSONDecoder` reads, as it reads
/// it, and leaves to it what it does not read.
@Suite("Sync: the reader of an operation's JSON")
struct OperationJSONReaderTests {
    /// Operations of every kind of change, with awkward text.
    static func operations(seed: Int) -> [SyncOperation] {
        var random = SeededRandomNumberGenerator(seed: UInt64(seed))
        return LogJSONTests.changes(&random).enumerated().map { index, change in
            SyncOperation(
                replica: ReplicaID(), sequence: Int64(index + 1),
                clock: HLCTimestamp(milliseconds: 1_790_000_000_000 + Int64(index), counter: UInt32(index % 3)), change: change)
        }
    }

    /// What `JSONDecoder` makes of a line, written again: equal results write equal bytes.
    static func decoded(_ line: Data) -> Data? {
        (try? SyncCoding.decoder.decode(SyncOperation.self, from: line)).flatMap { try? SyncCoding.encoder.encode($0) }
    }

    static func read(_ line: Data) -> Data? {
        OperationJSONReader.operation(from: line).flatMap { try? SyncCoding.encoder.encode($0) }
    }

    @Test("Reads the line of every kind of change as JSONDecoder does", arguments: 0..<20)
    func everyKind(seed: Int) throws {
        for operation in Self.operations(seed: seed) {
            let line = try SyncCoding.encoder.encode(operation)
            let text = String(decoding: line, as: UTF8.self)
            #expect(OperationJSONReader.operation(from: line) == operation, "\(text)")
            #expect(Self.read(line) == Self.decoded(line), "\(text)")
        }
    }

    @Test("Reads whitespace, ids in capitals, nulls and escapes, as JSONDecoder does")
    func otherSpellings() throws {
        let (id, replica, item) = ("3F2A9C00-1111-4222-8333-944455556666", "0a2a9c00-1111-4222-8333-944455556666", "1b2a9c00-1111-4222-8333-944455556666")
        let lines = [
            #" { "id" : "\#(id)" , "replica":"\#(replica)","sequence": 7 ,"clock":{"counter":0,"milliseconds":-5},"change":{"editItem":{"id":"\#(item)","title":null,"notes":"caf\u00e9 \/ \ud7ff \"\b\f"}}} "#,
            #"{"change":{"moveItems":{"place":{"after":null,"before":"\#(item)"},"list":"\#(id)","ids":[ ]}},"clock":{"milliseconds":0,"counter":4294967295},"sequence":9223372036854775807,"replica":"\#(replica)","id":"\#(id)"}"#,
            #"{"id":"\#(id)","replica":"\#(replica)","sequence":-9223372036854775808,"clock":{"milliseconds":1,"counter":1},"change":{"completeItems":{"ids":["\#(item)","\#(id)"],"at":-0.5}}}"#,
            #"{"id":"\#(id)","replica":"\#(replica)","sequence":1,"clock":{"milliseconds":1,"counter":1},"change":{"repairOrder":{"scope":"\#(id)","normalize":false}}}"#,
        ]
        for line in lines.map({ Data($0.utf8) }) {
            let read = try #require(Self.read(line), "\(String(decoding: line, as: UTF8.self))")
            #expect(read == Self.decoded(line))
        }
    }

    @Test("Leaves to JSONDecoder what it does not read")
    func givesUp() throws {
        var operation = try #require(Self.operations(seed: 0).first { if case .renameList = $0.change { true } else { false } })
        operation.sequence = 1
        let line = String(decoding: try SyncCoding.encoder.encode(operation), as: UTF8.self)
        let unread = [
            line.replacingOccurrences(of: #""sequence":"#, with: #""later":1,"sequence":"#),  // a field of a newer version
            line.replacingOccurrences(of: #""sequence":1"#, with: #""sequence":1,"sequence":1"#),  // a key twice
            line.replacingOccurrences(of: #""sequence":1"#, with: #""sequence":1.0"#),  // not a plain integer
            line.replacingOccurrences(of: #""sequence":1"#, with: #""sequence":1e0"#),
            line.replacingOccurrences(of: #""sequence":1"#, with: #""sequence":01"#),
            line.replacingOccurrences(of: #""renameList""#, with: #""renameShelf""#),  // a kind of a newer version
            line.replacingOccurrences(of: #""name":""#, with: #""name":"\ud83e\uddfa"#),  // a surrogate pair
        ]
        for text in unread {
            #expect(text != line)
            #expect(OperationJSONReader.operation(from: Data(text.utf8)) == nil, "\(text)")
        }
        var invalid = Data(line.utf8)
        invalid.insert(0xC0, at: try #require(invalid.firstRange(of: Data("name\":\"".utf8))).upperBound)
        #expect(OperationJSONReader.operation(from: invalid) == nil)
    }

    /// Bytes a damaged line is likely to hold where it should not.
    static let awkwardBytes = Array(#"{}[]":,\ nu01-.eE9aFtf"#.utf8) + [0x00, 0x1F, 0x7F, 0x80, 0xBF, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xFF]

    @Test("Reads a damaged line as JSONDecoder does, or leaves it to it", arguments: 0..<10)
    func damagedLines(seed: Int) throws {
        var random = SeededRandomNumberGenerator(seed: UInt64(1_000 + seed))
        var readCount = 0
        for operation in Self.operations(seed: seed) {
            let line = [UInt8](try SyncCoding.encoder.encode(operation))
            for _ in 0..<400 {
                var damaged = line
                for _ in 0...Int.random(in: 0...1, using: &random) {
                    let at = Int.random(in: 0..<damaged.count, using: &random)
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: damaged.remove(at: at)
                    case 1: damaged.insert(Self.awkwardBytes.randomElement(using: &random)!, at: at)
                    case 2: damaged[at] = Self.awkwardBytes.randomElement(using: &random)!
                    default: damaged.removeSubrange(at...)
                    }
                    if damaged.isEmpty { damaged = [UInt8(ascii: "{")] }
                }
                guard let read = Self.read(Data(damaged)) else { continue }
                readCount += 1
                #expect(read == Self.decoded(Data(damaged)), "\(String(decoding: damaged, as: UTF8.self))")
            }
        }
        // The damage left many lines readable (a changed letter of a title, a digit of a
        // number): the comparison above is not empty.
        #expect(readCount > 150, "\(readCount)")
    }
}
