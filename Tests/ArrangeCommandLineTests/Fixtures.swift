import ArrangeCommandLine
import ArrangeIntents
import ArrangeStore
import Foundation
import Synchronization
import Testing

/// What a console wrote, kept for a test to read.
final class Transcript: Sendable {
    private let lines = Mutex<(output: String, error: String)>(("", ""))

    var console: Console {
        Console(output: { text in self.lines.withLock { $0.output += text } }, error: { text in self.lines.withLock { $0.error += text } })
    }

    var output: String { lines.withLock { $0.output } }
    var error: String { lines.withLock { $0.error } }

    /// Forgets what was written so far.
    func clear() {
        lines.withLock { $0 = ("", "") }
    }
}

/// A command-line session over an in-memory store with an Inbox, writing to a transcript.
func makeSession(lists: [String] = [], environment given: IntentEnvironment? = nil) async throws -> (CommandSession, Transcript) {
    let transcript = Transcript()
    let environment = try given ?? IntentEnvironment(repository: InMemoryItemRepository())
    try await environment.prepareDefaultList()
    for name in lists {
        _ = try await CreateList(name: name).perform(in: environment)
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arrange-\(UUID())")
    let locations = Locations(database: folder.appendingPathComponent("arrange.sqlite"), userConfiguration: folder.appendingPathComponent("config.json"))
    return (CommandSession(environment: environment, settings: .defaults, locations: locations, console: transcript.console), transcript)
}

/// A fresh temporary folder, removed after `body`.
func withTemporaryFolder<Result>(_ body: (URL) async throws -> Result) async throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("arrange-\(UUID())", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try await body(folder)
}
