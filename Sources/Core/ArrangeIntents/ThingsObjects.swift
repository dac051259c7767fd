public import Foundation

// What the links of Things' URL scheme ask to create or update, as values: the objects of the
// `json` command, which the other commands that change things (`add`, `add-project`, `update`,
// `update-project`) are read into as well. Every text is as the link gave it, dates in words
// too: ``OpenThingsLink`` reads them on the day it runs.

/// Whether a Things object is created or updated.
public enum ThingsOperation: Hashable, Sendable {
    /// A new to-do or project.
    case create
    /// The to-do or project with this id: an Arrange id, or the Things id of one a Things
    /// import brought over (``ThingsID``).
    case update(id: String)
}

/// A list, an area or a heading a link names: by id, or by its title.
public enum ThingsReference: Hashable, Sendable {
    /// By id: an Arrange id, or a Things id (``ThingsID``).
    case id(String)
    /// By title, ignoring case.
    case title(String)
}

/// A to-do a link creates or updates: Things' `add` and `update`, and the `to-do` object of `json`.
///
/// A `nil` field is left as it is; an update's empty text clears the field where Things'
/// documentation says so (`notes`, `deadline`, `tags`, `checklist-items`).
public struct ThingsToDo: Hashable, Sendable {
    /// Whether it is created or updated.
    public var operation: ThingsOperation
    /// Its title.
    public var title: String?
    /// Its notes, in place of any it has.
    public var notes: String?
    /// Text put before its notes, on a line of its own.
    public var prependNotes: String?
    /// Text put after its notes, on a line of its own.
    public var appendNotes: String?
    /// When it is meant to be done, in Things' words: `today`, `tomorrow`, `evening`,
    /// `anytime`, `someday`, `yyyy-mm-dd` or a phrase, perhaps ending with `@time` for a reminder.
    public var when: String?
    /// Its deadline, in words; empty for none.
    public var deadline: String?
    /// The names of its tags, in place of those it has.
    public var tags: [String]?
    /// The names of tags to add to those it has.
    public var addTags: [String]?
    /// Its checklist, in place of the one it has.
    public var checklistItems: [ThingsChecklistItem]?
    /// Entries put at the top of its checklist.
    public var prependChecklistItems: [ThingsChecklistItem]?
    /// Entries put at the bottom of its checklist.
    public var appendChecklistItems: [ThingsChecklistItem]?
    /// The list it goes to; a new to-do without one goes to the default list (Things' Inbox).
    public var list: ThingsReference?
    /// The heading of that list it goes under.
    public var heading: ThingsReference?
    /// Whether it is completed: `true` completes it, `false` reopens it.
    public var completed: Bool?
    /// Whether it is canceled: `true` cancels it, `false` reopens it; it wins over ``completed``.
    public var canceled: Bool?
    /// Whether an update acts on a copy of the to-do, made first, and leaves the to-do as it is.
    public var duplicate: Bool
    /// When it was created.
    public var creationDate: Date?
    /// When it was completed or canceled; with neither, it is left alone.
    public var completionDate: Date?

    /// A to-do that `operation` creates or updates, with the fields given.
    public init(
        _ operation: ThingsOperation = .create, title: String? = nil, notes: String? = nil, prependNotes: String? = nil, appendNotes: String? = nil,
        when: String? = nil, deadline: String? = nil, tags: [String]? = nil, addTags: [String]? = nil,
        checklistItems: [ThingsChecklistItem]? = nil, prependChecklistItems: [ThingsChecklistItem]? = nil, appendChecklistItems: [ThingsChecklistItem]? = nil,
        list: ThingsReference? = nil, heading: ThingsReference? = nil, completed: Bool? = nil, canceled: Bool? = nil, duplicate: Bool = false,
        creationDate: Date? = nil, completionDate: Date? = nil
    ) {
        self.operation = operation
        self.title = title
        self.notes = notes
        self.prependNotes = prependNotes
        self.appendNotes = appendNotes
        self.when = when
        self.deadline = deadline
        self.tags = tags
        self.addTags = addTags
        self.checklistItems = checklistItems
        self.prependChecklistItems = prependChecklistItems
        self.appendChecklistItems = appendChecklistItems
        self.list = list
        self.heading = heading
        self.completed = completed
        self.canceled = canceled
        self.duplicate = duplicate
        self.creationDate = creationDate
        self.completionDate = completionDate
    }

