import ArgumentParser
import ArrangeIntents
import ArrangeModel
import ArrangeSQLite
import ArrangeStore
import ArrangeSync
import Foundation

/// `arrange sync`: exchange operations with another database file, or through files.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Exchange changes with another Arrange database or a sync server (sync PEER, sync URL), or write and read them as files (sync export, sync import).",
        discussion: """
            Every change is logged as an operation. Databases that exchange operations end with the same lists, \
            items, Today and order, whatever order the operations arrive in; running a sync again does no harm.
            """,
        subcommands: [
            SyncPeerCommand.self, SyncPairCommand.self, SyncExportCommand.self, SyncImportCommand.self, SyncReplicasCommand.self, SyncForgetCommand.self,
        ],
        defaultSubcommand: SyncPeerCommand.self)
}

/// `arrange sync PEER`: both databases end with every operation of either.
struct SyncPeerCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "peer",
        abstract: "Exchange operations both ways with another database file, as two devices that meet, or with a sync server.",
        discussion: """
            Each side applies what it lacked, in one transaction; if the command is stopped, both files stay as they were \
            or complete, and running it again finishes the job. Each file remembers how far it has read the other's \
            operations, so the next sync reads only what is new.
            Then each file folds away the operations that every database it knows of holds (they stay in its lists and \
            items); a file that lacks operations the other folded away takes the other's lists, items and log first, and \
            applies its own changes to them again.
            A peer whose schema is older than this Arrange writes is upgraded first, and the summary says so; one written \
            by a newer Arrange is refused, and nothing is exchanged.
            With a server's address (http:// or https://), it pushes what the server lacks, pulls until caught up, and \
            takes the server's snapshot when this database lacks what it folded away. The device's token comes from \
            --token-file, else ARRANGE_SYNC_TOKEN, else the one arrange sync pair stored; never from an argument.
            Example: arrange sync ~/laptop/arrange.sqlite
            Example: ARRANGE_SYNC_TOKEN=… arrange sync http://127.0.0.1:8080
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp("The other database file, which must exist, or a sync server's address.", valueName: "peer"))
    var peer: String
    @Option(help: ArgumentHelp("With a server: the file that holds this device's token.", valueName: "file"))
    var tokenFile: String?

    func run(in session: CommandSession) async throws {
        if let server = ServerAddress(peer) { return try await sync(with: server, in: session) }
        let here = try session.syncEngine()
        let url = URL(fileURLWithPath: peer)
        guard FileManager.default.fileExists(atPath: url.path) else { throw CommandLineError.input("Cannot read \(peer): no such file.") }
        guard url.standardizedFileURL.resolvingSymlinksInPath() != session.locations.database.standardizedFileURL.resolvingSymlinksInPath() else {
            throw IntentFailure(code: "samePeer", message: "\(peer) is this database; name another one.")
        }
        let unusable = { (error: any Error) in CommandLineError.database("Cannot use \(peer): \(IntentFailure(error).message) Nothing was exchanged.") }
        let schema: SQLiteItemRepository.SchemaStatus
        do {
            schema = try SQLiteItemRepository.schemaStatus(ofFileAt: url.path)
        } catch {
            throw unusable(error)
        }
        guard !schema.isNewer else { throw Self.newerPeer(peer, unknown: schema.unknown) }
        let there: SyncEngine
        do {
            there = SyncEngine(repository: try SQLiteItemRepository(path: url.path))
        } catch {
            throw unusable(error)
        }
        let report = try await here.exchange(with: there)
        if report.received.unapplied + report.sent.unapplied > 0 { session.console.note(MergeReport.unappliedNote) }
        var exchange = SyncExchange(report)
        if !schema.missing.isEmpty { exchange.peerUpgraded = SchemaUpgrade(from: schema.version, to: SQLiteItemRepository.SchemaStatus.currentVersion) }
        exchange.foldedHere = try await here.compact()
        exchange.foldedThere = try await there.compact()
        if shared.json {
            try session.printJSON(exchange)
        } else {
            session.console.print(exchange.summary(peer: peer))
        }
    }

    /// The refusal of a peer that a newer version of Arrange wrote, before anything was exchanged.
    static func newerPeer(_ peer: String, unknown: [String]) -> IntentFailure {
        let named = unknown.map { "'\($0)'" }.joined(separator: ", ")
        return IntentFailure(
            code: "newerPeer",
            message: "\(peer) was written by a newer version of Arrange: its schema has \(named), which this version does not know. "
                + "Nothing was exchanged and neither database changed; update Arrange to sync with it.")
    }
}

/// A peer's schema, brought up to date before an exchange.
struct SchemaUpgrade: Codable, Hashable {
    /// The version the peer's schema had (`"v4"`); `nil` for an empty file.
    var from: String?
    /// The version it has now (`"v6"`).
    var to: String
}

/// What `arrange sync PEER` did on each side.
struct SyncExchange: Codable {
    /// Operations this database sent that the peer did not have.
    var sent: Int
    /// Operations the peer sent that this database did not have.
    var received: Int
    /// Operations applied here, replays of earlier ones included.
    var appliedHere: Int
    /// Operations applied in the peer.
    var appliedThere: Int
    /// Whether the two files shared a replica id, as a copied file does, so the peer took a new one.
    var peerRekeyed: Bool
    /// Whether this database lacked operations the peer had folded away, and took the peer's snapshot.
    var snapshotHere: Bool
    /// Whether the peer lacked operations this database had folded away, and took its snapshot.
    var snapshotThere: Bool
    /// Operations that sorted before what a side had folded away, made again after everything.
    var replaced: Int
    /// Operations this database folded away after the exchange.
    var foldedHere = 0
    /// Operations the peer folded away after the exchange.
    var foldedThere = 0
    /// What this database did on finding its replica id in use elsewhere, in a sentence; `nil` when it did not.
    var forkHere: String?
    /// What waits here for missing operations, in a sentence; `nil` when nothing does.
    var heldHere: String?
    /// What waits in the peer for missing operations, in a sentence; `nil` when nothing does.
    var heldThere: String?
    /// What this database did on finding its clock had run ahead, in a sentence; `nil` when it did not.
    var clockHere: String?
    /// What the peer did on finding its clock had run ahead, in a sentence; `nil` when it did not.
    var clockThere: String?
    /// When the peer's schema was older than this Arrange writes: the upgrade it took first.
    var peerUpgraded: SchemaUpgrade?

    /// The figures of an exchange, as this database saw it.
    init(_ report: ExchangeReport) {
        sent = report.sent.new
        received = report.received.new
        appliedHere = report.received.applied + (report.adoption?.applied ?? 0)
        appliedThere = report.sent.applied + (report.peerAdoption?.applied ?? 0)
        peerRekeyed = report.peerRekeyed
        snapshotHere = report.adoption != nil
        snapshotThere = report.peerAdoption != nil
        replaced = [report.received, report.sent, report.adoption, report.peerAdoption].compactMap { $0?.replaced }.reduce(0, +)
        forkHere = [report.received, report.adoption].compactMap { $0?.forkSummary }.first
        heldHere = report.received.heldSummary(ofClock: "this database's")
        heldThere = report.sent.heldSummary(ofClock: "that database's")
        clockHere = report.clockRecovery?.summary
        clockThere = report.peerClockRecovery?.summary
    }

    /// `Sent 3 operations to PEER and received 2; applied 5 here and 3 there.`, and what else happened.
    func summary(peer: String) -> String {
        var text = ""
        if let peerUpgraded {
            text += "Upgraded \(peer)'s database from " + (peerUpgraded.from.map { "schema \($0)" } ?? "no schema") + " to \(peerUpgraded.to) first. "
        }
        text += "Sent \(sent) operation\(sent == 1 ? "" : "s") to \(peer) and received \(received); applied \(appliedHere) here and \(appliedThere) there."
        if peerRekeyed { text += " \(peer) had this database's replica id (a copied file) and took a new one." }
        if snapshotHere { text += " This database lacked operations \(peer) had folded away, and took its lists, items and log first." }
        if snapshotThere { text += " \(peer) lacked operations this database had folded away, and took its lists, items and log first." }
        if replaced > 0 { text += " \(replaced) operation\(replaced == 1 ? "" : "s") from before a fold made again after everything." }
        if let clock = clockHere { text += " Here: \(clock)" }
        if let clock = clockThere { text += " In \(peer): \(clock)" }
        if let fork = forkHere { text += " Here: \(fork)" }
        if let held = heldHere { text += " Here: \(held)" }
        if let held = heldThere { text += " In \(peer): \(held)" }
        if foldedHere + foldedThere > 0 { text += " Folded away \(foldedHere) operation\(foldedHere == 1 ? "" : "s") here and \(foldedThere) there, which every known database holds." }
        return text
    }
}

/// `arrange sync export [--since CURSOR | --snapshot] FILE`: operations, or a snapshot, as JSON Lines.
struct SyncExportCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: """
            Write the operations as JSON Lines: a header line, one operation per line, then a trailer that counts them and \
            holds their SHA-256; with --snapshot, a snapshot of the whole database, for a new device joining a group that has folded.
            """,
        discussion: """
            It ends by printing the cursor to pass to --since next time, so that only later operations are written.
            --snapshot writes a snapshot file instead: this database's lists, items, tombstones, its whole log and what it has \
            folded away. A database that lacks operations this one folded away cannot import its operations; it takes the \
            snapshot with sync import (a new device joining a group that has folded, through files alone). --since does not \
            go with --snapshot.
            Examples:
              arrange sync export changes.jsonl
              arrange sync export --since 42 - | ssh laptop arrange sync import -
              arrange sync export --snapshot snapshot.jsonl
            """)
    @OptionGroup var shared: SharedOptions
    @Option(help: ArgumentHelp("Write only the operations that reached this database after this cursor, which an earlier export printed (0, all of them, by default).", valueName: "cursor"))
    var since: Int64?
    @Flag(help: "Write a snapshot of the whole database (lists, items, tombstones, log and fold), for a new device joining a group that has folded.")
    var snapshot = false
    @Argument(help: ArgumentHelp("The file to write, replaced whole; - for standard output.", valueName: "file"))
    var file: String

    func validate() throws {
        guard since ?? 0 >= 0 else { throw ValidationError("--since must be a cursor an export printed: 0 or more.") }
        guard !snapshot || since == nil else {
            throw ValidationError("--since and --snapshot do not go together: a snapshot holds the whole database; leave out --since.")
        }
    }

    func run(in session: CommandSession) async throws {
        let engine = try session.syncEngine()
        // A database whose clock ran ahead makes its changes again in time before it sends them.
        if let recovery = try await engine.recoverClock() { session.console.note("Here: " + recovery.summary) }
        // A database's first export carries all it holds.
        try await engine.startSyncing()
        let data: Data
        let summary: String
        let figures: any Encodable
        if snapshot {
            let snapshot = try await engine.snapshot()
            data = try SnapshotFile.encode(snapshot)
            let exported = ExportedSnapshot(snapshot)
            (summary, figures) = (exported.summary, exported)
        } else {
            let batch = try await engine.operations(after: since ?? 0)
            data = try OperationFile.encode(OperationFile.Contents(
                operations: batch.operations, folded: batch.folded, foldedTips: batch.foldedTips, acknowledgements: try await engine.acknowledgements()))
            let count = batch.operations.count
            summary = "Exported \(count) operation\(count == 1 ? "" : "s"); next time, export --since \(batch.cursor)."
            figures = ExportedOperations(operations: count, cursor: batch.cursor)
        }
        if file == "-" {
            session.console.write(String(decoding: data, as: UTF8.self))
            session.console.note(summary)
            return
        }
        do {
            try data.write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw CommandLineError.output("Cannot write \(file): \(error.localizedDescription)")
        }
        if shared.json {
            try session.printJSON(figures)
        } else {
            session.console.print(summary.replacingOccurrences(of: "; next", with: " to \(file); next"))
        }
    }
}

/// What `arrange sync export --json` prints.
struct ExportedOperations: Codable {
    /// How many operations were written.
    var operations: Int
    /// The cursor to pass to `--since` next time.
    var cursor: Int64
}

/// What `arrange sync export --snapshot --json` prints.
struct ExportedSnapshot: Codable {
    /// Always `true`: the file is a snapshot.
    var snapshot = true
    /// How many lists, items and logged operations the snapshot holds.
    var lists: Int
    var items: Int
    var operations: Int
    /// How many operations the database had folded away, all folds together.
    var folded: Int64
    /// The cursor to pass to `--since` next time: the position of the last operation of the log.
    var cursor: Int64

    init(_ snapshot: SyncSnapshot) {
        lists = snapshot.lists.count
        items = snapshot.items.count
        operations = snapshot.operationCount
        folded = snapshot.foldedCount
        cursor = snapshot.log.last?.position ?? 0
    }

    /// `Exported a snapshot of 2 lists, 5 items and 3 operations (12 folded away before them); next time, export --since 7.`
    var summary: String {
        "Exported a snapshot of \(lists) list\(lists == 1 ? "" : "s"), \(items) item\(items == 1 ? "" : "s") and \(operations) operation\(operations == 1 ? "" : "s")"
            + (folded > 0 ? " (\(folded) folded away before them)" : "") + "; next time, export --since \(cursor)."
    }
}

/// `arrange sync import FILE`: applies operations from a file, each once, or takes a snapshot.
struct SyncImportCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Apply the operations of a file that sync export wrote, or take a snapshot file; importing it again changes nothing.",
        discussion: """
            The whole file is read first: a bad line or operation, a file cut short or changed (its trailer must match \
            its lines), or one of a newer format is refused with one line that says why, and nothing is applied.
            A snapshot file (sync export --snapshot) is for a new device joining a group that has folded: when this database \
            lacks operations the snapshot's database folded away, the snapshot's lists, items and log replace this database's, \
            and this database's own changes are applied to them again; when it lacks none, the snapshot's operations are \
            merged as from any file. A database that has itself folded away operations the snapshot lacks refuses it, \
            changing nothing.
            Example: arrange sync import changes.jsonl
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp("The file sync export wrote, of operations or a snapshot; - for standard input.", valueName: "file"))
    var file: String

    func run(in session: CommandSession) async throws {
        let engine = try session.syncEngine()
        let data: Data
        do {
            data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandLineError.input("Cannot read \(file): \(error.localizedDescription)")
        }
        guard SnapshotFile.isSnapshot(data) else {
            let contents = try OperationFile.decode(data)
            let report = try await engine.merge(contents)
            if report.unapplied > 0 { session.console.note(MergeReport.unappliedNote) }
            // What the file's database and those it heard of hold: this one may fold it away now.
            let folded = try await engine.compact()
            if shared.json {
                try session.printJSON(ImportedFile(report: report, folded: folded))
            } else {
                session.console.print(
                    "Imported \(report.received) operation\(report.received == 1 ? "" : "s") from \(file): " + Self.figures(of: report)
                        + (folded > 0 ? " Folded away \(folded) operation\(folded == 1 ? "" : "s"), which every known database holds." : ""))
            }
            return
        }
        let snapshot = try SnapshotFile.decode(data)
        let taken = try await engine.adopt(snapshot)
        let report: MergeReport
        if let taken {
            report = taken
        } else {
            report = try await engine.merge(try snapshot.operations(), after: snapshot.folded, endingAt: snapshot.foldedTips)
        }
        if report.unapplied > 0 { session.console.note(MergeReport.unappliedNote) }
        if shared.json {
            try session.printJSON(ImportedFile(report: report, snapshotTaken: taken != nil))
        } else if taken != nil {
            session.console.print(
                "Took the snapshot in \(file), since this database lacked operations folded away there: its lists, items and log replace "
                    + "this database's. This database's own \(report.received) operation\(report.received == 1 ? "" : "s") merged into it again: "
                    + Self.figures(of: report))
        } else {
            session.console.print(
                "Imported \(report.received) operation\(report.received == 1 ? "" : "s") from the snapshot in \(file), "
                    + "whose folded operations this database holds: " + Self.figures(of: report))
        }
    }

    /// `2 new; applied 3, of which 1 again to keep one order.`, and the operations made again after a fold.
    private static func figures(of report: MergeReport) -> String {
        "\(report.new) new; applied \(report.applied), of which \(report.applied - report.new) again to keep one order."
            + (report.replaced > 0 ? " \(report.replaced) from before a fold made again after everything." : "")
            + (report.clockRecovery.map { " " + $0.summary } ?? "")
            + (report.forkSummary.map { " " + $0 } ?? "")
            + (report.heldSummary(ofClock: "this database's").map { " " + $0 } ?? "")
    }
}

