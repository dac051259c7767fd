import ArgumentParser
import ArrangeModel
import ArrangeStore
import ArrangeSync
import ArrangeSyncHTTPCore
import Foundation

/// A sync server's address, as `arrange sync URL` takes it: `http://` or `https://`.
struct ServerAddress {
    let url: URL

    /// The address `text` names, or `nil` when it names no server (a database file, say).
    init?(_ text: String) {
        guard text.hasPrefix("http://") || text.hasPrefix("https://"), let url = URL(string: text), url.host != nil else { return nil }
        self.url = url
    }

    /// The key the address's token is stored under: scheme, host and port.
    var key: String {
        var components = URLComponents()
        (components.scheme, components.host, components.port) = (url.scheme, url.host, url.port)
        return components.string ?? url.absoluteString
    }
}

/// The device tokens `arrange sync pair` stored: `tokens.json` next to the user's configuration,
/// readable by the user alone.
struct StoredTokens {
    let file: URL

    init(locations: Locations) {
        file = locations.userConfiguration.deletingLastPathComponent().appendingPathComponent("tokens.json")
    }

    func token(for server: ServerAddress) -> String? {
        all()[server.key]
    }

    func store(_ token: String, for server: ServerAddress) throws(CommandLineError) {
        var tokens = all()
        tokens[server.key] = token
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            let data = try JSONEncoder().encode(tokens)
            // Made readable by the user alone before the token is written into it.
            guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown)
            }
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
            try data.write(to: file)
        } catch {
            throw .configuration("Cannot store the token in \(file.path): \(error.localizedDescription)")
        }
    }

    private func all() -> [String: String] {
        (try? JSONDecoder().decode([String: String].self, from: Data(contentsOf: file))) ?? [:]
    }
}

/// What `arrange sync URL` did.
struct ServerSyncSummary: Codable {
    /// The server.
    var server: String
    /// Operations sent to the server.
    var sent: Int
    /// Operations received that this database did not have.
    var received: Int
    /// Operations applied here, replays of earlier ones included.
    var applied: Int
    /// Whether this database lacked operations the server had folded away, and took its snapshot.
    var snapshot: Bool
    /// Whether the server knew this database's replica id from another device, so this database took a new one.
    var rekeyed: Bool
    /// How many of this database's changes it made again under its new replica id, when it took one.
    var renumbered: Int
    /// What this database did on finding its replica id in use elsewhere, in a sentence; `nil` when it did not.
    var fork: String?
    /// What waits here for missing operations or a clock, in a sentence; `nil` when nothing does.
    var held: String?
    /// What this database did on finding its clock had run ahead, in a sentence; `nil` when it did not.
    var clock: String?
    /// The milliseconds this database now adds to the device's clock to tell the time by the
    /// server's, when this sync changed it (0: the device's clock is right again); `nil` when it did not.
    var clockCorrection: Int64?

    /// How many lists shared with other people synced too.
    var sharedLists: Int
    /// The lists this user is no longer in, kept here as their own.
    var kept: Int

    init(server: String, report whole: ServerSyncReport) {
        let report = whole.own
        self.server = server
        sharedLists = whole.shared.count
        kept = whole.shares.kept.count
        sent = report.pushed + whole.shared.values.reduce(0) { $0 + $1.pushed }
        received = report.received.new + whole.shared.values.reduce(0) { $0 + $1.received.new }
        applied = report.received.applied + (report.adoption?.applied ?? 0) + whole.shared.values.reduce(0) { $0 + $1.received.applied }
        snapshot = report.adoption != nil
        rekeyed = report.replicaLeft != nil
        renumbered = report.renumbered
        fork = [report.received, report.adoption].compactMap { $0?.forkSummary }.first
        held = report.received.heldSummary(ofClock: "this database's")
        clock = report.clockRecovery?.summary
        clockCorrection = report.clockCorrection
    }

