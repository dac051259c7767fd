public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// A heading was deleted. The items it held are deleted before it, by a change of their own;
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

extension HeadingDeleted: ReversibleChange {
    /// The heading back where it is now, then the items still under it back under it.
    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        guard let heading = try store.heading(id: id) else { return [] }
        return [HeadingRestored(heading, place: try ChangeRecord.place(of: heading.entry, in: .headings(heading.listID), transaction: store))]
            + (try EntriesPutBack.everything(in: .heading(id), of: store))
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        guard let heading = try store.heading(id: id) else { return nil }
        return .headingExistsAgain(title: heading.title)
    }
}

/// A deleted heading put back as it was, after the heading that was before it: how undo
/// takes a delete back. It refuses when it exists again, or the heading before it is gone.
package struct HeadingRestored: ReversibleChange {
    /// The heading as it was.
    package var heading: Heading
    /// Where it was among its list's headings.
    package var place: ChangeRecord.Place

    package init(_ heading: Heading, place: ChangeRecord.Place) { (self.heading, self.place) = (heading, place) }

    package func apply(in context: ChangeContext) throws {
        guard try context.transaction.heading(id: heading.id) == nil else { throw ChangeConflict.headingExistsAgain(title: heading.title) }
        try context.ordering.add(heading, at: try context.placement(after: place).map { Heading.ID(entry: $0) }, in: context.transaction)
    }

    package func inverse(before store: any ItemReading) throws -> [any ReversibleChange] {
        [HeadingDeleted(id: heading.id)]
    }

    package func conflict(in store: any ItemReading) throws -> ChangeConflict? {
        try store.heading(id: heading.id) == nil ? .headingGone(heading.id) : nil
    }

    /// The heading as it is now, told as made.
    package func told(in store: any ItemReading) throws -> [SyncChange] {
        try SyncChange.changes(bringingLists: [:], items: [:], headings: [heading.id: nil], upToDateIn: store)
    }
}

extension SyncChange {
    /// A change of the kind ``HeadingDeleted``, of these parts.
    public static func deleteHeading(id: Heading.ID) -> SyncChange {
        .deleteHeading(HeadingDeleted(id: id))
    }
}
