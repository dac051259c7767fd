import ArrangeSync
import ArrangeSyncHTTPCore
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// The HTTP server of `arrange-server serve`: a Hummingbird application, and so a service of
/// the process's group.
///
/// Before it listens, it checks the database's schema and reads its epoch, through the pool
/// that the same group runs (a query waits for the pool to start), and makes the endpoints on
/// them. Once it listens, it prints `arrange-server listening on http://HOST:PORT` as the first
/// line of standard output. On graceful shutdown it stops taking connections, answers the
/// requests it took, and returns.
struct SyncServer: ApplicationProtocol {
    let database: ServerDatabase
    let signals: PushSignals
    let folds: FoldService
    let limits: RequestLimits
    let folding: FoldPolicy
    /// The address it listens on, as given; port 0 picks a free one.
    let host: String
    let port: Int
    let logger: Logger

    var responder: RouterResponder<ServerContext> {
        get async throws {
            try await database.checkSchema()
            let routes = ServerRoutes(
                database: database, epoch: try await database.epoch(), clock: HybridLogicalClock.systemMilliseconds, limits: limits,
                signals: signals, folds: folds, folding: folding)
            return routes.router().buildResponder()
        }
    }

    /// HTTP/1.1; a client that stops sending or reading for 10 s past the longest wait is let go.
    var server: HTTPServerBuilder {
        .http1(configuration: .init(idleTimeout: .seconds(Int64(SyncProtocol.maximumWait) + 10)))
    }

    var configuration: ApplicationConfiguration {
        ApplicationConfiguration(address: .hostname(host, port: port), serverName: "arrange-server")
    }

    func onServerRunning(_ channel: any Channel) async {
        // Unbuffered, so that a script that started the server reads it at once.
        FileHandle.standardOutput.write(Data("arrange-server listening on http://\(host):\(channel.localAddress?.port ?? port)\n".utf8))
    }
}
