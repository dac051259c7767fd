import ArrangeBenchSupport
import ArrangeModel
import ArrangeSQLite
import ArrangeStore
import Foundation
import GRDB

/// Observation on SQLite (a database file in WAL mode): what observing costs the commits that
/// don't concern it, and how soon an observer sees a commit that does.
///
/// List A holds the section's items, list B a hundred; three observations watch list A.
/// 1. **Commits elsewhere.** Fifty one-row commits to list B, then a pause for the observations
///    to do whatever they would, with the three observations open and with none, in turns; the
///    figure is the process's CPU time with them over without, medians of the rounds.
/// 2. **Idle.** The process's CPU time over two seconds of nothing, with the three open.
/// 3. **Seen.** A one-row commit to list A, timed until an observer yields the value it changed,
///    over the commit alone: for an observation of the whole list, and of its first page of 50.
///
/// Figures 1 and 2 are measured twice: for a repository that polls for other connections'
/// commits (`.polling(every:)`), and for one told of them by its `-wal` file's events (the
/// default, `.fileEvents`: inotify here), which every commit writes, the repository's own too.
/// With events, the last figure is how soon another connection's commit reaches the observer
/// of the page.
struct ObservationSection {
    let count: Int
    let rounds: Int
    let seed: UInt64
    let log: (String) -> Void

    /// The items of list A, as the app issue's figures have them.
    static let items = 10_000

    /// How long the commits to list B are followed by a pause, with observations and without.
    static let settling: Duration = .milliseconds(200)
    static let idle: Duration = .seconds(2)

    struct Measurement {
        /// CPU time of the commits to list B with three observations of list A, over without.
        var elsewhere: MedianRatio
        /// How many times the observations read list A again while the commits went to list B.
        var readsElsewhere: Int
        /// CPU time of two idle seconds with three observations open, in nanoseconds: the median of three.
        var idleCPU: Double
        /// CPU time of the same two idle seconds with no observation open, in nanoseconds.
        var idleCPUWithout: Double
        /// How many times the observations read list A again while idle.
        var readsIdle: Int
        /// CPU time of the same two seconds in which one task, no observation, wakes as often as
        /// the watch of other connections polls: what any polling costs on this machine.
        var idleCPUWaking: Double
        /// A commit to list A until the observer of the whole list (`observeItems`, which applies
        /// the commit's changes) yields it, over the same commit to list B, which no observation
        /// watches.
        var seenWhole: Seen
        /// The same for an observer of the first page of 50 (`observe`, which reads it again).
        var seenPage: Seen
        /// Figures 1 and 2 for a repository of the default configuration, told of other
        /// connections' commits by its `-wal` file's events.
        var byFileEvents: ToldByEvents
    }

    /// A commit until an observer yields it.
    struct Seen {
        /// The commit to list A until the observer yields it, over the same commit to list B.
        var ratio: MedianRatio
        /// The commit to list A alone, in nanoseconds: the median. The observer of the whole
        /// list applies the commit's changes as the commit signals, before the commit returns.
        var commitObserved: Double
    }

    /// The figures of a repository told of other connections' commits by the `-wal` file's events.
    struct ToldByEvents {
        /// CPU time of its own commits to list B with three observations of list A, over without.
        var elsewhere: MedianRatio
        var readsElsewhere: Int
        /// CPU time of two idle seconds with three observations open, in nanoseconds: the median of three.
        var idleCPU: Double
        var readsIdle: Int
        /// Another connection's commit to the page of list A until the observer of the page yields it, in nanoseconds: the median.
        var seenExternal: Double
    }

