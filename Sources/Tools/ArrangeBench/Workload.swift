import ArgumentParser

/// A sequence of operations on one list, the same for every strategy.
enum Workload: String, CaseIterable, ExpressibleByArgument, Sendable {
    case randomMoves = "random-moves"
    case randomMultiMoves = "random-multi-moves"
    case insertAtOffsetOne = "insert-at-1"
    case insertAtTop = "insert-top"
    case append
    case lastToTop = "last-to-top"
    case insertAfterPrevious = "insert-after-previous"
    case jitteredRandomMoves = "jitter-random-moves"

    /// The name in the tables.
    var title: String {
        switch self {
        case .randomMoves: "random single moves"
        case .randomMultiMoves: "random multi-item moves (2–5 items)"
        case .insertAtOffsetOne: "insert at offset 1"
        case .insertAtTop: "insert at the top"
        case .append: "append at the bottom"
        case .lastToTop: "move the last item to the top"
        case .insertAfterPrevious: "insert after the previous insert"
        case .jitteredRandomMoves: "random single moves, jitter on"
        }
    }

    /// What the workload does, for the help text and the notes under the table.
    var summary: String {
        switch self {
        case .randomMoves: "one item from a random offset to a random other place (never onto itself)"
        case .randomMultiMoves: "2 to 5 items at random offsets to a random destination, as SwiftUI's onMove passes them"
        case .insertAtOffsetOne: "a new item between the first and the second, again and again"
        case .insertAtTop: "a new item before the first"
        case .append: "a new item after the last"
        case .lastToTop: "the last item moved before the first, again and again"
        case .insertAfterPrevious: "a new item right after the one inserted before it, starting in the middle"
        case .jitteredRandomMoves: "as random single moves, with Arrange's jitter on (baselines have no such setting)"
        }
    }

    /// Whether the baselines run this workload too; jitter is a setting of Arrange's only.
    var runsBaselines: Bool { self != .jitteredRandomMoves }

    /// The next operation on a list of `count` items.
    ///
    /// - Parameter previousInsert: The offset of the item this workload inserted last, if any.
    func nextOperation(count: Int, previousInsert: Int?, random: inout some RandomNumberGenerator) -> Operation {
        switch self {
        case .randomMoves, .jitteredRandomMoves:
            let source = Int.random(in: 0..<count, using: &random)
            // Every destination but the two that leave the item where it is.
            let pick = Int.random(in: 0..<(count - 1), using: &random)
            return .move(sources: [source], destination: pick < source ? pick : pick + 2)
        case .randomMultiMoves:
            return Self.randomMultiMove(count: count, random: &random)
        case .insertAtOffsetOne:
            return .insert(offset: min(1, count))
        case .insertAtTop:
            return .insert(offset: 0)
        case .append:
            return .insert(offset: count)
        case .lastToTop:
            return .move(sources: [count - 1], destination: 0)
        case .insertAfterPrevious:
            return .insert(offset: previousInsert.map { $0 + 1 } ?? count / 2)
        }
    }

    /// The smallest list the workload works on.
    var minimumCount: Int {
        switch self {
        case .randomMoves, .jitteredRandomMoves, .lastToTop: 2
        case .randomMultiMoves: 3
        case .insertAtOffsetOne, .insertAtTop, .append, .insertAfterPrevious: 0
        }
    }

    /// A move of 2 to 5 items (fewer in a short list) that changes the order.
    private static func randomMultiMove(count: Int, random: inout some RandomNumberGenerator) -> Operation {
        let size = Int.random(in: 2...min(5, count - 1), using: &random)
        while true {
            var sources = Set<Int>()
            while sources.count < size { sources.insert(Int.random(in: 0..<count, using: &random)) }
            let sorted = sources.sorted()
            let destination = Int.random(in: 0...count, using: &random)
            let operation = Operation.move(sources: sorted, destination: destination)
            // A contiguous run dropped onto its own place changes nothing: draw again.
            let isRun = sorted.last! - sorted.first! == size - 1
            if !(isRun && ChangeGeometry(operation, count: count).landing == sorted.first!) { return operation }
        }
    }
}
