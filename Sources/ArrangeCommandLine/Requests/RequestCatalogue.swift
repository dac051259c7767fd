import ArrangeIntents
import Foundation

/// Every request form: the source of the JSON protocol's intent names, the help texts and
/// Tab completion.
///
/// ```swift
/// RequestCatalogue.form(named: "move", keys: ["items", "placement"])    // MoveRequest.self
/// RequestCatalogue.form(named: "move", keys: ["fromOffsets", "toOffset"])  // MoveAtOffsetsRequest.self
/// ```
public enum RequestCatalogue {
    /// Every form, in the order help lists them.
    public static let forms: [any RequestForm.Type] = [
        ListsRequest.self, CreateListRequest.self, MoveListRequest.self, MoveListsAtOffsetsRequest.self,
        RenameListRequest.self, DeleteListRequest.self,
        ListItemsRequest.self, ShowRequest.self, AddRequest.self, RenameRequest.self, EditRequest.self,
        CompleteRequest.self, ReopenRequest.self, DeleteRequest.self,
        MoveRequest.self, MoveAtOffsetsRequest.self,
        TodayRequest.self, AddToTodayRequest.self, RemoveFromTodayRequest.self, MoveInTodayRequest.self, MoveInTodayAtOffsetsRequest.self,
        ValidateRequest.self, NormalizeRequest.self, UndoRequest.self, RedoRequest.self,
    ]

    /// The distinct intent names, in the order of ``forms``.
    public static var names: [String] {
        var seen = Set<String>()
        return forms.map { $0.name }.filter { seen.insert($0).inserted }
    }

    /// The form a request names: among the forms with that name, the one whose
    /// ``RequestForm/selector`` is among `keys`, else the one without a selector.
    ///
    /// - Returns: `nil` when no form has the name.
    public static func form(named name: String, keys: Set<String>) -> (any RequestForm.Type)? {
        let forms = forms.filter { $0.name == name }
        return forms.first { $0.selector.map(keys.contains) ?? false } ?? forms.first { $0.selector == nil }
    }
}

/// One request of the JSON Lines protocol of `arrange run`, read and checked: a form and its fields.
///
/// A request is a JSON object with an `"intent"` key naming a form of the ``RequestCatalogue``
/// and the form's parameters as the other keys:
///
/// ```swift
/// try RunRequest(#"{"intent": "add", "title": "Milk", "placement": "top"}"#)           // AddRequest
/// try RunRequest(#"{"intent": "move", "fromOffsets": [0], "toOffset": 2}"#).form     // MoveAtOffsetsRequest
/// try RunRequest(#"{"intent": "add"}"#)                                              // throws missingField
/// ```
public struct RunRequest: Sendable {
    /// The form the request names.
    public let form: any RequestForm.Type
    /// The values of its parameters.
    public let fields: RequestFields

    /// Reads one request line.
    ///
    /// - Throws: An ``IntentFailure`` with code `invalidJSON`, `invalidRequest`, `unknownIntent`,
    ///   `unknownField`, `missingField` or `invalidField`, and a message that says what to fix.
    public init(_ line: String) throws(IntentFailure) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)) else {
            throw IntentFailure(code: "invalidJSON", message: "The line is not valid JSON; send one JSON object per line.")
        }
        guard case .object(var json) = value else {
            throw IntentFailure(code: "invalidRequest", message: #"A request is a JSON object, like {"intent": "lists"}."#)
        }
        guard case .string(let name)? = json.removeValue(forKey: "intent") else {
            throw IntentFailure(code: "invalidRequest", message: #"A request needs "intent", a string naming what to do, like "add"."#)
        }
        guard let form = RequestCatalogue.form(named: name, keys: Set(json.keys)) else {
            throw IntentFailure(code: "unknownIntent", message: "Unknown intent '\(name)'; the intents are \(RequestCatalogue.names.joined(separator: ", ")).")
        }
        if let unknown = json.keys.sorted().first(where: { form.parameter(named: $0) == nil }) {
            let names = form.parameters.map(\.name)
            throw IntentFailure(
                code: "unknownField",
                message: "\(name) has no field '\(unknown)'; " + (names.isEmpty ? "it takes none." : "its fields are \(names.joined(separator: ", "))."))
        }
        var fields = RequestFields()
        for parameter in form.parameters {
            guard let field = json[parameter.name] else {
                guard !parameter.isRequired else {
                    throw .missingField(parameter, in: name)
                }
                continue
            }
            guard field != .null else {
                guard !parameter.isRequired else {
                    throw IntentFailure(code: "invalidField", message: "The field '\(parameter.name)' of \(name) must be \(parameter.jsonForm).")
                }
                continue
            }
            switch Result(catching: { () throws(RequestValueError) in try parameter.decodeValue(from: field) }) {
            case .success(let value):
                fields.setValue(value, forParameterNamed: parameter.name)
            case .failure(.wrongType):
                throw IntentFailure(code: "invalidField", message: "The field '\(parameter.name)' of \(name) must be \(parameter.jsonForm).")
            case .failure(.invalid(let reason)):
                throw IntentFailure(code: "invalidField", message: "The field '\(parameter.name)' of \(name) must be \(parameter.jsonForm): \(reason)")
            }
        }
        self.form = form
        self.fields = fields
    }
}
