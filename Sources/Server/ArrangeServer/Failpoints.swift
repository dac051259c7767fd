import Foundation

/// Places in the server where a test may have the process killed, to prove that what a client
/// was told is kept, and nothing is kept twice.
///
/// Off unless `ARRANGE_SERVER_FAILPOINTS` names some, as `NAME=PROBABILITY` separated by
/// commas: `ARRANGE_SERVER_FAILPOINTS=pushBeforeCommit=0.1,pushAfterCommit=0.1`. At a named
/// place, the process sends itself SIGKILL with that probability.
enum Failpoint: String, CaseIterable, Sendable {
    /// A push's operations are written, and its transaction not yet committed.
    case pushBeforeCommit
    /// A push's transaction is committed, and its answer not yet sent.
    case pushAfterCommit

    /// The probability of each failpoint, as the environment set it when the process started.
    private static let probabilities: [Failpoint: Double] = {
        var probabilities: [Failpoint: Double] = [:]
        for entry in (ProcessInfo.processInfo.environment["ARRANGE_SERVER_FAILPOINTS"] ?? "").split(separator: ",") {
            let parts = entry.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let point = Failpoint(rawValue: String(parts[0])), let probability = Double(parts[1]) else { continue }
            probabilities[point] = probability
        }
        return probabilities
    }()

    /// Kills the process here, with the probability the environment gave this failpoint.
    func reached() {
        guard let probability = Self.probabilities[self], Double.random(in: 0..<1) < probability else { return }
        kill(getpid(), SIGKILL)
    }
}
