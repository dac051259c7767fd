public import ArrangeModel
import ArrangeOrdering
import ArrangeStore

/// The keys of an item's checklist were repaired or spread evenly, as ``OrderRepaired`` tells of
/// other orderings: a kind of its own, so that a version without checklists takes it for a
/// change of a newer version, not for a damaged `repairOrder`.
public struct ChecklistRepaired: ChangeKind {
    package static let name: StaticString = "repairChecklist"

    /// The item whose checklist it is.
    public var item: Item.ID
    /// Whether the keys were spread evenly, not only repaired.
    public var normalize: Bool

    /// The change of these parts.
    public init(item: Item.ID, normalize: Bool) { (self.item, self.normalize) = (item, normalize) }

    package var change: SyncChange { .repairChecklist(self) }

    package static let members: ChangeMembers<Self> = [.member("item") { $0.item }, .member("normalize") { $0.normalize }]

    package init(_ members: ChangeFields) throws(OperationJSONReader.GiveUp) {
        self.init(item: try members.value("item"), normalize: try members.value("normalize"))
    }

    package func apply(in context: ChangeContext) throws {
        try context.repair(.checklist(item), normalize: normalize)
    }
}

extension SyncChange {
    /// A change of the kind ``ChecklistRepaired``, of these parts.
    public static func repairChecklist(item: Item.ID, normalize: Bool) -> SyncChange {
        .repairChecklist(ChecklistRepaired(item: item, normalize: normalize))
    }
}
