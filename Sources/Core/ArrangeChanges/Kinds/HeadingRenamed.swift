public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// A heading got a new title.
public struct HeadingRenamed: ChangeKind {
    package static let name: StaticString = "renameHeading"

    /// The heading.
    public var id: Heading.ID
    /// Its new title.
    public var title: String

    /// The change of these parts.
    public init(id: Heading.ID, title: String) { (self.id, self.title) = (id, title) }

    package var change: SyncChange { .renameHeading(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }, .member("title") { $0.title }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), title: try members.value("title"))
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: title, as: .title)
    }

    package func apply(in context: ChangeContext) throws {
        guard var heading = try context.transaction.heading(id: id) else { return }
        heading.title = ChangeContext.storable(title: title)
        try context.transaction.update(heading)
    }
}

extension HeadingRenamed: ReversibleChange, FieldChange {
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        guard let heading = try store.heading(id: id), heading.title != title else { return [] }
        return [HeadingRenamed(id: id, title: heading.title)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try store.heading(id: id) == nil ? .headingGone(id) : nil
    }

    package static func changes(from old: Heading?, to heading: Heading) -> [Self] {
        guard let old, old.title != heading.title else { return [] }
        return [HeadingRenamed(id: heading.id, title: heading.title)]
    }
}

extension SyncChange {
    /// A change of the kind ``HeadingRenamed``, of these parts.
    public static func renameHeading(id: Heading.ID, title: String) -> SyncChange {
        .renameHeading(HeadingRenamed(id: id, title: title))
    }
}
