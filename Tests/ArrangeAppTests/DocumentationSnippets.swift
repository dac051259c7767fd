// The code of the DocC articles, compiled: each article's block stands here, line for line,
// in a function that gives it the names it uses. `DocumentationTests` finds every block of the
// articles in this target's sources, but those that need an Apple framework and say so.
// Through the public API only.
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import ArrangeStore
import Foundation
import GRDB

/// "Getting started": the app owns its database pool.
func ownDatabasePool(at url: URL) async throws -> (SQLiteItemRepository, IntentEnvironment) {
    var configuration = Configuration()
    configuration.busyMode = .timeout(5)
    let pool = try DatabasePool(path: url.path, configuration: configuration)
    let repository = try SQLiteItemRepository(writer: pool)
    let environment = try IntentEnvironment(repository: repository)
    try await environment.prepareDefaultList(named: nil)
    return (repository, environment)
}

/// "Getting started": a drag in a filtered view moves by id.
func moveByID(_ dragged: Item, after target: Item, in environment: IntentEnvironment) async throws {
    try await MoveItems([dragged.id], to: .after(target.id)).perform(in: environment)
}

/// The overview of ArrangeIntents.
func overview(pool: DatabasePool) async throws -> ItemSummary {
    let environment = try IntentEnvironment(repository: try SQLiteItemRepository(writer: pool))
    let groceries = try await CreateList(name: "Groceries").perform(in: environment).list
    let milk = try await AddItem(title: "Milk", list: groceries.id).perform(in: environment).items[0]
    _ = try await MoveItems([milk.id], to: .top).perform(in: environment)
    return milk
}
