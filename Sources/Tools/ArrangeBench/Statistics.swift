import ArrangeBenchSupport
import Foundation

/// Summary figures of a sample.
struct Summary {
    let mean: Double
    let median: Double
    let p99: Double
    let max: Double

    /// `nil` for an empty sample.
    init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        self.mean = values.reduce(0, +) / Double(values.count)
        self.median = sorted.count.isMultiple(of: 2)
            ? (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            : sorted[sorted.count / 2]
        // Nearest rank: the smallest value with at least 99% of the sample at or below it.
        self.p99 = sorted[Int((Double(sorted.count) * 0.99).rounded(.up)) - 1]
        self.max = sorted[sorted.count - 1]
    }

    init?(_ values: [Int]) {
        self.init(values.map(Double.init))
    }
}

/// The median of a timed operation over the median of a reference timed in turns with it:
/// the figure the benchmark quotes, since absolute times drift on a shared machine.
struct MedianRatio {
    /// The operation's median, in nanoseconds.
    let median: Double
    /// The reference's median, in nanoseconds.
    let reference: Double

    init(_ samples: [Double], over reference: [Double]) {
        self.median = Summary(samples)?.median ?? .nan
        self.reference = Summary(reference)?.median ?? .nan
    }

    var value: Double { median / reference }
}

/// Formats figures for the tables.
enum Format {
    /// A count with thousands separators: `100000` → `100,000`.
    static func count(_ value: Int) -> String {
        value.withThousandsSeparators
    }

    /// A figure with a sensible number of decimals: `1.00049` → `1.0005`, `3.5` → `3.50`, `3512.4` → `3,512`.
    static func figure(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return count(Int(value)) }
        if abs(value) >= 100 { return count(Int(value.rounded())) }
        if abs(value) >= 10 { return String(format: "%.1f", value) }
        var text = String(format: "%.4f", value)
        while text.hasSuffix("0"), text.split(separator: ".").last!.count > 2 { text.removeLast() }
        return text
    }

    /// A ratio: `1.234` → `1.23×`.
    static func ratio(_ value: Double) -> String {
        String(format: "%.2f×", value)
    }

    /// A duration in microseconds, for context only (never a headline).
    static func microseconds(_ nanoseconds: Double) -> String {
        String(format: "%.1f µs", nanoseconds / 1_000)
    }

    /// A duration in milliseconds, for context only (never a headline).
    static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.0f ms", duration.nanoseconds / 1_000_000)
    }
}

/// A Markdown table.
struct MarkdownTable {
    let header: [String]
    /// Columns aligned right (numbers).
    let rightAligned: Set<Int>
    var rows: [[String]] = []

    init(_ header: [String], rightAligned: Set<Int> = []) {
        self.header = header
        self.rightAligned = rightAligned
    }

    mutating func append(_ row: [String]) {
        rows.append(row)
    }

    var text: String {
        let rule = header.indices.map { rightAligned.contains($0) ? "---:" : "---" }
        return ([header, rule] + rows).map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n")
    }
}
