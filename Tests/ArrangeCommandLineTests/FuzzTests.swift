import ArrangeCommandLine
import ArrangeIntents
import ArrangeModel
import ArrangeOrdering
import Foundation
import Testing

/// Random input for a fixed budget: the run decoder and the REPL must answer every line,
/// never crash, and leave the session working.
@Suite("Fuzzing the run decoder and the REPL")
struct FuzzTests {
    static let budget = 2_000
    /// Each REPL line goes through the whole argument parser, which is slow in a debug build.
    static let replBudget = 250

    @Test("Random byte strings give an intent or a known error from the run decoder")
    func randomBytes() {
        var random = SeededRandomNumberGenerator(seed: 11)
        let codes: Set = ["invalidJSON", "invalidRequest", "unknownIntent", "unknownField", "missingField", "invalidField"]
        for _ in 0..<Self.budget {
            let bytes = (0..<Int.random(in: 0...80, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            let line = String(decoding: bytes, as: UTF8.self)
            do throws(IntentFailure) {
                _ = try RunRequest(line)
                Issue.record("random bytes decoded to an intent: \(bytes)")
            } catch {
                #expect(codes.contains(error.code), "\(bytes) → \(error.code)")
            }
        }
    }

    @Test("Well-formed but wrong requests run without crashing, each answered with one line of JSON")
    func wrongRequests() async throws {
        let (session, _) = try await makeSession(lists: ["Work"])
        let conversation = RunConversation(session: session)
        var random = SeededRandomNumberGenerator(seed: 12)
        let values = [
            ##""#1""##, ##""#0""##, ##""#-3""##, "-1", "0", "1", "99", "2147483648", "9223372036854775807", "-9223372036854775808",
            "1e309", "0.5", "true", "null", ##""""##, ##""abcd""##, ##""Work""##, ##""top""##, ##"{"offset": -2}"##, ##"{"after": "#1"}"##,
            ##"{"before": 7}"##, "[]", ##"["#1", "#1"]"##, "[-1, 0]", "[0, 99]", ##"["\u0000"]"##, ##""\u202e\u0007""##, "{}",
        ]
        for _ in 0..<Self.budget {
            let intent = RequestCatalogue.names.randomElement(using: &random)!
            let fields = ["title", "name", "list", "item", "items", "placement", "fromOffsets", "toOffset", "includeCompleted", "repair", "from", "newName"]
            let chosen = fields.shuffled(using: &random).prefix(Int.random(in: 0...3, using: &random))
            let body = chosen.map { #""\#($0)": \#(values.randomElement(using: &random)!)"# }
            let line = #"{"intent": "\#(intent)""# + body.map { ", " + $0 }.joined() + "}"
            let answer = await conversation.answer(line)
            #expect(!answer.contains("\n"))
            #expect((try? JSONSerialization.jsonObject(with: Data(answer.utf8))) != nil, "\(line) → \(answer)")
        }
        // The session still works after all that.
        let last = await conversation.answer(#"{"intent": "add", "title": "still here"}"#)
        #expect(last.hasPrefix(#"{"ok":true"#), "\(last)")
    }

    @Test("Random REPL lines are parsed and answered without ending the loop")
    func replLines() async throws {
        let (session, _) = try await makeSession(lists: ["Work"])
        let repl = Repl(session: session)
        var random = SeededRandomNumberGenerator(seed: 13)
        let words = RequestCatalogue.names + ["add", "move", "list", "use", "help", "--top", "--after", "--offset", "--from-offsets", "--to-offset",
                                             "--list", "--json", "#1", "#0", "'#2'", "abcd", "'", "\"", "\\", "-1", "99", "Work", "'a b", "\"x\\\"", "--", "-"]
        for _ in 0..<Self.replBudget {
            let line = (0..<Int.random(in: 0...6, using: &random)).map { _ in
                Int.random(in: 0..<5, using: &random) == 0
                    ? String(decoding: (0..<Int.random(in: 1...6, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }, as: UTF8.self)
                    : words.randomElement(using: &random)!
            }.joined(separator: " ")
            guard !["quit", "exit"].contains(line.split(separator: " ").first.map(String.init)) else { continue }
            #expect(await repl.handle(line) == .proceed, "\(line)")
        }
        #expect(await repl.handle("quit") == .quit)
    }
}
