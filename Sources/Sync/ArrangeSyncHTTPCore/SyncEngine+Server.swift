public import ArrangeModel
import ArrangeStore
public import ArrangeSync
import Foundation

/// What ``ArrangeSync/SyncEngine/sync(withServer:)`` did.
public struct ServerSyncReport: Sendable {
    /// The sync of the user's own log.
    public var own: SyncReport
    /// The sync of each list shared with the user that had something new, by list: one whose
    /// log holds nothing this store lacks, and which has nothing to send, is not synced.
    public var shared: [ItemList.ID: SyncReport] = [:]
    /// What changed in the lists shared with the user: those kept as the user's own, once the
    /// user was no longer in them.
    public var shares = ShareUpdate()

    /// A report of the own log's sync alone.
    public init(own: SyncReport) {
        self.own = own
    }
}

extension SyncEngine {
    /// Syncs with a sync server: the user's own log, then the log of each list shared with the
    /// user (``HTTPSyncRemote/sharedList(_:)``), whose changes go there alone.
    ///
    /// On the way it records the lists shared with the user, as the server tells them
    /// (`SyncEngine.applyShares(_:)`): a list joined on another device is pulled
    /// whole, and one the user was removed from, or left, stays as a list of their own.
    ///
    /// - Parameter server: The server, on the user's own log.
    /// - Returns: What each sync did, and what changed in the shares.
    /// - Throws: What `SyncEngine.sync(with:)` throws, and ``SyncServerError``
    ///   or ``HTTPSyncError`` from the server. What was synced before stays synced.
    public func sync(withServer server: HTTPSyncRemote) async throws -> ServerSyncReport {
        var report = ServerSyncReport(own: try await sync(with: server))
        let lists = try await server.sharedLists()
        report.shares = try await applyShares(lists.map(\.share))
        for list in lists {
            let remote = server.sharedList(list.list)
            guard try await hasNews(for: remote, at: list.head) else { continue }
            report.shared[ItemList.ID(rawValue: list.list)] = try await sync(with: remote)
        }
        guard !report.shares.missing.isEmpty else { return report }
        // The lists joined since are here now.
        let joined = try await applyShares(lists.map(\.share))
        report.shares.missing = joined.missing
        report.shares.kept.merge(joined.kept) { first, _ in first }
        return report
    }

    /// Shares `list` through a sync server, and makes an invite code to it: the first invite
    /// shares the list, with the user as its owner, and logs what it holds for its members
    /// (`SyncEngine.startSharing(_:)`); then the list syncs.
    ///
    /// - Parameters:
    ///   - list: A list of this store.
    ///   - role: What the person who joins with the code may do.
    ///   - server: The server, on the user's own log.
    /// - Returns: The invite, valid once for 7 days.
    /// - Throws: `StoreError.listNotFound`; ``SyncServerError`` with
    ///   ``SyncServerError/Code/forbidden`` when another user shares the list; ``HTTPSyncError``.
    public func invite(to list: ItemList.ID, as role: ShareRole, through server: HTTPSyncRemote) async throws -> ShareInvite {
        guard try await repository.read({ try $0.list(id: list) }) != nil else { throw StoreError.listNotFound(list) }
        let invite = try await server.invite(to: list.rawValue, as: role)
        if try await repository.read({ try $0.share(of: list) }) == nil,
           let shared = try await server.sharedLists().first(where: { $0.list == list.rawValue }) {
            try await startSharing(shared.share)
        }
        _ = try await sync(withServer: server)
        return invite
    }
}
