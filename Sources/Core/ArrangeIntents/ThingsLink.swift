public import Foundation

/// A link of Things' URL scheme (`things:///add?title=Milk`), read into what it asks for.
///
/// Arrange reads the links that Things documents ("Things URL Scheme", version 2), with the
/// scheme `things` or `arrange`, so that automation written for Things runs on Arrange. An app
/// that registers a scheme of its own hands the links it is opened with to
/// ``init(_:)-(URL)`` and performs them with ``OpenThingsLink``:
///
/// ```swift
/// let link = try ThingsLink(url)
/// let answer = try await OpenThingsLink(link).perform(in: environment)
/// if let callback = link.successURL { open(answer.filling(callback)) }
/// ```
///
/// Values are percent-decoded as `URLComponents` decodes them, so a raw `+` stays a plus sign.
/// Parameters that Things ignores or that Arrange has no use for (`reveal`,
/// `show-quick-entry`, `use-clipboard`, `x-source`) are accepted and ignored; any other
/// unknown parameter is ignored too, as Things ignores it, and named in
/// ``ignoredParameters``.
public struct ThingsLink: Hashable, Sendable {
    /// A command of the scheme.
    public enum Command: String, Hashable, Sendable, CaseIterable {
        case add
        case addProject = "add-project"
        case update
        case updateProject = "update-project"
        case json
        case show
        case search
        case version
    }

    /// What a link asks for.
    public enum Request: Hashable, Sendable {
        /// To create or update these to-dos and projects, with the store's token when any updates.
        case change([ThingsObject], authToken: String?)
        /// To show a view, a list or a to-do.
        case show(ThingsShowTarget, filter: [String])
        /// To search for the query, as Quick Find does.
        case search(String)
        /// To tell the versions of the scheme and of Arrange.
        case version
    }

    /// The schemes read, with the same grammar.
    public static let schemes = ["things", "arrange"]
    /// The version of Things' scheme that Arrange speaks.
    public static let schemeVersion = "2"
    /// The most objects one link may create or update: to-dos, projects, headings and
    /// checklist entries together.
    public static let maximumObjects = 250
    /// The most characters a to-do's notes may hold, as Things has it; Arrange's limit of
    /// `Item.maximumNotesSize` bytes holds as well.
    public static let maximumNotesLength = 10_000

    /// The command.
    public var command: Command
    /// What it asks for.
    public var request: Request
    /// The `x-success` callback: where the answer goes, filled in by ``ThingsLinkAnswer/filling(_:)``.
    public var successURL: URL?
    /// The `x-error` callback: where a failure goes, filled in by ``ThingsLinkError/filling(_:)``.
    public var errorURL: URL?
    /// The names of the parameters ignored because the command has no such parameter.
    public var ignoredParameters: [String]

    /// Reads the link `text`.
    ///
    /// - Throws: ``ThingsLinkError`` for text that is not such a link, an unknown command, a
    ///   repeated parameter, a value of the wrong form, or more than ``maximumObjects`` objects.
    public init(_ text: String) throws(ThingsLinkError) {
        // Links typed by hand hold spaces, quotes and braces as they are: they are encoded first,
        // as Apple's platforms encode them, the same on every platform.
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let components = URLComponents(string: text, encodingInvalidCharacters: true) else { throw .malformedLink }
        try self.init(components)
    }

    /// Reads the link `url`.
    ///
    /// - Throws: ``ThingsLinkError``, as ``init(_:)-(String)``.
    public init(_ url: URL) throws(ThingsLinkError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { throw .malformedLink }
        try self.init(components)
    }

    private init(_ components: URLComponents) throws(ThingsLinkError) {
        guard let scheme = components.scheme?.lowercased(), !scheme.isEmpty else { throw .malformedLink }
        guard Self.schemes.contains(scheme) else { throw .unknownScheme(scheme) }
        let name = [components.host ?? "", components.path].joined().trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        guard let command = Command(rawValue: name) else { throw .unknownCommand(name) }
        var parameters = ThingsParameters(command: command)
        for item in components.queryItems ?? [] {
            try parameters.add(item.name, item.value ?? "")
        }
        self.command = command
        self.successURL = try parameters.callback("x-success")
        self.errorURL = try parameters.callback("x-error")
        self.request = try parameters.request()
        self.ignoredParameters = parameters.ignored
        if case .change(let objects, _) = request {
            let count = objects.reduce(0) { $0 + $1.objectCount }
            guard count <= Self.maximumObjects else { throw .tooManyObjects(count) }
        }
    }
}

