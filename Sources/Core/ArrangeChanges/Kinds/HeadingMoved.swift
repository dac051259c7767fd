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
    public init(id: Heading.ID, list: ItemList.ID, place: SyncPlace) {
        self.id = id
        self.list = list
        self.place = place
    }

    package var change: SyncChange { .moveHeading(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var id: Heading.ID?, list: ItemList.ID?, place: SyncPlace?
        try json.members(["id", "list", "place"]) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: id = try json.identifier()
            case 1: list = try json.identifier()
            default: place = try json.place()
            }
        }
        self.init(id: try json.required(id), list: try json.required(list), place: try json.required(place))
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("id") { $0.id(id) }
        members.member("list") { $0.id(list) }
        members.member("place") { $0.place(place) }
    }

    package var sizeBound: Int { 2 * ChangeSize.id + ChangeSize.place }

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
