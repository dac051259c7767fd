import ArrangeModel
public import Foundation
import GRDB

/// What a Things 3 database holds, as Arrange reads it: its areas, tasks (to-dos, projects and
/// headings) and checklist items, in the columns that its public readers document.
public struct ThingsLibrary: Hashable, Sendable {
    /// A row of `TMArea`.
    public struct Area: Hashable, Sendable {
        /// The area's id in Things.
        public var uuid: String
        /// The area's name.
        public var title: String
        /// Its place among the areas: ascending is the sidebar's order.
        public var index: Int64

        /// An area with these fields.
        public init(uuid: String, title: String, index: Int64) {
            self.uuid = uuid
            self.title = title
            self.index = index
        }
    }

    /// A row of `TMTag`: a tag of the tag manager's tree.
    public struct Tag: Hashable, Sendable {
        /// The tag's id in Things.
        public var uuid: String
        /// The tag's name.
        public var title: String
        /// The key that sets the tag, if any.
        public var shortcut: String?
        /// The uuid of the tag it is a child of; `nil` at the top level.
        public var parent: String?
        /// Its place among its siblings: ascending is the tag manager's order.
        public var index: Int64

        /// A tag with these fields.
        public init(uuid: String, title: String, shortcut: String? = nil, parent: String? = nil, index: Int64) {
            (self.uuid, self.title, self.shortcut, self.parent, self.index) = (uuid, title, shortcut, parent, index)
        }
    }

    /// A row of `TMTask`: a to-do, a project or a heading.
    public struct Task: Hashable, Sendable {
        /// What a row of `TMTask` is: its `type`.
        public enum Kind: Int64, Sendable {
            /// A to-do (0).
            case toDo = 0
            /// A project (1).
            case project = 1
            /// A heading inside a project (2).
            case heading = 2
        }

        /// The task's id in Things.
        public var uuid: String
        /// The task's title; Things allows it to be empty.
        public var title: String
        /// The task's notes.
        public var notes: String
        /// To-do, project or heading.
        public var kind: Kind
        /// 0 open, 2 cancelled, 3 completed.
        public var status: Int64
        /// Whether the task is in the trash.
        public var trashed: Bool
        /// 0 Inbox, 1 Anytime, 2 Someday.
        public var start: Int64
        /// A day packed as `year << 16 | month << 12 | day << 7`.
        public var startDate: Int64?
        /// The deadline, a day packed as ``startDate`` is.
        public var deadline: Int64?
        /// Set when the person dismissed the deadline from Today.
        public var deadlineSuppressionDate: Int64?
        /// 1 when the to-do is in the evening of its start date (This Evening), else 0.
        public var startBucket: Int64 = 0
        /// The uuid of the task's area, if any.
        public var area: String?
        /// The uuid of the task's project, if any; a to-do under a heading names the heading instead.
        public var project: String?
        /// The uuid of the task's heading, if any.
        public var heading: String?
        /// Its place in its project, area or start group: ascending is the display order; ties happen.
        public var index: Int64
        /// Its place in Today: ascending is the display order; ties happen.
        public var todayIndex: Int64
        /// When the task was created, in seconds since 1970.
        public var creationDate: Double?
        /// When the person last changed the task, in seconds since 1970.
        public var userModificationDate: Double?
        /// When the task was completed or cancelled, in seconds since 1970.
        public var stopDate: Double?
        /// The rule of a repeating to-do's template, as Things keeps it (`rt1_recurrenceRule`,
        /// ``ThingsRecurrence``); `nil` for any other task.
        public var recurrenceRule: Data?
        /// The time of its reminder on its start date, packed as `hour << 26 | minute << 20`; `nil` for none.
        public var reminderTime: Int64? = nil
        /// The uuid of the template a repeating to-do was made from (`rt1_repeatingTemplate`); `nil` for none.
        public var repeatingTemplate: String? = nil
        /// Whether a template makes no to-dos for now (`rt1_instanceCreationPaused`).
        public var isRepeatPaused = false

