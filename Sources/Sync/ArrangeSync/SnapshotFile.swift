public import Foundation
import ArrangeModel
import ArrangeStore
import Crypto

/// A snapshot (``SyncSnapshot``) as a file of the same family as ``OperationFile``: a header
/// line, one line for each row, log entry and setting, then a trailer line; every line ends in
/// a line feed, and keys are sorted.
///
/// It lets a new device join, through files alone, a group of databases that has folded
/// operations away: a file of operations from such a group starts after the fold, and a store
/// that lacks the folded operations cannot merge it (``SyncError/missingFoldedOperations``);
/// it can take the snapshot instead (``SyncEngine/adopt(_:)``).
///
/// ```text
/// {"folded":{"…":5},"format":"arrange-sync","snapshot":true,"version":4}
/// {"fold":{"count":5,"through":{"clock":{"counter":0,"milliseconds":1795392000000},"id":"…","replica":"…","sequence":3}}}
/// {"defaultList":"00000000-0000-8000-8000-000000000001"}
/// {"list":{"createdAt":1795392000,"id":"00000000-0000-8000-8000-000000000001","name":"Inbox","sortIndex":0}}
/// {"item":{"createdAt":1795392000.5,"id":"…","listID":"00000000-0000-8000-8000-000000000001","notes":"","sortIndex":-4294967296,"title":"Milk","updatedAt":1795392000.5}}
/// {"checklistItem":{"id":"…","itemID":"…","sortIndex":0,"title":"Oat milk"}}
/// {"tombstone":{"entry":"…","scope":"00000000-0000-8000-8000-000000000001","sortIndex":4294967296}}
/// {"logged":{"operation":{"change":{…},"clock":{…},"id":"…","replica":"…","sequence":6},"replayed":true,"rewind":{…}}}
/// {"foldedOperation":{"id":"…","replica":"…","sequence":3}}
/// {"trailer":{"count":6,"sha256":"…"}}
/// ```
///
/// - The header is an operation file's header with `"snapshot":true`; its `folded` names, as
///   always, what the snapshot's store had folded away.
/// - `fold`: the last operation folded, in the total order (`through`, named as a
///   `replacement` names the operation it replaces), how many were folded in all (`count`),
///   and for each replica the id of its operation at the sequence number `folded` gives
///   (`tips`). There is one when, and only when, the header has `folded`.
/// - `defaultList`: the id of the store's default list, at most once.
/// - `list`, `item` and `checklistItem`: the rows, as they are in the store (dates in seconds
///   since 1970); every item's list has a `list` line, and every checklist entry's item an
///   `item` line.
/// - `tombstone`: where an entry was in an ordering (`scope`: `lists`, `today`, a list's id, or
///   `checklist:` and an item's id) when it left it.
/// - `logged`: an entry of the log, in the order operations reached the store: the operation,
///   as a line of an operations file writes it; whether the merge applied it (`replayed`); and
///   how to take it back (`rewind`: the rows it wrote, as they were before).
/// - `foldedOperation`: who an operation the store folded away was (`id`, `replica`,
///   `sequence`, and `replaces` for a replacement), so that another operation under the same
///   replica and sequence number, from a copied or restored database, is told apart from it.
/// - The trailer counts every line between the header and itself, and holds the SHA-256 of
///   every byte before it, as in a version 3 file of operations.
///
/// A snapshot file is read whole or refused whole, as a file of operations is: cut anywhere,
/// even between two lines, damaged, or with a line that is none of these, it is refused.
/// Logged operations are held to ``OperationCheck/Rules/carriedForward``: a log may hold
/// operations made before the size and notes limits.
public enum SnapshotFile {
    /// The newest version of the snapshot files this code reads and writes.
    ///
    /// Version 4 carries a logged operation's rewind with `keys`, where the items it only
    /// placed were (version 3 kept them whole): a version that reads only version 3 would take
    /// such an item for one the operation created, so it refuses the file. Version 5 carries
    /// checklists: `checklistItem` lines, and rewinds with `checklistItems`. A snapshot that
    /// holds neither is written as version 4, which a version of Arrange without checklists
    /// reads too. Version 6 carries areas: `area` lines, lists with an `area`, and rewinds with
    /// `areas`; a snapshot without areas keeps the version it had before them. Version 7
    /// carries headings: `heading` lines, items with a `heading`, and rewinds with `headings`.
    /// Version 8 carries dates: items with a `when` or a `deadline`, in item lines and in rewinds.
    /// Version 9 carries items whose deadline is dismissed from Today (`deadlineDismissed`).
    /// Version 10 carries canceled items and checklist entries (`canceled`). Version 11 carries
    /// finished lists (a list's `completedAt`, and `canceled`), in list lines and in rewinds.
    /// Version 12 carries tags: `tag` and `tagMerge` lines, items, lists and areas with `tags`,
    /// rewinds with `tags` or `tagMerges`, and the tombstones of tags. Version 13 carries the
    /// Trash: items, lists and headings with a `trashedAt`, in their lines and in rewinds.
    /// Version 14 carries reminders: items with a `reminder`, in item lines and in rewinds.
    /// Version 15 carries repeating to-dos: `series` lines, items with a `series`, and rewinds
    /// with `series`. Version 16 carries scheduled lists: lists with a `when` or a `deadline`, in
    /// list lines and in rewinds. Version 17 carries lists' notes, in list lines and in rewinds.
    /// Version 18 carries the person's marks in Today: items with a `todayMark`, in item lines
    /// and in rewinds. Files of operations stay at ``OperationFile/currentVersion``.
    public static let currentVersion = 18

