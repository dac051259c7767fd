import Dispatch

/// An actor whose jobs run on a serial dispatch queue of its own, never on the threads of
/// Swift concurrency's cooperative pool.
///
/// Work that blocks (taking a lock held by a long write, say) may run here without
/// starving other tasks: the caller suspends until it is done.
///
/// ```swift
/// let worker = DispatchQueueWorker(label: "writes")
/// let sum = try await worker.run { (1...10).reduce(0, +) }  // 55, computed on the queue
/// ```
actor DispatchQueueWorker {
    private let executor: DispatchQueueExecutor

    /// Creates a worker with a new serial queue.
    ///
    /// - Parameter label: The queue's label, as debuggers and crash reports show it.
    init(label: String) {
        executor = DispatchQueueExecutor(queue: DispatchQueue(label: label))
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    /// Runs `work` on the worker's queue, after the work handed in before it.
    ///
    /// - Throws: What `work` throws, or `CancellationError` when the task is cancelled before `work` starts.
    func run<R: Sendable>(_ work: @Sendable () throws -> R) throws -> R {
        try Task.checkCancellation()
        return try work()
    }
}

/// A serial executor that runs each job on a serial dispatch queue.
private final class DispatchQueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async {
            job.runSynchronously(on: self.asUnownedSerialExecutor())
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
