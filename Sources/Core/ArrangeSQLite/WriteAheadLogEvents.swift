import ArrangeModel
import ArrangeStore
import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Tells of writes to a database's `-wal` file as they happen: every commit to a file in WAL
/// mode writes there, whichever connection or process makes it. It costs nothing while nothing
/// is written.
///
/// On Apple platforms it is Dispatch's file-system source; on Linux, inotify, with a thread
/// of its own that sleeps in `read` between writes. Elsewhere, or when the file cannot be
/// watched (it does not exist yet), it does not start, and the repository polls.
final class WriteAheadLogEvents: CommitEvents {
    /// The `-wal` file's path.
    let path: String
    private let watch = Locked<Watch?>(nil)

    /// Events of the `-wal` file of the database at `databasePath`.
    init(databasePath: String) {
        path = databasePath + "-wal"
    }

    deinit {
        stop()
    }

    func start(_ handler: @escaping @Sendable () -> Void) -> Bool {
        watch.withLock { watch in
            if watch == nil { watch = Watch(path: path, handler: handler) }
            return watch != nil
        }
    }

    func stop() {
        watch.withLock { watch in
            watch?.end()
            watch = nil
        }
    }

    #if canImport(Darwin)
    /// A file-system source on the file, whose events go to the handler on a utility queue.
    /// Dispatch's sources may be cancelled from any thread.
    private struct Watch: @unchecked Sendable {
        let source: any DispatchSourceFileSystemObject

        init?(path: String, handler: @escaping @Sendable () -> Void) {
            let descriptor = open(path, O_EVTONLY)
            guard descriptor >= 0 else { return nil }
            source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: descriptor, eventMask: [.write, .extend], queue: .global(qos: .utility))
            source.setEventHandler(handler: handler)
            source.setCancelHandler { close(descriptor) }
            source.resume()
        }

        func end() {
            source.cancel()
        }
    }
    #elseif canImport(Glibc)
    /// A one-shot inotify watch of the file, read by a thread of its own, which sleeps after
    /// each event as long as the watcher waits after a note, watches the file again, and only
    /// then calls the handler.
    ///
    /// The watch ends at the first write, so the other writes of a burst of commits cost the
    /// kernel nothing and the thread one wake-up. What is committed before the watch is back,
    /// the watcher's read of the counter, which comes after the handler, sees.
    private struct Watch: Sendable {
        let descriptor: Int32
        /// The watch while it is on, and whether it has ended for good.
        let state: Locked<(watch: Int32, isEnding: Bool)>

        init?(path: String, handler: @escaping @Sendable () -> Void) {
            let descriptor = inotify_init1(Int32(IN_CLOEXEC))
            guard descriptor >= 0 else { return nil }
            let state = Locked((watch: Int32(-1), isEnding: false))
            guard Self.watchAgain(path, with: descriptor, in: state) else {
                close(descriptor)
                return nil
            }
            (self.descriptor, self.state) = (descriptor, state)
            let pause = useconds_t(CommitWatcher.noteDelay / .microseconds(1))
            Thread.detachNewThread {
                var buffer = [UInt8](repeating: 0, count: 4096)
                // Every read returns at least one event; removing the watch sends the last one.
                while read(descriptor, &buffer, buffer.count) > 0 {
                    usleep(pause)
                    guard Self.watchAgain(path, with: descriptor, in: state) else { break }
                    handler()
                }
                close(descriptor)
            }
        }

        /// Watches the file for its next write; `false` once the watch has ended for good, or
        /// when the file cannot be watched.
        private static func watchAgain(_ path: String, with descriptor: Int32, in state: Locked<(watch: Int32, isEnding: Bool)>) -> Bool {
            state.withLock { state in
                guard !state.isEnding else { return false }
                state.watch = inotify_add_watch(descriptor, path, UInt32(IN_MODIFY) | UInt32(IN_ONESHOT))
                return state.watch >= 0
            }
        }

        func end() {
            state.withLock { state in
                state.isEnding = true
                // A watch that ended at its write is gone already; the thread stops when it wakes.
                inotify_rm_watch(descriptor, state.watch)
            }
        }
    }
    #else
    /// No way to watch a file here: the repository polls.
    private struct Watch: Sendable {
        init?(path: String, handler: @escaping @Sendable () -> Void) { nil }
        func end() {}
    }
    #endif
}