    func run(in directory: URL) async throws -> Measurement {
        let pool = try Backend.openPool(in: directory, named: "observation")
        defer { try? pool.close() }
        let repository = try SQLiteItemRepository(writer: pool, externalCommits: .polling(every: SQLiteItemRepository.externalChangePollingInterval))
        var random = SeededRandomNumberGenerator(seed: seed ^ 0x0B5E)
        log("  loading \(Format.count(count)) items into list A, 100 into list B…")
        let listA = try BulkLoad.appendedList(named: "A", count: count, in: repository, random: &random)
        let listB = try BulkLoad.appendedList(named: "B", count: 100, in: repository, random: &random)
        let writer = OneRowWriter(repository: repository, random: SeededRandomNumberGenerator(seed: random.next()))

        let readListA: @Sendable (any ItemReading) throws -> [Item] = { try $0.items(in: listA.list.id, visibility: .all, offset: 0, limit: .max) }
        log("  commits to list B, with three observations of list A and with none, \(max(rounds / 20, 5)) rounds…")
        let (elsewhere, readsElsewhere) = try await commitsElsewhere(observing: readListA, in: repository, to: listB, by: writer)

        log("  two idle seconds with three observations open, and with none, three times each…")
        var idleWithout: [Double] = []
        var idleWaking: [Double] = []
        let interval = SQLiteItemRepository.externalChangePollingInterval
        for _ in 0..<3 {
            try await Task.sleep(for: Self.settling)
            idleWithout.append(try await cpuTime { try await Task.sleep(for: Self.idle) })
            idleWaking.append(try await cpuTime {
                for _ in 0..<Int(Self.idle / interval) { try await Task.sleep(for: interval) }
            })
        }
        let (idleCPU, readsIdle) = try await idle(observing: readListA, in: repository)
        let byFileEvents = try await fileEventFigures(observing: readListA, listA: listA, listB: listB, pool: pool, other: writer, random: &random)

        log("  commits to list A until an observer yields them, \(max(rounds / 4, 10)) rounds each…")
        let whole = repository.observeItems(in: listA.list.id, visibility: .all)
        let seenWhole = try await seen(by: whole, ids: listA.ids, unobserved: listB.ids, writer: writer)
        let page = repository.observe { try $0.items(in: listA.list.id, visibility: .all, offset: 0, limit: 50) }
        let seenPage = try await seen(by: page, ids: Array(listA.ids.prefix(50)), unobserved: listB.ids, writer: writer)
        return Measurement(
            elsewhere: elsewhere, readsElsewhere: readsElsewhere, idleCPU: idleCPU, idleCPUWithout: Summary(idleWithout)?.median ?? .nan,
            readsIdle: readsIdle, idleCPUWaking: Summary(idleWaking)?.median ?? .nan, seenWhole: seenWhole, seenPage: seenPage,
            byFileEvents: byFileEvents)
    }

    /// The CPU time of fifty commits to list B, then a pause, with three observations of list A
    /// open and with none, in turns; and how many times the observations read list A again.
    private func commitsElsewhere(
        observing readListA: @escaping @Sendable (any ItemReading) throws -> [Item], in repository: SQLiteItemRepository,
        to listB: (list: ItemList, ids: [Item.ID]), by writer: OneRowWriter
    ) async throws -> (MedianRatio, reads: Int) {
        var with: [Double] = []
        var without: [Double] = []
        var reads = 0
        for _ in 0..<max(rounds / 20, 5) {
            without.append(try await cpuTime { try await commits(50, to: listB, by: writer) })
            let observers = try await Observers(count: 3, of: readListA, in: repository)
            with.append(try await cpuTime { try await commits(50, to: listB, by: writer) })
            reads += observers.cancel()
            // Releasing the observations' lists is theirs, not the next round's.
            try await Task.sleep(for: Self.settling)
        }
        return (MedianRatio(with, over: without), reads)
    }

    /// The CPU time of two idle seconds with three observations of list A open, the median of
    /// three; and how many times the observations read list A again.
    private func idle(observing readListA: @escaping @Sendable (any ItemReading) throws -> [Item], in repository: SQLiteItemRepository) async throws -> (Double, reads: Int) {
        var times: [Double] = []
        var reads = 0
        for _ in 0..<3 {
            let observers = try await Observers(count: 3, of: readListA, in: repository)
            try await Task.sleep(for: Self.settling)
            times.append(try await cpuTime { try await Task.sleep(for: Self.idle) })
            reads += observers.cancel()
            try await Task.sleep(for: Self.settling)
        }
        return (Summary(times)?.median ?? .nan, reads)
    }

