import Foundation

/// The run's pictures, as SVG files that BENCHMARKS.md shows (`--plots DIR`).
enum Plots {
    /// The file of the picture of the rows written per insert into one gap.
    static let rowsFile = "rows-per-insert-into-one-gap.svg"
    /// The file of the picture of a move's latency by list size.
    static let latencyFile = "move-latency-by-list-size.svg"

    /// The rows every approach wrote, in all, as it inserted again and again into one gap (the
    /// workload *insert after the previous insert*, on the smallest list of the run); a line
    /// ends where its approach could no longer tell two neighbours apart.
    ///
    /// - Returns: The chart; `nil` when the run did not run that workload.
    static func rowsPerInsertIntoOneGap(_ results: [WorkloadResult]) -> LineChart? {
        let oneGap = results.filter { $0.workload == .insertAfterPrevious && [.arrange, .dense, .midpoint, .randomDouble, .randomInteger, .linkedList].contains($0.strategy) }
        guard let count = oneGap.map(\.count).min() else { return nil }
        let series = oneGap.filter { $0.count == count }.map { result in
            var total = 0
            let points = result.rowsWritten.enumerated().map { index, rows in
                total += rows
                return (x: Double(index + 1), y: Double(max(total, 1)))
            }
            return LineChart.Series(name: result.strategy.plainTitle + (result.failedAt.map { " (fails at \($0))" } ?? ""), points: thinned(points))
        }
        return LineChart(
            title: "Rows written, in all, inserting again and again into one gap of a list of \(Format.count(count))",
            xLabel: "inserts", yLabel: "rows written in all (log scale)", logY: true, series: series)
    }

    /// The median time of a move by id and by offsets, by list size, on each backend (the
    /// scaling section's two sizes).
    static func moveLatencyBySize(_ rows: [ScalingSection.Row], small: Int, large: Int) -> LineChart? {
        guard !rows.isEmpty else { return nil }
        let series = rows.map { row in
            LineChart.Series(
                name: "\(row.backend.title), \(row.move)",
                points: [(Double(small), row.ratio.reference / 1_000), (Double(large), row.ratio.median / 1_000)])
        }
        return LineChart(
            title: "A move's median time by list size", xLabel: "items in the list (log scale)", yLabel: "µs (log scale)",
            logX: true, logY: true, series: series)
    }

    /// At most about 400 of `points`, evenly spaced, the last one kept: enough for a line,
    /// and a file that stays small.
    static func thinned(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        let step = max(1, points.count / 400)
        var kept = stride(from: 0, to: points.count, by: step).map { points[$0] }
        if let last = points.last, kept.last?.x != last.x { kept.append(last) }
        return kept
    }
}

/// A line chart drawn as SVG: axes with ticks, one line per series, and a legend.
struct LineChart {
    struct Series {
        var name: String
        var points: [(x: Double, y: Double)]
    }

    var title: String
    var xLabel: String
    var yLabel: String
    var logX = false
    var logY = false
    var series: [Series]

