/// Times operations in turns, so that whatever else the machine is doing slows them alike.
///
/// Each round runs every body once, in order; the first rounds warm the caches up and are
/// not kept. Medians of such samples, divided by one another, are the figures the benchmark
/// quotes: absolute times on a shared machine drift, their ratios within one run much less.
struct InterleavedSampler {
    let rounds: Int
    let warmUpRounds: Int

    init(rounds: Int) {
        self.rounds = rounds
        self.warmUpRounds = max(2, rounds / 10)
    }

    /// The nanoseconds each body took in each kept round, one array per body.
    func sample(_ bodies: [() throws -> Void]) throws -> [[Double]] {
        var samples = Array(repeating: [Double](), count: bodies.count)
        let clock = ContinuousClock()
        for round in 0..<(warmUpRounds + rounds) {
            for (index, body) in bodies.enumerated() {
                let elapsed = try clock.measure(body)
                if round >= warmUpRounds { samples[index].append(elapsed.nanoseconds) }
            }
        }
        return samples
    }
}

extension Duration {
    /// The duration in nanoseconds.
    var nanoseconds: Double {
        Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9
    }
}
