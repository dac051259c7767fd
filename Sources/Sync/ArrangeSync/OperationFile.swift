public import ArrangeModel
public import Foundation

/// Operations as JSON Lines: a header line, one operation per line in any order, then a trailer
/// line; every line ends in a line feed.
///
/// The header of a file from a store that has folded operations away names, under `folded`,
/// what a store must hold to merge the file: for each replica, the sequence number up to which
/// its operations were folded. The trailer counts the operation lines, and holds the SHA-256
/// digest (64 lowercase hex digits) of every byte before it: the header and operation lines,
/// each with its line feed.
///
/// ```text
/// {"format":"arrange-sync","version":3}
/// {"change":{"createList":{"id":"…","name":"Groceries","place":{}}},"clock":{"counter":0,"milliseconds":1795392000000},"id":"…","replica":"…","sequence":1}
/// {"trailer":{"count":1,"sha256":"…"}}
/// ```
///
/// A file is read whole, or refused whole. A version 3 file without its trailer, with lines
/// after it, or whose lines do not match its count and digest, was cut short or damaged:
/// cut anywhere, even between two lines, it is refused. Every operation is held to
/// ``OperationCheck``'s rules: ``OperationCheck/Rules/current`` in a version 3 file, and
/// ``OperationCheck/Rules/carriedForward`` in older ones, whose operations may have been made
/// before the size and notes limits.
///
/// Version 3 added the trailer and the size and notes limits; version 2 added `folded` and the
/// `replacement` change. Version 1 and 2 files, which have no trailer, read as they always did.
///
/// A snapshot file (``SnapshotFile``) is of the same family: its header has `"snapshot":true`,
/// and ``decode(_:)`` refuses it with ``OperationFileError/unexpectedSnapshot``.
///
/// The format holds nothing of SQLite: a server can read and write it as it is.
public enum OperationFile {
    /// The value of `format` in the header.
    public static let formatName = "arrange-sync"
    /// The version this code writes, and the newest it reads.
    public static let currentVersion = 3

    /// What a file holds: operations, and what a store must hold to merge them.
    public struct Contents: Hashable, Sendable {
        /// The operations, in the order of the file.
        public var operations: [SyncOperation]
        /// For each replica, the sequence number up to which the store that wrote the file had
        /// folded its operations away; empty when it had folded none.
        public var folded: [ReplicaID: Int64]
        /// For each replica in ``folded``, the id of its operation folded at that sequence
        /// number: a store that holds another operation there, from a copy or a restored
        /// backup of a database, lacks the folded one. Empty in files from before.
        public var foldedTips: [ReplicaID: SyncOperation.ID]
        /// What the store that wrote the file said of itself, and what it had heard the others
        /// say: a store that reads the file hears them, so that it can fold.
        public var acknowledgements: [SyncAcknowledgement]
        /// In operations pushed to a remote (``SyncRemote``): the replica that pushes them.
        public var replica: ReplicaID?
        /// In operations pushed to a remote: where in the pushing store's log they end, for the
        /// remote to answer as ``SyncRemoteState/received``.
        public var through: SyncCursor?
        /// In a page pulled from a remote: the cursor to pull after next.
        public var cursor: SyncCursor?
        /// In a page pulled from a remote: whether it is the last page there is for now.
        public var isComplete: Bool?

        /// A file's operations, written after `folded` were folded away up to `foldedTips`, with
        /// the acknowledgements it carries.
        public init(
            operations: [SyncOperation], folded: [ReplicaID: Int64] = [:], foldedTips: [ReplicaID: SyncOperation.ID] = [:],
            acknowledgements: [SyncAcknowledgement] = [], replica: ReplicaID? = nil, through: SyncCursor? = nil, cursor: SyncCursor? = nil,
            isComplete: Bool? = nil
        ) {
            self.operations = operations
            self.folded = folded
            self.foldedTips = foldedTips
            self.acknowledgements = acknowledgements
            self.replica = replica
            self.through = through
            self.cursor = cursor
            self.isComplete = isComplete
        }
    }

    /// The operations as a file: the header, one line each, and the trailer, every line ending
    /// in a line feed.
    ///
    /// - Parameter contents: The operations, and what the store had folded away.
    /// - Throws: An `EncodingError` when an operation cannot be written as JSON.
    public static func encode(_ contents: Contents) throws -> Data {
        try encode(contents, encodedOperations: contents.operations.map { try $0.json() })
    }

