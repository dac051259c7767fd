public import ArrangeIntents
import Foundation

/// Reads one request of the JSON Lines protocol of `arrange run`.
///
/// A request is a JSON object with an `"intent"` key naming an intent of the
/// ``IntentCatalogue`` and the intent's parameters as the other keys:
///
/// ```swift
/// try RunRequest.decode(#"{"intent": "add", "title": "Milk", "placement": "top"}"#)  // AddItem
/// try RunRequest.decode(#"{"intent": "move", "fromOffsets": [0], "toOffset": 2}"#)  // MoveItemsAtOffsets
/// try RunRequest.decode(#"{"intent": "add"}"#)  // throws missingField
/// ```
public enum RunRequest {
    /// The intent a line asks for.
    ///
    /// - Throws: An ``IntentFailure`` with code `invalidJSON`, `invalidRequest`, `unknownIntent`,
    ///   `unknownField`, `missingField` or `invalidField`, and a message that says what to fix.
    public static func decode(_ line: String) throws(IntentFailure) -> any ArrangeIntent {
        let data = Data(line.utf8)
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw IntentFailure(code: "invalidJSON", message: "The line is not valid JSON; send one JSON object per line.")
        }
        guard case .object(let fields) = value else {
            throw IntentFailure(code: "invalidRequest", message: #"A request is a JSON object, like {"intent": "lists"}."#)
        }
        guard case .string(let name)? = fields["intent"] else {
            throw IntentFailure(code: "invalidRequest", message: #"A request needs "intent", a string naming what to do, like "add"."#)
        }
        let keys = Set(fields.keys).subtracting(["intent"])
        guard let intent = IntentCatalogue.intent(named: name, keys: keys) else {
            throw IntentFailure(code: "unknownIntent", message: "Unknown intent '\(name)'; the intents are \(IntentCatalogue.names.joined(separator: ", ")).")
        }
        let description = intent.description
        if let unknown = keys.sorted().first(where: { description.parameter($0) == nil }) {
            let fields = description.parameters.map(\.name)
            throw IntentFailure(
                code: "unknownField",
                message: "\(name) has no field '\(unknown)'; " + (fields.isEmpty ? "it takes none." : "its fields are \(fields.joined(separator: ", "))."))
        }
        for parameter in description.parameters {
            guard let field = fields[parameter.name], field != .null else { continue }
            guard field.fits(parameter.type) else {
                throw IntentFailure(code: "invalidField", message: "The field '\(parameter.name)' of \(name) must be \(parameter.type.jsonForm).")
            }
        }
        do {
            return try decode(intent, from: data)
        } catch let error as DecodingError {
            throw failure(for: error, in: description)
        } catch {
            throw IntentFailure(code: "invalidRequest", message: "The request cannot be read: \(error)")
        }
    }

    private static func decode<Intent: ArrangeIntent>(_ type: Intent.Type, from data: Data) throws -> Intent {
        try JSONDecoder().decode(type, from: data)
    }

    /// Names the field a decoding error is about, and what it should hold.
    private static func failure(for error: DecodingError, in description: IntentDescription) -> IntentFailure {
        let name = description.name
        func expected(_ field: String) -> String {
            description.parameter(field).map { " must be \($0.type.jsonForm)" } ?? " is not valid"
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = context.codingPath.first?.stringValue ?? key.stringValue
            if field != key.stringValue {
                return IntentFailure(code: "invalidField", message: "The field '\(field)' of \(name)\(expected(field)).")
            }
            return IntentFailure(code: "missingField", message: "\(name) needs the field '\(field)', which\(expected(field)).")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let field = context.codingPath.first?.stringValue ?? "?"
            return IntentFailure(code: "invalidField", message: "The field '\(field)' of \(name)\(expected(field)).")
        case .dataCorrupted(let context):
            let field = context.codingPath.first?.stringValue ?? "?"
            return IntentFailure(code: "invalidField", message: "The field '\(field)' of \(name)\(expected(field)): \(context.debugDescription)")
        @unknown default:
            return IntentFailure(code: "invalidRequest", message: "The request cannot be read: \(error)")
        }
    }
}

/// Any JSON value, to check a request's fields before decoding its intent.
private enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    /// Whether the value has the JSON shape of a parameter type; placements are checked when decoded.
    func fits(_ type: ParameterType) -> Bool {
        switch (type, self) {
        case (.text, .string), (.list, .string), (.item, .string), (.flag, .bool), (.placement, _): true
        case (.integer, .number(let number)): number.rounded() == number && abs(number) < 1e15
        case (.items, .array(let elements)): elements.allSatisfy { $0.fits(.item) }
        case (.integers, .array(let elements)): elements.allSatisfy { $0.fits(.integer) }
        default: false
        }
    }
}

/// Answers the lines of an `arrange run` conversation, in one session.
///
/// Each answer is one line of JSON: `{"ok":true,"result":…}` with the intent's result, or
/// `{"ok":false,"error":{"code":…,"message":…}}`.
public struct RunConversation: Sendable {
    public let environment: IntentEnvironment

    public init(environment: IntentEnvironment) {
        self.environment = environment
    }

    /// The answer to one request line, without a line break.
    public func answer(_ line: String) async -> String {
        do {
            let intent = try RunRequest.decode(line)
            let result = try await intent.perform(in: environment)
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