        /// Whether the row is the template of a repeating to-do (`rt1_recurrenceRule` set).
        public var isRepeatingTemplate: Bool { recurrenceRule != nil }

        /// Whether the task is completed.
        public var isCompleted: Bool { status == 3 }
        /// Whether the task is cancelled.
        public var isCancelled: Bool { status == 2 }
        /// Whether the task is neither completed nor cancelled.
        public var isOpen: Bool { status == 0 }
    }

    /// A row of `TMChecklistItem`.
    public struct ChecklistItem: Hashable, Sendable {
        /// The item's id in Things.
        public var uuid: String
        /// The item's text.
        public var title: String
        /// The uuid of the to-do it belongs to.
        public var task: String
        /// Its place in the to-do's checklist: ascending is the display order.
        public var index: Int64
        /// 0 open, 2 cancelled, 3 completed.
        public var status: Int64
        /// When it was completed or cancelled, in seconds since 1970.
        public var stopDate: Double?
    }

    /// Every area.
    public var areas: [Area]
    /// Every to-do, project and heading, trashed ones and repeating templates included.
    public var tasks: [Task]
    /// Every checklist item.
    public var checklistItems: [ChecklistItem]
    /// Every tag.
    public var tags: [Tag]
    /// The uuids of the tags set on each to-do and project, by the task's uuid (`TMTaskTag`).
    public var taskTags: [String: Set<String>]
    /// The uuids of the tags set on each area, by the area's uuid (`TMAreaTag`).
    public var areaTags: [String: Set<String>]

    /// A library of these rows.
    public init(
        areas: [Area], tasks: [Task], checklistItems: [ChecklistItem], tags: [Tag] = [], taskTags: [String: Set<String>] = [:],
        areaTags: [String: Set<String>] = [:]
    ) {
        self.areas = areas
        self.tasks = tasks
        self.checklistItems = checklistItems
        self.tags = tags
        self.taskTags = taskTags
        self.areaTags = areaTags
    }
}

/// Why a Things database cannot be read. Nothing was imported.
public enum ThingsError: Error, Hashable, Sendable {
    /// The file is missing or cannot be copied.
    case unreadable(path: String, reason: String)
    /// The file is not a Things 3 database: a table or column it needs is missing.
    case notThings(path: String, reason: String)
}

extension ThingsError: LocalizedError {
    /// What went wrong, in the app's language.
    public var errorDescription: String? {
        switch self {
        case .unreadable: MessageTable.things.message("ThingsError.unreadable")
        case .notThings: MessageTable.things.message("ThingsError.notThings")
        }
    }
}

extension ThingsError: CustomStringConvertible, CustomDebugStringConvertible {
    /// What went wrong, in English, with the path; a person sees ``errorDescription``.
    public var description: String { debugDescription }

    /// What went wrong, in English, with the path.
    public var debugDescription: String {
        switch self {
        case .unreadable(let path, let reason): "Cannot read the Things database \(path): \(reason)"
        case .notThings(let path, let reason): "\(path) is not a Things 3 database: \(reason)"
        }
    }
}

