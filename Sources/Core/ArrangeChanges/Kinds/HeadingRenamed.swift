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
}

extension HeadingRenamed: RowTextChange {
    package typealias Row = Heading
    package var text: String { title }
    package init(_ id: Heading.ID, text: String) { self.init(id: id, title: text) }
    package static var field: WritableKeyPath<Row, String> { \.title }
    package static func row(_ id: Heading.ID, in store: any ItemReading) throws -> Heading? { try store.heading(id: id) }
    package static func stored(_ row: Heading) -> StoreRow { .heading(row) }
    package func conflict(in store: any ItemReading) throws -> ChangeConflict? { try store.heading(id: id) == nil ? .headingGone(id) : nil }
}

extension SyncChange {
    /// A change of the kind ``HeadingRenamed``, of these parts.
    public static func renameHeading(id: Heading.ID, title: String) -> SyncChange {
        .renameHeading(HeadingRenamed(id: id, title: title))
    }
}
