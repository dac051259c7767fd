import ArrangeBenchSupport
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import ArrangeStore
import Foundation

/// Tags on SQLite (a database file in WAL mode).
///
/// 1. **A filtered list.** `ListItems` of a list of ``filteredListItems`` items, 10% of which
///    carry the tag named (half on the item itself, half through a child tag; the list and its
///    area carry none), over `ListItems` of a list that holds as many items as pass: the same
///    answer of 50 items, filtered and not. Timed in turns.
/// 2. **Moves of tags.** ``moves`` random `MoveTag`s among ``tagCount`` tags at the top level,
///    each to a random place among its siblings: the rows each writes, as the moves of items
///    are counted.
struct TagsSection {
    let rounds: Int
    let seed: UInt64
    let log: (String) -> Void

    /// The items of the list the filter reads; a tenth of them pass.
    static let filteredListItems = 500
    /// The tags the moves shuffle.
    static let tagCount = 200
    /// The moves of tags counted.
    static let moves = 2_000

    struct Measurement {
        /// `ListItems` filtered by a tag over `ListItems` of as many items unfiltered.
        var filtered: MedianRatio
        /// The rows written per move of a tag, the mean.
        var rowsPerMove: Double
        /// The most rows a move of a tag wrote.
        var mostRows: Int
    }

    func run(in directory: URL) async throws -> Measurement {
        var random = SeededRandomNumberGenerator(seed: seed ^ 0x7A6)
        let pool = try Backend.openPool(in: directory, named: "tags")
        let environment = try IntentEnvironment(repository: try SQLiteItemRepository(writer: pool))

        log("  loading a list of \(Format.count(Self.filteredListItems)) items, a tenth tagged, and one of as many as pass")
        let errand = try await CreateTag(name: "Errand").perform(in: environment).tag.id
        let shops = try await CreateTag(name: "Shops", in: .children(of: errand)).perform(in: environment).tag.id
        let area = try await CreateArea(name: "Town").perform(in: environment).area.id
        let tagged = try await CreateList(name: "Tagged", in: .area(area)).perform(in: environment).list.id
        let plain = try await CreateList(name: "Plain", in: .area(area)).perform(in: environment).list.id
        var carrying: [Item.ID] = []
        for index in 0..<Self.filteredListItems {
            let item = try await AddItem(title: "Item \(index)", list: tagged).perform(in: environment).items[0].id
            if index % 10 == 0 { carrying.append(item) }
        }
        for (index, item) in carrying.enumerated() { _ = try await AddTags([index.isMultiple(of: 2) ? errand : shops], to: .items([item])).perform(in: environment) }
        for index in 0..<carrying.count { _ = try await AddItem(title: "Item \(index)", list: plain).perform(in: environment) }

        log("  a filtered list: \(rounds) reads, in turns with the unfiltered one")
        var (filteredTimes, plainTimes): ([Double], [Double]) = ([], [])
        let clock = ContinuousClock()
        let warmUp = max(2, rounds / 10)
        for round in 0..<rounds {
            let filteredStart = clock.now
            let filtered = try await ListItems(list: tagged, tags: [errand]).perform(in: environment)
            let filteredTime = clock.now - filteredStart
            let plainStart = clock.now
            let unfiltered = try await ListItems(list: plain).perform(in: environment)
            let plainTime = clock.now - plainStart
            guard filtered.items.map(\.id) == carrying, unfiltered.items.count == carrying.count else {
                throw VerificationFailure(message: "The filtered list shows \(filtered.items.count) items, not the \(carrying.count) tagged.")
            }
            if round >= warmUp {
                filteredTimes.append(filteredTime.nanoseconds)
                plainTimes.append(plainTime.nanoseconds)
            }
        }

        log("  moves of tags: \(Format.count(Self.moves)) among \(Self.tagCount)")
        var tags: [Tag.ID] = []
        for index in 0..<Self.tagCount { tags.append(try await CreateTag(name: "Tag \(index)").perform(in: environment).tag.id) }
        var rows: [Int] = []
        for _ in 0..<Self.moves {
            let moving = tags.randomElement(using: &random)!
            var anchor = tags.randomElement(using: &random)!
            while anchor == moving { anchor = tags.randomElement(using: &random)! }
            let placement: TagPlacement = Bool.random(using: &random) ? .before(anchor) : .after(anchor)
            rows.append(try await MoveTag(moving, to: placement).perform(in: environment).rowsWritten)
        }
        return Measurement(
            filtered: MedianRatio(filteredTimes, over: plainTimes), rowsPerMove: Double(rows.reduce(0, +)) / Double(rows.count), mostRows: rows.max() ?? 0)
    }

    func text(_ measurement: Measurement) -> String {
        """
        | figure | result | target |
        |---|---|---|
        | `ListItems` of a list of \(Format.count(Self.filteredListItems)) items filtered by a tag that a tenth carry (half through a child tag; the area untagged), 50 shown ÷ `ListItems` of a list of 50 items unfiltered (\(Format.figure(measurement.filtered.median / 1_000)) µs ÷ \(Format.figure(measurement.filtered.reference / 1_000)) µs) | \(Format.figure(measurement.filtered.value)) | ≤ 2 |
        | rows written per random move of a tag among \(Self.tagCount), the mean of \(Format.count(Self.moves)) (the most: \(measurement.mostRows)) | \(Format.figure(measurement.rowsPerMove)) | 1, as for items |
        """
    }
}
