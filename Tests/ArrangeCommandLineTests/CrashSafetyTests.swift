import ArrangeModel
import ArrangeOrdering
import ArrangeSQLite
import ArrangeStore
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `arrange run` killed with SIGKILL at random moments: nothing answered is lost, nothing
/// unanswered is half-applied, and the file stays sound.
@Suite("Crash safety", .serialized, .enabled(if: Executable.url != nil, "arrange is built by swift build --build-tests"))
struct CrashSafetyTests {
    /// One item as the test tracks it.
    struct Entry: Equatable {
        var id: String
        var title: String
    }

    /// A request whose effect on the list the test can predict.
    enum Change {
        case add(title: String, at: Int, placement: String)
        case move(Entry, to: Int, placement: String)
        case delete(Entry)

        var request: String {
            switch self {
            case .add(let title, _, let placement): #"{"intent": "add", "list": "Inbox", "title": "\#(title)", "placement": \#(placement)}"#
            case .move(let entry, _, let placement): #"{"intent": "move", "items": ["\#(entry.id)"], "placement": \#(placement)}"#
            case .delete(let entry): #"{"intent": "delete", "items": ["\#(entry.id)"]}"#
            }
        }

        /// The list after this change, for the titles (ids of new items are not known yet).
        func applied(to titles: [String]) -> [String] {
            var titles = titles
            switch self {
            case .add(let title, let index, _):
                titles.insert(title, at: index)
            case .move(let entry, let index, _):
                titles.removeAll { $0 == entry.title }
                titles.insert(entry.title, at: index)
            case .delete(let entry):
                titles.removeAll { $0 == entry.title }
            }
            return titles
        }
    }

