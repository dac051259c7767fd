public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// A heading was deleted. The items it held are deleted by an ``ItemsDeleted`` before it;
/// those still under it (moved there meanwhile on another device) stay, and move to the bottom
/// of their list's items under no heading, in their order.
public struct HeadingDeleted: ChangeKind {
    package static let name: StaticString = "deleteHeading"

    /// The heading.
    public var id: Heading.ID

    /// The change of these parts.
    public init(id: Heading.ID) { self.id = id }

    package var change: SyncChange { .deleteHeading(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"))
    }

    package func apply(in context: ChangeContext) throws {
        guard let heading = try context.transaction.heading(id: id) else { return }
        try context.rehome(try context.transaction.entries(in: .heading(id), visibility: .all, offset: 0, limit: .max), from: .heading(id), toBottomOf: .items(heading.listID))
        try context.bury(heading.entry, in: .headings(heading.listID))
        try context.transaction.deleteHeading(id: id)
    }
}

extension SyncChange {
    /// A change of the kind ``HeadingDeleted``, of these parts.
    public static func deleteHeading(id: Heading.ID) -> SyncChange {
        .deleteHeading(HeadingDeleted(id: id))
    }
}