    /// The file of `contents`, whose operations are given already encoded, each as
    /// `SyncOperation.json()` gives it, in place of `contents.operations`: a server that
    /// keeps operations as it received them sends them on without reading them.
    ///
    /// - Parameter operations: Each operation's line, without its line feed, in any container
    ///   of bytes: a server hands over the rows it read, uncopied.
    /// - Throws: An `EncodingError` when the header cannot be written as JSON.
    package static func encode(_ contents: Contents, encodedOperations operations: [some DataProtocol]) throws -> Data {
        var header = Header(folded: contents.folded)
        header.foldedTips = contents.foldedTips.isEmpty ? nil : Dictionary(uniqueKeysWithValues: contents.foldedTips.map { ($0.key.text, $0.value) })
        header.acknowledgements = contents.acknowledgements.isEmpty ? nil : contents.acknowledgements
        (header.replica, header.through, header.cursor, header.complete) = (contents.replica, contents.through, contents.cursor, contents.isComplete)
        var data = try header.line()
        data.reserveCapacity(data.count + operations.reduce(0) { $0 + $1.count + 1 } + 128)
        for operation in operations {
            data.append(contentsOf: operation)
            data.append(UInt8(ascii: "\n"))
        }
        data += try Trailer(count: operations.count, prefix: data).line()
        return data
    }

    /// Reads a whole file, or refuses it whole.
    ///
    /// A version 3 file must end with its trailer, and match it; every operation must meet
    /// ``OperationCheck``'s rules for the file's version.
    ///
    /// - Parameter data: Every byte of the file.
    /// - Throws: ``OperationFileError``: with the 1-based line number of the first bad line, for
    ///   a file cut short or damaged, or ``OperationFileError/unexpectedSnapshot`` for a snapshot file.
    public static func decode(_ data: Data) throws(OperationFileError) -> Contents {
        try decode(data, relaying: false)
    }

    /// Reads a whole file as ``decode(_:)`` does, for a relay that passes the operations on as
    /// they came: each keeps its line as `SyncOperation.original` (`SyncOperation.init(relaying:)`).
    ///
    /// - Throws: What ``decode(_:)`` throws.
    package static func decode(relaying data: Data) throws(OperationFileError) -> Contents {
        try decode(data, relaying: true)
    }

    private static func decode(_ data: Data, relaying: Bool) throws(OperationFileError) -> Contents {
        let (header, folded, lines) = try open(data)
        guard header.snapshot != true else { throw .unexpectedSnapshot }
        var operations: [SyncOperation] = []
        operations.reserveCapacity(lines.count)
        var check = OperationCheck(rules: OperationCheck.Rules(fileVersion: header.version))
        for (index, line) in zip(lines.indices, lines) {
            let operation: SyncOperation
            do {
                operation = try relaying ? SyncOperation(relaying: Data(line)) : SyncOperation(json: Data(line))
            } catch {
                throw .badLine(index + 1, reason: describe(error, in: Data(line)))
            }
            do {
                try check.check(operation, at: index + 1, encodedSize: line.count)
            } catch {
                throw .refusedOperation(line: index + 1, error)
            }
            operations.append(operation)
        }
        var tips: [ReplicaID: SyncOperation.ID] = [:]
        for (replica, operation) in header.foldedTips ?? [:] {
            guard let id = UUID(uuidString: replica) else { throw .badLine(1, reason: "foldedTips names '\(replica)', which is not a replica id.") }
            tips[ReplicaID(rawValue: id)] = operation
        }
        return Contents(
            operations: operations, folded: folded, foldedTips: tips, acknowledgements: header.acknowledgements ?? [], replica: header.replica,
            through: header.through, cursor: header.cursor, isComplete: header.complete)
    }

