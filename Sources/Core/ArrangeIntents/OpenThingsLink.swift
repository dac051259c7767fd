public import ArrangeModel
import ArrangeOrdering
import ArrangeStore
public import Foundation

/// Does what a link of Things' URL scheme asks, as Things does it, in one step of the history.
///
/// The link's changes run in one transaction: they all happen, or none does, and one undo takes
/// them all back. Links that update something need the store's token (``MakeLinkToken``), as
/// Things needs its own.
///
/// Where Arrange differs from Things, on purpose:
/// - a tag name no tag has creates the tag, where Things drops it;
/// - a heading a link adds to an existing project is created, where Things ignores it;
/// - a title longer than Arrange's 1,000 characters, or notes over its limits, refuse the
///   link whole, where Things cuts them.
///
/// ```swift
/// let link = try ThingsLink("things:///add?title=Milk&when=tomorrow&tags=Errand")
/// let answer = try await OpenThingsLink(link).perform(in: environment)
/// answer.values  // [x-things-id: "…"]
/// ```
public struct OpenThingsLink: ArrangeIntent {
    public static let title = "Open Link"

    /// The link.
    public var link: ThingsLink
    /// The version of the app, which `version` answers as `x-things-client-version`.
    public var clientVersion: String

    /// Does what `link` asks; `version` answers `clientVersion`.
    public init(_ link: ThingsLink, clientVersion: String = ThingsLink.arrangeVersion) {
        self.link = link
        self.clientVersion = clientVersion
    }

    /// Links that show, search or tell the version only read.
    public var isReadOnly: Bool {
        if case .change = link.request { false } else { true }
    }

    /// - Returns: What Things hands the link's `x-success` callback, and for `show` and
    ///   `search`, what they show.
    /// - Throws: ``ThingsLinkError``, `WhenPhraseError`, `TitleError`, ``IntentError`` and the
    ///   store's errors. Nothing is written when it throws.
    public func run(in context: IntentContext) throws -> ThingsLinkAnswer {
        var answer = ThingsLinkAnswer(values: [], view: nil, ignoredParameters: link.ignoredParameters)
        switch link.request {
        case .change(let objects, let token):
            if objects.contains(where: \.updates) { try LinkToken.check(token, in: context) }
            var runner = ThingsLinkRunner(context: context)
            var ids: [String] = []
            for (offset, object) in objects.enumerated() {
                do {
                    ids.append(try runner.perform(object))
                } catch let error where link.command == .json {
                    throw ThingsLinkError.refusedObject(number: offset + 1, reason: (error as? any LocalizedError)?.errorDescription ?? "\(error)")
                }
            }
            answer.ids = ids
            if link.command == .json {
                let json = try JSONEncoder().encode(ids)
                answer.values = [ThingsCallbackValue(name: "x-things-ids", value: String(decoding: json, as: UTF8.self))]
            } else {
                answer.values = [ThingsCallbackValue(name: "x-things-id", value: ids.joined(separator: ","))]
            }
        case .show(let target, let filter):
            answer.view = try ThingsLinkRunner(context: context).show(target, filter: filter)
        case .search(let query):
            answer.view = .search(try Search(query: query).run(in: context))
        case .version:
            answer.values = [
                ThingsCallbackValue(name: "x-things-scheme-version", value: ThingsLink.schemeVersion),
                ThingsCallbackValue(name: "x-things-client-version", value: clientVersion),
            ]
        }
        answer.successURL = link.successURL.map(answer.filling)
        return answer
    }
}

extension ThingsLink {
    /// Arrange's own version, which `version` links answer by default.
    public static let arrangeVersion = "0.1.0"
}

/// What a link answered: the values Things hands its `x-success` callback, and what a `show`
/// or `search` link shows.
///
/// Its `Codable` form is one object: each value under its name (`x-things-ids` as an array),
/// `x-success` with the link's callback filled in when it has one, `view` and `result` for what
/// a `show` or `search` link shows, and `ignoredParameters` when the link gave any.
public struct ThingsLinkAnswer: Hashable, Sendable {
    /// The values for `x-success`, in order: `x-things-id`, `x-things-ids`, or the versions.
    public var values: [ThingsCallbackValue]
    /// What a `show` or `search` link shows; `nil` for the other commands.
    public var view: ThingsView?
    /// The parameters the link gave that its command has no use for, ignored as Things ignores them.
    public var ignoredParameters: [String]
    /// The ids of the to-dos and lists the link created or updated, each top-level object's once.
    public var ids: [String] = []
    /// The link's `x-success` callback with ``values`` filled in; Arrange never opens it.
    public var successURL: URL?

