public import ArrangeModel
import ArrangeOrdering
package import ArrangeStore

/// A heading was created at a place among the headings of a list.
public struct HeadingCreated: ChangeKind {
    package static let name: StaticString = "createHeading"

    /// The new heading.
    public var id: Heading.ID
    /// Its list.
    public var list: ItemList.ID
    /// Its title.
    public var title: String
    /// Where it went among the headings of its list.
    public var place: SyncPlace

    /// The change of these parts.
    public init(id: Heading.ID, list: ItemList.ID, title: String, place: SyncPlace) {
        (self.id, self.list, self.title, self.place) = (id, list, title, place)
    }

    package var change: SyncChange { .createHeading(self) }

    package static let members: ChangeMembers<Self> = [
        .made("id") { $0.id }, .member("list") { $0.list }, .member("title") { $0.title }, .member("place") { $0.place },
    ]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), list: try members.value("list"), title: try members.value("title"), place: try members.value("place"))
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: title, as: .title)
    }

    package func apply(in context: ChangeContext) throws {
        guard try context.transaction.heading(id: id) == nil else { return }
        let heading = Heading(id: id, listID: try context.existingList(list), title: ChangeContext.storable(title: title), createdAt: context.stamp)
        try context.ordering.add(heading, at: try context.placement(place, in: .headings(heading.listID)).map { Heading.ID(entry: $0) }, in: context.transaction)
    }
}

extension HeadingCreated: RowCreation {
    /// Deleting it; the items put under it since stay in its list.
    package var deletion: any ReversibleChange { SyncChange.deletion(ofHeading: id) }
    package func deletionConflict(in store: any ItemReading) throws -> ChangeConflict? { try store.heading(id: id) == nil ? .headingGone(id) : nil }
}

extension SyncChange {
    /// A change of the kind ``HeadingCreated``, of these parts.
    public static func createHeading(id: Heading.ID, list: ItemList.ID, title: String, place: SyncPlace) -> SyncChange {
        .createHeading(HeadingCreated(id: id, list: list, title: title, place: place))
    }
}