/// What `arrange sync import --json` prints: what the merge did, with, for a file of operations,
/// how many were folded away after it, and for a snapshot file, whether it was taken.
struct ImportedFile: Encodable {
    /// The merge: of the file's operations; of this database's own into a snapshot it took.
    var report: MergeReport
    /// Operations folded away after the merge, which every database this one knows of holds.
    var folded: Int?
    /// Whether this database lacked operations the snapshot's database folded away, and took the snapshot.
    var snapshotTaken: Bool?

    private enum CodingKeys: String, CodingKey {
        case folded, snapshotTaken
    }

    /// The merge's figures, and what else happened, in one object.
    func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(folded, forKey: .folded)
        try container.encodeIfPresent(snapshotTaken, forKey: .snapshotTaken)
    }
}

/// `arrange sync replicas`: the databases this one knows of.
struct SyncReplicasCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "replicas",
        abstract: "List the databases (replicas) this one knows of: itself, those whose changes it holds, those it has heard of.",
        discussion: """
            Each line gives the replica's id, when it was last heard of (its latest change held here, or what it last \
            said of itself), how many databases its last acknowledgement covered, and whether it holds compaction back: \
            it has not acknowledged every change this database holds, so they cannot be folded away yet. A database \
            that has never synced knows of none, itself included.
            Example: arrange sync replicas --json
            """)
    @OptionGroup var shared: SharedOptions

    func run(in session: CommandSession) async throws {
        let replicas = try await session.syncEngine().replicas()
        if shared.json {
            try session.printJSON(replicas.map(ReplicaLine.init))
            return
        }
        guard !replicas.isEmpty else {
            session.console.print("This database has never synced; its first sync carries everything it holds.")
            return
        }
        let dates = Date.ISO8601FormatStyle()
        for replica in replicas {
            var words = [replica.id.text, replica.isThisDatabase ? "this database" : "another database"]
            words.append(replica.lastHeard.map { "last heard \($0.date.formatted(dates))" } ?? "never heard from")
            words.append(replica.acknowledged.map { "acknowledged \($0.count) replica\($0.count == 1 ? "" : "s")" } ?? "never acknowledged")
            if replica.isForgotten { words.append("forgotten") }
            if replica.holdsCompactionBack { words.append("holds compaction back") }
            session.console.print(words.joined(separator: "  "))
        }
    }
}

