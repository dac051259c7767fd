import Foundation

/// Every figure of a run in machine-readable form, as `--json` writes it and `--compare` reads
/// it: `Benchmarks/baseline.json` holds the landed code's.
struct Figures: Codable, Equatable {
    /// One figure: a ratio, a count or a size, never a time on its own.
    struct Figure: Codable, Equatable {
        /// What it measures, with its section and size: "latency at 100,000 items: move one
        /// item before another, by id ÷ one-row write". The same name in two runs is the same figure.
        var name: String
        var value: Double
        /// Whether a lower value is the better one (rows, ratios of times); a figure where more is
        /// better (`false`) is worse when it falls.
        var lowerIsBetter: Bool
        /// The target it is held to, where it has one.
        var target: Double?
    }

    /// `quick` or `full`: figures compare only with a run of the same mode.
    var mode: String
    var seed: UInt64
    var figures: [Figure] = []
    /// How fast the machine ran: the median of the latency section's bare one-row `UPDATE`
    /// transaction, in microseconds. Ratios of times move with it from hour to hour on a shared
    /// machine, so `--compare` shows it beside the baseline's. `nil` for a run without the
    /// latency section, and in a baseline written before it was recorded.
    var bareUpdateMicroseconds: Double?

    mutating func record(_ name: String, _ value: Double, lowerIsBetter: Bool = true, target: Double? = nil) {
        guard value.isFinite else { return }
        figures.append(Figure(name: name, value: value, lowerIsBetter: lowerIsBetter, target: target))
    }

    /// The figures as JSON: sorted keys, indented, a line feed at the end.
    func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// How much worse a figure may be than its baseline before `--compare` fails: 20 %.
    static let tolerance = 0.2

    /// How far the machine's speed may be from the baseline's before `--compare` warns that
    /// ratios of times may have moved with it: 20 %.
    static let speedTolerance = 0.2

    /// This run's figures beside a baseline's.
    struct Comparison {
        struct Row {
            let name: String
            let baseline: Double
            let value: Double
            let lowerIsBetter: Bool

            /// How much worse than the baseline, as a fraction of it: 0.25 is 25 % worse; below 0 is better.
            var worsening: Double {
                guard baseline != 0 else { return value == 0 ? 0 : (lowerIsBetter ? .infinity : -.infinity) }
                return lowerIsBetter ? (value - baseline) / abs(baseline) : (baseline - value) / abs(baseline)
            }

            var isWorse: Bool { worsening > Figures.tolerance }
        }

        var rows: [Row]
        /// Figures of the baseline this run did not measure.
        var missing: [String]
        /// The bare `UPDATE`'s median in the baseline's run and in this one, in microseconds,
        /// when both recorded it.
        var bareUpdateMicroseconds: (baseline: Double, run: Double)?
        var isWorse: Bool { rows.contains(where: \.isWorse) }

        /// This run's bare `UPDATE` time over the baseline's: 1.3 means the machine ran 30 % slower.
        var slowdown: Double? { bareUpdateMicroseconds.map { $0.run / $0.baseline } }

        /// Whether the machine ran more than ``Figures/speedTolerance`` faster or slower than in the baseline's run.
        var machineSpeedDiffers: Bool { slowdown.map { abs($0 - 1) > Figures.speedTolerance } ?? false }

        var text: String {
            var table = MarkdownTable(["figure", "baseline", "this run", "change", "verdict"], rightAligned: [1, 2, 3])
            for row in rows {
                // A figure that was 0 in the baseline has no ratio of change: no percentage to round.
                let percent = row.worsening.isFinite ? Int((abs(row.worsening) * 100).rounded()) : nil
                let change = percent.map { $0 == 0 ? "same" : "\($0) % \(row.worsening > 0 ? "worse" : "better")" } ?? "—"
                table.append([row.name, Format.figure(row.baseline), Format.figure(row.value), change, row.isWorse ? "**worse**" : "ok"])
            }
            var text = "## Against the baseline\n\nA figure fails when it is more than \(Int(Figures.tolerance * 100)) % worse than the baseline's.\n\n" + table.text
            if !missing.isEmpty { text += "\n\nNot measured in this run: \(missing.count) figures of the baseline." }
            if let speeds = bareUpdateMicroseconds, let slowdown {
                text += "\n\nThe machine: a bare one-row `UPDATE` took \(Format.figure(speeds.run)) µs in this run and \(Format.figure(speeds.baseline)) µs in the baseline's (\(Format.ratio(slowdown)))."
                if machineSpeedDiffers {
                    text += " It ran more than \(Int(Figures.speedTolerance * 100)) % faster or slower than in the baseline's run, and ratios of times move with it: "
                        + "a ratio of times that fails here may be the machine's, not the code's. Compare again at a quieter hour, or count instructions (callgrind)."
                }
            }
            return text
        }
    }

    /// This run's figures beside `baseline`'s, by name.
    ///
    /// - Throws: `CompareError.otherRun` when the baseline is of another mode or seed.
    func compared(with baseline: Figures) throws -> Comparison {
        guard baseline.mode == mode, baseline.seed == seed else {
            throw CompareError.otherRun("the baseline is a \(baseline.mode) run with seed \(baseline.seed), this one a \(mode) run with seed \(seed); compare runs alike")
        }
        let mine = Dictionary(figures.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var rows: [Comparison.Row] = []
        var missing: [String] = []
        for old in baseline.figures {
            guard let new = mine[old.name] else {
                missing.append(old.name)
                continue
            }
            rows.append(Comparison.Row(name: old.name, baseline: old.value, value: new.value, lowerIsBetter: old.lowerIsBetter))
        }
        let speeds = baseline.bareUpdateMicroseconds.flatMap { old in bareUpdateMicroseconds.map { (baseline: old, run: $0) } }
        return Comparison(rows: rows, missing: missing, bareUpdateMicroseconds: speeds)
    }

    /// Reads figures that `--json` wrote.
    static func read(from path: String) throws -> Figures {
        guard let data = FileManager.default.contents(atPath: path) else { throw CompareError.unreadable("Cannot read \(path).") }
        do {
            return try JSONDecoder().decode(Figures.self, from: data)
        } catch {
            throw CompareError.unreadable("\(path) is not a file of figures that arrange-bench --json wrote.")
        }
    }
}

/// Why `--json` or `--compare` cannot do their part.
enum CompareError: Error, CustomStringConvertible {
    /// The baseline cannot be read, or is not a file of figures.
    case unreadable(String)
    /// The figures cannot be written.
    case unwritable(String)
    /// The baseline is of another mode or seed.
    case otherRun(String)

    var description: String {
        switch self {
        case .unreadable(let message), .unwritable(let message), .otherRun(let message): message
        }
    }
}