    /// Figures 1 and 2 again, for a repository of its own on the file, of the default
    /// configuration, which its `-wal` file's events tell of other connections' commits; then how
    /// soon a commit of `other`, another connection, reaches its observer of list A's first page.
    private func fileEventFigures(
        observing readListA: @escaping @Sendable (any ItemReading) throws -> [Item], listA: (list: ItemList, ids: [Item.ID]),
        listB: (list: ItemList, ids: [Item.ID]), pool: DatabasePool, other: OneRowWriter, random: inout SeededRandomNumberGenerator
    ) async throws -> ToldByEvents {
        let repository = try SQLiteItemRepository(path: pool.path, configuration: pool.configuration)
        let writer = OneRowWriter(repository: repository, random: SeededRandomNumberGenerator(seed: random.next()))
        log("  told by the -wal file's events: commits to list B, idle seconds, and another connection's commits to list A…")
        let (elsewhere, readsElsewhere) = try await commitsElsewhere(observing: readListA, in: repository, to: listB, by: writer)
        let (idleCPU, readsIdle) = try await idle(observing: readListA, in: repository)

        var observed = repository.observe { try $0.items(in: listA.list.id, visibility: .all, offset: 0, limit: 50) }.makeAsyncIterator()
        _ = try await observed.next()
        var seen: [Double] = []
        let clock = ContinuousClock()
        for round in 0..<max(rounds / 4, 10) {
            let id = listA.ids[round % 50]
            let title = "Told \(round)"
            let started = clock.now
            try other.retitle(id, to: title)
            while let items = try await observed.next(), !items.contains(where: { $0.id == id && $0.title == title }) {}
            seen.append((clock.now - started).nanoseconds)
        }
        return ToldByEvents(elsewhere: elsewhere, readsElsewhere: readsElsewhere, idleCPU: idleCPU, readsIdle: readsIdle, seenExternal: Summary(seen)?.median ?? .nan)
    }

    /// Fifty commits to `list`, then a pause for the observations.
    private func commits(_ count: Int, to list: (list: ItemList, ids: [Item.ID]), by writer: OneRowWriter) async throws {
        for _ in 0..<count { try writer.write(in: list) }
        try await Task.sleep(for: Self.settling)
    }

    /// Times, in turns, a commit that changes the title of an item of `unobserved`, which no
    /// observation watches; the same commit to an item `observation` shows; and that commit
    /// until `observation` yields it.
    private func seen(
        by observation: AsyncThrowingStream<[Item], any Error>, ids: [Item.ID], unobserved: [Item.ID], writer: OneRowWriter
    ) async throws -> Seen {
        var observed = observation.makeAsyncIterator()
        _ = try await observed.next()
        var alone: [Double] = []
        var commit: [Double] = []
        var seen: [Double] = []
        let clock = ContinuousClock()
        for round in 0..<max(rounds / 4, 10) {
            let id = ids[round % ids.count]
            let title = "Seen \(round)"
            var started = clock.now
            try writer.retitle(unobserved[round % unobserved.count], to: title)
            alone.append((clock.now - started).nanoseconds)

            started = clock.now
            try writer.retitle(id, to: title)
            commit.append((clock.now - started).nanoseconds)
            _ = try await observed.next()

            started = clock.now
            try writer.retitle(id, to: title + "'")
            while let items = try await observed.next(), !items.contains(where: { $0.id == id && $0.title == title + "'" }) {}
            seen.append((clock.now - started).nanoseconds)
        }
        return Seen(ratio: MedianRatio(seen, over: alone), commitObserved: Summary(commit)?.median ?? .nan)
    }

    /// A commit seen, as the table shows it: the ratio, its medians, and the commit to list A
    /// alone.
    private static func text(of seen: Seen) -> String {
        let ratio = seen.ratio
        return "**\(Format.ratio(ratio.value))** (\(Format.microseconds(ratio.median)) ÷ \(Format.microseconds(ratio.reference))); "
            + "the commit to list A alone \(Format.microseconds(seen.commitObserved))"
    }

    /// The CPU time, user and system, that the process spent while `body` ran, in nanoseconds.
    private func cpuTime(_ body: () async throws -> Void) async throws -> Double {
        let before = Self.processCPU()
        try await body()
        return Self.processCPU() - before
    }