    /// How many objects it counts toward a link's limit: itself and its checklist entries.
    var objectCount: Int {
        1 + [checklistItems, prependChecklistItems, appendChecklistItems].reduce(0) { $0 + ($1?.count ?? 0) }
    }
}

/// A project a link creates or updates: Things' `add-project` and `update-project`, and the
/// `project` object of `json`. Arrange makes a project a list.
public struct ThingsProject: Hashable, Sendable {
    /// Whether it is created or updated.
    public var operation: ThingsOperation
    /// Its title: the list's name.
    public var title: String?
    /// Its notes, in place of any it has: the list's notes.
    public var notes: String?
    /// Text put before its notes.
    public var prependNotes: String?
    /// Text put after its notes.
    public var appendNotes: String?
    /// When it is meant to be done, in words, without a time: lists take no reminder.
    public var when: String?
    /// Its deadline, in words; empty for none.
    public var deadline: String?
    /// The names of its tags, in place of those it has.
    public var tags: [String]?
    /// The names of tags to add to those it has.
    public var addTags: [String]?
    /// The area it goes to.
    public var area: ThingsReference?
    /// Its to-dos and headings, in order, each to-do under the heading before it.
    public var items: [ThingsProjectItem]
    /// Whether it is completed, with its open to-dos: `true` completes it, `false` reopens it.
    public var completed: Bool?
    /// Whether it is canceled, with its open to-dos; it wins over ``completed``.
    public var canceled: Bool?
    /// Whether an update acts on a copy of the project, made first, and leaves it as it is.
    public var duplicate: Bool
    /// When it was created.
    public var creationDate: Date?
    /// When it was completed or canceled; with neither, it is left alone.
    public var completionDate: Date?

    /// A project that `operation` creates or updates, with the fields given.
    public init(
        _ operation: ThingsOperation = .create, title: String? = nil, notes: String? = nil, prependNotes: String? = nil, appendNotes: String? = nil,
        when: String? = nil, deadline: String? = nil, tags: [String]? = nil, addTags: [String]? = nil, area: ThingsReference? = nil,
        items: [ThingsProjectItem] = [], completed: Bool? = nil, canceled: Bool? = nil, duplicate: Bool = false,
        creationDate: Date? = nil, completionDate: Date? = nil
    ) {
        self.operation = operation
        self.title = title
        self.notes = notes
        self.prependNotes = prependNotes
        self.appendNotes = appendNotes
        self.when = when
        self.deadline = deadline
        self.tags = tags
        self.addTags = addTags
        self.area = area
        self.items = items
        self.completed = completed
        self.canceled = canceled
        self.duplicate = duplicate
        self.creationDate = creationDate
        self.completionDate = completionDate
    }

    /// How many objects it counts toward a link's limit: itself and all it holds.
    var objectCount: Int {
        items.reduce(1) { count, item in
            switch item {
            case .toDo(let toDo): count + toDo.objectCount
            case .heading: count + 1
            }
        }
    }
}

/// What a project's `items` hold.
public enum ThingsProjectItem: Hashable, Sendable {
    /// A to-do, under the heading before it.
    case toDo(ThingsToDo)
    /// A heading.
    case heading(ThingsHeading)
}

/// A heading of a project a link creates.
public struct ThingsHeading: Hashable, Sendable {
    /// Its title.
    public var title: String

    /// A heading titled `title`.
    public init(title: String) {
        self.title = title
    }
}

/// An entry of a to-do's checklist a link creates.
public struct ThingsChecklistItem: Hashable, Sendable {
    /// Its title.
    public var title: String
    /// Whether it is completed.
    public var completed: Bool
    /// Whether it is canceled; it wins over ``completed``.
    public var canceled: Bool

    /// An entry titled `title`, open unless `completed` or `canceled`.
    public init(title: String, completed: Bool = false, canceled: Bool = false) {
        self.title = title
        self.completed = completed
        self.canceled = canceled
    }
}

/// One top-level object of a link: a to-do or a project.
public enum ThingsObject: Hashable, Sendable {
    /// A to-do.
    case toDo(ThingsToDo)
    /// A project.
    case project(ThingsProject)

    /// How many objects it counts toward a link's limit.
    var objectCount: Int {
        switch self {
        case .toDo(let toDo): toDo.objectCount
        case .project(let project): project.objectCount
        }
    }

    /// Whether it updates something, and so needs the store's token.
    var updates: Bool {
        switch self {
        case .toDo(let toDo): toDo.operation != .create
        case .project(let project): project.operation != .create
        }
    }
}
