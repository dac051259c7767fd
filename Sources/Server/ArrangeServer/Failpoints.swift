import Foundation

/// Places in the server where a test may have the process killed, to prove that what a client
/// was told is kept, and nothing is kept twice; or have it pause, to stop the server while a
/// push or a fold runs.
///
/// Off unless `ARRANGE_SERVER_FAILPOINTS` names some, as `NAME=PROBABILITY` separated by
/// commas: `ARRANGE_SERVER_FAILPOINTS=pushBeforeCommit=0.1,pushAfterCommit=0.1`. At a named
/// place, the process does what the failpoint does (``effect``) with that probability.
enum Failpoint: String, CaseIterable, Sendable {
    /// A push's operations are written, and its transaction not yet committed.
    case pushBeforeCommit
    /// A push's transaction is committed, and its answer not yet sent.
    case pushAfterCommit
    /// A push's operations are written, and its transaction not yet committed: it pauses there
    /// for a second, holding the lock of the user's log.
    case pushPausesBeforeCommit
    /// A fold replayed the log, and has not yet stored what it decided: it pauses there for 2 s,
    /// longer than a push, so that it outlasts the pushes that run beside it.
    case foldPausesBeforeStore

    /// What the process does at a failpoint.
    enum Effect {
        /// It sends itself SIGKILL.
        case kill
        /// The task that reached it sleeps this long, and goes on.
        case pause(Duration)
    }

    /// What the process does here.
    var effect: Effect {
        switch self {
        case .pushBeforeCommit, .pushAfterCommit: .kill
        case .pushPausesBeforeCommit: .pause(.seconds(1))
        case .foldPausesBeforeStore: .pause(.seconds(2))
        }
    }

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

    /// Does what this failpoint does, with the probability the environment gave it.
    func reached() async {
        guard let probability = Self.probabilities[self], Double.random(in: 0..<1) < probability else { return }
        switch effect {
        case .kill: kill(getpid(), SIGKILL)
        case .pause(let duration): try? await Task.sleep(for: duration)
        }
    }
}
