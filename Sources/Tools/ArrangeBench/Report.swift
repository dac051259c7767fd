import Foundation

/// Runs the chosen sections and prints them as Markdown on standard output; progress goes
/// to standard error.
struct Report {
    let settings: Settings

    /// Runs the sections, prints them, and returns every figure of the run.
    func run() async throws -> Figures {
        var figures = Figures(mode: settings.quick ? "quick" : "full", seed: settings.seed)
        let clock = ContinuousClock()
        let started = clock.now
        print("# Arrange benchmark run\n")
        print("- Mode: \(settings.quick ? "quick" : "full"); seed \(settings.seed); \(Format.count(settings.operations)) operations per workload.")
        print("- Machine: \(Machine.description).\n")
        var targets = TargetChecks(settings: settings)
        var charts: [(file: String, chart: LineChart)] = []
        if settings.sections.contains(.workloads) {
            let results = try runWorkloads()
            targets.workloads = results
            if let chart = Plots.rowsPerInsertIntoOneGap(results) { charts.append((Plots.rowsFile, chart)) }
            printWorkloads(results)
            for result in results where result.strategy.isArrange {
                let mean = Summary(result.rowsWritten)?.mean ?? .nan
                figures.record("rows per operation at \(Format.count(result.count)) items: \(result.ordering)\(result.workload.title), mean", mean)
            }
            figures.record("failures in the workloads", Double(results.filter { $0.strategy.isArrange && ($0.failedAt != nil || $0.problem != nil) }.count), target: 0)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("arrange-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        if settings.sections.contains(.latency) {
            log("Latency on SQLite at \(Format.count(settings.latencyItems)) items")
            let section = LatencySection(count: settings.latencyItems, rounds: settings.samples, seed: settings.seed, log: log)
            let measurement = try section.run(in: directory)
            targets.latency = measurement.rows
            targets.latencyTargets = measurement.targets
            let size = "latency at \(Format.count(settings.latencyItems)) items"
            for row in measurement.rows {
                figures.record("\(size): \(row.operation) ÷ one-row write", row.ratio.value, target: row.isMove ? 1.5 : nil)
            }
            for target in measurement.targets {
                figures.record("\(size), the targets: \(target.operation) ÷ \(target.reference)", target.ratio.value, target: target.limit)
            }
            figures.record("\(size): move by id ÷ a bare UPDATE to a random place in the list", measurement.moveOverUpdateToRandomPlace.value)
            figures.record("\(size): the items of Today's first page read by id ÷ a list's first page", measurement.todayPageItemsByID.value)
            if measurement.bareUpdate.isFinite { figures.bareUpdateMicroseconds = measurement.bareUpdate / 1_000 }
            print("## Latency on SQLite: \(Format.count(settings.latencyItems)) items, a database file in WAL mode\n")
            print("Each operation is one transaction of its own, timed in turns with the smallest write transaction the repository offers, \(settings.samples) rounds; the ratio is of the medians.\n")
            print(section.text(measurement) + "\n")
        }
        if settings.sections.contains(.scaling) {
            log("Scaling: \(Format.count(settings.scalingSmall)) → \(Format.count(settings.scalingLarge)) items")
            let section = ScalingSection(
                smallCount: settings.scalingSmall, largeCount: settings.scalingLarge, rounds: settings.samples,
                offsetRounds: settings.samples / 4, seed: settings.seed, backends: Backend.allCases, log: log)
            let rows = try section.run(in: directory)
            targets.scaling = rows
            if let chart = Plots.moveLatencyBySize(rows, small: settings.scalingSmall, large: settings.scalingLarge) {
                charts.append((Plots.latencyFile, chart))
            }
            for row in rows {
                figures.record("scaling \(Format.count(settings.scalingSmall)) → \(Format.count(settings.scalingLarge)) items: \(row.backend.title), \(row.move)", row.ratio.value, target: 2)
            }
            print("## Scaling: median move time at \(Format.count(settings.scalingLarge)) items ÷ at \(Format.count(settings.scalingSmall))\n")
            print("Each list lives in a repository (a database file, for SQLite) of its own; the moves of the two sizes are timed in turns, \(settings.samples) rounds (\(settings.samples / 4) for moves by offsets). Each move is one write transaction.\n")
            print(section.table(rows) + "\n")
            log("Memory: a fresh process loads \(Format.count(settings.scalingLarge)) items in memory")
            let bytes = try MemoryProbe.bytesPerItem(count: settings.scalingLarge)
            targets.bytesPerItem = bytes
            figures.record("in-memory bytes per item at \(Format.count(settings.scalingLarge)) items", bytes)
            print("In-memory backend, memory per item at \(Format.count(settings.scalingLarge)) items: **\(Format.count(Int(bytes.rounded()))) bytes** ")
            print("(growth of resident memory, `/proc/self/statm`, while a fresh process bulk-loads the items, ÷ items).\n")
        }
        if settings.sections.contains(.sync) {
            log("Sync on SQLite at \(Format.count(settings.latencyItems)) items")
            let merges = settings.quick ? [(1_000, 1_000), (10_000, 1_000)] : [(1_000, 1_000), (1_000, 10_000), (10_000, 1_000), (10_000, 10_000)]
            let section = SyncSection(count: settings.latencyItems, rounds: settings.samples, seed: settings.seed, merges: merges, log: log)
            let measurement = try section.run(in: directory)
            targets.syncAdded = measurement.added
            let size = "sync at \(Format.count(settings.latencyItems)) items"
            figures.record("\(size): \(SyncSection.overheadTitle)", measurement.overhead.value)
            figures.record("\(size): \(SyncSection.addedTitle)", measurement.added, target: 0.75)
            figures.record("sync: bytes per operation", measurement.bytesPerOperation)
            if let gzip = measurement.gzipBytesPerOperation { figures.record("sync: bytes per operation through gzip", gzip, target: 100) }
            for merge in measurement.merges {
                figures.record(
                    "sync: merging \(Format.count(merge.operations)) operations into \(Format.count(merge.items)) items ÷ making them", merge.ratio,
                    target: merge.items == 10_000 && merge.operations == 10_000 ? 0.5 : nil)
            }
            print("## Sync on SQLite: \(Format.count(settings.latencyItems)) items, database files in WAL mode\n")
            print("The moves with and without logging, and a bare one-row `UPDATE`, are timed in turns on two files holding the same list, \(settings.samples) rounds; the ratios are of the medians (what logging adds is the difference of the two moves' medians). A merge is one transaction of the operations one replica made offline, each in a transaction of its own, into the other; its ratio is of the two total times, the median of \(SyncSection.mergeRuns) runs on fresh files, and the times shown are that run's.\n")
            print(section.text(measurement) + "\n")
        }
        if settings.sections.contains(.search) {
            log("Quick Find on SQLite at \(Format.count(settings.latencyItems)) items")
            let section = SearchSection(count: settings.latencyItems, rounds: settings.samples, seed: settings.seed, log: log)
            let measurement = try await section.run(in: directory)
            let size = "search at \(Format.count(settings.latencyItems)) items"
            figures.record("\(size): search for a 3-letter word prefix, first 20 ÷ the bare statement on the same index", measurement.search.value, target: 2)
            figures.record("\(size): an add with the search index ÷ without it", measurement.add.value, target: 1.3)
            figures.record("\(size): an add with the search index ÷ without it, the means", measurement.addMeans)
            print("## Quick Find on SQLite: \(Format.count(settings.latencyItems)) items, a database file in WAL mode\n")
            print("Ten lists; titles of 3 to 8 words from a vocabulary of \(Format.count(SearchSection.vocabularySize)) made-up words, notes of 0 to 200 characters of them. Each query is the first three letters of a word of the vocabulary, timed in turns with `SearchSection.bareSQL`, the statement written by hand that asks the same FTS5 index for the same 20 ids in the same order (the run checks they agree), \(settings.samples) rounds. Each add is one `AddItem`, timed in turns with the same add in a copy of the database whose index is dropped; the ratios are of the medians.\n")
            print(section.text(measurement) + "\n")
        }
        if settings.sections.contains(.tags) {
            log("Tags on SQLite")
            let section = TagsSection(rounds: settings.samples, seed: settings.seed, log: log)
            let measurement = try await section.run(in: directory)
            figures.record("tags: a list filtered by a tag, 50 of 500 shown ÷ a list of 50 unfiltered", measurement.filtered.value, target: 2)
            figures.record("tags: rows written per random move of a tag", measurement.rowsPerMove, target: 1)
            print("## Tags on SQLite, a database file in WAL mode\n")
            print("Each read is one `ListItems`, the filtered one timed in turns with the unfiltered one, \(settings.samples) rounds; the ratio is of the medians. The moves are `MoveTag` to a random place among the tags at the top level, each next to a random tag; their rows are what the intent reports written.\n")
            print(section.text(measurement) + "\n")
        }
        if settings.sections.contains(.time) {
            log("Time on SQLite: reminders and repeating to-dos")
            let section = TimeSection(rounds: settings.samples, seed: settings.seed, log: log)
            let measurement = try await section.run(in: directory)
            figures.record("time: reminders of the next 24 hours over 100,000 items ÷ reading those rows by id", measurement.reminders.value, target: 2)
            figures.record("time: upcoming through 365 days with 200 weekly series ÷ without", measurement.upcoming.value, target: 3)
            figures.record("time: completing a to-do of a series ÷ completing a plain one and adding an item", measurement.completion.value, target: 1.3)
            figures.record("time: a new day with 200 series due ÷ adding 200 items", measurement.newDay.value, target: 2)
            print("## Time on SQLite: reminders and repeating to-dos, database files in WAL mode\n")
            print("Each figure times an intent in turns with its floor, \(settings.samples) rounds, the first tenth left out; the ratios are of the medians. The views run through `IntentEnvironment.perform`, as an app runs them; the floors of completing and of a new day are intents of the benchmark's own that do the plain work in one transaction.\n")
            print(section.text(measurement) + "\n")
        }
        if settings.sections.contains(.observation) {
            log("Observation on SQLite at \(Format.count(ObservationSection.items)) items")
            let section = ObservationSection(count: ObservationSection.items, rounds: settings.samples, seed: settings.seed, log: log)
            let measurement = try await section.run(in: directory)
            figures.record("observation: CPU of 50 commits to list B while 3 observations watch list A ÷ with none", measurement.elsewhere.value, target: 1.3)
            figures.record("observation: list A read again while the commits went to list B", Double(measurement.readsElsewhere), target: 0)
            figures.record("observation: CPU of 2 s idle with 3 observations open, µs", measurement.idleCPU / 1_000)
            figures.record("observation: a commit until the observer of the whole list yields it ÷ the commit", measurement.seenWhole.ratio.value, target: 2)
            figures.record("observation: a commit until the observer of the first page yields it ÷ the commit", measurement.seenPage.ratio.value)
            let told = measurement.byFileEvents
            figures.record("observation told by events: CPU of 50 commits to list B while 3 observations watch list A ÷ with none", told.elsewhere.value, target: 1.3)
            figures.record("observation told by events: CPU of 2 s idle with 3 observations open, µs", told.idleCPU / 1_000, target: 1_000)
            figures.record("observation told by events: another connection's commit until the page's observer yields it, µs", told.seenExternal / 1_000, target: 250_000)
            print("## Observation on SQLite: \(Format.count(ObservationSection.items)) items in list A, a database file in WAL mode\n")
            print("Three observations of list A (`SQLiteItemRepository.observe`), each consumed by a task of its own. The observer of the whole list that times a commit seen is `observeItems`, which applies the commit's changes to the items it holds as the commit signals; the observer of a page is `observe`, which reads the page again. A commit seen is timed against the same commit to list B, which no observation watches, in turns. CPU times are the process's, every thread's (`CLOCK_PROCESS_CPUTIME_ID`); the commits to list B are followed by a pause of \(Int(ObservationSection.settling.nanoseconds / 1e6)) ms in both variants, in turns. The commits that an observer sees change an item's title on the list it reads.\n")
            print(section.text(measurement) + "\n")
        }
        print(targets.text)
        let elapsed = clock.now - started
        print("\nThe run took \(Format.count(Int(elapsed.nanoseconds / 1e9))) s.")
        if let folder = settings.plotsFolder { try draw(charts, into: folder) }
        log("Done in \(Int(elapsed.nanoseconds / 1e9)) s")
        return figures
    }

    private func runWorkloads() throws -> [WorkloadResult] {
        let runner = WorkloadRunner(
            operations: settings.operations, seed: settings.seed, strategies: settings.strategies,
            denseRowBudget: settings.denseRowBudget, log: log)
        var results: [WorkloadResult] = []
        let clock = ContinuousClock()
        for count in settings.sizes {
            for workload in settings.workloads {
                let started = clock.now
                results += try runner.run(workload, count: count)
                log("\(workload.rawValue) at \(Format.count(count)) items: \(Int((clock.now - started).nanoseconds / 1e6)) ms")
            }
        }
        return results
    }

    private func printWorkloads(_ results: [WorkloadResult]) {
        print("## Rows written per operation\n")
        print("Each workload runs \(Format.count(settings.operations)) operations on one list, the same for every strategy, each strategy over its own in-memory repository.")
        print("An approach that can no longer tell two neighbours apart stops at that operation; its figures cover the operations before it.")
        print("† Dense renumbering writes through the repository until it has written \(Format.count(settings.denseRowBudget)) rows in a workload, then checks the stored order and only counts the rows of the later operations, exactly, from their offsets.\n")
        for count in settings.sizes {
            print("### \(Format.count(count)) items\n")
            var table = MarkdownTable(
                ["workload", "strategy", "rows/op mean", "p99", "max", "fails at op", "rows read to find offsets, mean (max)"],
                rightAligned: [2, 3, 4, 5, 6])
            for result in results where result.count == count {
                let written = Summary(result.rowsWritten)
                let read = Summary(result.rowsRead)
                table.append([
                    result.workload.title,
                    result.strategy.title + (result.onlyCounted ? " †" : ""),
                    written.map { Format.figure($0.mean) } ?? "—",
                    written.map { Format.figure($0.p99) } ?? "—",
                    written.map { Format.figure($0.max) } ?? "—",
                    result.failedAt.map { result.isDefect ? "**error at \(Format.count($0))**" : Format.count($0) } ?? "none",
                    result.strategy == .linkedList ? read.map { "\(Format.figure($0.mean)) (\(Format.figure($0.max)))" } ?? "—" : "—",
                ])
            }
            print(table.text + "\n")
        }
        let problems = results.filter(\.isDefect)
        if !problems.isEmpty {
            print("**Defects found:**\n")
            for result in problems {
                print("- \(result.strategy.title), \(result.workload.title), \(Format.count(result.count)) items: \(result.problem ?? "")")
            }
            print()
        }
        print("Workloads: " + settings.workloads.map { "*\($0.title)*: \($0.summary)" }.joined(separator: "; ") + ".\n")
    }

    /// Writes each chart into `folder` as an SVG file.
    private func draw(_ charts: [(file: String, chart: LineChart)], into folder: URL) throws {
        do {
            for (file, chart) in charts {
                try Data(chart.svg.utf8).write(to: folder.appendingPathComponent(file))
                log("Drew \(folder.appendingPathComponent(file).path)")
            }
        } catch {
            throw CompareError.unwritable("Cannot draw the pictures into \(folder.path): \(error.localizedDescription)")
        }
    }

    private func log(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
