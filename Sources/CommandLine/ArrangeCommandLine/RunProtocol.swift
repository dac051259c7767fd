import ArrangeIntents
import Foundation

/// Answers the lines of an `arrange run` conversation, in one session.
///
/// Each answer is one line of JSON: `{"ok":true,"result":…}` with the intent's result, or
/// `{"ok":false,"error":{"code":…,"message":…}}`.
public struct RunConversation: Sendable {
    public let session: CommandSession

    public init(session: CommandSession) {
        self.session = session
    }

    /// The answer to one request line, without a line break.
    public func answer(_ line: String) async -> String {
        do {
            let result = try await RunRequest(line).request.performForEncoding(in: session)
            return #"{"ok":true,"result":"# + (try JSONLine.encode(result)) + "}"
        } catch {
            return Self.errorAnswer(IntentFailure(error))
        }
    }

    static func errorAnswer(_ failure: IntentFailure) -> String {
        // An IntentFailure always encodes; the fallback only keeps the line valid JSON.
        let error = (try? JSONLine.encode(failure)) ?? #"{"code":"internal","message":"The error cannot be described."}"#
        return #"{"ok":false,"error":"# + error + "}"
    }

    /// Answers every line of `input`, handing each answer to `write` as soon as it is ready.
    /// Blank lines are skipped.
    ///
    /// - Throws: What `input` throws when it cannot be read.
    public func run(_ input: () throws -> String?, write: (String) -> Void) async throws {
        try await run(lines: { try input().map { .success($0) } }, write: write)
    }

    /// Answers every line of `input`, as ``run(_:write:)`` does; a line that could not be
    /// read as text (it is not UTF-8) comes as a failure and is answered with it.
    public func run(lines input: () throws -> Result<String, IntentFailure>?, write: (String) -> Void) async throws {
        while let line = try input() {
            switch line {
            case .success(let line):
                guard line.contains(where: { !$0.isWhitespace }) else { continue }
                write(await answer(line))
            case .failure(let failure):
                write(Self.errorAnswer(failure))
            }
        }
    }
}