    /// `callback` with ``values`` added to its query, for a link's `x-success`.
    public func filling(_ callback: URL) -> URL {
        ThingsCallback.filling(callback, with: values.map { ($0.name, $0.value) })
    }
}

extension ThingsLinkAnswer: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        static let ids = Key("x-things-ids")
        static let success = Key("x-success")
        static let ignored = Key("ignoredParameters")
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for value in values {
            if value.name == Key.ids.stringValue { try container.encode(ids, forKey: .ids) } else { try container.encode(value.value, forKey: Key(value.name)) }
        }
        try container.encodeIfPresent(successURL, forKey: .success)
        if !ignoredParameters.isEmpty { try container.encode(ignoredParameters, forKey: .ignored) }
        try view?.encode(to: encoder)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        values = []
        ids = []
        for name in ["x-things-id", "x-things-scheme-version", "x-things-client-version"] where container.contains(Key(name)) {
            let value = try container.decode(String.self, forKey: Key(name))
            values.append(ThingsCallbackValue(name: name, value: value))
            if name == "x-things-id" { ids = value.split(separator: ",").map(String.init) }
        }
        if container.contains(.ids) {
            ids = try container.decode([String].self, forKey: .ids)
            values.append(ThingsCallbackValue(name: Key.ids.stringValue, value: String(decoding: try JSONEncoder().encode(ids), as: UTF8.self)))
        }
        successURL = try container.decodeIfPresent(URL.self, forKey: .success)
        ignoredParameters = try container.decodeIfPresent([String].self, forKey: .ignored) ?? []
        view = container.contains(Key("view")) ? try ThingsView(from: decoder) : nil
    }
}

/// One value handed to a link's `x-success` callback.
public struct ThingsCallbackValue: Hashable, Sendable, Codable {
    /// Its name: `x-things-id`, `x-things-ids`, `x-things-scheme-version`, `x-things-client-version`.
    public var name: String
    /// Its value.
    public var value: String

    /// The value `value` named `name`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// What a `show` or `search` link shows: what the intent of the matching view answers.
///
/// Its `Codable` form is `{"view": NAME, "result": …}`, the result as the view's intent returns it.
public enum ThingsView: Hashable, Sendable {
    /// A to-do (``ShowItem``).
    case toDo(ItemResult)
    /// A list, the Inbox (the default list) among them (``ListItems``).
    case list(ItemListing)
    /// Today (``ShowToday``).
    case today(TodayListing)
    /// Anytime (``ShowAnytime``).
    case anytime(ItemsByList)
    /// Upcoming (``ShowUpcoming``).
    case upcoming(UpcomingListing)
    /// Someday (``ShowSomeday``).
    case someday(ItemsByList)
    /// The Logbook (``ShowLogbook``).
    case logbook(LogbookPage)
    /// The Trash (``GetTrash``).
    case trash(TrashResult)
    /// What Quick Find found (``Search``).
    case search(SearchResult)

    /// The view's name in the `Codable` form.
    public var name: String {
        switch self {
        case .toDo: "to-do"
        case .list: "list"
        case .today: "today"
        case .anytime: "anytime"
        case .upcoming: "upcoming"
        case .someday: "someday"
        case .logbook: "logbook"
        case .trash: "trash"
        case .search: "search"
        }
    }

