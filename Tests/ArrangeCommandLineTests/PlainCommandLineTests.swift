import ArgumentParser
@testable import ArrangeCommandLine
import ArrangeModel
import Foundation
import Testing

/// The plain command line against ArgumentParser: whatever it reads, ArgumentParser reads the
/// same way, and whatever is not plain it leaves alone.
@Suite("The plain command line")
struct PlainCommandLineTests {
    static let budget = 1_000

    /// The command ArgumentParser makes of `arguments`, described, or `nil` when it refuses them.
    static func parsed(_ arguments: [String]) -> String? {
        (try? Arrange.parseAsRoot(arguments)).map { String(describing: $0) }
    }

    /// How ArgumentParser refuses `arguments`: its exit status and message; `nil` when it reads them.
    static func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try Arrange.parseAsRoot(arguments)
            return nil
        } catch {
            return "\(Arrange.exitCode(for: error).rawValue): \(Arrange.message(for: error))"
        }
    }

    /// How the plain command line refuses a malformed reference, as ``refusal(_:)`` tells it.
    static func refusal(_ error: ReferenceError) -> String {
        "\(ExitCode.refused.rawValue): \(error.localizedDescription)"
    }

    static func plain(_ arguments: [String]) throws(ReferenceError) -> String? {
        try PlainCommandLine.command(from: arguments).map { String(describing: $0) }
    }

    @Test("Random command lines: a plain one reads as ArgumentParser reads it")
    func differential() {
        var random = SeededRandomNumberGenerator(seed: 23)
        // Words that are item references as well as titles and list names: a malformed reference
        // is refused as the command line is parsed.
        let words = ["Buy", "milk", "#1", "#2", "3f2a", "help", "list", "", "7", "a b", "#3", "abcd"]
        let values = ["Groceries", "#2", "3f2a", "7", "-1", "0", "", "abc", "99999999999999999999", "help", "--json"]
        let others = ["--", "-", "-h", "--help", "--version", "--nope", "--json=true", "--db=f", "-x", "--no-json", "--from-offsets", "--to-offset", "--all"]
        var read = 0
        for _ in 0..<Self.budget {
            let command = PlainCommandLine.commands.randomElement(using: &random)!
            let flags = command.plainFlags.union(SharedOptions.plainFlags).sorted()
            let options = command.plainOptions.union(SharedOptions.plainOptions).sorted()
            var arguments = [command.configuration.commandName!]
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                switch Int.random(in: 0..<20, using: &random) {
                case 0..<7: arguments.append(words.randomElement(using: &random)!)
                case 7..<11: arguments.append("--" + flags.randomElement(using: &random)!)
                case 11..<18:
                    arguments.append("--" + options.randomElement(using: &random)!)
                    if Int.random(in: 0..<8, using: &random) > 0 { arguments.append(values.randomElement(using: &random)!) }
                default: arguments.append(others.randomElement(using: &random)!)
                }
            }
            let plain: String?
            do {
                plain = try Self.plain(arguments)
            } catch {
                // A malformed reference: ArgumentParser refuses it too, with the same error.
                #expect(Self.refusal(arguments) == Self.refusal(error), "\(arguments)")
                continue
            }
            guard let plain else { continue }
            read += 1
            #expect(Self.parsed(arguments) == plain, "\(arguments)")
        }
        // The generator is meant to make plain command lines often; if none were read, the
        // comparison above compared nothing.
        #expect(read > Self.budget / 10, "only \(read) plain command lines of \(Self.budget)")
    }

    @Test("The command lines scripts run are read plainly, and as ArgumentParser reads them", arguments: [
        ["list", "--json", "--db", "items.sqlite"],
        ["list", "Groceries", "--all"],
        ["lists", "--json"],
        ["add", "Buy", "oat", "milk", "--list", "Groceries", "--after", "#2", "--today"],
        ["add", "Call", "mum", "--top", "--end-gap", "1024", "--no-jitter"],
        ["show", "3f2a", "--list", "Groceries"],
        ["rename", "#2", "Buy", "oat", "milk"],
        ["edit", "#2", "--notes", "Oat, not soy"],
        ["complete", "#1", "#3"],
        ["reopen", "3f2a"],
        ["delete", "#4", "--list", "Groceries", "--json"],
        ["move", "#2", "--after", "#1"],
        ["move", "#2", "#3", "--into", "Groceries"],
        ["move", "#2", "--offset", "0", "--from", "Inbox"],
    ])
    func plainLines(arguments: [String]) throws {
        let plain = try Self.plain(arguments)
        #expect(plain != nil)
        #expect(plain == Self.parsed(arguments))
    }

    @Test("Help, errors and every other shape are left to ArgumentParser", arguments: [
        ["list", "--help"],
        ["add", "-h"],
        ["add"],
        ["add", "--", "-1"],
        ["add", "Milk", "--notes=oat"],
        ["add", "Milk", "--top", "--bottom"],
        ["add", "Milk", "--offset", "many"],
        ["list", "Groceries", "--list", "Work"],
        ["list", "--all", "--include-completed"],
        ["list", "--json", "--json"],
        ["move", "--from-offsets", "0", "--to-offset", "2"],
        ["move", "#2", "--into", "Work", "--list", "Home"],
        ["rename", "#2"],
        ["today"],
        ["--version"],
        [],
    ])
    func otherLines(arguments: [String]) throws {
        #expect(try PlainCommandLine.command(from: arguments) == nil)
    }

    @Test("A plain command line with a malformed reference is refused as ArgumentParser refuses it", arguments: [
        ["move", "#x", "--top"], ["show", "zzzz"], ["complete", "#1", "abc"], ["add", "Milk", "--after", "#"],
    ])
    func malformedReference(arguments: [String]) {
        let error = #expect(throws: ReferenceError.self) { try Self.plain(arguments) }
        #expect(error.map(Self.refusal) == Self.refusal(arguments))
    }
}