    private static func processCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
    }

    func text(_ measurement: Measurement) -> String {
        var table = MarkdownTable(["figure", "this run", "target"], rightAligned: [1, 2])
        table.append([
            "*polling:* CPU of 50 commits to list B while 3 observations watch list A, ÷ the same with none",
            "**\(Format.ratio(measurement.elsewhere.value))** (\(Format.microseconds(measurement.elsewhere.median)) ÷ \(Format.microseconds(measurement.elsewhere.reference))); list A read again \(measurement.readsElsewhere) times",
            "≤ 1.30×",
        ])
        table.append([
            "*polling, an explicit choice:* CPU of 2 s idle with 3 observations open",
            "**\(Format.microseconds(measurement.idleCPU))** (\(Format.microseconds(measurement.idleCPUWithout)) with none open); list A read again \(measurement.readsIdle) times",
            "—",
        ])
        table.append([
            "*context:* CPU of the same 2 s with one task, no observation, waking every \(Int(SQLiteItemRepository.externalChangePollingInterval.nanoseconds / 1e6)) ms",
            Format.microseconds(measurement.idleCPUWaking), "—",
        ])
        table.append([
            "a commit to list A until the observer of the whole list (`observeItems`, which applies the commit's changes) yields it ÷ the same commit to list B, which nothing observes",
            Self.text(of: measurement.seenWhole),
            "≤ 2×",
        ])
        table.append([
            "*context:* the same, for an observer of the first page of 50 (`observe`, which reads it again)",
            Self.text(of: measurement.seenPage),
            "—",
        ])
        let told = measurement.byFileEvents
        table.append([
            "*the default, told by the -wal file's events:* CPU of 50 commits to list B while 3 observations watch list A, ÷ the same with none",
            "**\(Format.ratio(told.elsewhere.value))** (\(Format.microseconds(told.elsewhere.median)) ÷ \(Format.microseconds(told.elsewhere.reference))); list A read again \(told.readsElsewhere) times",
            "≤ 1.30×",
        ])
        table.append([
            "*the default, told by the -wal file's events:* CPU of 2 s idle with 3 observations open",
            "**\(Format.microseconds(told.idleCPU))**; list A read again \(told.readsIdle) times",
            "≤ 1 ms",
        ])
        table.append([
            "*the default, told by the -wal file's events:* another connection's commit to list A until the observer of its first page yields it",
            "**\(Format.microseconds(told.seenExternal))**",
            "≤ 250 ms",
        ])
        return table.text
    }
}

/// Observations of one read, each consumed by a task of its own until cancelled.
private struct Observers {
    let tasks: [Task<Void, Never>]
    /// How many times the observations read, their first reads included.
    let reads: Locked<Int>

    /// Opens `count` observations of `read`, and returns once each has yielded its first value.
    init(count: Int, of read: @escaping @Sendable (any ItemReading) throws -> [Item], in repository: SQLiteItemRepository) async throws {
        let reads = Locked(0)
        let read: @Sendable (any ItemReading) throws -> [Item] = { transaction in
            reads.withLock { $0 += 1 }
            return try read(transaction)
        }
        var tasks: [Task<Void, Never>] = []
        for _ in 0..<count {
            let (started, signal) = AsyncStream.makeStream(of: Void.self)
            tasks.append(Task {
                do {
                    for try await _ in repository.observe(read) { signal.yield() }
                } catch {}
                signal.finish()
            })
            var iterator = started.makeAsyncIterator()
            await iterator.next()
        }
        self.tasks = tasks
        self.reads = reads
    }

    /// Ends the observations, and answers how many times they read after their first reads.
    func cancel() -> Int {
        for task in tasks { task.cancel() }
        return reads.withLock { $0 } - tasks.count
    }
}

/// One-row commits: a key of an item of a list, or an item's title.
private final class OneRowWriter: @unchecked Sendable {
    let repository: SQLiteItemRepository
    private var random: SeededRandomNumberGenerator
    private var key: Int64 = -(1 << 62)

    init(repository: SQLiteItemRepository, random: SeededRandomNumberGenerator) {
        self.repository = repository
        self.random = random
    }

    /// Gives a random item of `list` a fresh key far above the top.
    func write(in list: (list: ItemList, ids: [Item.ID])) throws {
        key += 1 << 32
        let change = SortIndexChange(id: list.ids[Int.random(in: 0..<list.ids.count, using: &random)].entryID, sortIndex: key)
        try repository.write { try $0.setSortIndices([change], in: .items(list.list.id), updatedAt: BulkLoad.epoch) }
    }

    /// Gives an item a new title.
    func retitle(_ id: Item.ID, to title: String) throws {
        try repository.write { transaction in
            guard var item = try transaction.item(id: id) else { return }
            item.title = title
            try transaction.update(item)
        }
    }
}
