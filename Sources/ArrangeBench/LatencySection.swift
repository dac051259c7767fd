/// Latency on SQLite: each operation's median time over the median of the smallest write transaction.
struct LatencySection {
    /// One operation's median against the baseline's, timed in turns.
    struct Row {
        let operation: String
        let isMove: Bool
        let median: Double
        let baseline: Double
        var ratio: Double { median / baseline }
    }
}
