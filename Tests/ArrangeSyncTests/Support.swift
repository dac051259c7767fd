import ArrangeStore
import Foundation

/// The store's backend keeps no operation log.
struct NoOperationLog: Error {}

extension ItemRepository {
    /// Runs `body` in a read transaction, on the store's operation log.
    func readLog<Result>(_ body: (any ItemReading & OperationLogReading) throws -> Result) throws -> Result {
        try read { transaction in
            guard let log = transaction as? any ItemReading & OperationLogReading else { throw NoOperationLog() }
            return try body(log)
        }
    }

    /// Runs `body` in a read transaction, on the store's operation log, without blocking the caller's thread.
    func readLog<Result: Sendable>(_ body: @Sendable (any ItemReading & OperationLogReading) throws -> Result) async throws -> Result {
        try await read { transaction in
            guard let log = transaction as? any ItemReading & OperationLogReading else { throw NoOperationLog() }
            return try body(log)
        }
    }
}

/// A fresh temporary folder, removed after `body`.
func withTemporaryFolder<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arrange-\(UUID())", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}

extension ItemRepository {
    /// Runs `body` in a write transaction, on the store's operation log, marked as logged.
    func writeLog<Result>(_ body: (any ItemWriting & OperationLogWriting) throws -> Result) throws -> Result {
        try write { transaction in
            guard let log = transaction.operationLog else { throw NoOperationLog() }
            log.markChangesLogged()
            return try body(log)
        }
    }
}
