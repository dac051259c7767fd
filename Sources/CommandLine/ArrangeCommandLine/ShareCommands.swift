import ArgumentParser
import ArrangeModel
import ArrangeStore
import ArrangeSync
import ArrangeSyncHTTPCore
import Foundation

/// `arrange share`: lists shared with other people, through the sync server this database syncs with.
struct ShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share a list with other people through the sync server this database syncs with (arrange sync URL).",
        discussion: """
            A shared list holds one order for everyone in it: its items, headings, checklists, dates and completion are \
            the same for every member. Whether an item is in your Today, your reminders, your tags and where the list \
            sits in your sidebar stay yours. Items never move between a shared list and another.
            Every arrange sync URL syncs the shared lists too.
            """,
        subcommands: [ShareCreateCommand.self, ShareJoinCommand.self, ShareMembersCommand.self, ShareRemoveCommand.self, ShareLeaveCommand.self])
}

/// The server options every `arrange share` command takes.
struct ShareServerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The sync server, when this database syncs with more than one (http:// or https://).", valueName: "url"))
    var server: String?
    @Option(help: ArgumentHelp("The file that holds this device's token.", valueName: "file"))
    var tokenFile: String?

    /// Runs `body` with the server this database syncs with, on the user's own log.
    ///
    /// - Throws: ``CommandLineError/input(_:)`` when the database syncs with no server, or with
    ///   several and `--server` names none of them, or when no token is found; what `body` throws.
    func withServer<Result>(in session: CommandSession, _ body: (HTTPSyncRemote) async throws -> Result) async throws -> Result {
        let address = try await self.address(in: session)
        let token = try ServerToken.find(for: address, file: tokenFile, in: session)
        return try await RemoteHTTPHelper.withTransport { transport in
            try await body(HTTPSyncRemote(server: address.url, token: token, transport: transport))
        }
    }

    private func address(in session: CommandSession) async throws -> ServerAddress {
        if let server {
            guard let address = ServerAddress(server) else { throw CommandLineError.input("\(server) is not a server address; give http://HOST[:PORT] or https://HOST[:PORT].") }
            return address
        }
        let engine = try session.syncEngine()
        let servers = try await engine.repository.readLog { log in
            try log.remoteRecords().map(\.remote).filter { !$0.contains("/lists/") }.compactMap(ServerAddress.init)
        }
        guard let first = servers.first else {
            throw CommandLineError.input("This database syncs with no server, and lists are shared through one: sync with it first (arrange sync URL).")
        }
        guard servers.count == 1 else {
            throw CommandLineError.input("This database syncs with \(servers.count) servers (\(servers.map(\.key).joined(separator: ", "))): name one with --server URL.")
        }
        return first
    }
}

/// `arrange share create LIST [--role edit|view]`: an invite code, valid once for 7 days.
struct ShareCreateCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Share a list, and print an invite code for one person, valid once for 7 days.",
        discussion: """
            The first invite shares the list, with you as its owner; only the owner invites. Give each person a code of \
            their own: they run arrange share join CODE.
            Example: arrange share create Groceries
            Example: arrange share create Garden --role view --json
            """)
    @OptionGroup var shared: SharedOptions
    @OptionGroup var options: ShareServerOptions
    @Argument(help: ArgumentHelp("The list to share: its name or id.", valueName: "list")) var list: String
    @Option(help: "What the person who joins may do: edit (change it, as you do) or view (see it, change nothing).") var role: RoleArgument = .edit

    /// `--role`'s values: those of `ListShare.Role`.
    enum RoleArgument: String, CaseIterable, ExpressibleByArgument {
        case edit, view

        var role: ListShare.Role { self == .edit ? .edit : .view }
    }

    func run(in session: CommandSession) async throws {
        let engine = try session.syncEngine()
        let found = try await session.resolveList(ListReference(list))
        guard try await session.defaultListID() != found.id else {
            throw CommandLineError.input("\(found.name) is the default list, where new items land; it cannot be shared. Share another list, or make another the default first.")
        }
        let invite = try await options.withServer(in: session) { server in try await engine.invite(to: found.id, as: role.role, through: server) }
        if shared.json {
            try session.printJSON(invite)
        } else {
            session.console.print("Invite to \(found.name) (\(invite.role.rawValue)): \(invite.code), valid once until \(invite.expiresAt.formatted(date: .abbreviated, time: .shortened)).")
        }
    }
}

