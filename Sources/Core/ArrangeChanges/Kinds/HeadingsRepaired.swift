public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// The keys of a list's headings (`heading` `nil`) or of the items under one of its headings
/// were repaired or spread evenly: a kind of its own, as ``ChecklistRepaired`` is.
public struct HeadingsRepaired: ChangeKind {
    package static let name: StaticString = "repairHeadings"

    /// The list.
    public var list: ItemList.ID
    /// The heading whose items were repaired; `nil` for the headings themselves.
    public var heading: Heading.ID?
    /// Whether the keys were spread evenly, not only repaired.
    public var normalize: Bool

    /// The change of these parts.
    public init(list: ItemList.ID, heading: Heading.ID?, normalize: Bool) {
        self.list = list
        self.heading = heading
        self.normalize = normalize
    }

    package var change: SyncChange { .repairHeadings(self) }

    package init(reading json: inout OperationJSONReader) throws(OperationJSONReader.GiveUp) {
        var list: ItemList.ID?, heading: Heading.ID?, normalize: Bool?
        try json.members(["list", "heading", "normalize"]) { json, member throws(OperationJSONReader.GiveUp) in
            switch member {
            case 0: list = try json.identifier()
            case 1: heading = try json.identifier()
            default: normalize = try json.boolean()
            }
        }
        self.init(list: try json.required(list), heading: heading, normalize: try json.required(normalize))
    }

    package func write(to members: inout LogJSON.Members) {
        members.member("list") { $0.id(list) }
        members.member("heading", ifPresent: heading) { $0.id($1) }
        members.member("normalize") { $0.bool(normalize) }
    }

    package var sizeBound: Int { 2 * ChangeSize.id + 32 }

    package func apply(in context: ChangeContext) throws {
        try context.repair(heading.map(OrderScope.heading) ?? .headings(list), normalize: normalize)
    }
}

extension SyncChange {
    /// A change of the kind ``HeadingsRepaired``, of these parts.
    public static func repairHeadings(list: ItemList.ID, heading: Heading.ID?, normalize: Bool) -> SyncChange {
        .repairHeadings(HeadingsRepaired(list: list, heading: heading, normalize: normalize))
    }
}