    /// A random change to `list`; adds and moves favour one spot, so that gaps fill and re-spread.
    static func randomChange(_ list: [Entry], number: Int, using random: inout SeededRandomNumberGenerator) -> Change {
        let roll = Int.random(in: 0..<10, using: &random)
        if list.count < 3 || roll < 5 {
            let title = "item \(number)"
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return .add(title: title, at: 0, placement: #""top""#)
            case 1: return .add(title: title, at: list.count, placement: #""bottom""#)
            case 2 where list.count >= 2: return .add(title: title, at: 2, placement: #"{"after": "\#(list[1].id)"}"#)
            default:
                let offset = Int.random(in: 0...list.count, using: &random)
                return .add(title: title, at: offset, placement: #"{"offset": \#(offset)}"#)
            }
        }
        let entry = list[Int.random(in: 0..<list.count, using: &random)]
        if roll < 9 {
            let rest = list.filter { $0 != entry }
            let anchor = Int.random(in: 0..<rest.count, using: &random)
            return .move(entry, to: anchor + 1, placement: #"{"after": "\#(rest[anchor].id)"}"#)
        }
        return .delete(entry)
    }

    @Test("SIGKILL at 24 random moments loses no answered change and half-applies none")
    func killedAtRandom() async throws {
        try await withTemporaryFolder { home in
            let arrange = Executable(home: home)
            let database = home.appendingPathComponent("crash.sqlite").path
            // A tiny end gap: gaps fill after a few inserts, so many changes re-spread a window.
            let environment = ["ARRANGE_END_GAP": "16"]
            var random = SeededRandomNumberGenerator(seed: 2_026_11_22)
            var list: [Entry] = []
            var number = 0
            var respreads = 0
            for round in 0..<24 {
                let conversation = try Conversation(arrange, arguments: ["run", "--db", database], environment: environment)
                for _ in 0..<Int.random(in: 5...30, using: &random) {
                    number += 1
                    let change = Self.randomChange(list, number: number, using: &random)
                    let answer = try jsonObject(try conversation.send(change.request))
                    #expect(answer["ok"] as? Bool == true, "round \(round): \(change.request) → \(answer)")
                    if let result = answer["result"] as? [String: Any], let written = result["rowsWritten"] as? Int, written > 1 { respreads += 1 }
                    list = try Self.entries(try conversation.send(#"{"intent": "list", "list": "Inbox", "includeCompleted": true}"#))
                }
                // One more change in flight, then the kill, a few hundred microseconds later or at once.
                number += 1
                let inFlight = Self.randomChange(list, number: number, using: &random)
                try conversation.sendWithoutWaiting(inFlight.request)
                usleep(UInt32.random(in: 0...1_500, using: &random))
                kill(conversation.process.processIdentifier, SIGKILL)
                conversation.process.waitUntilExit()
                #expect(conversation.process.terminationReason == .uncaughtSignal)

                let survived = try Self.check(database, arrange: arrange, environment: environment)
                let before = list.map(\.title), after = inFlight.applied(to: before)
                #expect(survived.map(\.title) == before || survived.map(\.title) == after,
                        "round \(round): after the kill during \(inFlight.request) the list is neither the answered one nor the answered one with that change")
                list = survived
            }
            #expect(respreads > 0, "the changes should have re-spread windows")
        }
    }

    @Test("SIGKILL during sync import and sync PEER leaves each file as it was or fully merged; syncing again converges")
    func syncKilledAtRandom() async throws {
        try await withTemporaryFolder { home in
            let arrange = Executable(home: home)
            let path = { (name: String) in home.appendingPathComponent(name).path }
            // Two databases edited apart: 300 changes on one, 30 on the other, which a merge
            // takes back and applies again after the first's operations.
            for (database, count) in [("here.sqlite", 300), ("there.sqlite", 30)] {
                let conversation = try Conversation(arrange, arguments: ["run", "--db", path(database)])
                for number in 0..<count {
                    let placement = [#""top""#, #""bottom""#, #"{"offset": 1}"#][number % 3]
                    let answer = try conversation.send(#"{"intent": "add", "list": "Inbox", "title": "\#(database) \#(number)", "placement": \#(placement)}"#)
                    #expect(try jsonObject(answer)["ok"] as? Bool == true, "\(answer)")
                }
                #expect(try conversation.finish() == 0)
            }
            // Both sync: an export logs what each holds, so that every copy merges the same operations.
            let operations = path("ops.jsonl")
            #expect(try arrange.run(["sync", "export", path("there-ops.jsonl"), "--db", path("there.sqlite")]).status == 0)
            #expect(try arrange.run(["sync", "export", operations, "--db", path("here.sqlite")]).status == 0)
            let exported = { (database: String) in try arrange.run(["export", "--db", database]).output }
            let untouched = try exported(path("there.sqlite"))

            // What a merge that is not interrupted gives.
            try Self.copyDatabase(path("there.sqlite"), to: path("reference.sqlite"))
            let started = Date()
            #expect(try arrange.run(["sync", "import", operations, "--db", path("reference.sqlite")]).status == 0)
            let microseconds = UInt32(Date().timeIntervalSince(started) * 1_000_000)
            // Most of a run is starting up and reading: the kills aim after the time a run that
            // only reads takes, so that they land in the merge.
            let reading = Date()
            #expect(try arrange.run(["lists", "--db", path("reference.sqlite")]).status == 0)
            let startup = min(microseconds, UInt32(Date().timeIntervalSince(reading) * 1_000_000))
            let merged = try exported(path("reference.sqlite"))
            #expect(merged != untouched)

            var random = SeededRandomNumberGenerator(seed: 2_026_11_23)
            var interrupted = 0
            for round in 0..<16 {
                let victim = path("victim\(round).sqlite"), peer = path("peer\(round).sqlite")
                try Self.copyDatabase(path("there.sqlite"), to: victim)
                try Self.copyDatabase(path("here.sqlite"), to: peer)
                let arguments = round % 2 == 0 ? ["sync", "import", operations, "--db", victim] : ["sync", peer, "--db", victim]
                let process = Process()
                guard let url = Executable.url else { throw Missing.executable }
                process.executableURL = url
                process.arguments = arguments
                process.environment = arrange.environment()
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                usleep(UInt32.random(in: startup...microseconds, using: &random))
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                if process.terminationReason == .uncaughtSignal { interrupted += 1 }

                for database in [victim, peer] {
                    #expect(try SQLiteItemRepository(path: database).integrityProblems() == [], "round \(round): \(database)")
                }
                let state = try exported(victim)
                #expect(state == untouched || state == merged, "round \(round): \(arguments.joined(separator: " ")) was half applied")
                // Run again to the end, the two sides are one.
                #expect(try arrange.run(arguments).status == 0, "round \(round)")
                #expect(try exported(victim) == merged, "round \(round): the merge run again differs from one that was not interrupted")
                if round % 2 == 1 { #expect(try exported(peer) == merged, "round \(round): the peer") }
            }
            #expect(interrupted > 4, "most kills should land while the merge runs, not after it")
        }
    }

    /// Copies a database file, and its write-ahead log when there is one.
    static func copyDatabase(_ source: String, to destination: String) throws {
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: destination + suffix)
        }
    }

    /// The items of a `list` answer, in order.
    static func entries(_ answer: String) throws -> [Entry] {
        let object = try jsonObject(answer)
        let items = try #require((object["result"] as? [String: Any])?["items"] as? [[String: Any]], "\(answer)")
        return items.compactMap { item in
            guard let id = item["id"] as? String, let title = item["title"] as? String else { return nil }
            return Entry(id: id, title: title)
        }
    }

    /// Opens the file as a new process would and checks it; returns the list as stored.
    static func check(_ database: String, arrange: Executable, environment: [String: String]) throws -> [Entry] {
        let repository = try SQLiteItemRepository(path: database)
        #expect(try repository.integrityProblems() == [])
        let stored = try repository.read { transaction -> [Item] in
            let inbox = try #require(try transaction.lists().first { $0.name == "Inbox" })
            return try transaction.items(in: inbox.id, visibility: .openAndCompleted, offset: 0, limit: .max)
        }
        let keys = stored.map(\.sortIndex)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 }, "sortIndex must rise strictly")
        let validation = try arrange.run(["validate", "--list", "Inbox", "--db", database, "--json"], environment: environment)
        #expect(validation.status == 0, "\(validation.error)")
        #expect(try jsonObject(validation.output)["healthy"] as? Bool == true, "validate found something to repair: \(validation.output)")
        return stored.map { Entry(id: $0.id.text, title: $0.title) }
    }
}