    /// The version of the file of `snapshot`: the oldest that holds all of it. Checklists are
    /// in entries, in rewinds, and in the tombstones of entries deleted; areas in areas, in
    /// lists, in rewinds and in tombstones alike; headings the same way, and in items.
    static func version(of snapshot: SyncSnapshot) -> Int {
        let inRewinds = { (marks: [String]) in
            snapshot.log.contains { logged in marks.contains { logged.rewind.range(of: Data($0.utf8)) != nil } }
        }
        // A list's fields in a rewind look like an item's: only a rewind of lists is read whole.
        let listsInRewinds = { (holds: (ItemList) -> Bool) in
            snapshot.log.contains { logged in
                logged.rewind.range(of: Data(#""lists":"#.utf8)) != nil
                    && (try? SyncCoding.decoder.decode(Rewind.self, from: logged.rewind))?.lists.contains { $0.list.map(holds) == true } == true
            }
        }
        if snapshot.items.contains(where: { $0.todayMark != nil }) || inRewinds([#""todayMark":"#]) { return 18 }
        let hasNotes = { (list: ItemList) in !list.notes.isEmpty }
        if snapshot.lists.contains(where: hasNotes) || listsInRewinds(hasNotes) { return 17 }
        let isScheduled = { (list: ItemList) in list.when != .anytime || list.deadline != nil }
        if snapshot.lists.contains(where: isScheduled) || listsInRewinds(isScheduled) { return 16 }
        let hasTags = !snapshot.tags.isEmpty || !snapshot.tagMerges.isEmpty || snapshot.items.contains { !$0.tags.isEmpty }
            || snapshot.lists.contains { !$0.tags.isEmpty } || snapshot.areas.contains { !$0.tags.isEmpty }
            || snapshot.tombstones.contains { if case .tags = $0.scope { true } else { false } }
            || inRewinds([#""tags":"#, #""tagMerges":"#])
        let hasTrash = snapshot.items.contains { $0.trashedAt != nil } || snapshot.lists.contains { $0.trashedAt != nil }
            || snapshot.headings.contains { $0.trashedAt != nil } || inRewinds([#""trashedAt":"#])
        if !snapshot.series.isEmpty || snapshot.items.contains(where: { $0.series != nil }) || inRewinds([#""series":"#]) { return 15 }
        if snapshot.items.contains(where: { $0.reminder != nil }) || inRewinds([#""reminder":"#]) { return 14 }
        if hasTrash { return 13 }
        if hasTags { return 12 }
        if snapshot.lists.contains(where: \.isFinished) || listsInRewinds(\.isFinished) { return 11 }
        if snapshot.items.contains(where: \.isCanceled) || snapshot.checklistItems.contains(where: \.isCanceled) || inRewinds([#""canceled":"#]) {
            return 10
        }
        if snapshot.items.contains(where: \.deadlineDismissed) || inRewinds([#""deadlineDismissed":"#]) { return 9 }
        let hasDates = snapshot.items.contains { $0.when != .anytime || $0.deadline != nil } || inRewinds([#""when":"#, #""deadline":"#])
        if hasDates { return 8 }
        let hasHeadings = !snapshot.headings.isEmpty || snapshot.items.contains { $0.heading != nil }
            || snapshot.tombstones.contains { switch $0.scope { case .headings, .heading: true; default: false } }
            || inRewinds([#""headings":"#, #""heading":"#, #""heading:"#])
        if hasHeadings { return 7 }
        let hasAreas = !snapshot.areas.isEmpty || snapshot.lists.contains { $0.area != nil }
            || snapshot.tombstones.contains { switch $0.scope { case .areas, .area: true; default: false } }
            || inRewinds([#""areas":"#, #""area":"#, #""area:"#])
        if hasAreas { return 6 }
        let hasChecklists = !snapshot.checklistItems.isEmpty
            || snapshot.tombstones.contains { if case .checklist = $0.scope { true } else { false } }
            || inRewinds([#""checklistItems""#])
        return hasChecklists ? 5 : 4
    }

    /// The snapshot as a file: the header, one line for each part, and the trailer, every line
    /// ending in a line feed.
    ///
    /// - Parameter snapshot: A store's snapshot (``SyncEngine/snapshot()``).
    /// - Throws: `DecodingError` when a logged operation's change or rewind cannot be read, and
    ///   `EncodingError` when a line cannot be written as JSON.
    public static func encode(_ snapshot: SyncSnapshot) throws -> Data {
        var data = Data()
        try write(snapshot) { data += $0 }
        return data
    }

    /// Writes the snapshot as a file, a line at a time: each line, with its line feed, goes to
    /// `write` as soon as it is made, and the trailer's digest is computed as the lines go, so
    /// a server can send a large snapshot without holding the file in memory.
    ///
    /// ```swift
    /// try SnapshotFile.write(try await engine.snapshot()) { line in try handle.write(contentsOf: line) }
    /// ```
    ///
    /// - Parameters:
    ///   - snapshot: A store's snapshot (``SyncEngine/snapshot()``).
    ///   - write: Takes each line; what it throws stops the writing.
    /// - Throws: What `write` throws; `DecodingError` when a logged operation's change or rewind
    ///   cannot be read, and `EncodingError` when a line cannot be written as JSON.
    public static func write(_ snapshot: SyncSnapshot, to write: (Data) throws -> Void) throws {
        let encoder = SyncCoding.encoder
        var digest = SHA256()
        var count = 0
        func emit(_ line: Data) throws {
            digest.update(data: line)
            try write(line)
        }
        func append(_ line: SnapshotLine) throws {
            try emit(try encoder.encode(line) + Data("\n".utf8))
            count += 1
        }
        var header = OperationFile.Header(folded: snapshot.folded, snapshot: true)
        header.version = version(of: snapshot)
        try emit(try header.line())
        if let fold = snapshot.fold { try append(.fold(FoldLine(fold))) }
        if let defaultList = snapshot.defaultList { try append(.defaultList(defaultList)) }
        for replica in snapshot.retired { try append(.retired(ReplicaID(rawValue: replica))) }
        for area in snapshot.areas { try append(.area(area)) }
        for list in snapshot.lists { try append(.list(list)) }
        for heading in snapshot.headings { try append(.heading(heading)) }
        for item in snapshot.items { try append(.item(item)) }
        for entry in snapshot.checklistItems { try append(.checklistItem(entry)) }
        for tag in snapshot.tags { try append(.tag(tag)) }
        for merge in snapshot.tagMerges { try append(.tagMerge(merge)) }
        for series in snapshot.series { try append(.series(series)) }
        for tombstone in snapshot.tombstones {
            try append(.tombstone(TombstoneLine(entry: tombstone.entry, scope: tombstone.scope, sortIndex: tombstone.sortIndex)))
        }
        for logged in snapshot.log {
            // Written by hand, so that the operation is as it came: with what this version does not read.
            let rewind = try encoder.encode(try SyncCoding.decoder.decode(Rewind.self, from: logged.rewind))
            try emit(Data(#"{"logged":{"operation":"#.utf8) + (try SyncOperation(logged).json()) + Data(",\"replayed\":\(logged.isReplayed),\"rewind\":".utf8)
                + rewind + Data("}}\n".utf8))
            count += 1
        }
        for folded in snapshot.foldedOperations.sorted(by: { ($0.replica.uuidString, $0.sequence, $0.id.uuidString) < ($1.replica.uuidString, $1.sequence, $1.id.uuidString) }) {
            try append(.foldedOperation(FoldedOperationLine(folded)))
        }
        try write(try OperationFile.Trailer(count: count, digest: digest.finalize()).line())
    }

    /// Reads a whole snapshot file, or refuses it whole.
    ///
    /// - Parameter data: Every byte of the file.
    /// - Returns: The snapshot, as ``SyncEngine/adopt(_:)`` takes it.
    /// - Throws: ``OperationFileError``: ``OperationFileError/notASnapshot`` for a file of
    ///   operations; ``OperationFileError/badSnapshotLine(_:reason:)`` or
    ///   ``OperationFileError/refusedOperation(line:_:)`` with the 1-based number of the first
    ///   bad line; the errors of a file of operations for a missing header, a newer version, or
    ///   a file cut short or damaged.
    public static func decode(_ data: Data) throws(OperationFileError) -> SyncSnapshot {
        let (header, folded, lines) = try OperationFile.open(data)
        var reader = try Reader(header: header, folded: folded)
        for (index, bytes) in zip(lines.indices, lines) { try reader.read(Data(bytes), number: index + 1) }
        return try reader.contents.snapshot(folded: !folded.isEmpty)
    }

    /// Reads a snapshot file as its bytes arrive, in chunks cut anywhere, or refuses it whole:
    /// the lines are read as they come, and the trailer's digest computed as the bytes go by, so
    /// a snapshot streamed from a server is never held whole as bytes beside the snapshot.
    ///
    /// ```swift
    /// let (chunks, feed) = AsyncStream.makeStream(of: Data.self)
    /// // … feed.yield(piece) for each piece received, then feed.finish() …
    /// let snapshot = try await SnapshotFile.decode(chunks: chunks)
    /// ```
    ///
    /// - Parameter chunks: The file's bytes, in order, cut anywhere.
    /// - Returns: The snapshot, as ``SyncEngine/adopt(_:)`` takes it.
    /// - Throws: What `chunks` throws, and what ``decode(_:)`` throws for the same bytes.
    /// - Complexity: O(n) for n bytes, however they are cut.
    public static func decode<Chunks: AsyncSequence>(chunks: Chunks) async throws -> SyncSnapshot where Chunks.Element == Data {
        var stream = StreamedFile()
        for try await chunk in chunks { try stream.take(chunk) }
        return try stream.finish()
    }

    /// The state of a snapshot file read as it arrives: the line not yet ended, the last whole
    /// line (which may be the trailer), and the digest of every byte before that line.
    ///
    /// A bad line is remembered, not thrown, until the trailer has been checked, so that a
    /// damaged or cut file is refused as ``decode(_:)`` refuses it.
    private struct StreamedFile {
        private var partial = Data()
        /// How many bytes at the start of `partial` hold no line feed.
        private var scanned = 0
        private var last: Data?
        private var digest = SHA256()
        /// How many whole lines were taken before `last`.
        private var number = 0
        private var reader: Reader?
        private var lineError: OperationFileError?

        mutating func take(_ chunk: Data) throws(OperationFileError) {
            partial += chunk
            var start = partial.startIndex
            var from = partial.startIndex + scanned
            while let end = partial[from...].firstIndex(of: UInt8(ascii: "\n")) {
                try takeLine(Data(partial[start..<end]))
                start = partial.index(after: end)
                from = start
            }
            if start != partial.startIndex { partial = Data(partial[start...]) }
            scanned = partial.count
        }

        /// Takes a whole line, without its line feed: the one before it is no trailer, so it is read.
        private mutating func takeLine(_ line: Data) throws(OperationFileError) {
            if let previous = last {
                digest.update(data: previous + Data("\n".utf8))
                if number == 0 {
                    try takeHeader(previous)
                } else {
                    guard !OperationFile.Trailer.isMarked(previous) else { throw .lineAfterTrailer(line: number + 2) }
                    if lineError == nil {
                        do throws(OperationFileError) {
                            try reader?.read(previous, number: number + 1)
                        } catch {
                            lineError = error
                        }
                    }
                }
                number += 1
            }
            last = line
        }

        /// Reads the header: a file of a newer version, or of a version without a trailer that
        /// is not a snapshot this code reads, is refused at once; any other refusal waits for
        /// the trailer's checks.
        private mutating func takeHeader(_ line: Data) throws(OperationFileError) {
            guard let header = OperationFile.Header(line: line) else { throw .missingHeader }
            guard header.version <= SnapshotFile.currentVersion else { throw .newerVersion(header.version) }
            do throws(OperationFileError) {
                reader = try Reader(header: header, folded: try header.foldedReplicas())
            } catch {
                guard header.version >= OperationFile.firstVersionWithTrailer else { throw error }
                lineError = error
            }
        }

        mutating func finish() throws(OperationFileError) -> SyncSnapshot {
            guard partial.isEmpty else { throw .truncated(line: number + (last == nil ? 1 : 2)) }
            guard let last else { throw .missingHeader }
            guard number > 0 else {
                try takeHeader(last)
                throw .missingTrailer
            }
            guard OperationFile.Trailer.isMarked(last) else { throw .missingTrailer }
            guard let trailer = OperationFile.Trailer(line: last) else { throw .badTrailer(line: number + 1) }
            guard trailer.count == number - 1 else { throw .countMismatch(expected: trailer.count, found: number - 1) }
            guard trailer.sha256 == OperationFile.Trailer.hex(digest.finalize()) else { throw .digestMismatch }
            if let lineError { throw lineError }
            guard let reader else { throw .missingHeader }
            return try reader.contents.snapshot(folded: reader.hasFold)
        }
    }

    /// Reads the lines of a snapshot file between its header and its trailer, one at a time.
    private struct Reader {
        var contents = Contents()
        private var check = OperationCheck(rules: .carriedForward)
        private let folded: [ReplicaID: Int64]

        /// Whether the header names operations folded away.
        var hasFold: Bool { !folded.isEmpty }

        /// A reader of the lines after `header`, which names `folded`.
        ///
        /// - Throws: ``OperationFileError/notASnapshot`` for the header of a file of operations,
        ///   and ``OperationFileError/newerVersion(_:)`` or ``OperationFileError/badSnapshotLine(_:reason:)``
        ///   for a version this code does not read.
        init(header: OperationFile.Header, folded: [ReplicaID: Int64]) throws(OperationFileError) {
            guard header.snapshot == true else { throw .notASnapshot }
            guard header.version <= SnapshotFile.currentVersion else { throw .newerVersion(header.version) }
            guard header.version >= OperationFile.firstVersionWithTrailer else {
                throw .badSnapshotLine(1, reason: "a snapshot file is version \(OperationFile.firstVersionWithTrailer) or later, with a trailer.")
            }
            self.folded = folded
        }

        /// Reads the line `number` (1-based, the header's being 1), without its line feed.
        mutating func read(_ bytes: Data, number: Int) throws(OperationFileError) {
            let line: SnapshotLine
            do {
                line = bytes.starts(with: Data(#"{"logged":"#.utf8))
                    ? .logged(try LoggedLine(json: bytes))
                    : try SyncCoding.decoder.decode(SnapshotLine.self, from: bytes)
            } catch SnapshotLine.Unknown.content {
                throw .badSnapshotLine(number, reason: "it holds none of \(SnapshotLine.CodingKeys.allCases.map(\.stringValue).joined(separator: ", ")), or more than one.")
            } catch {
                throw .badSnapshotLine(number, reason: OperationFile.describe(error, in: bytes))
            }
            switch line {
            case .area(let area): contents.areas.append(area)
            case .heading(let heading): contents.headings.append((number, heading))
            case .list(let list): contents.lists.append((number, list))
            case .item(let item): contents.items.append((number, item))
            case .checklistItem(let entry): contents.checklistItems.append((number, entry))
            case .tag(let tag): contents.tags.append((number, tag))
            case .tagMerge(let merge): contents.tagMerges.append(merge)
            case .series(let series): contents.series.append(series)
            case .tombstone(let tombstone): contents.tombstones.append(Tombstone(entry: tombstone.entry, scope: tombstone.scope, sortIndex: tombstone.sortIndex))
            case .logged(let entry):
                do {
                    try check.check(entry.operation, at: number)
                } catch {
                    throw .refusedOperation(line: number, error)
                }
                contents.log.append(entry.operation.logged(rewind: LogJSON.encode { $0.rewind(entry.rewind) }, isReplayed: entry.replayed))
            case .fold(let fold):
                guard contents.fold == nil else { throw .badSnapshotLine(number, reason: "it is a second fold line; a snapshot has one at most.") }
                guard !folded.isEmpty else { throw .badSnapshotLine(number, reason: "it is a fold line, and the header names nothing folded.") }
                guard fold.count > 0, fold.through.sequence >= 1, (0...SyncOperation.latestMilliseconds).contains(fold.through.clock.milliseconds) else {
                    throw .badSnapshotLine(number, reason: "the fold must count 1 operation or more, through an operation whose sequence is 1 or more and whose clock lies between 1970 and the year 9999.")
                }
                contents.fold = (number, try fold.fold(covering: Dictionary(uniqueKeysWithValues: folded.map { ($0.key.rawValue, $0.value) }), line: number))
            case .foldedOperation(let operation):
                contents.foldedOperations.append(operation.folded)
            case .defaultList(let id):
                guard contents.defaultList == nil else { throw .badSnapshotLine(number, reason: "it is a second defaultList line; a snapshot has one at most.") }
                contents.defaultList = (number, id)
            case .retired(let replica):
                contents.retired.append(replica.rawValue)
            }
        }
    }

    /// Whether `data` starts with the header of a snapshot file, whole or not.
    ///
    /// - Parameter data: The file, or its first line.
    public static func isSnapshot(_ data: Data) -> Bool {
        let first = data.prefix { $0 != UInt8(ascii: "\n") }
        return OperationFile.Header(line: first)?.snapshot == true
    }

    /// The lines of a snapshot file read so far, each part with its line number where another
    /// line must fit it.
    private struct Contents {
        var areas: [Area] = []
        var headings: [(line: Int, heading: Heading)] = []
        var lists: [(line: Int, list: ItemList)] = []
        var items: [(line: Int, item: Item)] = []
        var checklistItems: [(line: Int, entry: ChecklistItem)] = []
        var tags: [(line: Int, tag: Tag)] = []
        var tagMerges: [TagMerge] = []
        var series: [Series] = []
        var tombstones: [Tombstone] = []
        var log: [LoggedOperation] = []
        var fold: (line: Int, fold: Fold)?
        var defaultList: (line: Int, id: ItemList.ID)?
        var retired: [UUID] = []
        var foldedOperations: [FoldedOperation] = []

        /// The snapshot of these lines, once they fit each other.
        ///
        /// - Parameter folded: Whether the header names operations folded away.
        func snapshot(folded: Bool) throws(OperationFileError) -> SyncSnapshot {
            if folded, fold == nil { throw .badSnapshotLine(1, reason: "the header names operations folded away, and no fold line follows.") }
            let areaIDs = Set(areas.map(\.id))
            if let (line, list) = lists.first(where: { $0.list.area.map { !areaIDs.contains($0) } ?? false }), let area = list.area {
                throw .badSnapshotLine(line, reason: "the list's area \(area) has no area line.")
            }
            let listIDs = Set(lists.map(\.list.id))
            if let (line, item) = items.first(where: { !listIDs.contains($0.item.listID) }) {
                throw .badSnapshotLine(line, reason: "the item's list \(item.listID) has no list line.")
            }
            if let (line, heading) = headings.first(where: { !listIDs.contains($0.heading.listID) }) {
                throw .badSnapshotLine(line, reason: "the heading's list \(heading.listID) has no list line.")
            }
            let headingLists = Dictionary(headings.map { ($0.heading.id, $0.heading.listID) }, uniquingKeysWith: { first, _ in first })
            if let (line, item) = items.first(where: { item in item.item.heading.map { headingLists[$0] != item.item.listID } ?? false }), let heading = item.heading {
                throw .badSnapshotLine(line, reason: "the item's heading \(heading) has no heading line in its list.")
            }
            if let (line, id) = defaultList, !listIDs.contains(id) {
                throw .badSnapshotLine(line, reason: "the default list \(id) has no list line.")
            }
            let itemIDs = Set(items.map(\.item.id))
            if let (line, entry) = checklistItems.first(where: { !itemIDs.contains($0.entry.itemID) }) {
                throw .badSnapshotLine(line, reason: "the checklist entry's item \(entry.itemID) has no item line.")
            }
            // Each tag after its parent, as the store reads them.
            var tagIDs = Set<Tag.ID>()
            for (line, tag) in tags {
                if let parent = tag.parent, !tagIDs.contains(parent) {
                    throw .badSnapshotLine(line, reason: "the tag's parent \(parent) has no tag line before it.")
                }
                tagIDs.insert(tag.id)
            }
            return SyncSnapshot(
                lists: lists.map(\.list), items: items.map(\.item), areas: areas, headings: headings.map(\.heading), checklistItems: checklistItems.map(\.entry),
                tags: tags.map(\.tag), tagMerges: tagMerges, series: series, defaultList: defaultList?.id, tombstones: tombstones, log: log, fold: fold?.fold,
                folded: foldedOperations, retired: retired)
        }
    }
}

/// One line of a snapshot file between the header and the trailer: an object of one member,
/// whose name says what the line holds.
enum SnapshotLine: Codable {
    case area(Area)
    case heading(Heading)
    case list(ItemList)
    case item(Item)
    case checklistItem(ChecklistItem)
    /// `{"tag":{…}}`: a tag, after its parent.
    case tag(Tag)
    /// `{"tagMerge":{"id":…,"tag":…}}`: an id merged into another tag.
    case tagMerge(TagMerge)
    /// `{"series":{…}}`: a repeating series, its rule and its template.
    case series(Series)
    case tombstone(TombstoneLine)
    case logged(LoggedLine)
    case fold(FoldLine)
    case defaultList(ItemList.ID)
    /// `{"retired":"<replica id>"}`: a replica the store learned was forgotten.
    case retired(ReplicaID)
    /// `{"foldedOperation":{…}}`: who an operation the store folded away was.
    case foldedOperation(FoldedOperationLine)

    enum CodingKeys: String, CodingKey, CaseIterable {
        case list, item, checklistItem, tombstone, logged, fold, defaultList, retired, foldedOperation, area, heading, tag, tagMerge, series
    }

    /// Why a line is not one of a snapshot's.
    enum Unknown: Error {
        /// The object has none of the members a line may have, or more than one.
        case content
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else { throw Unknown.content }
        switch key {
        case .area: self = .area(try container.decode(Area.self, forKey: key))
        case .heading: self = .heading(try container.decode(Heading.self, forKey: key))
        case .list: self = .list(try container.decode(ItemList.self, forKey: key))
        case .item: self = .item(try container.decode(Item.self, forKey: key))
        case .checklistItem: self = .checklistItem(try container.decode(ChecklistItem.self, forKey: key))
        case .tag: self = .tag(try container.decode(Tag.self, forKey: key))
        case .tagMerge: self = .tagMerge(try container.decode(TagMerge.self, forKey: key))
        case .series: self = .series(try container.decode(Series.self, forKey: key))
        case .tombstone: self = .tombstone(try container.decode(TombstoneLine.self, forKey: key))
        case .logged: self = .logged(try container.decode(LoggedLine.self, forKey: key))
        case .fold: self = .fold(try container.decode(FoldLine.self, forKey: key))
        case .defaultList: self = .defaultList(try container.decode(ItemList.ID.self, forKey: key))
        case .retired: self = .retired(try container.decode(ReplicaID.self, forKey: key))
        case .foldedOperation: self = .foldedOperation(try container.decode(FoldedOperationLine.self, forKey: key))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .area(let area): try container.encode(area, forKey: .area)
        case .heading(let heading): try container.encode(heading, forKey: .heading)
        case .list(let list): try container.encode(list, forKey: .list)
        case .item(let item): try container.encode(item, forKey: .item)
        case .checklistItem(let entry): try container.encode(entry, forKey: .checklistItem)
        case .tag(let tag): try container.encode(tag, forKey: .tag)
        case .tagMerge(let merge): try container.encode(merge, forKey: .tagMerge)
        case .series(let series): try container.encode(series, forKey: .series)
        case .tombstone(let tombstone): try container.encode(tombstone, forKey: .tombstone)
        case .logged(let logged): try container.encode(logged, forKey: .logged)
        case .fold(let fold): try container.encode(fold, forKey: .fold)
        case .defaultList(let id): try container.encode(id, forKey: .defaultList)
        case .retired(let id): try container.encode(id, forKey: .retired)
        case .foldedOperation(let operation): try container.encode(operation, forKey: .foldedOperation)
        }
    }
}

/// `{"tombstone":{…}}`: where an entry was in an ordering when it left it.
struct TombstoneLine: Codable {
    var entry: OrderEntry.ID
    var scope: OrderScope
    var sortIndex: Int64
}

/// `{"logged":{…}}`: an entry of the log.
struct LoggedLine: Codable {
    /// The operation, as a line of an operations file writes it.
    var operation: SyncOperation
    /// Whether the merge applied it, with the keys every replica computes.
    var replayed: Bool
    /// How to take it back.
    var rewind: Rewind
}

extension LoggedLine {
    /// An entry read from its line, keeping what its operation holds that this version does not
    /// read (`SyncOperation.original`), which `Codable` would drop.
    ///
    /// - Throws: `DecodingError` when the line is not a log entry.
    init(json: Data) throws {
        guard let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any], let logged = object["logged"] as? [String: Any],
              let operation = logged["operation"] as? [String: Any], let replayed = logged["replayed"] as? Bool,
              let rewind = logged["rewind"] as? [String: Any]
        else {
            self = try SyncCoding.decoder.decode(Wrapper.self, from: json).logged
            return
        }
        self.init(
            operation: try SyncOperation(json: try JSONSerialization.data(withJSONObject: operation, options: [.sortedKeys, .withoutEscapingSlashes])),
            replayed: replayed, rewind: try SyncCoding.decoder.decode(Rewind.self, from: try JSONSerialization.data(withJSONObject: rewind)))
    }

    /// `{"logged":{…}}`, for the messages of `Codable` on a line that is not one.
    private struct Wrapper: Decodable {
        var logged: LoggedLine
    }
}

/// `{"fold":{…}}`: the last operation folded away, how many were, and for each replica the id
/// of its operation at the sequence number the header's `folded` gives (`tips`); and what was
/// folded before folds kept who each operation was (`bySequence`). Files of Arrange 0.x before
/// identity have neither.
struct FoldLine: Codable {
    var count: Int64
    var through: OperationReference
    var tips: [String: UUID]?
    var bySequence: [String: Int64]?

    init(_ fold: Fold) {
        count = fold.count
        through = OperationReference(fold.through)
        tips = Dictionary(uniqueKeysWithValues: fold.tips.map { ($0.key.lowercasedString, $0.value) })
        bySequence = fold.bySequence.isEmpty ? nil : Dictionary(uniqueKeysWithValues: fold.bySequence.map { ($0.key.lowercasedString, $0.value) })
    }

    /// The fold this line and the header's `covering` describe.
    ///
    /// - Throws: ``OperationFileError/badSnapshotLine(_:reason:)`` when a replica is not a UUID.
    func fold(covering: [UUID: Int64], line: Int) throws(OperationFileError) -> Fold {
        func replicas<Value>(_ values: [String: Value]?) throws(OperationFileError) -> [UUID: Value] {
            var keyed: [UUID: Value] = [:]
            for (key, value) in values ?? [:] {
                guard let replica = UUID(uuidString: key) else { throw .badSnapshotLine(line, reason: "\"\(key)\" is not a replica id.") }
                keyed[replica] = value
            }
            return keyed
        }
        // A file from before identity: what it folded is told by sequence number alone.
        let bySequence = tips == nil ? covering : try replicas(bySequence)
        return Fold(through: through.order, covering: covering, tips: try replicas(tips), bySequence: bySequence, count: count)
    }
}

/// `{"foldedOperation":{…}}`: who an operation folded away was.
struct FoldedOperationLine: Codable {
    var id: UUID
    var replica: UUID
    var sequence: Int64
    var replaces: UUID?

    init(_ folded: FoldedOperation) {
        (id, replica, sequence, replaces) = (folded.id, folded.replica, folded.sequence, folded.replaces)
    }

    var folded: FoldedOperation { FoldedOperation(id: id, replica: replica, sequence: sequence, replaces: replaces) }
}

extension OperationReference {
    /// A reference to the operation at `order`.
    init(_ order: OperationOrder) {
        self.init(
            id: SyncOperation.ID(rawValue: order.id), replica: ReplicaID(rawValue: order.replica), sequence: order.sequence,
            clock: HLCTimestamp(order))
    }
}
