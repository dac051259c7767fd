public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// A heading moved to a place among the headings of a list, its own or another; the items
/// under it go with it.
public struct HeadingMoved: ChangeKind {
    package static let name: StaticString = "moveHeading"

    /// The heading.
    public var id: Heading.ID
    /// The list it went to.
    public var list: ItemList.ID
    /// Where it went among the headings of that list.
    public var place: SyncPlace

    /// The change of these parts.
    public init(id: Heading.ID, list: ItemList.ID, place: SyncPlace) { (self.id, self.list, self.place) = (id, list, place) }

    package var change: SyncChange { .moveHeading(self) }

    package static let members: ChangeMembers<Self> = [.member("id") { $0.id }, .member("list") { $0.list }, .member("place") { $0.place }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(id: try members.value("id"), list: try members.value("list"), place: try members.value("place"))
    }

    package func apply(in context: ChangeContext) throws {
        guard let heading = try context.transaction.heading(id: id) else { return }
        let scope = OrderScope.headings(try context.existingList(list))
        if scope != .headings(heading.listID) { try context.bury(heading.entry, in: .headings(heading.listID)) }
        try context.place([id.entryID], at: place, in: scope)
    }
}

extension SyncChange {
    /// A change of the kind ``HeadingMoved``, of these parts.
    public static func moveHeading(id: Heading.ID, list: ItemList.ID, place: SyncPlace) -> SyncChange {
        .moveHeading(HeadingMoved(id: id, list: list, place: place))
    }
}