    /// Reads the header of a file that is whole: one that ends in a line feed and, from version
    /// 3 on, with a trailer that matches it.
    ///
    /// - Parameter data: Every byte of the file.
    /// - Returns: The header, what it says was folded, and the lines between the header and the
    ///   trailer without their line feeds; a line's index, counted from 0 for the header, is its
    ///   line number less 1.
    /// - Throws: ``OperationFileError`` for a missing header, a newer version, a file cut short
    ///   or damaged, or a `folded` that does not name replicas.
    static func open(_ data: Data) throws(OperationFileError) -> (header: Header, folded: [ReplicaID: Int64], lines: ArraySlice<Data>) {
        guard !data.isEmpty else { throw .missingHeader }
        guard data.last == UInt8(ascii: "\n") else { throw .truncated(line: lineCount(data)) }
        var lines = self.lines(of: data)[...]
        guard let first = lines.first, let header = Header(line: first) else { throw .missingHeader }
        guard header.version <= header.newestReadableVersion else { throw .newerVersion(header.version) }
        if header.version >= firstVersionWithTrailer {
            try verifyTrailer(of: data, lines: lines)
            lines = lines.dropLast()
        }
        return (header, try header.foldedReplicas(), lines.dropFirst())
    }

    /// The first line of a file: `{"format":"arrange-sync","version":3}`, with `folded` when
    /// operations were folded away, and `"snapshot":true` in a snapshot file (``SnapshotFile``).
    struct Header: Codable {
        var format: String
        var version: Int
        var folded: [String: Int64]?
        /// For each replica in `folded`, the id of its operation folded there.
        var foldedTips: [String: SyncOperation.ID]?
        var snapshot: Bool?
        /// What the writing store said of itself and had heard, in version 3.
        var acknowledgements: [SyncAcknowledgement]?
        /// In an exchange with a remote (``SyncRemote``), version 3: the pushing replica and where
        /// its push ends in its log; the cursor after a page pulled, and whether it was the last.
        var replica: ReplicaID?
        var through: SyncCursor?
        var cursor: SyncCursor?
        var complete: Bool?

        /// The header this code writes, in the current version of its kind of file.
        init(folded: [ReplicaID: Int64], snapshot: Bool = false) {
            format = OperationFile.formatName
            version = snapshot ? SnapshotFile.currentVersion : OperationFile.currentVersion
            self.folded = folded.isEmpty ? nil : Dictionary(uniqueKeysWithValues: folded.map { ($0.key.text, $0.value) })
            self.snapshot = snapshot ? true : nil
        }

        /// The newest version of the header's kind of file that this code reads.
        var newestReadableVersion: Int { snapshot == true ? SnapshotFile.currentVersion : OperationFile.currentVersion }

        /// The header of a line, or `nil` when the line is not the header of a sync file.
        init?(line: Data) {
            guard let header = try? SyncCoding.decoder.decode(Header.self, from: Data(line)), header.format == OperationFile.formatName else { return nil }
            self = header
        }

        /// What the header names folded, by replica.
        ///
        /// - Throws: ``OperationFileError/badLine(_:reason:)`` when it names a replica by text that is not an id.
        func foldedReplicas() throws(OperationFileError) -> [ReplicaID: Int64] {
            var folded: [ReplicaID: Int64] = [:]
            for (replica, sequence) in self.folded ?? [:] {
                guard let id = UUID(uuidString: replica) else { throw .badLine(1, reason: "folded names '\(replica)', which is not a replica id.") }
                folded[ReplicaID(rawValue: id)] = sequence
            }
            return folded
        }

        /// The header as its line, with the line feed.
        func line() throws -> Data {
            try SyncCoding.encoder.encode(self) + Data("\n".utf8)
        }
    }

    /// The lines of `data`, which ends in a line feed, without their line feeds: slices of
    /// `data`, at its indices.
    private static func lines(of data: Data) -> [Data] {
        let ends = data.withUnsafeBytes { bytes in
            bytes.indices.filter { bytes[$0] == UInt8(ascii: "\n") }
        }
        var lines: [Data] = []
        lines.reserveCapacity(ends.count)
        var start = data.startIndex
        for end in ends {
            lines.append(data[start..<data.startIndex + end])
            start = data.startIndex + end + 1
        }
        return lines
    }