    /// `Sent 3 operations to URL and received 2; applied 2 here.`, and what else happened.
    var summary: String {
        var text = "Sent \(sent) operation\(sent == 1 ? "" : "s") to \(server) and received \(received); applied \(applied) here."
        if sharedLists > 0 { text += " That includes \(sharedLists) shared list\(sharedLists == 1 ? "" : "s")." }
        if kept > 0 { text += " You are no longer in \(kept) shared list\(kept == 1 ? "" : "s"): what \(kept == 1 ? "it" : "they") held stays here as your own." }
        if snapshot { text += " This database lacked operations the server had folded away, and took its lists, items and log first." }
        if rekeyed {
            text += " Another device syncs as this database's replica (a copy, or a restored backup): this database took a new replica id"
                + (renumbered > 0 ? " and made \(renumbered) of its changes again under it." : ".")
        }
        if let clockCorrection {
            text += clockCorrection == 0
                ? " This device's clock agrees with the server's again: this database tells the time by it alone."
                : " This device's clock is \(spokenDuration(abs(clockCorrection))) \(clockCorrection < 0 ? "ahead of" : "behind") the server's:"
                    + " this database tells the time by the server's from now on."
        }
        if let clock { text += " Here: \(clock)" }
        if let fork { text += " Here: \(fork)" }
        if let held { text += " Here: \(held)" }
        return text
    }
}

extension SyncPeerCommand {
    /// Syncs the session's database with a server: pushes, pulls until caught up, takes a
    /// snapshot when told to. A server that knows this database's replica id from another
    /// device (a copy, a restored backup) makes it take a new one (the engine does it).
    func sync(with server: ServerAddress, in session: CommandSession) async throws {
        let engine = try session.syncEngine()
        let token = try token(for: server, in: session)
        let (identity, report) = try await RemoteHTTPHelper.withTransport { transport in
            let remote = HTTPSyncRemote(server: server.url, token: token, transport: transport)
            return (remote.identity, try await engine.sync(withServer: remote))
        }
        if report.own.received.unapplied > 0 { session.console.note(MergeReport.unappliedNote) }
        let summary = ServerSyncSummary(server: identity, report: report)
        if shared.json {
            try session.printJSON(summary)
        } else {
            session.console.print(summary.summary)
        }
    }

    /// The device's token: from `--token-file`, else `ARRANGE_SYNC_TOKEN`, else the one `sync pair` stored.
    private func token(for server: ServerAddress, in session: CommandSession) throws(CommandLineError) -> String {
        try ServerToken.find(for: server, file: tokenFile, in: session)
    }
}

/// A device's token for a server.
enum ServerToken {
    /// The device's token: from `file` (`--token-file`), else `ARRANGE_SYNC_TOKEN`, else the one `sync pair` stored.
    static func find(for server: ServerAddress, file tokenFile: String?, in session: CommandSession) throws(CommandLineError) -> String {
        if let tokenFile {
            guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8) else { throw .input("Cannot read the token file \(tokenFile).") }
            let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !token.isEmpty else { throw .input("The token file \(tokenFile) is empty.") }
            return token
        }
        if let token = ProcessInfo.processInfo.environment["ARRANGE_SYNC_TOKEN"], !token.isEmpty { return token }
        if let token = StoredTokens(locations: session.locations).token(for: server) { return token }
        throw .input(
            "No token for \(server.key): pair this device (arrange sync pair \(server.key) CODE), set ARRANGE_SYNC_TOKEN, or give --token-file FILE.")
    }
}

/// `arrange sync pair URL CODE`: a pairing code for a device token of this device's own.
struct SyncPairCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "pair",
        abstract: "Exchange a pairing code from a sync server (arrange-server pair) for this device's own token, and store it.",
        discussion: """
            The token is stored in tokens.json beside the user's configuration, readable by the user alone; \
            arrange sync URL finds it there. The code works once, within 10 minutes.
            Example: arrange sync pair https://sync.example.com K7QM-2XPA
            """)
    @OptionGroup var shared: SharedOptions
    @Argument(help: ArgumentHelp("The server, http:// or https://.", valueName: "url")) var server: String
    @Argument(help: ArgumentHelp("The code arrange-server pair printed.", valueName: "code")) var code: String
    @Option(help: "What the token is for, as the server lists it (default: this machine's name).") var label: String?

    func run(in session: CommandSession) async throws {
        guard let address = ServerAddress(server) else { throw CommandLineError.input("\(server) is not a server address; give http://HOST[:PORT] or https://HOST[:PORT].") }
        let label = label ?? ProcessInfo.processInfo.hostName
        let paired = try await RemoteHTTPHelper.withTransport { transport in
            try await HTTPSyncRemote.pair(with: address.url, code: code, label: label, transport: transport)
        }
        try StoredTokens(locations: session.locations).store(paired.token, for: address)
        if shared.json {
            try session.printJSON(["server": address.key, "tokenID": paired.tokenID])
        } else {
            session.console.print("Paired with \(address.key); the token (id \(paired.tokenID)) is stored for arrange sync \(address.key).")
        }
    }
}
