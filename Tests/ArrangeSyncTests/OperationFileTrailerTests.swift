import ArrangeModel
import ArrangeSync
import Crypto
import Foundation
import Testing

@Suite("Sync: the trailer of a version 3 operations file")
struct OperationFileTrailerTests {
    let operations = SyncFormatTests.sample

    var good: Data {
        get throws { try OperationFile.encode(OperationFile.Contents(operations: operations)) }
    }

    @Test("The trailer counts the operation lines and holds the SHA-256 of every byte before it")
    func trailer() throws {
        let data = try good
        let all = lines(of: data)
        #expect(all.first == header(version: 3))
        let trailer = try #require(all.last)
        let prefix = data.prefix(data.count - trailer.utf8.count - 1)
        let digest = SHA256.hash(data: prefix).map { String($0 >> 4, radix: 16) + String($0 & 0x0F, radix: 16) }.joined()
        #expect(trailer == #"{"trailer":{"count":6,"sha256":"\#(digest)"}}"#)
        #expect(data == sealed(String(decoding: prefix, as: UTF8.self)), "the test's own sealing agrees")
        #expect(try OperationFile.decode(data) == OperationFile.Contents(operations: operations))

        let empty = try OperationFile.encode(OperationFile.Contents(operations: []))
        #expect(lines(of: empty).count == 2 && lines(of: empty)[1].hasPrefix(#"{"trailer":{"count":0,"sha256":""#))
        #expect(try OperationFile.decode(empty) == OperationFile.Contents(operations: []))
    }