/// What a `show` link shows.
public enum ThingsShowTarget: Hashable, Sendable {
    /// One of Things' lists, by its id in the scheme.
    case builtIn(ThingsBuiltInList)
    /// A to-do or a list, by id.
    case id(String)
    /// A list, an area, a tag or a built-in list, by its name: what Quick Find finds otherwise.
    case query(String)
}

/// The lists of Things' sidebar that a `show` link names by id.
public enum ThingsBuiltInList: String, Hashable, Sendable, CaseIterable, Codable {
    case inbox, today, anytime, upcoming, someday, logbook, trash
}

/// A link's parameters as they are read: each once, known to its command or noted as ignored.
private struct ThingsParameters {
    let command: ThingsLink.Command
    var values: [String: String] = [:]
    var ignored: [String] = []

    /// Parameters every command takes and Arrange has no use for.
    static let accepted: Set<String> = ["reveal", "show-quick-entry", "use-clipboard", "x-source", "x-cancel"]
    static let toDoParameters: Set<String> = [
        "title", "notes", "when", "deadline", "tags", "checklist-items", "list-id", "list", "heading-id", "heading",
        "completed", "canceled", "creation-date", "completion-date",
    ]
    static let updates: Set<String> = ["id", "auth-token", "prepend-notes", "append-notes", "add-tags", "duplicate"]

    /// The parameters `command` reads, besides the callbacks.
    var known: Set<String> {
        switch command {
        case .add: Self.toDoParameters.union(["titles"])
        case .addProject: ["title", "notes", "when", "deadline", "tags", "area-id", "area", "to-dos", "completed", "canceled", "creation-date", "completion-date"]
        case .update: Self.toDoParameters.union(Self.updates).union(["prepend-checklist-items", "append-checklist-items"])
        case .updateProject:
            Set(["title", "notes", "when", "deadline", "tags", "area-id", "area", "completed", "canceled", "creation-date", "completion-date"]).union(Self.updates)
        case .json: ["data", "auth-token"]
        case .show: ["id", "query", "filter"]
        case .search: ["query"]
        case .version: []
        }
    }

    mutating func add(_ name: String, _ value: String) throws(ThingsLinkError) {
        guard values[name] == nil else { throw .repeatedParameter(name) }
        values[name] = value
        if !known.contains(name), !Self.accepted.contains(name), !["x-success", "x-error"].contains(name) { ignored.append(name) }
    }

    /// The value of `name`, when the command knows it and the link gives it.
    func text(_ name: String) -> String? {
        known.contains(name) ? values[name] : nil
    }

    /// The value of `name`, unless it is absent or empty.
    func nonEmpty(_ name: String) -> String? {
        text(name).flatMap { $0.isEmpty ? nil : $0 }
    }

    func callback(_ name: String) throws(ThingsLinkError) -> URL? {
        guard let text = values[name], !text.isEmpty else { return nil }
        guard let url = URL(string: text), url.scheme?.isEmpty == false else { throw .invalidValue(parameter: name, value: text) }
        return url
    }

