import ArgumentParser
import Foundation

/// `arrange-bench`: Arrange against the earlier approaches, side by side in one run.
@main
struct ArrangeBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "arrange-bench",
        abstract: "Runs Arrange and the earlier ordering approaches on the same workloads and prints Markdown tables.",
        discussion: """
            Build it in release mode: swift run -c release arrange-bench [--quick].
            Headline figures are counts (rows written per operation, the operation at which an approach \
            fails) or ratios of medians measured in the same run; absolute times are shown for context only.
            """)

    /// The parts of the report.
    enum Section: String, CaseIterable, ExpressibleByArgument {
        case workloads, latency, scaling, sync, observation, search, tags, time
    }

    @Flag(help: "Small sizes and few operations: the whole run takes well under a minute (sizes 1,000 and 10,000, 2,000 operations, latency at 10,000 items, scaling from 1,000 to 100,000).")
    var quick = false

    @Option(parsing: .upToNextOption, help: "List sizes for the workloads (default: 1000 100000).")
    var sizes: [Int] = []

    @Option(help: "Operations per workload (default: 20000).")
    var operations: Int?

    @Option(help: "Seed of every random choice; the same seed gives the same operations and counts.")
    var seed: UInt64 = 42

    @Option(parsing: .upToNextOption, help: "Sections to run.")
    var sections: [Section] = Section.allCases

    @Option(parsing: .upToNextOption, help: "Workloads to run.")
    var workloads: [Workload] = Workload.allCases

    @Option(parsing: .upToNextOption, help: "Strategies to run on the workloads (arrange always runs, on a list's items, the lists and Today).")
    var strategies: [StrategyKind] = StrategyKind.allCases

    @Option(help: "Items in the list the latency section times (default: 100000).")
    var latencyItems: Int?

    @Option(help: "Items in the big list of the scaling section (default: 1000000); the small one has 1,000.")
    var scalingItems: Int?

    @Option(help: "Timed rounds per figure in the latency and scaling sections (default: 400; offset moves on SQLite take a quarter of them).")
    var samples: Int?

    @Option(help: "Rows the dense renumbering writes through the repository per workload before it only counts them (default: 200000).")
    var denseRowBudget: Int?

    @Option(help: ArgumentHelp("Writes every figure of the run to this file as JSON, as Benchmarks/baseline.json holds them.", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp(
        "Prints each figure beside the one this file of figures (--json) recorded, and exits with status 1 when one is more than 20 % worse. Compare runs alike: the same mode and seed.",
        valueName: "baseline"))
    var compare: String?

    @Option(help: ArgumentHelp(
        "Draws the run's pictures into this folder as SVG files: the rows written per insert into one gap (workloads), and a move's latency by list size (scaling).",
        valueName: "folder"))
    var plots: String?

    @Option(help: .hidden)
    var memoryProbe: Int?

    func validate() throws {
        if sizes.contains(where: { $0 < 3 }) { throw ValidationError("Each size must be at least 3 items.") }
        if let operations, operations < 1 { throw ValidationError("Give at least 1 operation.") }
        if let latencyItems, latencyItems < 60 { throw ValidationError("The latency list needs at least 60 items.") }
        if let scalingItems, scalingItems < 1_000 { throw ValidationError("The big scaling list needs at least 1,000 items.") }
        if let samples, samples < 10 { throw ValidationError("Take at least 10 samples.") }
        if let denseRowBudget, denseRowBudget < 0 { throw ValidationError("The dense row budget cannot be negative.") }
    }

    func run() async throws {
        if let memoryProbe {
            try MemoryProbe.measure(count: memoryProbe)
            return
        }
        let settings = Settings(self)
        // Read before the run, so that a wrong path fails at once.
        let baseline = try compare.map(Figures.read(from:))
        if let folder = settings.plotsFolder {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw CompareError.unwritable("Cannot make \(folder.path) for the pictures: \(error.localizedDescription)")
            }
        }
        let figures = try await Report(settings: settings).run()
        if let json {
            do {
                try figures.jsonData().write(to: URL(fileURLWithPath: json))
            } catch {
                throw CompareError.unwritable("Cannot write \(json): \(error.localizedDescription)")
            }
        }
        if let baseline {
            let comparison = try figures.compared(with: baseline)
            print("\n" + comparison.text)
            if comparison.isWorse {
                FileHandle.standardError.write(Data("arrange-bench: a figure is more than 20 % worse than the baseline's.\n".utf8))
                throw ExitCode(1)
            }
        }
    }
}

/// The options with the defaults of a full or a quick run filled in.
struct Settings {
    let quick: Bool
    let sizes: [Int]
    let operations: Int
    let seed: UInt64
    let sections: [ArrangeBenchCommand.Section]
    let workloads: [Workload]
    let strategies: [StrategyKind]
    let latencyItems: Int
    let scalingSmall = 1_000
    let scalingLarge: Int
    let samples: Int
    let denseRowBudget: Int
    /// Where to draw the run's pictures, if anywhere.
    let plotsFolder: URL?

    init(_ command: ArrangeBenchCommand) {
        quick = command.quick
        sizes = command.sizes.isEmpty ? (command.quick ? [1_000, 10_000] : [1_000, 100_000]) : command.sizes
        operations = command.operations ?? (command.quick ? 2_000 : 20_000)
        seed = command.seed
        sections = ArrangeBenchCommand.Section.allCases.filter(command.sections.contains)
        workloads = Workload.allCases.filter(command.workloads.contains)
        strategies = StrategyKind.allCases.filter { $0.isArrange || command.strategies.contains($0) }
        latencyItems = command.latencyItems ?? (command.quick ? 10_000 : 100_000)
        scalingLarge = command.scalingItems ?? (command.quick ? 100_000 : 1_000_000)
        samples = command.samples ?? (command.quick ? 100 : 400)
        denseRowBudget = command.denseRowBudget ?? (command.quick ? 50_000 : 200_000)
        plotsFolder = command.plots.map { URL(fileURLWithPath: $0, isDirectory: true) }
    }
}
