public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

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
        self.id = id
        self.list = list
        self.title = title
        self.place = place
    }

    package var change: SyncChange { .createHeading(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var id: Heading.ID?, list: ItemList.ID?, title: String?, place: SyncPlace?
        try json.members(["id", "list", "title", "place"]) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: id = try json.identifier()
            case 1: list = try json.identifier()
            case 2: title = try json.string()
            default: place = try json.place()
            }
        }
        self.init(id: try json.required(id), list: try json.required(list), title: try json.required(title), place: try json.required(place))
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("id") { $0.id(id) }
        members.member("list") { $0.id(list) }
        members.member("title") { $0.string(title) }
        members.member("place") { $0.place(place) }
    }

    package func check(_ check: ChangeCheck) throws(OperationProblem) {
        try check.length(of: title, as: .title)
    }

    package var sizeBound: Int { 2 * ChangeSize.id + ChangeSize.text(title) + ChangeSize.place }

    package func apply(in context: ChangeContext) throws {
        guard try context.transaction.heading(id: id) == nil else { return }
        let heading = Heading(id: id, listID: try context.existingList(list), title: ChangeContext.storable(title: title), createdAt: context.stamp)
        try context.ordering.add(heading, at: try context.placement(place, in: .headings(heading.listID)).map { Heading.ID(entry: $0) }, in: context.transaction)
    }
}

extension SyncChange {
    /// A change of the kind ``HeadingCreated``, of these parts.
    public static func createHeading(id: Heading.ID, list: ItemList.ID, title: String, place: SyncPlace) -> SyncChange {
        .createHeading(HeadingCreated(id: id, list: list, title: title, place: place))
    }
}