    private static let width = 760.0
    private static let plotHeight = 280.0
    private static let margin = (left: 80.0, right: 20.0, top: 40.0)
    private static let colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]

    /// The chart as an SVG document.
    var svg: String {
        let points = series.flatMap(\.points).filter { (!logX || $0.x > 0) && (!logY || $0.y > 0) }
        guard !points.isEmpty else { return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n" }
        // The legend below the axes, a line a series.
        let plotBottom = Self.margin.top + Self.plotHeight
        let height = plotBottom + 60 + 18 * Double(series.count)
        let xAxis = Axis(values: points.map(\.x), isLog: logX, from: Self.margin.left, to: Self.width - Self.margin.right)
        let yAxis = Axis(values: points.map(\.y), isLog: logY, from: plotBottom, to: Self.margin.top)
        var lines = [
            #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(Int(Self.width))" height="\#(Int(height))" font-family="sans-serif" font-size="12">"#,
            #"<rect width="100%" height="100%" fill="white"/>"#,
            #"<text x="\#(Self.width / 2)" y="22" text-anchor="middle" font-size="14">\#(Self.escaped(title))</text>"#,
        ]
        lines.append(#"<line x1="\#(Self.margin.left)" y1="\#(plotBottom)" x2="\#(Self.width - Self.margin.right)" y2="\#(plotBottom)" stroke="black"/>"#)
        lines.append(#"<line x1="\#(Self.margin.left)" y1="\#(Self.margin.top)" x2="\#(Self.margin.left)" y2="\#(plotBottom)" stroke="black"/>"#)
        for tick in xAxis.ticks {
            let x = Self.rounded(xAxis.position(of: tick))
            lines.append(#"<line x1="\#(x)" y1="\#(plotBottom)" x2="\#(x)" y2="\#(plotBottom + 5)" stroke="black"/>"#)
            lines.append(#"<text x="\#(x)" y="\#(plotBottom + 18)" text-anchor="middle">\#(Self.label(tick))</text>"#)
        }
        for tick in yAxis.ticks {
            let position = yAxis.position(of: tick)
            let y = Self.rounded(position)
            lines.append(#"<line x1="\#(Self.margin.left - 5)" y1="\#(y)" x2="\#(Self.width - Self.margin.right)" y2="\#(y)" stroke="lightgray"/>"#)
            lines.append(#"<text x="\#(Self.margin.left - 8)" y="\#(Self.rounded(position + 4))" text-anchor="end">\#(Self.label(tick))</text>"#)
        }
        lines.append(#"<text x="\#(Self.width / 2)" y="\#(plotBottom + 36)" text-anchor="middle">\#(Self.escaped(xLabel))</text>"#)
        lines.append(#"<text transform="translate(18 \#((Self.margin.top + plotBottom) / 2)) rotate(-90)" text-anchor="middle">\#(Self.escaped(yLabel))</text>"#)
        for (index, line) in series.enumerated() {
            let color = Self.colors[index % Self.colors.count]
            let path = line.points.filter { (!logX || $0.x > 0) && (!logY || $0.y > 0) }
                .map { "\(Self.rounded(xAxis.position(of: $0.x))),\(Self.rounded(yAxis.position(of: $0.y)))" }.joined(separator: " ")
            lines.append(#"<polyline fill="none" stroke="\#(color)" stroke-width="2" points="\#(path)"/>"#)
            // A line of a few points shows them.
            if line.points.count <= 10 {
                for point in line.points where (!logX || point.x > 0) && (!logY || point.y > 0) {
                    let (x, y) = (Self.rounded(xAxis.position(of: point.x)), Self.rounded(yAxis.position(of: point.y)))
                    lines.append(#"<circle cx="\#(x)" cy="\#(y)" r="3.5" fill="\#(color)"/>"#)
                }
            }
            let legendY = plotBottom + 58 + Double(index) * 18
            let legendX = Self.margin.left
            lines.append(#"<line x1="\#(legendX)" y1="\#(legendY - 4)" x2="\#(legendX + 24)" y2="\#(legendY - 4)" stroke="\#(color)" stroke-width="3"/>"#)
            lines.append(#"<text x="\#(legendX + 30)" y="\#(legendY)">\#(Self.escaped(line.name))</text>"#)
        }
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Where values fall along one side of the plot, and the round numbers it marks.
    private struct Axis {
        let low: Double
        let high: Double
        let isLog: Bool
        let from: Double
        let to: Double

        init(values: [Double], isLog: Bool, from: Double, to: Double) {
            let (smallest, largest) = (values.min() ?? 0, values.max() ?? 1)
            if isLog {
                (low, high) = (pow(10, floor(log10(smallest))), pow(10, ceil(log10(largest))))
            } else {
                (low, high) = (min(0, smallest), largest > min(0, smallest) ? largest : min(0, smallest) + 1)
            }
            (self.isLog, self.from, self.to) = (isLog, from, to)
        }

        func position(of value: Double) -> Double {
            let share = isLog ? (log10(value) - log10(low)) / max(log10(high) - log10(low), 1e-9) : (value - low) / (high - low)
            return from + share * (to - from)
        }

        /// Powers of ten on a log scale; about five round steps on a linear one.
        var ticks: [Double] {
            if isLog {
                return stride(from: log10(low), through: log10(high), by: 1).map { pow(10, $0) }
            }
            let rough = (high - low) / 5
            let magnitude = pow(10, floor(log10(rough)))
            let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? rough
            return stride(from: ceil(low / step) * step, through: high, by: step).map { $0 }
        }
    }

    private static func rounded(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    /// A tick's number: whole numbers with thousands separators, or short decimals.
    private static func label(_ value: Double) -> String {
        value >= 1 && value == value.rounded() ? Format.count(Int(value)) : String(format: "%g", value)
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