    /// What the view's intent returned.
    var result: any Encodable {
        switch self {
        case .toDo(let result): result
        case .list(let result): result
        case .today(let result): result
        case .anytime(let result), .someday(let result): result
        case .upcoming(let result): result
        case .logbook(let result): result
        case .trash(let result): result
        case .search(let result): result
        }
    }
}

extension ThingsView: Codable {
    private enum CodingKeys: String, CodingKey { case view, result }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .view)
        try container.encode(result, forKey: .result)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let name = try container.decode(String.self, forKey: .view)
        self = switch name {
        case "to-do": .toDo(try container.decode(ItemResult.self, forKey: .result))
        case "list": .list(try container.decode(ItemListing.self, forKey: .result))
        case "today": .today(try container.decode(TodayListing.self, forKey: .result))
        case "anytime": .anytime(try container.decode(ItemsByList.self, forKey: .result))
        case "upcoming": .upcoming(try container.decode(UpcomingListing.self, forKey: .result))
        case "someday": .someday(try container.decode(ItemsByList.self, forKey: .result))
        case "logbook": .logbook(try container.decode(LogbookPage.self, forKey: .result))
        case "trash": .trash(try container.decode(TrashResult.self, forKey: .result))
        case "search": .search(try container.decode(SearchResult.self, forKey: .result))
        default: throw DecodingError.dataCorruptedError(forKey: .view, in: container, debugDescription: "'\(name)' is no view of a link.")
        }
    }
}

/// Runs a link's objects in one intent context, resolving what they name by id or by title.
struct ThingsLinkRunner {
    let context: IntentContext
    /// The tags found or created so far, by name key: a name given twice makes one tag.
    private var tagsByName: [String: Tag.ID] = [:]

    init(context: IntentContext) {
        self.context = context
    }

    /// Creates or updates `object`, and returns the id of what it created or updated.
    mutating func perform(_ object: ThingsObject) throws -> String {
        switch object {
        case .toDo(let toDo):
            switch toDo.operation {
            case .create: try create(toDo, in: toDo.list, under: toDo.heading).text
            case .update(let id): try update(toDo, id: id).text
            }
        case .project(let project):
            switch project.operation {
            case .create: try create(project).text
            case .update(let id): try update(project, id: id).text
            }
        }
    }

    // MARK: To-dos

    /// Creates the to-do in `list` under `heading`, and returns its id.
    mutating func create(_ toDo: ThingsToDo, in list: ThingsReference?, under heading: ThingsReference?) throws -> Item.ID {
        let listID = try list.map(self.list)
        if heading != nil, listID == nil { throw ThingsLinkError.headingWithoutProject }
        let section = try heading.flatMap { heading in try listID.map { try self.heading(heading, in: $0) } }
        try checkDates(creation: toDo.creationDate, completion: toDo.completionDate)
        try Self.checkLength(of: toDo.notes ?? "")
        let (when, reminder) = try self.when(toDo.when)
        let added = try AddItem(
            title: toDo.title ?? "", list: listID, notes: toDo.notes ?? "", section: section.map(ItemSection.heading),
            when: when, deadline: try deadline(toDo.deadline), reminder: reminder
        ).run(in: context)
        let id = added.items[0].id
        if let created = toDo.creationDate { _ = try SetItemCreationDate(item: id, to: created).run(in: context) }
        try setTags(of: id, to: toDo.tags, adding: toDo.addTags)
        try addChecklist(toDo.checklistItems ?? [], to: id, at: .bottom)
        try setCompletion(of: id, toDo)
        return id
    }

    /// Updates the to-do `text` names, or a copy of it made first, and returns the id of the one updated.
    mutating func update(_ toDo: ThingsToDo, id text: String) throws -> Item.ID {
        var item = try self.item(text)
        try checkDates(creation: toDo.creationDate, completion: toDo.completionDate)
        if toDo.duplicate { item = try context.item(try duplicate(item)) }
        let id = item.id
        if let title = toDo.title { _ = try EditItem(id, title: title).run(in: context) }
        if let created = toDo.creationDate { _ = try SetItemCreationDate(item: id, to: created).run(in: context) }
        if let notes = Self.notes(item.notes, replacedBy: toDo.notes, prepending: toDo.prependNotes, appending: toDo.appendNotes) {
            try Self.checkLength(of: notes)
            _ = try EditItem(id, notes: notes).run(in: context)
        }
        if toDo.list != nil || toDo.heading != nil {
            let listID = try toDo.list.map(list) ?? item.listID
            let heading = try toDo.heading.map { try self.heading($0, in: listID) }
            _ = try MoveItems([id], to: .bottom, into: listID, section: ItemSection(heading)).run(in: context)
        }
        if toDo.when != nil {
            let (when, reminder) = try self.when(toDo.when)
            if let when { _ = try SetWhen([id], to: when, reminder: reminder).run(in: context) }
        }
        if let deadline = toDo.deadline { _ = try SetDeadline([id], to: try self.deadline(deadline)).run(in: context) }
        try setTags(of: id, to: toDo.tags, adding: toDo.addTags)
        if let checklist = toDo.checklistItems {
            let entries = try context.reading.checklistItems(.ofItems([id])).map(\.id)
            if !entries.isEmpty { _ = try DeleteChecklistItems(entries).run(in: context) }
            try addChecklist(checklist, to: id, at: .bottom)
        }
        try addChecklist((toDo.prependChecklistItems ?? []).reversed(), to: id, at: .top)
        try addChecklist(toDo.appendChecklistItems ?? [], to: id, at: .bottom)
        try setCompletion(of: id, toDo)
        return id
    }

