public import ArrangeModel
public import Foundation

/// Operations as JSON Lines: a header line, then one operation per line, in any order.
///
/// The header of a file from a store that has folded operations away names, under `folded`,
/// what a store must hold to merge the file: for each replica, the sequence number up to which
/// its operations were folded. Version 2 added `folded` and the `replacement` change; a
/// version 1 file reads as it always did.
///
/// ```text
/// {"format":"arrange-sync","version":2}
/// {"change":{"createList":{"id":"…","name":"Groceries","place":{}}},"clock":{"counter":0,"milliseconds":1795392000000},"id":"…","replica":"…","sequence":1}
/// ```
///
/// The format holds nothing of SQLite: a server can read and write it as it is.
public enum OperationFile {
    /// The value of `format` in the header.
    public static let formatName = "arrange-sync"
    /// The version this code writes, and the newest it reads.
    public static let currentVersion = 2

    /// What a file holds: operations, and what a store must hold to merge them.
    public struct Contents: Hashable, Sendable {
        /// The operations, in the order of the file.
        public var operations: [SyncOperation]
        /// For each replica, the sequence number up to which the store that wrote the file had
        /// folded its operations away; empty when it had folded none.
        public var folded: [ReplicaID: Int64]

        /// A file's operations, written after `folded` were folded away.
        public init(operations: [SyncOperation], folded: [ReplicaID: Int64] = [:]) {
            self.operations = operations
            self.folded = folded
        }
    }

    /// The operations as a file: the header and one line each, every line ending in a line feed.
    public static func encode(_ contents: Contents) throws -> Data {
        let encoder = SyncCoding.encoder
        let header = Header(format: formatName, version: currentVersion, folded: contents.folded.isEmpty ? nil : Dictionary(uniqueKeysWithValues: contents.folded.map { ($0.key.text, $0.value) }))
        var data = try encoder.encode(header) + Data("\n".utf8)
        let operations = contents.operations
        for operation in operations {
            data += try encoder.encode(operation) + Data("\n".utf8)
        }
        return data
    }

    /// Reads a whole file, or refuses it whole.
    ///
    /// - Throws: ``OperationFileError``, with the 1-based line number of the first bad line.
    public static func decode(_ data: Data) throws(OperationFileError) -> Contents {
        let decoder = SyncCoding.decoder
        guard !data.isEmpty else { throw .missingHeader }
        guard data.last == UInt8(ascii: "\n") else { throw .truncated(line: lineCount(data)) }
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).dropLast()
        guard let first = lines.first, let header = try? decoder.decode(Header.self, from: Data(first)), header.format == formatName else {
            throw .missingHeader
        }
        guard header.version <= currentVersion else { throw .newerVersion(header.version) }
        var folded: [ReplicaID: Int64] = [:]
        for (replica, sequence) in header.folded ?? [:] {
            guard let id = UUID(uuidString: replica) else { throw .badLine(1, reason: "folded names '\(replica)', which is not a replica id.") }
            folded[ReplicaID(rawValue: id)] = sequence
        }
        var operations: [SyncOperation] = []
        for (index, line) in lines.enumerated().dropFirst() {
            do {
                operations.append(try decoder.decode(SyncOperation.self, from: Data(line)))
            } catch {
                throw .badLine(index + 1, reason: describe(error))
            }
        }
        return Contents(operations: operations, folded: folded)
    }

    private struct Header: Codable {
        var format: String
        var version: Int
        var folded: [String: Int64]?
    }

    private static func lineCount(_ data: Data) -> Int {
        data.count(where: { $0 == UInt8(ascii: "\n") }) + 1
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "the field '\(key.stringValue)' is missing."
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context): "\(context.codingPath.map(\.stringValue).joined(separator: ".")) has the wrong type."
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty: "it is not valid JSON."
        case DecodingError.dataCorrupted(let context): "\(context.codingPath.map(\.stringValue).joined(separator: ".")): \(context.debugDescription)"
        default: error.localizedDescription
        }
    }
}

/// Why an operations file was refused. Nothing in it was applied.
public enum OperationFileError: Error, Hashable, Sendable {
    /// The first line is not `{"format":"arrange-sync","version":N}`.
    case missingHeader
    /// The file is in a newer format version than this one reads.
    case newerVersion(Int)
    /// The file does not end with a line feed: it was cut short, in this line.
    case truncated(line: Int)
    /// A line is not an operation.
    case badLine(Int, reason: String)
}

extension OperationFileError: LocalizedError {
    /// What is wrong, with the line, in a sentence.
    public var errorDescription: String? {
        switch self {
        case .missingHeader: #"The file is not an Arrange operations file: its first line must be {"format":"arrange-sync","version":2} or an earlier version."#
        case .newerVersion(let version): "The file is in format version \(version), newer than this Arrange reads (\(OperationFile.currentVersion)); update Arrange to read it."
        case .truncated(let line): "The file is cut short: line \(line) does not end."
        case .badLine(let line, let reason): "Line \(line) is not an operation: \(reason)"
        }
    }
}