    private static func lineCount(_ data: Data) -> Int {
        data.count(where: { $0 == UInt8(ascii: "\n") }) + 1
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
    /// A version 3 file does not end with a trailer line: it was cut short, perhaps between
    /// two lines.
    case missingTrailer
    /// The last line is meant as a trailer but is not `{"trailer":{"count":N,"sha256":"…"}}`
    /// with 64 lowercase hex digits.
    case badTrailer(line: Int)
    /// A trailer comes before the last line; `line` is the first line after it.
    case lineAfterTrailer(line: Int)
    /// The trailer counts `expected` operation lines, and the file holds `found`.
    case countMismatch(expected: Int, found: Int)
    /// The bytes before the trailer do not match its SHA-256 digest: the file was changed.
    case digestMismatch
    /// The operation of a line breaks a rule of ``OperationCheck``.
    case refusedOperation(line: Int, OperationProblem)
    /// The file is a snapshot (``SnapshotFile``), not a file of operations.
    case unexpectedSnapshot
    /// The file is a file of operations, not a snapshot: its header lacks `"snapshot":true`.
    case notASnapshot
    /// A line of a snapshot file is not one of its lines, or does not fit the others.
    case badSnapshotLine(Int, reason: String)
}

extension OperationFileError: LocalizedError {
    /// What is wrong with the file, in the app's language.
    public var errorDescription: String? {
        let table = MessageTable.sync
        return switch self {
        case .missingHeader: table.message("OperationFileError.missingHeader")
        case .newerVersion: table.message("OperationFileError.newerVersion")
        case .truncated(let line): table.message("OperationFileError.truncated", ["line": "\(line)"])
        case .badLine(let line, _): table.message("OperationFileError.badLine", ["line": "\(line)"])
        case .missingTrailer: table.message("OperationFileError.missingTrailer")
        case .badTrailer: table.message("OperationFileError.badTrailer")
        case .lineAfterTrailer: table.message("OperationFileError.lineAfterTrailer")
        case .countMismatch: table.message("OperationFileError.countMismatch")
        case .digestMismatch: table.message("OperationFileError.digestMismatch")
        case .refusedOperation(let line, _): table.message("OperationFileError.refusedOperation", ["line": "\(line)"])
        case .unexpectedSnapshot: table.message("OperationFileError.unexpectedSnapshot")
        case .notASnapshot: table.message("OperationFileError.notASnapshot")
        case .badSnapshotLine(let line, _): table.message("OperationFileError.badSnapshotLine", ["line": "\(line)"])
        }
    }
}

extension OperationFileError: CustomStringConvertible, CustomDebugStringConvertible {
    /// What is wrong, with the line, in English; a person sees ``errorDescription``.
    public var description: String { debugDescription }

    /// What is wrong, with the line, in English.
    public var debugDescription: String {
        switch self {
        case .missingHeader: #"The file is not an Arrange operations file: its first line must be {"format":"arrange-sync","version":\#(OperationFile.currentVersion)} or an earlier version."#
        case .newerVersion(let version): "The file is in format version \(version), newer than this Arrange reads; update Arrange to read it."
        case .truncated(let line): "The file is cut short: line \(line) does not end."
        case .badLine(let line, let reason): "Line \(line) is not an operation: \(reason)"
        case .missingTrailer: "The file is cut short: it has no trailer line, so operations may be missing; nothing was applied. Export it again."
        case .badTrailer(let line): #"Line \#(line) is not a valid trailer: it must be {"trailer":{"count":N,"sha256":"…"}} with 64 lowercase hex digits; nothing was applied. Export the file again."#
        case .lineAfterTrailer(let line): "Line \(line) comes after the trailer, which must be the last line; nothing was applied. Export the file again."
        case .countMismatch(let expected, let found):
            "The file is cut short or damaged: its trailer counts \(expected) operation\(expected == 1 ? "" : "s") but it holds \(found); nothing was applied. Export it again."
        case .digestMismatch: "The file is damaged: its bytes do not match the SHA-256 digest of its trailer; nothing was applied. Export it again."
        case .refusedOperation(let line, let problem): "Line \(line) is refused: \(problem.reason { "the operation on line \($0)" }) Nothing was applied."
        case .unexpectedSnapshot: "The file is a snapshot, not a file of operations; read it as a snapshot (SnapshotFile)."
        case .notASnapshot: #"The file is a file of operations, not a snapshot: its header lacks "snapshot":true; read it as operations (OperationFile)."#
        case .badSnapshotLine(let line, let reason): "Line \(line) of the snapshot cannot be read: \(reason) Nothing was applied."
        }
    }
}