    /// Makes a copy of `item` after it, with its when, deadline, reminder, tags and checklist,
    /// open; returns its id.
    func duplicate(_ item: Item) throws -> Item.ID {
        try duplicate(item, to: item.listID, under: item.heading, at: .after(item.id))
    }

    /// Makes a copy of `item` in `list` under `heading`, at `placement`, with its when, deadline,
    /// reminder, tags, checklist and completion; returns its id.
    func duplicate(_ item: Item, to list: ItemList.ID, under heading: Heading.ID?, at placement: ItemPlacement) throws -> Item.ID {
        let copy = try AddItem(
            title: item.title, list: list, placement: placement, notes: item.notes, visibility: .all,
            section: ItemSection(heading), when: item.when, deadline: item.deadline, reminder: item.when.startDate == nil ? nil : item.reminder
        ).run(in: context).items[0].id
        if !item.tags.isEmpty { _ = try AddTags(try context.ordered(item.tags), to: .items([copy])).run(in: context) }
        let entries = try context.reading.checklistItems(.ofItems([item.id]))
        try addChecklist(entries.map { ThingsChecklistItem(title: $0.title, completed: $0.isCompleted && !$0.isCanceled, canceled: $0.isCanceled) }, to: copy, at: .bottom)
        if let done = item.completedAt {
            _ = try (item.isCanceled ? CancelItems([copy], at: done).run(in: context) : CompleteItems([copy], at: done).run(in: context))
        }
        return copy
    }

    /// Completes, cancels or reopens the to-do as `toDo` says; canceled wins over completed.
    func setCompletion(of id: Item.ID, _ toDo: ThingsToDo) throws {
        if toDo.canceled == true {
            _ = try CancelItems([id], at: toDo.completionDate).run(in: context)
        } else if toDo.completed == true {
            _ = try CompleteItems([id], at: toDo.completionDate).run(in: context)
        } else if toDo.completed == false || toDo.canceled == false, try context.item(id).isCompleted {
            _ = try ReopenItems([id]).run(in: context)
        }
    }

    func addChecklist(_ entries: [ThingsChecklistItem], to item: Item.ID, at placement: ChecklistPlacement) throws {
        var completed: [ChecklistItem.ID] = []
        var canceled: [ChecklistItem.ID] = []
        for entry in entries {
            let added = try AddChecklistItem(title: entry.title, to: item, at: placement).run(in: context)
            guard let id = added.changed.first else { continue }
            if entry.canceled { canceled.append(id) } else if entry.completed { completed.append(id) }
        }
        if !completed.isEmpty { _ = try CompleteChecklistItems(completed).run(in: context) }
        if !canceled.isEmpty { _ = try CancelChecklistItems(canceled).run(in: context) }
    }

    /// Throws for notes over ``ThingsLink/maximumNotesLength`` characters.
    static func checkLength(of notes: String) throws {
        let length = notes.count
        guard length <= ThingsLink.maximumNotesLength else { throw ThingsLinkError.notesTooLong(length) }
    }

