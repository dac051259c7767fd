import Foundation
import PostgresNIO

/// Why a command of `arrange-server` failed. Nothing was changed.
enum ServerError: Error, Hashable {
    /// The database URL is not `postgres://USER@HOST[:PORT]/DATABASE`.
    case badDatabaseURL(String)
    /// No database URL was given.
    case missingDatabaseURL
    /// The database has not been migrated, or not to this version.
    case notMigrated
    /// The database was migrated by a newer `arrange-server`, to this many migrations.
    case newerSchema(Int)
    /// No user has this name.
    case unknownUser(String)
    /// A user has this name already.
    case userExists(String)
    /// A user name is empty, or longer than 100 characters.
    case badUserName
    /// No token has this id.
    case unknownToken(String)
    /// No connection to the database came in time: it is down, or every connection is busy.
    case databaseUnreachable
    /// PostgreSQL refused a statement, or the connection, with this message.
    case databaseRefused(String)

    /// The codes of a `PSQLError` that mean the connection to the database was lost, or never made.
    static let connectionLost: [PSQLError.Code] = [.connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection]

    /// `error` as a person reads it: a failure of PostgreSQL's, within a transaction or not, as
    /// ``databaseRefused(_:)`` with PostgreSQL's own message, or ``databaseUnreachable`` for a
    /// connection lost or refused; any other error as it is.
    static func readable(_ error: any Error) -> any Error {
        switch error {
        case let error as PostgresTransactionError:
            [error.closureError, error.beginError, error.commitError, error.rollbackError].lazy.compactMap { $0 }.first.map(readable) ?? error
        case let error as PSQLError:
            if let message = error.serverInfo?[.message] {
                databaseRefused(message)
            } else if connectionLost.contains(error.code) {
                databaseUnreachable
            } else {
                error
            }
        default: error
        }
    }
}

extension ServerError: LocalizedError {
    var errorDescription: String? {
        switch self {
        case .badDatabaseURL(let url):
            "'\(url)' is not a database URL; give postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE, or postgres://USER@/DATABASE?host=/socket/folder."
        case .missingDatabaseURL: "No database is named: give --database-url or set DATABASE_URL."
        case .notMigrated: "The database has not been set up for this version; run 'arrange-server migrate' first."
        case .newerSchema(let version):
            "The database was set up by a newer arrange-server (\(version) migrations, this one knows \(ServerDatabase.migrations.count)); update arrange-server."
        case .unknownUser(let name): "There is no user '\(name)'; add one with 'arrange-server user add \(name)'."
        case .userExists(let name): "There is a user '\(name)' already."
        case .badUserName: "A user name has 1 to 100 characters."
        case .unknownToken(let id): "There is no token '\(id)'; 'arrange-server token list --user NAME' lists them."
        case .databaseUnreachable: "The database cannot be reached: it is down, or too busy; try again shortly."
        case .databaseRefused(let message): "The database refused: \(message)."
        }
    }
}
