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
    public init(list: ItemList.ID, heading: Heading.ID?, normalize: Bool) { (self.list, self.heading, self.normalize) = (list, heading, normalize) }

    package var change: SyncChange { .repairHeadings(self) }

    package static let members: ChangeMembers<Self> = [
        .member("list") { $0.list }, .member("heading") { $0.heading }, .member("normalize") { $0.normalize },
    ]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(list: try members.value("list"), heading: try members.value("heading"), normalize: try members.value("normalize"))
    }

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
