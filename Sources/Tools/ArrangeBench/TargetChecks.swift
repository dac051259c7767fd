/// The ordering service's targets, checked against the figures of this run.
struct TargetChecks {
    let settings: Settings
    var workloads: [WorkloadResult] = []
    var latency: [LatencySection.Row] = []
    var latencyTargets: [LatencySection.Target] = []
    var scaling: [ScalingSection.Row] = []
    var bytesPerItem: Double?
    /// What logging adds to a move, over a bare one-row `UPDATE`.
    var syncAdded: Double?

    /// One target and how this run did.
    struct Check {
        let target: String
        let figures: String
        /// `nil` when this run did not measure it.
        let met: Bool?
        /// What the "met" column says when a plain yes or no would hide a split verdict.
        var verdict: String?
    }

    var checks: [Check] {
        [randomMoves, endInserts, hotSpot, failures] + latencyTargetChecks + [moveLatency, scalingRatio, loggingOverhead]
    }

    var text: String {
        var table = MarkdownTable(["target", "this run", "met"])
        for check in checks {
            table.append([check.target, check.figures, check.verdict ?? check.met.map { $0 ? "yes" : "**no**" } ?? "not measured"])
        }
        return "## Targets\n\n" + table.text
    }

    private func arrange(_ workload: Workload) -> [WorkloadResult] {
        workloads.filter { $0.strategy.isArrange && $0.workload == workload }
    }

    private func mean(_ result: WorkloadResult) -> Double {
        Summary(result.rowsWritten)?.mean ?? .nan
    }

    private var randomMoves: Check {
        let results = arrange(.randomMoves) + arrange(.jitteredRandomMoves)
        let figures = results.map { "\(Format.figure(mean($0))) (\($0.ordering)\($0.workload == .randomMoves ? "" : "jitter, ")\(Format.count($0.count)))" }
        return Check(
            target: "Random moves: mean rows per move ≤ 1.01 (a list's items, the lists, Today, a checklist, the areas, an area's lists)",
            figures: figures.joined(separator: "; "),
            met: results.isEmpty ? nil : results.allSatisfy { mean($0) <= 1.01 })
    }

    private var endInserts: Check {
        let results = arrange(.insertAtTop) + arrange(.append)
        let figures = results.map { result in
            let summary = Summary(result.rowsWritten)
            return "\(result.ordering)\(result.workload == .append ? "bottom" : "top") at \(Format.count(result.count)): mean \(Format.figure(summary?.mean ?? .nan)), max \(Format.figure(summary?.max ?? .nan))"
        }
        return Check(
            target: "Top and bottom inserts: exactly 1 row (a list's items, the lists, Today, a checklist, the areas, an area's lists)",
            figures: figures.joined(separator: "; "),
            met: results.isEmpty ? nil : results.allSatisfy { $0.rowsWritten.allSatisfy { $0 == 1 } && $0.failedAt == nil })
    }

    private var hotSpot: Check {
        let size = settings.sizes.max() ?? 0
        let results = (arrange(.insertAtOffsetOne) + arrange(.insertAfterPrevious)).filter { $0.count == size }
        let figures = results.map { "\($0.ordering)\($0.workload.title): \(Format.figure(mean($0)))" }
        return Check(
            target: "Hot spot at 100,000 items: amortized ≤ 8 rows per operation",
            figures: (size == 100_000 ? "" : "at \(Format.count(size)) items: ") + figures.joined(separator: "; "),
            met: results.isEmpty ? nil : results.allSatisfy { mean($0) <= 8 })
    }

    private var failures: Check {
        let results = workloads.filter(\.strategy.isArrange)
        let failed = results.filter { $0.failedAt != nil || $0.problem != nil }
        let figures = failed.isEmpty
            ? "no failure in \(results.count) runs (order and rising keys checked after each)"
            : failed.map { "\($0.ordering)\($0.workload.title) at \(Format.count($0.count)): \($0.problem ?? "failed")" }.joined(separator: "; ")
        return Check(target: "No failure in any workload, in any ordering", figures: figures, met: results.isEmpty ? nil : failed.isEmpty)
    }

    /// Block 2 of the latency section: a move by id against a bare UPDATE, a page read against a one-row write.
    private var latencyTargetChecks: [Check] {
        let size = settings.latencyItems == 100_000 ? "" : "at \(Format.count(settings.latencyItems)) items: "
        guard !latencyTargets.isEmpty else {
            return [Check(target: "Move by id ÷ bare one-row UPDATE ≤ 1.5; page of 50 ÷ one-row write ≤ 1.5 (SQLite)", figures: "", met: nil)]
        }
        return latencyTargets.map { target in
            Check(
                target: "\(target.operation) ÷ \(target.reference) ≤ \(Format.ratio(target.limit)) (SQLite)",
                figures: size + Format.ratio(target.ratio.value),
                met: target.ratio.value <= target.limit)
        }
    }

    private var moveLatency: Check {
        let rows = latency.filter { $0.isMove }
        return Check(
            target: "Move latency ÷ one-row write transaction ≤ 1.5 (SQLite)",
            figures: (settings.latencyItems == 100_000 ? "" : "at \(Format.count(settings.latencyItems)) items: ")
                + rows.map { "\($0.operation): \(Format.ratio($0.ratio.value))" }.joined(separator: "; "),
            met: rows.isEmpty ? nil : rows.allSatisfy { $0.ratio.value <= 1.5 },
            verdict: verdict(rows.map { ($0.operation, $0.ratio.value <= 1.5) }))
    }

    private var scalingRatio: Check {
        Check(
            target: "Scaling 1,000 → 1,000,000 items: move time ratio ≤ 2 on both backends",
            figures: (settings.scalingLarge == 1_000_000 ? "" : "to \(Format.count(settings.scalingLarge)) items: ")
                + scaling.map { "\($0.backend.title), \($0.move): \(Format.ratio($0.ratio.value))" }.joined(separator: "; "),
            met: scaling.isEmpty ? nil : scaling.allSatisfy { $0.ratio.value <= 2 },
            verdict: verdict(scaling.map { ("\($0.backend.title), \($0.move)", $0.ratio.value <= 2) }))
    }

    private var loggingOverhead: Check {
        Check(
            target: "Sync: what logging adds to a move ÷ a bare one-row UPDATE ≤ 0.75 (SQLite)",
            figures: (settings.latencyItems == 100_000 ? "" : "at \(Format.count(settings.latencyItems)) items: ") + (syncAdded.map(Format.ratio) ?? ""),
            met: syncAdded.map { $0 <= 0.75 })
    }

    /// "yes" or "**no**" when all parts agree, else which parts meet the target and which do not.
    private func verdict(_ parts: [(name: String, met: Bool)]) -> String? {
        guard Set(parts.map(\.met)).count > 1 else { return nil }
        return parts.map { "\($0.name): \($0.met ? "yes" : "**no**")" }.joined(separator: "; ")
    }
}

extension WorkloadResult {
    /// The ordering, as the figures of the targets name it: nothing for a list's items.
    var ordering: String {
        switch strategy.scope {
        case .lists?: "lists, "
        case .today?: "Today, "
        case .checklist?: "checklist, "
        case .areas?: "areas, "
        case .areaLists?: "an area's lists, "
        case .headings?: "headings, "
        case .headingItems?: "a heading's items, "
        case .listItems?, nil: ""
        }
    }
}
