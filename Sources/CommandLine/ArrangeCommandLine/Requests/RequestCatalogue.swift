import ArrangeIntents
import Foundation

/// Every request: the source of the JSON protocol's intent names, the help texts and
/// Tab completion.
///
/// ```swift
/// RequestCatalogue.request(named: "move", keys: ["items", "placement"])    // MoveRequest.self
/// RequestCatalogue.request(named: "move", keys: ["fromOffsets", "toOffset"])  // MoveAtOffsetsRequest.self
/// ```
public enum RequestCatalogue {
    /// Every request, in the order help lists them: each file of requests lists its own.
    public static let requests: [any Request.Type] =
        listRequests + areaRequests + headingRequests + itemRequests + moveRequests + dateRequests + todayRequests + dateViewRequests
        + logbookRequests + checklistRequests + maintenanceRequests

    /// The distinct intent names, in the order of ``requests``.
    public static var names: [String] {
        var seen = Set<String>()
        return requests.map { $0.name }.filter { seen.insert($0).inserted }
    }

    /// What an answer says of an intent name that is none of ``names``: the names that start
    /// like it, or that it is part of, and where every name is listed.
    static func unknownIntentMessage(_ name: String) -> String {
        let key = name.lowercased()
        let close = names.filter { known in
            let lowered = known.lowercased()
            return !key.isEmpty && (lowered.hasPrefix(String(key.prefix(3))) || lowered.contains(key))
        }
        let suggestion = close.isEmpty ? "" : " Did you mean \(close.prefix(4).map { "'\($0)'" }.joined(separator: ", "))?"
        return "Unknown intent '\(name)'.\(suggestion) `arrange run --help` lists every intent."
    }

    /// The request a JSON line names: among the requests with that name, the one whose
    /// ``Request/selector`` is among `keys`, else the one without a selector.
    ///
    /// - Returns: `nil` when no request has the name.
    public static func request(named name: String, keys: Set<String>) -> (any Request.Type)? {
        let requests = requests.filter { $0.name == name }
        return requests.first { $0.selector.map(keys.contains) ?? false } ?? requests.first { $0.selector == nil }
    }
}

/// One request of the JSON Lines protocol of `arrange run`, read and checked.
///
/// A request is a JSON object with an `"intent"` key naming a request of the
/// ``RequestCatalogue`` and the request's fields as the other keys:
///
/// ```swift
/// try RunRequest(#"{"intent": "add", "title": "Milk", "placement": "top"}"#).request     // AddRequest
/// try RunRequest(#"{"intent": "move", "fromOffsets": [0], "toOffset": 2}"#).request  // MoveAtOffsetsRequest
/// try RunRequest(#"{"intent": "add"}"#)                                              // throws missingField
/// ```
public struct RunRequest: Sendable {
    /// The request the line asks for.
    public let request: any Request

    /// Reads one request line.
    ///
    /// - Throws: An ``IntentFailure`` with code `invalidJSON`, `invalidRequest`, `unknownIntent`,
    ///   `unknownField`, `missingField` or `invalidField`, and a message that says what to fix.
    public init(_ line: String) throws(IntentFailure) {
        let data = Data(line.utf8)
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw IntentFailure(code: "invalidJSON", message: "The line is not valid JSON; send one JSON object per line.")
        }
        guard case .object(var json) = value else {
            throw IntentFailure(code: "invalidRequest", message: #"A request is a JSON object, like {"intent": "lists"}."#)
        }
        guard case .string(let name)? = json.removeValue(forKey: "intent") else {
            throw IntentFailure(code: "invalidRequest", message: #"A request needs "intent", a string naming what to do, like "add"."#)
        }
        guard let type = RequestCatalogue.request(named: name, keys: Set(json.keys)) else {
            throw IntentFailure(code: "unknownIntent", message: RequestCatalogue.unknownIntentMessage(name))
        }
        let fields = type.fields
        if let unknown = json.keys.sorted().first(where: { key in !fields.contains { $0.name == key } }) {
            let names = fields.map(\.name)
            throw IntentFailure(
                code: "unknownField",
                message: "\(name) has no field '\(unknown)'; " + (names.isEmpty ? "it takes none." : "its fields are \(names.joined(separator: ", "))."))
        }
        if let missing = fields.first(where: { $0.isRequired && json[$0.name] == nil }) {
            throw .missingField(missing, in: name)
        }
        do {
            request = try JSONDecoder().decode(type, from: data)
        } catch {
            // Which field failed, told by decoding each alone: the decoder's own account of a
            // number that does not fit names no field.
            throw fields.lazy.compactMap { field in json[field.name].flatMap { field.failure(decoding: $0, in: name) } }.first
                ?? IntentFailure(code: "invalidRequest", message: "The request cannot be read as \(name): \(error.localizedDescription)")
        }
    }
}

extension RequestField {
    /// Why `value` does not fit the field, or `nil` when it does; `null` fits a field a request
    /// may leave out.
    ///
    /// - Parameters:
    ///   - value: The field's value in the request line.
    ///   - request: The request's name, for the message.
    func failure(decoding value: JSONValue, in request: String) -> IntentFailure? {
        func decode<Value: RequestValue>(_ type: Value.Type) throws {
            _ = try JSONDecoder().decode(Value.self, from: JSONEncoder().encode(value))
        }
        if value == .null, !isRequired { return nil }
        let failure = "The field '\(name)' of \(request) must be \(jsonForm)"
        do {
            try decode(valueType)
            return nil
        } catch DecodingError.dataCorrupted(let context) {
            guard case .invalid(let reason)? = context.underlyingError as? RequestValueError else { return .invalidField(failure + ".") }
            return .invalidField(failure + ": " + reason)
        } catch {
            return .invalidField(failure + ".")
        }
    }
}

extension IntentFailure {
    /// A request that leaves out a field it must give.
    ///
    /// - Parameter request: What needs the field: the request's name.
    static func missingField(_ field: RequestField, in request: String) -> IntentFailure {
        IntentFailure(code: "missingField", message: "\(request) needs the field '\(field.name)', which must be \(field.jsonForm).")
    }

    /// A field whose value does not fit.
    static func invalidField(_ message: String) -> IntentFailure {
        IntentFailure(code: "invalidField", message: message)
    }
}