/// One replica as `arrange sync replicas --json` prints it.
struct ReplicaLine: Codable {
    var id: String
    var thisDatabase: Bool
    /// The clock it was last heard of at: milliseconds since 1970 and a counter.
    var lastHeard: HLCTimestamp?
    /// For each replica, by id, the sequence number up to which it said it held all of that replica's operations.
    var acknowledged: [String: Int64]?
    var holdsCompactionBack: Bool
    var forgotten: Bool

    init(_ replica: ReplicaSummary) {
        id = replica.id.text
        thisDatabase = replica.isThisDatabase
        lastHeard = replica.lastHeard
        acknowledged = replica.acknowledged.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.key.text, $0.value) }) }
        holdsCompactionBack = replica.holdsCompactionBack
        forgotten = replica.isForgotten
    }
}

/// `arrange sync forget REPLICA`: a database that is gone no longer holds compaction back.
struct SyncForgetCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget",
        abstract: "Forget a database that is gone (a lost phone, a file retired after a restore or a copy), so that it no longer holds compaction back.",
        discussion: """
            The forgetting is itself a change, which every database learns at its next sync. The replica's changes stay. \
            Should it come back, it takes what the others folded away, its own changes from before are made again, and it \
            carries on as a new replica. Name it by its id or the start of it, as sync replicas lists it.
            Example: arrange sync forget 1a2b3c4d
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp("The replica's id, or enough of its start to name one.", valueName: "replica"))
    var replica: String

    func run(in session: CommandSession) async throws {
        let engine = try session.syncEngine()
        let wanted = replica.lowercased().filter { $0 != "-" }
        let matches = try await engine.replicas().filter { $0.id.text.filter { $0 != "-" }.hasPrefix(wanted) }
        guard !wanted.isEmpty, let match = matches.first else {
            throw IntentFailure(code: "unknownReplica", message: "No database this one knows of has an id that starts with '\(replica)'; sync replicas lists them.")
        }
        guard matches.count == 1 else {
            throw IntentFailure(code: "ambiguousReplica", message: "'\(replica)' starts the ids of \(matches.count) databases (\(matches.map { String($0.id.text.prefix(8)) }.joined(separator: ", "))); give more of the id.")
        }
        let logged = try await engine.forget(match.id)
        if shared.json {
            try session.printJSON(ForgottenReplica(id: match.id.text, alreadyForgotten: logged == nil))
        } else if logged == nil {
            session.console.print("\(match.id.text) was forgotten already.")
        } else {
            session.console.print("Forgot \(match.id.text): it no longer holds compaction back; the other databases learn it at their next sync.")
        }
    }
}

/// What `arrange sync forget --json` prints.
struct ForgottenReplica: Codable {
    /// The replica's id.
    var id: String
    /// Whether it was forgotten before, so that nothing was logged.
    var alreadyForgotten: Bool
}

extension CommandSession {
    /// The engine the session's intents log through once the database syncs;
    /// ``open(database:overrides:keepsHistory:processEnvironment:console:)`` always gives one.
    ///
    /// - Throws: ``CommandLineError/unavailable(_:)`` for a session made over an environment without sync.
    func syncEngine() throws(CommandLineError) -> SyncEngine {
        switch environment.sync {
        case let log as SyncedStoreChangeLog: log.engine
        case let engine as SyncEngine: engine
        default: throw .unavailable("This session's database is not set up to sync; nothing was exchanged.")
        }
    }
}

extension MergeReport {
    /// What a merge that found this database's replica id in use elsewhere did, in a sentence.
    var forkSummary: String? {
        guard copiedReplicaDetected else { return nil }
        return "another database (a copy of this one, or the one a backup was restored over) made changes under this database's replica id, "
            + "so this database took a new one" + (remade > 0 ? " and made \(remade) of its changes again under it." : ".")
    }

    /// What the command line says, once, when a merge kept operations it could not apply.
    static let unappliedNote = "An operation from a newer version of Arrange was kept but not applied; update Arrange."

    /// What waits, in sentences: for missing operations (`2 operations held back until the
    /// operations before them arrive: replica 1a2b3c4d's from 4 on; import or sync with a
    /// database that has them.`), and for a clock to be right (`3 operations of replica 1a2b3c4d
    /// held back: stamped 365 days ahead of this database's clock. …`); `nil` when nothing waits.
    ///
    /// - Parameter clock: Whose clock held them back: `this database's`, or the peer's.
    func heldSummary(ofClock clock: String) -> String? {
        var sentences: [String] = []
        let waiting = gaps.reduce(0) { $0 + $1.held }
        if waiting > 0 {
            let missing = gaps.map { "replica \($0.replica.text.prefix(8))'s from \($0.firstMissing) on" }.joined(separator: ", ")
            sentences.append("\(waiting) operation\(waiting == 1 ? "" : "s") held back until the operations before them arrive: \(missing); "
                + "import or sync with a database that has them.")
        }
        for ahead in aheadOfClock {
            sentences.append("\(ahead.held) operation\(ahead.held == 1 ? "" : "s") of replica \(ahead.replica.text.prefix(8)) held back: "
                + "stamped \(spokenDuration(ahead.aheadByMilliseconds)) ahead of \(clock) clock. They wait until the clock of the device "
                + "that made them is set right, or \(clock), if it is the one that is wrong.")
        }
        return sentences.isEmpty ? nil : sentences.joined(separator: " ")
    }
}

extension ClockRecovery {
    /// What a store did on finding its clock had run ahead, in a sentence.
    var summary: String {
        "the clock had run \(spokenDuration(aheadByMilliseconds)) ahead and is right again: the database took a new replica id"
            + (restated > 0 ? " and made \(restated) change\(restated == 1 ? "" : "s") again with the right time." : ".")
    }
}

/// `365 days`, `3 hours`, `12 minutes`, `45 seconds`: a span of milliseconds as a person reads
/// it, rounded down to the largest unit of which it holds two or more (seconds below two minutes).
func spokenDuration(_ milliseconds: Int64) -> String {
    let seconds = milliseconds / 1_000
    let (count, unit): (Int64, String)
    if seconds >= 2 * 24 * 3_600 {
        (count, unit) = (seconds / (24 * 3_600), "day")
    } else if seconds >= 2 * 3_600 {
        (count, unit) = (seconds / 3_600, "hour")
    } else if seconds >= 2 * 60 {
        (count, unit) = (seconds / 60, "minute")
    } else {
        (count, unit) = (seconds, "second")
    }
    return "\(count) \(unit)\(count == 1 ? "" : "s")"
}
