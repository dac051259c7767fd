import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// Wakes the long polls of a server process when a push to their log commits, in this process
/// or another: every push announces its log on ``channel`` (`NOTIFY`), and one connection of
/// each process listens there.
///
/// A poll registers before it reads the log, so a push that commits between the read and the
/// wait still wakes it. While the listening connection is lost, and when it is back, every
/// poll is woken: it reads the log again rather than miss a push. Once the signals are closed
/// (``close()``), as the server shuts down, no poll waits.
actor PushSignals {
    /// The channel every push announces its log on, as the log's id in decimal.
    static let channel = "arrange_pushes"

    /// A poll that waits for a push to its log.
    struct Ticket: Hashable, Sendable {
        fileprivate let id: Int
        fileprivate let log: Int64
    }

    private struct Waiter {
        var isSignalled = false
        var continuation: CheckedContinuation<Bool, Never>?
    }

    /// The most polls that may wait at once in this process.
    let capacity: Int
    private var waiters: [Int64: [Int: Waiter]] = [:]
    private var count = 0
    private var nextID = 0
    /// Whether the server shuts down: a poll no longer waits.
    private var isClosed = false

    /// Signals for at most `capacity` waiting polls.
    init(capacity: Int) {
        self.capacity = capacity
    }

    /// How many polls wait now.
    var waiting: Int { count }

    /// Registers a poll for pushes to `log`; `nil` when ``capacity`` polls wait already.
    func register(for log: Int64) -> Ticket? {
        guard count < capacity else { return nil }
        nextID += 1
        waiters[log, default: [:]][nextID] = Waiter()
        count += 1
        return Ticket(id: nextID, log: log)
    }

    /// Waits until a push to the ticket's log, at most `timeout`, or until the signals are
    /// closed; unregisters the ticket.
    ///
    /// - Returns: Whether a push (or a lost listener) woke it, rather than the time running out
    ///   or the server shutting down.
    func wait(_ ticket: Ticket, atMost timeout: Duration) async -> Bool {
        guard let waiter = waiters[ticket.log]?[ticket.id] else { return false }
        if waiter.isSignalled || isClosed {
            remove(ticket)
            return waiter.isSignalled
        }
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            await self?.resume(ticket, signalled: false)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                waiters[ticket.log]?[ticket.id]?.continuation = continuation
            }
        } onCancel: {
            Task { await self.resume(ticket, signalled: false) }
        }
    }

    /// Unregisters a ticket that will not wait.
    func cancel(_ ticket: Ticket) {
        remove(ticket)
    }

    /// Wakes every poll for pushes to `log`.
    func signal(_ log: Int64) {
        for id in Array((waiters[log] ?? [:]).keys) {
            resume(Ticket(id: id, log: log), signalled: true)
        }
    }

    /// Wakes every poll, of every log.
    func signalAll() {
        for log in Array(waiters.keys) { signal(log) }
    }

    /// Ends every wait as if its time ran out, and every later one at once: the server shuts
    /// down, and each poll answers the page it read.
    func close() {
        isClosed = true
        for (log, polls) in waiters {
            for id in polls.keys { resume(Ticket(id: id, log: log), signalled: false) }
        }
    }

    private func resume(_ ticket: Ticket, signalled: Bool) {
        guard var waiter = waiters[ticket.log]?[ticket.id] else { return }
        if let continuation = waiter.continuation {
            remove(ticket)
            continuation.resume(returning: signalled)
        } else if signalled {
            waiter.isSignalled = true
            waiters[ticket.log]?[ticket.id] = waiter
        }
    }

    private func remove(_ ticket: Ticket) {
        guard waiters[ticket.log]?.removeValue(forKey: ticket.id) != nil else { return }
        count -= 1
        if waiters[ticket.log]?.isEmpty == true { waiters[ticket.log] = nil }
    }

    /// Listens on ``channel`` with a connection of `database`'s pool until cancelled, and
    /// signals each log announced; listens again after a lost connection. Cancelled, it
    /// leaves the polls that wait to ``close()``, rather than have each read the log again.
    func listen(on database: ServerDatabase) async {
        while !Task.isCancelled {
            do {
                try await database.client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        // Pushes may have committed while no one listened.
                        self.signalAll()
                        for try await notification in notifications {
                            if let log = Int64(notification.payload) { self.signal(log) }
                        }
                    }
                }
            } catch {
                if !Task.isCancelled {
                    database.logger.warning("Long polls lost their database connection; listening again", metadata: ["error": "\(error)"])
                }
            }
            if Task.isCancelled { return }
            signalAll()
            try? await Task.sleep(for: .milliseconds(250))
        }
    }
}

/// The service that wakes the long polls of a server process: it listens for pushes
/// (``PushSignals/listen(on:)``) until the server shuts down, then answers every poll that
/// waits (``PushSignals/close()``), so that none holds the shutdown up.
struct PushListener: Service {
    let signals: PushSignals
    let database: ServerDatabase

    /// Wakes polls as pushes commit until graceful shutdown; then answers those that wait.
    func run() async {
        await cancelWhenGracefulShutdown { await signals.listen(on: database) }
        await signals.close()
    }
}
