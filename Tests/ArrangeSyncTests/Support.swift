import ArrangeStore

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