extension ThingsLibrary {
    /// Reads a Things 3 database without ever writing to it or to its `-wal` and `-shm` files:
    /// the database and whichever of them exist are copied into a temporary folder first, and
    /// the copy is read (WAL content included), then removed.
    ///
    /// - Parameter path: `main.sqlite` of Things 3.
    /// - Throws: ``ThingsError``.
    public init(contentsOf path: String) throws(ThingsError) {
        let files = FileManager.default
        let folder = files.temporaryDirectory.appendingPathComponent("arrange-things-\(UUID().uuidString)")
        defer { try? files.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("main.sqlite")
        do {
            guard files.fileExists(atPath: path) else { throw CocoaError(.fileNoSuchFile) }
            try files.createDirectory(at: folder, withIntermediateDirectories: true)
            for suffix in ["", "-wal", "-shm"] where files.fileExists(atPath: path + suffix) {
                try files.copyItem(atPath: path + suffix, toPath: copy.path + suffix)
            }
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        do {
            let queue = try DatabaseQueue(path: copy.path)
            defer { try? queue.close() }
            self = try queue.read(Self.read)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            throw .notThings(path: path, reason: error.message ?? error.description)
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
    }

    private static func read(_ db: Database) throws -> ThingsLibrary {
        let areas = try Row.fetchAll(db, sql: #"SELECT uuid, title, "index" FROM TMArea"#).map { row in
            Area(uuid: row["uuid"], title: row["title"] ?? "", index: row["index"] ?? 0)
        }
        // `startBucket` came with This Evening, `reminderTime` with reminders, and the repeating
        // templates' links and pauses with their rules' later versions: a library without a
        // column has none of it (no evening to-dos, no reminders).
        let columns = Set(try db.columns(in: "TMTask").map(\.name))
        func column(_ name: String, else absent: String) -> String { columns.contains(name) ? name : "\(absent) AS \(name)" }
        let tasks = try Row.fetchAll(db, sql: """
            SELECT uuid, title, notes, type, status, trashed, start, startDate, deadline, deadlineSuppressionDate,
                   \(column("startBucket", else: "0")),
                   area, project, heading, "index", todayIndex, creationDate, userModificationDate, stopDate,
                   rt1_recurrenceRule, \(column("reminderTime", else: "NULL")), \(column("rt1_repeatingTemplate", else: "NULL")),
                   \(column("rt1_instanceCreationPaused", else: "0"))
            FROM TMTask
            """).compactMap { row -> Task? in
            guard let kind = Task.Kind(rawValue: row["type"] ?? 0) else { return nil }
            return Task(
                uuid: row["uuid"], title: row["title"] ?? "", notes: row["notes"] ?? "", kind: kind,
                status: row["status"] ?? 0, trashed: row["trashed"] ?? false, start: row["start"] ?? 0,
                startDate: row["startDate"], deadline: row["deadline"], deadlineSuppressionDate: row["deadlineSuppressionDate"],
                startBucket: row["startBucket"] ?? 0, area: row["area"], project: row["project"], heading: row["heading"],
                index: row["index"] ?? 0, todayIndex: row["todayIndex"] ?? 0,
                creationDate: row["creationDate"], userModificationDate: row["userModificationDate"], stopDate: row["stopDate"],
                recurrenceRule: row["rt1_recurrenceRule"], reminderTime: row["reminderTime"], repeatingTemplate: row["rt1_repeatingTemplate"],
                isRepeatPaused: row["rt1_instanceCreationPaused"] ?? false)
        }
        let checklist = try Row.fetchAll(db, sql: #"SELECT uuid, title, task, "index", status, stopDate FROM TMChecklistItem"#).map { row in
            ChecklistItem(
                uuid: row["uuid"], title: row["title"] ?? "", task: row["task"] ?? "", index: row["index"] ?? 0, status: row["status"] ?? 0,
                stopDate: row["stopDate"])
        }
        // A library without TMTag has no tags.
        let tags = try db.tableExists("TMTag")
            ? Row.fetchAll(db, sql: #"SELECT uuid, title, shortcut, parent, "index" FROM TMTag"#).map { row in
                Tag(uuid: row["uuid"], title: row["title"] ?? "", shortcut: row["shortcut"], parent: row["parent"], index: row["index"] ?? 0)
            }
            : []
        // Which tags each task and area carries; a library without the tables has none.
        func uses(_ table: String, _ column: String) throws -> [String: Set<String>] {
            guard try db.tableExists(table) else { return [:] }
            var uses: [String: Set<String>] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT \(column), tags FROM \(table)") {
                guard let owner: String = row[0], let tag: String = row[1] else { continue }
                uses[owner, default: []].insert(tag)
            }
            return uses
        }
        return ThingsLibrary(
            areas: areas, tasks: tasks, checklistItems: checklist, tags: tags, taskTags: try uses("TMTaskTag", "tasks"), areaTags: try uses("TMAreaTag", "areas"))
    }
}
