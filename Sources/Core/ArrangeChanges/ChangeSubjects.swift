package import ArrangeModel
package import Foundation

/// What a change names, by the rules of a shared list: the things it makes, the things it
/// names, and whether it touches what belongs to one person.
///
/// A shared list's log holds the list, and the items, headings, checklist entries and series
/// made in it. A change belongs there when everything it names is of that log, and it touches
/// nothing personal: Today and a place in it, an evening, a reminder, a tag, an area, a list's
/// place in the sidebar. Every other change belongs to the person's own log. A server checks a
/// shared log's changes by these rules, and a device routes its changes by them.
///
/// They come from a kind's ``ChangeKind/members``, so that a new kind states them where it
/// declares its JSON: an id member names a thing, a ``ChangeMember/made(_:_:)`` member makes
/// one, and a kind that is personal as a whole says so (``ChangeKind/isPersonal``).
///
/// ```swift
/// SyncChange.addItem(id: milk, list: groceries, title: "Milk", place: place).subjects
/// // made: [milk], named: [groceries] and the place's neighbours, isPersonal: false
/// ```
package struct ChangeSubjects: Hashable, Sendable {
    /// The items, headings, checklist entries and series the change may make: one that is new
    /// joins the log the change is in.
    package var made: Set<UUID> = []
    /// The lists, items, headings, checklist entries, series and ordering neighbours the change
    /// names, which must be of the log it is in.
    package var named: Set<UUID> = []
    /// Whether the change touches what belongs to one person.
    package var isPersonal = false

    package init(made: Set<UUID> = [], named: Set<UUID> = [], isPersonal: Bool = false) {
        (self.made, self.named, self.isPersonal) = (made, named, isPersonal)
    }

    /// Every id the change makes or names.
    package var all: Set<UUID> { made.union(named) }

    /// Notes that the change names `id`: a thing of the log, or, for a tag or an area, something personal.
    package mutating func name<Subject>(_ id: Identifier<Subject>) {
        switch Subject.self {
        case is Tag.Type, is Area.Type: isPersonal = true
        case is Replica.Type: break
        default: named.insert(id.rawValue)
        }
    }
}

extension ChangeKind {
    package static var isPersonal: Bool { false }

    package var subjects: ChangeSubjects { memberSubjects }

    /// What the change's ``members`` name.
    package var memberSubjects: ChangeSubjects {
        var subjects = ChangeSubjects(isPersonal: Self.isPersonal)
        for member in Self.members.members { member.subjects(self, &subjects) }
        return subjects
    }
}

extension SyncChange {
    /// What the change names, by the rules of a shared list; `nil` for a change of a kind this
    /// version does not know, of which nothing can be said. A replacement and a renumbering name
    /// what the change they carry names.
    package var subjects: ChangeSubjects? {
        switch self {
        case .unknown: nil
        case .replacement(_, let change), .renumbering(_, let change): change.subjects
        default: kind?.subjects
        }
    }
}

extension LogValue {
    package func collectSubjects(into subjects: inout ChangeSubjects) {}
}

extension Identifier {
    package func collectSubjects(into subjects: inout ChangeSubjects) { subjects.name(self) }
}

extension Array where Element: LogValue {
    package func collectSubjects(into subjects: inout ChangeSubjects) {
        for element in self { element.collectSubjects(into: &subjects) }
    }
}

extension Optional where Wrapped: LogValue {
    package func collectSubjects(into subjects: inout ChangeSubjects) { self?.collectSubjects(into: &subjects) }
}

extension SyncPlace {
    package func collectSubjects(into subjects: inout ChangeSubjects) {
        for neighbour in [after, before].compactMap({ $0 }) { subjects.name(neighbour) }
    }
}

extension When {
    /// An evening is personal: it puts an item in one person's This Evening.
    package func collectSubjects(into subjects: inout ChangeSubjects) {
        if isEvening { subjects.isPersonal = true }
    }
}

extension TimeOfDay {
    /// A time of day in a change is a reminder's, which is personal.
    package func collectSubjects(into subjects: inout ChangeSubjects) { subjects.isPersonal = true }
}

extension RepeatRule {
    /// A rule's reminder is personal.
    package func collectSubjects(into subjects: inout ChangeSubjects) {
        if reminder != nil { subjects.isPersonal = true }
    }
}

extension OrderScope {
    /// A list's items and headings, a heading's items and an item's checklist name their owner;
    /// Today, the sidebar's lists, the areas and the tags are personal.
    package func collectSubjects(into subjects: inout ChangeSubjects) {
        switch self {
        case .items(let list), .headings(let list): subjects.name(list)
        case .heading(let heading): subjects.name(heading)
        case .checklist(let item): subjects.name(item)
        case .lists, .today, .areas, .area, .tags: subjects.isPersonal = true
        }
    }
}
