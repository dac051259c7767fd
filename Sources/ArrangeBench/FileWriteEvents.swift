import ArrangeModel
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Calls a closure each time a file is written, from a thread of its own that sleeps in `read`
/// while nothing happens: Linux's inotify, what the bench gives a repository that is told of
/// other connections' commits (`ExternalCommitDetection.notified`), as an app on Apple
/// platforms gives it Dispatch's file-system events.
final class FileWriteEvents: Sendable {
    enum Failure: Error, CustomStringConvertible {
        case unavailable(path: String, reason: String)

        var description: String {
            switch self {
            case .unavailable(let path, let reason): "cannot watch \(path) for writes: \(reason)"
            }
        }
    }

    #if canImport(Glibc)
    private let descriptor: Int32
    private let watch: Int32
    private let isStopping = Locked(false)

    /// Starts watching the file at `path`, which must exist.
    ///
    /// - Throws: ``Failure/unavailable(path:reason:)`` when inotify refuses.
    init(path: String, onWrite: @escaping @Sendable () -> Void) throws {
        let descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw Failure.unavailable(path: path, reason: String(cString: strerror(errno))) }
        let watch = inotify_add_watch(descriptor, path, UInt32(IN_MODIFY))
        guard watch >= 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw Failure.unavailable(path: path, reason: reason)
        }
        (self.descriptor, self.watch) = (descriptor, watch)
        let isStopping = isStopping
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            // Every read returns at least one event; removing the watch sends the last one.
            while read(descriptor, &buffer, buffer.count) > 0, !isStopping.withLock({ $0 }) {
                onWrite()
            }
            close(descriptor)
        }
    }

    /// Stops watching; the thread ends at the event this sends it.
    func stop() {
        isStopping.withLock { $0 = true }
        inotify_rm_watch(descriptor, watch)
    }
    #else
    init(path: String, onWrite: @escaping @Sendable () -> Void) throws {
        throw Failure.unavailable(path: path, reason: "the bench watches files with Linux's inotify only")
    }

    func stop() {}
    #endif
}
