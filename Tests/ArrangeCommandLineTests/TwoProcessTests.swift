import ArrangeModel
import ArrangeSQLite
import ArrangeStore
import Foundation
import Synchronization
import Testing

/// Two `arrange run` processes on one database file at once.
@Suite("Two processes on one file", .enabled(if: Executable.url != nil, "arrange is built by swift build --build-tests"))
struct TwoProcessTests {
    static let addsPerProcess = 1_000
    static let movesPerProcess = 1_000

    @Test("Two writers in one list: every item once, no shared sortIndex, no lock failure")
    func twoWriters() async throws {
        try await withTemporaryFolder { home in
            let arrange = Executable(home: home)
            let database = home.appendingPathComponent("shared.sqlite").path
            #expect(try arrange.run(["lists", "--db", database]).status == 0)
            let failures = Mutex<[String]>([])
            let added = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { writer in
                do {
                    let conversation = try Conversation(arrange, arguments: ["run", "--db", database])
                    var mine: [String] = []
                    var random = SystemRandomNumberGenerator()
                    for step in 0..<(Self.addsPerProcess + Self.movesPerProcess) {
                        let request: String
                        var title: String?
                        if step % 2 == 0 || mine.count < 2 {
                            title = "writer \(writer) item \(step)"
                            let placement = [#""top""#, #""bottom""#, #"{"offset": 1}"#][step % 3]
                            request = #"{"intent": "add", "list": "Inbox", "title": "writer \#(writer) item \#(step)", "placement": \#(placement)}"#
                        } else {
                            let (item, anchor) = (mine.randomElement(using: &random)!, mine.randomElement(using: &random)!)
                            request = item == anchor
                                ? #"{"intent": "move", "items": ["\#(item)"], "placement": "top"}"#
                                : #"{"intent": "move", "items": ["\#(item)"], "placement": {"after": "\#(anchor)"}}"#
                        }
                        let answer = try jsonObject(try conversation.send(request, timeout: 60))
                        guard answer["ok"] as? Bool == true else {
                            failures.withLock { $0.append("\(request) → \(answer)") }
                            continue
                        }
                        if let title, let id = ((answer["result"] as? [String: Any])?["items"] as? [[String: Any]])?.first?["id"] as? String {
                            mine.append(id)
                            added.withLock { $0.append(title) }
                        }
                    }
                    _ = try conversation.finish()
                } catch {
                    failures.withLock { $0.append("writer \(writer): \(error)") }
                }
            }
            #expect(failures.withLock { $0 } == [])

            let repository = try SQLiteItemRepository(path: database)
            let items = try repository.read { transaction -> [Item] in
                let inbox = try #require(try transaction.lists().first { $0.name == "Inbox" })
                return try transaction.items(in: inbox.id, visibility: .all, offset: 0, limit: .max)
            }
            let expectedTitles = added.withLock { $0 }
            #expect(expectedTitles.count >= 2 * Self.addsPerProcess)
            #expect(items.count == Set(items.map(\.id)).count)
            #expect(Set(items.map(\.title)) == Set(expectedTitles) && items.count == expectedTitles.count)
            #expect(Set(items.map(\.sortIndex)).count == items.count, "two items share a sortIndex")
            #expect(try repository.integrityProblems() == [])
        }
    }
}