    /// Notes as an update leaves them: `replacement` in place of `notes`, then the text to put
    /// before and after, each on a line of its own; `nil` when the update leaves them alone.
    static func notes(_ notes: String, replacedBy replacement: String?, prepending: String?, appending: String?) -> String? {
        guard replacement != nil || prepending != nil || appending != nil else { return nil }
        return [prepending, replacement ?? notes, appending].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    // MARK: Projects

    /// Creates the project as a list, with its to-dos and headings; returns its id.
    mutating func create(_ project: ThingsProject) throws -> ItemList.ID {
        try checkDates(creation: project.creationDate, completion: project.completionDate)
        let area = try project.area.map(self.area)
        let id = try CreateList(name: project.title ?? "", in: ListGroup(area)).run(in: context).list.id
        if let created = project.creationDate { _ = try SetListCreationDate(list: id, to: created).run(in: context) }
        try setNotesAndDates(of: id, project)
        try setTags(of: id, to: project.tags, adding: project.addTags)
        try addItems(project.items, to: id)
        try setCompletion(of: id, project)
        return id
    }

    /// Updates the list the project's id names, and adds the project's to-dos and headings to it.
    mutating func update(_ project: ThingsProject, id text: String) throws -> ItemList.ID {
        try checkDates(creation: project.creationDate, completion: project.completionDate)
        var id = try list(.id(text))
        if project.duplicate { id = try duplicate(try context.list(id)) }
        if let title = project.title { _ = try RenameList(list: id, name: title).run(in: context) }
        if let created = project.creationDate { _ = try SetListCreationDate(list: id, to: created).run(in: context) }
        if let area = project.area {
            _ = try MoveList(id, to: .bottom, in: .area(try self.area(area))).run(in: context)
        }
        try setNotesAndDates(of: id, project)
        try setTags(of: id, to: project.tags, adding: project.addTags)
        try addItems(project.items, to: id)
        try setCompletion(of: id, project)
        return id
    }

    /// Makes a copy of `list` after it, named as it is (with a number when the name is taken):
    /// its notes, dates, tags, headings and to-dos, open and done, out of the Trash; returns its id.
    func duplicate(_ list: ItemList) throws -> ItemList.ID {
        let name = ChangeContext.freeName(list.name, among: try context.reading.lists())
        let copy = try CreateList(name: name, placement: .after(list.id), in: ListGroup(list.area)).run(in: context).list.id
        if !list.notes.isEmpty { _ = try SetListNotes(list: copy, notes: list.notes).run(in: context) }
        if list.when != .anytime { _ = try SetListWhen(list: copy, to: list.when).run(in: context) }
        if list.deadline != nil { _ = try SetListDeadline(list: copy, to: list.deadline).run(in: context) }
        if !list.tags.isEmpty { _ = try AddTags(try context.ordered(list.tags), to: .list(copy)).run(in: context) }
        var headings: [Heading.ID: Heading.ID] = [:]
        for heading in try context.reading.headings(.inList(list.id)) where heading.trashedAt == nil {
            headings[heading.id] = try CreateHeading(title: heading.title, in: copy).run(in: context).heading.id
        }
        for item in try context.reading.items(in: list.id, visibility: .all, offset: 0, limit: .max) where item.trashedAt == nil {
            if let heading = item.heading, headings[heading] == nil { continue }
            _ = try duplicate(item, to: copy, under: item.heading.flatMap { headings[$0] }, at: .bottom)
        }
        return copy
    }

    /// Gives the list the project's notes, when and deadline, those it gives.
    func setNotesAndDates(of id: ItemList.ID, _ project: ThingsProject) throws {
        let list = try context.list(id)
        if let notes = Self.notes(list.notes, replacedBy: project.notes, prepending: project.prependNotes, appending: project.appendNotes) {
            try Self.checkLength(of: notes)
            _ = try SetListNotes(list: id, notes: notes).run(in: context)
        }
        if let text = project.when {
            let phrase = try WhenPhrase(parsing: text, on: context.today())
            guard phrase.time == nil else { throw ThingsLinkError.reminderOnProject(text) }
            _ = try SetListWhen(list: id, to: phrase.when).run(in: context)
        }
        if let deadline = project.deadline { _ = try SetListDeadline(list: id, to: try self.deadline(deadline)).run(in: context) }
    }

    /// Adds a project's to-dos and headings to the list, each to-do under the heading before it.
    mutating func addItems(_ items: [ThingsProjectItem], to list: ItemList.ID) throws {
        var heading: Heading.ID?
        for item in items {
            switch item {
            case .heading(let new):
                heading = try CreateHeading(title: new.title, in: list).run(in: context).heading.id
            case .toDo(let toDo):
                _ = try create(toDo, in: .id(list.text), under: heading.map { .id($0.text) })
            }
        }
    }

    func setCompletion(of id: ItemList.ID, _ project: ThingsProject) throws {
        if project.canceled == true {
            _ = try CancelList(list: id, at: project.completionDate).run(in: context)
        } else if project.completed == true {
            _ = try CompleteList(list: id, at: project.completionDate).run(in: context)
        } else if project.completed == false || project.canceled == false, try context.list(id).isFinished {
            _ = try ReopenList(list: id).run(in: context)
        }
    }

    // MARK: Dates

    /// The when and the reminder time `text` names, read on today; `(nil, nil)` for none.
    func when(_ text: String?) throws -> (When?, TimeOfDay?) {
        guard let text else { return (nil, nil) }
        let phrase = try WhenPhrase(parsing: text, on: context.today())
        return (phrase.when, phrase.time)
    }

    /// The deadline `text` names, read on today; `nil` for none or empty text.
    func deadline(_ text: String?) throws -> Day? {
        guard let text, !text.isEmpty else { return nil }
        return try WhenPhrase.deadline(parsing: text, on: context.today())
    }

    /// Throws for a date of creation or of completion later than now.
    func checkDates(creation: Date?, completion: Date?) throws {
        if let creation, creation > context.now() { throw ThingsLinkError.futureDate(parameter: "creation-date") }
        if let completion, completion > context.now() { throw ThingsLinkError.futureDate(parameter: "completion-date") }
    }

    // MARK: Names and ids

    /// The to-do `text` names: by Arrange id, or by the Things id it was imported with.
    func item(_ text: String) throws -> Item {
        for id in [Item.ID(text), ThingsID(text).item].compactMap({ $0 }) {
            if let item = try context.reading.item(id: id) { return item }
        }
        throw ThingsLinkError.unknownToDo(text)
    }

    /// The list `reference` names, by id (Arrange's or Things') or by name.
    func list(_ reference: ThingsReference) throws -> ItemList.ID {
        switch reference {
        case .id(let text):
            for id in [ItemList.ID(text), ThingsID(text).list].compactMap({ $0 }) where try context.reading.list(id: id) != nil {
                return id
            }
            if let area = try areaWithID(text) { throw ThingsLinkError.toDoInArea(area.name) }
            throw ThingsLinkError.unknownList(text)
        case .title(let name):
            let key = ItemList.nameKey(name)
            if let list = try context.reading.lists().first(where: { ItemList.nameKey($0.name) == key }) { return list.id }
            if let area = try context.reading.areas().first(where: { ItemList.nameKey($0.name) == key }) { throw ThingsLinkError.toDoInArea(area.name) }
            throw ThingsLinkError.unknownList(name)
        }
    }

    /// The area `reference` names, by id (Arrange's or Things') or by name.
    func area(_ reference: ThingsReference) throws -> Area.ID {
        switch reference {
        case .id(let text):
            guard let area = try areaWithID(text) else { throw ThingsLinkError.unknownArea(text) }
            return area.id
        case .title(let name):
            let key = ItemList.nameKey(name)
            guard let area = try context.reading.areas().first(where: { ItemList.nameKey($0.name) == key }) else { throw ThingsLinkError.unknownArea(name) }
            return area.id
        }
    }

    func areaWithID(_ text: String) throws -> Area? {
        for id in [Area.ID(text), ThingsID(text).area].compactMap({ $0 }) {
            if let area = try context.reading.area(id: id) { return area }
        }
        return nil
    }

    /// The heading of `list` that `reference` names; a title no heading of it has creates the heading.
    func heading(_ reference: ThingsReference, in list: ItemList.ID) throws -> Heading.ID {
        let headings = try context.reading.headings(.inList(list)).filter { $0.trashedAt == nil }
        switch reference {
        case .id(let text):
            let ids = [Heading.ID(text), ThingsID(text).heading].compactMap { $0 }
            guard let heading = headings.first(where: { ids.contains($0.id) }) else { throw ThingsLinkError.unknownHeading(text) }
            return heading.id
        case .title(let title):
            let key = title.trimmingCharacters(in: .whitespaces).lowercased()
            if let heading = headings.first(where: { $0.title.lowercased() == key }) { return heading.id }
            return try CreateHeading(title: title, in: list).run(in: context).heading.id
        }
    }

    /// Sets the tags named `names` on `target` in place of its own, then adds those named
    /// `adding`; a name no tag has creates the tag.
    mutating func setTags(of item: Item.ID, to names: [String]?, adding: [String]?) throws {
        try setTags(of: .items([item]), current: try context.item(item).tags, to: names, adding: adding)
    }

    mutating func setTags(of list: ItemList.ID, to names: [String]?, adding: [String]?) throws {
        try setTags(of: .list(list), current: try context.list(list).tags, to: names, adding: adding)
    }

    private mutating func setTags(of target: TagTarget, current: Set<Tag.ID>, to names: [String]?, adding: [String]?) throws {
        if let names {
            let wanted = try names.map { try tag(named: $0) }
            let leaving = current.subtracting(wanted)
            if !leaving.isEmpty { _ = try RemoveTags(try context.ordered(leaving), from: target).run(in: context) }
            if !wanted.isEmpty { _ = try AddTags(wanted, to: target).run(in: context) }
        }
        if let adding, !adding.isEmpty { _ = try AddTags(try adding.map { try tag(named: $0) }, to: target).run(in: context) }
    }

    /// The tag named `name`, ignoring case, created at the bottom of the top level when there is none.
    private mutating func tag(named name: String) throws -> Tag.ID {
        let key = Tag.nameKey(name)
        if let id = tagsByName[key] { return id }
        let id = try context.reading.tags().first(where: { Tag.nameKey($0.name) == key })?.id ?? CreateTag(name: name).run(in: context).tag.id
        tagsByName[key] = id
        return id
    }

    /// The tags named `names`, for a view's filter.
    func filterTags(_ names: [String]) throws -> [Tag.ID] {
        let tags = try context.reading.tags()
        return try names.map { name in
            let key = Tag.nameKey(name)
            guard let tag = tags.first(where: { Tag.nameKey($0.name) == key }) else { throw ThingsLinkError.unknownTag(name) }
            return tag.id
        }
    }

    // MARK: Showing

    /// What `target` shows, with the items tagged `filter` alone where the view filters by tag.
    func show(_ target: ThingsShowTarget, filter: [String]) throws -> ThingsView {
        let tags = try filterTags(filter)
        switch target {
        case .builtIn(let list): return try show(list, tags: tags)
        case .id(let text):
            if let item = try? item(text) { return .toDo(try ShowItem(item: item.id).run(in: context)) }
            for id in [ItemList.ID(text), ThingsID(text).list].compactMap({ $0 }) where try context.reading.list(id: id) != nil {
                return .list(try ListItems(list: id, tags: tags).run(in: context))
            }
            throw ThingsLinkError.nothingWithID(text)
        case .query(let query):
            if let list = ThingsBuiltInList(rawValue: query.lowercased()) { return try show(list, tags: tags) }
            if let list = try? list(.title(query)) { return .list(try ListItems(list: list, tags: tags).run(in: context)) }
            return .search(try Search(query: query, tags: tags).run(in: context))
        }
    }

    func show(_ list: ThingsBuiltInList, tags: [Tag.ID]) throws -> ThingsView {
        switch list {
        case .inbox: .list(try ListItems(tags: tags).run(in: context))
        case .today: .today(try ShowToday(tags: tags).run(in: context))
        case .anytime: .anytime(try ShowAnytime(tags: tags).run(in: context))
        case .upcoming: .upcoming(try ShowUpcoming(tags: tags).run(in: context))
        case .someday: .someday(try ShowSomeday(tags: tags).run(in: context))
        case .logbook: .logbook(try ShowLogbook(tags: tags).run(in: context))
        case .trash: .trash(try GetTrash().run(in: context))
        }
    }
}