    @Test("Read for a relay, each operation gives back its line byte for byte, whatever its form")
    func relayedLines() throws {
        var operationLines = try operations.map { String(decoding: try $0.json(), as: UTF8.self) }
        // The same operation, its keys in another order and spaced out: another line of one value.
        let reordered = try JSONSerialization.jsonObject(with: Data(operationLines[0].utf8))
        operationLines[0] = String(decoding: try JSONSerialization.data(withJSONObject: reordered, options: [.prettyPrinted]), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ")
        let text = ([header(version: 3)] + operationLines).map { $0 + "\n" }.joined()
        // At an offset in a larger buffer, as a request's body may be.
        let data = (Data("ignored".utf8) + sealed(text)).dropFirst(7)

        let relayed = try OperationFile.decode(relaying: data)
        #expect(try relayed.operations.map { String(decoding: try $0.json(), as: UTF8.self) } == operationLines)
        #expect(relayed.operations.allSatisfy { $0.original != nil }, "kept as they came, not written again to compare")
        #expect(relayed == (try OperationFile.decode(data)), "the same values as read to apply")
        #expect(try OperationFile.decode(data).operations[1].original == nil, "read to apply, a line in the form written keeps nothing")
    }

    @Test("Version 1 and 2 files, which have no trailer, still read")
    func olderVersions() throws {
        for version in [1, 2] {
            let data = try file(operations, version: version)
            #expect(!String(decoding: data, as: UTF8.self).contains("trailer"))
            #expect(try OperationFile.decode(data) == OperationFile.Contents(operations: operations), "version \(version)")
        }
    }

    @Test("A file cut at every line boundary is refused: whole operation lines, or the trailer, missing")
    func cutAtLineBoundaries() throws {
        let data = try good
        let ends = data.indices.filter { data[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
        #expect(ends.count == 8)
        #expect(throws: OperationFileError.missingHeader) { try OperationFile.decode(Data()) }
        for end in ends.dropLast() {
            #expect(throws: OperationFileError.missingTrailer) { try OperationFile.decode(data.prefix(end)) }
        }
        #expect(OperationFileError.missingTrailer.debugDescription
            == "The file is cut short: it has no trailer line, so operations may be missing; nothing was applied. Export it again.")
    }

    @Test("A file cut at any byte is refused")
    func cutAtEveryByte() throws {
        let data = try good
        for end in 0..<data.count {
            #expect(throws: OperationFileError.self, "cut after \(end) bytes") { try OperationFile.decode(data.prefix(end)) }
        }
        #expect(throws: OperationFileError.truncated(line: 8)) { try OperationFile.decode(data.dropLast()) }
        let ends = data.indices.filter { data[$0] == UInt8(ascii: "\n") }.map { $0 + 1 }
        #expect(throws: OperationFileError.truncated(line: 4)) { try OperationFile.decode(data.prefix(ends[2] + 10)) }
    }

    @Test("Lines dropped from the middle, the trailer kept, are refused by its count")
    func countMismatch() throws {
        var all = lines(of: try good)
        all.remove(at: 3)
        let data = Data(all.map { $0 + "\n" }.joined().utf8)
        #expect(throws: OperationFileError.countMismatch(expected: 6, found: 5)) { try OperationFile.decode(data) }
        #expect(OperationFileError.countMismatch(expected: 6, found: 5).debugDescription
            == "The file is cut short or damaged: its trailer counts 6 operations but it holds 5; nothing was applied. Export it again.")
    }

    @Test("One byte changed in an operation line, the JSON still valid, is refused by the digest")
    func flippedByte() throws {
        let data = try good
        let milk = try #require(data.firstRange(of: Data(#""title":"Milk""#.utf8)))
        var damaged = data
        damaged[milk.upperBound - 2] = UInt8(ascii: "j")
        #expect(String(decoding: damaged, as: UTF8.self).contains(#""title":"Milj""#))
        #expect(throws: OperationFileError.digestMismatch) { try OperationFile.decode(damaged) }

        // The same change with the trailer made again reads: only the digest refused it.
        var all = lines(of: damaged)
        all.removeLast()
        #expect(try OperationFile.decode(sealed(all.map { $0 + "\n" }.joined())).operations[1] != operations[1])
    }

    @Test("Lines after the trailer are refused, with the first of them")
    func linesAfterTrailer() throws {
        let data = try good
        let all = lines(of: data)
        let extraOperation = data + Data((all[1] + "\n").utf8)
        #expect(throws: OperationFileError.lineAfterTrailer(line: 9)) { try OperationFile.decode(extraOperation) }
        let twoTrailers = data + Data((all[7] + "\n").utf8)
        #expect(throws: OperationFileError.lineAfterTrailer(line: 9)) { try OperationFile.decode(twoTrailers) }
        #expect(throws: OperationFileError.lineAfterTrailer(line: 9)) { try OperationFile.decode(data + Data("\n".utf8)) }
    }

    @Test("A trailer that is not well formed is refused with its line")
    func badTrailer() throws {
        var all = lines(of: try good)
        for bad in [#"{"trailer":{"count":6,"sha256":"XYZ"}}"#, #"{"trailer":{"count":6}}"#, #"{"trailer":{"count":-1,"sha256":"\#(String(repeating: "0", count: 64))"}}"#] {
            all[7] = bad
            #expect(throws: OperationFileError.badTrailer(line: 8), "\(bad)") { try OperationFile.decode(Data(all.map { $0 + "\n" }.joined().utf8)) }
        }
        let upper = lines(of: try good)[7].uppercased().replacingOccurrences(of: "TRAILER", with: "trailer").replacingOccurrences(of: "COUNT", with: "count").replacingOccurrences(of: "SHA256", with: "sha256")
        all[7] = upper
        #expect(throws: OperationFileError.badTrailer(line: 8), "uppercase hex") { try OperationFile.decode(Data(all.map { $0 + "\n" }.joined().utf8)) }
    }

    @Test("A file of a newer version is refused whole, trailer or not")
    func newerVersion() throws {
        let newer = try file(operations, version: 3).replacing(Data(header(version: 3).utf8), with: Data(header(version: 4).utf8))
        #expect(throws: OperationFileError.newerVersion(4)) { try OperationFile.decode(newer) }
        #expect(OperationFileError.newerVersion(4).debugDescription
            == "The file is in format version 4, newer than this Arrange reads; update Arrange to read it.")
    }

    @Test("A version 3 file whose line is not an operation names the line, once its trailer matches")
    func badLineUnderTrailer() throws {
        var all = lines(of: try good).dropFirst().dropLast().map(\.self)
        all[2] = #"{"change":{"deleteList":{"id":"00000000-0000-4000-8000-000000000001"}},"clock":{"counter":0,"milliseconds":1},"id":"x","replica":"00000000-0000-4000-8000-000000000001","sequence":3}"#
        #expect(throws: OperationFileError.badLine(4, reason: "the field 'id' is not valid: 'x' is not a UUID.")) {
            try OperationFile.decode(file(lines: all))
        }
    }
}