    func bool(_ name: String) throws(ThingsLinkError) -> Bool? {
        guard let text = nonEmpty(name) else { return nil }
        switch text.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: throw .invalidValue(parameter: name, value: text)
        }
    }

    func date(_ name: String) throws(ThingsLinkError) -> Date? {
        guard let text = nonEmpty(name) else { return nil }
        guard let date = ThingsDate.parse(text) else { throw .invalidValue(parameter: name, value: text) }
        return date
    }

    /// The lines of `name`, blank ones left out.
    func lines(_ name: String) -> [String]? {
        text(name).map(ThingsText.lines)
    }

    /// The comma-separated names of `name`, blank ones left out.
    func names(_ name: String) -> [String]? {
        text(name).map(ThingsText.names)
    }

    func reference(id: String, title: String) -> ThingsReference? {
        nonEmpty(id).map(ThingsReference.id) ?? nonEmpty(title).map(ThingsReference.title)
    }

    mutating func request() throws(ThingsLinkError) -> ThingsLink.Request {
        switch command {
        case .add:
            let titles = lines("titles") ?? [text("title") ?? ""]
            return .change(try titles.map { title throws(ThingsLinkError) in .toDo(try toDo(.create, title: title)) }, authToken: nil)
        case .update:
            guard let id = nonEmpty("id") else { throw .missingParameter("id") }
            return .change([.toDo(try toDo(.update(id: id), title: nonEmpty("title")))], authToken: text("auth-token"))
        case .addProject:
            let items = (lines("to-dos") ?? []).map { ThingsProjectItem.toDo(ThingsToDo(title: $0)) }
            return .change([.project(try project(.create, items: items))], authToken: nil)
        case .updateProject:
            guard let id = nonEmpty("id") else { throw .missingParameter("id") }
            return .change([.project(try project(.update(id: id), items: []))], authToken: text("auth-token"))
        case .json:
            guard let data = text("data") else { throw .missingParameter("data") }
            let (objects, ignoredAttributes) = try ThingsJSON.objects(data)
            ignored += ignoredAttributes
            return .change(objects, authToken: text("auth-token"))
        case .show:
            let filter = names("filter") ?? []
            if let id = nonEmpty("id") {
                return .show(ThingsBuiltInList(rawValue: id.lowercased()).map(ThingsShowTarget.builtIn) ?? .id(id), filter: filter)
            }
            guard let query = nonEmpty("query") else { throw .missingParameter("id") }
            return .show(.query(query), filter: filter)
        case .search:
            return .search(text("query") ?? "")
        case .version:
            return .version
        }
    }

    func toDo(_ operation: ThingsOperation, title: String?) throws(ThingsLinkError) -> ThingsToDo {
        ThingsToDo(
            operation, title: title, notes: text("notes"), prependNotes: nonEmpty("prepend-notes"), appendNotes: nonEmpty("append-notes"),
            when: nonEmpty("when"), deadline: text("deadline"), tags: names("tags"), addTags: names("add-tags"),
            checklistItems: lines("checklist-items")?.map { ThingsChecklistItem(title: $0) },
            prependChecklistItems: lines("prepend-checklist-items")?.map { ThingsChecklistItem(title: $0) },
            appendChecklistItems: lines("append-checklist-items")?.map { ThingsChecklistItem(title: $0) },
            list: reference(id: "list-id", title: "list"), heading: reference(id: "heading-id", title: "heading"),
            completed: try bool("completed"), canceled: try bool("canceled"), duplicate: try bool("duplicate") ?? false,
            creationDate: try date("creation-date"), completionDate: try date("completion-date"))
    }

    func project(_ operation: ThingsOperation, items: [ThingsProjectItem]) throws(ThingsLinkError) -> ThingsProject {
        ThingsProject(
            operation, title: operation == .create ? text("title") ?? "" : nonEmpty("title"), notes: text("notes"),
            prependNotes: nonEmpty("prepend-notes"), appendNotes: nonEmpty("append-notes"),
            when: nonEmpty("when"), deadline: text("deadline"), tags: names("tags"), addTags: names("add-tags"),
            area: reference(id: "area-id", title: "area"), items: items,
            completed: try bool("completed"), canceled: try bool("canceled"), duplicate: try bool("duplicate") ?? false,
            creationDate: try date("creation-date"), completionDate: try date("completion-date"))
    }
}

/// How Things' texts split into lines and names.
enum ThingsText {
    /// The lines of `text`, each trimmed, blank ones left out.
    static func lines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The comma-separated names of `text`, each trimmed, blank ones left out.
    static func names(_ text: String) -> [String] {
        names(text.split(separator: ","))
    }

    /// `names`, each trimmed, blank ones left out.
    static func names(_ names: [some StringProtocol]) -> [String] {
        names.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }
}

/// The dates of creation and completion a link gives: ISO 8601, with a time and a zone
/// (`2026-11-30T09:30:00Z`, fractions of a second allowed), or a day alone, taken at its
/// start in UTC.
enum ThingsDate {
    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime], [.withInternetDateTime, .withFractionalSeconds], [.withFullDate]] {
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
