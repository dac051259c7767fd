import Foundation

/// The `data` of Things' `json` command, in `ThingsJSONCoder`'s format, read into objects.
///
/// `data` is an array of objects `{"type", "operation", "id", "attributes"}`: `to-do` and
/// `project` at the top; `to-do` and `heading` in a project's `items`; `checklist-item` in a
/// to-do's `checklist-items`. An attribute the object's type does not have is ignored, as
/// Things ignores it, and named among the link's ignored parameters.
struct ThingsJSON {
    /// The attributes the link ignored, as paths (`data[2].attributes.colour`).
    private(set) var ignored: [String] = []

    /// The objects of `data`, and the attributes ignored.
    ///
    /// - Throws: ``ThingsLinkError/malformedJSON`` for text that is not a JSON array of objects;
    ///   ``ThingsLinkError/invalidObject(number:reason:)`` for an object that cannot be read, by
    ///   its place among the top-level objects.
    static func objects(_ data: String) throws(ThingsLinkError) -> (objects: [ThingsObject], ignored: [String]) {
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(data.utf8), options: [.fragmentsAllowed])
        } catch {
            throw .malformedJSON
        }
        guard let array = parsed as? [Any] else { throw .malformedJSON }
        var reader = ThingsJSON()
        var objects: [ThingsObject] = []
        for (offset, element) in array.enumerated() {
            do {
                objects.append(try reader.topLevel(element, path: "data[\(offset)]"))
            } catch {
                throw .invalidObject(number: offset + 1, reason: error)
            }
        }
        return (objects, reader.ignored)
    }

    private func object(_ element: Any, path: String) throws(ThingsObjectProblem) -> Object {
        guard let dictionary = element as? [String: Any] else { throw .notAnObject }
        guard let type = dictionary["type"] as? String else { throw .missingType }
        let operation: ThingsOperation
        switch dictionary["operation"] as? String ?? "create" {
        case "create": operation = .create
        case "update":
            guard let id = dictionary["id"] as? String, !id.isEmpty else { throw .updateWithoutID }
            operation = .update(id: id)
        case let other: throw .unknownOperation(other)
        }
        let attributes = dictionary["attributes"] ?? [String: Any]()
        guard let attributes = attributes as? [String: Any] else { throw .wrongForm(attribute: "attributes", expected: .object) }
        return Object(type: type, operation: operation, attributes: attributes, path: path + ".attributes")
    }

    private mutating func topLevel(_ element: Any, path: String) throws(ThingsObjectProblem) -> ThingsObject {
        let object = try object(element, path: path)
        switch object.type {
        case "to-do": return .toDo(try toDo(object))
        case "project": return .project(try project(object))
        case "heading": throw .headingOutsideProject
        case "checklist-item": throw .checklistItemOutsideToDo
        default: throw .unknownType(object.type)
        }
    }

    private mutating func toDo(_ object: Object) throws(ThingsObjectProblem) -> ThingsToDo {
        let fields = Attributes(object, known: [
            "title", "notes", "prepend-notes", "append-notes", "when", "deadline", "tags", "add-tags", "checklist-items",
            "prepend-checklist-items", "append-checklist-items", "list-id", "list", "heading-id", "heading", "completed", "canceled",
            "creation-date", "completion-date",
        ])
        ignored += fields.ignored
        let creates = object.operation == .create
        return ThingsToDo(
            object.operation, title: try fields.text("title"), notes: try fields.text("notes"), prependNotes: try fields.text("prepend-notes"),
            appendNotes: try fields.text("append-notes"), when: try fields.nonEmptyText("when"), deadline: try fields.text("deadline"),
            tags: try fields.names("tags"), addTags: try fields.names("add-tags"),
            checklistItems: try checklist(fields, "checklist-items"), prependChecklistItems: creates ? nil : try checklist(fields, "prepend-checklist-items"),
            appendChecklistItems: creates ? nil : try checklist(fields, "append-checklist-items"),
            list: try fields.reference(id: "list-id", title: "list"), heading: try fields.reference(id: "heading-id", title: "heading"),
            completed: try fields.bool("completed"), canceled: try fields.bool("canceled"),
            creationDate: try fields.date("creation-date"), completionDate: try fields.date("completion-date"))
    }

    private mutating func project(_ object: Object) throws(ThingsObjectProblem) -> ThingsProject {
        let fields = Attributes(object, known: [
            "title", "notes", "prepend-notes", "append-notes", "when", "deadline", "tags", "add-tags", "area-id", "area", "items",
            "completed", "canceled", "creation-date", "completion-date",
        ])
        ignored += fields.ignored
        var items: [ThingsProjectItem] = []
        for (offset, element) in try fields.array("items").enumerated() {
            let item = try self.object(element, path: object.path + ".items[\(offset)]")
            switch item.type {
            case "to-do":
                guard item.operation == .create else { throw .updateInProject }
                items.append(.toDo(try toDo(item)))
            case "heading":
                let heading = Attributes(item, known: ["title", "archived"])
                ignored += heading.ignored
                guard try heading.bool("archived") != true else { throw .archivedHeading }
                items.append(.heading(ThingsHeading(title: try heading.text("title") ?? "")))
            case "checklist-item": throw .checklistItemOutsideToDo
            default: throw .unknownType(item.type)
            }
        }
        return ThingsProject(
            object.operation, title: try fields.text("title"), notes: try fields.text("notes"), prependNotes: try fields.text("prepend-notes"),
            appendNotes: try fields.text("append-notes"), when: try fields.nonEmptyText("when"), deadline: try fields.text("deadline"),
            tags: try fields.names("tags"), addTags: try fields.names("add-tags"), area: try fields.reference(id: "area-id", title: "area"),
            items: items, completed: try fields.bool("completed"), canceled: try fields.bool("canceled"),
            creationDate: try fields.date("creation-date"), completionDate: try fields.date("completion-date"))
    }

    private mutating func checklist(_ fields: Attributes, _ name: String) throws(ThingsObjectProblem) -> [ThingsChecklistItem]? {
        guard fields.has(name) else { return nil }
        var entries: [ThingsChecklistItem] = []
        for (offset, element) in try fields.array(name).enumerated() {
            let entry = try object(element, path: fields.path + ".\(name)[\(offset)]")
            guard entry.type == "checklist-item" else { throw .unknownType(entry.type) }
            let attributes = Attributes(entry, known: ["title", "completed", "canceled"])
            ignored += attributes.ignored
            entries.append(ThingsChecklistItem(
                title: try attributes.text("title") ?? "", completed: try attributes.bool("completed") ?? false,
                canceled: try attributes.bool("canceled") ?? false))
        }
        return entries
    }
}

