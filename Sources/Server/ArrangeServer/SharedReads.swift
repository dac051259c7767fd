import Foundation

/// Reads that long polls woken together share: while a read of one page runs, a poll that asks
/// for the same page waits for it rather than start its own.
///
/// A push that wakes a thousand polls of one user's devices then costs the database a few
/// reads, not a thousand. A poll may be given a read that began a little before its own
/// wake: its page then lacks the newest operations, which its client pulls next, after the
/// cursor the page ends at.
actor SharedReads<Key: Hashable & Sendable, Value: Sendable> {
    private var running: [Key: Task<Value, any Error>] = [:]

    /// The value of the read of `key` that runs now, or else of `read`, started now.
    ///
    /// - Throws: What the read throws, to every poll that waits for it.
    func value(of key: Key, read: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let task = running[key] { return try await task.value }
        let task = Task { try await read() }
        running[key] = task
        defer { running[key] = nil }
        return try await task.value
    }
}
