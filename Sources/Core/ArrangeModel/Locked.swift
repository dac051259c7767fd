import Foundation

/// A value that threads share under a lock: what `Synchronization.Mutex` gives, on the
/// platforms before it too (iOS 17, macOS 14), which the library targets support.
package final class Locked<Value> {
    private var value: Value
    private let lock = NSLock()

    /// A lock around `value`.
    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, under the lock, and returns what it returns.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension Locked: @unchecked Sendable where Value: Sendable {}