/// One object of the JSON: its type, operation and attributes, and where it is.
private struct Object {
    var type: String
    var operation: ThingsOperation
    var attributes: [String: Any]
    /// Where its attributes are (`data[2].attributes`), for the attributes ignored.
    var path: String
}

/// The attributes of one object, read by name and form.
private struct Attributes {
    let values: [String: Any]
    let path: String
    /// The paths of the attributes the object's type does not have.
    let ignored: [String]

    init(_ object: Object, known: Set<String>) {
        values = object.attributes
        path = object.path
        ignored = object.attributes.keys.filter { !known.contains($0) }.sorted().map { object.path + "." + $0 }
    }

    func has(_ name: String) -> Bool {
        values[name] != nil && !(values[name] is NSNull)
    }

    func text(_ name: String) throws(ThingsObjectProblem) -> String? {
        guard has(name) else { return nil }
        guard let text = values[name] as? String else { throw .wrongForm(attribute: name, expected: .text) }
        return text
    }

    func nonEmptyText(_ name: String) throws(ThingsObjectProblem) -> String? {
        try text(name).flatMap { $0.isEmpty ? nil : $0 }
    }

    func bool(_ name: String) throws(ThingsObjectProblem) -> Bool? {
        guard has(name) else { return nil }
        // JSONSerialization reads `true` and `1` alike; a number other than 0 and 1 is no Boolean.
        guard let number = values[name] as? NSNumber, let bool = values[name] as? Bool, number == 0 || number == 1 else {
            throw .wrongForm(attribute: name, expected: .boolean)
        }
        return bool
    }

    func date(_ name: String) throws(ThingsObjectProblem) -> Date? {
        guard let text = try nonEmptyText(name) else { return nil }
        guard let date = ThingsDate.parse(text) else { throw .wrongForm(attribute: name, expected: .date) }
        return date
    }

    func array(_ name: String) throws(ThingsObjectProblem) -> [Any] {
        guard has(name) else { return [] }
        guard let array = values[name] as? [Any] else { throw .wrongForm(attribute: name, expected: .array) }
        return array
    }

    /// Tag names: an array of texts, as `ThingsJSONCoder` writes them, or one comma-separated text.
    func names(_ name: String) throws(ThingsObjectProblem) -> [String]? {
        guard has(name) else { return nil }
        if let text = values[name] as? String { return ThingsText.names(text) }
        guard let names = values[name] as? [String] else { throw .wrongForm(attribute: name, expected: .names) }
        return ThingsText.names(names)
    }

    func reference(id: String, title: String) throws(ThingsObjectProblem) -> ThingsReference? {
        if let id = try nonEmptyText(id) { return .id(id) }
        return try nonEmptyText(title).map(ThingsReference.title)
    }
}