/// `arrange share join CODE`: the list appears at the bottom of the sidebar, with everything in it.
struct ShareJoinCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "join",
        abstract: "Join a shared list with an invite code: it appears at the bottom of your lists, with everything in it.",
        discussion: "Example: arrange share join K7QM-2XPA-9RTV")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var options: ShareServerOptions
    @Argument(help: ArgumentHelp("The invite code, as its owner gave it.", valueName: "code")) var code: String

    func run(in session: CommandSession) async throws {
        let engine = try session.syncEngine()
        let joined = try await options.withServer(in: session) { server in
            let joined = try await server.join(code: code)
            _ = try await engine.sync(withServer: server)
            return joined
        }
        let list = ItemList.ID(rawValue: joined.list)
        let name = try await engine.repository.read { try $0.list(id: list)?.name } ?? list.rawValue.lowercasedString
        if shared.json {
            try session.printJSON(JoinedList(list: list, name: name, owner: joined.owner, role: joined.role))
        } else {
            session.console.print("Joined \(name), shared by \(joined.owner) (\(joined.role.rawValue)).")
        }
    }
}

/// What `arrange share join --json` prints.
struct JoinedList: Codable {
    var list: ItemList.ID
    var name: String
    var owner: String
    var role: ListShare.Role
}

/// `arrange share members LIST [--json]`.
struct ShareMembersCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "members",
        abstract: "List the people in a shared list: its owner first, then by name.",
        discussion: "Example: arrange share members Groceries --json")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var options: ShareServerOptions
    @Argument(help: ArgumentHelp("The shared list: its name or id.", valueName: "list")) var list: String

    func run(in session: CommandSession) async throws {
        let found = try await session.resolveList(ListReference(list))
        let members = try await options.withServer(in: session) { try await $0.members(of: found.id.rawValue) }
        try ShareMembersCommand.print(members, of: found, in: session, json: shared.json)
    }

    /// Prints the members of `list`, as JSON (`{"members": […]}`) or a line each.
    static func print(_ members: [ShareMember], of list: ItemList, in session: CommandSession, json: Bool) throws {
        if json {
            try session.printJSON(ShareMembers(members: members))
        } else {
            session.console.print(members.map { "\($0.user) \($0.owner ? "owner" : $0.role.rawValue)" }.joined(separator: "\n"))
        }
    }
}

/// `arrange share remove LIST USER`: the owner only.
struct ShareRemoveCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove",
        abstract: "Remove a person from a list you shared; they keep what they had, as a list of their own, and get nothing after.",
        discussion: "Example: arrange share remove Groceries bob")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var options: ShareServerOptions
    @Argument(help: ArgumentHelp("The shared list: its name or id.", valueName: "list")) var list: String
    @Argument(help: ArgumentHelp("The person's user name on the server.", valueName: "user")) var user: String

    func run(in session: CommandSession) async throws {
        let found = try await session.resolveList(ListReference(list))
        let members = try await options.withServer(in: session) { try await $0.remove(user, from: found.id.rawValue) }
        try ShareMembersCommand.print(members, of: found, in: session, json: shared.json)
    }
}

/// `arrange share leave LIST`: the list stays as a list of the user's own.
struct ShareLeaveCommand: SessionCommand {
    static let configuration = CommandConfiguration(
        commandName: "leave",
        abstract: "Leave a list shared with you: you keep what it holds, as a list of your own, and get nothing after.",
        discussion: "Example: arrange share leave Groceries")
    @OptionGroup var shared: SharedOptions
    @OptionGroup var options: ShareServerOptions
    @Argument(help: ArgumentHelp("The shared list: its name or id.", valueName: "list")) var list: String

    func run(in session: CommandSession) async throws {
        try await Self.leave(try await session.resolveList(ListReference(list)), through: options, json: shared.json, in: session)
    }

    /// Leaves `list` through the server `options` find, syncs, and says so.
    static func leave(_ list: ItemList, through options: ShareServerOptions, json: Bool, in session: CommandSession) async throws {
        let engine = try session.syncEngine()
        let report = try await options.withServer(in: session) { server in
            _ = try await server.leave(list.id.rawValue)
            return try await engine.sync(withServer: server)
        }
        let kept = report.shares.kept[list.id]
        if json {
            try session.printJSON(LeftList(list: list.id, kept: kept))
        } else {
            session.console.print("Left \(list.name); what it held stays here as a list of your own.")
        }
    }
}

/// What `arrange share leave --json` prints.
struct LeftList: Codable {
    /// The shared list.
    var list: ItemList.ID
    /// The list of the user's own that keeps what it held.
    var kept: ItemList.ID?
}
