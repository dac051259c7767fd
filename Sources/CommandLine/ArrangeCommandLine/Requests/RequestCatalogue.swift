import ArgumentParser
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
        listRequests + areaRequests + tagRequests + headingRequests + itemRequests + moveRequests + dateRequests + reminderRequests + repeatRequests
        + todayRequests
        + dateViewRequests
        + logbookRequests + trashRequests + searchRequests + checklistRequests + maintenanceRequests + linkRequests

    /// The subcommands of `arrange` that make requests, in the order help lists them: each file
    /// of requests lists its own.
    static let commands: [any ParsableCommand.Type] =
        listCommands + areaCommands + tagCommands + headingCommands + itemCommands + moveCommands + dateCommands + reminderCommands + repeatCommands
        + todayCommands
        + dateViewCommands
        + logbookCommands + trashCommands + searchCommands + checklistCommands + maintenanceCommands + linkCommands

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
    ///   `unknownField`, `missingField` or `invalidField`, or that of a malformed reference
    ///   (`invalidReference`, `prefixTooShort`), and a message that says what to fix.
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
        request = try type.read(data, keys: json.keys)
    }
}
